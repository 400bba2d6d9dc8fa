/*
 * CT fused multiply-add (CT_OP_FMA, function ARITH): dst[i] = src0[i] * m + a rounded once to dst_fmt, in V_V (m, a
 * = src1[i], src2[i]), V_S (the fp32 scalars `scalar`, `scalar1`), V_VuV and V_VuV_LOOP (m, a = the unit vectors
 * src1[u], src2[u]). src0 and dst are in dst_fmt, src1 and src2 in src_fmt (dst_fmt, or fp32 for fp16 / bf16 / tf32
 * data); float formats only (ct_execute.c checks all of it).
 *
 * One rounding (tx8/isa.h, "FMA"): every operand has a significand of at most 24 bits, so p = x * m is exact in
 * double. s = p + a is rounded to double; TwoSum gives its exact error e (p + a = s + e, exact in round-to-nearest
 * double arithmetic, no overflow: |p| < 2^256). Where e != 0 and s's last significand bit is even, s moves one double
 * ulp toward p + a: that makes s the round-to-odd value of p + a in double (of the two doubles around p + a, the one
 * with an odd last bit; adjacent doubles alternate parity, across binades too). Rounding a round-to-odd value of
 * >= p + 2 bits to a p-bit format gives, in every mode, what rounding the exact value does (Boldo and Melquiond,
 * "When double rounding is odd", 2005); p <= 24 here, and no result comes near double's subnormals (|p + a| is 0 or
 * >= 2^-298). ct_store_block then rounds once. Zeros: an exact zero sum is +0 except -0 + -0 (double addition
 * already does that), and under RND_NEG_INF it is -0 except +0 + +0 (IEEE 754 §6.3). inf / NaN operands follow
 * double arithmetic (inf * 0 and inf - inf give NaN; NaN is stored as the canonical quiet NaN).
 */
#include <string.h>

#include "ct_internal.h"

static int sign_bit(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return (int)(b >> 63);
}

/* r[i] = the round-to-odd double of x[i] * m[i] + a[i] (see the file comment); neg_zero: RND_NEG_INF's zero sign. */
static void fma_block(const double *x, const double *m, const double *a, double *r, size_t n, int neg_zero) {
    for (size_t i = 0; i < n; ++i) {
        const double p = x[i] * m[i]; /* exact */
        const double s = p + a[i];
        if (s - s != 0.0) { /* inf or NaN: nothing to correct */
            r[i] = s;
            continue;
        }
        if (s == 0.0) { /* p == -a exactly, or both zero: exact, only the sign to settle */
            const int both_pos_zero = p == 0.0 && a[i] == 0.0 && !sign_bit(p) && !sign_bit(a[i]);
            r[i] = neg_zero && !both_pos_zero ? -0.0 : s;
            continue;
        }
        const double v = s - p;
        const double e = (p - (s - v)) + (a[i] - v); /* TwoSum: p + a == s + e exactly */
        uint64_t bits;
        memcpy(&bits, &s, sizeof bits);
        if (e != 0.0 && (bits & 1u) == 0) {
            bits = ((e > 0.0) == (s > 0.0)) ? bits + 1 : bits - 1; /* one ulp away from / toward zero */
            memcpy(&r[i], &bits, sizeof bits);
        } else {
            r[i] = s;
        }
    }
}

typedef struct fma_ctx {
    const ct_job *j;
    int neg_zero;
} fma_ctx;

/* One VuV pass: dst[i] = src[i] * mul[i % u] + add[i % u], i < n (n a multiple of u); short units are replicated
 * across a block as in ct_arith.c. */
static void vuv_pass(const fma_ctx *c, const uint8_t *src, const uint8_t *mul, const uint8_t *add, uint8_t *dst,
                     uint64_t n, uint32_t u) {
    const ct_job *j = c->j;
    double x[CT_BLOCK], m[CT_BLOCK], a[CT_BLOCK], r[CT_BLOCK];
    if (u <= CT_BLOCK) {
        const uint32_t len = (CT_BLOCK / u) * u;
        ct_load_block(mul, j->sf, m, u);
        ct_load_block(add, j->sf, a, u);
        for (uint32_t k = u; k < len; k += u) {
            memcpy(m + k, m, u * sizeof(double));
            memcpy(a + k, a, u * sizeof(double));
        }
        for (uint64_t i = 0; i < n; i += len) {
            const size_t cnt = (size_t)(n - i < len ? n - i : len);
            ct_load_block(src + i * j->db, j->df, x, cnt);
            fma_block(x, m, a, r, cnt, c->neg_zero);
            ct_store_block(dst + i * j->db, j->df, j->rnd, r, cnt);
        }
        return;
    }
    for (uint64_t base = 0; base < n; base += u)
        for (uint32_t k = 0; k < u; k += CT_BLOCK) {
            const size_t cnt = u - k < CT_BLOCK ? u - k : CT_BLOCK;
            ct_load_block(src + (base + k) * j->db, j->df, x, cnt);
            ct_load_block(mul + (uint64_t)k * j->sb, j->sf, m, cnt);
            ct_load_block(add + (uint64_t)k * j->sb, j->sf, a, cnt);
            fma_block(x, m, a, r, cnt, c->neg_zero);
            ct_store_block(dst + (base + k) * j->db, j->df, j->rnd, r, cnt);
        }
}

void ct_fma_run(const ct_job *j) {
    const Ncc_CT_GR_Param_Regs *q = &j->p->param;
    fma_ctx c = {j, j->rnd == RND_NEG_INF};
    double x[CT_BLOCK], m[CT_BLOCK], a[CT_BLOCK], r[CT_BLOCK];
    const uint64_t n = q->src_elem_num;

    switch (j->p->ctrl.format) {
    case CT_FMT_V_V:
        for (uint64_t i = 0; i < n; i += CT_BLOCK) {
            const size_t cnt = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
            ct_load_block(j->src0 + i * j->db, j->df, x, cnt);
            ct_load_block(j->src1 + i * j->sb, j->sf, m, cnt);
            ct_load_block(j->src2 + i * j->sb, j->sf, a, cnt);
            fma_block(x, m, a, r, cnt, c.neg_zero);
            ct_store_block(j->dst + i * j->db, j->df, j->rnd, r, cnt);
        }
        break;
    case CT_FMT_V_S: { /* both scalars are fp32 bits (float formats only) */
        const double ms = ct_scalar_value(q->scalar, Fmt_FP32), as = ct_scalar_value(q->scalar1, Fmt_FP32);
        for (uint32_t k = 0; k < CT_BLOCK; ++k) m[k] = ms, a[k] = as;
        for (uint64_t i = 0; i < n; i += CT_BLOCK) {
            const size_t cnt = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
            ct_load_block(j->src0 + i * j->db, j->df, x, cnt);
            fma_block(x, m, a, r, cnt, c.neg_zero);
            ct_store_block(j->dst + i * j->db, j->df, j->rnd, r, cnt);
        }
        break;
    }
    case CT_FMT_V_VuV:
        vuv_pass(&c, j->src0, j->src1, j->src2, j->dst, n, q->unit_elem_num);
        break;
    default: { /* CT_FMT_V_VuV_LOOP: pass p covers src0/dst + p*src_elem_num, src1/src2 + p*unit_elem_num */
        const uint32_t passes = q->full_unit_elem_num / q->unit_elem_num;
        for (uint32_t p = 0; p < passes; ++p) {
            const uint64_t uoff = (uint64_t)p * q->unit_elem_num * j->sb;
            vuv_pass(&c, j->src0 + (uint64_t)p * n * j->db, j->src1 + uoff, j->src2 + uoff,
                     j->dst + (uint64_t)p * n * j->db, n, q->unit_elem_num);
        }
        break;
    }
    }
}

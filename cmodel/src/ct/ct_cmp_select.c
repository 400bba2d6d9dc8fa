/*
 * CT compare and select.
 *   CMP (V_V / V_S / V_VuV / V_VuV_LOOP): dst[i] = (src0[i] cmp rhs) ? 1 : 0 in dst_fmt (src_fmt or int8);
 *                    rhs = src1[i], the scalar, or the unit vector's src1[i % unit_elem_num] (VuV_LOOP: per pass,
 *                    as ARITH). IEEE semantics: every comparison with NaN is false except NE.
 *   SELECT (V_V):    dst[i] = src0[i] != 0 ? src1[i] : src2[i]; the mask is read as a number in src_fmt (-0 counts
 *                    as 0, NaN as non-zero); the chosen element (dst_fmt) is copied bit for bit (no rounding, NaN
 *                    payloads and tf32 containers are kept).
 */
#include <string.h>

#include "ct_internal.h"

static void compare(uint32_t op, const double *a, const double *b, double *r, size_t n) {
    size_t i;
    switch (op) {
    case CT_OP_CMP_EQ: for (i = 0; i < n; ++i) r[i] = a[i] == b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_NE: for (i = 0; i < n; ++i) r[i] = a[i] != b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_LT: for (i = 0; i < n; ++i) r[i] = a[i] < b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_LE: for (i = 0; i < n; ++i) r[i] = a[i] <= b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_GT: for (i = 0; i < n; ++i) r[i] = a[i] > b[i] ? 1.0 : 0.0; break;
    default: for (i = 0; i < n; ++i) r[i] = a[i] >= b[i] ? 1.0 : 0.0; break;
    }
}

/* One VuV pass: dst[i] = src[i] cmp unit[i % u], i < n (n a multiple of u); a short unit is replicated across a
 * block, a long one read alongside. */
static void cmp_vuv_pass(const ct_job *j, const uint8_t *src, const uint8_t *unit, uint8_t *dst, uint64_t n,
                         uint32_t u) {
    double a[CT_BLOCK], b[CT_BLOCK], r[CT_BLOCK];
    if (u <= CT_BLOCK) {
        const uint32_t len = (CT_BLOCK / u) * u;
        ct_load_block(unit, j->sf, b, u);
        for (uint32_t k = u; k < len; k += u) memcpy(b + k, b, u * sizeof(double));
        for (uint64_t i = 0; i < n; i += len) {
            const size_t m = (size_t)(n - i < len ? n - i : len);
            ct_load_block(src + i * j->sb, j->sf, a, m);
            compare(j->op, a, b, r, m);
            ct_store_block(dst + i * j->db, j->df, j->rnd, r, m);
        }
        return;
    }
    for (uint64_t base = 0; base < n; base += u)
        for (uint32_t k = 0; k < u; k += CT_BLOCK) {
            const size_t m = u - k < CT_BLOCK ? u - k : CT_BLOCK;
            ct_load_block(src + (base + k) * j->sb, j->sf, a, m);
            ct_load_block(unit + (uint64_t)k * j->sb, j->sf, b, m);
            compare(j->op, a, b, r, m);
            ct_store_block(dst + (base + k) * j->db, j->df, j->rnd, r, m);
        }
}

void ct_cmp_run(const ct_job *j) {
    const Ncc_CT_GR_Param_Regs *q = &j->p->param;
    const uint64_t n = q->src_elem_num;
    const uint32_t format = j->p->ctrl.format;
    if (format == CT_FMT_V_VuV || format == CT_FMT_V_VuV_LOOP) {
        /* VuV is one pass; VuV_LOOP pass p covers src0/dst + p*src_elem_num, src1 + p*unit_elem_num */
        const uint32_t passes = format == CT_FMT_V_VuV ? 1 : q->full_unit_elem_num / q->unit_elem_num;
        for (uint32_t p = 0; p < passes; ++p)
            cmp_vuv_pass(j, j->src0 + (uint64_t)p * n * j->sb, j->src1 + (uint64_t)p * q->unit_elem_num * j->sb,
                         j->dst + (uint64_t)p * n * j->db, n, q->unit_elem_num);
        return;
    }
    const int scalar = format == CT_FMT_V_S;
    double a[CT_BLOCK], b[CT_BLOCK], r[CT_BLOCK];
    if (scalar) {
        const double s = ct_scalar_value(j->p->param.scalar, j->sf);
        for (uint32_t k = 0; k < CT_BLOCK; ++k) b[k] = s;
    }
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        ct_load_block(j->src0 + i * j->sb, j->sf, a, m);
        if (!scalar) ct_load_block(j->src1 + i * j->sb, j->sf, b, m);
        compare(j->op, a, b, r, m);
        ct_store_block(j->dst + i * j->db, j->df, j->rnd, r, m);
    }
}

void ct_select_run(const ct_job *j) {
    const uint64_t n = j->p->param.src_elem_num;
    const uint32_t eb = j->db; /* data elements: dst_fmt; the mask: src_fmt */
    double mask[CT_BLOCK];
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        ct_load_block(j->src0 + i * j->sb, j->sf, mask, m);
        for (size_t k = 0; k < m; ++k) {
            const uint64_t off = (i + k) * eb;
            /* memmove: dst may be exactly one of the sources (same element, read before written) */
            memmove(j->dst + off, (mask[k] != 0.0 ? j->src1 : j->src2) + off, eb);
        }
    }
}

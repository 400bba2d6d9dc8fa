/* op_attention: random shapes (batch dims with broadcasting, Sq = 1, Skv past one key block and not a multiple of
 * it), with and without an additive mask (broadcast rows), causal, fp32 / bf16 / fp16, against a double-precision
 * reference; cycles at least the NE's for the MACs of the visible (query, key) pairs; faults for bad contracts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/check.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

typedef struct attn_case {
    int dim;                                /* 2..5 */
    int32_t qs[6], ks[6], vs[6], ms[6], os[6];
    Data_Format fmt, out_fmt, mask_fmt;
    int has_mask, causal;
    float scale;
} attn_case;

static uint64_t count(const int32_t *s, int dim) {
    uint64_t n = 1;
    for (int i = 0; i < dim; ++i) n *= (uint64_t)s[i];
    return n;
}

/* Index of out's matrix o in an operand with batch extents ts (broadcast dims read matrix 0). */
static uint64_t matrix_of(const attn_case *c, const int32_t *ts, uint64_t o) {
    uint64_t idx = 0, stride = 1;
    for (int i = c->dim - 3; i >= 0; --i) {
        const uint64_t at = o % (uint64_t)c->os[i];
        o /= (uint64_t)c->os[i];
        idx += (ts[i] == 1 ? 0 : at) * stride, stride *= (uint64_t)ts[i];
    }
    return idx;
}

/* softmax(scale q k^T + mask) v in double, for the stored (rounded) inputs. */
static void reference(const attn_case *c, const double *q, const double *k, const double *v, const double *m,
                      double *out) {
    const int d = c->dim;
    const int32_t sq = c->os[d - 2], dv = c->os[d - 1], skv = c->ks[d - 2], dk = c->ks[d - 1];
    const int32_t mq = c->ms[d - 2], mk = c->ms[d - 1];
    const uint64_t batches = count(c->os, d - 2);
    double *s = malloc(sizeof(double) * skv);
    for (uint64_t o = 0; o < batches; ++o) {
        const double *qm = q + matrix_of(c, c->qs, o) * sq * dk, *km = k + matrix_of(c, c->ks, o) * skv * dk;
        const double *vm = v + matrix_of(c, c->vs, o) * skv * dv;
        const double *mm = c->has_mask ? m + matrix_of(c, c->ms, o) * mq * mk : NULL;
        for (int32_t i = 0; i < sq; ++i) {
            double mx = -INFINITY, sum = 0;
            for (int32_t j = 0; j < skv; ++j) {
                double acc = 0;
                for (int32_t t = 0; t < dk; ++t) acc += qm[i * dk + t] * km[j * dk + t];
                s[j] = (double)c->scale * acc;
                if (mm) s[j] += mm[(mq == 1 ? 0 : i * mk) + (mk == 1 ? 0 : j)];
                if (c->causal && j > i + (skv - sq)) s[j] = -INFINITY;
                if (s[j] > mx) mx = s[j];
            }
            for (int32_t j = 0; j < skv; ++j) sum += s[j] = exp(s[j] - mx);
            for (int32_t e = 0; e < dv; ++e) {
                double acc = 0;
                for (int32_t j = 0; j < skv; ++j) acc += s[j] * vm[j * dv + e];
                out[(o * sq + i) * dv + e] = acc / sum;
            }
        }
    }
    free(s);
}

/* NE cycles of a gemm instruction of these sizes (tx8/cm_cycles.h): a lower bound for the MACs it stands for. */
static uint64_t ne_rate(Data_Format f) {
    const tx8_hw_config *c = tx8_hal_config();
    return f == Fmt_FP32 ? c->ne_macs_per_cycle_fp32 : c->ne_macs_per_cycle_bf16;
}

static void run_case(const attn_case *c, tx8_rng *r) {
    const int d = c->dim;
    const uint64_t nq = count(c->qs, d), nk = count(c->ks, d), nv = count(c->vs, d), no = count(c->os, d);
    const uint64_t nm = c->has_mask ? count(c->ms, d) : 0;
    double *q = malloc(sizeof(double) * nq), *k = malloc(sizeof(double) * nk), *v = malloc(sizeof(double) * nv);
    double *m = malloc(sizeof(double) * (nm + 1)), *want = malloc(sizeof(double) * no);
    double *got = malloc(sizeof(double) * no);
    for (uint64_t i = 0; i < nq; ++i) q[i] = tx8_rng_uniform(r, -1, 1);
    for (uint64_t i = 0; i < nk; ++i) k[i] = tx8_rng_uniform(r, -1, 1);
    for (uint64_t i = 0; i < nv; ++i) v[i] = tx8_rng_uniform(r, -1, 1);
    /* BERT-style: mostly 0, some large negative (padding), a few moderate biases */
    for (uint64_t i = 0; i < nm; ++i) {
        const int kind = tx8_rng_int(r, 0, 9);
        m[i] = kind < 6 ? 0.0 : kind < 8 ? tx8_rng_uniform(r, -2, 2) : -10000.0;
    }
    tx8_test_quantize(c->fmt, q, nq), tx8_test_quantize(c->fmt, k, nk), tx8_test_quantize(c->fmt, v, nv);
    if (nm) tx8_test_quantize(c->mask_fmt, m, nm);
    L_SHAPE sq, sk, sv, sm, so, si;
    assert_int_equal(tx8_lshape_init(&sq, c->qs, d), 0);
    assert_int_equal(tx8_lshape_init(&sk, c->ks, d), 0);
    assert_int_equal(tx8_lshape_init(&sv, c->vs, d), 0);
    assert_int_equal(tx8_lshape_init(&so, c->os, d), 0);
    if (c->has_mask) assert_int_equal(tx8_lshape_init(&sm, c->ms, d), 0);
    const uint64_t eb = tx8_format_bytes(c->fmt);
    uint64_t at = 0x100;
    TSR tq = {c->fmt, at, &sq};
    at += (nq * eb + 255) / 256 * 256;
    TSR tk = {c->fmt, at, &sk};
    at += (nk * eb + 255) / 256 * 256;
    TSR tv = {c->fmt, at, &sv};
    at += (nv * eb + 255) / 256 * 256;
    TSR tm = {c->mask_fmt, at, &sm};
    at += (nm * tx8_format_bytes(c->mask_fmt) + 255) / 256 * 256;
    TSR to = {c->out_fmt, at, &so};
    at += (no * tx8_format_bytes(c->out_fmt) + 255) / 256 * 256;
    ATTENTION_PARAM p = {c->scale, (uint32_t)c->causal};
    const uint64_t imm_bytes = op_attention_imm_size(tx8_hal_config(), &p, &tq, &tk, &tv, c->has_mask ? &tm : NULL,
                                                     &to);
    assert_true(imm_bytes > 0);
    const int32_t ib[1] = {(int32_t)imm_bytes};
    assert_int_equal(tx8_lshape_init(&si, ib, 1), 0);
    TSR timm = {Fmt_INT8, at, &si};
    assert_true(at + imm_bytes <= tx8_hal_config()->spm_bytes);
    tx8_test_spm_store(tq.addr, c->fmt, q, nq);
    tx8_test_spm_store(tk.addr, c->fmt, k, nk);
    tx8_test_spm_store(tv.addr, c->fmt, v, nv);
    if (nm) tx8_test_spm_store(tm.addr, c->mask_fmt, m, nm);
    const uint64_t cycles = op_attention(&p, &tq, &tk, &tv, c->has_mask ? &tm : NULL, &timm, &to);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_true(cycles != TX8_CYCLES_INVALID);
    tx8_test_spm_load(to.addr, c->out_fmt, got, no);
    reference(c, q, k, v, m, want);
    /* Tolerance: out is a convex combination of v's rows (|v| <= 1). fp32 operands: the fp32 scores (D products,
     * |q k| <= D) and exp / sums are good to ~D * 2^-24 relative; bf16 / fp16: P rounded to the format for the
     * NE (half an ulp) dominates. Then the rounding of out itself. A wrong rescale or a lost block is off by
     * far more (> 1e-2). */
    const int32_t dk = c->ks[d - 1];
    const double tol = c->fmt == Fmt_FP32 ? 64.0 * (dk + 16) * tx8_test_eps(Fmt_FP32)
                                          : 2.0 * tx8_test_eps(c->fmt) + 64.0 * (dk + 16) * tx8_test_eps(Fmt_FP32);
    char what[160];
    snprintf(what, sizeof what, "attention dim %d %s->%s Sq %d Skv %d D %d Dv %d mask %d causal %d", d,
             tx8_format_name(c->fmt), tx8_format_name(c->out_fmt), c->os[d - 2], c->ks[d - 2], dk, c->os[d - 1],
             c->has_mask, c->causal);
    tx8_test_assert_close(got, want, no, tx8_test_eps(c->out_fmt), tol, what);
    /* Cycles: at least the NE time of the visible pairs' MACs (Sq*Skv*(D + Dv) without causal). */
    const int32_t sqn = c->os[d - 2], skv = c->ks[d - 2], dv = c->os[d - 1];
    uint64_t pairs = 0;
    for (int32_t i = 0; i < sqn; ++i) pairs += c->causal ? (uint64_t)(i + (skv - sqn) + 1) : (uint64_t)skv;
    const uint64_t macs = count(c->os, d - 2) * pairs * (uint64_t)(dk + dv);
    assert_true(cycles >= macs / ne_rate(c->fmt));
    if (macs > 100000000)
        printf("[ attention ] %llu MACs in %llu cycles: %.3f of the tile's NE peak\n", (unsigned long long)macs,
               (unsigned long long)cycles, (double)macs / ((double)cycles * (double)ne_rate(c->fmt)));
    free(q), free(k), free(v), free(m), free(want), free(got);
}

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xA77Eu);
    const Data_Format fmts[3] = {Fmt_FP32, Fmt_BF16, Fmt_FP16};
    for (int t = 0; t < 30; ++t) {
        attn_case c;
        memset(&c, 0, sizeof c);
        c.dim = tx8_rng_int(&r, 2, 5);
        c.fmt = fmts[t % 3];
        c.out_fmt = t % 2 ? Fmt_FP32 : c.fmt;
        c.mask_fmt = t % 4 < 2 ? Fmt_FP32 : c.fmt;
        c.has_mask = (t / 3) % 2;
        c.causal = (t / 6) % 2;
        /* sizes: mostly small; every fifth case crosses a key block (Skv > 128) and a query block */
        const int big = t % 5 == 4;
        int32_t sqn = t % 7 == 0 ? 1 : tx8_rng_int(&r, 1, big ? 150 : 24);
        int32_t skv = tx8_rng_int(&r, 1, big ? 300 : 40);
        if (c.causal && sqn > skv) sqn = skv;
        const int32_t dk = tx8_rng_int(&r, 1, 40), dv = tx8_rng_int(&r, 1, 40);
        c.scale = (float)(1.0 / sqrt((double)dk));
        for (int i = 0; i < c.dim - 2; ++i) {
            const int32_t e = big ? 1 : tx8_rng_int(&r, 1, 3);
            c.os[i] = e;
            c.qs[i] = e > 1 && tx8_rng_int(&r, 0, 3) == 0 ? 1 : e;
            c.ks[i] = e > 1 && tx8_rng_int(&r, 0, 3) == 0 ? 1 : e;
            c.vs[i] = e > 1 && tx8_rng_int(&r, 0, 3) == 0 ? 1 : e;
            c.ms[i] = e > 1 && tx8_rng_int(&r, 0, 1) == 0 ? 1 : e;
        }
        const int d = c.dim;
        c.qs[d - 2] = sqn, c.qs[d - 1] = dk;
        c.ks[d - 2] = skv, c.ks[d - 1] = dk;
        c.vs[d - 2] = skv, c.vs[d - 1] = dv;
        c.os[d - 2] = sqn, c.os[d - 1] = dv;
        c.ms[d - 2] = tx8_rng_int(&r, 0, 1) ? sqn : 1; /* BERT's [B,1,1,S] broadcasts the rows */
        c.ms[d - 1] = skv;
        run_case(&c, &r);
    }
}

/* ViT's shape at one head: 197 tokens, head dim 64, bf16 (two query and two key blocks, tails of 69). */
static void vit_head(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x0197u);
    attn_case c;
    memset(&c, 0, sizeof c);
    c.dim = 3, c.fmt = Fmt_BF16, c.out_fmt = Fmt_BF16, c.mask_fmt = Fmt_FP32, c.scale = 0.125f;
    const int32_t qs[3] = {2, 197, 64}, vs[3] = {2, 197, 64};
    memcpy(c.qs, qs, sizeof qs), memcpy(c.ks, qs, sizeof qs), memcpy(c.vs, vs, sizeof vs), memcpy(c.os, vs, sizeof vs);
    run_case(&c, &r);
    c.causal = 1, c.fmt = c.out_fmt = Fmt_FP32;
    run_case(&c, &r);
}

/* BERT-base's attention on one tile: heads of seq 512, head dim 64, bf16. Prints the NE-peak ratio
 * (2*H*S*S*D MACs over cycles x the tile's bf16 MAC rate); the check is only the NE lower bound. */
static void bert_heads(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x0512u);
    attn_case c;
    memset(&c, 0, sizeof c);
    c.dim = 3, c.fmt = Fmt_BF16, c.out_fmt = Fmt_BF16, c.mask_fmt = Fmt_FP32, c.scale = 0.125f;
    const int32_t s[3] = {4, 512, 64}; /* 4 of the 12 heads: q, k, v, out of 12 exceed one SPM */
    memcpy(c.qs, s, sizeof s), memcpy(c.ks, s, sizeof s), memcpy(c.vs, s, sizeof s), memcpy(c.os, s, sizeof s);
    run_case(&c, &r);
}

static void bad_input(void **state) {
    (void)state;
    const int32_t q2[2] = {4, 8}, k2[2] = {6, 8}, v2[2] = {6, 5}, o2[2] = {4, 5}, kbad[2] = {6, 7};
    const int32_t i1[1] = {1 << 20}, small[1] = {64};
    L_SHAPE sq, sk, sv, so, skb, si, ss;
    tx8_lshape_init(&sq, q2, 2), tx8_lshape_init(&sk, k2, 2), tx8_lshape_init(&sv, v2, 2);
    tx8_lshape_init(&so, o2, 2), tx8_lshape_init(&skb, kbad, 2), tx8_lshape_init(&si, i1, 1);
    tx8_lshape_init(&ss, small, 1);
    TSR q = {Fmt_FP32, 0x0, &sq}, k = {Fmt_FP32, 0x1000, &sk}, v = {Fmt_FP32, 0x2000, &sv};
    TSR o = {Fmt_FP32, 0x3000, &so}, imm = {Fmt_INT8, 0x10000, &si};
    ATTENTION_PARAM p = {0.5f, 0};
    /* the good call first: no fault */
    assert_true(op_attention(&p, &q, &k, &v, NULL, &imm, &o) != TX8_CYCLES_INVALID);
    assert_int_equal(tx8_test_faults()->count, 0);
    TSR x = k;
    x.shape = &skb;
    assert_true(op_attention(&p, &q, &x, &v, NULL, &imm, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_attention: shapes q [4,8], k [6,7], v [6,5] -> out [4,5] do not match");
    x = v, x.format = Fmt_BF16;
    assert_true(op_attention(&p, &q, &k, &x, NULL, &imm, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_attention: k->format = fp32, v->format = bf16; both must be q's (fp32)");
    x = imm, x.shape = &ss;
    assert_true(op_attention(&p, &q, &k, &v, NULL, &x, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_attention: imm must be an int8 [bytes] buffer of at least");
    /* causal needs Sq <= Skv: q [4,8] against k [2,8] */
    const int32_t k22[2] = {2, 8}, v22[2] = {2, 5};
    L_SHAPE sk2, sv2;
    tx8_lshape_init(&sk2, k22, 2), tx8_lshape_init(&sv2, v22, 2);
    TSR k2t = {Fmt_FP32, 0x1000, &sk2}, v2t = {Fmt_FP32, 0x2000, &sv2};
    ATTENTION_PARAM pc = {0.5f, 1};
    assert_true(op_attention(&pc, &q, &k2t, &v2t, NULL, &imm, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_attention: causal with Sq = 4 > Skv = 2");
    /* batch dims: q [2,4,8] against out [3,4,5] */
    const int32_t q3[3] = {2, 4, 8}, k3[3] = {3, 6, 8}, v3[3] = {3, 6, 5}, o3[3] = {3, 4, 5};
    L_SHAPE sq3, sk3, sv3, so3;
    tx8_lshape_init(&sq3, q3, 3), tx8_lshape_init(&sk3, k3, 3), tx8_lshape_init(&sv3, v3, 3);
    tx8_lshape_init(&so3, o3, 3);
    TSR q3t = {Fmt_FP32, 0x0, &sq3}, k3t = {Fmt_FP32, 0x1000, &sk3}, v3t = {Fmt_FP32, 0x2000, &sv3};
    TSR o3t = {Fmt_FP32, 0x3000, &so3};
    assert_true(op_attention(&p, &q3t, &k3t, &v3t, NULL, &imm, &o3t) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_attention: batch dim 0 of q (2) must be out's (3) or 1");
    /* a mask that does not broadcast to [Sq, Skv] */
    const int32_t m2[2] = {3, 6};
    L_SHAPE sm;
    tx8_lshape_init(&sm, m2, 2);
    TSR mask = {Fmt_FP32, 0x4000, &sm};
    assert_true(op_attention(&p, &q, &k, &v, &mask, &imm, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_attention: mask's last dims [3,6] must broadcast to [Sq,Skv] = [4,6]");
    /* out on top of q */
    x = o, x.addr = 0x40;
    assert_true(op_attention(&p, &q, &k, &v, NULL, &imm, &x) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_attention: out overlaps q");
    /* the compile-time check says the same */
    char why[TX8_CHECK_WHY_BYTES];
    assert_int_equal(tx8_check_attention(tx8_hal_config(), &p, &q, &k, &v, NULL, &imm, &x, why, sizeof why), -1);
    x = k, x.shape = &skb;
    assert_int_equal(tx8_check_attention(tx8_hal_config(), &p, &q, &x, &v, NULL, &imm, &o, why, sizeof why), -1);
    assert_non_null(strstr(why, "do not match"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(vit_head, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bert_heads, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_input, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

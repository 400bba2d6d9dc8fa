/*
 * op_batchnorm_inference against a scalar double reference: the seed's fixed cases, seeded random cases over
 * dim (2..4) x layout (Tensor, NTensor, Cx, NCx) x dtype (fp32, fp16, bf16) x shape, memory safety, and bad input.
 * op_batchnorm_inference_folded the same way (in place too), within the bound of tx8/ops.h, compared with the
 * 10-step op on the same inputs (the largest difference printed), and its cycles against the 10-step op's on the
 * demo-like shape [1,28,56,129] (printed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/layout.h"
#include "tx8/ops.h"
#include "tx8_test.h"

#define GUARD 256u
#define SENTINEL 0xA5u

typedef struct bn_case {
    int32_t dim;
    int32_t shape[4];
    LAYOUT_MODE layout;
    Data_Format fmt;
} bn_case;

/* SPM placement of one case: in | guard | out | guard | scale shift mean var | imm | guard. */
typedef struct bn_bufs {
    tx8_layout lay;
    uint32_t c_lanes;
    uint64_t in, out, vec[4], imm, imm_bytes, end;
} bn_bufs;

static uint64_t up256(uint64_t x) { return (x + 255) / 256 * 256; }

static int plan_buffers(const bn_case *c, const BATCHNORM_INFER_PARAM *param, TSR *in_tsr, bn_bufs *b) {
    if (tx8_layout_init(&b->lay, c->layout, c->fmt, c->shape, c->dim, 256) != 0) return -1;
    const tx8_layout *l = &b->lay;
    b->c_lanes = l->c_split ? l->cx * l->unit + l->c0_aligned : l->c0_aligned;
    b->in = 0;
    b->out = up256(l->total_bytes) + GUARD;
    uint64_t p = b->out + up256(l->total_bytes) + GUARD;
    for (int i = 0; i < 4; ++i, p += up256(b->c_lanes * 4ull)) b->vec[i] = p;
    b->imm = p;
    b->imm_bytes = op_batchnorm_inference_imm_size(tx8_hal_config(), param, in_tsr);
    b->end = b->imm + b->imm_bytes + GUARD;
    return b->end <= tx8_hal_config()->spm_bytes ? 0 : -1;
}

static void fill_spm(uint64_t addr, uint64_t bytes, uint8_t v) {
    uint8_t *buf = malloc(bytes);
    memset(buf, v, bytes);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, buf, bytes), 0);
    free(buf);
}

static void assert_spm_is(uint64_t addr, uint64_t bytes, uint8_t v, const char *what) {
    uint8_t *buf = malloc(bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, buf, bytes), 0);
    for (uint64_t i = 0; i < bytes; ++i)
        if (buf[i] != v) {
            print_error("%s: byte %llu was overwritten\n", what, (unsigned long long)i);
            fail();
        }
    free(buf);
}

/* Writes a compact NHWC array of doubles into SPM in layout l (values rounded to l->fmt). */
static void store_tensor(uint64_t addr, const tx8_layout *l, const double *vals) {
    size_t n = (size_t)l->n * l->hw * l->c;
    uint8_t *compact = malloc(n * l->elem_bytes), *image = malloc(l->total_bytes);
    for (size_t i = 0; i < n; ++i) cm_store_element(compact + i * l->elem_bytes, l->fmt, vals[i], RND_NEAREST_EVEN);
    tx8_layout_pack(l, compact, image);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    free(compact), free(image);
}

static void load_tensor(uint64_t addr, const tx8_layout *l, double *vals) {
    size_t n = (size_t)l->n * l->hw * l->c;
    uint8_t *compact = malloc(n * l->elem_bytes), *image = malloc(l->total_bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    tx8_layout_unpack(l, image, compact);
    for (size_t i = 0; i < n; ++i) vals[i] = cm_load_element(compact + i * l->elem_bytes, l->fmt);
    free(compact), free(image);
}

static void make_tsr(TSR *t, L_SHAPE *s, Data_Format f, uint64_t addr, const int32_t *shape, int32_t dim) {
    tx8_lshape_init(s, shape, dim);
    t->format = f;
    t->addr = addr;
    t->shape = s;
}

/* Runs one case end to end and checks every element, the guards and the inputs. Returns the op's cycles. */
static uint64_t run_case(const bn_case *c, tx8_rng *rng) {
    BATCHNORM_INFER_PARAM param = {c->layout, 1e-6f};
    L_SHAPE s_in, s_out, s_vec, s_imm;
    TSR in, out, vec[4], imm;
    make_tsr(&in, &s_in, c->fmt, 0, c->shape, c->dim);
    bn_bufs b;
    assert_int_equal(plan_buffers(c, &param, &in, &b), 0);
    const tx8_layout *l = &b.lay;
    const size_t n = (size_t)l->n * l->hw * l->c;
    const uint32_t C = l->c;

    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double)), *v[4];
    for (size_t i = 0; i < n; ++i) x[i] = tx8_rng_uniform(rng, -4.0, 4.0);
    tx8_test_quantize(c->fmt, x, n);
    for (int k = 0; k < 4; ++k) {
        v[k] = malloc(b.c_lanes * sizeof(double));
        for (uint32_t i = 0; i < b.c_lanes; ++i) /* lanes past C are junk the op must not let leak */
            v[k][i] = i < C ? (k == 3 ? tx8_rng_uniform(rng, 0.05, 3.0) : tx8_rng_uniform(rng, -2.0, 2.0))
                            : (k == 3 ? -1.0 : 1e30);
        tx8_test_quantize(Fmt_FP32, v[k], b.c_lanes);
    }

    fill_spm(0, b.end, SENTINEL);
    store_tensor(b.in, l, x);
    for (int k = 0; k < 4; ++k) tx8_test_spm_store(b.vec[k], Fmt_FP32, v[k], b.c_lanes);

    const int32_t vshape[1] = {(int32_t)C}, ishape[1] = {(int32_t)b.imm_bytes};
    make_tsr(&out, &s_out, c->fmt, b.out, c->shape, c->dim);
    for (int k = 0; k < 4; ++k) make_tsr(&vec[k], &s_vec, Fmt_FP32, b.vec[k], vshape, 1);
    make_tsr(&imm, &s_imm, Fmt_INT8, b.imm, ishape, 1);

    uint64_t before = tx8_hal_cycles();
    uint64_t cycles = op_batchnorm_inference(&param, &in, &vec[0], &vec[1], &vec[2], &vec[3], &imm, &out);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_true(cycles != TX8_CYCLES_INVALID && cycles > 0);
    assert_int_equal(tx8_hal_cycles() - before, cycles); /* what the op reports is what the chip counted */

    load_tensor(b.out, l, y);
    const double eps32 = tx8_test_eps(Fmt_FP32), eps_out = tx8_test_eps(c->fmt);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t ch = (uint32_t)(i % C);
        const double sc = v[0][ch], sh = v[1][ch], mu = v[2][ch], var = v[3][ch];
        const double rstd = 1.0 / sqrt((double)(float)(var + (double)1e-6f));
        const double want = sc * (x[i] - mu) * rstd + sh;
        /* fp32 steps (sub, add eps, rsqrt, 3 mul/add) then one rounding to the output format */
        const double tol = 8 * eps32 * (fabs(x[i] - mu) * rstd * fabs(sc) + fabs(sh)) + eps_out * fabs(want) + 1e-7;
        if (!(fabs(y[i] - want) <= tol)) {
            print_error("bn %s %s dim %d [%d %d %d %d]: element %zu (channel %u): got %.9g want %.9g tol %.3g\n",
                        tx8_format_name(c->fmt), tx8_layout_name(c->layout), c->dim, c->shape[0], c->shape[1],
                        c->shape[2], c->shape[3], i, ch, y[i], want, tol);
            fail();
        }
    }
    /* guards around out and after imm untouched; in and the vectors unchanged */
    assert_spm_is(b.out - GUARD, GUARD, SENTINEL, "guard before out");
    assert_spm_is(b.out + up256(l->total_bytes), GUARD, SENTINEL, "guard after out");
    assert_spm_is(b.imm + b.imm_bytes, GUARD, SENTINEL, "guard after imm");
    double *x2 = malloc(n * sizeof(double)), *v2 = malloc(b.c_lanes * sizeof(double));
    load_tensor(b.in, l, x2);
    assert_memory_equal(x, x2, n * sizeof(double));
    for (int k = 0; k < 4; ++k) {
        tx8_test_spm_load(b.vec[k], Fmt_FP32, v2, b.c_lanes);
        assert_memory_equal(v[k], v2, b.c_lanes * sizeof(double));
    }
    free(x2), free(v2);
    for (int k = 0; k < 4; ++k) free(v[k]);
    free(x), free(y);
    return cycles;
}

/* ---- the seed's cases ---- */

static void seed_cases(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed());
    const bn_case cases[] = {
        {4, {4, 112, 2, 30}, LAYOUT_NCX, Fmt_FP16},  /* C <= 32: VuV_mul per batch */
        {4, {4, 112, 2, 129}, LAYOUT_NCX, Fmt_FP16}, /* C > 32: VuV_mul_loop over Cx*64 + VuV_mul over C0 */
        {4, {2, 1, 2, 131}, LAYOUT_NCX, Fmt_FP16},   /* the layout worked example */
        {4, {4, 112, 2, 30}, LAYOUT_NCX, Fmt_FP32},
        {4, {4, 112, 2, 129}, LAYOUT_NCX, Fmt_BF16},
        {4, {1, 8, 8, 64}, LAYOUT_CX, Fmt_FP32},     /* exactly one Cx block, no C0 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) run_case(&cases[i], &rng);
}

/* ---- random cases ---- */

static void random_cases(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() ^ 0xb17c);
    static const int32_t kChannels[] = {1, 30, 32, 33, 64, 129, 131};
    static const Data_Format kFmts[] = {Fmt_FP32, Fmt_FP16, Fmt_BF16};
    int ran = 0, per_layout[LAYOUT_COUNT] = {0}, per_fmt[3] = {0};
    for (int iter = 0; iter < 160; ++iter) {
        bn_case c = {0};
        c.dim = tx8_rng_int(&rng, 2, 4);
        c.layout = (LAYOUT_MODE)tx8_rng_int(&rng, 0, LAYOUT_COUNT - 1);
        const int fi = tx8_rng_int(&rng, 0, 2);
        c.fmt = kFmts[fi];
        const int32_t ch = iter % 3 == 2 ? tx8_rng_int(&rng, 1, 200) : kChannels[tx8_rng_int(&rng, 0, 6)];
        c.shape[0] = (c.layout == LAYOUT_TENSOR || c.layout == LAYOUT_CX) ? 1 : tx8_rng_int(&rng, 1, 4);
        for (int d = 1; d < c.dim - 1; ++d) c.shape[d] = tx8_rng_int(&rng, 1, c.dim == 3 ? 40 : 9);
        c.shape[c.dim - 1] = ch;
        run_case(&c, &rng);
        ran++, per_layout[c.layout]++, per_fmt[fi]++;
    }
    printf("[ tx8 ] op_batchnorm_inference: %d random cases (Tensor %d, NTensor %d, Cx %d, NCx %d; "
           "fp32 %d, fp16 %d, bf16 %d)\n", ran, per_layout[0], per_layout[1], per_layout[2], per_layout[3],
           per_fmt[0], per_fmt[1], per_fmt[2]);
}

/* ---- costs: the narrow formats pay for the conversions; the cycle count is stable ---- */

static void cycles_are_deterministic_and_fp16_costs_more(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, 7);
    bn_case c16 = {4, {2, 8, 8, 129}, LAYOUT_NCX, Fmt_FP16}, c32 = c16;
    c32.fmt = Fmt_FP32;
    const uint64_t a = run_case(&c16, &rng), b = run_case(&c16, &rng), f = run_case(&c32, &rng);
    assert_int_equal(a, b);
    assert_true(a > f);
    /* lower bound from the CT datapath alone: 4 fp32 passes over the image at 64 lanes per cycle */
    assert_true(f >= 4 * (2 * 8 * 8 * (2 * 64 + 4)) / 64);
}

/* ---- bad input: clear faults, nothing written ---- */

static void bad_input_is_reported(void **state) {
    (void)state;
    const int32_t shape[4] = {2, 4, 4, 40}, vshape[1] = {40}, wrong_c[1] = {39}, ishape[1] = {1 << 20};
    BATCHNORM_INFER_PARAM param = {LAYOUT_NCX, 1e-6f};
    L_SHAPE s_in, s_out, s_vec, s_bad, s_imm, s_small;
    TSR in, out, vec, bad_vec, imm, small_imm;
    make_tsr(&in, &s_in, Fmt_FP16, 0, shape, 4);
    make_tsr(&out, &s_out, Fmt_FP16, 0x40000, shape, 4);
    make_tsr(&vec, &s_vec, Fmt_FP32, 0x80000, vshape, 1);
    make_tsr(&bad_vec, &s_bad, Fmt_FP32, 0x80000, wrong_c, 1);
    make_tsr(&imm, &s_imm, Fmt_INT8, 0x100000, ishape, 1);
    const int32_t tiny[1] = {64};
    make_tsr(&small_imm, &s_small, Fmt_INT8, 0x100000, tiny, 1);
    fill_spm(0x40000, 0x10000, SENTINEL);

    assert_true(op_batchnorm_inference(&param, &in, &bad_vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference: scale must be a 1x..x40 per-channel vector");
    assert_true(op_batchnorm_inference(&param, &in, &vec, &vec, &vec, &vec, &small_imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("imm must be an int8 [bytes] buffer of at least");
    in.format = Fmt_INT8;
    assert_true(op_batchnorm_inference(&param, &in, &vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("in->format = int8, supported fp32, fp16, bf16");
    in.format = Fmt_FP16;
    out.format = Fmt_BF16;
    assert_true(op_batchnorm_inference(&param, &in, &vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("out->format = bf16 differs from in->format = fp16");
    out.format = Fmt_FP16;
    param.layout = LAYOUT_CX; /* Cx needs N == 1 */
    assert_true(op_batchnorm_inference(&param, &in, &vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("does not fit layout Cx");
    param.layout = LAYOUT_NCX;
    s_in.dim = 5;
    assert_true(op_batchnorm_inference(&param, &in, &vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("in->shape->dim = 5, supported 2..4");
    s_in.dim = 4;
    assert_true(op_batchnorm_inference(&param, &in, &vec, NULL, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("shift (or its shape) is NULL");
    s_out.shape_real[1] = 3;
    assert_true(op_batchnorm_inference(&param, &in, &vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("out->shape->shape_real differs");
    assert_spm_is(0x40000, 0x10000, SENTINEL, "out after rejected calls");
    /* imm placed at the end of SPM: the engine's bounds check names the field, the op reports invalid */
    s_out.shape_real[1] = 4;
    imm.addr = tx8_hal_config()->spm_bytes - 1024;
    assert_true(op_batchnorm_inference(&param, &in, &vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("outside SPM"); /* exactly one: the op stops issuing after the first fault */
    assert_spm_is(0x40000, 0x10000, SENTINEL, "out after a faulting call");
}

/* ---- op_batchnorm_inference_folded: a = scale * rsqrt(var + eps), b = shift - mean * a, then one fma pass ---- */

/* One unit in the last place of fmt at |v| (the subnormal step below the normal range). */
static double ulp_of(Data_Format fmt, double v) {
    const int p = fmt == Fmt_FP32 ? 24 : fmt == Fmt_BF16 ? 8 : 11, emin = fmt == Fmt_FP16 ? -14 : -126;
    int e;
    frexp(fabs(v), &e); /* |v| in [2^(e-1), 2^e) */
    if (v == 0.0 || e - 1 < emin) e = emin + 1;
    return ldexp(1.0, e - 1 - p + 1);
}

/* |folded - 10-step| per element, with S = |a|*|x - mean| + |b| + |y| (the magnitudes the fp32 steps round at):
 * both are within a few 2^-24 * S of the exact value before the final rounding to the output format, so fp32
 * outputs differ by a few 2^-24 * S and fp16 / bf16 outputs by one ulp of the output (two roundings to nearest)
 * plus that, which only shows where the output nearly cancels (|y| << S). */
typedef struct fold_stats {
    int cases, compared, narrow_past_1ulp;
    double max_ulps_narrow; /* fp16 / bf16: largest |folded - 10-step| in ulps of the output */
    double max_u_narrow;    /* fp16 / bf16: largest (|folded - 10-step| - 1 ulp) / (2^-24 * S), >= 0 */
    double max_u_fp32;      /* fp32: largest |folded - 10-step| / (2^-24 * S) */
} fold_stats;

/* Runs op_batchnorm_inference_folded on one case (in place when asked: out == in) and checks every element against
 * the exact double value within the bound of tx8/ops.h with its u-term doubled:
 *   |y - y*| <= e*|y*| + 2 * (1 + e) * 2^-24 * (2.5 * |a| * |x - mean| + |b|) + half a subnormal step of the format
 * (a = scale / sqrt(var + eps), b = shift - mean * a, e = the output format's unit roundoff), the guards around out
 * and after imm, and that in (unless in place) and the vectors are unchanged. With also_10step the 10-step op runs
 * on the same inputs into a second output, and the two are compared (stats). Returns the folded op's cycles; *ten
 * gets the 10-step op's (0 when not run). */
static uint64_t run_folded_case(const bn_case *c, tx8_rng *rng, int in_place, int also_10step, uint64_t *ten,
                                fold_stats *st) {
    BATCHNORM_INFER_PARAM param = {c->layout, 1e-6f};
    L_SHAPE s_in, s_out, s_out10, s_vec, s_imm;
    TSR in, out, out10, vec[4], imm;
    make_tsr(&in, &s_in, c->fmt, 0, c->shape, c->dim);
    tx8_layout lay;
    assert_int_equal(tx8_layout_init(&lay, c->layout, c->fmt, c->shape, c->dim, 256), 0);
    const tx8_layout *l = &lay;
    const uint32_t c_lanes = l->c_split ? l->cx * l->unit + l->c0_aligned : l->c0_aligned;
    const uint64_t imm_fold = op_batchnorm_inference_folded_imm_size(tx8_hal_config(), &param, &in);
    const uint64_t imm_ten = op_batchnorm_inference_imm_size(tx8_hal_config(), &param, &in);
    assert_int_equal(imm_fold, 2 * up256(c_lanes * 4ull)); /* the documented size: two fp32 vectors */
    /* SPM: in | guard | out | guard | out10 | guard | scale shift mean var | imm | guard */
    const uint64_t img = up256(l->total_bytes) + GUARD;
    const uint64_t a_in = 0, a_out = in_place ? 0 : img, a_out10 = 2 * img, a_vec = 3 * img;
    const uint64_t a_imm = a_vec + 4 * up256(c_lanes * 4ull);
    const uint64_t imm_bytes = also_10step && imm_ten > imm_fold ? imm_ten : imm_fold, end = a_imm + imm_bytes + GUARD;
    assert_true(end <= tx8_hal_config()->spm_bytes);
    const size_t n = (size_t)l->n * l->hw * l->c;
    const uint32_t C = l->c;

    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double)), *y10 = malloc(n * sizeof(double)), *v[4];
    for (size_t i = 0; i < n; ++i) x[i] = tx8_rng_uniform(rng, -4.0, 4.0);
    tx8_test_quantize(c->fmt, x, n);
    for (int k = 0; k < 4; ++k) {
        v[k] = malloc(c_lanes * sizeof(double));
        for (uint32_t i = 0; i < c_lanes; ++i) /* lanes past C are junk the op must not let leak */
            v[k][i] = i < C ? (k == 3 ? tx8_rng_uniform(rng, 0.05, 3.0) : tx8_rng_uniform(rng, -2.0, 2.0))
                            : (k == 3 ? -1.0 : 1e30);
        tx8_test_quantize(Fmt_FP32, v[k], c_lanes);
    }
    fill_spm(0, end, SENTINEL);
    store_tensor(a_in, l, x);
    for (int k = 0; k < 4; ++k) tx8_test_spm_store(a_vec + k * up256(c_lanes * 4ull), Fmt_FP32, v[k], c_lanes);
    const int32_t vshape[1] = {(int32_t)C}, ishape[1] = {(int32_t)imm_bytes};
    make_tsr(&out, &s_out, c->fmt, a_out, c->shape, c->dim);
    make_tsr(&out10, &s_out10, c->fmt, a_out10, c->shape, c->dim);
    for (int k = 0; k < 4; ++k) make_tsr(&vec[k], &s_vec, Fmt_FP32, a_vec + k * up256(c_lanes * 4ull), vshape, 1);
    make_tsr(&imm, &s_imm, Fmt_INT8, a_imm, ishape, 1);

    *ten = 0;
    if (also_10step) { /* first, while in is intact (the folded op may overwrite it) */
        *ten = op_batchnorm_inference(&param, &in, &vec[0], &vec[1], &vec[2], &vec[3], &imm, &out10);
        assert_true(*ten != TX8_CYCLES_INVALID);
        load_tensor(a_out10, l, y10);
    }
    const uint64_t before = tx8_hal_cycles();
    const uint64_t cycles = op_batchnorm_inference_folded(&param, &in, &vec[0], &vec[1], &vec[2], &vec[3], &imm, &out);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_true(cycles != TX8_CYCLES_INVALID && cycles > 0);
    assert_int_equal(tx8_hal_cycles() - before, cycles);

    load_tensor(a_out, l, y);
    const double u = ldexp(1.0, -24), e_out = tx8_test_eps(c->fmt), half_step = tx8_test_subnormal_step(c->fmt) / 2;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t ch = (uint32_t)(i % C);
        const double sc = v[0][ch], sh = v[1][ch], mu = v[2][ch], var = v[3][ch];
        const double a = sc / sqrt(var + (double)1e-6f), b = sh - mu * a;
        const double want = a * (x[i] - mu) + sh;
        const double tol = e_out * fabs(want) + 2 * (1 + e_out) * u * (2.5 * fabs(a) * fabs(x[i] - mu) + fabs(b)) +
                           half_step;
        if (!(fabs(y[i] - want) <= tol)) {
            print_error("folded bn %s %s dim %d [%d %d %d %d]%s: element %zu (channel %u): got %.9g want %.9g "
                        "tol %.3g\n", tx8_format_name(c->fmt), tx8_layout_name(c->layout), c->dim, c->shape[0],
                        c->shape[1], c->shape[2], c->shape[3], in_place ? " in place" : "", i, ch, y[i], want, tol);
            fail();
        }
        if (also_10step) {
            const double d = fabs(y[i] - y10[i]);
            const double scale_u = u * (fabs(a) * fabs(x[i] - mu) + fabs(b) + fabs(want));
            if (c->fmt == Fmt_FP32) {
                if (d / scale_u > st->max_u_fp32) st->max_u_fp32 = d / scale_u;
            } else {
                const double ulp = ulp_of(c->fmt, fabs(y[i]) > fabs(y10[i]) ? fabs(y[i]) : fabs(y10[i]));
                if (d / ulp > st->max_ulps_narrow) st->max_ulps_narrow = d / ulp;
                if (d > ulp) {
                    st->narrow_past_1ulp++;
                    if ((d - ulp) / scale_u > st->max_u_narrow) st->max_u_narrow = (d - ulp) / scale_u;
                }
            }
            st->compared++;
        }
    }
    /* guards untouched (around out, and after the part of imm the op may use); inputs unchanged */
    assert_spm_is(a_out + up256(l->total_bytes), GUARD, SENTINEL, "guard after out");
    if (!in_place) assert_spm_is(a_out - GUARD, GUARD, SENTINEL, "guard before out");
    assert_spm_is(a_imm + imm_bytes, GUARD, SENTINEL, "guard after imm");
    if (!also_10step) assert_spm_is(a_imm + imm_fold, imm_bytes - imm_fold, SENTINEL, "imm past its size");
    double *x2 = malloc(n * sizeof(double)), *v2 = malloc(c_lanes * sizeof(double));
    if (!in_place) {
        load_tensor(a_in, l, x2);
        assert_memory_equal(x, x2, n * sizeof(double));
    }
    for (int k = 0; k < 4; ++k) {
        tx8_test_spm_load(a_vec + k * up256(c_lanes * 4ull), Fmt_FP32, v2, c_lanes);
        assert_memory_equal(v[k], v2, c_lanes * sizeof(double));
    }
    free(x2), free(v2);
    for (int k = 0; k < 4; ++k) free(v[k]);
    free(x), free(y), free(y10);
    st->cases++;
    return cycles;
}

static void folded_seed_cases(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() + 21);
    const bn_case cases[] = {
        {4, {4, 112, 2, 30}, LAYOUT_NCX, Fmt_FP16},  /* C <= 32: one VuV_fma per batch */
        {4, {4, 112, 2, 129}, LAYOUT_NCX, Fmt_FP16}, /* C > 32: VuV_fma_loop over Cx*64 + VuV_fma over C0 */
        {4, {2, 1, 2, 131}, LAYOUT_NCX, Fmt_FP16},   /* the layout worked example */
        {4, {4, 112, 2, 30}, LAYOUT_NCX, Fmt_FP32},
        {4, {4, 112, 2, 129}, LAYOUT_NCX, Fmt_BF16},
        {4, {1, 8, 8, 64}, LAYOUT_CX, Fmt_FP32},     /* exactly one Cx block, no C0 */
        {4, {3, 5, 7, 32}, LAYOUT_NTENSOR, Fmt_BF16}, /* compact, batches back to back: one instruction */
        {2, {5, 33, 0, 0}, LAYOUT_NCX, Fmt_FP16},
    };
    fold_stats st = {0};
    uint64_t ten;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        run_folded_case(&cases[i], &rng, 0, 1, &ten, &st);
        run_folded_case(&cases[i], &rng, 1, 0, &ten, &st); /* in place */
    }
}

static void folded_random_cases(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() ^ 0xf01d);
    static const int32_t kChannels[] = {1, 7, 30, 31, 32, 33, 64, 65, 129, 131};
    static const Data_Format kFmts[] = {Fmt_FP32, Fmt_FP16, Fmt_BF16};
    int per_layout[LAYOUT_COUNT] = {0}, per_fmt[3] = {0}, per_dim[5] = {0}, lt32 = 0, eq32 = 0, gt32 = 0;
    int fewer = 0, equal = 0;
    fold_stats st = {0};
    for (int iter = 0; iter < 160; ++iter) {
        bn_case c = {0};
        c.dim = tx8_rng_int(&rng, 2, 4);
        c.layout = (LAYOUT_MODE)tx8_rng_int(&rng, 0, LAYOUT_COUNT - 1);
        const int fi = tx8_rng_int(&rng, 0, 2);
        c.fmt = kFmts[fi];
        const int32_t ch = iter % 3 == 2 ? 2 * tx8_rng_int(&rng, 0, 99) + 1 /* odd, 1..199 */
                                         : kChannels[tx8_rng_int(&rng, 0, 9)];
        c.shape[0] = (c.layout == LAYOUT_TENSOR || c.layout == LAYOUT_CX) ? 1 : tx8_rng_int(&rng, 1, 4);
        for (int d = 1; d < c.dim - 1; ++d) c.shape[d] = tx8_rng_int(&rng, 1, c.dim == 3 ? 40 : 9);
        c.shape[c.dim - 1] = ch;
        uint64_t ten;
        const int in_place = tx8_rng_int(&rng, 0, 4) == 0;
        const uint64_t fold = run_folded_case(&c, &rng, in_place, !in_place, &ten, &st);
        if (ten && fold > ten) {
            print_error("folded %llu > 10-step %llu cycles: %s %s dim %d [%d %d %d %d]\n", (unsigned long long)fold,
                        (unsigned long long)ten, tx8_format_name(c.fmt), tx8_layout_name(c.layout), c.dim, c.shape[0],
                        c.shape[1], c.shape[2], c.shape[3]);
            fail();
        }
        /* never more: the five coefficient instructions over C lanes replace three of the four passes over the
         * data, which is at least C elements; equal only for an fp32 image of one batch that spans as many 64-lane
         * groups as one channel vector (HW*C within the same multiple of 64 as C) */
        fewer += ten && fold < ten, equal += ten && fold == ten;
        per_layout[c.layout]++, per_fmt[fi]++, per_dim[c.dim]++;
        ch < 32 ? ++lt32 : ch == 32 ? ++eq32 : ++gt32;
    }
    printf("[ tx8 ] op_batchnorm_inference_folded: %d random cases (Tensor %d, NTensor %d, Cx %d, NCx %d; fp32 %d, "
           "fp16 %d, bf16 %d; dim 2/3/4: %d/%d/%d; C < 32: %d, = 32: %d, > 32: %d)\n", st.cases, per_layout[0],
           per_layout[1], per_layout[2], per_layout[3], per_fmt[0], per_fmt[1], per_fmt[2], per_dim[2], per_dim[3],
           per_dim[4], lt32, eq32, gt32);
    printf("[ tx8 ] folded vs 10-step over %d elements (S = |a|*|x - mean| + |b| + |y|): fp32 at most %.2f * 2^-24 * "
           "S apart; fp16/bf16 at most %.0f ulp apart, %d elements past 1 ulp, by at most %.2f * 2^-24 * S; cycles: "
           "folded fewer in %d cases, equal in %d\n", st.compared, st.max_u_fp32, st.max_ulps_narrow,
           st.narrow_past_1ulp, st.max_u_narrow, fewer, equal);
    /* the bound tested (fold_stats): 16 * 2^-24 * S, plus one ulp of fp16 / bf16 */
    assert_true(st.max_u_fp32 <= 16.0);
    assert_true(st.max_u_narrow <= 16.0);
}

/* The demo-like shape [1,28,56,129] fp16 NCx (one tile's half image; [8,56,56,129] is 16 such slices, one per
 * tile of the chip, and 6.6 MB per tensor: past one tile's 3 MiB SPM). */
static void folded_cycles_vs_10step(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, 9);
    fold_stats st = {0};
    static const Data_Format kFmts[] = {Fmt_FP16, Fmt_BF16, Fmt_FP32};
    for (int f = 0; f < 3; ++f) {
        const bn_case c = {4, {1, 28, 56, 129}, LAYOUT_NCX, kFmts[f]};
        uint64_t ten, ten2;
        const uint64_t fold = run_folded_case(&c, &rng, 0, 1, &ten, &st);
        const uint64_t fold2 = run_folded_case(&c, &rng, 0, 1, &ten2, &st);
        assert_int_equal(fold, fold2);
        assert_int_equal(ten, ten2);
        printf("[ tx8 ] batchnorm [1,28,56,129] %s NCx: 10-step %llu cycles, folded %llu cycles (%.2fx)\n",
               tx8_format_name(c.fmt), (unsigned long long)ten, (unsigned long long)fold, (double)ten / (double)fold);
        assert_true(fold < ten);
        /* the folded op is the fma pass at the fp32 rate plus five short coefficient instructions */
        const uint32_t elems = 1568 * (2 * 64 + 4);
        assert_true(fold >= elems / 64 && fold <= elems / 64 + 200);
    }
    /* a whole 56x56 image fits for the folded op alone (the 10-step op would need 4.1 MB of SPM here) */
    const bn_case big = {4, {1, 56, 56, 129}, LAYOUT_NCX, Fmt_FP16};
    uint64_t ten;
    const uint64_t fold = run_folded_case(&big, &rng, 0, 0, &ten, &st);
    printf("[ tx8 ] batchnorm [1,56,56,129] fp16 NCx: folded %llu cycles\n", (unsigned long long)fold);
}

static void folded_bad_input_is_reported(void **state) {
    (void)state;
    const int32_t shape[4] = {2, 4, 4, 40}, vshape[1] = {40}, wrong_c[1] = {39}, ishape[1] = {1 << 20};
    BATCHNORM_INFER_PARAM param = {LAYOUT_NCX, 1e-6f};
    L_SHAPE s_in, s_out, s_vec, s_bad, s_imm, s_small, s_i32;
    TSR in, out, vec, bad_vec, imm, small_imm, i32_vec;
    make_tsr(&in, &s_in, Fmt_FP16, 0, shape, 4);
    make_tsr(&out, &s_out, Fmt_FP16, 0x40000, shape, 4);
    make_tsr(&vec, &s_vec, Fmt_FP32, 0x80000, vshape, 1);
    make_tsr(&bad_vec, &s_bad, Fmt_FP32, 0x80000, wrong_c, 1);
    make_tsr(&i32_vec, &s_i32, Fmt_INT32, 0x80000, vshape, 1);
    make_tsr(&imm, &s_imm, Fmt_INT8, 0x100000, ishape, 1);
    /* imm: two fp32 vectors of 64 lanes (40 channels = one Cx block), 256 bytes each; far below the 10-step's */
    assert_int_equal(op_batchnorm_inference_folded_imm_size(tx8_hal_config(), &param, &in), 512);
    assert_true(op_batchnorm_inference_imm_size(tx8_hal_config(), &param, &in) > 512);
    assert_int_equal(op_batchnorm_inference_folded_imm_size(NULL, &param, &in), 0);
    assert_int_equal(op_batchnorm_inference_folded_imm_size(tx8_hal_config(), NULL, &in), 0);
    const int32_t tiny[1] = {511};
    make_tsr(&small_imm, &s_small, Fmt_INT8, 0x100000, tiny, 1);
    fill_spm(0x40000, 0x10000, SENTINEL);

#define FOLDED(sc, sh, mu, va, im) op_batchnorm_inference_folded(&param, &in, sc, sh, mu, va, im, &out)
    assert_true(FOLDED(&bad_vec, &vec, &vec, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_folded: scale must be a 1x..x40 per-channel vector");
    assert_true(FOLDED(&vec, &vec, &vec, &i32_vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_folded: var->format = int32, must be fp32");
    assert_true(FOLDED(&vec, &vec, &vec, &vec, &small_imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("imm must be an int8 [bytes] buffer of at least 512 bytes "
                          "(op_batchnorm_inference_folded_imm_size)");
    in.format = Fmt_INT8;
    assert_true(FOLDED(&vec, &vec, &vec, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_folded: in->format = int8, supported fp32, fp16, bf16");
    in.format = Fmt_FP16;
    out.format = Fmt_BF16;
    assert_true(FOLDED(&vec, &vec, &vec, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("out->format = bf16 differs from in->format = fp16");
    out.format = Fmt_FP16;
    param.layout = LAYOUT_CX; /* Cx needs N == 1 */
    assert_true(FOLDED(&vec, &vec, &vec, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("does not fit layout Cx");
    param.layout = LAYOUT_NCX;
    s_in.dim = 1;
    assert_true(FOLDED(&vec, &vec, &vec, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("in->shape->dim = 1, supported 2..4");
    s_in.dim = 4;
    assert_true(FOLDED(&vec, &vec, NULL, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("mean (or its shape) is NULL");
    assert_true(op_batchnorm_inference_folded(NULL, &in, &vec, &vec, &vec, &vec, &imm, &out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_folded: param is NULL");
    s_out.shape_real[1] = 3;
    assert_true(FOLDED(&vec, &vec, &vec, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("out->shape->shape_real differs");
    assert_spm_is(0x40000, 0x10000, SENTINEL, "out after rejected calls");
    /* imm at the end of SPM: the engine's bounds check names the field, the op stops at the first fault */
    s_out.shape_real[1] = 4;
    imm.addr = tx8_hal_config()->spm_bytes - 256;
    assert_true(FOLDED(&vec, &vec, &vec, &vec, &imm) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("outside SPM");
    assert_spm_is(0x40000, 0x10000, SENTINEL, "out after a faulting call");
#undef FOLDED
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(seed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cycles_are_deterministic_and_fp16_costs_more, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_input_is_reported, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(folded_seed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(folded_random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(folded_cycles_vs_10step, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(folded_bad_input_is_reported, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

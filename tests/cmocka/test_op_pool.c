/*
 * op_maxpool / op_avgpool / op_global_avgpool (CT POOL_2D) against a naive double reference: the ONNX backend
 * test cases (exact expected values), seeded random cases over layout (all four) x dtype x kernel / stride /
 * dilation / pads / floor or ceil_mode output / count_include_pad, windows that run past the input or lie wholly
 * in padding, documented cycle counts, the CT instruction's own rejects, and op faults with nothing written.
 * Max must be exact; an average must be within half an ulp of the exact mean and, because the summation order is
 * the contract (kh-major, then kw, in double), bit-identical to the reference's double rounded once.
 */
#include "op_test_common.h"

#define SPM_IN SPM_A
#define SPM_OUT SPM_D
#define GUARD 256u

static int g_random_cases;

enum { K_MAX, K_AVG, K_GLOBAL };
static const char *const kKindNames[3] = {"maxpool", "avgpool", "global_avgpool"};

typedef struct pool_case {
    int kind;
    int32_t n, h, w, c, oh, ow;
    POOL_PARAM p; /* p.layout is the layout of both tensors; for K_GLOBAL only the layout is used */
    Data_Format fmt;
} pool_case;

/* Naive reference: y[n][oh][ow][c] in double (max: exact; avg: the mean of the taps in the documented order). */
static void ref_pool(const pool_case *pc, const double *x, double *y) {
    const POOL_PARAM *p = &pc->p;
    const int global = pc->kind == K_GLOBAL;
    const int32_t kh_n = global ? pc->h : (int32_t)p->kernel_h, kw_n = global ? pc->w : (int32_t)p->kernel_w;
    const int32_t sh = global ? 1 : (int32_t)p->stride_h, sw = global ? 1 : (int32_t)p->stride_w;
    const int32_t dh = global ? 1 : (int32_t)p->dilation_h, dw = global ? 1 : (int32_t)p->dilation_w;
    const int32_t pt = global ? 0 : p->pad_top, pl = global ? 0 : p->pad_left;
    const int32_t pb = global ? 0 : p->pad_bottom, pr = global ? 0 : p->pad_right;
    const int cip = pc->kind == K_AVG && p->count_include_pad;
    for (int32_t b = 0; b < pc->n; ++b)
        for (int32_t oh = 0; oh < pc->oh; ++oh)
            for (int32_t ow = 0; ow < pc->ow; ++ow)
                for (int32_t c = 0; c < pc->c; ++c) {
                    double acc = pc->kind == K_MAX ? -INFINITY : 0.0;
                    int64_t taps = 0, padded_taps = 0;
                    for (int32_t kh = 0; kh < kh_n; ++kh)
                        for (int32_t kw = 0; kw < kw_n; ++kw) {
                            const int32_t ih = oh * sh - pt + kh * dh, iw = ow * sw - pl + kw * dw;
                            padded_taps += ih >= -pt && ih < pc->h + pb && iw >= -pl && iw < pc->w + pr;
                            if (ih < 0 || ih >= pc->h || iw < 0 || iw >= pc->w) continue;
                            const double v = x[(((size_t)b * pc->h + ih) * pc->w + iw) * pc->c + c];
                            acc = pc->kind == K_MAX ? (v > acc ? v : acc) : acc + v;
                            ++taps;
                        }
                    if (pc->kind != K_MAX) acc /= (double)(cip ? padded_taps : taps); /* 0/0: NaN */
                    y[(((size_t)b * pc->oh + oh) * pc->ow + ow) * pc->c + c] = acc;
                }
}

/* The op's cycles from its documented plan (pool_common.h) and the POOL_2D formula (cm_cycles.h). */
static uint64_t expected_cycles(const pool_case *pc, const tx8_layout *li, const tx8_layout *lo) {
    const tx8_hw_config *cfg = tx8_hal_config();
    const uint64_t lanes = cfg->ct_datapath_bits / (8 * li->elem_bytes);
    const uint64_t taps = pc->kind == K_GLOBAL ? (uint64_t)pc->h * pc->w : (uint64_t)pc->p.kernel_h * pc->p.kernel_w;
    const uint64_t pix = (uint64_t)pc->oh * pc->ow;
#define ONE(outputs) (cfg->ct_startup_cycles + ((outputs) * taps + lanes - 1) / lanes + \
                      (pc->kind == K_MAX ? 0 : ((outputs) + lanes - 1) / lanes * cfg->ct_transcendental_passes))
    const uint64_t eb = li->elem_bytes;
    if (!li->c_split && li->batch_stride_bytes == (uint64_t)li->hw * li->c0_aligned * eb &&
        lo->batch_stride_bytes == (uint64_t)lo->hw * lo->c0_aligned * eb)
        return ONE((uint64_t)pc->n * pix * li->c0_aligned);
    uint64_t total = 0;
    for (int32_t b = 0; b < pc->n; ++b) {
        if (!li->c_split) total += ONE(pix * li->c0_aligned);
        if (li->c_split && li->cx) total += ONE(pix * li->cx * li->unit);
        if (li->c_split && li->c0_aligned) total += ONE(pix * li->c0_aligned);
    }
    return total;
#undef ONE
}

static uint64_t run_op(pool_case *pc, TSR *in, TSR *out) {
    if (pc->kind == K_MAX) return op_maxpool(&pc->p, in, out);
    if (pc->kind == K_AVG) return op_avgpool(&pc->p, in, out);
    GLOBAL_POOL_PARAM g = {pc->p.layout};
    return op_global_avgpool(&g, in, out);
}

/* Runs one case with inputs x (compact NHWC, representable in pc->fmt); checks every output against the reference
 * (or `expect` when given, within 2^-23 relative), the cycles and the guard after out. Returns the cycles. */
static uint64_t run_case(pool_case *pc, const double *x, const double *expect, const char *what) {
    const int32_t si[4] = {pc->n, pc->h, pc->w, pc->c}, so[4] = {pc->n, pc->oh, pc->ow, pc->c};
    const tx8_layout li = make_layout(pc->p.layout, pc->fmt, si, 4), lo = make_layout(pc->p.layout, pc->fmt, so, 4);
    const size_t ni = (size_t)pc->n * pc->h * pc->w * pc->c, no = (size_t)pc->n * pc->oh * pc->ow * pc->c;
    tensor_buf ti, to;
    make_tensor(&ti, pc->fmt, SPM_IN, si, 4);
    make_tensor(&to, pc->fmt, SPM_OUT, so, 4);
    put_tensor(&li, SPM_IN, x, ni);
    ct_fill_pattern(SPM_OUT, lo.total_bytes + GUARD);
    const uint64_t before = tx8_hal_cycles();
    const uint64_t cyc = run_op(pc, &ti.tsr, &to.tsr);
    if (tx8_test_faults()->count) print_error("%s: unexpected fault: %s\n", what, tx8_test_faults()->last);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_int_equal(cyc, expected_cycles(pc, &li, &lo));
    assert_int_equal(tx8_hal_cycles() - before, cyc);
    ct_assert_pattern(SPM_OUT + lo.total_bytes, GUARD);

    double *got = malloc(no * sizeof(double)), *want = malloc(no * sizeof(double));
    get_tensor(&lo, SPM_OUT, got, no);
    ref_pool(pc, x, want);
    const double eps = tx8_test_eps(pc->fmt), tiny = fmt_min_subnormal(pc->fmt);
    for (size_t i = 0; i < no; ++i) {
        int ok;
        if (expect) {
            ok = got[i] == expect[i] || fabs(got[i] - expect[i]) <= ldexp(fabs(expect[i]), -23);
        } else if (isnan(want[i])) {
            ok = isnan(got[i]);
        } else if (pc->kind == K_MAX) {
            ok = got[i] == want[i]; /* a max is one of the inputs (or -inf): exact */
        } else {
            const double rounded = cm_format_to_double(cm_round_to_format(want[i], pc->fmt, RND_NEAREST_EVEN), pc->fmt);
            ok = fabs(got[i] - want[i]) <= eps * fabs(want[i]) + tiny && got[i] == rounded;
        }
        if (!ok) {
            print_error("%s: output %zu: got %.9g want %.9g\n", what, i, got[i], expect ? expect[i] : want[i]);
            fail();
        }
    }
    free(got), free(want);
    return cyc;
}

/* ---- the ONNX backend test cases (onnx/backend/test/data/node, C = 1 so NCHW == NHWC), fp32 ---- */

static pool_case onnx_case(int kind, int32_t h, int32_t oh, uint32_t k, uint32_t s, uint32_t d, int32_t pad,
                           uint32_t cip) {
    pool_case pc = {kind, 1, h, h, 1, oh, oh, {LAYOUT_TENSOR, k, k, s, s, d, d, pad, pad, pad, pad, cip}, Fmt_FP32};
    return pc;
}

static void onnx_cases(void **state) {
    (void)state;
    double x[25];
    for (int i = 0; i < 25; ++i) x[i] = i + 1;
    static const double max_ceil[4] = {11, 12, 15, 16}, avg_ceil[4] = {6, 7.5, 12, 13.5};
    static const double max_pads[25] = {13, 14, 15, 15, 15, 18, 19, 20, 20, 20, 23, 24, 25, 25, 25,
                                        23, 24, 25, 25, 25, 23, 24, 25, 25, 25};
    static const double avg_pads[25] = {7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5, 11, 11.5, 12, 12.5, 13,
                                        13.5, 14, 14.5, 15, 15.5, 16, 16.5, 17, 17.5, 18, 18.5, 19};
    static const double avg_pads_cip[25] = {2.52, 3.6, 4.8, 4.08, 3.24, 4.56, 6.4, 8.4, 7.04, 5.52, 7.2, 10, 13,
                                            10.8, 8.4, 6.96, 9.6, 12.4, 10.24, 7.92, 6.12, 8.4, 10.8, 8.88, 6.84};
    static const double avg_strides[4] = {4, 6, 14, 16};
    static const double max_same_upper[9] = {7, 9, 10, 17, 19, 20, 22, 24, 25};
    static const double avg_same_upper[9] = {4, 5.5, 7, 11.5, 13, 14.5, 19, 20.5, 22};
    static const double global[1] = {5};
    struct { pool_case pc; const double *y; const char *name; } cases[] = {
        {onnx_case(K_MAX, 4, 2, 3, 2, 1, 0, 0), max_ceil, "test_maxpool_2d_ceil"},
        {onnx_case(K_AVG, 4, 2, 3, 2, 1, 0, 0), avg_ceil, "test_averagepool_2d_ceil"},
        {onnx_case(K_MAX, 4, 2, 2, 1, 2, 0, 0), max_ceil, "test_maxpool_2d_dilations"},
        {onnx_case(K_MAX, 5, 5, 5, 1, 1, 2, 0), max_pads, "test_maxpool_2d_precomputed_pads"},
        {onnx_case(K_AVG, 5, 5, 5, 1, 1, 2, 0), avg_pads, "test_averagepool_2d_precomputed_pads"},
        {onnx_case(K_AVG, 5, 5, 5, 1, 1, 2, 1), avg_pads_cip, "test_averagepool_2d_precomputed_pads_count_include_pad"},
        {onnx_case(K_AVG, 5, 2, 2, 2, 1, 0, 0), avg_strides, "test_averagepool_2d_precomputed_strides"},
        {onnx_case(K_MAX, 5, 3, 3, 2, 1, 1, 0), max_same_upper, "test_maxpool_2d_precomputed_same_upper"},
        {onnx_case(K_AVG, 5, 3, 3, 2, 1, 1, 0), avg_same_upper, "test_averagepool_2d_precomputed_same_upper"},
        {onnx_case(K_GLOBAL, 3, 1, 0, 0, 0, 0, 0), global, "test_globalaveragepool_precomputed"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        run_case(&cases[k].pc, x, cases[k].y, cases[k].name); /* the ONNX values */
        run_case(&cases[k].pc, x, NULL, cases[k].name);       /* and the contract's exactness */
    }
}

/* ---- windows past the input: wholly in padding (max -inf, avg NaN or 0 with count_include_pad), ceil overhang ---- */

static void padding_edges(void **state) {
    (void)state;
    const double x[2] = {3, -5};
    /* H = W = 1, kernel 1, pad_top 1: output row 0 sees only padding */
    pool_case pc = {K_MAX, 1, 1, 1, 2, 2, 1, {LAYOUT_NTENSOR, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, Fmt_FP32};
    static const double max_y[4] = {-INFINITY, -INFINITY, 3, -5};
    run_case(&pc, x, max_y, "max, window in padding");
    pc.kind = K_AVG;
    run_case(&pc, x, NULL, "avg, window in padding (NaN)"); /* the reference's 0/0 is NaN too */
    pc.p.count_include_pad = 1;
    static const double cip_y[4] = {0, 0, 3, -5};
    run_case(&pc, x, cip_y, "avg count_include_pad, window in padding");
    /* ceil_mode: H = 5, kernel 2, stride 2, pads 0 + 1 -> floor 3, ceil 3; pads 0 + 0 -> floor 2, ceil 3 whose last
     * window (rows 4, 5) runs one row past the input: row 5 is padding, and never counts in the divisor */
    double x5[25];
    for (int i = 0; i < 25; ++i) x5[i] = i + 1;
    pool_case ceil = {K_AVG, 1, 5, 5, 1, 3, 3, {LAYOUT_TENSOR, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 1}, Fmt_FP32};
    static const double ceil_y[9] = {4, 6, 7.5, 14, 16, 17.5, 21.5, 23.5, 25};
    run_case(&ceil, x5, ceil_y, "avg ceil_mode overhang, count_include_pad");
    ceil.kind = K_MAX;
    static const double ceil_max[9] = {7, 9, 10, 17, 19, 20, 22, 24, 25};
    run_case(&ceil, x5, ceil_max, "max ceil_mode overhang");
}

/* ---- documented cycles (the 1x112x112x64 fp32 case of the brief does not fit a 3 MiB SPM; 56x56 does) ---- */

static void fixed_cycles(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 11);
    const size_t n = 56 * 56 * 64;
    double *x = malloc(n * sizeof(double));
    ct_rand_vals(&r, Fmt_FP32, x, n, -4, 4);
    pool_case pc = {K_MAX, 1, 56, 56, 64, 28, 28, {LAYOUT_TENSOR, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0}, Fmt_FP32};
    /* 16 + 28*28*64 outputs * 9 taps / 64 lanes */
    assert_int_equal(run_case(&pc, x, NULL, "maxpool 3x3/2 pad 1 1x56x56x64 fp32"), 7072);
    pc.kind = K_AVG; /* + 28*28*64 / 64 * 4 passes for the division */
    assert_int_equal(run_case(&pc, x, NULL, "avgpool 3x3/2 pad 1 1x56x56x64 fp32"), 10208);
    /* Cx, C = 1024: one instruction over the 16 blocks of 64 channels: 16 + 1024*49/64 + 1024/64*4 */
    pool_case g = {K_GLOBAL, 1, 7, 7, 1024, 1, 1, {LAYOUT_CX, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, Fmt_FP32};
    assert_int_equal(run_case(&g, x, NULL, "global_avgpool 1x7x7x1024 fp32 Cx"), 864);
    /* NCx, N = 2, C = 70 = 64 + 6 (C0a 8): per batch one instruction for the block, one for C0 */
    pool_case m = {K_MAX, 2, 6, 6, 70, 3, 3, {LAYOUT_NCX, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 0}, Fmt_BF16};
    tx8_test_quantize(Fmt_BF16, x, 2 * 6 * 6 * 70);
    assert_int_equal(run_case(&m, x, NULL, "maxpool 2x2/2 2x6x6x70 bf16 NCx"),
                     2 * ((16 + (9 * 64 * 4 + 127) / 128) + (16 + (9 * 8 * 4 + 127) / 128)));
    free(x);
}

/* ---- random cases ---- */

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x9001);
    static const int32_t kChannels[] = {1, 3, 8, 30, 33, 64, 70, 129};
    double *x = malloc(8000 * sizeof(double));
    char what[256];
    int per_layout[LAYOUT_COUNT] = {0}, per_kind[3] = {0};
    for (int it = 0; it < 60; ++it) {
        pool_case pc;
        memset(&pc, 0, sizeof pc);
        pc.kind = it % 5 == 4 ? K_GLOBAL : it % 2;
        pc.fmt = kFloatFmts[tx8_rng_int(&r, 0, 2)];
        pc.p.layout = (LAYOUT_MODE)((it / 2) % LAYOUT_COUNT);
        size_t ni;
        for (;;) {
            pc.n = (pc.p.layout == LAYOUT_TENSOR || pc.p.layout == LAYOUT_CX) ? 1 : tx8_rng_int(&r, 1, 3);
            pc.c = it % 3 == 2 ? tx8_rng_int(&r, 1, 140) : kChannels[tx8_rng_int(&r, 0, 7)];
            pc.h = tx8_rng_int(&r, 1, 12);
            pc.w = tx8_rng_int(&r, 1, 12);
            ni = (size_t)pc.n * pc.h * pc.w * pc.c;
            if (ni > 8000) continue;
            if (pc.kind == K_GLOBAL) {
                pc.oh = pc.ow = 1;
                break;
            }
            POOL_PARAM *p = &pc.p;
            p->kernel_h = (uint32_t)tx8_rng_int(&r, 1, 4);
            p->kernel_w = (uint32_t)tx8_rng_int(&r, 1, 4);
            p->stride_h = (uint32_t)tx8_rng_int(&r, 1, 3);
            p->stride_w = (uint32_t)tx8_rng_int(&r, 1, 3);
            p->dilation_h = (uint32_t)tx8_rng_int(&r, 1, 2);
            p->dilation_w = (uint32_t)tx8_rng_int(&r, 1, 2);
            p->pad_top = tx8_rng_int(&r, 0, 2);
            p->pad_left = tx8_rng_int(&r, 0, 2);
            p->pad_bottom = tx8_rng_int(&r, 0, 2);
            p->pad_right = tx8_rng_int(&r, 0, 2);
            p->count_include_pad = (uint32_t)tx8_rng_int(&r, 0, 1);
            const int32_t span_h = ((int32_t)p->kernel_h - 1) * (int32_t)p->dilation_h + 1;
            const int32_t span_w = ((int32_t)p->kernel_w - 1) * (int32_t)p->dilation_w + 1;
            const int32_t ph = pc.h + p->pad_top + p->pad_bottom, pw = pc.w + p->pad_left + p->pad_right;
            if (ph < span_h || pw < span_w) continue;
            const int ceil_mode = tx8_rng_int(&r, 0, 1);
            pc.oh = (ph - span_h + (ceil_mode ? (int32_t)p->stride_h - 1 : 0)) / (int32_t)p->stride_h + 1;
            pc.ow = (pw - span_w + (ceil_mode ? (int32_t)p->stride_w - 1 : 0)) / (int32_t)p->stride_w + 1;
            if (ceil_mode && (pc.oh - 1) * (int32_t)p->stride_h >= pc.h + p->pad_top) --pc.oh; /* ONNX / PyTorch */
            if (ceil_mode && (pc.ow - 1) * (int32_t)p->stride_w >= pc.w + p->pad_left) --pc.ow;
            break;
        }
        ct_rand_vals(&r, pc.fmt, x, ni, -100, 100);
        const POOL_PARAM *p = &pc.p;
        snprintf(what, sizeof what, "case %d: %s %s %s [%d %d %d %d] -> [%d %d] k %ux%u s %ux%u d %ux%u pads %d %d %d %d "
                 "cip %u", it, kKindNames[pc.kind], tx8_layout_name(p->layout), tx8_format_name(pc.fmt), pc.n, pc.h,
                 pc.w, pc.c, pc.oh, pc.ow, p->kernel_h, p->kernel_w, p->stride_h, p->stride_w, p->dilation_h,
                 p->dilation_w, p->pad_top, p->pad_left, p->pad_bottom, p->pad_right, p->count_include_pad);
        run_case(&pc, x, NULL, what);
        ++g_random_cases, ++per_layout[p->layout], ++per_kind[pc.kind];
    }
    printf("[ tx8 ] pool: %d random cases (Tensor %d, NTensor %d, Cx %d, NCx %d; max %d, avg %d, global %d)\n",
           g_random_cases, per_layout[0], per_layout[1], per_layout[2], per_layout[3], per_kind[0], per_kind[1],
           per_kind[2]);
    free(x);
}

/* ---- the CT instruction rejects a bad POOL_2D before touching memory ---- */

static void instruction_rejects(void **state) {
    (void)state;
    const Ncc_CT_GR_Pool_Regs g = {4, 4, 2, 2, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0};
    CT_Param p;
    CGRATensor_PoolOp_T_max(&p, SPM_A, SPM_D, 1, 8, &g, Fmt_FP32);
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(2 * 2 * 8 * 9, 32, 0)); /* a valid one first */
    p.param.pool.kernel_h = 0;
    ct_expect_reject(&p, "CT pool_max POOL_2D: pool.kernel_h = 0, must be 1..65535", SPM_D, 128);
    CGRATensor_PoolOp_T_avg(&p, SPM_A, SPM_D, 1, 8, &g, RND_NEAREST_EVEN, Fmt_FP32);
    p.param.pool.count_include_pad = 2;
    ct_expect_reject(&p, "CT pool_avg POOL_2D: pool.count_include_pad = 2, must be 0..1", SPM_D, 128);
    CGRATensor_PoolOp_T_avg(&p, SPM_A, SPM_D, 0, 8, &g, RND_NEAREST_EVEN, Fmt_FP32);
    ct_expect_reject(&p, "CT pool_avg POOL_2D: outer_num = 0, must be > 0", SPM_D, 128);
    CGRATensor_PoolOp_T_max(&p, SPM_A, SPM_D, 1, 8, &g, Fmt_INT8);
    ct_expect_reject(&p, "CT pool_max POOL_2D: src_fmt = int8 is not supported", SPM_D, 128);
    CGRATensor_PoolOp_T_max(&p, SPM_A, SPM_A + 64, 1, 8, &g, Fmt_FP32);
    ct_expect_reject(&p, "CT pool_max POOL_2D: dst_addr range [0x40, 0xc0) overlaps src0_addr range [0x0, 0x200)",
                     SPM_A + 64, 128);
    CGRATensor_PoolOp_T_max(&p, 0x2fff00, SPM_D, 1, 8, &g, Fmt_FP32);
    ct_expect_reject(&p, "CT pool_max POOL_2D: src0_addr = 0x2fff00 + 512 bytes is outside SPM", SPM_D, 128);
    CGRATensor_PoolOp_T_max(&p, SPM_A, SPM_D, 1, 8, &g, Fmt_FP32);
    p.ctrl.format = CT_FMT_V;
    ct_expect_reject(&p, "CT pool_max V: format = V is not valid for function POOL (takes POOL_2D)", SPM_D, 128);
    CGRATensor_PoolOp_T_max(&p, SPM_A, SPM_D, 1, 8, &g, Fmt_FP32);
    p.ctrl.function = CT_FUNC_REDUCE;
    ct_expect_reject(&p, "CT pool_max POOL_2D: function = REDUCE, but opcode pool_max belongs to function POOL",
                     SPM_D, 128);
    CGRATensor_ReduceOp_T_inner_max(&p, SPM_A, SPM_D, 2, 8, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.format = CT_FMT_POOL_2D;
    ct_expect_reject(&p, "CT reduce_max POOL_2D: format = POOL_2D is not valid for function REDUCE", SPM_D, 128);
}

/* ---- op faults: clear message, no cycles, out untouched ---- */

static void faults(void **state) {
    (void)state;
    const int32_t s_in[4] = {1, 8, 8, 8}, s_out[4] = {1, 3, 3, 8}, s_c9[4] = {1, 3, 3, 9}, s_bad[4] = {1, 5, 3, 8};
    const int32_t s3[3] = {8, 8, 8}, s_small[4] = {1, 2, 2, 8}, s_sout[4] = {1, 1, 1, 8}, s_n2[4] = {2, 8, 8, 8};
    const int32_t s_n2o[4] = {2, 3, 3, 8}, s_g[4] = {1, 2, 1, 8};
    tensor_buf in, out, out_c9, out_bad, in3, in8, out16, small, small_out, in_n2, out_n2, out_on_in, out_far, gout;
    make_tensor(&in, Fmt_FP32, SPM_IN, s_in, 4);
    make_tensor(&out, Fmt_FP32, SPM_OUT, s_out, 4);
    make_tensor(&out_c9, Fmt_FP32, SPM_OUT, s_c9, 4);
    make_tensor(&out_bad, Fmt_FP32, SPM_OUT, s_bad, 4);
    make_tensor(&in3, Fmt_FP32, SPM_IN, s3, 3);
    make_tensor(&in8, Fmt_INT8, SPM_IN, s_in, 4);
    make_tensor(&out16, Fmt_FP16, SPM_OUT, s_out, 4);
    make_tensor(&small, Fmt_FP32, SPM_IN, s_small, 4);
    make_tensor(&small_out, Fmt_FP32, SPM_OUT, s_sout, 4);
    make_tensor(&in_n2, Fmt_FP32, SPM_IN, s_n2, 4);
    make_tensor(&out_n2, Fmt_FP32, SPM_OUT, s_n2o, 4);
    make_tensor(&out_on_in, Fmt_FP32, SPM_IN + 1024, s_out, 4);
    make_tensor(&out_far, Fmt_FP32, 0x2fff00, s_out, 4);
    make_tensor(&gout, Fmt_FP32, SPM_OUT, s_g, 4);
    const POOL_PARAM ok = {LAYOUT_NTENSOR, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 0};
    POOL_PARAM big = ok, dil = ok, s0 = ok, negpad = ok, cip2 = ok, cx = ok, badl = ok;
    big.kernel_h = 5, big.pad_top = big.pad_bottom = 1;
    dil.kernel_h = 1, dil.kernel_w = 2, dil.dilation_w = 4, dil.pad_left = 1;
    s0.stride_h = 0;
    negpad.pad_left = -1;
    cip2.count_include_pad = 2;
    cx.layout = LAYOUT_CX;
    badl.layout = (LAYOUT_MODE)6;
    struct { int kind; const POOL_PARAM *p; TSR *in, *out; const char *msg; } cases[] = {
        {K_MAX, &ok, &in.tsr, &out_c9.tsr, "op_maxpool: out is [1][3][3][9], in is [1][8][8][8]; N and C must match"},
        {K_AVG, &ok, &in8.tsr, &out.tsr, "op_avgpool: in->format = int8, must be fp32, fp16 or bf16"},
        {K_MAX, &ok, &in.tsr, &out16.tsr, "op_maxpool: out->format = fp16 differs from in->format = fp32"},
        {K_MAX, &ok, &in.tsr, &out_bad.tsr, "op_maxpool: out->shape->shape_real[1] = 5, must be 3 (floor) or 4 "
                                            "(ceil_mode) for H 8, kernel 3, stride 2, dilation 1, pads 0 + 0"},
        {K_AVG, &big, &small.tsr, &small_out.tsr, "op_avgpool: the dilated kernel spans 5 along H, more than the "
                                                  "padded input 4 (2 + pads 1 + 1)"},
        {K_MAX, &dil, &small.tsr, &small_out.tsr, "op_maxpool: the dilated kernel spans 5 along W, more than the "
                                                  "padded input 3 (2 + pads 1 + 0)"},
        {K_MAX, &ok, &in3.tsr, &out.tsr, "op_maxpool: in->shape->dim = 3, must be 4 ([N][H][W][C])"},
        {K_AVG, &s0, &in.tsr, &out.tsr, "op_avgpool: param->stride_h = 0, must be 1..65535"},
        {K_MAX, &negpad, &in.tsr, &out.tsr, "op_maxpool: param->pad_left = -1, must be 0..65535"},
        {K_AVG, &cip2, &in.tsr, &out.tsr, "op_avgpool: param->count_include_pad = 2, must be 0 or 1"},
        {K_MAX, &cx, &in_n2.tsr, &out_n2.tsr, "op_maxpool: in->shape_real is not valid in layout Cx"},
        {K_MAX, &badl, &in.tsr, &out.tsr, "op_maxpool: param->layout = 6 is not a LAYOUT_MODE"},
        {K_MAX, &ok, &in.tsr, &out_on_in.tsr, "op_maxpool: out [0x400, 0x520) overlaps in [0x0, 0x800)"},
        {K_AVG, &ok, &in.tsr, &out_far.tsr, "op_avgpool: out [0x2fff00, 0x300020) is outside SPM [0, 0x300000)"},
        {K_MAX, &ok, NULL, &out.tsr, "op_maxpool: in (or its shape) is NULL"},
        {K_MAX, NULL, &in.tsr, &out.tsr, "op_maxpool: param is NULL"},
        {K_AVG, NULL, &in.tsr, &out.tsr, "op_avgpool: param is NULL"},
        {K_GLOBAL, &ok, &in.tsr, &gout.tsr, "op_global_avgpool: out->shape->shape_real = [1][2][1][8], must be "
                                            "[N][1][1][C]"},
        {K_GLOBAL, NULL, &in.tsr, &gout.tsr, "op_global_avgpool: param is NULL"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ct_fill_pattern(SPM_OUT, 512);
        ct_fill_pattern(SPM_IN + 1024, 512);
        const uint64_t before = tx8_hal_cycles();
        uint64_t cyc;
        POOL_PARAM prm;
        if (cases[k].p) prm = *cases[k].p;
        POOL_PARAM *pp = cases[k].p ? &prm : NULL;
        if (cases[k].kind == K_MAX) cyc = op_maxpool(pp, cases[k].in, cases[k].out);
        else if (cases[k].kind == K_AVG) cyc = op_avgpool(pp, cases[k].in, cases[k].out);
        else {
            GLOBAL_POOL_PARAM g = {cases[k].p ? cases[k].p->layout : LAYOUT_NTENSOR};
            cyc = op_global_avgpool(cases[k].p ? &g : NULL, cases[k].in, cases[k].out);
        }
        assert_true(cyc == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        ct_assert_pattern(SPM_OUT, 512);
        ct_assert_pattern(SPM_IN + 1024, 512);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(onnx_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(padding_edges, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_cycles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(instruction_rejects, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_pool: %d random cases ran\n", g_random_cases);
    return failed;
}

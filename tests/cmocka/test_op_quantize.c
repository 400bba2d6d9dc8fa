/*
 * op_quantize_linear and op_dequantize_linear (ONNX QuantizeLinear / DequantizeLinear on the CT), and op_cast to and
 * from uint8, against exact scalar references:
 *   quantize    q = clamp(round_half_even(fp32(x / scale)) + zp, lo, hi), NaN -> zp, in integers (the division
 *               in C float arithmetic: IEEE binary32, rounded to nearest even);
 *   dequantize  y = fp32(fp32(fp32(x) - fp32(zp)) * scale) in C float arithmetic.
 * Named edge cases (halves to even, the round-before-the-zero-point rule, saturation at both ends of int8 and
 * uint8, +-inf, NaN, huge quotients), seeded random shapes (dim 2..4) per tensor and per axis in both compact
 * layouts, and bad arguments: the fault's message and nothing written.
 */
#include "op_test_common.h"

static int g_cases;

static int64_t q_lo(Data_Format f) { return f == Fmt_UINT8 ? 0 : -128; }
static int64_t q_hi(Data_Format f) { return f == Fmt_UINT8 ? 255 : 127; }

/* The integer nearest v, ties to even; v finite and |v| < 2^62. */
static int64_t round_half_even(double v) {
    const double f = floor(v);
    int64_t i = (int64_t)f;
    const double d = v - f;
    if (d > 0.5 || (d == 0.5 && (i & 1))) ++i;
    return i;
}

static int64_t ref_quantize(float x, float scale, int64_t zp, Data_Format fmt) {
    const float t = x / scale; /* binary32, nearest even */
    int64_t q;
    if (t != t) q = 0;
    else if (t > 4e9f) q = INT32_MAX; /* the int32 the device saturates to: far past every 8-bit range */
    else if (t < -4e9f) q = INT32_MIN;
    else q = round_half_even((double)t);
    q += zp;
    return q < q_lo(fmt) ? q_lo(fmt) : q > q_hi(fmt) ? q_hi(fmt) : q;
}

static float ref_dequantize(int64_t x, int64_t zp, float scale) {
    const float d = (float)x - (float)zp;
    return d * scale;
}

static void put_ints(const tx8_layout *l, uint64_t addr, const int64_t *v, size_t n) {
    double *d = malloc(n * sizeof(double) + 1);
    for (size_t i = 0; i < n; ++i) d[i] = (double)v[i];
    put_tensor(l, addr, d, n);
    free(d);
}

/* x [dim] shape, scale / zp broadcast to it; runs one op, compares with the reference. */
typedef struct qcase {
    int dequantize;
    LAYOUT_MODE mode;
    Data_Format qfmt; /* out's (quantize) or x's (dequantize) */
    int32_t dim, shape[4], sshape[4];
} qcase;

static void run_case(const qcase *c, const double *xv, const float *scale, const int64_t *zp, const char *what) {
    size_t n = 1, ns = 1;
    for (int32_t d = 0; d < c->dim; ++d) n *= (size_t)c->shape[d], ns *= (size_t)c->sshape[d];
    const Data_Format xf = c->dequantize ? c->qfmt : Fmt_FP32, of = c->dequantize ? Fmt_FP32 : c->qfmt;
    tensor_buf tx, ts, tz, ti, to;
    make_tensor(&tx, xf, SPM_A, c->shape, c->dim);
    make_tensor(&ts, Fmt_FP32, SPM_B, c->sshape, c->dim);
    make_tensor(&tz, c->qfmt, SPM_B + 0x8000, c->sshape, c->dim);
    make_tensor(&to, of, SPM_D, c->shape, c->dim);
    QUANTIZE_PARAM prm = {c->mode};
    const uint64_t imm_bytes = c->dequantize
                                   ? op_dequantize_linear_imm_size(tx8_hal_config(), &prm, &tx.tsr, &ts.tsr)
                                   : op_quantize_linear_imm_size(tx8_hal_config(), &prm, &tx.tsr, &ts.tsr);
    assert_true(imm_bytes > 0);
    const int32_t ib = (int32_t)imm_bytes;
    make_tensor(&ti, Fmt_INT8, SPM_C, &ib, 1);
    const tx8_layout lx = make_layout(c->mode, xf, c->shape, c->dim), lo = make_layout(c->mode, of, c->shape, c->dim);
    const tx8_layout ls = make_layout(LAYOUT_NTENSOR, Fmt_FP32, c->sshape, c->dim);
    const tx8_layout lz = make_layout(LAYOUT_NTENSOR, c->qfmt, c->sshape, c->dim);
    put_tensor(&lx, SPM_A, xv, n);
    double *sv = malloc(ns * sizeof(double) + 1), *got = malloc(n * sizeof(double) + 1);
    for (size_t i = 0; i < ns; ++i) sv[i] = scale[i];
    put_tensor(&ls, SPM_B, sv, ns);
    put_ints(&lz, SPM_B + 0x8000, zp, ns);
    tx8_test_fault_reset();
    const uint64_t cyc = c->dequantize ? op_dequantize_linear(&prm, &tx.tsr, &ts.tsr, &tz.tsr, &ti.tsr, &to.tsr)
                                       : op_quantize_linear(&prm, &tx.tsr, &ts.tsr, &tz.tsr, &ti.tsr, &to.tsr);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_true(cyc != TX8_CYCLES_INVALID && cyc > 0);
    get_tensor(&lo, SPM_D, got, n);
    for (size_t i = 0; i < n; ++i) {
        /* the scale / zero point of element i: its index with the broadcast dims at 0 */
        size_t rest = i, si = 0, stride = 1;
        for (int32_t d = c->dim - 1; d >= 0; --d) {
            const size_t idx = rest % (size_t)c->shape[d];
            rest /= (size_t)c->shape[d];
            if (c->sshape[d] != 1) si += idx * stride;
            stride *= (size_t)c->sshape[d];
        }
        const double want = c->dequantize ? (double)ref_dequantize((int64_t)xv[i], zp[si], scale[si])
                                          : (double)ref_quantize((float)xv[i], scale[si], zp[si], c->qfmt);
        const int same = got[i] == want || (got[i] != got[i] && want != want);
        if (!same || (want == 0 && signbit(got[i]) != signbit(want))) {
            print_error("%s: element %zu: x %.9g scale %.9g zp %lld: got %.9g want %.9g\n", what, i, xv[i],
                        (double)scale[si], (long long)zp[si], got[i], want);
            fail();
        }
    }
    printf("[ tx8 ] %s: %llu cycles\n", what, (unsigned long long)cyc);
    ++g_cases;
    free(sv), free(got);
}

/* By hand: the rounding and saturation edges of ONNX QuantizeLinear. */
static void quantize_named(void **state) {
    (void)state;
    /* x / 2 with zp: halves round to even before the zero point is added */
    static const double x[16] = {1.0, 3.0, 5.0, -1.0, -3.0, -5.0, 0.0, -0.0, 254.0, 256.0, 257.0, -256.0, -258.0,
                                 1e38, INFINITY, NAN};
    const int32_t shape[2] = {1, 16}, one[2] = {1, 1};
    const float scale = 2.0f;
    const struct { Data_Format fmt; int64_t zp; } z[] = {{Fmt_UINT8, 0}, {Fmt_UINT8, 1}, {Fmt_UINT8, 128},
                                                         {Fmt_UINT8, 255}, {Fmt_INT8, 0}, {Fmt_INT8, 1},
                                                         {Fmt_INT8, -128}, {Fmt_INT8, 127}};
    for (size_t k = 0; k < sizeof z / sizeof z[0]; ++k) {
        qcase c = {0, LAYOUT_TENSOR, z[k].fmt, 2, {shape[0], shape[1]}, {one[0], one[1]}};
        char what[96];
        snprintf(what, sizeof what, "quantize named %s zp %lld", tx8_format_name(z[k].fmt), (long long)z[k].zp);
        run_case(&c, x, &scale, &z[k].zp, what);
    }
    /* the values ONNX's own test expects (test_quantizelinear): 0 2 3 1000 -254 -1000 / 2 + 128 */
    static const double x2[6] = {0, 2, 3, 1000, -254, -1000};
    const int32_t s2[2] = {1, 6};
    const int64_t zp = 128;
    qcase c = {0, LAYOUT_TENSOR, Fmt_UINT8, 2, {s2[0], s2[1]}, {1, 1}};
    run_case(&c, x2, &scale, &zp, "quantize test_quantizelinear");
    /* quotients that round in fp32 first: 18.198019f / 0.93323177f is 19.4999995 in double, 19.5 in binary32 (-> 20) */
    static const double x3[4] = {18.19801902770996f, 0.3f, -18.19801902770996f, 0.7f};
    const float s3 = 0.933231770992279f;
    const int64_t zp3 = 0;
    qcase c3 = {0, LAYOUT_TENSOR, Fmt_INT8, 2, {1, 4}, {1, 1}};
    run_case(&c3, x3, &s3, &zp3, "quantize fp32 quotients");
}

static void dequantize_named(void **state) {
    (void)state;
    /* test_dequantizelinear: (0 3 128 255 - 128) * 2 */
    static const double x[4] = {0, 3, 128, 255};
    const float scale = 2.0f;
    const int64_t zp = 128;
    qcase c = {1, LAYOUT_TENSOR, Fmt_UINT8, 2, {1, 4}, {1, 1}};
    run_case(&c, x, &scale, &zp, "dequantize test_dequantizelinear");
    static const double xi[6] = {-128, 127, 0, -1, 100, -100};
    const float si = 0.1f;
    const int64_t zi = -3;
    qcase ci = {1, LAYOUT_NTENSOR, Fmt_INT8, 2, {2, 3}, {1, 1}};
    run_case(&ci, xi, &si, &zi, "dequantize int8 NTensor");
    static const double x32[4] = {16777217.0, -2147483648.0, 2147483647.0, 3};
    const int64_t z32 = 0;
    const float s32 = 1.0f;
    qcase c32 = {1, LAYOUT_TENSOR, Fmt_INT32, 2, {1, 4}, {1, 1}};
    run_case(&c32, x32, &s32, &z32, "dequantize int32 rounds to fp32");
}

/* Seeded random cases: per tensor or along one axis, int8 / uint8 (dequantize: int32 too), both layouts. */
static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 36);
    enum { MAXN = 4000 };
    double *xv = malloc(MAXN * sizeof(double));
    float scale[256];
    int64_t zp[256];
    for (int k = 0; k < 48; ++k) {
        qcase c;
        c.dequantize = k % 2;
        c.mode = (k / 2) % 2 ? LAYOUT_NTENSOR : LAYOUT_TENSOR;
        c.qfmt = (k / 4) % 2 ? Fmt_INT8 : Fmt_UINT8;
        if (c.dequantize && k % 12 == 11) c.qfmt = Fmt_INT32;
        c.dim = tx8_rng_int(&r, 2, 4);
        size_t n;
        do {
            n = 1;
            for (int32_t d = 0; d < c.dim; ++d) {
                c.shape[d] = tx8_rng_int(&r, 1, d == c.dim - 1 ? 70 : 7);
                if (d == 0 && c.mode == LAYOUT_TENSOR) c.shape[d] = 1;
                n *= (size_t)c.shape[d];
            }
        } while (n > MAXN);
        const int32_t axis = tx8_rng_int(&r, -1, c.dim - 1); /* -1: per tensor */
        size_t ns = 1;
        for (int32_t d = 0; d < c.dim; ++d) {
            c.sshape[d] = d == axis ? c.shape[d] : 1;
            ns *= (size_t)c.sshape[d];
        }
        for (size_t i = 0; i < ns; ++i) {
            /* powers of two make exact halves common; others make every quotient inexact */
            scale[i] = tx8_rng_int(&r, 0, 1) ? ldexpf(1.0f, tx8_rng_int(&r, -6, 4))
                                             : (float)tx8_rng_uniform(&r, 0.001, 20.0);
            zp[i] = c.qfmt == Fmt_INT32 ? 0 : tx8_rng_int(&r, (int32_t)q_lo(c.qfmt), (int32_t)q_hi(c.qfmt));
        }
        for (size_t i = 0; i < n; ++i) {
            size_t rest = i, si = 0, stride = 1;
            for (int32_t d = c.dim - 1; d >= 0; --d) {
                const size_t idx = rest % (size_t)c.shape[d];
                rest /= (size_t)c.shape[d];
                if (c.sshape[d] != 1) si += idx * stride;
                stride *= (size_t)c.sshape[d];
            }
            if (c.dequantize) {
                xv[i] = c.qfmt == Fmt_INT32 ? (double)(int32_t)(uint32_t)tx8_rng_next(&r)
                                            : tx8_rng_int(&r, (int32_t)q_lo(c.qfmt), (int32_t)q_hi(c.qfmt));
            } else {
                const int kind = tx8_rng_int(&r, 0, 3);
                const double q = tx8_rng_int(&r, -300, 300) + (kind == 0 ? 0.5 : kind == 1 ? 0.0 : 0.0);
                xv[i] = kind < 2 ? (double)(float)(q * scale[si]) : (double)(float)tx8_rng_uniform(&r, -300, 300);
            }
        }
        char what[160], sh[48] = "";
        for (int32_t d = 0, at = 0; d < c.dim; ++d) at += sprintf(sh + at, d ? "x%d" : "%d", c.shape[d]);
        snprintf(what, sizeof what, "%s %s %s %s axis %d", c.dequantize ? "dequantize" : "quantize",
                 tx8_format_name(c.qfmt), tx8_layout_name(c.mode), sh, axis);
        run_case(&c, xv, scale, zp, what);
    }
    free(xv);
}

/* op_cast to and from uint8: saturation, truncation toward zero, int8 <-> uint8. */
static void cast_uint8(void **state) {
    (void)state;
    const int32_t shape[2] = {1, 6};
    const struct { Data_Format from, to; double in[6]; double want[6]; } c[] = {
        {Fmt_FP32, Fmt_UINT8, {2.9, -2.9, 255.9, 256.0, NAN, 1e10}, {2, 0, 255, 255, 0, 255}},
        {Fmt_UINT8, Fmt_FP32, {0, 1, 127, 128, 254, 255}, {0, 1, 127, 128, 254, 255}},
        {Fmt_INT8, Fmt_UINT8, {-128, -1, 0, 1, 127, 5}, {0, 0, 0, 1, 127, 5}},
        {Fmt_UINT8, Fmt_INT8, {0, 127, 128, 255, 3, 200}, {0, 127, 127, 127, 3, 127}},
        {Fmt_INT32, Fmt_UINT8, {-70000, -1, 0, 255, 256, 70000}, {0, 0, 0, 255, 255, 255}},
        {Fmt_UINT8, Fmt_INT32, {0, 255, 128, 7, 1, 200}, {0, 255, 128, 7, 1, 200}},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; ++k) {
        const tx8_layout li = make_layout(LAYOUT_TENSOR, c[k].from, shape, 2);
        const tx8_layout lo = make_layout(LAYOUT_TENSOR, c[k].to, shape, 2);
        tensor_buf ti, tout;
        make_tensor(&ti, c[k].from, SPM_A, shape, 2);
        make_tensor(&tout, c[k].to, SPM_D, shape, 2);
        put_tensor(&li, SPM_A, c[k].in, 6);
        CAST_PARAM prm = {LAYOUT_TENSOR, 0};
        assert_true(op_cast(&prm, &ti.tsr, &tout.tsr) != TX8_CYCLES_INVALID);
        double got[6];
        get_tensor(&lo, SPM_D, got, 6);
        for (int i = 0; i < 6; ++i)
            if (got[i] != c[k].want[i]) {
                print_error("cast %s -> %s element %d: got %g want %g\n", tx8_format_name(c[k].from),
                            tx8_format_name(c[k].to), i, got[i], c[k].want[i]);
                fail();
            }
        ++g_cases;
    }
}

static void faults(void **state) {
    (void)state;
    const int32_t s[3] = {1, 3, 8}, sc[3] = {1, 3, 1}, sbad[3] = {1, 2, 1}, s2[2] = {3, 8};
    const int32_t big = 4096, small = 8;
    tensor_buf x, x8, scale, sbadt, s2d, zu8, zi8, imm, imm_small, imm_f, out8, outf, out_ov;
    make_tensor(&x, Fmt_FP32, SPM_A, s, 3);
    make_tensor(&x8, Fmt_UINT8, SPM_A, s, 3);
    make_tensor(&scale, Fmt_FP32, SPM_B, sc, 3);
    make_tensor(&sbadt, Fmt_FP32, SPM_B, sbad, 3);
    make_tensor(&s2d, Fmt_FP32, SPM_B, s2, 2);
    make_tensor(&zu8, Fmt_UINT8, SPM_B + 0x100, sc, 3);
    make_tensor(&zi8, Fmt_INT8, SPM_B + 0x100, sc, 3);
    make_tensor(&imm, Fmt_INT8, SPM_C, &big, 1);
    make_tensor(&imm_small, Fmt_INT8, SPM_C, &small, 1);
    make_tensor(&imm_f, Fmt_FP32, SPM_C, &big, 1);
    make_tensor(&out8, Fmt_UINT8, SPM_D, s, 3);
    make_tensor(&outf, Fmt_FP32, SPM_D, s, 3);
    make_tensor(&out_ov, Fmt_UINT8, SPM_C + 8, s, 3); /* inside imm */
    QUANTIZE_PARAM ok = {LAYOUT_TENSOR}, cx = {LAYOUT_CX};
    const struct { int deq; QUANTIZE_PARAM *p; TSR *x, *s, *z, *i, *o; const char *msg; } k[] = {
        {0, NULL, &x.tsr, &scale.tsr, &zu8.tsr, &imm.tsr, &out8.tsr, "op_quantize_linear: param is NULL"},
        {0, &cx, &x.tsr, &scale.tsr, &zu8.tsr, &imm.tsr, &out8.tsr,
         "op_quantize_linear: param->layout = 2, must be Tensor or NTensor (compact)"},
        {0, &ok, &x8.tsr, &scale.tsr, &zu8.tsr, &imm.tsr, &out8.tsr,
         "op_quantize_linear: x->format = uint8, must be fp32"},
        {0, &ok, &x.tsr, &scale.tsr, &zi8.tsr, &imm.tsr, &out8.tsr,
         "op_quantize_linear: zero_point->format = int8, must be uint8"},
        {0, &ok, &x.tsr, &sbadt.tsr, &zu8.tsr, &imm.tsr, &out8.tsr,
         "op_quantize_linear: zero_point->shape->shape_real[1] = 3, scale->shape->shape_real[1] = 2"},
        {0, &ok, &x.tsr, &s2d.tsr, &zu8.tsr, &imm.tsr, &out8.tsr,
         "op_quantize_linear: zero_point->shape->dim = 3, scale->shape->dim = 2"},
        {0, &ok, &x.tsr, &scale.tsr, &zu8.tsr, &imm_small.tsr, &out8.tsr,
         "op_quantize_linear: imm must be an int8 [bytes] buffer of at least"},
        {0, &ok, &x.tsr, &scale.tsr, &zu8.tsr, &imm_f.tsr, &out8.tsr,
         "op_quantize_linear: imm must be an int8 [bytes] buffer"},
        {0, &ok, &x.tsr, &scale.tsr, &zu8.tsr, &imm.tsr, &out_ov.tsr, "op_quantize_linear: out overlaps imm"},
        {0, &ok, &x.tsr, &scale.tsr, &zu8.tsr, &imm.tsr, NULL, "op_quantize_linear: out is NULL"},
        {1, &ok, &x.tsr, &scale.tsr, &zu8.tsr, &imm.tsr, &outf.tsr,
         "op_dequantize_linear: x->format = fp32, must be int8, uint8 or int32"},
        {1, &ok, &x8.tsr, &scale.tsr, &zi8.tsr, &imm.tsr, &outf.tsr,
         "op_dequantize_linear: zero_point->format = int8, must be uint8"},
        {1, &ok, &x8.tsr, &scale.tsr, &zu8.tsr, &imm.tsr, &out8.tsr,
         "op_dequantize_linear: out->format = uint8, must be fp32"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        ct_fill_pattern(SPM_D, 256);
        tx8_test_fault_reset();
        const uint64_t cyc = k[i].deq ? op_dequantize_linear(k[i].p, k[i].x, k[i].s, k[i].z, k[i].i, k[i].o)
                                      : op_quantize_linear(k[i].p, k[i].x, k[i].s, k[i].z, k[i].i, k[i].o);
        assert_true(cyc == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(k[i].msg);
        ct_assert_pattern(SPM_D, 256);
        ++g_cases;
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(quantize_named, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(dequantize_named, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cast_uint8, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_quantize: %d cases ran\n", g_cases);
    return failed;
}

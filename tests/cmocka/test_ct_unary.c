/*
 * CT unary ops (format V) through CGRATensor_ArithOp_V_V_{abs,neg}, CGRATensor_TranscOp_V_V_* and
 * CGRATensor_ActOp_V_V_*: seeded random cases against libm references with dtype tolerances, exact cases,
 * transcendental cycle counts, and rejects. The appended ops (log ... sign): every one bit for bit against its
 * definition written out with the cm_* routines (unary_ref.h) in every float format and rounding mode, within an
 * ulp of a libm reference, known values, and rejected on integer formats.
 */
#include "ct_test_common.h"
#include "unary_ref.h"

static int g_random_cases;

typedef void (*un_fn)(CT_Param *, uint64_t, uint64_t, uint32_t, RND_MODE, Data_Format);
enum { N_OPS = 12 };
static const char *const kName[N_OPS] = {"abs", "neg", "rsqrt", "sqrt", "exp", "reciprocal", "relu", "leaky_relu",
                                         "sigmoid", "tanh", "gelu", "silu"};

static void leaky(CT_Param *p, uint64_t s, uint64_t d, uint32_t n, RND_MODE r, Data_Format f) {
    CGRATensor_ActOp_V_V_leaky_relu(p, s, d, 0.1f, n, r, f);
}
static const un_fn kFn[N_OPS] = {CGRATensor_ArithOp_V_V_abs,     CGRATensor_ArithOp_V_V_neg,
                                 CGRATensor_TranscOp_V_V_rsqrt,  CGRATensor_TranscOp_V_V_sqrt,
                                 CGRATensor_TranscOp_V_V_exp,    CGRATensor_TranscOp_V_V_reciprocal,
                                 CGRATensor_ActOp_V_V_relu,      leaky,
                                 CGRATensor_ActOp_V_V_sigmoid,   CGRATensor_ActOp_V_V_tanh,
                                 CGRATensor_ActOp_V_V_gelu,      CGRATensor_ActOp_V_V_silu};
static const int kTransc[N_OPS] = {0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1};

static double ref(int op, double x) {
    switch (op) {
    case 0: return fabs(x);
    case 1: return -x;
    case 2: return 1.0 / sqrt(x);
    case 3: return sqrt(x);
    case 4: return exp(x);
    case 5: return 1.0 / x;
    case 6: return x > 0 ? x : 0.0;
    case 7: return x > 0 ? x : (double)0.1f * x;
    case 8: return 1.0 / (1.0 + exp(-x));
    case 9: return tanh(x);
    case 10: return 0.5 * x * (1.0 + tanh(sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
    default: return x / (1.0 + exp(-x));
    }
}

static double min_subnormal(Data_Format f) {
    return f == Fmt_FP16 ? ldexp(1.0, -24) : f == Fmt_BF16 ? ldexp(1.0, -133) : ldexp(1.0, -149);
}

static void random_unary(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 10);
    enum { MAXN = 5200 };
    double *x = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    char what[128];
    for (int c = 0; c < 72; ++c) {
        const int op = c % N_OPS;
        const Data_Format fmt = kFloatFmts[(c / N_OPS) % 3];
        const RND_MODE rnd = c < 36 ? RND_NEAREST_EVEN : (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const uint32_t n = ct_rand_count(&r);
        if (op == 2 || op == 3) ct_rand_vals(&r, fmt, x, n, 0.01, 100); /* sqrt domain */
        else ct_rand_vals(&r, fmt, x, n, -6, 6);
        if (op == 5) for (uint32_t i = 0; i < n; ++i) if (x[i] == 0) x[i] = 1;
        tx8_test_spm_store(SPM_A, fmt, x, n);
        CT_Param p;
        kFn[op](&p, SPM_A, SPM_D, n, rnd, fmt);
        assert_int_equal(p.ctrl.format, CT_FMT_V);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, tx8_format_bytes(fmt) * 8, kTransc[op]));
        tx8_test_spm_load(SPM_D, fmt, got, n);
        for (uint32_t i = 0; i < n; ++i) want[i] = ref(op, x[i]);
        const double eps = tx8_test_eps(fmt) * (rnd == RND_NEAREST_EVEN || rnd == RND_NEAREST_AWAY ? 1.0 : 2.0);
        /* + a few double ulps of cancellation in 1 + tanh (gelu) and the format's smallest subnormal */
        snprintf(what, sizeof what, "case %d: %s %s %s n=%u", c, kName[op], tx8_format_name(fmt), tx8_rnd_name(rnd), n);
        tx8_test_assert_close(got, want, n, eps * 1.0001, 1e-14 + min_subnormal(fmt), what);
        if (op <= 1 || op == 6) /* abs, neg, relu are exact */
            for (uint32_t i = 0; i < n; ++i) assert_true(got[i] == want[i]);
        ++g_random_cases;
    }
    free(x), free(got), free(want);
}

static void exact_cases_and_specials(void **state) {
    (void)state;
    const double in[8] = {4, 9, 0.25, 1, 16, 64, 0, 2.25};
    const double want_sqrt[8] = {2, 3, 0.5, 1, 4, 8, 0, 1.5};
    double got[8];
    for (int f = 0; f < 3; ++f) {
        tx8_test_spm_store(SPM_A, kFloatFmts[f], in, 8);
        CT_Param p;
        CGRATensor_TranscOp_V_V_sqrt(&p, SPM_A, SPM_D, 8, RND_ZERO, kFloatFmts[f]);
        assert_int_equal(TsmExecute(&p), 16 + 1 * 4); /* one lane group, 4 transcendental passes */
        tx8_test_spm_load(SPM_D, kFloatFmts[f], got, 8);
        assert_memory_equal(got, want_sqrt, sizeof got);
    }
    /* exp(0) = 1, relu(-0) = +0, abs(-0) = +0, sqrt(-1) = canonical NaN, neg in place */
    const uint32_t bits_in[4] = {0x00000000u, 0x80000000u, 0x80000000u, 0xBF800000u};
    uint32_t out;
    un_fn fns[4] = {CGRATensor_TranscOp_V_V_exp, CGRATensor_ActOp_V_V_relu, CGRATensor_ArithOp_V_V_abs,
                    CGRATensor_TranscOp_V_V_sqrt};
    const uint32_t want_bits[4] = {0x3F800000u, 0, 0, 0x7FC00000u};
    for (int k = 0; k < 4; ++k) {
        ct_store_bits(SPM_A, Fmt_FP32, &bits_in[k], 1);
        CT_Param p;
        fns[k](&p, SPM_A, SPM_D, 1, RND_NEAREST_EVEN, Fmt_FP32);
        assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
        ct_load_bits(SPM_D, Fmt_FP32, &out, 1);
        assert_int_equal(out, want_bits[k]);
    }
    double v[3] = {1.5, -2, 0}, back[3];
    tx8_test_spm_store(SPM_A, Fmt_BF16, v, 3);
    CT_Param p;
    CGRATensor_ArithOp_V_V_neg(&p, SPM_A, SPM_A, 3, RND_NEAREST_EVEN, Fmt_BF16);
    assert_int_equal(TsmExecute(&p), 17);
    tx8_test_spm_load(SPM_A, Fmt_BF16, back, 3);
    assert_true(back[0] == -1.5 && back[1] == 2 && back[2] == 0 && signbit(back[2]));
    /* leaky_relu carries alpha as fp32 bits in the scalar register */
    CGRATensor_ActOp_V_V_leaky_relu(&p, SPM_A, SPM_D, 0.25f, 3, RND_NEAREST_EVEN, Fmt_FP32);
    assert_int_equal(p.param.scalar, 0x3E800000u);
    assert_int_equal(p.ctrl.opcode, CT_OP_LEAKY_RELU);
}

static void rejects(void **state) {
    (void)state;
    CT_Param p;
    CGRATensor_TranscOp_V_V_exp(&p, SPM_A, SPM_D, 16, RND_NEAREST_EVEN, Fmt_INT8);
    ct_expect_reject(&p, "CT exp V: src_fmt = int8 is not supported", SPM_D, 16);
    CGRATensor_TranscOp_V_V_exp(&p, SPM_A, 0x2ffff0, 16, RND_NEAREST_EVEN, Fmt_FP32);
    ct_expect_reject(&p, "CT exp V: dst_addr = 0x2ffff0 + 64 bytes is outside SPM of tile 0 [0, 0x300000)", 0x2ffff0, 16);
    CGRATensor_ActOp_V_V_gelu(&p, SPM_A, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.format = CT_FMT_V_V;
    ct_expect_reject(&p, "CT gelu V_V: format = V_V is not valid for function UNARY (takes V)", SPM_D, 64);
    CGRATensor_ActOp_V_V_silu(&p, SPM_A, SPM_D, 0, RND_NEAREST_EVEN, Fmt_BF16);
    ct_expect_reject(&p, "CT silu V: src_elem_num = 0", SPM_D, 64);
    CGRATensor_ActOp_V_V_tanh(&p, SPM_D + 2, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP16);
    ct_expect_reject(&p, "CT tanh V: dst_addr range [0x180000, 0x180020) overlaps src0_addr", SPM_D, 2);
}

/* ---- the appended ops ---- */

/* Every appended wrapper as (p, src, dst, alpha, beta, n, rnd, fmt), indexed like kUnaryRef (CT_OP_LOG + k). */
typedef void (*app_fn)(CT_Param *, uint64_t, uint64_t, float, float, uint32_t, RND_MODE, Data_Format);
#define PLAIN(name, wrapper)                                                                                       \
    static void name(CT_Param *p, uint64_t s, uint64_t d, float a, float b, uint32_t n, RND_MODE r,                \
                     Data_Format f) {                                                                              \
        (void)a, (void)b;                                                                                          \
        wrapper(p, s, d, n, r, f);                                                                                 \
    }
PLAIN(app_log, CGRATensor_TranscOp_V_V_log)
PLAIN(app_erf, CGRATensor_TranscOp_V_V_erf)
PLAIN(app_gelu_erf, CGRATensor_ActOp_V_V_gelu_erf)
PLAIN(app_softplus, CGRATensor_ActOp_V_V_softplus)
PLAIN(app_softsign, CGRATensor_ActOp_V_V_softsign)
PLAIN(app_hard_swish, CGRATensor_ActOp_V_V_hard_swish)
PLAIN(app_mish, CGRATensor_ActOp_V_V_mish)
PLAIN(app_sin, CGRATensor_TranscOp_V_V_sin)
PLAIN(app_cos, CGRATensor_TranscOp_V_V_cos)
PLAIN(app_tan, CGRATensor_TranscOp_V_V_tan)
PLAIN(app_asin, CGRATensor_TranscOp_V_V_asin)
PLAIN(app_acos, CGRATensor_TranscOp_V_V_acos)
PLAIN(app_atan, CGRATensor_TranscOp_V_V_atan)
PLAIN(app_sinh, CGRATensor_TranscOp_V_V_sinh)
PLAIN(app_cosh, CGRATensor_TranscOp_V_V_cosh)
PLAIN(app_asinh, CGRATensor_TranscOp_V_V_asinh)
PLAIN(app_acosh, CGRATensor_TranscOp_V_V_acosh)
PLAIN(app_atanh, CGRATensor_TranscOp_V_V_atanh)
PLAIN(app_floor, CGRATensor_ArithOp_V_V_floor)
PLAIN(app_ceil, CGRATensor_ArithOp_V_V_ceil)
PLAIN(app_round, CGRATensor_ArithOp_V_V_round)
PLAIN(app_sign, CGRATensor_ArithOp_V_V_sign)
#undef PLAIN
static void app_elu(CT_Param *p, uint64_t s, uint64_t d, float a, float b, uint32_t n, RND_MODE r, Data_Format f) {
    (void)b;
    CGRATensor_ActOp_V_V_elu(p, s, d, a, n, r, f);
}
static void app_celu(CT_Param *p, uint64_t s, uint64_t d, float a, float b, uint32_t n, RND_MODE r, Data_Format f) {
    (void)b;
    CGRATensor_ActOp_V_V_celu(p, s, d, a, n, r, f);
}
static void app_selu(CT_Param *p, uint64_t s, uint64_t d, float a, float b, uint32_t n, RND_MODE r, Data_Format f) {
    CGRATensor_ActOp_V_V_selu(p, s, d, a, b, n, r, f);
}
static void app_trelu(CT_Param *p, uint64_t s, uint64_t d, float a, float b, uint32_t n, RND_MODE r, Data_Format f) {
    (void)b;
    CGRATensor_ActOp_V_V_thresholded_relu(p, s, d, a, n, r, f);
}
static void app_shrink(CT_Param *p, uint64_t s, uint64_t d, float a, float b, uint32_t n, RND_MODE r, Data_Format f) {
    CGRATensor_ActOp_V_V_shrink(p, s, d, a, b, n, r, f);
}
enum { N_APPENDED = 27 };
static const app_fn kApp[N_APPENDED] = {
    app_log,  app_erf,   app_gelu_erf, app_softplus, app_softsign, app_elu,   app_celu,  app_selu,  app_trelu,
    app_shrink, app_hard_swish, app_mish, app_sin, app_cos, app_tan, app_asin, app_acos, app_atan,
    app_sinh, app_cosh, app_asinh, app_acosh, app_atanh, app_floor, app_ceil, app_round, app_sign,
};

/* Raw bits of the device's results against the contract rounded once with the instruction's mode. */
static void expect_bits(const uint32_t *got, const double *x, size_t n, int k, float a, float b, Data_Format fmt,
                        RND_MODE rnd, const char *what) {
    for (size_t i = 0; i < n; ++i) {
        const uint32_t want = cm_round_to_format(unary_ref_cm(k, x[i], a, b), fmt, rnd);
        if (got[i] != want) {
            print_error("%s: element %zu: x = %.9g: got bits 0x%x, want 0x%x (%.17g rounded)\n", what, i, x[i],
                        got[i], want, unary_ref_cm(k, x[i], a, b));
            fail();
        }
    }
}

static void appended_ops_random(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 11);
    enum { MAXN = 5200 };
    double *x = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    double *want = malloc(MAXN * sizeof(double));
    uint32_t *bits = malloc(MAXN * sizeof(uint32_t));
    char what[160];
    for (int c = 0; c < 4 * N_APPENDED; ++c) {
        const int k = c % N_APPENDED;
        const struct unary_ref_info *info = &kUnaryRef[k];
        const Data_Format fmt = kFloatFmts[(c / N_APPENDED) % 3];
        const RND_MODE rnd = c < N_APPENDED ? RND_NEAREST_EVEN : (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const uint32_t n = ct_rand_count(&r);
        const float a = (float)tx8_rng_uniform(&r, 0.1, 2.0), b = (float)tx8_rng_uniform(&r, 0.0, 2.0);
        ct_rand_vals(&r, fmt, x, n, info->lo, info->hi);
        for (uint32_t i = 0; i < n; i += 37) x[i] = kUnarySpecials[(i / 37) % 12]; /* exact in every format */
        tx8_test_spm_store(SPM_A, fmt, x, n);
        CT_Param p;
        kApp[k](&p, SPM_A, SPM_D, a, b, n, rnd, fmt);
        assert_int_equal(p.ctrl.opcode, CT_OP_LOG + k);
        assert_int_equal(p.ctrl.function, CT_FUNC_UNARY);
        assert_string_equal(tx8_ct_opcode_name(p.ctrl.opcode), info->name);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, tx8_format_bytes(fmt) * 8, info->multi_pass));
        snprintf(what, sizeof what, "case %d: %s %s %s n=%u a=%g b=%g", c, info->name, tx8_format_name(fmt),
                 tx8_rnd_name(rnd), n, (double)a, (double)b);
        ct_load_bits(SPM_D, fmt, bits, n);
        expect_bits(bits, x, n, k, a, b, fmt, rnd, what);
        tx8_test_spm_load(SPM_D, fmt, got, n);
        const uint32_t max_bits = fmt == Fmt_FP16 ? 0x7BFFu : fmt == Fmt_BF16 ? 0x7F7Fu : 0x7F7FFFFFu;
        const double big = cm_format_to_double(max_bits, fmt); /* the largest finite value */
        for (uint32_t i = 0; i < n; ++i) {
            want[i] = unary_ref_libm(k, x[i], a, b);
            if (fabs(want[i]) > big && !isinf(want[i])) want[i] = got[i]; /* overflow: the bits above decide */
        }
        const double eps = tx8_test_eps(fmt) * (rnd == RND_NEAREST_EVEN || rnd == RND_NEAREST_AWAY ? 1.0 : 2.0);
        tx8_test_assert_close(got, want, n, eps * 1.0001, tx8_test_subnormal_step(fmt), what);
        ++g_random_cases;
    }
    free(x), free(got), free(want), free(bits);
}

/* Seed-like values with known results, fp32, nearest even: exact bits (sign of zero included). */
static void appended_ops_known_values(void **state) {
    (void)state;
    const double inf = INFINITY, nan = NAN;
    const struct { int k; double x; float a, b; double want; } c[] = {
        {0, 1.0, 0, 0, 0.0},            {0, 0.0, 0, 0, -inf},          {0, -1.0, 0, 0, nan},
        {0, inf, 0, 0, inf},            {12, 0.0, 0, 0, 0.0},          {12, -0.0, 0, 0, -0.0},
        {13, 0.0, 0, 0, 1.0},           {14, -0.0, 0, 0, -0.0},        {15, 1.0, 0, 0, 1.5707963267948966},
        {15, 2.0, 0, 0, nan},           {16, 1.0, 0, 0, 0.0},          {16, -1.0, 0, 0, 3.1415926535897931},
        {17, inf, 0, 0, 1.5707963267948966},                           {18, 0.0, 0, 0, 0.0},
        {19, 0.0, 0, 0, 1.0},           {20, -0.0, 0, 0, -0.0},        {21, 1.0, 0, 0, 0.0},
        {21, 0.5, 0, 0, nan},           {22, 1.0, 0, 0, inf},          {22, -1.0, 0, 0, -inf},
        {23, -0.5, 0, 0, -1.0},         {23, 2.5, 0, 0, 2.0},          {23, -0.0, 0, 0, -0.0},
        {24, -0.5, 0, 0, -0.0},         {24, 2.1, 0, 0, 3.0},          {25, 2.5, 0, 0, 2.0},
        {25, -2.5, 0, 0, -2.0},         {25, 0.5, 0, 0, 0.0},          {25, 1.5, 0, 0, 2.0},
        {25, -0.5, 0, 0, -0.0},         {26, -3.0, 0, 0, -1.0},        {26, 5.0, 0, 0, 1.0},
        {26, 0.0, 0, 0, 0.0},           {26, -0.0, 0, 0, -0.0},        {26, nan, 0, 0, nan},
        {1, 0.0, 0, 0, 0.0},            {1, inf, 0, 0, 1.0},           {1, -inf, 0, 0, -1.0},
        {2, 0.0, 0, 0, 0.0},            {2, 1.0, 0, 0, 0.84134474606854293}, {2, inf, 0, 0, inf},
        {3, 0.0, 0, 0, 0.69314718055994529}, {3, -inf, 0, 0, 0.0},    {4, 1.0, 0, 0, 0.5},
        {4, -3.0, 0, 0, -0.75},         {5, -inf, 1, 0, -1.0},         {5, 2.0, 1, 0, 2.0},
        {6, -inf, 2, 0, -2.0},          {7, 1.0, 1.67326319f, 1.05070102f, 1.0507010221481323},
        {8, 1.0, 1, 0, 0.0},            {8, 1.5, 1, 0, 1.5},           {9, 0.5, 0.5f, 0.5f, 0.0},
        {9, 2.0, 0.5f, 0.5f, 1.5},      {9, -2.0, 0.5f, 0.5f, -1.5},   {10, 3.0, 0, 0, 3.0},
        {10, -3.0, 0, 0, -0.0},         {10, 1.0, 0, 0, 1.0 / 6 + 0.5},{11, 0.0, 0, 0, 0.0},
        {11, inf, 0, 0, inf},           {4, inf, 0, 0, nan},           {11, -inf, 0, 0, nan},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i) {
        const uint32_t in = cm_round_to_format(c[i].x, Fmt_FP32, RND_NEAREST_EVEN);
        uint32_t out;
        ct_store_bits(SPM_A, Fmt_FP32, &in, 1);
        CT_Param p;
        kApp[c[i].k](&p, SPM_A, SPM_D, c[i].a, c[i].b, 1, RND_NEAREST_EVEN, Fmt_FP32);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(1, 32, kUnaryRef[c[i].k].multi_pass));
        ct_load_bits(SPM_D, Fmt_FP32, &out, 1);
        const uint32_t want = cm_round_to_format(c[i].want, Fmt_FP32, RND_NEAREST_EVEN);
        if (out != want) {
            print_error("%s(%g): got bits 0x%08x, want 0x%08x\n", kUnaryRef[c[i].k].name, c[i].x, out, want);
            fail();
        }
    }
    /* the two-parameter wrappers fill both registers; bf16 in place */
    CT_Param p;
    CGRATensor_ActOp_V_V_selu(&p, SPM_A, SPM_D, 1.5f, 0.25f, 3, RND_NEAREST_EVEN, Fmt_FP32);
    assert_int_equal(p.param.scalar, 0x3FC00000u);
    assert_int_equal(p.param.scalar1, 0x3E800000u);
    CGRATensor_ActOp_V_V_shrink(&p, SPM_A, SPM_D, 0.5f, 2.0f, 3, RND_NEAREST_EVEN, Fmt_FP32);
    assert_int_equal(p.param.scalar, 0x3F000000u);
    assert_int_equal(p.param.scalar1, 0x40000000u);
    assert_int_equal(p.ctrl.opcode, CT_OP_SHRINK);
    const double v[4] = {-2.5, 2.5, 0.75, -0.25};
    double back[4];
    tx8_test_spm_store(SPM_A, Fmt_BF16, v, 4);
    CGRATensor_ArithOp_V_V_round(&p, SPM_A, SPM_A, 4, RND_NEAREST_EVEN, Fmt_BF16);
    assert_int_equal(TsmExecute(&p), 17);
    tx8_test_spm_load(SPM_A, Fmt_BF16, back, 4);
    assert_true(back[0] == -2 && back[1] == 2 && back[2] == 1 && back[3] == 0 && signbit(back[3]));
}

static void appended_ops_reject_int_formats(void **state) {
    (void)state;
    char needle[96];
    const Data_Format ints[2] = {Fmt_INT8, Fmt_INT32};
    for (int k = 0; k < N_APPENDED; ++k)
        for (int f = 0; f < 2; ++f) {
            CT_Param p;
            kApp[k](&p, SPM_A, SPM_D, 1.0f, 1.0f, 16, RND_NEAREST_EVEN, ints[f]);
            snprintf(needle, sizeof needle, "CT %s V: src_fmt = %s is not supported (fp32, fp16, bf16 or tf32 only)",
                     kUnaryRef[k].name, tx8_format_name(ints[f]));
            ct_expect_reject(&p, needle, SPM_D, 64);
        }
    CT_Param p;
    CGRATensor_TranscOp_V_V_sin(&p, SPM_A, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.function = CT_FUNC_ARITH;
    ct_expect_reject(&p, "CT sin V: function = ARITH, but opcode sin belongs to function UNARY", SPM_D, 64);
    CGRATensor_ActOp_V_V_mish(&p, SPM_A, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.format = CT_FMT_V_S;
    ct_expect_reject(&p, "CT mish V_S: format = V_S is not valid for function UNARY (takes V)", SPM_D, 64);
    p.ctrl.opcode = CT_OP_COUNT;
    snprintf(needle, sizeof needle, "CT: opcode = %u is not a CT_OPCODE", (unsigned)CT_OP_COUNT);
    ct_expect_reject(&p, needle, SPM_D, 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_unary, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(exact_cases_and_specials, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(rejects, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(appended_ops_random, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(appended_ops_known_values, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(appended_ops_reject_int_formats, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_ct_unary: %d random cases ran\n", g_random_cases);
    return failed;
}

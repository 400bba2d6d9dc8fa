/*
 * CT unary ops (format V) through CGRATensor_ArithOp_V_V_{abs,neg}, CGRATensor_TranscOp_V_V_* and
 * CGRATensor_ActOp_V_V_*: seeded random cases against libm references with dtype tolerances, exact cases,
 * transcendental cycle counts, and rejects.
 */
#include "ct_test_common.h"

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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_unary, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(exact_cases_and_specials, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(rejects, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_ct_unary: %d random cases ran\n", g_random_cases);
    return failed;
}

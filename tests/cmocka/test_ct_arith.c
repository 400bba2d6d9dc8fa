/*
 * CT binary arithmetic through the CGRATensor_ArithOp_* wrappers and TsmExecute: V_V, V_S, V_VuV, V_VuV_loop,
 * the seed's function-pointer table, cycle counts, and the validation errors (nothing written on a reject).
 * References are plain double arithmetic with dtype tolerances; exact bits where the result is exact. pow in every
 * format: bit for bit against cm_pow rounded once, within an ulp of libm's pow, C99 special values, float only.
 */
#include "ct_test_common.h"

static int g_random_cases;

typedef void (*vv_fn)(CT_Param *, uint64_t, uint64_t, uint64_t, uint32_t, RND_MODE, Data_Format);
typedef void (*vs_fn)(CT_Param *, uint64_t, uint32_t, uint64_t, uint32_t, RND_MODE, Data_Format);
typedef void (*vuv_fn)(CT_Param *, uint64_t, uint64_t, uint64_t, RND_MODE, uint32_t, uint32_t, Data_Format);
typedef void (*loop_fn)(CT_Param *, uint64_t, uint64_t, uint64_t, RND_MODE, uint32_t, uint32_t, uint32_t, uint32_t,
                        Data_Format);

static const vv_fn kVV[6] = {CGRATensor_ArithOp_V_V_add, CGRATensor_ArithOp_V_V_sub, CGRATensor_ArithOp_V_V_mul,
                             CGRATensor_ArithOp_V_V_div, CGRATensor_ArithOp_V_V_max, CGRATensor_ArithOp_V_V_min};
static const vs_fn kVS[6] = {CGRATensor_ArithOp_V_S_add, CGRATensor_ArithOp_V_S_sub, CGRATensor_ArithOp_V_S_mul,
                             CGRATensor_ArithOp_V_S_div, CGRATensor_ArithOp_V_S_max, CGRATensor_ArithOp_V_S_min};
static const vuv_fn kVuV[6] = {CGRATensor_ArithOp_V_VuV_add, CGRATensor_ArithOp_V_VuV_sub,
                               CGRATensor_ArithOp_V_VuV_mul, CGRATensor_ArithOp_V_VuV_div,
                               CGRATensor_ArithOp_V_VuV_max, CGRATensor_ArithOp_V_VuV_min};
static const loop_fn kLoop[6] = {CGRATensor_ArithOp_V_VuV_add_loop, CGRATensor_ArithOp_V_VuV_sub_loop,
                                 CGRATensor_ArithOp_V_VuV_mul_loop, CGRATensor_ArithOp_V_VuV_div_loop,
                                 CGRATensor_ArithOp_V_VuV_max_loop, CGRATensor_ArithOp_V_VuV_min_loop};
static const char *const kOpName[6] = {"add", "sub", "mul", "div", "max", "min"};

/* Bases every pow case gets a few of: zeros, infinities, NaN, +-1. */
static const double kSpecials[8] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5};

static double ref_op(int op, double a, double b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    case 4: return a > b ? a : b;
    default: return a < b ? a : b;
    }
}

/* got (device result) against the exact double result: within one rounding of fmt, in the right direction. A
 * rounding is relative for normal results and one subnormal spacing (half for nearest) below them. */
static void check_rounded(const double *got, const double *exact, size_t n, Data_Format fmt, RND_MODE rnd,
                          const char *what) {
    const int nearest = rnd == RND_NEAREST_EVEN || rnd == RND_NEAREST_AWAY;
    const double eps = tx8_test_eps(fmt), step = tx8_test_subnormal_step(fmt);
    tx8_test_assert_close(got, exact, n, nearest ? eps : 2 * eps, nearest ? step / 2 : step, what);
    for (size_t i = 0; i < n; ++i) {
        const int ok = rnd == RND_POS_INF   ? got[i] >= exact[i]
                       : rnd == RND_NEG_INF ? got[i] <= exact[i]
                       : rnd == RND_ZERO    ? fabs(got[i]) <= fabs(exact[i])
                                            : 1;
        if (!ok && !isnan(exact[i])) { /* NaN (pow) has no side; assert_close checked it is NaN */
            print_error("%s: element %zu: %.9g is on the wrong side of %.17g for %s\n", what, i, got[i], exact[i],
                        tx8_rnd_name(rnd));
            fail();
        }
    }
}

/* ---- fixed cases ---- */

static void vuv_mul_seed_example(void **state) {
    (void)state;
    /* seed: src of 8 elements times a unit of 4, applied in two halves */
    const double src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, unit[4] = {10, 20, 30, 40};
    const double want[8] = {10, 40, 90, 160, 50, 120, 210, 320};
    for (int f = 0; f < 3; ++f) {
        double got[8];
        tx8_test_spm_store(SPM_A, kFloatFmts[f], src, 8);
        tx8_test_spm_store(SPM_B, kFloatFmts[f], unit, 4);
        CT_Param p;
        CGRATensor_ArithOp_V_VuV_mul(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 8, 4, kFloatFmts[f]);
        assert_int_equal(p.inter_type, I_CGRA);
        assert_int_equal(p.ctrl.format, CT_FMT_V_VuV);
        assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
        tx8_test_spm_load(SPM_D, kFloatFmts[f], got, 8);
        assert_memory_equal(got, want, sizeof want); /* exact: small integers */
    }
}

static void vuv_mul_loop_unit64_cx2(void **state) {
    (void)state;
    /* Cx = 2 blocks of [HW = 3][64] bf16 times a 128-channel unit: pass p uses unit[p*64 .. p*64+63] */
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 1);
    const uint32_t hw = 3, src_n = hw * 64, full_src = 2 * src_n, full_unit = 128;
    double src[384], unit[128], got[384], want[384];
    ct_rand_vals(&r, Fmt_BF16, src, full_src, -3, 3);
    ct_rand_vals(&r, Fmt_BF16, unit, full_unit, -3, 3);
    tx8_test_spm_store(SPM_A, Fmt_BF16, src, full_src);
    tx8_test_spm_store(SPM_B, Fmt_BF16, unit, full_unit);
    CT_Param p;
    CGRATensor_ArithOp_V_VuV_mul_loop(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, src_n, 64, full_src, full_unit,
                                      Fmt_BF16);
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(full_src, 16, 0)); /* 16 + ceil(384/128) = 19 */
    assert_int_equal(ct_expected_cycles(full_src, 16, 0), 19);
    tx8_test_spm_load(SPM_D, Fmt_BF16, got, full_src);
    for (uint32_t i = 0; i < full_src; ++i) want[i] = src[i] * unit[(i / src_n) * 64 + i % 64];
    /* bf16 x bf16 is exact in double, so RNE of it is the exact answer: compare bits */
    for (uint32_t i = 0; i < full_src; ++i)
        assert_int_equal(cm_round_to_format(got[i], Fmt_BF16, RND_NEAREST_EVEN),
                         cm_round_to_format(want[i], Fmt_BF16, RND_NEAREST_EVEN));
}

static void add_small_integers_exact_and_cycles(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 2);
    const uint32_t n = 1000;
    double a[1000], b[1000], got[1000];
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = tx8_rng_int(&r, -100, 100);
        b[i] = tx8_rng_int(&r, -100, 100);
    }
    const uint32_t bits[3] = {32, 16, 16};
    for (int f = 0; f < 3; ++f) {
        tx8_test_spm_store(SPM_A, kFloatFmts[f], a, n);
        tx8_test_spm_store(SPM_B, kFloatFmts[f], b, n);
        CT_Param p;
        CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, n, RND_NEAREST_EVEN, kFloatFmts[f]);
        const uint64_t cyc = TsmExecute(&p);
        assert_int_equal(cyc, ct_expected_cycles(n, bits[f], 0));
        assert_int_equal(cyc, f == 0 ? 16 + 16 : 16 + 8); /* ceil(1000/64) = 16, ceil(1000/128) = 8 */
        tx8_test_spm_load(SPM_D, kFloatFmts[f], got, n);
        for (uint32_t i = 0; i < n; ++i) assert_true(got[i] == a[i] + b[i]);
    }
    /* div costs the transcendental passes */
    CT_Param p;
    CGRATensor_ArithOp_V_V_div(&p, SPM_A, SPM_B, SPM_D, 100, RND_NEAREST_EVEN, Fmt_FP32);
    tx8_test_spm_store(SPM_B, Fmt_FP32, (const double[]){1}, 1);
    assert_int_equal(TsmExecute(&p), 16 + 2 * 4);
}

static void directed_rounding_of_inexact_double_sums(void **state) {
    (void)state;
    /* 1 + 2^-60 is not a double; every directed mode must still see that it is above 1 */
    const double one = 1.0, tiny = ldexp(1.0, -60);
    struct { int sub; RND_MODE rnd; float want; } cases[] = {
        {0, RND_POS_INF, 1.0f + 0x1p-23f}, {0, RND_NEG_INF, 1.0f}, {0, RND_ZERO, 1.0f},
        {0, RND_NEAREST_EVEN, 1.0f},       {1, RND_ZERO, 1.0f - 0x1p-24f}, {1, RND_NEG_INF, 1.0f - 0x1p-24f},
        {1, RND_POS_INF, 1.0f},            {1, RND_NEAREST_AWAY, 1.0f},
    };
    tx8_test_spm_store(SPM_A, Fmt_FP32, &one, 1);
    tx8_test_spm_store(SPM_B, Fmt_FP32, &tiny, 1);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        CT_Param p;
        (cases[k].sub ? CGRATensor_ArithOp_V_V_sub : CGRATensor_ArithOp_V_V_add)(&p, SPM_A, SPM_B, SPM_D, 1,
                                                                                  cases[k].rnd, Fmt_FP32);
        assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
        uint32_t got;
        ct_load_bits(SPM_D, Fmt_FP32, &got, 1);
        assert_int_equal(got, ct_float_bits(cases[k].want));
    }
    /* bf16: 256 + 2^-100 rounded up is the next bf16 above 256 (258) */
    const double big = 256.0, tiny2 = ldexp(1.0, -100);
    tx8_test_spm_store(SPM_A, Fmt_BF16, &big, 1);
    tx8_test_spm_store(SPM_B, Fmt_BF16, &tiny2, 1);
    CT_Param p;
    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, 1, RND_POS_INF, Fmt_BF16);
    assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
    double got;
    tx8_test_spm_load(SPM_D, Fmt_BF16, &got, 1);
    assert_true(got == 258.0);
}

static void in_place_and_seed_function_pointers(void **state) {
    (void)state;
    /* seed: arith->addVS(&ct_param, var, eps bits, var, n, RNE, fp32), in place */
    const TsmArith *arith = getTsmOpPointer()->arith_pointer;
    assert_ptr_equal(arith->addVS, CGRATensor_ArithOp_V_S_add);
    assert_ptr_equal(arith->minVV, CGRATensor_ArithOp_V_V_min);
    assert_ptr_equal(arith->divVS, CGRATensor_ArithOp_V_S_div);
    double var[300], got[300];
    for (int i = 0; i < 300; ++i) var[i] = i * 0.25;
    tx8_test_spm_store(SPM_A, Fmt_FP32, var, 300);
    float eps = 1e-6f;
    uint32_t eps_bits;
    memcpy(&eps_bits, &eps, 4);
    CT_Param ct_param = {I_CGRA, {0}, {0}};
    arith->addVS(&ct_param, SPM_A, eps_bits, SPM_A, 300, RND_NEAREST_EVEN, Fmt_FP32);
    assert_int_equal(ADD_VALID_CYCLE(0, TsmExecute(&ct_param)), ct_expected_cycles(300, 32, 0));
    tx8_test_spm_load(SPM_A, Fmt_FP32, got, 300);
    for (int i = 0; i < 300; ++i) assert_int_equal(ct_float_bits((float)got[i]), ct_float_bits((float)var[i] + eps));
    /* VuV in place: dst == src */
    double unit[3] = {2, 3, 4};
    tx8_test_spm_store(SPM_B, Fmt_FP32, unit, 3);
    tx8_test_spm_store(SPM_A, Fmt_FP32, var, 300);
    CGRATensor_ArithOp_V_VuV_mul(&ct_param, SPM_A, SPM_A, SPM_B, RND_NEAREST_EVEN, 300, 3, Fmt_FP32);
    assert_true(TsmExecute(&ct_param) != TX8_CYCLES_INVALID);
    tx8_test_spm_load(SPM_A, Fmt_FP32, got, 300);
    for (int i = 0; i < 300; ++i) assert_true(got[i] == var[i] * unit[i % 3]);
}

/* ---- seeded random cases over every op, shape, float format and rounding mode ---- */

static void random_arith(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 3);
    enum { MAXN = 5200 };
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double));
    double *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    char what[160];
    for (int c = 0; c < 120; ++c) {
        const int op = c % 6, shape = (c / 6) % 4;
        const Data_Format fmt = kFloatFmts[tx8_rng_int(&r, 0, 2)];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        uint32_t n = ct_rand_count(&r), unit = 1, unit_total = 1;
        CT_Param p;
        uint32_t scalar = 0;
        if (shape == 2) { /* VuV: unit 1..300, n a multiple of it */
            unit = (uint32_t)tx8_rng_int(&r, 1, 300);
            n = unit * (uint32_t)tx8_rng_int(&r, 1, 5000 / unit > 0 ? 5000 / (int)unit : 1);
            unit_total = unit;
        } else if (shape == 3) { /* VuV_loop: unit 64, 1..6 passes of HW*64 */
            unit = 64;
            const uint32_t passes = (uint32_t)tx8_rng_int(&r, 1, 6);
            n = 64 * (uint32_t)tx8_rng_int(&r, 1, 12);
            unit_total = 64 * passes;
        }
        const uint32_t total = shape == 3 ? n * (unit_total / 64) : n;
        ct_rand_vals(&r, fmt, a, total, -4, 4);
        ct_rand_vals(&r, fmt, b, shape == 0 ? total : unit_total, -4, 4);
        if (op == 3) /* keep divisors away from 0 */
            for (uint32_t i = 0; i < (shape == 0 ? total : unit_total); ++i)
                if (fabs(b[i]) < 0.125) b[i] = 0.5;
        tx8_test_spm_store(SPM_A, fmt, a, total);
        tx8_test_spm_store(SPM_B, fmt, b, shape == 0 ? total : unit_total);
        switch (shape) {
        case 0: kVV[op](&p, SPM_A, SPM_B, SPM_D, n, rnd, fmt); break;
        case 1: {
            const float s = (float)tx8_rng_uniform(&r, 0.5, 3.0); /* the scalar is fp32 whatever fmt is */
            memcpy(&scalar, &s, 4);
            kVS[op](&p, SPM_A, scalar, SPM_D, n, rnd, fmt);
            break;
        }
        case 2: kVuV[op](&p, SPM_A, SPM_D, SPM_B, rnd, n, unit, fmt); break;
        default: kLoop[op](&p, SPM_A, SPM_D, SPM_B, rnd, n, 64, total, unit_total, fmt); break;
        }
        const uint64_t cyc = TsmExecute(&p);
        assert_int_equal(cyc, ct_expected_cycles(total, tx8_format_bytes(fmt) * 8, op == 3));
        for (uint32_t i = 0; i < total; ++i) {
            double bv = shape == 0 ? b[i] : shape == 1 ? (double)ct_bits_float(scalar)
                      : shape == 2 ? b[i % unit] : b[(i / n) * 64 + i % 64];
            want[i] = ref_op(op, a[i], bv);
        }
        tx8_test_spm_load(SPM_D, fmt, got, total);
        snprintf(what, sizeof what, "case %d: %s shape %d %s %s n=%u unit=%u", c, kOpName[op], shape,
                 tx8_format_name(fmt), tx8_rnd_name(rnd), n, unit);
        check_rounded(got, want, total, fmt, rnd, what);
        if (op != 3 && !(shape == 1 && fmt != Fmt_FP32)) /* exact in double: RNE/any mode gives exact bits */
            for (uint32_t i = 0; i < total; ++i)
                if (cm_round_to_format(got[i], fmt, RND_NEAREST_EVEN) != cm_round_to_format(want[i], fmt, rnd)) {
                    print_error("%s: element %u: got %.9g, want bits of %.17g rounded\n", what, i, got[i], want[i]);
                    fail();
                }
        ++g_random_cases;
    }
    free(a), free(b), free(got), free(want);
}

/* ---- pow: V_V, V_S, V_VuV and V_VuV_loop, bit for bit against cm_pow rounded once, within an ulp of libm ---- */

static void pow_random_every_format(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 5);
    enum { MAXN = 5200 };
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double));
    double *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    uint32_t *bits = malloc(MAXN * sizeof(uint32_t));
    char what[160];
    for (int c = 0; c < 48; ++c) {
        const int shape = c % 4;
        const Data_Format fmt = kFloatFmts[(c / 4) % 3];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        uint32_t n = ct_rand_count(&r), unit = 1, unit_total = 1;
        if (shape == 2) {
            unit = (uint32_t)tx8_rng_int(&r, 1, 300);
            n = unit * (uint32_t)tx8_rng_int(&r, 1, 5000 / (int)unit > 0 ? 5000 / (int)unit : 1);
            unit_total = unit;
        } else if (shape == 3) {
            unit = 64;
            unit_total = 64 * (uint32_t)tx8_rng_int(&r, 1, 6);
            n = 64 * (uint32_t)tx8_rng_int(&r, 1, 12);
        }
        const uint32_t total = shape == 3 ? n * (unit_total / 64) : n, nb = shape == 0 ? total : unit_total;
        ct_rand_vals(&r, fmt, a, total, 0.0, 6.0);
        for (uint32_t i = 0; i < total; i += 5) a[i] = -a[i]; /* negative bases: NaN or, for integer b, signed */
        ct_rand_vals(&r, fmt, b, nb, -8.0, 8.0);
        for (uint32_t i = 0; i < nb; i += 3) b[i] = (double)tx8_rng_int(&r, -9, 9); /* integer exponents */
        for (uint32_t i = 0; i < total; i += 41) a[i] = kSpecials[(i / 41) % 8];
        float s = (float)b[0];
        uint32_t scalar;
        memcpy(&scalar, &s, 4);
        tx8_test_spm_store(SPM_A, fmt, a, total);
        tx8_test_spm_store(SPM_B, fmt, b, nb);
        CT_Param p;
        switch (shape) {
        case 0: CGRATensor_ArithOp_V_V_pow(&p, SPM_A, SPM_B, SPM_D, n, rnd, fmt); break;
        case 1: CGRATensor_ArithOp_V_S_pow(&p, SPM_A, scalar, SPM_D, n, rnd, fmt); break;
        case 2: CGRATensor_ArithOp_V_VuV_pow(&p, SPM_A, SPM_D, SPM_B, rnd, n, unit, fmt); break;
        default: CGRATensor_ArithOp_V_VuV_pow_loop(&p, SPM_A, SPM_D, SPM_B, rnd, n, 64, total, unit_total, fmt); break;
        }
        assert_int_equal(p.ctrl.opcode, CT_OP_POW);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(total, tx8_format_bytes(fmt) * 8, 1));
        ct_load_bits(SPM_D, fmt, bits, total);
        tx8_test_spm_load(SPM_D, fmt, got, total);
        snprintf(what, sizeof what, "pow case %d: shape %d %s %s n=%u unit=%u", c, shape, tx8_format_name(fmt),
                 tx8_rnd_name(rnd), n, unit);
        const uint32_t max_bits = fmt == Fmt_FP16 ? 0x7BFFu : fmt == Fmt_BF16 ? 0x7F7Fu : 0x7F7FFFFFu;
        const double big = cm_format_to_double(max_bits, fmt); /* the largest finite value */
        for (uint32_t i = 0; i < total; ++i) {
            const double bv = shape == 0 ? b[i] : shape == 1 ? (double)s : shape == 2 ? b[i % unit]
                                                                        : b[(i / n) * 64 + i % 64];
            const uint32_t wb = cm_round_to_format(cm_pow(a[i], bv), fmt, rnd);
            if (bits[i] != wb) {
                print_error("%s: element %u: pow(%.9g, %.9g): got bits 0x%x, want 0x%x\n", what, i, a[i], bv, bits[i],
                            wb);
                fail();
            }
            want[i] = pow(a[i], bv);
            if (fabs(want[i]) > big && !isinf(want[i])) want[i] = got[i]; /* overflow: the bits above decide */
        }
        check_rounded(got, want, total, fmt, rnd, what);
        ++g_random_cases;
    }
    free(a), free(b), free(got), free(want), free(bits);
}

/* C99 F.9.4.4 through the CT, fp32 V_V: exact bits, sign of zero and infinity included. */
static void pow_special_values(void **state) {
    (void)state;
    const double inf = INFINITY, nan = NAN;
    const struct { double a, b, want; } c[] = {
        {-2.0, 3.0, -8.0},  {-2.0, 2.0, 4.0},   {-2.0, 0.5, nan},   {nan, 0.0, 1.0},    {1.0, nan, 1.0},
        {nan, 2.0, nan},    {0.0, -1.0, inf},   {-0.0, -1.0, -inf}, {-0.0, -2.0, inf},  {-0.0, 3.0, -0.0},
        {-0.0, 0.5, 0.0},   {-1.0, inf, 1.0},   {0.5, inf, 0.0},    {2.0, -inf, 0.0},   {-inf, -3.0, -0.0},
        {-inf, 3.0, -inf},  {inf, -0.5, 0.0},   {4.0, 0.5, 2.0},    {10.0, 3.0, 1000.0},{2.0, 200.0, inf},
        {2.0, -200.0, 0.0}, {-2.0, 201.0, -inf},{2.0, -149.0, 1.4012984643248171e-45},  {9.0, -0.5, 1.0 / 3},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i) {
        CT_Param p;
        tx8_test_spm_store(SPM_A, Fmt_FP32, &c[i].a, 1);
        tx8_test_spm_store(SPM_B, Fmt_FP32, &c[i].b, 1);
        CGRATensor_ArithOp_V_V_pow(&p, SPM_A, SPM_B, SPM_D, 1, RND_NEAREST_EVEN, Fmt_FP32);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(1, 32, 1));
        uint32_t got;
        ct_load_bits(SPM_D, Fmt_FP32, &got, 1);
        const uint32_t want = cm_round_to_format(c[i].want, Fmt_FP32, RND_NEAREST_EVEN);
        if (got != want) {
            print_error("pow(%g, %g): got bits 0x%08x, want 0x%08x\n", c[i].a, c[i].b, got, want);
            fail();
        }
    }
}

/* ---- rejected instructions: message names instruction and field; dst untouched; no cycles ---- */

static void rejects(void **state) {
    (void)state;
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    CT_Param p;
    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, spm - 16, 16, RND_NEAREST_EVEN, Fmt_FP32);
    ct_fill_pattern(spm - 16, 16);
    assert_true(TsmExecute(&p) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("CT add V_V: dst_addr = 0x2ffff0 + 64 bytes is outside SPM of tile 0 [0, 0x300000)");
    ct_assert_pattern(spm - 16, 16);

    CGRATensor_ArithOp_V_V_add(&p, spm - 8, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    ct_expect_reject(&p, "CT add V_V: src0_addr = 0x2ffff8 + 64 bytes is outside SPM", SPM_D, 64);

    CGRATensor_ArithOp_V_VuV_add_loop(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 64, 32, 128, 64, Fmt_FP32);
    ct_expect_reject(&p, "CT add V_VuV_LOOP: unit_elem_num = 32, must be 64", SPM_D, 512);

    CGRATensor_ArithOp_V_VuV_mul_loop(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 128, 64, 384, 128, Fmt_FP32);
    ct_expect_reject(&p, "CT mul V_VuV_LOOP: full_src_elem_num = 384, must be 256", SPM_D, 1536);

    CGRATensor_ArithOp_V_VuV_mul_loop(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 128, 64, 256, 100, Fmt_FP32);
    ct_expect_reject(&p, "full_unit_elem_num = 100 is not a non-zero multiple of unit_elem_num = 64", SPM_D, 1024);

    CGRATensor_ArithOp_V_VuV_mul(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 10, 4, Fmt_BF16);
    ct_expect_reject(&p, "CT mul V_VuV: src_elem_num = 10 is not a multiple of unit_elem_num = 4", SPM_D, 20);

    CGRATensor_ArithOp_V_VuV_mul(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 10, 0, Fmt_BF16);
    ct_expect_reject(&p, "CT mul V_VuV: unit_elem_num = 0", SPM_D, 20);

    CGRATensor_ArithOp_V_V_sub(&p, SPM_A, SPM_B, SPM_D, 0, RND_NEAREST_EVEN, Fmt_FP16);
    ct_expect_reject(&p, "CT sub V_V: src_elem_num = 0, must be > 0", SPM_D, 64);

    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.opcode = 99;
    ct_expect_reject(&p, "CT: opcode = 99 is not a CT_OPCODE", SPM_D, 64);

    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, (Data_Format)9);
    ct_expect_reject(&p, "CT add V_V: src_fmt = 9 is not a Data_Format", SPM_D, 64);

    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.dst_fmt = Fmt_FP16;
    ct_expect_reject(&p, "CT add V_V: dst_fmt = fp16 differs from src_fmt = fp32", SPM_D, 64);

    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, 16, (RND_MODE)7, Fmt_FP32);
    ct_expect_reject(&p, "CT add V_V: rnd = 7 is not a RND_MODE", SPM_D, 64);

    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.format = CT_FMT_V;
    ct_expect_reject(&p, "CT add V: format = V is not valid for function ARITH", SPM_D, 64);
    p.ctrl.format = 12;
    ct_expect_reject(&p, "CT add: format = 12 is not a CT_FORMAT", SPM_D, 64);
    p.ctrl.format = CT_FMT_V_V;
    p.ctrl.function = CT_FUNC_UNARY;
    ct_expect_reject(&p, "CT add V_V: function = UNARY, but opcode add belongs to function ARITH", SPM_D, 64);
    p.ctrl.function = 17;
    ct_expect_reject(&p, "CT add V_V: function = 17 is not a CT_FUNCTION", SPM_D, 64);

    /* partial overlap of dst with a source, and dst over the VuV unit vector */
    CGRATensor_ArithOp_V_V_add(&p, SPM_D + 4, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    ct_expect_reject(&p, "overlaps src0_addr range", SPM_D, 4);
    CGRATensor_ArithOp_V_VuV_add(&p, SPM_A, SPM_D, SPM_D, RND_NEAREST_EVEN, 16, 4, Fmt_FP32);
    ct_expect_reject(&p, "CT add V_VuV: dst_addr range [0x180000, 0x180040) overlaps src1_addr", SPM_D, 64);

    /* pow is float only (the other ARITH ops take integers) */
    CGRATensor_ArithOp_V_V_pow(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_INT8);
    ct_expect_reject(&p, "CT pow V_V: src_fmt = int8 is not supported (fp32, fp16, bf16 or tf32 only)", SPM_D, 16);
    CGRATensor_ArithOp_V_S_pow(&p, SPM_A, 2, SPM_D, 16, RND_NEAREST_EVEN, Fmt_INT32);
    ct_expect_reject(&p, "CT pow V_S: src_fmt = int32 is not supported", SPM_D, 64);
    CGRATensor_ArithOp_V_VuV_pow(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 16, 4, Fmt_INT8);
    ct_expect_reject(&p, "CT pow V_VuV: src_fmt = int8 is not supported", SPM_D, 16);
    CGRATensor_ArithOp_V_V_pow(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32);
    p.ctrl.format = CT_FMT_V;
    ct_expect_reject(&p, "CT pow V: format = V is not valid for function ARITH", SPM_D, 64);
    p.ctrl.format = CT_FMT_V_V;
    p.ctrl.function = CT_FUNC_UNARY;
    ct_expect_reject(&p, "CT pow V_V: function = UNARY, but opcode pow belongs to function ARITH", SPM_D, 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(vuv_mul_seed_example, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(vuv_mul_loop_unit64_cx2, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(add_small_integers_exact_and_cycles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(directed_rounding_of_inexact_double_sums, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(in_place_and_seed_function_pointers, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_arith, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(pow_random_every_format, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(pow_special_values, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(rejects, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_ct_arith: %d random cases ran\n", g_random_cases);
    return failed;
}

/*
 * CT binary arithmetic through the CGRATensor_ArithOp_* wrappers and TsmExecute: V_V, V_S, V_VuV, V_VuV_loop,
 * the seed's function-pointer table, cycle counts, and the validation errors (nothing written on a reject).
 * References are plain double arithmetic with dtype tolerances; exact bits where the result is exact. pow in every
 * format: bit for bit against cm_pow rounded once, within an ulp of libm's pow, C99 special values. Integers (int8,
 * int32): every ARITH op (mod and fmod included) in every form against an int64 reference with saturation, and the
 * named edge cases (INT_MIN / -1, x / 0, saturating products and powers); mod / fmod of floats bit for bit against
 * libm's fmod, with the signs of zero results. fma (dst = src0 * src1 + src2 rounded once) in every form, in fp32,
 * fp16, bf16 and with fp32 coefficients for fp16 / bf16 / tf32 data, every rounding mode, in place: bit for bit
 * against an exact integer reference (ref_fma), within one rounding of libm's fma, equal to libm's fmaf for fp32
 * round-to-nearest-even; hand-worked cases a sum rounded to double first would get wrong.
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
        const ct_geom g = ct_rand_geom(&r, shape);
        const uint32_t n = g.n, unit = g.unit, unit_total = g.unit_total, total = g.total;
        CT_Param p;
        uint32_t scalar = 0;
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
        const ct_geom g = ct_rand_geom(&r, shape);
        const uint32_t n = g.n, unit = g.unit, unit_total = g.unit_total, total = g.total, nb = g.nb;
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

/* ---- integer formats ---- */

enum { IOPS = 9 };
static const char *const kIntOpName[IOPS] = {"add", "sub", "mul", "div", "max", "min", "pow", "mod", "fmod"};
static const vv_fn kIntVV[IOPS] = {CGRATensor_ArithOp_V_V_add, CGRATensor_ArithOp_V_V_sub, CGRATensor_ArithOp_V_V_mul,
                                   CGRATensor_ArithOp_V_V_div, CGRATensor_ArithOp_V_V_max, CGRATensor_ArithOp_V_V_min,
                                   CGRATensor_ArithOp_V_V_pow, CGRATensor_ArithOp_V_V_mod, CGRATensor_ArithOp_V_V_fmod};
static const vs_fn kIntVS[IOPS] = {CGRATensor_ArithOp_V_S_add, CGRATensor_ArithOp_V_S_sub, CGRATensor_ArithOp_V_S_mul,
                                   CGRATensor_ArithOp_V_S_div, CGRATensor_ArithOp_V_S_max, CGRATensor_ArithOp_V_S_min,
                                   CGRATensor_ArithOp_V_S_pow, CGRATensor_ArithOp_V_S_mod, CGRATensor_ArithOp_V_S_fmod};
static const vuv_fn kIntVuV[IOPS] = {
    CGRATensor_ArithOp_V_VuV_add, CGRATensor_ArithOp_V_VuV_sub, CGRATensor_ArithOp_V_VuV_mul,
    CGRATensor_ArithOp_V_VuV_div, CGRATensor_ArithOp_V_VuV_max, CGRATensor_ArithOp_V_VuV_min,
    CGRATensor_ArithOp_V_VuV_pow, CGRATensor_ArithOp_V_VuV_mod, CGRATensor_ArithOp_V_VuV_fmod};
static const loop_fn kIntLoop[IOPS] = {
    CGRATensor_ArithOp_V_VuV_add_loop, CGRATensor_ArithOp_V_VuV_sub_loop, CGRATensor_ArithOp_V_VuV_mul_loop,
    CGRATensor_ArithOp_V_VuV_div_loop, CGRATensor_ArithOp_V_VuV_max_loop, CGRATensor_ArithOp_V_VuV_min_loop,
    CGRATensor_ArithOp_V_VuV_pow_loop, CGRATensor_ArithOp_V_VuV_mod_loop, CGRATensor_ArithOp_V_VuV_fmod_loop};

/* The documented integer result (tx8/isa.h, "Integers"), in int64, saturated to [lo, hi]. pow multiplies step by
 * step (not the CT's squaring), stopping once the magnitude passes every saturation bound. */
static int64_t ref_int(int op, int64_t x, int64_t y, int64_t lo, int64_t hi) {
    int64_t r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break; /* |x|, |y| <= 2^31: fits */
    case 3: r = y == 0 ? 0 : x / y; break;
    case 4: r = x > y ? x : y; break;
    case 5: r = x < y ? x : y; break;
    case 6:
        if (y < 0 || x == 0 || x == 1 || x == -1) { /* |x| <= 1, or 1 / x^|y| truncated */
            r = x == 1 ? 1 : x == -1 ? (y % 2 ? -1 : 1) : x == 0 && y == 0 ? 1 : 0;
        } else {
            r = 1;
            for (int64_t k = 0; k < y && r >= -(1ll << 40) && r <= (1ll << 40); ++k) r *= x;
            if (r > (1ll << 40) || r < -(1ll << 40)) r = (x < 0 && (y & 1)) ? INT64_MIN : INT64_MAX;
        }
        break;
    case 7:
        r = y == 0 ? 0 : x % y;
        if (r != 0 && (r < 0) != (y < 0)) r += y;
        break;
    default: r = y == 0 ? 0 : x % y; break;
    }
    return r > hi ? hi : r < lo ? lo : r;
}

static int64_t rand_int_operand(tx8_rng *r, Data_Format fmt, int op, int right) {
    const int64_t lo = fmt == Fmt_INT8 ? -128 : INT32_MIN, hi = fmt == Fmt_INT8 ? 127 : INT32_MAX;
    const int kind = tx8_rng_int(r, 0, 9);
    if (kind == 0) { const int64_t e[6] = {lo, hi, 0, 1, -1, lo + 1}; return e[tx8_rng_int(r, 0, 5)]; }
    if (op == 6) return right ? tx8_rng_int(r, -3, fmt == Fmt_INT8 ? 9 : 33) : tx8_rng_int(r, -6, 6);
    if (kind < 4) return tx8_rng_int(r, -100, 100);
    if (fmt == Fmt_INT8) return tx8_rng_int(r, -128, 127);
    return kind < 7 ? tx8_rng_int(r, -70000, 70000) : (int32_t)(uint32_t)tx8_rng_next(r);
}

static void integer_arith_every_form(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 6);
    enum { MAXN = 5200 };
    uint32_t *a = malloc(MAXN * 4), *b = malloc(MAXN * 4), *got = malloc(MAXN * 4);
    for (int c = 0; c < IOPS * 8; ++c) {
        const int op = c % IOPS, shape = (c / IOPS) % 4;
        const Data_Format fmt = (c / (4 * IOPS)) % 2 ? Fmt_INT32 : Fmt_INT8;
        const int64_t lo = fmt == Fmt_INT8 ? -128 : INT32_MIN, hi = fmt == Fmt_INT8 ? 127 : INT32_MAX;
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1); /* never matters: results are exact */
        const ct_geom g = ct_rand_geom(&r, shape);
        const uint32_t n = g.n, unit = g.unit, unit_total = g.unit_total, total = g.total, nb = g.nb;
        for (uint32_t i = 0; i < total; ++i) a[i] = (uint32_t)rand_int_operand(&r, fmt, op, 0);
        for (uint32_t i = 0; i < nb; ++i) b[i] = (uint32_t)rand_int_operand(&r, fmt, op, 1);
        const int32_t scalar = fmt == Fmt_INT8 && tx8_rng_int(&r, 0, 3) == 0 ? tx8_rng_int(&r, -1000, 1000)
                                                                           : (int32_t)b[0]; /* past int8 too */
        ct_store_bits(SPM_A, fmt, a, total);
        ct_store_bits(SPM_B, fmt, b, nb);
        CT_Param p;
        switch (shape) {
        case 0: kIntVV[op](&p, SPM_A, SPM_B, SPM_D, n, rnd, fmt); break;
        case 1: kIntVS[op](&p, SPM_A, (uint32_t)scalar, SPM_D, n, rnd, fmt); break;
        case 2: kIntVuV[op](&p, SPM_A, SPM_D, SPM_B, rnd, n, unit, fmt); break;
        default: kIntLoop[op](&p, SPM_A, SPM_D, SPM_B, rnd, n, 64, total, unit_total, fmt); break;
        }
        const int multi = op == 3 || op >= 6;
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(total, tx8_format_bytes(fmt) * 8, multi));
        ct_load_bits(SPM_D, fmt, got, total);
        for (uint32_t i = 0; i < total; ++i) {
            const uint32_t bi = shape == 0 ? b[i] : shape == 2 ? b[i % unit] : shape == 3 ? b[(i / n) * 64 + i % 64]
                                                                                         : (uint32_t)scalar;
            const int64_t x = fmt == Fmt_INT8 ? (int8_t)a[i] : (int32_t)a[i];
            const int64_t y = fmt == Fmt_INT8 && shape != 1 ? (int8_t)bi : (int32_t)bi;
            const int64_t want = ref_int(op, x, y, lo, hi);
            const int64_t g = fmt == Fmt_INT8 ? (int8_t)got[i] : (int32_t)got[i];
            if (g != want) {
                print_error("int case %d: %s shape %d %s %s n=%u unit=%u: element %u: %lld op %lld = %lld, want %lld\n",
                            c, kIntOpName[op], shape, tx8_format_name(fmt), tx8_rnd_name(rnd), n, unit, i,
                            (long long)x, (long long)y, (long long)g, (long long)want);
                fail();
            }
        }
        ++g_random_cases;
    }
    free(a), free(b), free(got);
}

/* Named integer results (V_V), each hand-derived. */
static void integer_named_cases(void **state) {
    (void)state;
    const int64_t mn = INT32_MIN, mx = INT32_MAX;
    const struct { int op; Data_Format fmt; int64_t a, b, want; } c[] = {
        {3, Fmt_INT32, mn, -1, mx}, {3, Fmt_INT32, 7, -2, -3}, {3, Fmt_INT32, -7, 2, -3}, {3, Fmt_INT32, 5, 0, 0},
        {3, Fmt_INT32, -5, 0, 0},   {3, Fmt_INT32, 0, 0, 0},   {3, Fmt_INT8, -128, -1, 127}, {3, Fmt_INT8, -7, 7, -1},
        {2, Fmt_INT32, 65536, 65536, mx}, {2, Fmt_INT32, 46341, 46341, mx}, {2, Fmt_INT32, -46341, 46341, mn},
        {2, Fmt_INT32, mn, mn, mx}, {2, Fmt_INT32, mn, -1, mx}, {2, Fmt_INT32, 46340, 46340, 2147395600},
        {2, Fmt_INT8, -128, -1, 127}, {2, Fmt_INT8, 16, -8, -128}, {2, Fmt_INT8, 16, -9, -128},
        {0, Fmt_INT8, 100, 100, 127}, {1, Fmt_INT8, -100, 100, -128}, {0, Fmt_INT32, mx, 1, mx},
        {1, Fmt_INT32, mn, 1, mn}, {1, Fmt_INT32, 0, mn, mx},
        {6, Fmt_INT32, 2, 31, mx}, {6, Fmt_INT32, -2, 31, mn}, {6, Fmt_INT32, -2, 32, mx},
        {6, Fmt_INT32, 2, 30, 1 << 30}, {6, Fmt_INT32, 3, -1, 0}, {6, Fmt_INT32, -1, -3, -1},
        {6, Fmt_INT32, -1, -4, 1}, {6, Fmt_INT32, 1, -5, 1}, {6, Fmt_INT32, 0, -1, 0}, {6, Fmt_INT32, 0, 0, 1},
        {6, Fmt_INT32, -3, 3, -27}, {6, Fmt_INT32, 10, 9, 1000000000},
        {6, Fmt_INT32, 10, 10, mx}, {6, Fmt_INT32, -1, mx, -1}, {6, Fmt_INT32, 2, mx, mx}, {6, Fmt_INT32, 0, mx, 0},
        {6, Fmt_INT8, 2, 7, 127}, {6, Fmt_INT8, -2, 7, -128}, {6, Fmt_INT8, -2, 6, 64}, {6, Fmt_INT8, 3, 5, 127},
        {7, Fmt_INT32, 7, 3, 1}, {7, Fmt_INT32, -7, 3, 2}, {7, Fmt_INT32, 7, -3, -2}, {7, Fmt_INT32, -7, -3, -1},
        {7, Fmt_INT32, 6, -3, 0}, {7, Fmt_INT32, 7, 0, 0}, {7, Fmt_INT32, mn, -1, 0}, {7, Fmt_INT32, mn, mx, mx - 1},
        {8, Fmt_INT32, 7, 3, 1}, {8, Fmt_INT32, -7, 3, -1}, {8, Fmt_INT32, 7, -3, 1}, {8, Fmt_INT32, -7, -3, -1},
        {8, Fmt_INT32, 7, 0, 0}, {8, Fmt_INT32, mn, -1, 0}, {7, Fmt_INT8, -128, 127, 126}, {8, Fmt_INT8, -128, 127, -1},
        {4, Fmt_INT32, mn, mx, mx}, {5, Fmt_INT8, -128, 127, -128},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; ++k) {
        const uint32_t av = (uint32_t)c[k].a, bv = (uint32_t)c[k].b;
        ct_store_bits(SPM_A, c[k].fmt, &av, 1);
        ct_store_bits(SPM_B, c[k].fmt, &bv, 1);
        for (int m = 0; m < RND_COUNT; ++m) { /* the same in every rounding mode */
            CT_Param p;
            kIntVV[c[k].op](&p, SPM_A, SPM_B, SPM_D, 1, (RND_MODE)m, c[k].fmt);
            assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
            uint32_t got;
            ct_load_bits(SPM_D, c[k].fmt, &got, 1);
            const int64_t g = c[k].fmt == Fmt_INT8 ? (int8_t)got : (int32_t)got;
            if (g != c[k].want) {
                print_error("%s %s %lld, %lld (%s): got %lld, want %lld\n", kIntOpName[c[k].op],
                            tx8_format_name(c[k].fmt), (long long)c[k].a, (long long)c[k].b, tx8_rnd_name((RND_MODE)m),
                            (long long)g, (long long)c[k].want);
                fail();
            }
        }
    }
    /* abs / neg of the minimum saturate; of the others they are exact */
    const uint32_t v8[4] = {0x80u, 0x81u, 0x7Fu, 0u}, v32[4] = {0x80000000u, 0x80000001u, 0x7FFFFFFFu, 0u};
    const int64_t abs8[4] = {127, 127, 127, 0}, neg8[4] = {127, 127, -127, 0};
    const int64_t abs32[4] = {mx, mx, mx, 0}, neg32[4] = {mx, mx, -mx, 0};
    for (int f = 0; f < 2; ++f) {
        const Data_Format fmt = f ? Fmt_INT32 : Fmt_INT8;
        ct_store_bits(SPM_A, fmt, f ? v32 : v8, 4);
        for (int u = 0; u < 2; ++u) {
            CT_Param p;
            (u ? CGRATensor_ArithOp_V_V_neg : CGRATensor_ArithOp_V_V_abs)(&p, SPM_A, SPM_D, 4, RND_NEAREST_EVEN, fmt);
            assert_int_equal(TsmExecute(&p), ct_expected_cycles(4, f ? 32 : 8, 0));
            uint32_t got[4];
            ct_load_bits(SPM_D, fmt, got, 4);
            const int64_t *want = u ? (f ? neg32 : neg8) : (f ? abs32 : abs8);
            for (int i = 0; i < 4; ++i) assert_int_equal(f ? (int32_t)got[i] : (int8_t)got[i], want[i]);
        }
    }
}

/* ---- mod / fmod of floats: bit for bit against libm's fmod (exact), the signs of zero results included ---- */

static double ref_pymod(double x, double y) {
    const double m = fmod(x, y);
    if (m != m) return m;
    if (m == 0.0) return copysign(0.0, y);
    return (m < 0.0) != (y < 0.0) ? m + y : m;
}

/* The bits of x mod y (Python's %) in fmt with rnd: fmod exactly, then the divisor's add rounded once. An add that
 * double cannot hold exactly only happens with a remainder far below half an ulp of y in fmt: the exact sum then
 * lies strictly between y and its neighbour toward zero (the remainder has the other sign), which decides. */
static uint32_t ref_mod_bits(double x, double y, Data_Format fmt, RND_MODE rnd) {
    const double m = fmod(x, y);
    if (m != m || m == 0.0 || (m < 0.0) == (y < 0.0) || isinf(y))
        return cm_round_to_format(ref_pymod(x, y), fmt, RND_NEAREST_EVEN); /* an exact value: no rounding */
    const double s = m + y, v = s - m, e = (m - (s - v)) + (y - v); /* TwoSum: s + e is exactly m + y */
    if (e == 0.0) return cm_round_to_format(s, fmt, rnd);
    const uint32_t yb = cm_round_to_format(y, fmt, RND_NEAREST_EVEN), ulp = fmt == Fmt_TF32 ? 0x2000u : 1u;
    assert_true(fabs(m) < 0x1p-30 * fabs(y));
    const int toward_zero = rnd == RND_ZERO || (rnd == RND_POS_INF && y < 0.0) || (rnd == RND_NEG_INF && y > 0.0);
    return toward_zero ? yb - ulp : yb; /* one ulp less magnitude */
}

static void float_mod_fmod(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 7);
    enum { MAXN = 5200 };
    static const double kOdd[12] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 3.0, -3.0, 1e30, -1e-30, 6.0};
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double));
    uint32_t *bits = malloc(MAXN * 4);
    const Data_Format fmts[4] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_TF32};
    for (int c = 0; c < 64; ++c) {
        const int fm = c % 2, shape = (c / 2) % 4;
        const Data_Format fmt = fmts[(c / 8) % 4];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const ct_geom g = ct_rand_geom(&r, shape);
        const uint32_t n = g.n, unit = g.unit, unit_total = g.unit_total, total = g.total, nb = g.nb;
        const double span = fmt == Fmt_FP16 ? 6e4 : 1e6;
        for (uint32_t i = 0; i < total; ++i)
            a[i] = i % 3 ? tx8_rng_uniform(&r, -20, 20) : tx8_rng_uniform(&r, -span, span);
        for (uint32_t i = 0; i < nb; ++i)
            b[i] = i % 4 ? tx8_rng_uniform(&r, -7, 7) : tx8_rng_uniform(&r, -0.01, 0.01);
        for (uint32_t i = 0; i < total; i += 37) a[i] = kOdd[(i / 37) % 12];
        for (uint32_t i = 5; i < nb; i += 29) b[i] = kOdd[(i / 29 + 3) % 12];
        tx8_test_quantize(fmt, a, total);
        tx8_test_quantize(fmt, b, nb);
        const float s = (float)b[0];
        uint32_t scalar;
        memcpy(&scalar, &s, 4);
        tx8_test_spm_store(SPM_A, fmt, a, total);
        tx8_test_spm_store(SPM_B, fmt, b, nb);
        CT_Param p;
        switch (shape) {
        case 0: kIntVV[7 + fm](&p, SPM_A, SPM_B, SPM_D, n, rnd, fmt); break;
        case 1: kIntVS[7 + fm](&p, SPM_A, scalar, SPM_D, n, rnd, fmt); break;
        case 2: kIntVuV[7 + fm](&p, SPM_A, SPM_D, SPM_B, rnd, n, unit, fmt); break;
        default: kIntLoop[7 + fm](&p, SPM_A, SPM_D, SPM_B, rnd, n, 64, total, unit_total, fmt); break;
        }
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(total, tx8_format_bytes(fmt) * 8, 1));
        ct_load_bits(SPM_D, fmt, bits, total);
        for (uint32_t i = 0; i < total; ++i) {
            const double y = shape == 0 ? b[i] : shape == 1 ? (double)s : shape == 2 ? b[i % unit]
                                                                      : b[(i / n) * 64 + i % 64];
            const double w = fm ? fmod(a[i], y) : ref_pymod(a[i], y);
            const uint32_t want = fm ? cm_round_to_format(w, fmt, RND_NEAREST_EVEN) /* exact: representable */
                                     : ref_mod_bits(a[i], y, fmt, rnd);
            if (bits[i] != want) {
                print_error("%s case %d: shape %d %s %s: element %u: %.9g, %.9g: got bits 0x%x, want %.9g (0x%x)\n",
                            fm ? "fmod" : "mod", c, shape, tx8_format_name(fmt), tx8_rnd_name(rnd), i, a[i], y,
                            bits[i], w, want);
                fail();
            }
        }
        ++g_random_cases;
    }
    /* the signs, by hand: mod follows the divisor, fmod the dividend, zeros included */
    const struct { double a, b, mod, fmod; } k[] = {
        {5, 3, 2, 2},           {-5, 3, 1, -2},        {5, -3, -1, 2},         {-5, -3, -2, -2},
        {4, -2, -0.0, 0.0},     {-4, 2, 0.0, -0.0},    {-0.0, 3, 0.0, -0.0},   {0.0, -3, -0.0, 0.0},
        {5.5, 2, 1.5, 1.5},     {-5.5, 2, 0.5, -1.5},  {5, INFINITY, 5, 5},    {-5, INFINITY, INFINITY, -5},
        {5, -INFINITY, -INFINITY, 5}, {-5, -INFINITY, -5, -5}, {5, 0, NAN, NAN}, {INFINITY, 3, NAN, NAN},
        {NAN, 3, NAN, NAN},     {3, NAN, NAN, NAN},    {7.5, -2, -0.5, 1.5},   {-0.0, -INFINITY, -0.0, -0.0},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (int fm = 0; fm < 2; ++fm) {
            CT_Param p;
            tx8_test_spm_store(SPM_A, Fmt_FP32, &k[i].a, 1);
            tx8_test_spm_store(SPM_B, Fmt_FP32, &k[i].b, 1);
            kIntVV[7 + fm](&p, SPM_A, SPM_B, SPM_D, 1, RND_NEAREST_EVEN, Fmt_FP32);
            assert_int_equal(TsmExecute(&p), ct_expected_cycles(1, 32, 1));
            uint32_t got;
            ct_load_bits(SPM_D, Fmt_FP32, &got, 1);
            const double w = fm ? k[i].fmod : k[i].mod;
            const uint32_t want = cm_round_to_format(w, Fmt_FP32, RND_NEAREST_EVEN);
            if (got != want) {
                print_error("%s(%g, %g): got bits 0x%08x, want %g (0x%08x)\n", fm ? "fmod" : "mod", k[i].a, k[i].b,
                            got, w, want);
                fail();
            }
        }
    /* a float mod that rounds: (1 + 2^-23) mod -4 = -3 + 2^-23, halfway between fp32's -3 and -3 + 2^-22 */
    const double x = 1.0 + 0x1p-23, y4 = -4.0;
    const double rounded[RND_COUNT] = {-3.0, -3.0 + 0x1p-22, -3.0 + 0x1p-22, -3.0, -3.0};
    tx8_test_spm_store(SPM_A, Fmt_FP32, &x, 1);
    tx8_test_spm_store(SPM_B, Fmt_FP32, &y4, 1);
    for (int m = 0; m < RND_COUNT; ++m) {
        CT_Param p;
        CGRATensor_ArithOp_V_V_mod(&p, SPM_A, SPM_B, SPM_D, 1, (RND_MODE)m, Fmt_FP32);
        assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
        double got;
        tx8_test_spm_load(SPM_D, Fmt_FP32, &got, 1);
        assert_true(got == rounded[m]);
    }
    free(a), free(b), free(bits);
}

/* ---- fma: dst = src0 * m + a rounded once, bit for bit against an exact integer reference; libm's fma / fmaf as
 * a cross-check (fmaf is the correctly rounded fp32 fma under round-to-nearest-even) ---- */

typedef struct fma_fmts {
    Data_Format coef, data; /* src_fmt (src1, src2), dst_fmt (src0, dst) */
} fma_fmts;
static const fma_fmts kFmaFmts[6] = {{Fmt_FP32, Fmt_FP32}, {Fmt_FP16, Fmt_FP16}, {Fmt_BF16, Fmt_BF16},
                                     {Fmt_FP32, Fmt_FP16}, {Fmt_FP32, Fmt_BF16}, {Fmt_FP32, Fmt_TF32}};

/* Significand bits and normal exponent range of a float format. */
static void fma_geom(Data_Format f, int *p, int *emin, int *emax) {
    *p = f == Fmt_FP32 ? 24 : f == Fmt_BF16 ? 8 : 11; /* fp16 and tf32: 11 */
    *emin = f == Fmt_FP16 ? -14 : -126;
    *emax = f == Fmt_FP16 ? 15 : 127;
}

/* A finite non-zero v as mant * 2^exp with mant an odd integer (at most 53 bits). */
static void fma_split(double v, int64_t *mant, int *exp) {
    int e;
    const double f = frexp(v, &e);
    int64_t m = (int64_t)ldexp(f, 53);
    e -= 53;
    while (m % 2 == 0) m /= 2, ++e;
    *mant = m, *exp = e;
}

/* x * m + a rounded once to fmt with rnd (the value of an fmt element), by integer arithmetic: the product of the
 * odd significands is exact in 128 bits, the addend is aligned to it exactly when their exponents are < 78 apart,
 * else it only matters as a sticky unit 2^30 below the larger term (far below any rounding boundary of a <= 24-bit
 * format). Special values (inf / NaN operands) follow IEEE arithmetic, which double reproduces exactly. */
static double ref_fma(double x, double m, double a, Data_Format fmt, RND_MODE rnd) {
    if (!isfinite(x) || !isfinite(m) || !isfinite(a)) return x * m + a;
    const int prod_neg = (signbit(x) != 0) != (signbit(m) != 0);
    __int128 n = 0;
    int e = 0;
    if (x == 0.0 || m == 0.0) {
        if (a == 0.0) /* -0 only for -0 + -0, or under RND_NEG_INF (IEEE 754 6.3) */
            return (prod_neg && signbit(a)) || (rnd == RND_NEG_INF && (prod_neg || signbit(a))) ? -0.0 : 0.0;
        int64_t ma;
        fma_split(a, &ma, &e);
        n = ma;
    } else {
        int64_t mx, mm;
        int ex, em;
        fma_split(x, &mx, &ex);
        fma_split(m, &mm, &em);
        __int128 p = (__int128)mx * mm;
        const int ep = ex + em;
        if (a == 0.0) {
            n = p, e = ep;
        } else {
            int64_t ma;
            int ea;
            fma_split(a, &ma, &ea);
            __int128 hi = p, lo = ma;
            int eh = ep, el = ea;
            if (ea > ep) hi = ma, lo = p, eh = ea, el = ep;
            const int d = eh - el; /* |hi|, |lo| < 2^48 */
            if (d < 78) n = hi * ((__int128)1 << d) + lo, e = el;
            else n = hi * ((__int128)1 << 30) + (lo > 0 ? 1 : -1), e = eh - 30;
        }
        if (n == 0) return rnd == RND_NEG_INF ? -0.0 : 0.0; /* exact cancellation */
    }
    const int neg = n < 0;
    unsigned __int128 mag = neg ? (unsigned __int128)(-n) : (unsigned __int128)n;
    int len = 0;
    for (unsigned __int128 t = mag; t; t >>= 1) ++len;
    int p, emin, emax;
    fma_geom(fmt, &p, &emin, &emax);
    int q = e + len - p; /* exponent of the result's last significand bit */
    if (q < emin - p + 1) q = emin - p + 1;
    double val;
    if (q <= e) {
        val = ldexp((double)mag, e); /* exact: at most p bits */
    } else {
        const int sh = q - e;
        unsigned __int128 quo = 0;
        int above_half, at_half;
        const int inexact = sh >= 127 ? 1 : (mag & (((unsigned __int128)1 << sh) - 1)) != 0;
        if (sh >= 127) { /* mag < 2^126: below half of the last place */
            above_half = at_half = 0;
        } else {
            quo = mag >> sh;
            const unsigned __int128 rem = mag & (((unsigned __int128)1 << sh) - 1), half = (unsigned __int128)1 << (sh - 1);
            above_half = rem > half, at_half = rem == half;
        }
        const int up = rnd == RND_NEAREST_EVEN   ? above_half || (at_half && (quo & 1))
                       : rnd == RND_NEAREST_AWAY ? above_half || at_half
                       : rnd == RND_POS_INF      ? inexact && !neg
                       : rnd == RND_NEG_INF      ? inexact && neg
                                                 : 0;
        val = ldexp((double)(quo + (unsigned)up), q);
    }
    const double maxv = ldexp(ldexp(1.0, p) - 1.0, emax - p + 1);
    if (val > maxv) {
        const int to_inf = rnd == RND_NEAREST_EVEN || rnd == RND_NEAREST_AWAY || (rnd == RND_POS_INF && !neg) ||
                           (rnd == RND_NEG_INF && neg);
        val = to_inf ? INFINITY : maxv;
    }
    return neg ? -val : val;
}

/* Device bits against the reference: equal bits, or both NaN. */
static void fma_check_bits(const uint32_t *bits, const double *x, const double *m, const double *a, size_t n,
                           Data_Format fmt, RND_MODE rnd, const char *what) {
    for (size_t i = 0; i < n; ++i) {
        const double want = ref_fma(x[i], m[i], a[i], fmt, rnd);
        const uint32_t wb = cm_round_to_format(want, fmt, RND_NEAREST_EVEN); /* exact: an element value */
        const double got = cm_format_to_double(bits[i], fmt);
        if (isnan(want) ? !isnan(got) : bits[i] != wb) {
            print_error("%s: element %zu: fma(%.17g, %.17g, %.17g): got %.17g (0x%x), want %.17g (0x%x)\n", what, i,
                        x[i], m[i], a[i], got, bits[i], want, wb);
            fail();
        }
    }
}

/* Runs one fp32 V_V fma of n elements under every rounding mode against the expected values per mode. */
static void fma_fixed_fp32(const double *x, const double *m, const double *a, const double (*want)[RND_COUNT],
                           size_t n) {
    tx8_test_spm_store(SPM_A, Fmt_FP32, x, n);
    tx8_test_spm_store(SPM_B, Fmt_FP32, m, n);
    tx8_test_spm_store(SPM_C, Fmt_FP32, a, n);
    for (int r = 0; r < RND_COUNT; ++r) {
        CT_Param p;
        CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, SPM_C, SPM_D, (uint32_t)n, (RND_MODE)r, Fmt_FP32, Fmt_FP32);
        assert_int_equal(p.ctrl.opcode, CT_OP_FMA);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, 32, 0)); /* one pass, like add / mul */
        uint32_t bits[16];
        ct_load_bits(SPM_D, Fmt_FP32, bits, n);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t wb = cm_round_to_format(want[i][r], Fmt_FP32, RND_NEAREST_EVEN);
            if (bits[i] != wb && !(isnan(want[i][r]) && isnan(ct_bits_float(bits[i])))) {
                print_error("fma fixed %zu (%s): fma(%.17g, %.17g, %.17g): got 0x%08x, want %.17g (0x%08x)\n", i,
                            tx8_rnd_name((RND_MODE)r), x[i], m[i], a[i], bits[i], want[i][r], wb);
                fail();
            }
        }
        /* the reference agrees with the hand-worked values */
        for (size_t i = 0; i < n; ++i) {
            const double w = ref_fma(x[i], m[i], a[i], Fmt_FP32, (RND_MODE)r);
            assert_true(isnan(w) ? isnan(want[i][r]) : w == want[i][r] && !signbit(w) == !signbit(want[i][r]));
        }
        if (r == RND_NEAREST_EVEN) /* libm's fmaf rounds once too */
            for (size_t i = 0; i < n; ++i) {
                const float f = fmaf((float)x[i], (float)m[i], (float)a[i]);
                assert_true(isnan(f) ? isnan(want[i][r]) : ct_float_bits(f) == bits[i]);
            }
    }
}

static void fma_fixed_cases(void **state) {
    (void)state;
    assert_string_equal(tx8_ct_opcode_name(CT_OP_FMA), "fma");
    const double u12 = 0x1p-12, inf = INFINITY, nan = NAN;
    /* RNE, ZERO, POS_INF, NEG_INF, NEAREST_AWAY (RND_MODE order) */
    const double x[] = {1 + u12, 1 + u12, 1 + 0x1p-23, 0x1p127, 1, -0.0, 0.0, 0.0, inf, inf, 1, 3, -2};
    const double m[] = {1 + u12, 1 + 3 * u12, 1 + 0x1p-23, 2, -1, 1, 1, 1, 0, 1, 1, 0.5, 0.25};
    const double a[] = {0x1p-80, -0x1p-80, -(1 + 0x1p-22), -0x1p127, 1, -0.0, -0.0, 0.0, 1, -inf, inf, 0.25, 0.5};
    const double lo = 1 + 0x1p-11, hi = 1 + 0x1p-11 + 0x1p-23; /* case 0: just above their midpoint */
    const double lo1 = 1 + 0x1p-10 + 0x1p-23, hi1 = 1 + 0x1p-10 + 0x1p-22; /* case 1: just below theirs */
    const double want[][RND_COUNT] = {
        {hi, lo, hi, lo, hi},   /* a sum rounded to double first would sit on the midpoint and tie to lo */
        {lo1, lo1, hi1, lo1, lo1}, /* ... and tie to hi1 here (the even one) */
        {0x1p-46, 0x1p-46, 0x1p-46, 0x1p-46, 0x1p-46}, /* the product is not rounded (mul then add gives 0) */
        {0x1p127, 0x1p127, 0x1p127, 0x1p127, 0x1p127}, /* the product 2^128 overflows fp32 but not the fma */
        {0.0, 0.0, 0.0, -0.0, 0.0},                     /* exact cancellation: -0 only under RND_NEG_INF */
        {-0.0, -0.0, -0.0, -0.0, -0.0},                 /* -0 * 1 + -0 */
        {0.0, 0.0, 0.0, -0.0, 0.0},                     /* +0 + -0 */
        {0.0, 0.0, 0.0, 0.0, 0.0},                      /* +0 + +0 */
        {nan, nan, nan, nan, nan},                      /* inf * 0 */
        {nan, nan, nan, nan, nan},                      /* inf - inf */
        {inf, inf, inf, inf, inf},
        {1.75, 1.75, 1.75, 1.75, 1.75},
        {0.0, 0.0, 0.0, -0.0, 0.0},                     /* -0.5 + 0.5 */
    };
    fma_fixed_fp32(x, m, a, want, sizeof x / sizeof x[0]);

    /* fp16 data, fp32 unit vectors (VuV): the coefficients are not rounded to fp16; the seed's 8 x 4 example */
    const double src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, mul[4] = {1 + 0x1p-20, 20, 30, 40}, add[4] = {-1, 0.5, -0.25, 1};
    double got[8];
    tx8_test_spm_store(SPM_A, Fmt_FP16, src, 8);
    tx8_test_spm_store(SPM_B, Fmt_FP32, mul, 4);
    tx8_test_spm_store(SPM_C, Fmt_FP32, add, 4);
    CT_Param p;
    CGRATensor_ArithOp_V_VuV_fma(&p, SPM_A, SPM_D, SPM_B, SPM_C, RND_NEAREST_EVEN, 8, 4, Fmt_FP32, Fmt_FP16);
    assert_int_equal(p.ctrl.src_fmt, Fmt_FP32);
    assert_int_equal(p.ctrl.dst_fmt, Fmt_FP16);
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(8, 32, 0));
    tx8_test_spm_load(SPM_D, Fmt_FP16, got, 8);
    const double want16[8] = {0x1p-20, 40.5, 89.75, 161, 5 + 5 * 0x1p-20 - 1, 120.5, 209.75, 321};
    for (int i = 0; i < 8; ++i) {
        double w = want16[i];
        tx8_test_quantize(Fmt_FP16, &w, 1); /* 4 + 5*2^-20 rounds to 4 in fp16; 2^-20 is an fp16 subnormal */
        assert_true(got[i] == w);
    }
    assert_true(got[0] == 0x1p-20);
    /* the same in place (dst == src) with fp32 V_S: x * 3 + 0.5 */
    const double xs[5] = {1, -2, 0.5, 1e-3, 7};
    tx8_test_spm_store(SPM_A, Fmt_FP32, xs, 5);
    const float three = 3.0f, half = 0.5f;
    CGRATensor_ArithOp_V_S_fma(&p, SPM_A, ct_float_bits(three), ct_float_bits(half), SPM_A, 5, RND_NEAREST_EVEN,
                               Fmt_FP32);
    assert_int_equal(p.param.scalar1, ct_float_bits(half));
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(5, 32, 0));
    uint32_t bits[5];
    ct_load_bits(SPM_A, Fmt_FP32, bits, 5);
    for (int i = 0; i < 5; ++i) assert_int_equal(bits[i], ct_float_bits(fmaf((float)xs[i], three, half)));
    /* cycles: fp16 data with fp16 coefficients at 128 lanes, with fp32 coefficients at the fp32 rate */
    CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, SPM_C, SPM_D, 1000, RND_NEAREST_EVEN, Fmt_FP16, Fmt_FP16);
    assert_int_equal(TsmExecute(&p), 16 + 8);
    CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, SPM_C, SPM_D, 1000, RND_NEAREST_EVEN, Fmt_FP32, Fmt_FP16);
    assert_int_equal(TsmExecute(&p), 16 + 16);
}

/* A random element of fmt: +-[1, 2) * 2^k quantized (0 possible only by underflow). */
static double fma_rand_scaled(tx8_rng *r, Data_Format fmt, int kmin, int kmax) {
    const double f = tx8_rng_uniform(r, 1.0, 2.0); /* two statements: argument order is unspecified in C */
    double v = ldexp(f, tx8_rng_int(r, kmin, kmax));
    if (tx8_rng_int(r, 0, 1)) v = -v;
    tx8_test_quantize(fmt, &v, 1);
    return v;
}

static void fma_random(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 11);
    enum { MAXN = 5200 };
    double *x = malloc(MAXN * sizeof(double)), *mu = malloc(MAXN * sizeof(double)), *ad = malloc(MAXN * sizeof(double));
    double *mv = malloc(MAXN * sizeof(double)), *av = malloc(MAXN * sizeof(double));
    double *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    uint32_t *bits = malloc(MAXN * sizeof(uint32_t));
    char what[160];
    int hard = 0, libm_checked = 0;
    for (int c = 0; c < 144; ++c) {
        const int shape = c % 4;
        const fma_fmts f = kFmaFmts[(c / 4) % 6];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const int in_place = tx8_rng_int(&r, 0, 3) == 0;
        const ct_geom g = ct_rand_geom(&r, shape);
        const uint32_t n = g.n, unit = g.unit, unit_total = g.unit_total, total = g.total, nb = g.nb;
        /* exponent ranges that keep results finite: fp16 data stays well inside +-65504 and reaches its
         * subnormals; the 8-bit-exponent formats reach fp32's subnormals through tiny products */
        const int narrow = f.data == Fmt_FP16;
        const int xk = narrow ? 5 : 30, ak_lo = f.coef == Fmt_FP16 ? -24 : narrow ? -40 : -90;
        const Data_Format mfmt = shape == 1 ? Fmt_FP32 : f.coef; /* V_S: fp32 scalars */
        for (uint32_t i = 0; i < total; ++i)
            x[i] = i % 16 == 15 ? fma_rand_scaled(&r, f.data, narrow ? -12 : -75, narrow ? -9 : -65)
                                : fma_rand_scaled(&r, f.data, -xk, xk);
        for (uint32_t i = 0; i < nb; ++i) {
            mu[i] = i % 16 == 15 ? fma_rand_scaled(&r, mfmt, narrow ? -12 : -75, narrow ? -9 : -65)
                                 : fma_rand_scaled(&r, mfmt, -xk, xk);
            ad[i] = fma_rand_scaled(&r, mfmt, ak_lo, narrow ? 10 : 40);
            if (i % 11 == 3) ad[i] = 0.0;
        }
        /* near-midpoint cases: x a power of two, m (fp32 coefficients) a midpoint of the data format or (same
         * formats) a product of two half-width significands; the addend 0 or tiny */
        if (shape == 0) {
            int p, emin, emax;
            fma_geom(f.data, &p, &emin, &emax);
            for (uint32_t i = 0; i < total; i += 7) {
                const int j = tx8_rng_int(&r, -xk / 2, xk / 2);
                if (f.coef == Fmt_FP32 && f.data != Fmt_FP32) {
                    x[i] = ldexp(1.0, j);
                    mu[i] = ldexp((double)((1 << p) + 2 * tx8_rng_int(&r, 0, (1 << (p - 1)) - 1) + 1), -p);
                } else {
                    const int h = (p + 1) / 2;
                    x[i] = ldexp(1.0 + ldexp(tx8_rng_int(&r, 0, (1 << h) - 1), -h), j);
                    mu[i] = 1.0 + ldexp(tx8_rng_int(&r, 0, (1 << h) - 1), -h);
                }
                ad[i] = tx8_rng_int(&r, 0, 2) == 0 ? 0.0 : fma_rand_scaled(&r, f.coef, j - 60, j - p - 2);
                if (ad[i] == 0.0 && tx8_rng_int(&r, 0, 1)) ad[i] = -0.0;
                ++hard;
            }
        }
        const float ms = (float)mu[0], as = (float)ad[0];
        for (uint32_t i = 0; i < total; ++i) { /* the operands element i reads */
            const uint32_t k = shape == 0 ? i : shape == 1 ? 0 : shape == 2 ? i % unit : (i / n) * 64 + i % 64;
            mv[i] = mu[k], av[i] = ad[k];
        }
        tx8_test_spm_store(SPM_A, f.data, x, total);
        if (shape != 1) {
            tx8_test_spm_store(SPM_B, f.coef, mu, nb);
            tx8_test_spm_store(SPM_C, f.coef, ad, nb);
        }
        const uint64_t dst = in_place ? SPM_A : SPM_D;
        CT_Param p;
        switch (shape) {
        case 0: CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, SPM_C, dst, n, rnd, f.coef, f.data); break;
        case 1:
            CGRATensor_ArithOp_V_S_fma(&p, SPM_A, ct_float_bits(ms), ct_float_bits(as), dst, n, rnd, f.data);
            p.ctrl.src_fmt = f.coef; /* V_S reads no coefficient vector; the pair stays a legal one */
            break;
        case 2: CGRATensor_ArithOp_V_VuV_fma(&p, SPM_A, dst, SPM_B, SPM_C, rnd, n, unit, f.coef, f.data); break;
        default:
            CGRATensor_ArithOp_V_VuV_fma_loop(&p, SPM_A, dst, SPM_B, SPM_C, rnd, n, 64, total, unit_total, f.coef,
                                              f.data);
            break;
        }
        const uint32_t wide = 8 * (tx8_format_bytes(f.coef) > tx8_format_bytes(f.data) ? tx8_format_bytes(f.coef)
                                                                                        : tx8_format_bytes(f.data));
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(total, wide, 0));
        snprintf(what, sizeof what, "fma case %d: shape %d %s data, %s coefficients, %s, n=%u unit=%u%s", c, shape,
                 tx8_format_name(f.data), tx8_format_name(f.coef), tx8_rnd_name(rnd), n, unit,
                 in_place ? ", in place" : "");
        ct_load_bits(dst, f.data, bits, total);
        fma_check_bits(bits, x, mv, av, total, f.data, rnd, what);
        /* libm: every result within one rounding of fma() in double, on the right side; fp32 RNE equal to fmaf */
        tx8_test_spm_load(dst, f.data, got, total);
        for (uint32_t i = 0; i < total; ++i) want[i] = fma(x[i], mv[i], av[i]);
        check_rounded(got, want, total, f.data, rnd, what);
        if (f.data == Fmt_FP32 && rnd == RND_NEAREST_EVEN)
            for (uint32_t i = 0; i < total; ++i, ++libm_checked)
                if (bits[i] != ct_float_bits(fmaf((float)x[i], (float)mv[i], (float)av[i]))) {
                    print_error("%s: element %u: 0x%08x, fmaf gives 0x%08x\n", what, i, bits[i],
                                ct_float_bits(fmaf((float)x[i], (float)mv[i], (float)av[i])));
                    fail();
                }
        ++g_random_cases;
    }
    printf("[ tx8 ] fma: 144 random cases, %d near-midpoint elements, %d fp32 elements equal to fmaf\n", hard,
           libm_checked);
    free(x), free(mu), free(ad), free(mv), free(av), free(got), free(want), free(bits);
}

static void fma_rejects(void **state) {
    (void)state;
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    CT_Param p;
    CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, SPM_C, SPM_D, 16, RND_NEAREST_EVEN, Fmt_INT32, Fmt_INT32);
    ct_expect_reject(&p, "CT fma V_V: src_fmt = int32 is not supported (fp32, fp16, bf16 or tf32 only)", SPM_D, 64);
    CGRATensor_ArithOp_V_VuV_fma(&p, SPM_A, SPM_D, SPM_B, SPM_C, RND_NEAREST_EVEN, 16, 4, Fmt_INT8, Fmt_INT8);
    ct_expect_reject(&p, "CT fma V_VuV: src_fmt = int8 is not supported", SPM_D, 16);
    /* coefficients narrower than the data, or two different narrow formats */
    CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, SPM_C, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP16, Fmt_FP32);
    ct_expect_reject(&p, "CT fma V_V: dst_fmt = fp32 differs from src_fmt = fp16", SPM_D, 64);
    CGRATensor_ArithOp_V_VuV_fma(&p, SPM_A, SPM_D, SPM_B, SPM_C, RND_NEAREST_EVEN, 16, 4, Fmt_BF16, Fmt_FP16);
    ct_expect_reject(&p, "CT fma V_VuV: dst_fmt = fp16 differs from src_fmt = bf16", SPM_D, 32);
    CGRATensor_ArithOp_V_VuV_fma(&p, SPM_A, SPM_D, SPM_B, SPM_C, RND_NEAREST_EVEN, 16, 4, Fmt_FP32, Fmt_INT8);
    ct_expect_reject(&p, "CT fma V_VuV: dst_fmt = int8 differs from src_fmt = fp32", SPM_D, 16);
    /* dst over the addend's unit vector; the addend outside SPM; a loop unit other than 64 */
    CGRATensor_ArithOp_V_VuV_fma(&p, SPM_A, SPM_D, SPM_B, SPM_D, RND_NEAREST_EVEN, 16, 4, Fmt_FP32, Fmt_FP32);
    ct_expect_reject(&p, "CT fma V_VuV: dst_addr range [0x180000, 0x180040) overlaps src2_addr", SPM_D, 64);
    CGRATensor_ArithOp_V_VuV_fma(&p, SPM_A, SPM_D, SPM_B, spm - 8, RND_NEAREST_EVEN, 16, 4, Fmt_FP32, Fmt_FP16);
    ct_expect_reject(&p, "CT fma V_VuV: src2_addr = 0x2ffff8 + 16 bytes is outside SPM", SPM_D, 32);
    CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, spm - 8, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32, Fmt_BF16);
    ct_expect_reject(&p, "CT fma V_V: src2_addr = 0x2ffff8 + 64 bytes is outside SPM", SPM_D, 32);
    CGRATensor_ArithOp_V_VuV_fma_loop(&p, SPM_A, SPM_D, SPM_B, SPM_C, RND_NEAREST_EVEN, 64, 32, 128, 64, Fmt_FP32,
                                      Fmt_FP32);
    ct_expect_reject(&p, "CT fma V_VuV_LOOP: unit_elem_num = 32, must be 64", SPM_D, 512);
    /* src0 is read in the data format: an fp16 src0 of 16 elements ending 16 bytes before the end of SPM fits, and
     * so does its fp32 unit vector; one more element and src0 is outside */
    CGRATensor_ArithOp_V_VuV_fma(&p, spm - 32, SPM_D, SPM_B, SPM_C, RND_NEAREST_EVEN, 16, 16, Fmt_FP32, Fmt_FP16);
    assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
    CGRATensor_ArithOp_V_VuV_fma(&p, spm - 32, SPM_D, SPM_B, SPM_C, RND_NEAREST_EVEN, 17, 17, Fmt_FP32, Fmt_FP16);
    ct_expect_reject(&p, "CT fma V_VuV: src0_addr = 0x2fffe0 + 34 bytes is outside SPM", SPM_D, 34);
    /* function and format */
    CGRATensor_ArithOp_V_V_fma(&p, SPM_A, SPM_B, SPM_C, SPM_D, 16, RND_NEAREST_EVEN, Fmt_FP32, Fmt_FP32);
    p.ctrl.format = CT_FMT_V;
    ct_expect_reject(&p, "CT fma V: format = V is not valid for function ARITH", SPM_D, 64);
    p.ctrl.format = CT_FMT_V_V;
    p.ctrl.function = CT_FUNC_UNARY;
    ct_expect_reject(&p, "CT fma V_V: function = UNARY, but opcode fma belongs to function ARITH", SPM_D, 64);
    p.ctrl.function = CT_FUNC_ARITH;
    p.ctrl.rnd = RND_COUNT;
    ct_expect_reject(&p, "CT fma V_V: rnd = 5 is not a RND_MODE", SPM_D, 64);
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

    /* pow, mod and fmod take every format but int64 (a storage format) */
    CGRATensor_ArithOp_V_V_pow(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_INT64);
    ct_expect_reject(&p, "CT pow V_V: src_fmt = int64 is not supported: int64 is a storage format", SPM_D, 128);
    CGRATensor_ArithOp_V_VuV_fmod(&p, SPM_A, SPM_D, SPM_B, RND_NEAREST_EVEN, 16, 4, Fmt_INT64);
    ct_expect_reject(&p, "CT fmod V_VuV: src_fmt = int64 is not supported", SPM_D, 128);
    CGRATensor_ArithOp_V_V_mod(&p, SPM_A, SPM_B, SPM_D, 16, RND_NEAREST_EVEN, Fmt_INT32);
    p.ctrl.format = CT_FMT_V;
    ct_expect_reject(&p, "CT mod V: format = V is not valid for function ARITH", SPM_D, 64);
    p.ctrl.format = CT_FMT_V_V;
    p.ctrl.function = CT_FUNC_CMP;
    ct_expect_reject(&p, "CT mod V_V: function = CMP, but opcode mod belongs to function ARITH", SPM_D, 64);
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
        cmocka_unit_test_setup_teardown(integer_arith_every_form, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(integer_named_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(float_mod_fmod, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(rejects, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fma_fixed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fma_random, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fma_rejects, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_ct_arith: %d random cases ran\n", g_random_cases);
    return failed;
}

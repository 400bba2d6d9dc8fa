/*
 * CT convert (CGRATensor_ConvertOp_V_V_convert): random bit patterns of every source format to every destination
 * format and rounding mode, bit-exact against cm_round_to_format; independent references for fp32->fp16 RNE
 * (_Float16), fp32->bf16 RNE (integer rounding), int8 saturation (libm rounding); all 65536 fp16 -> fp32; rejects.
 * int64: to and from every format in every rounding mode against integer-only / libm references (2^53 + 1, a value
 * double rounding gets wrong, INT64_MIN / MAX, saturation, NaN), and that no other engine or opcode takes it.
 */
#include "ct_test_common.h"
#include "tx8/ne.h"

static int g_random_cases;
static const Data_Format kAll[6] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_TF32, Fmt_INT8, Fmt_INT32};

/* A random element of fmt: raw bits, sometimes a special or a moderate number. */
static uint32_t rand_bits(tx8_rng *r, Data_Format fmt) {
    const uint32_t raw = (uint32_t)tx8_rng_next(r);
    const int kind = tx8_rng_int(r, 0, 9);
    if (kind < 3) return cm_round_to_format(tx8_rng_uniform(r, -300, 300), fmt, RND_NEAREST_EVEN);
    switch (fmt) {
    case Fmt_FP16: case Fmt_BF16: return raw & 0xFFFFu;
    case Fmt_INT8: return raw & 0xFFu;
    case Fmt_TF32: return raw & 0xFFFFE000u;
    default: return raw;
    }
}

static void random_convert_all_pairs(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 30);
    enum { MAXN = 5200 };
    uint32_t *in = malloc(MAXN * 4), *out = malloc(MAXN * 4);
    for (int c = 0; c < 6 * 6 * 2; ++c) {
        const Data_Format sf = kAll[c % 6], df = kAll[(c / 6) % 6];
        const RND_MODE rnd = (RND_MODE)(c < 36 ? RND_NEAREST_EVEN : tx8_rng_int(&r, 0, RND_COUNT - 1));
        const uint32_t n = ct_rand_count(&r);
        for (uint32_t i = 0; i < n; ++i) in[i] = rand_bits(&r, sf);
        ct_store_bits(SPM_A, sf, in, n);
        CT_Param p;
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, n, sf, df, rnd);
        const uint32_t bits = 8 * (tx8_format_bytes(sf) > tx8_format_bytes(df) ? tx8_format_bytes(sf) : tx8_format_bytes(df));
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, bits, 0));
        ct_load_bits(SPM_D, df, out, n);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t want = cm_round_to_format(cm_format_to_double(in[i], sf), df, rnd);
            if (out[i] != want) {
                print_error("case %d %s->%s %s: element %u: in 0x%x got 0x%x want 0x%x\n", c, tx8_format_name(sf),
                            tx8_format_name(df), tx8_rnd_name(rnd), i, in[i], out[i], want);
                fail();
            }
        }
        ++g_random_cases;
    }
    free(in), free(out);
}

/* fp32 -> bf16 round to nearest even, by integer arithmetic on the bits (NaN -> 0x7FC0). */
static uint32_t ref_bf16_rne(uint32_t f) {
    if ((f & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FC0u;
    return (f + 0x7FFFu + ((f >> 16) & 1u)) >> 16;
}

static void independent_references(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 31);
    enum { N = 4096 };
    uint32_t in[N], out[N];
    for (int c = 0; c < 8; ++c) {
        for (int i = 0; i < N; ++i) { /* all exponents, including fp16 subnormal / overflow territory */
            in[i] = (uint32_t)tx8_rng_next(&r);
            if ((in[i] & 0x7F800000u) == 0x7F800000u) in[i] &= 0xBFFFFFFFu; /* keep NaN out of the _Float16 check */
        }
        ct_store_bits(SPM_A, Fmt_FP32, in, N);
        CT_Param p;
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, N, Fmt_FP32, Fmt_FP16, RND_NEAREST_EVEN);
        assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
        ct_load_bits(SPM_D, Fmt_FP16, out, N);
#ifdef HAVE_FLOAT16
        for (int i = 0; i < N; ++i) {
            _Float16 h = (_Float16)ct_bits_float(in[i]);
            uint16_t hb;
            memcpy(&hb, &h, 2);
            assert_int_equal(out[i], hb);
        }
#endif
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, N, Fmt_FP32, Fmt_BF16, RND_NEAREST_EVEN);
        assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
        ct_load_bits(SPM_D, Fmt_BF16, out, N);
        for (int i = 0; i < N; ++i) assert_int_equal(out[i], ref_bf16_rne(in[i]));
        ++g_random_cases;
    }
    /* fp32 -> int8 saturates; each mode against libm */
    double v[N];
    for (int i = 0; i < N; ++i) v[i] = tx8_rng_uniform(&r, -300, 300);
    v[0] = 2.5, v[1] = -2.5, v[2] = 127.5, v[3] = -128.5, v[4] = 0.5;
    tx8_test_quantize(Fmt_FP32, v, N);
    tx8_test_spm_store(SPM_A, Fmt_FP32, v, N);
    for (int m = 0; m < RND_COUNT; ++m) {
        CT_Param p;
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, N, Fmt_FP32, Fmt_INT8, (RND_MODE)m);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(N, 32, 0));
        ct_load_bits(SPM_D, Fmt_INT8, out, N);
        for (int i = 0; i < N; ++i) {
            double w = m == RND_NEAREST_EVEN ? nearbyint(v[i]) : m == RND_ZERO ? trunc(v[i])
                     : m == RND_POS_INF ? ceil(v[i]) : m == RND_NEG_INF ? floor(v[i]) : round(v[i]);
            w = w > 127 ? 127 : w < -128 ? -128 : w;
            assert_int_equal((int8_t)out[i], (int)w);
        }
        ++g_random_cases;
    }
}

static void every_fp16_to_fp32(void **state) {
    (void)state;
    uint32_t *in = malloc(65536 * 4), *out = malloc(65536 * 4);
    for (uint32_t i = 0; i < 65536; ++i) in[i] = i;
    ct_store_bits(SPM_A, Fmt_FP16, in, 65536);
    CT_Param p;
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_C, 65536, Fmt_FP16, Fmt_FP32, RND_NEAREST_EVEN);
    assert_int_equal(TsmExecute(&p), 16 + 65536 / 64);
    ct_load_bits(SPM_C, Fmt_FP32, out, 65536);
#ifdef HAVE_FLOAT16
    for (uint32_t i = 0; i < 65536; ++i) {
        uint16_t hb = (uint16_t)i;
        _Float16 h;
        memcpy(&h, &hb, 2);
        const float f = (float)h;
        if (f != f) assert_int_equal(out[i], 0x7FC00000u); /* NaN -> canonical */
        else assert_int_equal(out[i], ct_float_bits(f));
    }
#else /* against the model's scalar decode, itself checked pattern by pattern in test_numerics */
    for (uint32_t i = 0; i < 65536; ++i) {
        const int nan = (i & 0x7C00u) == 0x7C00u && (i & 0x3FFu) != 0;
        assert_int_equal(out[i], nan ? 0x7FC00000u : ct_float_bits(cm_fp16_to_fp32((uint16_t)i)));
    }
#endif
    free(in), free(out);
}

static void in_place_and_rejects(void **state) {
    (void)state;
    const double v[4] = {1.5, -2.5, 3.5, 1e9};
    double got[4];
    tx8_test_spm_store(SPM_A, Fmt_FP32, v, 4);
    CT_Param p;
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_A, 4, Fmt_FP32, Fmt_INT32, RND_NEAREST_EVEN); /* same size */
    assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
    tx8_test_spm_load(SPM_A, Fmt_INT32, got, 4);
    assert_true(got[0] == 2 && got[1] == -2 && got[2] == 4 && got[3] == 1e9);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_D, SPM_D, 8, Fmt_FP16, Fmt_FP32, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: dst_addr range [0x180000, 0x180020) overlaps src0_addr range [0x180000, 0x180010)",
                     SPM_D, 32);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 8, Fmt_FP16, Fmt_COUNT, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: dst_fmt = 8 is not a Data_Format", SPM_D, 32);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 8, Fmt_FP16, Fmt_FP32, (RND_MODE)5);
    ct_expect_reject(&p, "CT convert V: rnd = 5 is not a RND_MODE", SPM_D, 32);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, 0x2ffff0, 8, Fmt_FP16, Fmt_FP32, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: dst_addr = 0x2ffff0 + 32 bytes is outside SPM", 0x2ffff0, 16);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 0, Fmt_FP16, Fmt_FP32, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: src_elem_num = 0", SPM_D, 32);
}

/* ---- int64 ---- */

static const Data_Format kNot64[6] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_TF32, Fmt_INT8, Fmt_INT32};

/* A random int64: any bit length and sign, now and then a boundary. */
static int64_t rand_i64(tx8_rng *r) {
    static const int64_t kEdges[] = {0, 1, -1, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
                                     (1ll << 53) + 1, -(1ll << 53) - 1, (1ll << 53) + (1ll << 29) + 1, 1ll << 53,
                                     INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1, 127, -128,
                                     128, -129, 65504, 65519, 65520, -65520, (1ll << 24) + 1, (1ll << 62) + 1};
    const int kind = tx8_rng_int(r, 0, 9);
    if (kind == 0) return kEdges[tx8_rng_int(r, 0, (int)(sizeof kEdges / sizeof kEdges[0]) - 1)];
    const uint64_t raw = tx8_rng_next(r);
    if (kind == 1) return (int64_t)raw;
    const int bits = tx8_rng_int(r, 1, 63);
    const int64_t v = (int64_t)(raw >> (64 - bits));
    return tx8_rng_int(r, 0, 1) ? -v : v;
}

static void int64_to_every_format(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 32);
    enum { MAXN = 5200 };
    int64_t *in = malloc(MAXN * 8);
    uint32_t *out = malloc(MAXN * 4);
    for (int c = 0; c < 6 * RND_COUNT; ++c) {
        const Data_Format df = kNot64[c % 6];
        const RND_MODE rnd = (RND_MODE)(c / 6);
        const uint32_t n = ct_rand_count(&r);
        for (uint32_t i = 0; i < n; ++i) in[i] = rand_i64(&r);
        ct_store_i64(SPM_A, in, n);
        CT_Param p;
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, n, Fmt_INT64, df, rnd);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, 64, 0));
        ct_load_bits(SPM_D, df, out, n);
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t want;
            if (df == Fmt_INT8 || df == Fmt_INT32) {
                const int64_t lo = df == Fmt_INT8 ? -128 : INT32_MIN, hi = df == Fmt_INT8 ? 127 : INT32_MAX;
                const int64_t w = in[i] > hi ? hi : in[i] < lo ? lo : in[i];
                want = df == Fmt_INT8 ? (uint32_t)w & 0xFFu : (uint32_t)w;
            } else { /* the reference value is representable: encoding it rounds nothing */
                want = cm_round_to_format(ct_ref_i64_to_float(in[i], df, rnd), df, RND_NEAREST_EVEN);
            }
            if (out[i] != want) {
                print_error("case %d int64 -> %s %s: element %u: in %lld got 0x%x want 0x%x\n", c,
                            tx8_format_name(df), tx8_rnd_name(rnd), i, (long long)in[i], out[i], want);
                fail();
            }
        }
        ++g_random_cases;
    }
    free(in), free(out);
}

static void every_format_to_int64(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 33);
    enum { MAXN = 5200 };
    static const double kEdges[] = {NAN, INFINITY, -INFINITY, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e19, -1e19,
                                    9223372036854775808.0, -9223372036854775808.0, 9223371487098961920.0,
                                    -9223371487098961920.0, 4294967296.5, 65504, -65504, 127.5, -128.5};
    uint32_t *in = malloc(MAXN * 4);
    int64_t *out = malloc(MAXN * 8);
    for (int c = 0; c < 6 * RND_COUNT; ++c) {
        const Data_Format sf = kNot64[c % 6];
        const RND_MODE rnd = (RND_MODE)(c / 6);
        const uint32_t n = ct_rand_count(&r);
        for (uint32_t i = 0; i < n; ++i)
            in[i] = i % 7 == 3 && tx8_format_is_float(sf)
                        ? cm_round_to_format(kEdges[(i / 7) % (sizeof kEdges / sizeof kEdges[0])], sf, RND_ZERO)
                        : rand_bits(&r, sf);
        ct_store_bits(SPM_A, sf, in, n);
        CT_Param p;
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, n, sf, Fmt_INT64, rnd);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, 64, 0));
        ct_load_i64(SPM_D, out, n);
        for (uint32_t i = 0; i < n; ++i) {
            const int64_t want = ct_ref_to_int(cm_format_to_double(in[i], sf), rnd, INT64_MIN, INT64_MAX);
            if (out[i] != want) {
                print_error("case %d %s -> int64 %s: element %u: in 0x%x (%.17g) got %lld want %lld\n", c,
                            tx8_format_name(sf), tx8_rnd_name(rnd), i, in[i], cm_format_to_double(in[i], sf),
                            (long long)out[i], (long long)want);
                fail();
            }
        }
        ++g_random_cases;
    }
    free(in), free(out);
}

/* Named values, each against a hand-derived result. */
static void int64_named_values(void **state) {
    (void)state;
    const struct { int64_t v; Data_Format df; RND_MODE rnd; double want; } to[] = {
        /* 2^53 + 1: fp32's ulp there is 2^30 */
        {(1ll << 53) + 1, Fmt_FP32, RND_NEAREST_EVEN, 9007199254740992.0},
        {(1ll << 53) + 1, Fmt_FP32, RND_POS_INF, 9007200328482816.0},
        {(1ll << 53) + 1, Fmt_FP32, RND_NEG_INF, 9007199254740992.0},
        {-(1ll << 53) - 1, Fmt_FP32, RND_NEG_INF, -9007200328482816.0},
        /* 2^53 + 2^29 + 1 is just above the midpoint 2^53 + 2^29: up. Through a double it would first become the
         * midpoint (ties to even), then 2^53. */
        {(1ll << 53) + (1ll << 29) + 1, Fmt_FP32, RND_NEAREST_EVEN, 9007200328482816.0},
        {(1ll << 53) + (1ll << 29), Fmt_FP32, RND_NEAREST_EVEN, 9007199254740992.0},
        {(1ll << 53) + (1ll << 29), Fmt_FP32, RND_NEAREST_AWAY, 9007200328482816.0},
        {INT64_MAX, Fmt_FP32, RND_NEAREST_EVEN, 9223372036854775808.0},
        {INT64_MAX, Fmt_FP32, RND_ZERO, 9223371487098961920.0}, /* 2^63 - 2^39 */
        {INT64_MIN, Fmt_FP32, RND_POS_INF, -9223372036854775808.0},
        {INT64_MAX, Fmt_BF16, RND_NEAREST_EVEN, 9223372036854775808.0},
        {INT64_MAX, Fmt_FP16, RND_NEAREST_EVEN, INFINITY},
        {INT64_MAX, Fmt_FP16, RND_ZERO, 65504.0},
        {INT64_MIN, Fmt_FP16, RND_POS_INF, -65504.0},
        {65520, Fmt_FP16, RND_NEAREST_EVEN, INFINITY}, /* the midpoint above 65504 */
        {65519, Fmt_FP16, RND_NEAREST_EVEN, 65504.0},
        {INT64_MAX, Fmt_INT32, RND_NEAREST_EVEN, INT32_MAX},
        {INT64_MIN, Fmt_INT32, RND_NEAREST_EVEN, INT32_MIN},
        {(int64_t)INT32_MAX + 1, Fmt_INT32, RND_ZERO, INT32_MAX},
        {INT64_MIN, Fmt_INT8, RND_ZERO, -128},
        {(1ll << 53) + 1, Fmt_INT8, RND_ZERO, 127},
        {-5, Fmt_INT8, RND_ZERO, -5},
    };
    for (size_t k = 0; k < sizeof to / sizeof to[0]; ++k) {
        CT_Param p;
        ct_store_i64(SPM_A, &to[k].v, 1);
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 1, Fmt_INT64, to[k].df, to[k].rnd);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(1, 64, 0));
        double got;
        tx8_test_spm_load(SPM_D, to[k].df, &got, 1);
        if (!(got == to[k].want)) {
            print_error("%lld -> %s %s: got %.17g want %.17g\n", (long long)to[k].v, tx8_format_name(to[k].df),
                        tx8_rnd_name(to[k].rnd), got, to[k].want);
            fail();
        }
    }
    const struct { double x; Data_Format sf; RND_MODE rnd; int64_t want; } from[] = {
        {9223372036854775808.0, Fmt_FP32, RND_NEAREST_EVEN, INT64_MAX},  /* 2^63 saturates */
        {-9223372036854775808.0, Fmt_FP32, RND_NEAREST_EVEN, INT64_MIN}, /* -2^63 is INT64_MIN exactly */
        {9223371487098961920.0, Fmt_FP32, RND_ZERO, 9223371487098961920ll},
        {INFINITY, Fmt_FP16, RND_ZERO, INT64_MAX}, {-INFINITY, Fmt_BF16, RND_ZERO, INT64_MIN},
        {NAN, Fmt_FP32, RND_POS_INF, 0}, {-0.0, Fmt_FP32, RND_NEG_INF, 0},
        {2.5, Fmt_FP32, RND_NEAREST_EVEN, 2}, {-2.5, Fmt_FP32, RND_NEAREST_AWAY, -3}, {-2.5, Fmt_FP32, RND_ZERO, -2},
        {2.25, Fmt_BF16, RND_POS_INF, 3}, {-2.25, Fmt_FP16, RND_NEG_INF, -3},
        {16777217.0, Fmt_INT32, RND_ZERO, 16777217}, {-128, Fmt_INT8, RND_ZERO, -128},
        {INT32_MIN, Fmt_INT32, RND_ZERO, INT32_MIN},
    };
    for (size_t k = 0; k < sizeof from / sizeof from[0]; ++k) {
        CT_Param p;
        tx8_test_spm_store(SPM_A, from[k].sf, &from[k].x, 1);
        CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 1, from[k].sf, Fmt_INT64, from[k].rnd);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(1, 64, 0));
        int64_t got;
        ct_load_i64(SPM_D, &got, 1);
        if (got != from[k].want) {
            print_error("%.17g (%s) -> int64 %s: got %lld want %lld\n", from[k].x, tx8_format_name(from[k].sf),
                        tx8_rnd_name(from[k].rnd), (long long)got, (long long)from[k].want);
            fail();
        }
    }
    /* int64 -> int64 in place: a bit copy */
    const int64_t v[4] = {INT64_MIN, -1, (1ll << 53) + 1, INT64_MAX};
    int64_t got[4];
    ct_store_i64(SPM_A, v, 4);
    CT_Param p;
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_A, 4, Fmt_INT64, Fmt_INT64, RND_NEAREST_EVEN);
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(4, 64, 0));
    ct_load_i64(SPM_A, got, 4);
    assert_memory_equal(got, v, sizeof v);
    g_random_cases += 2;
}

/* int64 is a storage format: SELECT copies it, CONVERT converts it, nothing else takes it. */
static void int64_is_storage_only(void **state) {
    (void)state;
    const int64_t a[3] = {INT64_MIN, 7, (1ll << 53) + 1}, b[3] = {-1, INT64_MAX, 42};
    const uint32_t mask[3] = {1, 0, 0xFF};
    ct_store_i64(SPM_B, a, 3);
    ct_store_i64(SPM_C, b, 3);
    ct_store_bits(SPM_A, Fmt_INT8, mask, 3);
    CT_Param p;
    CGRATensor_LogicOp_V_V_select_mask(&p, SPM_A, SPM_B, SPM_C, SPM_D, 3, Fmt_INT8, Fmt_INT64);
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(3, 64, 0));
    int64_t got[3];
    ct_load_i64(SPM_D, got, 3);
    assert_true(got[0] == a[0] && got[1] == b[1] && got[2] == a[2]);

    const char *const why = "int64 is not supported: int64 is a storage format";
    CGRATensor_ArithOp_V_V_add(&p, SPM_A, SPM_B, SPM_D, 8, RND_NEAREST_EVEN, Fmt_INT64);
    ct_expect_reject(&p, "CT add V_V: src_fmt = int64 is not supported: int64 is a storage format", SPM_D, 64);
    CGRATensor_ArithOp_V_S_mod(&p, SPM_A, 3, SPM_D, 8, RND_NEAREST_EVEN, Fmt_INT64);
    ct_expect_reject(&p, "CT mod V_S: src_fmt = int64", SPM_D, 64);
    CGRATensor_ArithOp_V_V_abs(&p, SPM_A, SPM_D, 8, RND_NEAREST_EVEN, Fmt_INT64);
    ct_expect_reject(&p, why, SPM_D, 64);
    CGRATensor_ActOp_V_V_relu(&p, SPM_A, SPM_D, 8, RND_NEAREST_EVEN, Fmt_INT64);
    ct_expect_reject(&p, why, SPM_D, 64);
    CGRATensor_ReduceOp_T_inner_sum(&p, SPM_A, SPM_D, 2, 4, RND_NEAREST_EVEN, Fmt_INT64);
    ct_expect_reject(&p, "CT reduce_sum REDUCE_INNER: src_fmt = int64 is not supported", SPM_D, 16);
    CGRATensor_RelationOp_V_S_cmp_to(&p, CT_OP_CMP_NE, SPM_A, 0, SPM_D, 8, Fmt_INT64, Fmt_INT8);
    ct_expect_reject(&p, "CT cmp_ne V_S: src_fmt = int64 is not supported", SPM_D, 8);
    CGRATensor_LogicOp_V_V_select_mask(&p, SPM_A, SPM_B, SPM_C, SPM_D, 3, Fmt_INT64, Fmt_FP32);
    ct_expect_reject(&p, "CT select V_V: src_fmt = int64 is not supported", SPM_D, 12);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_A, 8, Fmt_INT64, Fmt_FP32, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: dst_addr range [0x0, 0x20) overlaps src0_addr range [0x0, 0x40)", SPM_A, 32);
    TsmNeInstr ne;
    TsmNe_gemm(&ne, SPM_A, SPM_B, 0, SPM_D, 2, 2, 2, 2, 2, 2, Fmt_INT64, Fmt_INT32, 0, 0, 0);
    ct_fill_pattern(SPM_D, 32);
    tx8_test_fault_reset();
    assert_true(TsmExecute(&ne) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("NE gemm: in_fmt = int64 is not supported: int64 is a storage format");
    ct_assert_pattern(SPM_D, 32);
    /* uint8 is a CT integer format; the NE does not take it */
    TsmNe_gemm(&ne, SPM_A, SPM_B, 0, SPM_D, 2, 2, 2, 2, 2, 2, Fmt_UINT8, Fmt_INT32, 0, 0, 0);
    tx8_test_fault_reset();
    assert_true(TsmExecute(&ne) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("NE gemm: in_fmt = 7 is not one of fp32, tf32, bf16, fp16, int8");
    ct_assert_pattern(SPM_D, 32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_convert_all_pairs, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(independent_references, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(every_fp16_to_fp32, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(in_place_and_rejects, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(int64_to_every_format, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(every_format_to_int64, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(int64_named_values, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(int64_is_storage_only, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_ct_convert: %d random cases ran\n", g_random_cases);
    return failed;
}

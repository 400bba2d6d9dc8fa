/*
 * CT convert (CGRATensor_ConvertOp_V_V_convert): random bit patterns of every source format to every destination
 * format and rounding mode, bit-exact against cm_round_to_format; independent references for fp32->fp16 RNE
 * (_Float16), fp32->bf16 RNE (integer rounding), int8 saturation (libm rounding); all 65536 fp16 -> fp32; rejects.
 */
#include "ct_test_common.h"

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
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 8, Fmt_FP16, (Data_Format)6, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: dst_fmt = 6 is not a Data_Format", SPM_D, 32);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 8, Fmt_FP16, Fmt_FP32, (RND_MODE)5);
    ct_expect_reject(&p, "CT convert V: rnd = 5 is not a RND_MODE", SPM_D, 32);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, 0x2ffff0, 8, Fmt_FP16, Fmt_FP32, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: dst_addr = 0x2ffff0 + 32 bytes is outside SPM", 0x2ffff0, 16);
    CGRATensor_ConvertOp_V_V_convert(&p, SPM_A, SPM_D, 0, Fmt_FP16, Fmt_FP32, RND_NEAREST_EVEN);
    ct_expect_reject(&p, "CT convert V: src_elem_num = 0", SPM_D, 32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_convert_all_pairs, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(independent_references, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(every_fp16_to_fp32, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(in_place_and_rejects, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_ct_convert: %d random cases ran\n", g_random_cases);
    return failed;
}

/* Element formats and rounding modes (tx8/cm_numerics.h) against the host's IEEE hardware and libm. */
#include <math.h>
#include <string.h>

#include "tx8_test.h"

static void fp16_every_pattern_round_trips(void **state) {
    (void)state;
    for (uint32_t b = 0; b < 65536; ++b) {
        double v = cm_format_to_double(b, Fmt_FP16);
        if (isnan(v)) {
            assert_int_equal(cm_round_to_format(v, Fmt_FP16, RND_NEAREST_EVEN), 0x7E00);
            continue;
        }
#ifdef HAVE_FLOAT16
        _Float16 h;
        memcpy(&h, &b, 2);
        assert_true(v == (double)h); /* decode agrees with the compiler's _Float16 */
#endif
        for (int r = 0; r < RND_COUNT; ++r) assert_int_equal(cm_round_to_format(v, Fmt_FP16, (RND_MODE)r), b);
    }
}

static void fp16_and_fp32_nearest_even_match_hardware(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed());
    for (int i = 0; i < 200000; ++i) {
        /* random doubles over a wide exponent range, including fp16 subnormals and overflow */
        double x = tx8_rng_uniform(&rng, -1.0, 1.0) * ldexp(1.0, tx8_rng_int(&rng, -30, 20));
#ifdef HAVE_FLOAT16
        _Float16 h = (_Float16)x;
        uint16_t hb;
        memcpy(&hb, &h, 2);
        assert_int_equal(cm_round_to_format(x, Fmt_FP16, RND_NEAREST_EVEN), hb);
#else
        (void)x;
#endif
        double y = tx8_rng_uniform(&rng, -1.0, 1.0) * ldexp(1.0, tx8_rng_int(&rng, -160, 130));
        float f = (float)y;
        uint32_t fb;
        memcpy(&fb, &f, 4);
        assert_int_equal(cm_round_to_format(y, Fmt_FP32, RND_NEAREST_EVEN), fb);
    }
    /* exact ties go to even */
    assert_int_equal(cm_round_to_format(1.0 + ldexp(1.0, -11), Fmt_FP16, RND_NEAREST_EVEN), 0x3C00);
    assert_int_equal(cm_round_to_format(1.0 + 3 * ldexp(1.0, -11), Fmt_FP16, RND_NEAREST_EVEN), 0x3C02);
    assert_int_equal(cm_round_to_format(1.0 + ldexp(1.0, -11), Fmt_FP16, RND_NEAREST_AWAY), 0x3C01);
}

static void bf16_matches_bit_trick(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() + 1);
    for (int i = 0; i < 200000; ++i) {
        uint32_t fb = (uint32_t)tx8_rng_next(&rng);
        float f;
        memcpy(&f, &fb, 4);
        if (isnan(f)) continue;
        uint32_t want = (fb + 0x7FFFu + ((fb >> 16) & 1u)) >> 16; /* classic RNE fp32 -> bf16 */
        assert_int_equal(cm_round_to_format(f, Fmt_BF16, RND_NEAREST_EVEN), want);
        assert_int_equal(cm_round_to_format(f, Fmt_BF16, RND_ZERO), fb >> 16);
    }
}

static void directed_modes_bracket_the_value(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() + 2);
    const Data_Format fmts[] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_TF32};
    for (int i = 0; i < 50000; ++i) {
        Data_Format f = fmts[i % 4];
        double x = (tx8_rng_next(&rng) & 1 ? -1 : 1) * tx8_rng_uniform(&rng, 0.5, 1.0) * ldexp(1.0, tx8_rng_int(&rng, -12, 14));
        double up = cm_format_to_double(cm_round_to_format(x, f, RND_POS_INF), f);
        double dn = cm_format_to_double(cm_round_to_format(x, f, RND_NEG_INF), f);
        double tz = cm_format_to_double(cm_round_to_format(x, f, RND_ZERO), f);
        double ne = cm_format_to_double(cm_round_to_format(x, f, RND_NEAREST_EVEN), f);
        assert_true(dn <= x && x <= up);
        assert_true(fabs(tz) <= fabs(x));
        assert_true(ne == up || ne == dn);
        assert_true(fabs(ne - x) <= fabs((x >= 0 ? up : dn) - x) + fabs(tz - x)); /* nearest is nearest */
        assert_true(up - dn <= fabs(x) * 4 * tx8_test_eps(f)); /* one ulp apart at most (normal range) */
        if (cm_format_to_double(cm_round_to_format(x, f, RND_NEAREST_EVEN), f) == x) assert_true(up == dn);
    }
}

static void overflow_and_specials(void **state) {
    (void)state;
    assert_int_equal(cm_round_to_format(70000.0, Fmt_FP16, RND_NEAREST_EVEN), 0x7C00);
    assert_int_equal(cm_round_to_format(70000.0, Fmt_FP16, RND_ZERO), 0x7BFF);
    assert_int_equal(cm_round_to_format(-70000.0, Fmt_FP16, RND_POS_INF), 0xFBFF);
    assert_int_equal(cm_round_to_format(-70000.0, Fmt_FP16, RND_NEG_INF), 0xFC00);
    assert_int_equal(cm_round_to_format(65519.0, Fmt_FP16, RND_NEAREST_EVEN), 0x7BFF); /* below the midpoint */
    assert_int_equal(cm_round_to_format(65520.0, Fmt_FP16, RND_NEAREST_EVEN), 0x7C00); /* the midpoint is even: inf */
    assert_int_equal(cm_round_to_format(NAN, Fmt_FP32, RND_ZERO), 0x7FC00000);
    assert_int_equal(cm_round_to_format(-NAN, Fmt_BF16, RND_NEAREST_EVEN), 0x7FC0);
    assert_int_equal(cm_round_to_format(-0.0, Fmt_FP16, RND_NEAREST_EVEN), 0x8000);
    assert_int_equal(cm_round_to_format(ldexp(1.0, -25), Fmt_FP16, RND_NEAREST_EVEN), 0x0000); /* tie to even 0 */
    assert_int_equal(cm_round_to_format(ldexp(1.0, -25), Fmt_FP16, RND_POS_INF), 0x0001);
    assert_int_equal(cm_round_to_format(1e-300, Fmt_FP32, RND_POS_INF), 0x00000001);
    assert_int_equal(cm_round_to_format(INFINITY, Fmt_FP16, RND_ZERO), 0x7C00); /* inf stays inf */
    /* tf32 keeps 10 mantissa bits in an fp32 container */
    assert_int_equal(cm_round_to_format(1.0 + ldexp(1.0, -10), Fmt_TF32, RND_NEAREST_EVEN), 0x3F802000);
    assert_int_equal(cm_round_to_format(1.0 + ldexp(1.0, -12), Fmt_TF32, RND_NEAREST_EVEN), 0x3F800000);
    assert_true(cm_fp32_to_tf32(1.0f + 0x1p-12f) == 1.0f);
}

static void int8_rounds_and_saturates(void **state) {
    (void)state;
    struct { double x; RND_MODE r; int want; } c[] = {
        {2.5, RND_NEAREST_EVEN, 2}, {3.5, RND_NEAREST_EVEN, 4}, {-2.5, RND_NEAREST_EVEN, -2},
        {2.5, RND_NEAREST_AWAY, 3}, {-2.5, RND_NEAREST_AWAY, -3}, {2.7, RND_ZERO, 2}, {-2.7, RND_ZERO, -2},
        {2.1, RND_POS_INF, 3}, {-2.1, RND_POS_INF, -2}, {2.9, RND_NEG_INF, 2}, {-2.1, RND_NEG_INF, -3},
        {300.0, RND_NEAREST_EVEN, 127}, {-300.0, RND_ZERO, -128}, {127.4, RND_NEAREST_EVEN, 127},
        {-128.6, RND_POS_INF, -128}, {NAN, RND_NEAREST_EVEN, 0}, {0.4, RND_NEAREST_EVEN, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i)
        assert_int_equal((int8_t)cm_round_to_format(c[i].x, Fmt_INT8, c[i].r), c[i].want);
    assert_int_equal((int32_t)cm_round_to_format(3e9, Fmt_INT32, RND_NEAREST_EVEN), INT32_MAX);
    assert_true(cm_format_to_double(0x80, Fmt_INT8) == -128.0);
}

static void element_load_store_little_endian(void **state) {
    (void)state;
    uint8_t buf[4];
    cm_store_element(buf, Fmt_FP16, 1.0, RND_NEAREST_EVEN);
    assert_int_equal(buf[0], 0x00);
    assert_int_equal(buf[1], 0x3C);
    assert_true(cm_load_element(buf, Fmt_FP16) == 1.0);
    cm_store_element(buf, Fmt_FP32, -2.0, RND_NEAREST_EVEN);
    assert_int_equal(buf[3], 0xC0);
    assert_true(cm_load_element(buf, Fmt_FP32) == -2.0);
    cm_store_element(buf, Fmt_INT8, -3.0, RND_NEAREST_EVEN);
    assert_int_equal(buf[0], 0xFD);
}

static void transcendentals_match_libm(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() + 3);
    for (int i = 0; i < 100000; ++i) {
        double x = tx8_rng_uniform(&rng, -80.0, 80.0) * (i % 3 == 0 ? 1e-6 : 1.0);
        assert_true(fabs(cm_exp(x) - exp(x)) <= 4e-16 * exp(x));
        assert_true(fabs(cm_tanh(x) - tanh(x)) <= 1e-15 * fabs(tanh(x)) + 1e-300);
        assert_true(fabs(cm_expm1(x) - expm1(x)) <= 1e-15 * fabs(expm1(x)) + 1e-300);
    }
    assert_true(isinf(cm_exp(1000.0)));
    assert_true(cm_exp(-1000.0) == 0.0);
    assert_true(isnan(cm_exp(NAN)));
    assert_true(cm_tanh(50.0) == 1.0 && cm_tanh(-50.0) == -1.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fp16_every_pattern_round_trips),
        cmocka_unit_test(fp16_and_fp32_nearest_even_match_hardware),
        cmocka_unit_test(bf16_matches_bit_trick),
        cmocka_unit_test(directed_modes_bracket_the_value),
        cmocka_unit_test(overflow_and_specials),
        cmocka_unit_test(int8_rounds_and_saturates),
        cmocka_unit_test(element_load_store_little_endian),
        cmocka_unit_test(transcendentals_match_libm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * op_sigmoid / op_tanh on the CT: seeded random shapes (dim 2..4) in every layout, float format and rounding mode
 * against a double libm reference (one rounding of a few-ulp-of-double result: within one ulp of the format);
 * special values bit for bit; cycles = one transcendental instruction over the layout image; argument faults with
 * their messages, output untouched.
 */
#include "op_test_common.h"

static int g_random_cases;

typedef uint64_t (*act_op)(ELTWISE_PARAM *, TSR *, TSR *);

static double ref_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 71);
    enum { MAXN = 3000 };
    double *x = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    double *want = malloc(MAXN * sizeof(double));
    char what[160];
    for (int c = 0; c < 48; ++c) {
        const int op = c % 2; /* sigmoid, tanh */
        const LAYOUT_MODE mode = (LAYOUT_MODE)((c / 2) % LAYOUT_COUNT);
        const Data_Format fmt = kFloatFmts[(c / 8) % 3];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const int32_t dim = tx8_rng_int(&r, 2, 4);
        int32_t shape[4];
        size_t n;
        do {
            n = 1;
            for (int32_t d = 0; d < dim; ++d) {
                shape[d] = d == dim - 1 ? tx8_rng_int(&r, 1, 200) : tx8_rng_int(&r, 1, 6);
                n *= (size_t)shape[d];
            }
            if (mode == LAYOUT_TENSOR || mode == LAYOUT_CX) n /= (size_t)shape[0], shape[0] = 1;
        } while (n > MAXN);
        const tx8_layout l = make_layout(mode, fmt, shape, dim);
        tensor_buf ti, to;
        make_tensor(&ti, fmt, SPM_A, shape, dim);
        make_tensor(&to, fmt, c % 4 == 1 ? SPM_A : SPM_D, shape, dim); /* every 4th case in place */
        const double range = c % 3 == 0 ? 40.0 : 8.0; /* saturated tails and the curved middle */
        ct_rand_vals(&r, fmt, x, n, -range, range);
        put_tensor(&l, SPM_A, x, n);
        ELTWISE_PARAM prm = {mode, rnd};
        const uint64_t before = tx8_hal_cycles();
        const uint64_t cyc = (op == 0 ? op_sigmoid : op_tanh)(&prm, &ti.tsr, &to.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        assert_int_equal(cyc, ct_expected_cycles(l.total_bytes / l.elem_bytes, l.elem_bytes * 8, 1));
        assert_int_equal(tx8_hal_cycles() - before, cyc);
        get_tensor(&l, to.tsr.addr, got, n);
        for (size_t i = 0; i < n; ++i) want[i] = op == 0 ? ref_sigmoid(x[i]) : tanh(x[i]);
        snprintf(what, sizeof what, "case %d: %s %s %s %s dim %d n=%zu", c, op ? "tanh" : "sigmoid",
                 tx8_layout_name(mode), tx8_format_name(fmt), tx8_rnd_name(rnd), dim, n);
        /* one rounding in any mode: within one ulp (2 eps relative), or one subnormal step near zero */
        tx8_test_assert_close(got, want, n, 2 * tx8_test_eps(fmt), fmt_min_subnormal(fmt), what);
        ++g_random_cases;
    }
    free(x), free(got), free(want);
}

/* Special values in every format, nearest even: exact expected bits (sign of zero included). */
static void special_values(void **state) {
    (void)state;
    const double in[8] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 100.0, -100.0, 1e-3};
    for (int f = 0; f < 3; ++f) {
        const Data_Format fmt = kFloatFmts[f];
        const int32_t shape[2] = {1, 8};
        tensor_buf ti, to;
        make_tensor(&ti, fmt, SPM_A, shape, 2);
        make_tensor(&to, fmt, SPM_D, shape, 2);
        double x[8], got[8];
        memcpy(x, in, sizeof x);
        tx8_test_quantize(fmt, x, 8);
        tx8_test_spm_store(SPM_A, fmt, x, 8);
        ELTWISE_PARAM prm = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
        for (int op = 0; op < 2; ++op) {
            assert_int_equal((op == 0 ? op_sigmoid : op_tanh)(&prm, &ti.tsr, &to.tsr), ct_expected_cycles(8, 8 * tx8_format_bytes(fmt), 1));
            tx8_test_spm_load(SPM_D, fmt, got, 8);
            for (int i = 0; i < 8; ++i) {
                double want;
                if (i == 4) { assert_true(isnan(got[i])); continue; }
                if (op == 0) want = i < 2 ? 0.5 : i == 2 ? 1.0 : i == 3 ? 0.0 : ref_sigmoid(x[i]);
                else want = i < 2 ? x[i] : i == 2 ? 1.0 : i == 3 ? -1.0 : tanh(x[i]);
                want = cm_format_to_double(cm_round_to_format(want, fmt, RND_NEAREST_EVEN), fmt);
                if (got[i] != want || signbit(got[i]) != signbit(want)) {
                    print_error("%s %s: x = %g: got %.9g want %.9g\n", op ? "tanh" : "sigmoid", tx8_format_name(fmt),
                                x[i], got[i], want);
                    fail();
                }
            }
        }
    }
    assert_int_equal(tx8_test_faults()->count, 0);
}

static void faults(void **state) {
    (void)state;
    const int32_t s4[4] = {1, 2, 3, 8}, s4b[4] = {1, 2, 4, 8}, s5[5] = {1, 1, 2, 3, 8};
    tensor_buf ti, to, tbf, t5, tbad, t8;
    make_tensor(&ti, Fmt_FP32, SPM_A, s4, 4);
    make_tensor(&to, Fmt_FP32, SPM_D, s4, 4);
    make_tensor(&tbf, Fmt_BF16, SPM_D, s4, 4);
    make_tensor(&t5, Fmt_FP32, SPM_D, s5, 5);
    make_tensor(&tbad, Fmt_FP32, SPM_D, s4b, 4);
    make_tensor(&t8, Fmt_INT8, SPM_A, s4, 4);
    ELTWISE_PARAM prm = {LAYOUT_NTENSOR, RND_NEAREST_EVEN}, badl = {(LAYOUT_MODE)7, RND_NEAREST_EVEN};
    ELTWISE_PARAM badr = {LAYOUT_NTENSOR, (RND_MODE)9};
    struct { act_op run; ELTWISE_PARAM *p; TSR *in, *out; const char *msg; } cases[] = {
        {op_sigmoid, &prm, &ti.tsr, &tbad.tsr, "op_sigmoid: out->shape->shape_real[2] = 4, in->shape->shape_real[2] = 3; shapes must match"},
        {op_tanh, &prm, &ti.tsr, &tbf.tsr, "op_tanh: out->format = bf16, in->format = fp32; they must match"},
        {op_sigmoid, &prm, &t8.tsr, &to.tsr, "op_sigmoid: in->format = int8, must be fp32, fp16 or bf16"},
        {op_tanh, &prm, &ti.tsr, &t5.tsr, "op_tanh: out->shape->dim = 5, must be 2..4"},
        {op_tanh, &prm, NULL, &to.tsr, "op_tanh: in is NULL"},
        {op_sigmoid, NULL, &ti.tsr, &to.tsr, "op_sigmoid: param is NULL"},
        {op_sigmoid, &badl, &ti.tsr, &to.tsr, "op_sigmoid: param->layout = 7 is not a LAYOUT_MODE"},
        {op_tanh, &badr, &ti.tsr, &to.tsr, "op_tanh: param->rnd = 9 is not a RND_MODE"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ct_fill_pattern(SPM_D, 256);
        const uint64_t before = tx8_hal_cycles();
        assert_true(cases[k].run(cases[k].p, cases[k].in, cases[k].out) == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        ct_assert_pattern(SPM_D, 256);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(special_values, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_activation: %d random cases ran\n", g_random_cases);
    return failed;
}

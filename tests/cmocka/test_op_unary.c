/*
 * op_unary on the CT: every UNARY_KIND in fp32 / fp16 / bf16, every layout, random shapes (dim 2..4, as the other
 * op tests) and rounding modes, inputs with zeros, infinities, NaN and domain edges mixed in; each result bit for bit
 * against the CT's definition written out with the cm_* routines (unary_ref.h, rounded once with cm_round_to_format)
 * and within an ulp of the format of a libm reference. Cycles: one instruction over the layout image, the CT's
 * bound for it; the worst ratio to the bound of the tensor's own elements (the layout's padding) is printed, with a
 * few fixed shapes. Bad kind, format, shape, layout: a fault naming op_unary and the argument, output untouched.
 */
#include "op_test_common.h"
#include "unary_ref.h"

static int g_random_cases;
static double g_worst_ratio = 1.0;

/* fmt's largest finite value: beyond it the rounding mode alone decides (inf or the largest value) */
static double fmt_max_finite(Data_Format f) {
    return cm_format_to_double(f == Fmt_FP16 ? 0x7BFFu : f == Fmt_BF16 ? 0x7F7Fu : 0x7F7FFFFFu, f);
}

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 90);
    enum { MAXN = 3000 };
    double *x = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    double *want = malloc(MAXN * sizeof(double));
    char what[192];
    for (int c = 0; c < 3 * UREF_KINDS; ++c) {
        const int k = c % UREF_KINDS;
        const struct unary_ref_info *info = &kUnaryRef[k];
        const LAYOUT_MODE mode = (LAYOUT_MODE)((c + c / UREF_KINDS) % LAYOUT_COUNT);
        const Data_Format fmt = kFloatFmts[(c / UREF_KINDS) % 3];
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
        ct_rand_vals(&r, fmt, x, n, info->lo, info->hi);
        for (size_t i = 0; i < n; i += 29) x[i] = kUnarySpecials[(i / 29) % 12];
        put_tensor(&l, SPM_A, x, n);
        const float a = (float)tx8_rng_uniform(&r, 0.1, 2.0), b = (float)tx8_rng_uniform(&r, 0.0, 2.0);
        UNARY_PARAM prm = {mode, rnd, (uint32_t)k, a, b};
        const uint64_t before = tx8_hal_cycles();
        const uint64_t cyc = op_unary(&prm, &ti.tsr, &to.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        /* one instruction over the layout image (padding included): the CT's bound for it */
        assert_int_equal(cyc, ct_expected_cycles(l.total_bytes / l.elem_bytes, l.elem_bytes * 8, info->multi_pass));
        assert_int_equal(tx8_hal_cycles() - before, cyc);
        const double ratio = (double)cyc / (double)ct_expected_cycles(n, l.elem_bytes * 8, info->multi_pass);
        if (ratio > g_worst_ratio) g_worst_ratio = ratio;
        get_tensor(&l, to.tsr.addr, got, n);
        snprintf(what, sizeof what, "case %d: %s %s %s %s dim %d n=%zu a=%g b=%g", c, info->name,
                 tx8_layout_name(mode), tx8_format_name(fmt), tx8_rnd_name(rnd), dim, n, (double)a, (double)b);
        for (size_t i = 0; i < n; ++i) { /* the contract, bit for bit (got is exact in fmt: these are its bits) */
            const double ref = unary_ref_cm(k, x[i], a, b);
            if (cm_round_to_format(got[i], fmt, RND_NEAREST_EVEN) != cm_round_to_format(ref, fmt, rnd)) {
                print_error("%s: element %zu: x = %.9g: got %.9g, want %.17g rounded\n", what, i, x[i], got[i], ref);
                fail();
            }
        }
        const double big = fmt_max_finite(fmt);
        for (size_t i = 0; i < n; ++i) {
            want[i] = unary_ref_libm(k, x[i], a, b);
            if (fabs(want[i]) > big && !isinf(want[i])) want[i] = got[i]; /* overflow: the bits above decide */
        }
        /* one rounding in any mode of a value within an ulp of double: within one ulp of fmt */
        tx8_test_assert_close(got, want, n, 2 * tx8_test_eps(fmt) * 1.0001, tx8_test_subnormal_step(fmt), what);
        ++g_random_cases;
    }
    free(x), free(got), free(want);
}

/* Some fixed shapes: cycles against the CT bound of the tensor's elements, printed. */
static void fixed_cycles(void **state) {
    (void)state;
    const struct { UNARY_KIND kind; LAYOUT_MODE mode; Data_Format fmt; int32_t shape[4]; } c[] = {
        {UNARY_GELU_ERF, LAYOUT_TENSOR, Fmt_FP32, {1, 28, 28, 64}},
        {UNARY_GELU_TANH, LAYOUT_NTENSOR, Fmt_BF16, {2, 12, 16, 64}},
        {UNARY_LOG, LAYOUT_NTENSOR, Fmt_BF16, {2, 14, 14, 96}},
        {UNARY_FLOOR, LAYOUT_TENSOR, Fmt_FP16, {1, 16, 16, 130}},
        {UNARY_SIN, LAYOUT_CX, Fmt_FP16, {1, 16, 16, 130}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i) {
        const tx8_layout l = make_layout(c[i].mode, c[i].fmt, c[i].shape, 4);
        tensor_buf ti, to;
        make_tensor(&ti, c[i].fmt, SPM_A, c[i].shape, 4);
        make_tensor(&to, c[i].fmt, SPM_D, c[i].shape, 4);
        const uint64_t n = (uint64_t)c[i].shape[0] * c[i].shape[1] * c[i].shape[2] * c[i].shape[3];
        UNARY_PARAM prm = {c[i].mode, RND_NEAREST_EVEN, (uint32_t)c[i].kind, 1.0f, 1.0f};
        const int mp = kUnaryRef[c[i].kind].multi_pass;
        const uint64_t cyc = op_unary(&prm, &ti.tsr, &to.tsr);
        assert_int_equal(cyc, ct_expected_cycles(l.total_bytes / l.elem_bytes, l.elem_bytes * 8, mp));
        const uint64_t bound = ct_expected_cycles(n, l.elem_bytes * 8, mp);
        printf("[ tx8 ] op_unary %-8s %-4s %-7s %dx%dx%dx%d: %llu cycles vs CT bound %llu (%.2fx)\n",
               kUnaryRef[c[i].kind].name, tx8_format_name(c[i].fmt), tx8_layout_name(c[i].mode), c[i].shape[0],
               c[i].shape[1], c[i].shape[2], c[i].shape[3], (unsigned long long)cyc, (unsigned long long)bound,
               (double)cyc / (double)bound);
    }
    assert_int_equal(tx8_test_faults()->count, 0);
}

static void faults(void **state) {
    (void)state;
    const int32_t s4[4] = {1, 2, 3, 8}, s4b[4] = {1, 2, 4, 8}, s5[5] = {1, 1, 2, 3, 8}, sn2[4] = {2, 2, 3, 8};
    tensor_buf ti, to, tbf, t5, tbad, t8, t32, tn2, on2;
    make_tensor(&ti, Fmt_FP32, SPM_A, s4, 4);
    make_tensor(&to, Fmt_FP32, SPM_D, s4, 4);
    make_tensor(&tbf, Fmt_BF16, SPM_D, s4, 4);
    make_tensor(&t5, Fmt_FP32, SPM_D, s5, 5);
    make_tensor(&tbad, Fmt_FP32, SPM_D, s4b, 4);
    make_tensor(&t8, Fmt_INT8, SPM_A, s4, 4);
    make_tensor(&t32, Fmt_INT32, SPM_D, s4, 4);
    make_tensor(&tn2, Fmt_FP32, SPM_A, sn2, 4);
    make_tensor(&on2, Fmt_FP32, SPM_D, sn2, 4);
    UNARY_PARAM ok = {LAYOUT_NTENSOR, RND_NEAREST_EVEN, UNARY_SIN, 1.0f, 1.0f};
    UNARY_PARAM bad_kind = ok, huge_kind = ok, bad_layout = ok, bad_rnd = ok, cx = ok;
    bad_kind.kind = UNARY_KIND_COUNT, huge_kind.kind = 1000;
    bad_layout.layout = (LAYOUT_MODE)7, bad_rnd.rnd = (RND_MODE)9, cx.layout = LAYOUT_CX;
    struct { UNARY_PARAM *p; TSR *in, *out; const char *msg; } c[] = {
        {&bad_kind, &ti.tsr, &to.tsr, "op_unary: param->kind = 29 is not a UNARY_KIND (0..28)"},
        {&huge_kind, &ti.tsr, &to.tsr, "op_unary: param->kind = 1000 is not a UNARY_KIND"},
        {&ok, &t8.tsr, &to.tsr, "op_unary: in->format = int8, must be fp32, fp16 or bf16"},
        {&ok, &ti.tsr, &t32.tsr, "op_unary: out->format = int32, must be fp32, fp16 or bf16"},
        {&ok, &ti.tsr, &tbf.tsr, "op_unary: out->format = bf16, in->format = fp32; they must match"},
        {&ok, &ti.tsr, &tbad.tsr,
         "op_unary: out->shape->shape_real[2] = 4, in->shape->shape_real[2] = 3; shapes must match"},
        {&ok, &ti.tsr, &t5.tsr, "op_unary: out->shape->dim = 5, must be 2..4"},
        {&ok, NULL, &to.tsr, "op_unary: in is NULL"},
        {&ok, &ti.tsr, NULL, "op_unary: out is NULL"},
        {NULL, &ti.tsr, &to.tsr, "op_unary: param is NULL"},
        {&bad_layout, &ti.tsr, &to.tsr, "op_unary: param->layout = 7 is not a LAYOUT_MODE"},
        {&bad_rnd, &ti.tsr, &to.tsr, "op_unary: param->rnd = 9 is not a RND_MODE"},
        {&cx, &tn2.tsr, &on2.tsr, "op_unary: in->shape_real is not valid in layout"},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; ++k) {
        ct_fill_pattern(SPM_D, 256);
        const uint64_t before = tx8_hal_cycles();
        assert_true(op_unary(c[k].p, c[k].in, c[k].out) == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(c[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        ct_assert_pattern(SPM_D, 256);
    }
    /* an output beyond SPM is caught by the engine: the op fails, nothing is written */
    tensor_buf far;
    make_tensor(&far, Fmt_FP32, tx8_hal_config()->spm_bytes - 64, s4, 4);
    assert_true(op_unary(&ok, &ti.tsr, &far.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("CT sin V: dst_addr = 0x2fffc0 + 192 bytes is outside SPM");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_cycles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_unary: %d random cases ran; cycles at most %.2fx the CT bound of the tensors' own "
           "elements (one instruction over the layout image, padding included)\n", g_random_cases, g_worst_ratio);
    return failed;
}

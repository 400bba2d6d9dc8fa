/*
 * op_softmax on the CT against a double reference: fixed cases (stability with huge and infinite inputs, exact
 * rows, the documented cycle count of 1x1000 fp32), seeded random cases over dim (2..4) x dtype x layout (Tensor,
 * NTensor) x row count (one row: VuV path; several: TDMA broadcast path) x in place, with the error bound of the
 * contract in tx8/ops.h; guards around out and imm; bad input with its message and nothing written.
 */
#include "op_test_common.h"

#define GUARD 256u
#define SPM_IMM SPM_B

static int g_random_cases;

typedef struct sm_case {
    int32_t dim;
    int32_t shape[4];
    Data_Format fmt;
    LAYOUT_MODE layout;
    int in_place;
    double range; /* inputs uniform in [-range, range] */
} sm_case;

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* The op's cycles written out from the documented instruction sequence (tx8/ops.h) and formulas (cm_cycles.h). */
static uint64_t expected_cycles(uint32_t rows, uint32_t len, int narrow) {
    const tx8_hw_config *cfg = tx8_hal_config();
    const uint64_t n = (uint64_t)rows * len;
    const uint64_t row_op = rows == 1 ? ct_expected_cycles(n, 32, 0)
                                      : cfg->tdma_startup_cycles + /* the broadcast: one run per row */
                                        rows * ((4 * (uint64_t)len + cfg->tdma_bytes_per_cycle - 1) /
                                                cfg->tdma_bytes_per_cycle) + ct_expected_cycles(n, 32, 0);
    uint64_t c = ct_expected_cycles(n, 32, 0)   /* max */
               + row_op                          /* x - m */
               + ct_expected_cycles(n, 32, 1)   /* exp */
               + ct_expected_cycles(n, 32, 0)   /* sum */
               + ct_expected_cycles(rows, 32, 1) /* 1 / s */
               + row_op;                         /* e * q */
    if (narrow) c += 2 * ct_expected_cycles(n, 32, 0); /* converts in and out */
    return c;
}

/* Runs one case; checks values against the bound of the contract, cycles, guards and the input. */
static void run_case(const sm_case *c, tx8_rng *rng, const double *fixed_x, const double *exact_y) {
    size_t n = 1;
    for (int32_t d = 0; d < c->dim; ++d) n *= (size_t)c->shape[d];
    const uint32_t len = (uint32_t)c->shape[c->dim - 1], rows = (uint32_t)(n / len);
    const uint32_t eb = tx8_format_bytes(c->fmt);
    const uint64_t out_addr = c->in_place ? SPM_A : SPM_D;
    tensor_buf ti, to, tm;
    make_tensor(&ti, c->fmt, SPM_A, c->shape, c->dim);
    make_tensor(&to, c->fmt, out_addr, c->shape, c->dim);
    SOFTMAX_PARAM prm = {c->layout};
    const uint64_t imm_bytes = op_softmax_imm_size(tx8_hal_config(), &prm, &ti.tsr);
    const uint64_t want_imm = (c->fmt != Fmt_FP32 ? round_up(4 * n, 256) : 0) + (rows > 1 ? round_up(4 * n, 256) : 0) +
                              round_up(4ull * rows, 256);
    assert_int_equal(imm_bytes, want_imm);
    const int32_t ishape[1] = {(int32_t)imm_bytes};
    make_tensor(&tm, Fmt_INT8, SPM_IMM, ishape, 1);

    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double)), *x2 = malloc(n * sizeof(double));
    if (fixed_x) {
        memcpy(x, fixed_x, n * sizeof(double));
        tx8_test_quantize(c->fmt, x, n);
    } else {
        ct_rand_vals(rng, c->fmt, x, n, -c->range, c->range);
    }
    ct_fill_pattern(SPM_D, n * eb + GUARD);
    ct_fill_pattern(SPM_IMM, imm_bytes + GUARD);
    tx8_test_spm_store(SPM_A, c->fmt, x, n);

    const uint64_t before = tx8_hal_cycles();
    const uint64_t cyc = op_softmax(&prm, &ti.tsr, &tm.tsr, &to.tsr);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_int_equal(cyc, expected_cycles(rows, len, c->fmt != Fmt_FP32));
    assert_int_equal(tx8_hal_cycles() - before, cyc);
    tx8_test_spm_load(out_addr, c->fmt, y, n);

    const double u = ldexp(1.0, -24), eps_out = c->fmt == Fmt_FP32 ? 0.0 : tx8_test_eps(c->fmt);
    const double atol = c->fmt == Fmt_FP32 ? ldexp(1.0, -147) : fmt_min_subnormal(c->fmt);
    for (uint32_t r = 0; r < rows; ++r) {
        const double *xr = x + (size_t)r * len, *yr = y + (size_t)r * len;
        double m = xr[0], s = 0.0;
        for (uint32_t i = 1; i < len; ++i) m = xr[i] > m ? xr[i] : m;
        for (uint32_t i = 0; i < len; ++i) s += exp(xr[i] - m);
        for (uint32_t i = 0; i < len; ++i) {
            const double d = xr[i] - m, want = exp(d) / s;
            const double tol = want * ((fabs(d) + log((double)len) + 6) * u + eps_out) + atol;
            const int bad = exact_y ? yr[i] != exact_y[(size_t)r * len + i] : !(fabs(yr[i] - want) <= tol);
            if (bad) {
                print_error("softmax %s dim %d [%d %d %d %d]%s: row %u element %u: x %.9g got %.9g want %.9g tol %.3g\n",
                            tx8_format_name(c->fmt), c->dim, c->shape[0], c->shape[1], c->shape[2], c->shape[3],
                            c->in_place ? " in place" : "", r, i, xr[i], yr[i], exact_y ? exact_y[(size_t)r * len + i] : want, tol);
                fail();
            }
        }
    }
    ct_assert_pattern(SPM_IMM + imm_bytes, GUARD);
    ct_assert_pattern(out_addr == SPM_D ? SPM_D + n * eb : SPM_D, GUARD);
    if (!c->in_place) {
        tx8_test_spm_load(SPM_A, c->fmt, x2, n);
        assert_memory_equal(x, x2, n * sizeof(double));
    }
    free(x), free(y), free(x2);
}

static void fixed_cases(void **state) {
    (void)state;
    const double inf = INFINITY;
    /* the textbook row */
    const double a[4] = {1, 2, 3, 4};
    sm_case c1 = {2, {1, 4}, Fmt_FP32, LAYOUT_TENSOR, 0, 0};
    run_case(&c1, NULL, a, NULL);
    /* huge inputs do not overflow (the max is subtracted) and results are exact where the maths is: equal entries
     * give fp32(1/3); entries 1000 below the max give exactly 0; -inf gives 0 */
    const double b[9] = {1000, 1000, 1000, -1000, 0, 1000, -inf, 0, -inf};
    const float third = (float)(1.0 / 3.0);
    const double b_y[9] = {third, third, third, 0, 0, 1, 0, 1, 0};
    for (int f = 0; f < 3; ++f) {
        sm_case c2 = {2, {3, 3}, kFloatFmts[f], LAYOUT_NTENSOR, 0, 0};
        double by[9];
        memcpy(by, b_y, sizeof by);
        tx8_test_quantize(kFloatFmts[f], by, 9);
        run_case(&c2, NULL, b, by);
    }
    /* fp16 extremes, in place */
    const double h[2] = {65504, -65504};
    const double h_y[2] = {1, 0};
    sm_case c3 = {3, {1, 1, 2}, Fmt_FP16, LAYOUT_TENSOR, 1, 0};
    run_case(&c3, NULL, h, h_y);
    assert_int_equal(tx8_test_faults()->count, 0);
}

/* The measured case of the brief: 1x1000 fp32, one row, 228 cycles by the documented formulas. */
static void cycles_1x1000(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, 5);
    sm_case c = {2, {1, 1000}, Fmt_FP32, LAYOUT_TENSOR, 0, 10};
    run_case(&c, &rng, NULL, NULL);
    assert_int_equal(expected_cycles(1, 1000, 0), 228); /* 32 max + 32 sub + 80 exp + 32 sum + 20 recip + 32 mul */
    /* 4 rows of 250: the TDMA broadcast path */
    sm_case c4 = {2, {4, 250}, Fmt_FP32, LAYOUT_TENSOR, 0, 10};
    c4.layout = LAYOUT_NTENSOR;
    run_case(&c4, &rng, NULL, NULL);
}

static void random_cases(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() ^ 0x50f7);
    static const double kRanges[3] = {1.0, 10.0, 60.0};
    for (int it = 0; it < 36; ++it) {
        sm_case c = {0};
        c.dim = tx8_rng_int(&rng, 2, 4);
        c.fmt = kFloatFmts[it % 3];
        c.layout = it % 4 == 0 ? LAYOUT_TENSOR : LAYOUT_NTENSOR;
        c.in_place = it % 5 == 1;
        c.range = kRanges[tx8_rng_int(&rng, 0, 2)];
        size_t n;
        do {
            n = 1;
            for (int32_t d = 0; d < c.dim; ++d) {
                c.shape[d] = d == c.dim - 1 ? tx8_rng_int(&rng, 1, it % 2 ? 300 : 70) : tx8_rng_int(&rng, 1, 5);
                n *= (size_t)c.shape[d];
            }
            if (c.layout == LAYOUT_TENSOR) n /= (size_t)c.shape[0], c.shape[0] = 1;
            if (it % 6 == 3) { /* a single row: the VuV path */
                for (int32_t d = 0; d < c.dim - 1; ++d) c.shape[d] = 1;
                n = (size_t)c.shape[c.dim - 1];
            }
        } while (n > 4000);
        run_case(&c, &rng, NULL, NULL);
        ++g_random_cases;
    }
}

static void bad_input(void **state) {
    (void)state;
    const int32_t s2[2] = {4, 8}, s2b[2] = {4, 9}, s5[5] = {1, 1, 1, 4, 8}, s1[1] = {32}, big[1] = {1 << 20};
    const int32_t tiny[1] = {64};
    tensor_buf ti, to, tbf, tbad, t5, t1, t8, imm, imm_small, imm_f32, imm_on_out, to_part;
    make_tensor(&ti, Fmt_FP32, SPM_A, s2, 2);
    make_tensor(&to, Fmt_FP32, SPM_D, s2, 2);
    make_tensor(&tbf, Fmt_BF16, SPM_D, s2, 2);
    make_tensor(&tbad, Fmt_FP32, SPM_D, s2b, 2);
    make_tensor(&t5, Fmt_FP32, SPM_A, s5, 5);
    make_tensor(&t1, Fmt_FP32, SPM_A, s1, 1);
    make_tensor(&t8, Fmt_INT8, SPM_A, s2, 2);
    make_tensor(&imm, Fmt_INT8, SPM_IMM, big, 1);
    make_tensor(&imm_small, Fmt_INT8, SPM_IMM, tiny, 1);
    make_tensor(&imm_f32, Fmt_FP32, SPM_IMM, big, 1);
    make_tensor(&imm_on_out, Fmt_INT8, SPM_D + 64, big, 1);
    make_tensor(&to_part, Fmt_FP32, SPM_A + 16, s2, 2);
    SOFTMAX_PARAM nt = {LAYOUT_NTENSOR}, tn = {LAYOUT_TENSOR}, cx = {LAYOUT_CX};
    struct { SOFTMAX_PARAM *p; TSR *in, *imm, *out; const char *msg; } cases[] = {
        {&cx, &ti.tsr, &imm.tsr, &to.tsr, "op_softmax: param->layout = 2 (Cx), must be Tensor or NTensor (compact rows)"},
        {&tn, &ti.tsr, &imm.tsr, &to.tsr, "op_softmax: in->shape->shape_real[0] = 4, layout Tensor needs 1 (use NTensor)"},
        {&nt, &t8.tsr, &imm.tsr, &to.tsr, "op_softmax: in->format = int8, supported fp32, fp16, bf16"},
        {&nt, &ti.tsr, &imm.tsr, &tbf.tsr, "op_softmax: out->format = bf16 differs from in->format = fp32"},
        {&nt, &ti.tsr, &imm.tsr, &tbad.tsr, "op_softmax: out->shape->shape_real differs from in's"},
        {&nt, &t5.tsr, &imm.tsr, &to.tsr, "op_softmax: in->shape->dim = 5, supported 2..4"},
        {&nt, &t1.tsr, &imm.tsr, &to.tsr, "op_softmax: in->shape->dim = 1, supported 2..4"},
        {&nt, &ti.tsr, &imm_small.tsr, &to.tsr, "op_softmax: imm must be an int8 [bytes] buffer of at least 512 bytes"},
        {&nt, &ti.tsr, &imm_f32.tsr, &to.tsr, "op_softmax: imm must be an int8 [bytes] buffer"},
        {&nt, &ti.tsr, &imm_on_out.tsr, &to.tsr, "op_softmax: imm [0x180040, +512) overlaps out"},
        {&nt, &ti.tsr, &imm.tsr, &to_part.tsr, "op_softmax: out [0x10, +128) partially overlaps in [0x0, +128)"},
        {&nt, &ti.tsr, NULL, &to.tsr, "op_softmax: imm (or its shape) is NULL"},
        {NULL, &ti.tsr, &imm.tsr, &to.tsr, "op_softmax: param is NULL"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ct_fill_pattern(SPM_D, 512);
        ct_fill_pattern(SPM_IMM, 512);
        const uint64_t before = tx8_hal_cycles();
        assert_true(op_softmax(cases[k].p, cases[k].in, cases[k].imm, cases[k].out) == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        ct_assert_pattern(SPM_D, 512);
        ct_assert_pattern(SPM_IMM, 512);
    }
    assert_int_equal(op_softmax_imm_size(tx8_hal_config(), &nt, &t5.tsr), 0); /* no plan for a bad shape */
    assert_int_equal(op_softmax_imm_size(tx8_hal_config(), NULL, &ti.tsr), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cycles_1x1000, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_input, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_softmax: %d random cases ran\n", g_random_cases);
    return failed;
}

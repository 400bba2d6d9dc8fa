/*
 * op_layernorm on the CT against a double reference: fixed cases (a textbook row, constant rows give bias exactly,
 * RMS of a known row), seeded random cases over dim (2..4) x dtype x layout x mode (layer / RMS) x bias (given /
 * NULL) x row count (one row: VuV path; several: TDMA broadcast path) x in place, with the error bound of the
 * contract in tx8/ops.h; the cycles are the documented instruction sequence and at least one CT pass per element
 * touched per fp32 pass; guards around out and imm; bad input with its message and nothing written.
 */
#include "op_test_common.h"
#include "tx8/check.h"

#define GUARD 256u
#define SPM_IMM SPM_B
#define SPM_SCALE SPM_C
#define SPM_BIAS (SPM_C + 0x40000u)

static int g_random_cases;

typedef struct ln_case {
    int32_t dim;
    int32_t shape[4];
    Data_Format fmt;
    LAYOUT_MODE layout;
    int rms, has_bias, in_place;
    float epsilon;
    double range, offset; /* x uniform in [offset - range, offset + range] */
} ln_case;

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* The op's cycles written out from the documented instruction sequence (ops/layernorm.c) and formulas (cm_cycles.h). */
static uint64_t expected_cycles(uint32_t rows, uint32_t len, int narrow, int rms, int has_bias) {
    const tx8_hw_config *cfg = tx8_hal_config();
    const uint64_t n = (uint64_t)rows * len;
    const uint64_t pass = ct_expected_cycles(n, 32, 0);
    const uint64_t row_op = rows == 1 ? pass
                                      : cfg->tdma_startup_cycles + /* the broadcast: one run per row */
                                        rows * ((4 * (uint64_t)len + cfg->tdma_bytes_per_cycle - 1) /
                                                cfg->tdma_bytes_per_cycle) + pass;
    uint64_t c = 0;
    if (!rms) c += pass + ct_expected_cycles(rows, 32, 1) + row_op; /* sum, / n, x - m */
    c += pass + pass;                                              /* d * d, sum */
    c += ct_expected_cycles(rows, 32, 1) + ct_expected_cycles(rows, 32, 0) + ct_expected_cycles(rows, 32, 1);
    c += row_op + pass;                                            /* d * q, * scale (+ bias) */
    if (narrow) c += 2 * pass + (1 + has_bias) * ct_expected_cycles(len, 32, 0); /* converts */
    return c;
}

/* Runs one case; checks values against the bound of the contract, cycles, guards and the inputs. */
static void run_case(const ln_case *c, tx8_rng *rng, const double *fixed_x, const double *fixed_scale,
                     const double *fixed_bias, const double *exact_y) {
    size_t n = 1;
    for (int32_t d = 0; d < c->dim; ++d) n *= (size_t)c->shape[d];
    const uint32_t len = (uint32_t)c->shape[c->dim - 1], rows = (uint32_t)(n / len);
    const uint32_t eb = tx8_format_bytes(c->fmt);
    const uint64_t out_addr = c->in_place ? SPM_A : SPM_D;
    tensor_buf ti, to, tm, ts, tb;
    const int32_t vshape[1] = {(int32_t)len};
    make_tensor(&ti, c->fmt, SPM_A, c->shape, c->dim);
    make_tensor(&to, c->fmt, out_addr, c->shape, c->dim);
    make_tensor(&ts, c->fmt, SPM_SCALE, vshape, 1);
    make_tensor(&tb, c->fmt, SPM_BIAS, vshape, 1);
    LAYERNORM_PARAM prm = {c->layout, c->rms, c->epsilon};
    const uint64_t imm_bytes = op_layernorm_imm_size(tx8_hal_config(), &prm, &ti.tsr);
    const int narrow = c->fmt != Fmt_FP32;
    const uint64_t want_imm = (narrow ? round_up(4 * n, 256) : 0) + round_up(4 * n, 256) + round_up(4ull * rows, 256) +
                              (narrow ? 2 * round_up(4ull * len, 256) : 0);
    assert_int_equal(imm_bytes, want_imm);
    const int32_t ishape[1] = {(int32_t)imm_bytes};
    make_tensor(&tm, Fmt_INT8, SPM_IMM, ishape, 1);

    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double)), *x2 = malloc(n * sizeof(double));
    double *sc = malloc(len * sizeof(double)), *bi = malloc(len * sizeof(double));
    if (fixed_x) {
        memcpy(x, fixed_x, n * sizeof(double));
        memcpy(sc, fixed_scale, len * sizeof(double));
        memcpy(bi, fixed_bias, len * sizeof(double));
        tx8_test_quantize(c->fmt, x, n);
        tx8_test_quantize(c->fmt, sc, len);
        tx8_test_quantize(c->fmt, bi, len);
    } else {
        ct_rand_vals(rng, c->fmt, x, n, c->offset - c->range, c->offset + c->range);
        ct_rand_vals(rng, c->fmt, sc, len, -2.0, 2.0);
        ct_rand_vals(rng, c->fmt, bi, len, -1.0, 1.0);
    }
    if (!c->has_bias) memset(bi, 0, len * sizeof(double));
    ct_fill_pattern(SPM_D, n * eb + GUARD);
    ct_fill_pattern(SPM_IMM, imm_bytes + GUARD);
    tx8_test_spm_store(SPM_A, c->fmt, x, n);
    tx8_test_spm_store(SPM_SCALE, c->fmt, sc, len);
    tx8_test_spm_store(SPM_BIAS, c->fmt, bi, len);

    const uint64_t before = tx8_hal_cycles();
    const uint64_t cyc = op_layernorm(&prm, &ti.tsr, &ts.tsr, c->has_bias ? &tb.tsr : NULL, &tm.tsr, &to.tsr);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_int_equal(cyc, expected_cycles(rows, len, narrow, c->rms, c->has_bias));
    assert_int_equal(tx8_hal_cycles() - before, cyc);
    /* never faster than the CT's rate: every fp32 pass over the [R][n] elements the op touches (layer: sum, x - m,
     * d * d, sum, d * q, scale; rms: two fewer) at ct_datapath_bits / 32 lanes per cycle */
    const uint64_t lanes = tx8_hal_config()->ct_datapath_bits / 32;
    assert_true(cyc >= (c->rms ? 4 : 6) * ((n + lanes - 1) / lanes));
    tx8_test_spm_load(out_addr, c->fmt, y, n);

    const double u = ldexp(1.0, -24), eps_out = narrow ? tx8_test_eps(c->fmt) : 0.0;
    const double atol = narrow ? fmt_min_subnormal(c->fmt) : ldexp(1.0, -147);
    for (uint32_t r = 0; r < rows; ++r) {
        const double *xr = x + (size_t)r * len, *yr = y + (size_t)r * len;
        double m = 0.0, v = 0.0;
        if (!c->rms) {
            for (uint32_t i = 0; i < len; ++i) m += xr[i];
            m /= len;
        }
        for (uint32_t i = 0; i < len; ++i) v += (xr[i] - m) * (xr[i] - m);
        v /= len;
        const double s = sqrt(v + (double)c->epsilon);
        for (uint32_t i = 0; i < len; ++i) {
            const double d = (xr[i] - m) / s, want = d * sc[i] + bi[i];
            const double tol = fabs(sc[i]) * (4 * u * (fabs(xr[i]) + fabs(m)) / s + 8 * u * fabs(d)) +
                               2 * u * fabs(bi[i]) + eps_out * fabs(want) + atol;
            const int bad = exact_y ? yr[i] != exact_y[(size_t)r * len + i] : !(fabs(yr[i] - want) <= tol);
            if (bad) {
                print_error("layernorm %s %s%s dim %d [%d %d %d %d]%s: row %u element %u: x %.9g got %.9g want %.9g "
                            "tol %.3g\n", c->rms ? "rms" : "layer", tx8_format_name(c->fmt),
                            c->has_bias ? "" : " no bias", c->dim, c->shape[0], c->shape[1], c->shape[2], c->shape[3],
                            c->in_place ? " in place" : "", r, i, xr[i], yr[i],
                            exact_y ? exact_y[(size_t)r * len + i] : want, tol);
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
    free(x), free(y), free(x2), free(sc), free(bi);
}

static void fixed_cases(void **state) {
    (void)state;
    /* [1 2 3 4]: mean 2.5, variance 1.25; epsilon 0.0 and scale 1, bias 0 give (x - 2.5) / sqrt(1.25) */
    const double a[4] = {1, 2, 3, 4}, ones[4] = {1, 1, 1, 1}, zeros[4] = {0, 0, 0, 0};
    ln_case c1 = {2, {1, 4}, Fmt_FP32, LAYOUT_TENSOR, 0, 1, 0, 0.0f, 0, 0};
    run_case(&c1, NULL, a, ones, zeros, NULL);
    /* constant rows: d is exactly 0, so y is exactly the bias, in every format */
    const double k[6] = {3, 3, 3, -7, -7, -7}, sc[3] = {5, -1, 2}, bi[3] = {0.5, -0.25, 8};
    const double k_y[6] = {0.5, -0.25, 8, 0.5, -0.25, 8};
    for (int f = 0; f < 3; ++f) {
        ln_case c2 = {2, {2, 3}, kFloatFmts[f], LAYOUT_NTENSOR, 0, 1, 0, 1e-5f, 0, 0};
        run_case(&c2, NULL, k, sc, bi, k_y);
    }
    /* RMS of [3 4] with epsilon 0: mean square 12.5; [2 2] scaled to exactly [1 1] * scale (4 / 4 = 1) */
    const double r[4] = {3, 4, 2, 2}, rs[2] = {1, 1}, rb[2] = {0, 0};
    ln_case c3 = {3, {1, 2, 2}, Fmt_FP32, LAYOUT_TENSOR, 1, 0, 1, 0.0f, 0, 0};
    run_case(&c3, NULL, r, rs, rb, NULL);
    assert_int_equal(tx8_test_faults()->count, 0);
}

/* ViT's row: 197 x 768 fp32 and bf16 (the cycle count against the CT's rate); 1 x 768 takes the VuV path. */
static void vit_rows(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, 7);
    for (int f = 0; f < 3; f += 2) {
        ln_case c = {3, {1, 13, 768}, kFloatFmts[f], LAYOUT_TENSOR, 0, 1, 0, 1e-6f, 3, 0.5};
        run_case(&c, &rng, NULL, NULL, NULL, NULL);
        ln_case c1 = {2, {1, 768}, kFloatFmts[f], LAYOUT_TENSOR, 1, 0, 0, 1e-6f, 3, 0};
        run_case(&c1, &rng, NULL, NULL, NULL, NULL);
    }
}

static void random_cases(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() ^ 0x1a7e);
    static const double kRanges[3] = {1.0, 10.0, 100.0};
    for (int it = 0; it < 48; ++it) {
        ln_case c = {0};
        c.dim = tx8_rng_int(&rng, 2, 4);
        c.fmt = kFloatFmts[it % 3];
        c.layout = it % 4 == 0 ? LAYOUT_TENSOR : LAYOUT_NTENSOR;
        c.rms = (it / 3) % 2;
        c.has_bias = (it / 6) % 2 == 0;
        c.in_place = it % 5 == 1;
        c.epsilon = it % 7 == 0 ? 0.0f : 1e-5f;
        c.range = kRanges[tx8_rng_int(&rng, 0, 2)];
        c.offset = it % 4 == 2 ? 3 * c.range : 0.0; /* a mean far from 0: the cancellation term of the bound */
        size_t n;
        do {
            n = 1;
            for (int32_t d = 0; d < c.dim; ++d) {
                c.shape[d] = d == c.dim - 1 ? tx8_rng_int(&rng, 2, it % 2 ? 300 : 70) : tx8_rng_int(&rng, 1, 5);
                n *= (size_t)c.shape[d];
            }
            if (c.layout == LAYOUT_TENSOR) n /= (size_t)c.shape[0], c.shape[0] = 1;
            if (it % 6 == 3) { /* a single row: the VuV path */
                for (int32_t d = 0; d < c.dim - 1; ++d) c.shape[d] = 1;
                n = (size_t)c.shape[c.dim - 1];
            }
        } while (n > 4000);
        run_case(&c, &rng, NULL, NULL, NULL, NULL);
        ++g_random_cases;
    }
}

static void bad_input(void **state) {
    (void)state;
    const int32_t s2[2] = {4, 8}, s2b[2] = {4, 9}, s5[5] = {1, 1, 1, 4, 8}, s1[1] = {32}, big[1] = {1 << 18};
    const int32_t tiny[1] = {64}, v8[1] = {8}, v7[1] = {7}, v24[2] = {2, 4};
    tensor_buf ti, to, tbf, tbad, t5, t1, t8, imm, imm_small, imm_f32, imm_on_out, to_part, sc, sc7, sc_bf, bi, sc_on_out,
        bi24;
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
    make_tensor(&sc, Fmt_FP32, SPM_SCALE, v8, 1);
    make_tensor(&sc7, Fmt_FP32, SPM_SCALE, v7, 1);
    make_tensor(&sc_bf, Fmt_BF16, SPM_SCALE, v8, 1);
    make_tensor(&bi, Fmt_FP32, SPM_BIAS, v8, 1);
    make_tensor(&sc_on_out, Fmt_FP32, SPM_D + 32, v8, 1);
    make_tensor(&bi24, Fmt_FP32, SPM_BIAS, v24, 2);
    LAYERNORM_PARAM nt = {LAYOUT_NTENSOR, 0, 1e-5f}, tn = {LAYOUT_TENSOR, 0, 1e-5f}, cx = {LAYOUT_CX, 0, 1e-5f};
    LAYERNORM_PARAM rms2 = {LAYOUT_NTENSOR, 2, 1e-5f}, neg = {LAYOUT_NTENSOR, 0, -1.0f}, inf = {LAYOUT_NTENSOR, 0, INFINITY};
    struct { LAYERNORM_PARAM *p; TSR *in, *scale, *bias, *imm, *out; const char *msg; } cases[] = {
        {&cx, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr,
         "op_layernorm: param->layout = 2 (Cx), must be Tensor or NTensor (compact rows)"},
        {&tn, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr,
         "op_layernorm: in->shape->shape_real[0] = 4, layout Tensor needs 1 (use NTensor)"},
        {&rms2, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: param->rms = 2, must be 0 or 1"},
        {&neg, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: param->epsilon = -1, must be finite and >= 0"},
        {&inf, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: param->epsilon = inf, must be finite"},
        {&nt, &t8.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: in->format = int8, supported fp32, fp16, bf16"},
        {&nt, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &tbf.tsr, "op_layernorm: out->format = bf16 differs from in->format = fp32"},
        {&nt, &ti.tsr, &sc_bf.tsr, &bi.tsr, &imm.tsr, &to.tsr,
         "op_layernorm: scale->format = bf16 differs from in->format = fp32"},
        {&nt, &ti.tsr, &sc7.tsr, &bi.tsr, &imm.tsr, &to.tsr,
         "op_layernorm: scale must hold n = 8 elements (in's last dim) in 1..4 dims, it has 7 in 1"},
        {&nt, &ti.tsr, &sc.tsr, &sc7.tsr, &imm.tsr, &to.tsr,
         "op_layernorm: bias must hold n = 8 elements (in's last dim) in 1..4 dims, it has 7 in 1"},
        {&nt, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &tbad.tsr, "op_layernorm: out->shape->shape_real differs from in's"},
        {&nt, &t5.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: in->shape->dim = 5, supported 2..4"},
        {&nt, &t1.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: in->shape->dim = 1, supported 2..4"},
        {&nt, &ti.tsr, &sc.tsr, &bi.tsr, &imm_small.tsr, &to.tsr,
         "op_layernorm: imm must be an int8 [bytes] buffer of at least 512 bytes"},
        {&nt, &ti.tsr, &sc.tsr, &bi.tsr, &imm_f32.tsr, &to.tsr, "op_layernorm: imm must be an int8 [bytes] buffer"},
        {&nt, &ti.tsr, &sc.tsr, &bi.tsr, &imm_on_out.tsr, &to.tsr, "op_layernorm: imm [0x180040, +512) overlaps out"},
        {&nt, &ti.tsr, &sc_on_out.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: scale [0x180020, +32) overlaps out"},
        {&nt, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to_part.tsr,
         "op_layernorm: out [0x10, +128) partially overlaps in [0x0, +128)"},
        {&nt, &ti.tsr, NULL, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: scale (or its shape) is NULL"},
        {&nt, &ti.tsr, &sc.tsr, &bi.tsr, NULL, &to.tsr, "op_layernorm: imm (or its shape) is NULL"},
        {NULL, &ti.tsr, &sc.tsr, &bi.tsr, &imm.tsr, &to.tsr, "op_layernorm: param is NULL"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ct_fill_pattern(SPM_D, 512);
        ct_fill_pattern(SPM_IMM, 512);
        const uint64_t before = tx8_hal_cycles();
        assert_true(op_layernorm(cases[k].p, cases[k].in, cases[k].scale, cases[k].bias, cases[k].imm, cases[k].out) ==
                    TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        ct_assert_pattern(SPM_D, 512);
        ct_assert_pattern(SPM_IMM, 512);
    }
    /* a [2][4] bias of 8 elements is accepted (only the count matters), and so is no bias */
    char why[TX8_CHECK_WHY_BYTES];
    assert_int_equal(tx8_check_layernorm(tx8_hal_config(), &nt, &ti.tsr, &sc.tsr, &bi24.tsr, &imm.tsr, &to.tsr, why,
                                         sizeof why), 0);
    assert_int_equal(tx8_check_layernorm(tx8_hal_config(), &nt, &ti.tsr, &sc.tsr, NULL, &imm.tsr, &to.tsr, why,
                                         sizeof why), 0);
    assert_int_equal(op_layernorm_imm_size(tx8_hal_config(), &nt, &t5.tsr), 0); /* no plan for a bad shape */
    assert_int_equal(op_layernorm_imm_size(tx8_hal_config(), NULL, &ti.tsr), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(vit_rows, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_input, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_layernorm: %d random cases ran\n", g_random_cases);
    return failed;
}

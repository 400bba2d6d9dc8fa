/*
 * op_reduce on the CT: random [A][R][B] views (B == 1: one inner reduction; otherwise A outer ones) of every kind,
 * float format and rounding mode against a double reference in the kernel's documented order (sum accumulated in
 * double in index order and rounded once; mean that sum divided by R and rounded again; max / min exact), bit for
 * bit; cycles as documented, never below one CT pass over the input (the worst ratio is printed); faults named,
 * nothing written.
 */
#include "op_test_common.h"

static int g_random_cases;
static double g_worst_ratio = 1.0;

static uint64_t pass_cycles(uint64_t elems, uint32_t bits, int multi) { return ct_expected_cycles(elems, bits, multi); }

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 90);
    enum { MAXN = 4000 };
    double *x = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    double *want = malloc(MAXN * sizeof(double));
    char what[160];
    for (int c = 0; c < 64; ++c) {
        const REDUCE_KIND kind = (REDUCE_KIND)(c % REDUCE_KIND_COUNT);
        const Data_Format fmt = kFloatFmts[(c / 4) % 3];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        int32_t a, red, b;
        do {
            a = tx8_rng_int(&r, 1, 12), red = tx8_rng_int(&r, 1, 60), b = c % 3 == 0 ? 1 : tx8_rng_int(&r, 1, 40);
        } while ((size_t)a * (size_t)red * (size_t)b > MAXN);
        const int32_t ins[3] = {a, red, b}, outs[3] = {a, 1, b};
        const size_t n = (size_t)a * (size_t)red * (size_t)b, m = (size_t)a * (size_t)b;
        const tx8_layout li = make_layout(LAYOUT_NTENSOR, fmt, ins, 3), lo = make_layout(LAYOUT_NTENSOR, fmt, outs, 3);
        tensor_buf ti, to;
        make_tensor(&ti, fmt, SPM_A, ins, 3);
        make_tensor(&to, fmt, SPM_D, outs, 3);
        ct_rand_vals(&r, fmt, x, n, -8, 8);
        put_tensor(&li, SPM_A, x, n);
        REDUCE_PARAM prm = {kind, rnd};
        const uint64_t cyc = op_reduce(&prm, &ti.tsr, &to.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        const uint32_t bits = li.elem_bytes * 8;
        uint64_t expect = b == 1 ? pass_cycles(n, bits, 0) : (uint64_t)a * pass_cycles((uint64_t)red * b, bits, 0);
        uint64_t bound = pass_cycles(n, bits, 0);
        if (kind == REDUCE_MEAN) expect += pass_cycles(m, bits, 1), bound += pass_cycles(m, bits, 1);
        assert_int_equal(cyc, expect);
        if ((double)cyc / (double)bound > g_worst_ratio) g_worst_ratio = (double)cyc / (double)bound;
        get_tensor(&lo, SPM_D, got, m);
        for (int32_t i = 0; i < a; ++i)
            for (int32_t j = 0; j < b; ++j) {
                double acc = x[((size_t)i * red) * b + j];
                for (int32_t k = 1; k < red; ++k) {
                    const double v = x[((size_t)i * red + k) * b + j];
                    if (kind == REDUCE_SUM || kind == REDUCE_MEAN) acc += v;
                    else if (kind == REDUCE_MAX) acc = acc > v ? acc : v;
                    else acc = acc < v ? acc : v;
                }
                double res = cm_format_to_double(cm_round_to_format(acc, fmt, rnd), fmt);
                if (kind == REDUCE_MEAN) res = cm_format_to_double(cm_round_to_format(res / red, fmt, rnd), fmt);
                want[(size_t)i * b + j] = res;
            }
        snprintf(what, sizeof what, "case %d: kind %d %s %s [%d][%d][%d]", c, (int)kind, tx8_format_name(fmt),
                 tx8_rnd_name(rnd), a, red, b);
        tx8_test_assert_close(got, want, m, 0.0, 0.0, what);
        ++g_random_cases;
    }
    free(x), free(got), free(want);
}

static void faults(void **state) {
    (void)state;
    const int32_t ins[3] = {2, 5, 4}, outs[3] = {2, 1, 4}, bad[3] = {2, 1, 3};
    tensor_buf ti, to, tb, tover;
    make_tensor(&ti, Fmt_FP32, SPM_A, ins, 3);
    make_tensor(&to, Fmt_FP32, SPM_D, outs, 3);
    make_tensor(&tb, Fmt_FP32, SPM_D, bad, 3);
    make_tensor(&tover, Fmt_FP32, SPM_A + 16, outs, 3);
    REDUCE_PARAM prm = {REDUCE_SUM, RND_NEAREST_EVEN}, badkind = {(REDUCE_KIND)7, RND_NEAREST_EVEN};
    ct_fill_pattern(SPM_D, 64);
    assert_true(op_reduce(&prm, &ti.tsr, &tb.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_reduce: in is [2][5][4], out [2][1][3]; out must be [A][1][B] of in's [A][R][B]");
    assert_true(op_reduce(&badkind, &ti.tsr, &to.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_reduce: param->kind = 7 is not a REDUCE_KIND");
    assert_true(op_reduce(&prm, &ti.tsr, &tover.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_reduce: out overlaps in");
    assert_true(op_reduce(NULL, &ti.tsr, &to.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_reduce: param is NULL");
    ct_assert_pattern(SPM_D, 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_reduce: %d random cases ran; at most %.2fx one CT pass over the input\n", g_random_cases,
           g_worst_ratio);
    return failed;
}

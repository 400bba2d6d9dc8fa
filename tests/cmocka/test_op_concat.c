/*
 * op_concat (TDMA): seeded random cases over dim 1..6, axis, input count 1..4, extents and formats, checked byte for
 * byte against a scalar index-maths reference with guard bytes after the output; cycles equal the HAL's count and
 * are at least the TDMA bound (one instruction per input at the full rate; the worst ratio is printed); bad
 * inputs fault with a clear message and write nothing.
 */
#include "op_test_common.h"
#include "tx8/lsu.h"

#define GUARD 64u

static int g_random_cases;
static double g_worst_ratio = 1.0;

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 77);
    static const Data_Format fmts[] = {Fmt_FP32, Fmt_FP16, Fmt_INT8, Fmt_INT32};
    const tx8_hw_config *hw = tx8_hal_config();
    for (int c = 0; c < 60; ++c) {
        const Data_Format fmt = fmts[c % 4];
        const uint64_t eb = tx8_format_bytes(fmt);
        const int32_t dim = tx8_rng_int(&r, 1, 6);
        const uint32_t axis = (uint32_t)tx8_rng_int(&r, 0, dim - 1), count = (uint32_t)tx8_rng_int(&r, 1, 4);
        int32_t out_shape[MAX_SHAPE_DIM], in_shape[4][MAX_SHAPE_DIM];
        uint64_t outer = 1, inner = 1;
        for (int32_t d = 0; d < dim; ++d) {
            out_shape[d] = tx8_rng_int(&r, 1, dim > 3 ? 3 : 6);
            if ((uint32_t)d < axis) outer *= (uint64_t)out_shape[d];
            if ((uint32_t)d > axis) inner *= (uint64_t)out_shape[d];
        }
        out_shape[axis] = 0;
        L_SHAPE shapes[4];
        TSR ins[4];
        TSR *ptrs[4];
        uint64_t addr = SPM_A, in_bytes[4];
        uint8_t *in_data[4];
        for (uint32_t i = 0; i < count; ++i) {
            for (int32_t d = 0; d < dim; ++d) in_shape[i][d] = out_shape[d];
            in_shape[i][axis] = tx8_rng_int(&r, 1, 5);
            out_shape[axis] += in_shape[i][axis];
            assert_int_equal(tx8_lshape_init(&shapes[i], in_shape[i], dim), 0);
            ins[i] = (TSR){fmt, addr, &shapes[i]};
            ptrs[i] = &ins[i];
            in_bytes[i] = outer * (uint64_t)in_shape[i][axis] * inner * eb;
            in_data[i] = malloc(in_bytes[i]);
            for (uint64_t k = 0; k < in_bytes[i]; ++k) in_data[i][k] = (uint8_t)tx8_rng_int(&r, 0, 255);
            assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, in_data[i], in_bytes[i]), 0);
            addr += (in_bytes[i] + 63) / 64 * 64;
        }
        L_SHAPE out_l;
        assert_int_equal(tx8_lshape_init(&out_l, out_shape, dim), 0);
        TSR out = {fmt, SPM_D, &out_l};
        const uint64_t out_bytes = outer * (uint64_t)out_shape[axis] * inner * eb;
        ct_fill_pattern(SPM_D, out_bytes + GUARD);
        CONCAT_PARAM prm = {axis, count};
        const uint64_t before = tx8_hal_cycles();
        const uint64_t cyc = op_concat(&prm, ptrs, &out);
        assert_int_equal(tx8_test_faults()->count, 0);
        assert_int_equal(tx8_hal_cycles() - before, cyc);
        /* the bound: each input's bytes at the full TDMA rate, one start-up per input */
        uint64_t bound = 0;
        for (uint32_t i = 0; i < count; ++i)
            bound += hw->tdma_startup_cycles + (in_bytes[i] + hw->tdma_bytes_per_cycle - 1) / hw->tdma_bytes_per_cycle;
        assert_true(cyc >= bound);
        if ((double)cyc / (double)bound > g_worst_ratio) g_worst_ratio = (double)cyc / (double)bound;
        uint8_t *got = malloc(out_bytes + GUARD), *want = malloc(out_bytes);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, SPM_D, got, out_bytes + GUARD), 0);
        uint64_t offset = 0;
        for (uint32_t i = 0; i < count; ++i) {
            const uint64_t row = (uint64_t)in_shape[i][axis] * inner * eb;
            for (uint64_t o = 0; o < outer; ++o)
                memcpy(want + o * (uint64_t)out_shape[axis] * inner * eb + offset, in_data[i] + o * row, row);
            offset += row;
        }
        if (memcmp(got, want, out_bytes) != 0)
            fail_msg("case %d: dim %d axis %u count %u %s: output differs", c, dim, axis, count, tx8_format_name(fmt));
        for (uint32_t k = 0; k < GUARD; ++k) assert_int_equal(got[out_bytes + k], 0xA5);
        for (uint32_t i = 0; i < count; ++i) free(in_data[i]);
        free(got), free(want);
        ++g_random_cases;
    }
}

static void faults(void **state) {
    (void)state;
    const int32_t a[2] = {2, 3}, b[2] = {3, 3}, o[2] = {4, 3};
    L_SHAPE la, lb, lo;
    tx8_lshape_init(&la, a, 2), tx8_lshape_init(&lb, b, 2), tx8_lshape_init(&lo, o, 2);
    TSR ta = {Fmt_FP32, SPM_A, &la}, tb = {Fmt_FP32, SPM_B, &lb}, to = {Fmt_FP32, SPM_D, &lo};
    TSR tover = {Fmt_FP32, SPM_D + 8, &la}, t16 = {Fmt_FP16, SPM_B, &la};
    TSR *const sum_wrong[2] = {&ta, &tb}, *const over[2] = {&ta, &tover}, *const fmt[2] = {&ta, &t16};
    CONCAT_PARAM p0 = {0, 2}, p5 = {5, 2};
    ct_fill_pattern(SPM_D, 64);
    assert_true(op_concat(&p0, sum_wrong, &to) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_concat: the inputs' extents along axis 0 sum to 5, out's is 4");
    assert_true(op_concat(&p0, over, &to) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_concat: in[1] overlaps out");
    assert_true(op_concat(&p0, fmt, &to) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_concat: in[1]->format = fp16, out->format = fp32; they must match");
    assert_true(op_concat(&p5, sum_wrong, &to) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_concat: param->axis = 5, out has 2 dims");
    ct_assert_pattern(SPM_D, 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_concat: %d random cases ran; at most %.2fx the TDMA bound\n", g_random_cases,
           g_worst_ratio);
    return failed;
}

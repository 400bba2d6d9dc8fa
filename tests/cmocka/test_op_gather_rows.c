/*
 * op_gather_rows (an embedding lookup: rows of a DDR table picked by SPM int32 indices, one RDMA box per index)
 * against a byte-level reference: a fixed case (negative, repeated indices), seeded random cases over the three
 * formats, table shapes, index dims 1..4 with negative and repeated indices and random bit patterns (NaNs, infs,
 * subnormals: the rows must move bit for bit), a BERT-sized row; the cycles are exactly one RDMA box per index
 * (cm_cycles.h) and never less than count x one row's DMA; the SPM after out and the indices stay untouched; an
 * index outside [-rows, rows) faults with its message and nothing written; bad arguments with the contract's
 * message (tx8_check_gather_rows gives the same verdict).
 */
#include "op_test_common.h"
#include "tx8/check.h"

#define GUARD 256u
#define SPM_INDEX SPM_A
#define SPM_OUT SPM_B
#define DDR_TABLE 0x1000000ull

static int g_random_cases;

/* One RDMA box of `bytes` contiguous bytes (cm_cycles.h's formula, written out here). */
static uint64_t row_cycles(uint64_t bytes) {
    const tx8_hw_config *c = tx8_hal_config();
    const uint64_t burst = c->ddr_burst_bytes;
    const uint64_t moved = (bytes + burst - 1) / burst * burst;
    const uint64_t rate = c->lsu_bytes_per_cycle < c->ddr_bytes_per_cycle ? c->lsu_bytes_per_cycle
                                                                          : c->ddr_bytes_per_cycle;
    return c->ddr_latency_cycles + (moved + rate - 1) / rate;
}

static void write_indices(uint64_t addr, const int32_t *idx, size_t n) {
    uint8_t *b = malloc(n * 4 + 1);
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 4; ++k) b[i * 4 + k] = (uint8_t)((uint32_t)idx[i] >> (8 * k));
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, b, n * 4), 0);
    free(b);
}

typedef struct gr_case {
    Data_Format fmt;
    int32_t rows, width;
    int32_t idx_dim;
    int32_t idx_shape[4];
} gr_case;

/* Runs one case with the given indices (count = the product of idx_shape) and table bytes (NULL: random bits). */
static void run_case(const gr_case *c, const int32_t *idx, const uint8_t *fixed_table, tx8_rng *rng) {
    size_t count = 1;
    for (int32_t d = 0; d < c->idx_dim; ++d) count *= (size_t)c->idx_shape[d];
    const uint64_t eb = tx8_format_bytes(c->fmt), row_bytes = (uint64_t)c->width * eb;
    const uint64_t table_bytes = (uint64_t)c->rows * row_bytes, out_bytes = count * row_bytes;
    uint8_t *table = malloc(table_bytes + 1), *got = malloc(out_bytes + 1);
    if (fixed_table)
        memcpy(table, fixed_table, table_bytes);
    else
        for (uint64_t i = 0; i < table_bytes; ++i) table[i] = (uint8_t)(tx8_rng_next(rng) >> 56);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, DDR_TABLE, table, table_bytes), 0);
    write_indices(SPM_INDEX, idx, count);
    ct_fill_pattern(SPM_INDEX + count * 4, GUARD);
    ct_fill_pattern(SPM_OUT, out_bytes + GUARD);

    tensor_buf tt, ti, to;
    const int32_t tshape[2] = {c->rows, c->width}, oshape[2] = {(int32_t)count, c->width};
    make_tensor(&tt, c->fmt, DDR_TABLE, tshape, 2);
    make_tensor(&ti, Fmt_INT32, SPM_INDEX, c->idx_shape, c->idx_dim);
    make_tensor(&to, c->fmt, SPM_OUT, oshape, 2);
    GATHER_ROWS_PARAM prm = {LAYOUT_NTENSOR};
    char why[TX8_CHECK_WHY_BYTES];
    assert_int_equal(tx8_check_gather_rows(tx8_hal_config(), &prm, &tt.tsr, &ti.tsr, &to.tsr, why, sizeof why), 0);

    const uint64_t before = tx8_hal_cycles();
    const uint64_t cyc = op_gather_rows(&prm, &tt.tsr, &ti.tsr, &to.tsr);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_int_equal(cyc, count * row_cycles(row_bytes)); /* one box per index */
    assert_int_equal(tx8_hal_cycles() - before, cyc);
    /* never faster than the DDR: each row's bytes at the DDR rate plus its latency */
    const tx8_hw_config *hw = tx8_hal_config();
    assert_true(cyc >= count * (hw->ddr_latency_cycles + (row_bytes + hw->ddr_bytes_per_cycle - 1) /
                                                             hw->ddr_bytes_per_cycle));

    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, SPM_OUT, got, out_bytes), 0);
    for (size_t k = 0; k < count; ++k) {
        const int64_t row = idx[k] < 0 ? idx[k] + c->rows : idx[k];
        if (memcmp(got + k * row_bytes, table + (uint64_t)row * row_bytes, row_bytes) != 0) {
            print_error("gather_rows %s [%d][%d], %zu indices: out row %zu (index %d) differs from table row %lld\n",
                        tx8_format_name(c->fmt), c->rows, c->width, count, k, idx[k], (long long)row);
            fail();
        }
    }
    ct_assert_pattern(SPM_OUT + out_bytes, GUARD);
    ct_assert_pattern(SPM_INDEX + count * 4, GUARD);
    int32_t *idx2 = malloc(count * 4 + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, SPM_INDEX, idx2, count * 4), 0);
    assert_memory_equal(idx, idx2, count * 4);
    free(idx2), free(table), free(got);
}

static void fixed_cases(void **state) {
    (void)state;
    /* a [5][3] fp32 table of 10*r + c; indices 0, 4, -1 (= 4), -5 (= 0), 2, 2 */
    float t[15];
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 3; ++c) t[r * 3 + c] = (float)(10 * r + c);
    const int32_t idx[6] = {0, 4, -1, -5, 2, 2};
    gr_case c = {Fmt_FP32, 5, 3, 1, {6}};
    run_case(&c, idx, (const uint8_t *)t, NULL);
    double got[18];
    tx8_test_spm_load(SPM_OUT, Fmt_FP32, got, 18);
    const double want[18] = {0, 1, 2, 40, 41, 42, 40, 41, 42, 0, 1, 2, 20, 21, 22, 20, 21, 22};
    assert_memory_equal(got, want, sizeof want);
    /* one row, one index; a [2][3] index tensor */
    tx8_rng rng;
    tx8_rng_seed(&rng, 3);
    const int32_t one[1] = {0};
    gr_case c1 = {Fmt_BF16, 1, 7, 1, {1}};
    run_case(&c1, one, NULL, &rng);
    const int32_t idx6[6] = {1, -2, 0, 0, -1, 1};
    gr_case c2 = {Fmt_FP16, 2, 33, 2, {2, 3}};
    run_case(&c2, idx6, NULL, &rng);
}

/* BERT's embedding row (768 wide) from a 4096-row table, 128 indices as [1][128]: fp32 and bf16. */
static void bert_rows(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, 11);
    int32_t idx[128];
    for (int f = 0; f < 3; f += 2) {
        for (int k = 0; k < 128; ++k) idx[k] = tx8_rng_int(&rng, -4096, 4095);
        gr_case c = {kFloatFmts[f], 4096, 768, 2, {1, 128}};
        run_case(&c, idx, NULL, &rng);
    }
}

static void random_cases(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() ^ 0x9a7e);
    for (int it = 0; it < 36; ++it) {
        gr_case c = {0};
        c.fmt = kFloatFmts[it % 3];
        c.rows = it % 5 == 0 ? tx8_rng_int(&rng, 1, 4) : tx8_rng_int(&rng, 1, 3000);
        c.width = it % 4 == 0 ? tx8_rng_int(&rng, 1, 40) : tx8_rng_int(&rng, 1, 700);
        c.idx_dim = tx8_rng_int(&rng, 1, 4);
        size_t count;
        do {
            count = 1;
            for (int32_t d = 0; d < c.idx_dim; ++d) {
                c.idx_shape[d] = tx8_rng_int(&rng, 1, d == c.idx_dim - 1 ? 200 : 4);
                count *= (size_t)c.idx_shape[d];
            }
        } while (count * (size_t)c.width * tx8_format_bytes(c.fmt) > 0x70000u || count > 600);
        int32_t *idx = malloc(count * 4);
        for (size_t k = 0; k < count; ++k) {
            /* negative ones wrap; a few repeat the previous index */
            idx[k] = k > 0 && tx8_rng_int(&rng, 0, 5) == 0 ? idx[k - 1] : tx8_rng_int(&rng, -c.rows, c.rows - 1);
        }
        run_case(&c, idx, NULL, &rng);
        free(idx);
        ++g_random_cases;
    }
}

/* An index outside [-rows, rows): a fault naming it, no cycles, out untouched (every index is checked first). */
static void out_of_range(void **state) {
    (void)state;
    const int32_t tshape[2] = {10, 16}, ishape[1] = {4}, oshape[2] = {4, 16};
    tensor_buf tt, ti, to;
    make_tensor(&tt, Fmt_FP32, DDR_TABLE, tshape, 2);
    make_tensor(&ti, Fmt_INT32, SPM_INDEX, ishape, 1);
    make_tensor(&to, Fmt_FP32, SPM_OUT, oshape, 2);
    GATHER_ROWS_PARAM prm = {LAYOUT_TENSOR};
    struct { int32_t idx[4]; const char *msg; } cases[] = {
        {{0, 1, 2, 10}, "op_gather_rows: index[3] = 10 is outside [-10, 10) (the table's rows)"},
        {{-11, 1, 2, 3}, "op_gather_rows: index[0] = -11 is outside [-10, 10)"},
        {{9, -10, 2147483647, 0}, "op_gather_rows: index[2] = 2147483647 is outside [-10, 10)"},
        {{-2147483647 - 1, 0, 0, 0}, "op_gather_rows: index[0] = -2147483648 is outside [-10, 10)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        write_indices(SPM_INDEX, cases[k].idx, 4);
        ct_fill_pattern(SPM_OUT, 4 * 16 * 4 + GUARD);
        const uint64_t before = tx8_hal_cycles();
        assert_true(op_gather_rows(&prm, &tt.tsr, &ti.tsr, &to.tsr) == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        ct_assert_pattern(SPM_OUT, 4 * 16 * 4 + GUARD);
    }
}

static void bad_input(void **state) {
    (void)state;
    const int32_t t2[2] = {10, 16}, t3[3] = {1, 10, 16}, i1[1] = {4}, o2[2] = {4, 16}, o2w[2] = {4, 15}, o2c[2] = {5, 16};
    const int32_t o1[1] = {64}, i7[7] = {1, 1, 1, 1, 1, 1, 4}, huge[2] = {2, 1 << 30}, ohuge[2] = {4, 1 << 30};
    tensor_buf tt, tt3, tt_i8, tt_far, tt_huge, to_huge, ti, ti_f32, to, to_w, to_c, to_1, to_bf, to_on_index, to_big;
    make_tensor(&tt, Fmt_FP32, DDR_TABLE, t2, 2);
    make_tensor(&tt3, Fmt_FP32, DDR_TABLE, t3, 3);
    make_tensor(&tt_i8, Fmt_INT8, DDR_TABLE, t2, 2);
    make_tensor(&tt_far, Fmt_FP32, tx8_hal_config()->ddr_bytes - 128, t2, 2);
    make_tensor(&tt_huge, Fmt_FP32, 0, huge, 2);
    make_tensor(&to_huge, Fmt_FP32, SPM_OUT, ohuge, 2);
    make_tensor(&ti, Fmt_INT32, SPM_INDEX, i1, 1);
    make_tensor(&ti_f32, Fmt_FP32, SPM_INDEX, i1, 1);
    make_tensor(&to, Fmt_FP32, SPM_OUT, o2, 2);
    make_tensor(&to_w, Fmt_FP32, SPM_OUT, o2w, 2);
    make_tensor(&to_c, Fmt_FP32, SPM_OUT, o2c, 2);
    make_tensor(&to_1, Fmt_FP32, SPM_OUT, o1, 1);
    make_tensor(&to_bf, Fmt_BF16, SPM_OUT, o2, 2);
    make_tensor(&to_on_index, Fmt_FP32, SPM_INDEX + 8, o2, 2);
    make_tensor(&to_big, Fmt_FP32, tx8_hal_config()->spm_bytes - 64, o2, 2);
    L_SHAPE s7 = {0};
    s7.dim = 7;
    for (int d = 0; d < MAX_SHAPE_DIM; ++d) s7.shape_real[d] = s7.shape_whole[d] = i7[d];
    TSR ti7 = {Fmt_INT32, SPM_INDEX, &s7};
    GATHER_ROWS_PARAM nt = {LAYOUT_NTENSOR}, cx = {LAYOUT_CX};
    struct { GATHER_ROWS_PARAM *p; TSR *table, *index, *out; const char *msg; } cases[] = {
        {NULL, &tt.tsr, &ti.tsr, &to.tsr, "op_gather_rows: param is NULL"},
        {&nt, NULL, &ti.tsr, &to.tsr, "op_gather_rows: table (or its shape) is NULL"},
        {&nt, &tt.tsr, NULL, &to.tsr, "op_gather_rows: index (or its shape) is NULL"},
        {&cx, &tt.tsr, &ti.tsr, &to.tsr, "op_gather_rows: param->layout = 2 (Cx), must be Tensor or NTensor"},
        {&nt, &tt3.tsr, &ti.tsr, &to.tsr, "op_gather_rows: table->shape->dim = 3, must be 2 ([rows][width])"},
        {&nt, &tt_i8.tsr, &ti.tsr, &to.tsr, "op_gather_rows: table->format = int8, supported fp32, fp16, bf16"},
        {&nt, &tt.tsr, &ti_f32.tsr, &to.tsr, "op_gather_rows: index->format = fp32, must be int32"},
        {&nt, &tt.tsr, &ti7, &to.tsr, "op_gather_rows: index->shape->dim = 7, supported 1..6"},
        {&nt, &tt.tsr, &ti.tsr, &to_bf.tsr, "op_gather_rows: out->format = bf16 differs from table->format = fp32"},
        {&nt, &tt.tsr, &ti.tsr, &to_1.tsr, "op_gather_rows: out->shape->dim = 1, must be 2 ([count][width])"},
        {&nt, &tt.tsr, &ti.tsr, &to_w.tsr, "op_gather_rows: out is [4][15]; it must be [count][width] = [4][16]"},
        {&nt, &tt.tsr, &ti.tsr, &to_c.tsr, "op_gather_rows: out is [5][16]; it must be [count][width] = [4][16]"},
        {&nt, &tt_far.tsr, &ti.tsr, &to.tsr, "op_gather_rows: table = 0xfffffff80 + 640 bytes is outside DDR"},
        {&nt, &tt_huge.tsr, &ti.tsr, &to_huge.tsr, "op_gather_rows: a row of 4294967296 bytes exceeds one RDMA run"},
        {&nt, &tt.tsr, &ti.tsr, &to_big.tsr, "op_gather_rows: out = 0x2fffc0 + 256 bytes is outside SPM"},
        {&nt, &tt.tsr, &ti.tsr, &to_on_index.tsr, "op_gather_rows: out [0x8, +256) overlaps index [0x0, +16)"},
    };
    const int32_t idx[4] = {0, 1, 2, 3};
    write_indices(SPM_INDEX, idx, 4);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ct_fill_pattern(SPM_OUT, 512);
        const uint64_t before = tx8_hal_cycles();
        assert_true(op_gather_rows(cases[k].p, cases[k].table, cases[k].index, cases[k].out) == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        ct_assert_pattern(SPM_OUT, 512);
        char why[TX8_CHECK_WHY_BYTES];
        assert_int_equal(tx8_check_gather_rows(tx8_hal_config(), cases[k].p, cases[k].table, cases[k].index,
                                               cases[k].out, why, sizeof why), -1);
        assert_non_null(strstr(why, cases[k].msg));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bert_rows, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(out_of_range, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_input, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_gather_rows: %d random cases ran\n", g_random_cases);
    return failed;
}

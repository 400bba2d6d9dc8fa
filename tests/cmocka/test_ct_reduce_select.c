/*
 * CT reductions (CGRATensor_ReduceOp_T_{inner,outer}_*), compares (CGRATensor_RelationOp_*, also to an int8 mask
 * from every format and in the VuV forms) and select (CGRATensor_LogicOp_V_V_select{,_mask}, also by a mask in
 * another format): seeded random shapes against scalar references (sum: double accumulation in index order,
 * rounded once, so exact bits are expected), cycle counts, rejects.
 */
#include "ct_test_common.h"

static int g_random_cases;

typedef void (*red_fn)(CT_Param *, uint64_t, uint64_t, uint32_t, uint32_t, RND_MODE, Data_Format);
static const red_fn kRed[2][3] = {
    {CGRATensor_ReduceOp_T_inner_sum, CGRATensor_ReduceOp_T_inner_max, CGRATensor_ReduceOp_T_inner_min},
    {CGRATensor_ReduceOp_T_outer_sum, CGRATensor_ReduceOp_T_outer_max, CGRATensor_ReduceOp_T_outer_min}};

static void random_reduce(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 20);
    double *x = malloc(64 * 400 * sizeof(double)), got[400], want[400];
    for (int c = 0; c < 48; ++c) {
        const int outer_side = c % 2, op = (c / 2) % 3;
        const Data_Format fmt = kFloatFmts[(c / 6) % 3];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const uint32_t rows = (uint32_t)tx8_rng_int(&r, 1, 64), cols = (uint32_t)tx8_rng_int(&r, 1, 400);
        ct_rand_vals(&r, fmt, x, (size_t)rows * cols, -10, 10);
        tx8_test_spm_store(SPM_A, fmt, x, (size_t)rows * cols);
        CT_Param p;
        kRed[outer_side][op](&p, SPM_A, SPM_D, rows, cols, rnd, fmt);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles((uint64_t)rows * cols, tx8_format_bytes(fmt) * 8, 0));
        const uint32_t nout = outer_side ? cols : rows, len = outer_side ? rows : cols;
        for (uint32_t o = 0; o < nout; ++o) {
            double acc = 0;
            for (uint32_t k = 0; k < len; ++k) {
                const double v = outer_side ? x[(size_t)k * cols + o] : x[(size_t)o * cols + k];
                acc = k == 0 ? v : op == 0 ? acc + v : op == 1 ? fmax(acc, v) : fmin(acc, v);
            }
            want[o] = cm_format_to_double(cm_round_to_format(acc, fmt, rnd), fmt);
        }
        tx8_test_spm_load(SPM_D, fmt, got, nout);
        for (uint32_t o = 0; o < nout; ++o)
            if (got[o] != want[o]) {
                print_error("case %d (%s side %d op %d %s %s %ux%u): out %u: got %.9g want %.9g\n", c,
                            outer_side ? "outer" : "inner", outer_side, op, tx8_format_name(fmt), tx8_rnd_name(rnd),
                            rows, cols, o, got[o], want[o]);
                fail();
            }
        ++g_random_cases;
    }
    free(x);
}

static int ref_cmp(CT_OPCODE op, double a, double b) {
    switch (op) {
    case CT_OP_CMP_EQ: return a == b;
    case CT_OP_CMP_NE: return a != b;
    case CT_OP_CMP_LT: return a < b;
    case CT_OP_CMP_LE: return a <= b;
    case CT_OP_CMP_GT: return a > b;
    default: return a >= b;
    }
}

static void random_cmp_select(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 21);
    enum { MAXN = 5200 };
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    uint32_t *ab = malloc(MAXN * 4), *bb = malloc(MAXN * 4), *mb = malloc(MAXN * 4), *ob = malloc(MAXN * 4);
    for (int c = 0; c < 36; ++c) {
        const Data_Format fmt = kFloatFmts[c % 3];
        const uint32_t n = ct_rand_count(&r);
        for (uint32_t i = 0; i < n; ++i) { /* few distinct values so equality is common */
            a[i] = tx8_rng_int(&r, -3, 3) * 0.5;
            b[i] = tx8_rng_int(&r, -3, 3) * 0.5;
        }
        tx8_test_spm_store(SPM_A, fmt, a, n);
        tx8_test_spm_store(SPM_B, fmt, b, n);
        const CT_OPCODE op = (CT_OPCODE)(CT_OP_CMP_EQ + c % 6);
        CT_Param p;
        const int vs = (c / 6) % 2;
        const float s = 0.5f;
        if (vs) CGRATensor_RelationOp_V_S_cmp(&p, op, SPM_A, ct_float_bits(s), SPM_C, n, fmt);
        else CGRATensor_RelationOp_V_V_cmp(&p, op, SPM_A, SPM_B, SPM_C, n, fmt);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, tx8_format_bytes(fmt) * 8, 0));
        tx8_test_spm_load(SPM_C, fmt, got, n);
        for (uint32_t i = 0; i < n; ++i) assert_true(got[i] == (double)ref_cmp(op, a[i], vs ? s : b[i]));
        /* select with that mask, on random bit patterns (copied bit for bit) */
        const uint32_t mask_bits = fmt == Fmt_FP32 ? 0xFFFFFFFFu : 0xFFFFu;
        for (uint32_t i = 0; i < n; ++i) {
            ab[i] = (uint32_t)tx8_rng_next(&r) & mask_bits;
            bb[i] = (uint32_t)tx8_rng_next(&r) & mask_bits;
        }
        ct_store_bits(SPM_A, fmt, ab, n);
        ct_store_bits(SPM_B, fmt, bb, n);
        ct_load_bits(SPM_C, fmt, mb, n);
        CGRATensor_LogicOp_V_V_select(&p, SPM_C, SPM_A, SPM_B, SPM_D, n, fmt);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(n, tx8_format_bytes(fmt) * 8, 0));
        ct_load_bits(SPM_D, fmt, ob, n);
        for (uint32_t i = 0; i < n; ++i) assert_int_equal(ob[i], mb[i] ? ab[i] : bb[i]);
        ++g_random_cases;
    }
    free(a), free(b), free(got), free(ab), free(bb), free(mb), free(ob);
}

static void fixed_cases(void **state) {
    (void)state;
    /* [2][3] fp32: inner sums {6, 15}, outer max {4, 5, 6}; NaN propagates through max; -0 mask selects b */
    const double x[6] = {1, 2, 3, 4, 5, 6};
    double got[3];
    tx8_test_spm_store(SPM_A, Fmt_FP32, x, 6);
    CT_Param p;
    CGRATensor_ReduceOp_T_inner_sum(&p, SPM_A, SPM_D, 2, 3, RND_NEAREST_EVEN, Fmt_FP32);
    assert_int_equal(p.param.outer_num, 2);
    assert_int_equal(p.param.src_elem_num, 3);
    assert_int_equal(TsmExecute(&p), 17);
    tx8_test_spm_load(SPM_D, Fmt_FP32, got, 2);
    assert_true(got[0] == 6 && got[1] == 15);
    CGRATensor_ReduceOp_T_outer_max(&p, SPM_A, SPM_D, 2, 3, RND_NEAREST_EVEN, Fmt_FP32);
    assert_int_equal(TsmExecute(&p), 17);
    tx8_test_spm_load(SPM_D, Fmt_FP32, got, 3);
    assert_true(got[0] == 4 && got[1] == 5 && got[2] == 6);
    const uint32_t nan_row[3] = {0x3F800000u, 0x7FC00000u, 0x40000000u};
    ct_store_bits(SPM_A, Fmt_FP32, nan_row, 3);
    CGRATensor_ReduceOp_T_inner_max(&p, SPM_A, SPM_D, 1, 3, RND_NEAREST_EVEN, Fmt_FP32);
    assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
    tx8_test_spm_load(SPM_D, Fmt_FP32, got, 1);
    assert_true(isnan(got[0]));
    const uint32_t mask[2] = {0x8000u, 0x3C00u}, av[2] = {0x1111u, 0x2222u}, bv[2] = {0x3333u, 0x4444u};
    uint32_t out[2];
    ct_store_bits(SPM_A, Fmt_FP16, mask, 2);
    ct_store_bits(SPM_B, Fmt_FP16, av, 2);
    ct_store_bits(SPM_C, Fmt_FP16, bv, 2);
    CGRATensor_LogicOp_V_V_select(&p, SPM_A, SPM_B, SPM_C, SPM_A, 2, Fmt_FP16); /* in place over the mask */
    assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
    ct_load_bits(SPM_A, Fmt_FP16, out, 2);
    assert_int_equal(out[0], 0x3333u);
    assert_int_equal(out[1], 0x2222u);
}

/* CMP writing an int8 0/1 mask from every source format (fp32, fp16, bf16, tf32, int8, int32) in V_V, V_S, V_VuV and
 * V_VuV_LOOP, NaN mixed into the float sources (false except NE); then SELECT by that int8 mask of data in the source
 * format (random bit patterns, copied bit for bit). Cycles: the lanes of the wider format (the source's). */
static const Data_Format kAllFmts[6] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_TF32, Fmt_INT8, Fmt_INT32};

static void cmp_int8_mask_select(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 22);
    enum { MAXN = 5200 };
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    uint32_t *ab = malloc(MAXN * 4), *bb = malloc(MAXN * 4), *ob = malloc(MAXN * 4);
    static const char *const kForms[4] = {"V_V", "V_S", "V_VuV", "V_VuV_LOOP"};
    for (int c = 0; c < 144; ++c) {
        const Data_Format sf = kAllFmts[c % 6];
        const CT_OPCODE op = (CT_OPCODE)(CT_OP_CMP_EQ + (c / 6) % 6);
        const int form = c / 36, is_float = tx8_format_is_float(sf);
        /* n elements per pass, unit u (VuV), passes (VuV_LOOP) */
        uint32_t u = 0, passes = 1, n = ct_rand_count(&r);
        if (form == 2) u = (uint32_t)tx8_rng_int(&r, 1, 300), n = u * (uint32_t)tx8_rng_int(&r, 1, 5000 / u);
        if (form == 3) u = 64, n = 64u * (uint32_t)tx8_rng_int(&r, 1, 20), passes = (uint32_t)tx8_rng_int(&r, 1, 4);
        const uint32_t total = n * passes, nb = form == 0 ? total : form == 2 ? u : form == 3 ? 64 * passes : 0;
        for (uint32_t i = 0; i < total; ++i) a[i] = tx8_rng_int(&r, -3, 3) * (is_float ? 0.5 : 1.0);
        for (uint32_t i = 0; i < nb; ++i) b[i] = tx8_rng_int(&r, -3, 3) * (is_float ? 0.5 : 1.0);
        if (is_float) {
            for (uint32_t i = 0; i < total; i += 17) a[i] = NAN;
            for (uint32_t i = 5; i < nb; i += 23) b[i] = NAN;
        }
        tx8_test_spm_store(SPM_A, sf, a, total);
        tx8_test_spm_store(SPM_B, sf, b, nb);
        const double s = is_float ? 0.5 : 1.0;
        const uint32_t sbits = is_float ? ct_float_bits(0.5f) : 1u;
        CT_Param p;
        switch (form) {
        case 0: CGRATensor_RelationOp_V_V_cmp_to(&p, op, SPM_A, SPM_B, SPM_C, n, sf, Fmt_INT8); break;
        case 1: CGRATensor_RelationOp_V_S_cmp_to(&p, op, SPM_A, sbits, SPM_C, n, sf, Fmt_INT8); break;
        case 2: CGRATensor_RelationOp_V_VuV_cmp(&p, op, SPM_A, SPM_C, SPM_B, n, u, sf, Fmt_INT8); break;
        default:
            CGRATensor_RelationOp_V_VuV_cmp_loop(&p, op, SPM_A, SPM_C, SPM_B, n, 64, total, 64 * passes, sf, Fmt_INT8);
            break;
        }
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(total, tx8_format_bytes(sf) * 8, 0));
        tx8_test_spm_load(SPM_C, Fmt_INT8, got, total);
        for (uint32_t i = 0; i < total; ++i) {
            const uint32_t k = i % n, pass = i / n;
            const double rhs = form == 0 ? b[i] : form == 1 ? s : form == 2 ? b[k % u] : b[pass * 64 + k % 64];
            if (got[i] != (double)ref_cmp(op, a[i], rhs)) {
                print_error("case %d: %s %s %s -> int8, element %u: %g vs %g gave %g\n", c, tx8_ct_opcode_name(op),
                            kForms[form], tx8_format_name(sf), i, a[i], rhs, got[i]);
                fail();
            }
        }
        /* select data in sf by the int8 mask just written */
        const uint32_t eb = tx8_format_bytes(sf), bits = eb == 4 ? 0xFFFFFFFFu : (1u << (8 * eb)) - 1u;
        for (uint32_t i = 0; i < total; ++i) {
            ab[i] = (uint32_t)tx8_rng_next(&r) & bits;
            bb[i] = (uint32_t)tx8_rng_next(&r) & bits;
        }
        ct_store_bits(SPM_A, sf, ab, total);
        ct_store_bits(SPM_B, sf, bb, total);
        CGRATensor_LogicOp_V_V_select_mask(&p, SPM_C, SPM_A, SPM_B, SPM_D, total, Fmt_INT8, sf);
        assert_int_equal(TsmExecute(&p), ct_expected_cycles(total, eb * 8, 0));
        ct_load_bits(SPM_D, sf, ob, total);
        for (uint32_t i = 0; i < total; ++i) assert_int_equal(ob[i], got[i] != 0 ? ab[i] : bb[i]);
        ++g_random_cases;
    }
    /* an fp32 mask choosing fp16 data: -0 is false, NaN true; in place over a (same element size) */
    const uint32_t mask[4] = {0x80000000u, 0x7FC00000u, 0x3F800000u, 0x00000000u};
    const uint32_t av[4] = {0x1111u, 0x2222u, 0x3333u, 0x4444u}, bv[4] = {0x5555u, 0x6666u, 0x7777u, 0x8888u};
    uint32_t out[4];
    ct_store_bits(SPM_C, Fmt_FP32, mask, 4);
    ct_store_bits(SPM_A, Fmt_FP16, av, 4);
    ct_store_bits(SPM_B, Fmt_FP16, bv, 4);
    CT_Param p;
    CGRATensor_LogicOp_V_V_select_mask(&p, SPM_C, SPM_A, SPM_B, SPM_A, 4, Fmt_FP32, Fmt_FP16);
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(4, 32, 0));
    ct_load_bits(SPM_A, Fmt_FP16, out, 4);
    assert_int_equal(out[0], 0x5555u);
    assert_int_equal(out[1], 0x2222u);
    assert_int_equal(out[2], 0x3333u);
    assert_int_equal(out[3], 0x8888u);
    /* int8 -> int8 compare (a boolean XOR as NE) runs at int8's 256 lanes, in place over src0 */
    const double x8[6] = {0, 1, 0, 1, -128, 127}, y8[6] = {0, 0, 1, 1, -128, -128};
    tx8_test_spm_store(SPM_A, Fmt_INT8, x8, 6);
    tx8_test_spm_store(SPM_B, Fmt_INT8, y8, 6);
    CGRATensor_RelationOp_V_V_cmp(&p, CT_OP_CMP_NE, SPM_A, SPM_B, SPM_A, 6, Fmt_INT8);
    assert_int_equal(TsmExecute(&p), ct_expected_cycles(6, 8, 0));
    tx8_test_spm_load(SPM_A, Fmt_INT8, got, 6);
    for (int i = 0; i < 6; ++i) assert_true(got[i] == (x8[i] != y8[i] ? 1.0 : 0.0));
    free(a), free(b), free(got), free(ab), free(bb), free(ob);
}

static void rejects(void **state) {
    (void)state;
    CT_Param p;
    CGRATensor_ReduceOp_T_inner_sum(&p, SPM_A, SPM_D, 0, 8, RND_NEAREST_EVEN, Fmt_FP32);
    ct_expect_reject(&p, "CT reduce_sum REDUCE_INNER: outer_num = 0, must be > 0", SPM_D, 32);
    CGRATensor_ReduceOp_T_outer_min(&p, SPM_A, SPM_A + 8, 4, 8, RND_NEAREST_EVEN, Fmt_FP32);
    ct_expect_reject(&p, "CT reduce_min REDUCE_OUTER: dst_addr range [0x8, 0x28) overlaps src0_addr", SPM_A + 8, 32);
    CGRATensor_ReduceOp_T_outer_min(&p, SPM_A, SPM_D, 100000, 100000, RND_NEAREST_EVEN, Fmt_FP32);
    ct_expect_reject(&p, "CT reduce_min REDUCE_OUTER: src0_addr = 0x0 + 40000000000 bytes is outside SPM", SPM_D, 64);
    CGRATensor_RelationOp_V_V_cmp(&p, CT_OP_ADD, SPM_A, SPM_B, SPM_D, 8, Fmt_FP32);
    ct_expect_reject(&p, "CT add V_V: function = CMP, but opcode add belongs to function ARITH", SPM_D, 32);
    CGRATensor_RelationOp_V_S_cmp(&p, (CT_OPCODE)200, SPM_A, 0, SPM_D, 8, Fmt_FP32);
    ct_expect_reject(&p, "CT: opcode = 200 is not a CT_OPCODE", SPM_D, 32);
    CGRATensor_LogicOp_V_V_select(&p, SPM_A, SPM_B, 0x2ffffe, SPM_D, 8, Fmt_BF16);
    ct_expect_reject(&p, "CT select V_V: src2_addr = 0x2ffffe + 16 bytes is outside SPM", SPM_D, 16);
    CGRATensor_LogicOp_V_V_select(&p, SPM_A, SPM_B, SPM_C, SPM_D, 8, Fmt_BF16);
    p.ctrl.format = CT_FMT_V_S;
    ct_expect_reject(&p, "CT select V_S: format = V_S is not valid for function SELECT (takes V_V)", SPM_D, 16);
    /* a compare writes its mask in src_fmt or int8, nothing else */
    CGRATensor_RelationOp_V_V_cmp_to(&p, CT_OP_CMP_LT, SPM_A, SPM_B, SPM_D, 8, Fmt_FP32, Fmt_FP16);
    ct_expect_reject(&p, "CT cmp_lt V_V: dst_fmt = fp16 differs from src_fmt = fp32 (only convert, select and a cmp "
                         "to an int8 mask change format)", SPM_D, 16);
    CGRATensor_RelationOp_V_S_cmp_to(&p, CT_OP_CMP_EQ, SPM_A, 0, SPM_D, 8, Fmt_INT8, Fmt_INT32);
    ct_expect_reject(&p, "CT cmp_eq V_S: dst_fmt = int32 differs from src_fmt = int8", SPM_D, 32);
    /* an int8 mask over its fp32 source, or fp32 data selected over its int8 mask: element sizes differ */
    CGRATensor_RelationOp_V_V_cmp_to(&p, CT_OP_CMP_GT, SPM_D, SPM_B, SPM_D, 8, Fmt_FP32, Fmt_INT8);
    ct_expect_reject(&p, "CT cmp_gt V_V: dst_addr range [0x180000, 0x180008) overlaps src0_addr", SPM_D, 32);
    CGRATensor_LogicOp_V_V_select_mask(&p, SPM_D, SPM_A, SPM_B, SPM_D, 8, Fmt_INT8, Fmt_FP32);
    ct_expect_reject(&p, "CT select V_V: dst_addr range [0x180000, 0x180020) overlaps src0_addr", SPM_D, 32);
    /* the data of a select is dst_fmt wide: src2 past the SPM end by fp32 elements, not int8 ones */
    CGRATensor_LogicOp_V_V_select_mask(&p, SPM_A, SPM_B, 0x2ffff0, SPM_D, 8, Fmt_INT8, Fmt_FP32);
    ct_expect_reject(&p, "CT select V_V: src2_addr = 0x2ffff0 + 32 bytes is outside SPM", SPM_D, 32);
    /* compare VuV forms follow ARITH's rules */
    CGRATensor_RelationOp_V_VuV_cmp_loop(&p, CT_OP_CMP_EQ, SPM_A, SPM_D, SPM_B, 64, 32, 128, 64, Fmt_FP32, Fmt_INT8);
    ct_expect_reject(&p, "CT cmp_eq V_VuV_LOOP: unit_elem_num = 32, must be 64", SPM_D, 128);
    CGRATensor_RelationOp_V_VuV_cmp(&p, CT_OP_CMP_EQ, SPM_A, SPM_D, SPM_B, 10, 4, Fmt_BF16, Fmt_INT8);
    ct_expect_reject(&p, "CT cmp_eq V_VuV: src_elem_num = 10 is not a multiple of unit_elem_num = 4", SPM_D, 16);
    CGRATensor_RelationOp_V_VuV_cmp(&p, CT_OP_CMP_EQ, SPM_A, SPM_D, SPM_D + 4, 16, 4, Fmt_FP16, Fmt_INT8);
    ct_expect_reject(&p, "CT cmp_eq V_VuV: dst_addr range [0x180000, 0x180010) overlaps src1_addr", SPM_D, 16);
    CGRATensor_RelationOp_V_V_cmp(&p, CT_OP_CMP_EQ, SPM_A, SPM_B, SPM_D, 8, Fmt_FP32);
    p.ctrl.format = CT_FMT_REDUCE_INNER;
    ct_expect_reject(&p, "format = REDUCE_INNER is not valid for function CMP (takes V_V, V_S, V_VuV or V_VuV_LOOP)",
                     SPM_D, 32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_reduce, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cmp_select, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cmp_int8_mask_select, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(rejects, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_ct_reduce_select: %d random cases ran\n", g_random_cases);
    return failed;
}

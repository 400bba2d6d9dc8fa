/*
 * op_add / op_mul / op_relu on the CT: random shapes (dim 2..4) in every layout and float format, data packed
 * into the layout image, results unpacked and compared with a scalar reference; cycles equal one V_V instruction
 * over the whole image (documented formula); argument faults with their messages; outputs untouched on a fault.
 */
#include "ct_test_common.h"
#include "tx8/layout.h"
#include "tx8/ops.h"

static int g_random_cases;

typedef struct tensor_buf {
    L_SHAPE shape;
    TSR tsr;
} tensor_buf;

static void make_tensor(tensor_buf *t, Data_Format fmt, uint64_t addr, const int32_t *shape, int32_t dim) {
    assert_int_equal(tx8_lshape_init(&t->shape, shape, dim), 0);
    t->tsr.format = fmt;
    t->tsr.addr = addr;
    t->tsr.shape = &t->shape;
}

/* Packs compact values (already fmt-representable) into the layout image at addr. */
static void put_tensor(const tx8_layout *l, uint64_t addr, const double *vals, size_t n) {
    uint8_t *compact = malloc(n * l->elem_bytes + 1), *image = malloc(l->total_bytes + 1);
    for (size_t i = 0; i < n; ++i) cm_store_element(compact + i * l->elem_bytes, l->fmt, vals[i], RND_NEAREST_EVEN);
    tx8_layout_pack(l, compact, image);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    free(compact), free(image);
}

static void get_tensor(const tx8_layout *l, uint64_t addr, double *vals, size_t n) {
    uint8_t *compact = malloc(n * l->elem_bytes + 1), *image = malloc(l->total_bytes + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    tx8_layout_unpack(l, image, compact);
    for (size_t i = 0; i < n; ++i) vals[i] = cm_load_element(compact + i * l->elem_bytes, l->fmt);
    free(compact), free(image);
}

static void random_ops(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 40);
    enum { MAXN = 6000 };
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double));
    double *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    char what[160];
    for (int c = 0; c < 48; ++c) {
        const int op = c % 3; /* add, mul, relu */
        const LAYOUT_MODE mode = (LAYOUT_MODE)((c / 3) % LAYOUT_COUNT);
        const Data_Format fmt = kFloatFmts[(c / 12) % 3];
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
        } while (n > 3000);
        tx8_layout l;
        assert_int_equal(tx8_layout_init(&l, mode, fmt, shape, dim, tx8_hw_batch_align_bytes(tx8_hal_config())), 0);
        tensor_buf ta, tb, to;
        make_tensor(&ta, fmt, SPM_A, shape, dim);
        make_tensor(&tb, fmt, SPM_B, shape, dim);
        make_tensor(&to, fmt, c % 4 == 0 ? SPM_A : SPM_D, shape, dim); /* every 4th case in place over a */
        ct_rand_vals(&r, fmt, a, n, -5, 5);
        ct_rand_vals(&r, fmt, b, n, -5, 5);
        put_tensor(&l, SPM_A, a, n);
        put_tensor(&l, SPM_B, b, n);
        ELTWISE_PARAM prm = {mode, rnd};
        const uint64_t cyc = op == 0 ? op_add(&prm, &ta.tsr, &tb.tsr, &to.tsr)
                           : op == 1 ? op_mul(&prm, &ta.tsr, &tb.tsr, &to.tsr)
                                     : op_relu(&prm, &ta.tsr, &to.tsr);
        /* one instruction over the whole image (padding included) */
        assert_int_equal(cyc, ct_expected_cycles(l.total_bytes / l.elem_bytes, l.elem_bytes * 8, 0));
        assert_int_equal(tx8_test_faults()->count, 0);
        get_tensor(&l, to.tsr.addr, got, n);
        for (size_t i = 0; i < n; ++i) {
            const double exact = op == 0 ? a[i] + b[i] : op == 1 ? a[i] * b[i] : (a[i] > 0 ? a[i] : 0);
            want[i] = cm_format_to_double(cm_round_to_format(exact, fmt, rnd), fmt); /* exact in double */
        }
        snprintf(what, sizeof what, "case %d: op %d %s %s %s dim %d n=%zu", c, op, tx8_layout_name(mode),
                 tx8_format_name(fmt), tx8_rnd_name(rnd), dim, n);
        tx8_test_assert_close(got, want, n, 0.0, 0.0, what);
        ++g_random_cases;
    }
    free(a), free(b), free(got), free(want);
}

static void fixed_cycles(void **state) {
    (void)state;
    /* fp16 1x2x2x131 in Cx: 131 = 2*64 + 3 -> [2][4][64] + [4][4] = 528 elements -> 16 + ceil(528/128) = 21 */
    const int32_t shape[4] = {1, 2, 2, 131};
    tensor_buf ta, tb, to;
    make_tensor(&ta, Fmt_FP16, SPM_A, shape, 4);
    make_tensor(&tb, Fmt_FP16, SPM_B, shape, 4);
    make_tensor(&to, Fmt_FP16, SPM_D, shape, 4);
    ELTWISE_PARAM prm = {LAYOUT_CX, RND_NEAREST_EVEN};
    assert_int_equal(op_add(&prm, &ta.tsr, &tb.tsr, &to.tsr), 21);
    prm.layout = LAYOUT_TENSOR; /* compact: 524 elements -> 16 + 5 */
    assert_int_equal(op_relu(&prm, &ta.tsr, &to.tsr), 21);
    assert_int_equal(tx8_test_faults()->count, 0);
}

static void faults(void **state) {
    (void)state;
    const int32_t s4[4] = {1, 2, 3, 8}, s4b[4] = {1, 2, 4, 8}, s5[5] = {1, 1, 2, 3, 8}, sn2[4] = {2, 2, 3, 8};
    tensor_buf ta, tb, to, t5, tbad, t8;
    make_tensor(&ta, Fmt_FP32, SPM_A, s4, 4);
    make_tensor(&tb, Fmt_BF16, SPM_B, s4, 4);
    make_tensor(&to, Fmt_FP32, SPM_D, s4, 4);
    make_tensor(&t5, Fmt_FP32, SPM_B, s5, 5);
    make_tensor(&tbad, Fmt_FP32, SPM_B, s4b, 4);
    make_tensor(&t8, Fmt_INT8, SPM_B, s4, 4);
    ELTWISE_PARAM prm = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    struct { uint64_t (*run)(ELTWISE_PARAM *, TSR *, TSR *, TSR *); ELTWISE_PARAM *p; TSR *a, *b; const char *msg; } cases[] = {
        {op_add, &prm, &ta.tsr, &tb.tsr, "op_add: b->format = bf16, a->format = fp32; they must match"},
        {op_mul, &prm, &ta.tsr, &t5.tsr, "op_mul: b->shape->dim = 5, must be 2..4"},
        {op_add, &prm, &ta.tsr, &tbad.tsr, "op_add: b->shape->shape_real[2] = 4, a->shape->shape_real[2] = 3; shapes must match"},
        {op_add, &prm, &ta.tsr, &t8.tsr, "op_add: b->format = int8, must be fp32, fp16 or bf16"},
        {op_mul, &prm, &ta.tsr, NULL, "op_mul: b is NULL"},
        {op_mul, NULL, &ta.tsr, &ta.tsr, "op_mul: param is NULL"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ct_fill_pattern(SPM_D, 256);
        assert_true(cases[k].run(cases[k].p, cases[k].a, cases[k].b, &to.tsr) == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        ct_assert_pattern(SPM_D, 256);
    }
    /* layout errors: Cx with N = 2, and a bad layout value */
    tensor_buf an2, on2;
    make_tensor(&an2, Fmt_FP32, SPM_A, sn2, 4);
    make_tensor(&on2, Fmt_FP32, SPM_D, sn2, 4);
    ELTWISE_PARAM cx = {LAYOUT_CX, RND_NEAREST_EVEN};
    ct_fill_pattern(SPM_D, 256);
    assert_true(op_relu(&cx, &an2.tsr, &on2.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_relu: in->shape_real is not valid in layout");
    ELTWISE_PARAM badl = {(LAYOUT_MODE)9, RND_NEAREST_EVEN};
    assert_true(op_relu(&badl, &ta.tsr, &to.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_relu: param->layout = 9 is not a LAYOUT_MODE");
    ct_assert_pattern(SPM_D, 256);
    /* an output beyond SPM is caught by the engine: the op fails, nothing is written */
    tensor_buf far;
    make_tensor(&far, Fmt_FP32, tx8_hal_config()->spm_bytes - 64, s4, 4);
    assert_true(op_add(&prm, &ta.tsr, &ta.tsr, &far.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("CT add V_V: dst_addr = 0x2fffc0 + 192 bytes is outside SPM");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_ops, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_cycles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_eltwise: %d random cases ran\n", g_random_cases);
    return failed;
}

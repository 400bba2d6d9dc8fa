/*
 * The elementwise kernels on the CT (op_add, op_sub, op_mul, op_div, op_max, op_min, op_pow, op_relu, op_abs, op_neg,
 * op_sqrt, op_reciprocal, op_exp; op_leaky_relu, op_clip, op_hard_sigmoid; op_cast): random shapes (dim 2..4) in
 * every layout, float format and rounding mode, data packed into the layout image, results unpacked and compared
 * with a double reference (bit for bit where the op is correctly rounded); cycles equal one instruction over the
 * whole image, the CT's bound (documented formula); the binary ops' broadcasting; argument faults with their
 * messages; outputs untouched on a fault.
 */
#include "op_test_common.h"

static int g_random_cases;

typedef uint64_t (*binary_op)(ELTWISE_PARAM *, TSR *, TSR *, TSR *);
typedef uint64_t (*unary_op)(ELTWISE_PARAM *, TSR *, TSR *);

static double ref_add(double a, double b) { return a + b; }
static double ref_sub(double a, double b) { return a - b; }
static double ref_mul(double a, double b) { return a * b; }
static double ref_div(double a, double b) { return a / b; }
static double ref_max(double a, double b) { return a > b ? a : b; }
static double ref_min(double a, double b) { return a < b ? a : b; }
static double ref_relu(double a, double b) { (void)b; return a > 0 ? a : 0; }
static double ref_abs(double a, double b) { (void)b; return fabs(a); }
static double ref_neg(double a, double b) { (void)b; return -a; }
static double ref_sqrt(double a, double b) { (void)b; return sqrt(a); }
static double ref_reciprocal(double a, double b) { (void)b; return 1.0 / a; }
static double ref_exp(double a, double b) { (void)b; return exp(a); }

/* Each kernel with its double reference. `exact`: the double result rounded once is the kernel's result bit for bit
 * (a correctly rounded op: double rounding from 53 bits to 24 or fewer is innocuous for + - * / sqrt); otherwise
 * (exp) within one ulp. `multi_pass`: the CT's transcendental cost. Domains: sqrt on |x|, no zero divisors. */
static const struct eltwise_kernel {
    const char *name;
    binary_op binary;
    unary_op unary;
    double (*ref)(double, double);
    int exact, multi_pass;
} kKernels[] = {
    {"add", op_add, NULL, ref_add, 1, 0},          {"sub", op_sub, NULL, ref_sub, 1, 0},
    {"mul", op_mul, NULL, ref_mul, 1, 0},          {"div", op_div, NULL, ref_div, 1, 1},
    {"max", op_max, NULL, ref_max, 1, 0},          {"min", op_min, NULL, ref_min, 1, 0},
    {"relu", NULL, op_relu, ref_relu, 1, 0},       {"abs", NULL, op_abs, ref_abs, 1, 0},
    {"neg", NULL, op_neg, ref_neg, 1, 0},          {"sqrt", NULL, op_sqrt, ref_sqrt, 1, 1},
    {"reciprocal", NULL, op_reciprocal, ref_reciprocal, 1, 1}, {"exp", NULL, op_exp, ref_exp, 0, 1},
};
enum { KERNELS = sizeof kKernels / sizeof kKernels[0] };

static void random_ops(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 40);
    enum { MAXN = 6000 };
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double));
    double *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    char what[160];
    for (int c = 0; c < 8 * KERNELS; ++c) {
        const struct eltwise_kernel *k = &kKernels[c % KERNELS];
        const LAYOUT_MODE mode = (LAYOUT_MODE)((c / KERNELS) % LAYOUT_COUNT);
        const Data_Format fmt = kFloatFmts[(c / (2 * KERNELS)) % 3];
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
        const tx8_layout l = make_layout(mode, fmt, shape, dim);
        tensor_buf ta, tb, to;
        make_tensor(&ta, fmt, SPM_A, shape, dim);
        make_tensor(&tb, fmt, SPM_B, shape, dim);
        make_tensor(&to, fmt, c % 4 == 0 ? SPM_A : SPM_D, shape, dim); /* every 4th case in place over a */
        ct_rand_vals(&r, fmt, a, n, -5, 5);
        ct_rand_vals(&r, fmt, b, n, -5, 5);
        for (size_t i = 0; i < n; ++i) {
            if (k->ref == ref_sqrt) a[i] = fabs(a[i]);
            if ((k->ref == ref_div && b[i] == 0) || (k->ref == ref_reciprocal && a[i] == 0)) a[i] = b[i] = 1;
        }
        put_tensor(&l, SPM_A, a, n);
        put_tensor(&l, SPM_B, b, n);
        ELTWISE_PARAM prm = {mode, rnd};
        const uint64_t cyc = k->binary ? k->binary(&prm, &ta.tsr, &tb.tsr, &to.tsr) : k->unary(&prm, &ta.tsr, &to.tsr);
        /* one instruction over the whole image (padding included): the engine bound itself */
        assert_int_equal(cyc, ct_expected_cycles(l.total_bytes / l.elem_bytes, l.elem_bytes * 8, k->multi_pass));
        assert_int_equal(tx8_test_faults()->count, 0);
        get_tensor(&l, to.tsr.addr, got, n);
        for (size_t i = 0; i < n; ++i) {
            const double exact = k->ref(a[i], b[i]);
            want[i] = k->exact ? cm_format_to_double(cm_round_to_format(exact, fmt, rnd), fmt) : exact;
        }
        snprintf(what, sizeof what, "case %d: %s %s %s %s dim %d n=%zu", c, k->name, tx8_layout_name(mode),
                 tx8_format_name(fmt), tx8_rnd_name(rnd), dim, n);
        if (k->exact)
            tx8_test_assert_close(got, want, n, 0.0, 0.0, what);
        else /* one rounding of a result within an ulp of double: within one ulp, or a subnormal step near 0 */
            tx8_test_assert_close(got, want, n, 2 * tx8_test_eps(fmt), fmt_min_subnormal(fmt), what);
        ++g_random_cases;
    }
    free(a), free(b), free(got), free(want);
}

/* numpy broadcasting of the binary kernels in the compact layouts: random out shapes, each dim of a and b kept or
 * made 1 (never both where out is > 1), against a double reference over the broadcast indices. Cycles are never
 * below the CT bound (one instruction over out); the worst ratio to it is printed (many short runs cost a start-up
 * each). */
static double g_worst_ratio = 1.0;

static void broadcast_ops(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 41);
    enum { MAXN = 3000 };
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double));
    double *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    char what[200];
    for (int c = 0; c < 96; ++c) {
        const struct eltwise_kernel *k = &kKernels[c % 6]; /* the binary ones */
        const LAYOUT_MODE mode = c % 12 < 6 ? LAYOUT_NTENSOR : LAYOUT_TENSOR;
        const Data_Format fmt = kFloatFmts[(c / 12) % 3];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const int32_t dim = tx8_rng_int(&r, 2, 4);
        int32_t o[4], sa[4], sb[4];
        size_t n, na, nb;
        for (;;) {
            n = na = nb = 1;
            int a_bcast_only = 0;
            for (int32_t d = 0; d < dim; ++d) {
                o[d] = d == 0 && mode == LAYOUT_TENSOR ? 1 : tx8_rng_int(&r, 1, d == dim - 1 ? 40 : 5);
                const int pick = tx8_rng_int(&r, 0, 2); /* 0: both full, 1: a broadcasts, 2: b broadcasts */
                sa[d] = pick == 1 ? 1 : o[d];
                sb[d] = pick == 2 ? 1 : o[d];
                a_bcast_only |= pick == 1 && o[d] > 1;
                n *= (size_t)o[d], na *= (size_t)sa[d], nb *= (size_t)sb[d];
            }
            if (n <= 1500 && !(k->ref == ref_div && a_bcast_only)) break;
        }
        tensor_buf ta, tb, to;
        make_tensor(&ta, fmt, SPM_A, sa, dim);
        make_tensor(&tb, fmt, SPM_B, sb, dim);
        make_tensor(&to, fmt, SPM_D, o, dim);
        ct_rand_vals(&r, fmt, a, na, -5, 5);
        ct_rand_vals(&r, fmt, b, nb, -5, 5);
        if (k->ref == ref_div)
            for (size_t i = 0; i < nb; ++i) b[i] = b[i] == 0 ? 1 : b[i];
        const tx8_layout la = make_layout(mode, fmt, sa, dim), lb = make_layout(mode, fmt, sb, dim);
        const tx8_layout lo = make_layout(mode, fmt, o, dim);
        put_tensor(&la, SPM_A, a, na);
        put_tensor(&lb, SPM_B, b, nb);
        ELTWISE_PARAM prm = {mode, rnd};
        const uint64_t cyc = k->binary(&prm, &ta.tsr, &tb.tsr, &to.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        const uint64_t bound = ct_expected_cycles(n, lo.elem_bytes * 8, k->multi_pass);
        assert_true(cyc >= bound);
        if ((double)cyc / (double)bound > g_worst_ratio) g_worst_ratio = (double)cyc / (double)bound;
        get_tensor(&lo, SPM_D, got, n);
        for (size_t i = 0; i < n; ++i) {
            size_t rem = i, ia = 0, ib = 0, wa = 1, wb = 1;
            for (int32_t d = dim - 1; d >= 0; --d) {
                const size_t x = rem % (size_t)o[d];
                rem /= (size_t)o[d];
                ia += (sa[d] == 1 ? 0 : x) * wa, ib += (sb[d] == 1 ? 0 : x) * wb;
                wa *= (size_t)sa[d], wb *= (size_t)sb[d];
            }
            want[i] = cm_format_to_double(cm_round_to_format(k->ref(a[ia], b[ib]), fmt, rnd), fmt);
        }
        snprintf(what, sizeof what, "broadcast case %d: %s %s %s %s o=[%d,%d,%d,%d] a=[%d,%d,%d,%d] b=[%d,%d,%d,%d]",
                 c, k->name, tx8_layout_name(mode), tx8_format_name(fmt), tx8_rnd_name(rnd), o[0], dim > 1 ? o[1] : 0,
                 dim > 2 ? o[2] : 0, dim > 3 ? o[3] : 0, sa[0], sa[1], dim > 2 ? sa[2] : 0, dim > 3 ? sa[3] : 0,
                 sb[0], sb[1], dim > 2 ? sb[2] : 0, dim > 3 ? sb[3] : 0);
        tx8_test_assert_close(got, want, n, 0.0, 0.0, what);
        ++g_random_cases;
    }
    free(a), free(b), free(got), free(want);
}

/* The activations with scalar parameters: op_leaky_relu (one instruction), op_clip (two), op_hard_sigmoid (four),
 * bit-exact against the documented roundings; cycles = that many CT passes over the image. */
static void scalar_activations(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 42);
    enum { MAXN = 3000 };
    double *x = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    double *want = malloc(MAXN * sizeof(double));
    char what[160];
    for (int c = 0; c < 36; ++c) {
        const int op = c % 3; /* leaky_relu, clip, hard_sigmoid */
        const LAYOUT_MODE mode = (LAYOUT_MODE)((c / 3) % LAYOUT_COUNT);
        const Data_Format fmt = kFloatFmts[(c / 12) % 3];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const int32_t shape[3] = {1, tx8_rng_int(&r, 1, 6), tx8_rng_int(&r, 1, 300)};
        const size_t n = (size_t)shape[1] * (size_t)shape[2];
        const tx8_layout l = make_layout(mode, fmt, shape, 3);
        tensor_buf ti, to;
        make_tensor(&ti, fmt, SPM_A, shape, 3);
        make_tensor(&to, fmt, c % 4 == 0 ? SPM_A : SPM_D, shape, 3); /* every 4th case in place */
        ct_rand_vals(&r, fmt, x, n, -6, 6);
        put_tensor(&l, SPM_A, x, n);
        const float p0 = (float)(tx8_rng_int(&r, 1, 1000) / 1000.0);
        const float p1 = (float)(tx8_rng_int(&r, -3000, 3000) / 1000.0);
#define RND(v) cm_format_to_double(cm_round_to_format((v), fmt, rnd), fmt)
        uint64_t cyc, passes;
        if (op == 0) {
            LEAKY_RELU_PARAM prm = {mode, rnd, p0};
            cyc = op_leaky_relu(&prm, &ti.tsr, &to.tsr), passes = 1;
            for (size_t i = 0; i < n; ++i) want[i] = RND(x[i] > 0 ? x[i] : (double)p0 * x[i]);
        } else if (op == 1) {
            /* no lower bound, no upper bound, or min > max (all max) now and then */
            const int has_min = c % 9 != 1, has_max = c % 9 != 4;
            const float lo = p1 - (c % 9 == 7 ? -2.0f : 1.0f), hi = p1 + 1.5f;
            CLIP_PARAM prm = {mode, rnd, (uint32_t)has_min, (uint32_t)has_max, lo, hi};
            cyc = op_clip(&prm, &ti.tsr, &to.tsr), passes = 2;
            for (size_t i = 0; i < n; ++i) {
                const double low = has_min ? fmax(x[i], (double)lo) : x[i];
                want[i] = RND(has_max ? fmin(low, (double)hi) : low);
            }
        } else {
            HARD_SIGMOID_PARAM prm = {mode, rnd, p0, p1 / 6};
            cyc = op_hard_sigmoid(&prm, &ti.tsr, &to.tsr), passes = 4;
            for (size_t i = 0; i < n; ++i)
                want[i] = RND(fmax(0.0, fmin(1.0, RND(RND((double)p0 * x[i]) + (double)(p1 / 6)))));
        }
#undef RND
        assert_int_equal(tx8_test_faults()->count, 0);
        assert_int_equal(cyc, passes * ct_expected_cycles(l.total_bytes / l.elem_bytes, l.elem_bytes * 8, 0));
        get_tensor(&l, to.tsr.addr, got, n);
        snprintf(what, sizeof what, "scalar case %d: op %d %s %s %s n=%zu p0=%g p1=%g", c, op, tx8_layout_name(mode),
                 tx8_format_name(fmt), tx8_rnd_name(rnd), n, (double)p0, (double)p1);
        tx8_test_assert_close(got, want, n, 0.0, 0.0, what);
        ++g_random_cases;
    }
    const int32_t shape[3] = {1, 2, 8};
    tensor_buf ti, to;
    make_tensor(&ti, Fmt_FP32, SPM_A, shape, 3);
    make_tensor(&to, Fmt_FP32, SPM_D, shape, 3);
    ct_fill_pattern(SPM_D, 64);
    assert_true(op_clip(NULL, &ti.tsr, &to.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_clip: param is NULL");
    assert_true(op_leaky_relu(NULL, &ti.tsr, &to.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_leaky_relu: param is NULL");
    ct_assert_pattern(SPM_D, 64);
    free(x), free(got), free(want);
}

/* op_cast between fp32, fp16 and bf16 each way, compact layouts: values (with overflow for the narrower formats)
 * rounded once to nearest even to the output format, bit for bit; one convert at the CT bound. (The integer
 * formats and to_bool: test_op_int.c.) */
static void cast_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 43);
    enum { MAXN = 2000 };
    double *x = malloc(MAXN * sizeof(double)), *got = malloc(MAXN * sizeof(double));
    double *want = malloc(MAXN * sizeof(double));
    char what[160];
    for (int c = 0; c < 36; ++c) {
        const Data_Format from = kFloatFmts[c % 3], to = kFloatFmts[(c / 3) % 3];
        const LAYOUT_MODE mode = c % 2 ? LAYOUT_NTENSOR : LAYOUT_TENSOR;
        const RND_MODE rnd = RND_NEAREST_EVEN; /* op_cast's rounding between floats */
        const int32_t shape[3] = {1, tx8_rng_int(&r, 1, 5), tx8_rng_int(&r, 1, 300)};
        const size_t n = (size_t)shape[1] * (size_t)shape[2];
        const tx8_layout li = make_layout(mode, from, shape, 3), lo = make_layout(mode, to, shape, 3);
        tensor_buf ti, tout;
        make_tensor(&ti, from, SPM_A, shape, 3);
        make_tensor(&tout, to, SPM_D, shape, 3);
        ct_rand_vals(&r, from, x, n, c % 4 == 0 ? -1e5 : -3, c % 4 == 0 ? 1e5 : 3); /* fp16 overflows past 65504 */
        put_tensor(&li, SPM_A, x, n);
        CAST_PARAM prm = {mode, 0};
        const uint64_t cyc = op_cast(&prm, &ti.tsr, &tout.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        const uint32_t bits = (li.elem_bytes > lo.elem_bytes ? li.elem_bytes : lo.elem_bytes) * 8;
        assert_int_equal(cyc, ct_expected_cycles(n, bits, 0));
        get_tensor(&lo, SPM_D, got, n);
        for (size_t i = 0; i < n; ++i) want[i] = cm_format_to_double(cm_round_to_format(x[i], to, rnd), to);
        snprintf(what, sizeof what, "cast case %d: %s -> %s %s %s n=%zu", c, tx8_format_name(from), tx8_format_name(to),
                 tx8_layout_name(mode), tx8_rnd_name(rnd), n);
        tx8_test_assert_close(got, want, n, 0.0, 0.0, what);
        ++g_random_cases;
    }
    const int32_t shape[3] = {1, 2, 8};
    tensor_buf ta, tb;
    make_tensor(&ta, Fmt_FP32, SPM_A, shape, 3);
    make_tensor(&tb, Fmt_TF32, SPM_D, shape, 3);
    CAST_PARAM prm = {LAYOUT_TENSOR, 0}, cx = {LAYOUT_CX, 0};
    ct_fill_pattern(SPM_D, 64);
    assert_true(op_cast(&prm, &ta.tsr, &tb.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_cast: out->format = tf32, must be fp32, fp16, bf16, int8, uint8, int32 or int64");
    assert_true(op_cast(&cx, &ta.tsr, &ta.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_cast: param->layout = 2, must be Tensor or NTensor (compact)");
    ct_assert_pattern(SPM_D, 64);
    free(x), free(got), free(want);
}

/* A per-channel bias in channel-last order ([1,H,W,C] + [1,1,1,C]) is one V_VuV: exactly the CT bound. */
static void broadcast_bias_is_one_instruction(void **state) {
    (void)state;
    const int32_t o[4] = {1, 6, 7, 16}, c[4] = {1, 1, 1, 16};
    tensor_buf ta, tb, to;
    make_tensor(&ta, Fmt_FP32, SPM_A, o, 4);
    make_tensor(&tb, Fmt_FP32, SPM_B, c, 4);
    make_tensor(&to, Fmt_FP32, SPM_D, o, 4);
    ELTWISE_PARAM prm = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    assert_int_equal(op_add(&prm, &ta.tsr, &tb.tsr, &to.tsr), ct_expected_cycles(6 * 7 * 16, 32, 0));
    assert_int_equal(op_add(&prm, &tb.tsr, &ta.tsr, &to.tsr), ct_expected_cycles(6 * 7 * 16, 32, 0)); /* swapped */
    assert_int_equal(tx8_test_faults()->count, 0);
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
    make_tensor(&t8, Fmt_INT64, SPM_B, s4, 4);
    ELTWISE_PARAM prm = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    struct { uint64_t (*run)(ELTWISE_PARAM *, TSR *, TSR *, TSR *); ELTWISE_PARAM *p; TSR *a, *b; const char *msg; } cases[] = {
        {op_add, &prm, &ta.tsr, &tb.tsr, "op_add: b->format = bf16, a->format = fp32; they must match"},
        {op_mul, &prm, &ta.tsr, &t5.tsr, "op_mul: b->shape->dim = 5, must be 2..4"},
        {op_add, &prm, &ta.tsr, &tbad.tsr,
         "op_add: b->shape->shape_real[2] = 4, out->shape->shape_real[2] = 3; must be equal or 1 (broadcast)"},
        {op_add, &prm, &ta.tsr, &t8.tsr, "op_add: b->format = int64, must be fp32, fp16, bf16, int8 or int32"},
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
    /* broadcasting: what it does not do, named; nothing written */
    const int32_t row[4] = {1, 2, 3, 1}, one[4] = {1, 1, 1, 8};
    tensor_buf trow, tone, tout;
    make_tensor(&trow, Fmt_FP32, SPM_A, row, 4);
    make_tensor(&tone, Fmt_FP32, SPM_B, one, 4);
    make_tensor(&tout, Fmt_FP32, SPM_D, s4, 4);
    ct_fill_pattern(SPM_D, 256);
    assert_true(op_div(&prm, &trow.tsr, &ta.tsr, &tout.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_div: a broadcasts over 8 elements where b does not: not supported");
    assert_true(op_add(&cx, &trow.tsr, &ta.tsr, &tout.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_add: a and b broadcast to out, which needs a compact layout (Tensor or NTensor), not Cx");
    const int32_t col[4] = {1, 1, 3, 1};
    tensor_buf tcol;
    make_tensor(&tcol, Fmt_FP32, SPM_A, col, 4);
    assert_true(op_add(&prm, &tcol.tsr, &tone.tsr, &tout.tsr) == TX8_CYCLES_INVALID); /* out's 2 comes from nowhere */
    tx8_test_expect_fault("op_add: out->shape->shape_real[1] = 2, but a and b both have 1 there");
    ct_assert_pattern(SPM_D, 256);
    tensor_buf in_place;
    make_tensor(&in_place, Fmt_FP32, SPM_B, s4, 4); /* out over the broadcast b */
    assert_true(op_mul(&prm, &ta.tsr, &tone.tsr, &in_place.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_mul: out overlaps b, which broadcasts");
    tensor_buf far_out;
    make_tensor(&far_out, Fmt_FP32, tx8_hal_config()->spm_bytes - 64, s4, 4);
    assert_true(op_add(&prm, &ta.tsr, &tone.tsr, &far_out.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_add: out = 0x2fffc0 + 192 bytes is outside SPM");
}

/* op_pow: same shapes in every layout, and the exponent broadcast (numpy) in the compact ones, in every float format
 * and rounding mode; bit for bit against cm_pow rounded once (the CT's definition); negative bases with integer and
 * non-integer exponents, zeros, infinities and NaN mixed in. Cycles: one transcendental instruction over the image
 * for equal shapes; broadcasting never below the CT bound (its ratio joins the printed worst). */
static void pow_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 44);
    enum { MAXN = 3000 };
    static const double kBases[8] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, -2.0};
    double *a = malloc(MAXN * sizeof(double)), *b = malloc(MAXN * sizeof(double));
    double *got = malloc(MAXN * sizeof(double)), *want = malloc(MAXN * sizeof(double));
    char what[200];
    for (int c = 0; c < 48; ++c) {
        const int bcast = c >= 24;
        const LAYOUT_MODE mode = bcast ? (LAYOUT_MODE)(c % 2) : (LAYOUT_MODE)(c % LAYOUT_COUNT);
        const Data_Format fmt = kFloatFmts[(c / 4) % 3];
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1);
        const int32_t dim = tx8_rng_int(&r, 2, 4);
        int32_t o[4], sb[4];
        size_t n, nb;
        do {
            n = nb = 1;
            for (int32_t d = 0; d < dim; ++d) {
                o[d] = d == 0 && mode != LAYOUT_NTENSOR ? 1 : tx8_rng_int(&r, 1, d == dim - 1 ? 60 : 5);
                const int keep = !bcast || tx8_rng_int(&r, 0, 1); /* the exponent broadcasts over the others */
                sb[d] = keep ? o[d] : 1;
                n *= (size_t)o[d], nb *= (size_t)sb[d];
            }
        } while (n > 2000);
        tensor_buf ta, tb, to;
        make_tensor(&ta, fmt, SPM_A, o, dim);
        make_tensor(&tb, fmt, SPM_B, sb, dim);
        make_tensor(&to, fmt, SPM_D, o, dim);
        ct_rand_vals(&r, fmt, a, n, -4, 4);
        ct_rand_vals(&r, fmt, b, nb, -6, 6);
        for (size_t i = 0; i < nb; i += 2) b[i] = (double)tx8_rng_int(&r, -7, 7); /* integer exponents */
        for (size_t i = 0; i < n; i += 23) a[i] = kBases[(i / 23) % 8];
        const tx8_layout la = make_layout(mode, fmt, o, dim), lb = make_layout(mode, fmt, sb, dim);
        put_tensor(&la, SPM_A, a, n);
        put_tensor(&lb, SPM_B, b, nb);
        ELTWISE_PARAM prm = {mode, rnd};
        const uint64_t cyc = op_pow(&prm, &ta.tsr, &tb.tsr, &to.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        if (nb == n) {
            assert_int_equal(cyc, ct_expected_cycles(la.total_bytes / la.elem_bytes, la.elem_bytes * 8, 1));
        } else {
            const uint64_t bound = ct_expected_cycles(n, la.elem_bytes * 8, 1);
            assert_true(cyc >= bound);
            if ((double)cyc / (double)bound > g_worst_ratio) g_worst_ratio = (double)cyc / (double)bound;
        }
        get_tensor(&la, SPM_D, got, n);
        for (size_t i = 0; i < n; ++i) {
            size_t rem = i, ib = 0, wb = 1;
            for (int32_t d = dim - 1; d >= 0; --d) {
                const size_t x = rem % (size_t)o[d];
                rem /= (size_t)o[d];
                ib += (sb[d] == 1 ? 0 : x) * wb;
                wb *= (size_t)sb[d];
            }
            const uint32_t wbits = cm_round_to_format(cm_pow(a[i], b[ib]), fmt, rnd);
            if (cm_round_to_format(got[i], fmt, RND_NEAREST_EVEN) != wbits) {
                print_error("pow case %d (%s %s %s %s): element %zu: pow(%.9g, %.9g): got %.9g, want bits 0x%x\n", c,
                            tx8_layout_name(mode), tx8_format_name(fmt), tx8_rnd_name(rnd), bcast ? "bcast" : "same",
                            i, a[i], b[ib], got[i], wbits);
                fail();
            }
            want[i] = pow(a[i], b[ib]);
            if (fabs(want[i]) > 65504.0 && fmt == Fmt_FP16 && !isinf(want[i])) want[i] = got[i]; /* overflow */
        }
        snprintf(what, sizeof what, "pow case %d: %s %s %s dim %d n=%zu nb=%zu", c, tx8_layout_name(mode),
                 tx8_format_name(fmt), tx8_rnd_name(rnd), dim, n, nb);
        tx8_test_assert_close(got, want, n, 2 * tx8_test_eps(fmt) * 1.0001, fmt_min_subnormal(fmt), what);
        ++g_random_cases;
    }
    /* known values, fp32 V_V: C99 F.9.4.4 and exact powers */
    const double pa[16] = {-2, -2, -2, 0, -0.0, -0.0, 1, NAN, INFINITY, -INFINITY, 4, 10, 2, 2, -1, 9};
    const double pb[16] = {3, 2, 0.5, -1, -1, 3, NAN, 0, -1, 3, 0.5, 3, 200, -200, INFINITY, -0.5};
    const double pw[16] = {-8, 4, NAN, INFINITY, -INFINITY, -0.0, 1, 1, 0, -INFINITY, 2, 1000, INFINITY, 0, 1,
                           1.0 / 3};
    const int32_t s[2] = {1, 16};
    tensor_buf ta, tb, to;
    make_tensor(&ta, Fmt_FP32, SPM_A, s, 2);
    make_tensor(&tb, Fmt_FP32, SPM_B, s, 2);
    make_tensor(&to, Fmt_FP32, SPM_D, s, 2);
    tx8_test_spm_store(SPM_A, Fmt_FP32, pa, 16);
    tx8_test_spm_store(SPM_B, Fmt_FP32, pb, 16);
    ELTWISE_PARAM prm = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    assert_int_equal(op_pow(&prm, &ta.tsr, &tb.tsr, &to.tsr), ct_expected_cycles(16, 32, 1));
    uint32_t bits[16];
    ct_load_bits(SPM_D, Fmt_FP32, bits, 16);
    for (int i = 0; i < 16; ++i)
        if (bits[i] != cm_round_to_format(pw[i], Fmt_FP32, RND_NEAREST_EVEN)) {
            print_error("op_pow(%g, %g): got bits 0x%08x, want %g\n", pa[i], pb[i], bits[i], pw[i]);
            fail();
        }
    /* the base may not broadcast where the exponent does not; formats must match; nothing written */
    const int32_t full[4] = {1, 2, 3, 8}, row[4] = {1, 2, 3, 1};
    tensor_buf tfull, trow, tout, t8;
    make_tensor(&tfull, Fmt_FP32, SPM_B, full, 4);
    make_tensor(&trow, Fmt_FP32, SPM_A, row, 4);
    make_tensor(&tout, Fmt_FP32, SPM_D, full, 4);
    make_tensor(&t8, Fmt_INT8, SPM_B, full, 4);
    ct_fill_pattern(SPM_D, 256);
    assert_true(op_pow(&prm, &trow.tsr, &tfull.tsr, &tout.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_pow: a broadcasts over 8 elements where b does not: not supported");
    assert_true(op_pow(&prm, &tfull.tsr, &t8.tsr, &tout.tsr) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_pow: b->format = int8, a->format = fp32; they must match");
    ct_assert_pattern(SPM_D, 256);
    free(a), free(b), free(got), free(want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_ops, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(broadcast_ops, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(broadcast_bias_is_one_instruction, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(scalar_activations, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cast_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_cycles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(pow_cases, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_eltwise: %d random cases ran; broadcasting at most %.2fx the CT bound\n", g_random_cases,
           g_worst_ratio);
    return failed;
}

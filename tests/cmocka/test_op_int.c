/*
 * OpLib on integer and mixed formats: op_cast between every pair of fp32 / fp16 / bf16 / int8 / int32 / int64 and
 * to_bool; op_mod in both modes (Python's %, C's fmod) in every format with broadcasting; the integer forms of
 * op_add, op_sub, op_mul, op_div, op_max, op_min, op_pow, op_abs and op_neg. Random shapes (dim 2..4) against scalar
 * C references (integer arithmetic in int64 with saturation, libm's trunc / fmod, an integer-only rounding of int64
 * to the float formats); bad inputs with their messages and nothing written.
 * Cycles: every case prints its simulated cycles against the CT's bound, one instruction over the output (its layout
 * image: padding lanes are the layout's, not the kernel's) at the wider format's lanes with the op's passes, and
 * asserts the ratio is at most 2 (it is 1 but for the int64 to_bool, which needs a convert before the compare).
 */
#include "op_test_common.h"

static int g_cases;
static double g_worst_ratio;

static void report(const char *what, uint64_t cycles, uint64_t bound) {
    const double ratio = (double)cycles / (double)bound;
    printf("[ tx8 ] %s: %llu cycles vs CT bound %llu (%.2fx)\n", what, (unsigned long long)cycles,
           (unsigned long long)bound, ratio);
    if (ratio > g_worst_ratio) g_worst_ratio = ratio;
    assert_true(cycles != TX8_CYCLES_INVALID);
    assert_true(ratio <= 2.0);
    ++g_cases;
}

static int64_t fmt_lo(Data_Format f) { return f == Fmt_INT8 ? -128 : f == Fmt_INT32 ? INT32_MIN : INT64_MIN; }
static int64_t fmt_hi(Data_Format f) { return f == Fmt_INT8 ? 127 : f == Fmt_INT32 ? INT32_MAX : INT64_MAX; }
static int64_t clamp(int64_t v, Data_Format f) { return v > fmt_hi(f) ? fmt_hi(f) : v < fmt_lo(f) ? fmt_lo(f) : v; }

/* ---- values and their images ---- */

/* A random integer of fmt: small values, the whole range, the edges. */
static int64_t rand_int(tx8_rng *r, Data_Format fmt) {
    const int kind = tx8_rng_int(r, 0, 9);
    if (kind == 0) {
        const int64_t e[7] = {fmt_lo(fmt), fmt_hi(fmt), 0, 1, -1, fmt_lo(fmt) + 1, fmt_hi(fmt) - 1};
        return e[tx8_rng_int(r, 0, 6)];
    }
    if (kind < 4) return tx8_rng_int(r, -100, 100);
    if (fmt == Fmt_INT8) return tx8_rng_int(r, -128, 127);
    if (fmt == Fmt_INT32) return kind < 7 ? tx8_rng_int(r, -70000, 70000) : (int32_t)(uint32_t)tx8_rng_next(r);
    const int bits = tx8_rng_int(r, 1, 63); /* int64: every magnitude */
    const int64_t v = (int64_t)(tx8_rng_next(r) >> (64 - bits));
    return tx8_rng_int(r, 0, 1) ? -v : v;
}

/* A random value of a float format (exactly representable): fractions, values past every integer range, specials. */
static double rand_float(tx8_rng *r, Data_Format fmt) {
    static const double kOdd[] = {NAN, INFINITY, -INFINITY, -0.0, 0.5, -0.5, 2.5, -2.5, 127.5, -128.5, 127.9,
                                  2147483648.0, -2147483648.0, 2147483520.0, 9.3e18, -9.3e18, 9223372036854775808.0,
                                  -9223372036854775808.0, 1e30, 65504.0, -65504.0};
    const int kind = tx8_rng_int(r, 0, 11);
    double v;
    if (kind == 0) v = kOdd[tx8_rng_int(r, 0, (int)(sizeof kOdd / sizeof kOdd[0]) - 1)];
    else if (kind < 7) v = tx8_rng_uniform(r, -300, 300);
    else if (kind < 10) v = tx8_rng_uniform(r, -3e9, 3e9);
    else v = tx8_rng_uniform(r, -1e20, 1e20);
    return cm_format_to_double(cm_round_to_format(v, fmt, RND_NEAREST_EVEN), fmt);
}

static uint64_t get_raw(const uint8_t *p, uint32_t eb) {
    uint64_t v = 0;
    for (int k = (int)eb - 1; k >= 0; --k) v = v << 8 | p[k];
    return v;
}
static void put_raw(uint8_t *p, uint32_t eb, uint64_t v) {
    for (uint32_t k = 0; k < eb; ++k) p[k] = (uint8_t)(v >> (8 * k));
}
static int64_t sign_extend(uint64_t v, Data_Format f) {
    return f == Fmt_INT8 ? (int8_t)v : f == Fmt_INT32 ? (int32_t)v : (int64_t)v;
}

/* n values into l's image at SPM addr: integers from iv (in range), floats from fv (representable). */
static void put_vals(const tx8_layout *l, uint64_t addr, const int64_t *iv, const double *fv, size_t n) {
    const uint32_t eb = l->elem_bytes;
    uint8_t *compact = malloc(n * eb + 1), *image = malloc(l->total_bytes + 1);
    for (size_t i = 0; i < n; ++i) {
        if (tx8_format_is_float(l->fmt)) cm_store_element(compact + i * eb, l->fmt, fv[i], RND_NEAREST_EVEN);
        else put_raw(compact + i * eb, eb, (uint64_t)iv[i]);
    }
    tx8_layout_pack(l, compact, image);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    free(compact), free(image);
}

/* The raw bits of the n elements of l's image at SPM addr. */
static void get_bits(const tx8_layout *l, uint64_t addr, uint64_t *bits, size_t n) {
    const uint32_t eb = l->elem_bytes;
    uint8_t *compact = malloc(n * eb + 1), *image = malloc(l->total_bytes + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    tx8_layout_unpack(l, image, compact);
    for (size_t i = 0; i < n; ++i) bits[i] = get_raw(compact + i * eb, eb);
    free(compact), free(image);
}

/* A random shape of dim 2..4 with at most cap elements (N == 1 where the layout needs it). */
static int32_t rand_shape(tx8_rng *r, LAYOUT_MODE mode, int32_t *shape, size_t cap, size_t *n) {
    const int32_t dim = tx8_rng_int(r, 2, 4);
    do {
        *n = 1;
        for (int32_t d = 0; d < dim; ++d) {
            shape[d] = d == dim - 1 ? tx8_rng_int(r, 1, 200) : tx8_rng_int(r, 1, 6);
            if (d == 0 && (mode == LAYOUT_TENSOR || mode == LAYOUT_CX)) shape[d] = 1;
            *n *= (size_t)shape[d];
        }
    } while (*n > cap);
    return dim;
}

static const char *shape_str(const int32_t *s, int32_t dim, char *buf) {
    int at = 0;
    for (int32_t d = 0; d < dim; ++d) at += sprintf(buf + at, d ? "x%d" : "%d", s[d]);
    return buf;
}

/* ---- op_cast ---- */

static const Data_Format kCastFmts[6] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_INT8, Fmt_INT32, Fmt_INT64};

/* The bits op_cast must give for one element (ints: from iv, floats: from fv). */
static uint64_t ref_cast(Data_Format from, Data_Format to, int64_t iv, double fv) {
    const int ff = tx8_format_is_float(from);
    if (tx8_format_is_float(to)) /* the reference value is representable in `to`: encoding it rounds nothing */
        return ff ? cm_round_to_format(fv, to, RND_NEAREST_EVEN)
                  : cm_round_to_format(ct_ref_i64_to_float(iv, to, RND_NEAREST_EVEN), to, RND_NEAREST_EVEN);
    const int64_t v = ff ? ct_ref_to_int(fv, RND_ZERO, fmt_lo(to), fmt_hi(to)) : clamp(iv, to);
    const uint32_t eb = tx8_format_bytes(to);
    return eb == 8 ? (uint64_t)v : (uint64_t)v & ((1ull << (8 * eb)) - 1);
}

static void cast_every_pair(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 80);
    enum { MAXN = 3000 };
    int64_t *iv = malloc(MAXN * 8);
    double *fv = malloc(MAXN * sizeof(double));
    uint64_t *got = malloc(MAXN * 8);
    char what[200], sh[48];
    for (int c = 0; c < 6 * 6 * 2 + 6 * 2; ++c) {
        const int to_bool = c >= 72;
        const Data_Format from = kCastFmts[c % 6], to = to_bool ? Fmt_INT8 : kCastFmts[(c / 6) % 6];
        const LAYOUT_MODE mode = (c / 36) % 2 || (to_bool && c % 2) ? LAYOUT_NTENSOR : LAYOUT_TENSOR;
        int32_t shape[4];
        size_t n;
        const int32_t dim = rand_shape(&r, mode, shape, MAXN, &n);
        const tx8_layout li = make_layout(mode, from, shape, dim), lo = make_layout(mode, to, shape, dim);
        const int in_place = c % 5 == 0 && li.elem_bytes == lo.elem_bytes;
        tensor_buf ti, tout;
        make_tensor(&ti, from, SPM_A, shape, dim);
        make_tensor(&tout, to, in_place ? SPM_A : SPM_D, shape, dim);
        for (size_t i = 0; i < n; ++i) {
            if (tx8_format_is_float(from)) fv[i] = rand_float(&r, from);
            else iv[i] = rand_int(&r, from);
        }
        put_vals(&li, SPM_A, iv, fv, n);
        CAST_PARAM prm = {mode, (uint32_t)to_bool};
        const uint64_t cyc = op_cast(&prm, &ti.tsr, &tout.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        get_bits(&lo, tout.tsr.addr, got, n);
        for (size_t i = 0; i < n; ++i) {
            const uint64_t want = !to_bool ? ref_cast(from, to, iv[i], fv[i])
                                           : tx8_format_is_float(from) ? fv[i] != 0.0 : iv[i] != 0;
            if (got[i] != want) {
                print_error("cast case %d %s -> %s%s: element %zu: in %lld / %.17g: got 0x%llx want 0x%llx\n", c,
                            tx8_format_name(from), tx8_format_name(to), to_bool ? " (to_bool)" : "", i,
                            (long long)iv[i], fv[i], (unsigned long long)got[i], (unsigned long long)want);
                fail();
            }
        }
        const uint32_t bits = 8 * (li.elem_bytes > lo.elem_bytes ? li.elem_bytes : lo.elem_bytes);
        snprintf(what, sizeof what, "op_cast %-5s -> %-5s%s %-7s %s%s", tx8_format_name(from), tx8_format_name(to),
                 to_bool ? " to_bool" : "", tx8_layout_name(mode), shape_str(shape, dim, sh),
                 in_place ? " in place" : "");
        report(what, cyc, ct_expected_cycles(n, bits, 0));
    }
    free(iv), free(fv), free(got);
}

/* Named casts, by hand: saturation, truncation, NaN, int64 past 2^53. */
static void cast_named_values(void **state) {
    (void)state;
    const int32_t shape[2] = {1, 6};
    const struct { Data_Format from, to; double f[6]; int64_t i[6]; uint64_t want[6]; } c[] = {
        {Fmt_FP32, Fmt_INT8, {2.9, -2.9, 1e10, -1e10, NAN, -0.5}, {0}, {2, 0xFE, 127, 0x80, 0, 0}},
        {Fmt_FP32, Fmt_INT32, {2147483648.0, -2147483648.0, INFINITY, -INFINITY, 8388607.5, -7.99}, {0},
         {0x7FFFFFFF, 0x80000000, 0x7FFFFFFF, 0x80000000, 8388607, 0xFFFFFFF9}},
        {Fmt_BF16, Fmt_INT64, {9223372036854775808.0, -9223372036854775808.0, NAN, -1.5, 1e30, 3.0}, {0},
         {0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0, (uint64_t)-1, 0x7FFFFFFFFFFFFFFF, 3}},
        {Fmt_INT64, Fmt_FP32, {0}, {(1ll << 53) + 1, (1ll << 53) + (1ll << 29) + 1, INT64_MAX, INT64_MIN, -3, 0},
         {0x5A000000, 0x5A000001, 0x5F000000, 0xDF000000, 0xC0400000, 0}},
        {Fmt_INT64, Fmt_INT32, {0}, {INT64_MAX, INT64_MIN, (int64_t)INT32_MAX + 1, -5, 0, (int64_t)INT32_MIN},
         {0x7FFFFFFF, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFB, 0, 0x80000000}},
        {Fmt_INT32, Fmt_FP16, {0}, {65504, 65519, 65520, -70000, 2049, 4097},
         {0x7BFF, 0x7BFF, 0x7C00, 0xFC00, 0x6800, 0x6C00}},
        {Fmt_INT8, Fmt_INT64, {0}, {-128, 127, 0, -1, 5, -5}, {(uint64_t)-128, 127, 0, (uint64_t)-1, 5, (uint64_t)-5}},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; ++k) {
        const tx8_layout li = make_layout(LAYOUT_TENSOR, c[k].from, shape, 2);
        const tx8_layout lo = make_layout(LAYOUT_TENSOR, c[k].to, shape, 2);
        tensor_buf ti, tout;
        make_tensor(&ti, c[k].from, SPM_A, shape, 2);
        make_tensor(&tout, c[k].to, SPM_D, shape, 2);
        put_vals(&li, SPM_A, c[k].i, c[k].f, 6);
        CAST_PARAM prm = {LAYOUT_TENSOR, 0};
        assert_true(op_cast(&prm, &ti.tsr, &tout.tsr) != TX8_CYCLES_INVALID);
        uint64_t got[6];
        get_bits(&lo, SPM_D, got, 6);
        for (int i = 0; i < 6; ++i)
            if (got[i] != c[k].want[i]) {
                print_error("cast %s -> %s element %d: got 0x%llx want 0x%llx\n", tx8_format_name(c[k].from),
                            tx8_format_name(c[k].to), i, (unsigned long long)got[i], (unsigned long long)c[k].want[i]);
                fail();
            }
    }
}

static void cast_faults(void **state) {
    (void)state;
    const int32_t s[3] = {1, 2, 8}, s2[3] = {1, 2, 9}, sn[4] = {2, 2, 3, 8};
    tensor_buf f32, f16d, i8d, f32d, tf32d, f32b, i32o, i64, n2, n2o;
    make_tensor(&f32, Fmt_FP32, SPM_A, s, 3);
    make_tensor(&f16d, Fmt_FP16, SPM_D, s, 3);
    make_tensor(&i8d, Fmt_INT8, SPM_D, s, 3);
    make_tensor(&f32d, Fmt_FP32, SPM_D, s, 3);
    make_tensor(&tf32d, Fmt_TF32, SPM_D, s, 3);
    make_tensor(&f32b, Fmt_FP32, SPM_D, s2, 3);
    make_tensor(&i32o, Fmt_INT64, SPM_A + 16, s, 3); /* overlaps f32 partly */
    make_tensor(&i64, Fmt_INT64, SPM_A, s, 3);
    make_tensor(&n2, Fmt_FP32, SPM_A, sn, 4);
    make_tensor(&n2o, Fmt_INT8, SPM_D, sn, 4);
    CAST_PARAM ok = {LAYOUT_TENSOR, 0}, b2 = {LAYOUT_TENSOR, 2}, tb = {LAYOUT_TENSOR, 1}, cx = {LAYOUT_CX, 0};
    CAST_PARAM nt = {LAYOUT_TENSOR, 0};
    const struct { CAST_PARAM *p; TSR *in, *out; const char *msg; } k[] = {
        {NULL, &f32.tsr, &f16d.tsr, "op_cast: param is NULL"},
        {&b2, &f32.tsr, &i8d.tsr, "op_cast: param->to_bool = 2, must be 0 or 1"},
        {&tb, &f32.tsr, &f32d.tsr, "op_cast: out->format = fp32, must be int8"},
        {&cx, &f32.tsr, &f16d.tsr, "op_cast: param->layout = 2, must be Tensor or NTensor (compact)"},
        {&ok, &f32.tsr, &tf32d.tsr, "op_cast: out->format = tf32, must be fp32, fp16, bf16, int8, uint8, int32 or int64"},
        {&ok, &f32.tsr, &f32b.tsr, "op_cast: out->shape->shape_real[2] = 9, in->shape->shape_real[2] = 8"},
        {&ok, &f32.tsr, &i32o.tsr, "op_cast: out overlaps in"},
        {&ok, &i64.tsr, &i64.tsr, NULL}, /* the same buffer and element size: allowed */
        {&tb, &f32.tsr, &f32.tsr, "op_cast: out->format = fp32, must be int8"},
        {&ok, &f32.tsr, NULL, "op_cast: out is NULL"},
        {&nt, &n2.tsr, &n2o.tsr, "op_cast: in->shape_real is not valid in layout Tensor"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        ct_fill_pattern(SPM_D, 256);
        tx8_test_fault_reset();
        const uint64_t cyc = op_cast(k[i].p, k[i].in, k[i].out);
        if (!k[i].msg) {
            assert_true(cyc != TX8_CYCLES_INVALID);
            assert_int_equal(tx8_test_faults()->count, 0);
            continue;
        }
        assert_true(cyc == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(k[i].msg);
        ct_assert_pattern(SPM_D, 256);
    }
}

/* ---- integer eltwise kernels and op_mod ---- */

typedef uint64_t (*binary_op)(ELTWISE_PARAM *, TSR *, TSR *, TSR *);
typedef uint64_t (*unary_op)(ELTWISE_PARAM *, TSR *, TSR *);

enum { K_ADD, K_SUB, K_MUL, K_DIV, K_MAX, K_MIN, K_POW, K_ABS, K_NEG, K_MOD, K_FMOD };

/* The CT's integer result (tx8/isa.h, "Integers") in int64, saturated to fmt. pow multiplies step by step. */
static int64_t ref_int(int k, int64_t x, int64_t y, Data_Format fmt) {
    int64_t r;
    switch (k) {
    case K_ADD: r = x + y; break;
    case K_SUB: r = x - y; break;
    case K_MUL: r = x * y; break;
    case K_DIV: r = y == 0 ? 0 : x / y; break;
    case K_MAX: r = x > y ? x : y; break;
    case K_MIN: r = x < y ? x : y; break;
    case K_ABS: r = x < 0 ? -x : x; break;
    case K_NEG: r = -x; break;
    case K_POW:
        if (y < 0 || x == 0 || x == 1 || x == -1) { /* |x| <= 1, or 1 / x^|y| truncated */
            r = x == 1 ? 1 : x == -1 ? (y % 2 ? -1 : 1) : x == 0 && y == 0 ? 1 : 0;
        } else {
            r = 1;
            for (int64_t i = 0; i < y && r >= -(1ll << 40) && r <= (1ll << 40); ++i) r *= x;
            if (r > (1ll << 40) || r < -(1ll << 40)) r = (x < 0 && (y & 1)) ? INT64_MIN : INT64_MAX;
        }
        break;
    case K_MOD:
        r = y == 0 ? 0 : x % y;
        if (r != 0 && (r < 0) != (y < 0)) r += y;
        break;
    default: r = y == 0 ? 0 : x % y; break;
    }
    return clamp(r, fmt);
}

static const struct int_kernel {
    const char *name;
    int k;
    binary_op binary;
    unary_op unary;
    int commutative, multi_pass;
} kIntKernels[] = {
    {"add", K_ADD, op_add, NULL, 1, 0}, {"sub", K_SUB, op_sub, NULL, 0, 0}, {"mul", K_MUL, op_mul, NULL, 1, 0},
    {"div", K_DIV, op_div, NULL, 0, 1}, {"max", K_MAX, op_max, NULL, 1, 0}, {"min", K_MIN, op_min, NULL, 1, 0},
    {"pow", K_POW, op_pow, NULL, 0, 1}, {"abs", K_ABS, NULL, op_abs, 0, 0}, {"neg", K_NEG, NULL, op_neg, 0, 0},
};
enum { INT_KERNELS = sizeof kIntKernels / sizeof kIntKernels[0] };

/* b's (or a broadcast a's) shape for out's shape o: 0 the same; 1 all ones (a scalar); 2 the last dim only (per
 * channel); 3 the first dim 1 (a batch broadcast). Each is one CT instruction: V_V, or a V_VuV whose unit is the
 * broadcast operand (eltwise_common.h). */
static void bcast_shape(int pattern, const int32_t *o, int32_t dim, int32_t *s) {
    for (int32_t d = 0; d < dim; ++d)
        s[d] = pattern == 0 ? o[d] : pattern == 1 ? 1 : pattern == 2 ? (d == dim - 1 ? o[d] : 1) : (d ? o[d] : 1);
}

/* Index into an operand of shape s broadcast to o, for out's flat index i. */
static size_t bcast_index(size_t i, const int32_t *o, const int32_t *s, int32_t dim) {
    size_t rem = i, idx = 0, w = 1;
    for (int32_t d = dim - 1; d >= 0; --d) {
        const size_t x = rem % (size_t)o[d];
        rem /= (size_t)o[d];
        idx += (s[d] == 1 ? 0 : x) * w;
        w *= (size_t)s[d];
    }
    return idx;
}

/* Random operands for kernel k: pow gets small bases and exponents, shifts and divisors reach zero. */
static int64_t rand_operand(tx8_rng *r, int k, int right, Data_Format fmt) {
    if (k == K_POW) return right ? tx8_rng_int(r, -3, fmt == Fmt_INT8 ? 9 : 33) : tx8_rng_int(r, -6, 6);
    return rand_int(r, fmt);
}

static void int_kernels(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 81);
    enum { MAXN = 3000 };
    int64_t *a = malloc(MAXN * 8), *b = malloc(MAXN * 8);
    uint64_t *got = malloc(MAXN * 8);
    char what[220], so[48], sa_s[48], sb_s[48];
    for (int c = 0; c < 12 * INT_KERNELS; ++c) {
        const struct int_kernel *kk = &kIntKernels[c % INT_KERNELS];
        /* rounds 0..7 of each kernel: same shapes in every layout and both formats; 8..11: broadcasting in a compact
         * layout (the unary kernels: same shapes again) */
        const int round = c / INT_KERNELS, bcast = kk->binary && round >= 8;
        const Data_Format fmt = (round < 8 ? round / 4 : round / 2) % 2 ? Fmt_INT32 : Fmt_INT8;
        const LAYOUT_MODE mode = bcast ? (LAYOUT_MODE)(round % 2) : (LAYOUT_MODE)(round % LAYOUT_COUNT);
        const RND_MODE rnd = (RND_MODE)tx8_rng_int(&r, 0, RND_COUNT - 1); /* never matters: results are exact */
        int32_t o[4], sa[4], sb[4];
        size_t n;
        const int32_t dim = rand_shape(&r, mode, o, MAXN, &n);
        const int pattern = bcast ? tx8_rng_int(&r, 1, 3) : 0, a_side = bcast && kk->commutative && c % 3 == 0;
        bcast_shape(a_side ? pattern : 0, o, dim, sa);
        bcast_shape(a_side ? 0 : pattern, o, dim, sb);
        size_t na = 1, nb = 1;
        for (int32_t d = 0; d < dim; ++d) na *= (size_t)sa[d], nb *= (size_t)sb[d];
        const tx8_layout la = make_layout(mode, fmt, sa, dim), lb = make_layout(mode, fmt, sb, dim);
        const tx8_layout lo = make_layout(mode, fmt, o, dim);
        const int in_place = !bcast && c % 4 == 1;
        tensor_buf ta, tb, to;
        make_tensor(&ta, fmt, SPM_A, sa, dim);
        make_tensor(&tb, fmt, SPM_B, sb, dim);
        make_tensor(&to, fmt, in_place ? SPM_A : SPM_D, o, dim);
        for (size_t i = 0; i < na; ++i) a[i] = rand_operand(&r, kk->k, 0, fmt);
        for (size_t i = 0; i < nb; ++i) b[i] = rand_operand(&r, kk->k, 1, fmt);
        put_vals(&la, SPM_A, a, NULL, na);
        put_vals(&lb, SPM_B, b, NULL, nb);
        ELTWISE_PARAM prm = {mode, rnd};
        const uint64_t cyc =
            kk->binary ? kk->binary(&prm, &ta.tsr, &tb.tsr, &to.tsr) : kk->unary(&prm, &ta.tsr, &to.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        get_bits(&lo, to.tsr.addr, got, n);
        for (size_t i = 0; i < n; ++i) {
            const int64_t x = a[bcast_index(i, o, sa, dim)], y = kk->binary ? b[bcast_index(i, o, sb, dim)] : 0;
            const int64_t want = ref_int(kk->k, x, y, fmt), g = sign_extend(got[i], fmt);
            if (g != want) {
                print_error("int case %d: %s %s %s: element %zu: %lld, %lld -> %lld, want %lld\n", c, kk->name,
                            tx8_format_name(fmt), tx8_layout_name(mode), i, (long long)x, (long long)y, (long long)g,
                            (long long)want);
                fail();
            }
        }
        snprintf(what, sizeof what, "op_%-4s %-5s %-7s out %s a %s b %s%s", kk->name, tx8_format_name(fmt),
                 tx8_layout_name(mode), shape_str(o, dim, so), shape_str(sa, dim, sa_s),
                 kk->binary ? shape_str(sb, dim, sb_s) : "-", in_place ? " in place" : "");
        report(what, cyc, ct_expected_cycles(lo.total_bytes / lo.elem_bytes, lo.elem_bytes * 8, kk->multi_pass));
    }
    free(a), free(b), free(got);
}

/* Python's % / C's fmod of two doubles, as the CT defines them (tx8/isa.h, "MOD / FMOD"), from libm's exact fmod. */
static double ref_float_mod(double x, double y, int fmod_mode) {
    const double m = fmod(x, y);
    if (fmod_mode || m != m) return m;
    if (m == 0.0) return copysign(0.0, y);
    return (m < 0.0) != (y < 0.0) ? m + y : m;
}

static void mod_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() + 82);
    enum { MAXN = 3000 };
    static const Data_Format kFmts[5] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_INT8, Fmt_INT32};
    int64_t *ia = malloc(MAXN * 8), *ib = malloc(MAXN * 8);
    double *fa = malloc(MAXN * sizeof(double)), *fb = malloc(MAXN * sizeof(double));
    uint64_t *got = malloc(MAXN * 8);
    char what[220], so[48], sb_s[48];
    for (int c = 0; c < 60; ++c) {
        const int fm = c % 2, bcast = c >= 30;
        const Data_Format fmt = kFmts[(c / 2) % 5];
        const LAYOUT_MODE mode = bcast ? (LAYOUT_MODE)((c / 2) % 2) : (LAYOUT_MODE)((c / 2) % LAYOUT_COUNT);
        int32_t o[4], sb[4];
        size_t n, nb = 1;
        const int32_t dim = rand_shape(&r, mode, o, MAXN, &n);
        bcast_shape(bcast ? tx8_rng_int(&r, 1, 3) : 0, o, dim, sb);
        for (int32_t d = 0; d < dim; ++d) nb *= (size_t)sb[d];
        const int is_float = tx8_format_is_float(fmt);
        for (size_t i = 0; i < n; ++i) {
            ia[i] = rand_int(&r, fmt);
            fa[i] = i % 29 == 7 ? rand_float(&r, fmt) : cm_format_to_double(
                        cm_round_to_format(tx8_rng_uniform(&r, -1000, 1000), fmt, RND_NEAREST_EVEN), fmt);
        }
        for (size_t i = 0; i < nb; ++i) {
            ib[i] = i % 11 == 3 ? 0 : rand_int(&r, fmt);
            const double y = i % 11 == 3 ? 0.0 : i % 2 ? tx8_rng_uniform(&r, -50, 50) : tx8_rng_uniform(&r, -2, 2);
            fb[i] = i % 13 == 5 ? INFINITY : cm_format_to_double(cm_round_to_format(y, fmt, RND_NEAREST_EVEN), fmt);
        }
        const tx8_layout la = make_layout(mode, fmt, o, dim), lb = make_layout(mode, fmt, sb, dim);
        tensor_buf ta, tb, to;
        make_tensor(&ta, fmt, SPM_A, o, dim);
        make_tensor(&tb, fmt, SPM_B, sb, dim);
        make_tensor(&to, fmt, !bcast && c % 4 == 0 ? SPM_A : SPM_D, o, dim);
        put_vals(&la, SPM_A, ia, fa, n);
        put_vals(&lb, SPM_B, ib, fb, nb);
        MOD_PARAM prm = {mode, (uint32_t)fm};
        const uint64_t cyc = op_mod(&prm, &ta.tsr, &tb.tsr, &to.tsr);
        assert_int_equal(tx8_test_faults()->count, 0);
        get_bits(&la, to.tsr.addr, got, n);
        for (size_t i = 0; i < n; ++i) {
            const size_t j = bcast_index(i, o, sb, dim);
            const uint64_t want = is_float ? cm_round_to_format(ref_float_mod(fa[i], fb[j], fm), fmt, RND_NEAREST_EVEN)
                                           : (uint64_t)ref_int(fm ? K_FMOD : K_MOD, ia[i], ib[j], fmt) &
                                                 (fmt == Fmt_INT8 ? 0xFFu : 0xFFFFFFFFu);
            if (got[i] != want) {
                print_error("mod case %d (%s, %s %s): element %zu: %lld / %.9g mod %lld / %.9g: got 0x%llx want "
                            "0x%llx\n", c, fm ? "fmod" : "mod", tx8_format_name(fmt), tx8_layout_name(mode), i,
                            (long long)ia[i], fa[i], (long long)ib[j], fb[j], (unsigned long long)got[i],
                            (unsigned long long)want);
                fail();
            }
        }
        snprintf(what, sizeof what, "op_mod %-4s %-5s %-7s out %s b %s", fm ? "fmod" : "mod", tx8_format_name(fmt),
                 tx8_layout_name(mode), shape_str(o, dim, so), shape_str(sb, dim, sb_s));
        report(what, cyc, ct_expected_cycles(la.total_bytes / la.elem_bytes, la.elem_bytes * 8, 1));
    }
    free(ia), free(ib), free(fa), free(fb), free(got);
}

/* Bad inputs of the integer kernels and op_mod: the message, nothing written. */
static void int_faults(void **state) {
    (void)state;
    const int32_t full[4] = {1, 2, 3, 8}, row[4] = {1, 2, 3, 1};
    tensor_buf a8, row8, o8, b32, a64, o64, o32, rowf;
    make_tensor(&a8, Fmt_INT8, SPM_A, full, 4);
    make_tensor(&row8, Fmt_INT8, SPM_B, row, 4);
    make_tensor(&o8, Fmt_INT8, SPM_D, full, 4);
    make_tensor(&b32, Fmt_INT32, SPM_B, full, 4);
    make_tensor(&a64, Fmt_INT64, SPM_A, full, 4);
    make_tensor(&o64, Fmt_INT64, SPM_D, full, 4);
    make_tensor(&o32, Fmt_INT32, SPM_D, full, 4);
    make_tensor(&rowf, Fmt_FP32, SPM_B, row, 4);
    ELTWISE_PARAM prm = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    MOD_PARAM mp = {LAYOUT_TENSOR, 0}, mbad = {LAYOUT_TENSOR, 2};
    struct { int kind; TSR *a, *b, *out; const char *msg; } k[] = {
        {0, &row8.tsr, &a8.tsr, &o8.tsr, "op_sub: a broadcasts over 8 elements where b does not: not supported (an "
                                         "integer a - b cannot run as -(b - a)"},
        {1, &a64.tsr, &a64.tsr, &o64.tsr, "op_add: a->format = int64, must be fp32, fp16, bf16, int8 or int32"},
        {2, &a8.tsr, &b32.tsr, &o8.tsr, "op_mul: b->format = int32, a->format = int8; they must match"},
        {3, &row8.tsr, &a8.tsr, &o8.tsr, "op_div: a broadcasts over 8 elements where b does not"},
        {4, &a64.tsr, NULL, &o64.tsr, "op_abs: in->format = int64, must be fp32, fp16, bf16, int8 or int32"},
        {5, &a8.tsr, NULL, &o32.tsr, "op_neg: out->format = int32, in->format = int8; they must match"},
        {6, &a8.tsr, NULL, &o8.tsr, "op_relu: in->format = int8, must be fp32, fp16 or bf16"},
        {7, &row8.tsr, &a8.tsr, &o8.tsr, "op_mod: a broadcasts over 8 elements where b does not"},
        {8, &a8.tsr, &a8.tsr, &o8.tsr, "op_mod: param->fmod = 2, must be 0"},
        {7, &a64.tsr, &a64.tsr, &o64.tsr, "op_mod: a->format = int64, must be fp32, fp16, bf16, int8 or int32"},
        {7, &a8.tsr, &rowf.tsr, &o8.tsr, "op_mod: b->format = fp32, a->format = int8; they must match"},
        {9, &a8.tsr, &a8.tsr, &o8.tsr, "op_mod: param is NULL"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        ct_fill_pattern(SPM_D, 512);
        tx8_test_fault_reset();
        uint64_t cyc;
        switch (k[i].kind) {
        case 0: cyc = op_sub(&prm, k[i].a, k[i].b, k[i].out); break;
        case 1: cyc = op_add(&prm, k[i].a, k[i].b, k[i].out); break;
        case 2: cyc = op_mul(&prm, k[i].a, k[i].b, k[i].out); break;
        case 3: cyc = op_div(&prm, k[i].a, k[i].b, k[i].out); break;
        case 4: cyc = op_abs(&prm, k[i].a, k[i].out); break;
        case 5: cyc = op_neg(&prm, k[i].a, k[i].out); break;
        case 6: cyc = op_relu(&prm, k[i].a, k[i].out); break;
        case 7: cyc = op_mod(&mp, k[i].a, k[i].b, k[i].out); break;
        case 8: cyc = op_mod(&mbad, k[i].a, k[i].b, k[i].out); break;
        default: cyc = op_mod(NULL, k[i].a, k[i].b, k[i].out); break;
        }
        assert_true(cyc == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(k[i].msg);
        ct_assert_pattern(SPM_D, 512);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(cast_every_pair, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cast_named_values, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cast_faults, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(int_kernels, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(mod_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(int_faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_int: %d cases ran; cycles at most %.2fx the CT bound\n", g_cases, g_worst_ratio);
    return failed;
}

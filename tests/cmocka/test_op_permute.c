/*
 * op_permute (TDMA): fixed cases (NHWC <-> NCHW in fp32 / fp16 / bf16 / int8 / int32, a 2-D transpose, identity,
 * dims of extent 1, merged and folded dims, a 6-D permutation that needs the outer loop), seeded random cases over
 * dim 1..6, extents, formats and permutations, all checked byte for byte against a scalar index-maths reference,
 * with guard bytes around the output; cycles equal the HAL's count and, for the fixed cases, the documented TDMA
 * formula for the planned instructions; bad inputs fault with a clear message and write nothing.
 */
#include "op_test_common.h"
#include "tx8/lsu.h"

#define SPM_IN SPM_A
#define SPM_OUT SPM_D
#define GUARD 256u

static int g_random_cases;

static uint64_t elems_of(const int32_t *s, int32_t dim) {
    uint64_t n = 1;
    for (int32_t i = 0; i < dim; ++i) n *= (uint64_t)s[i];
    return n;
}

/* Plain index maths: for every output index (i_0..i_{dim-1}) row-major over out's shape, the input index j with
 * j[perm[k]] = i_k, row-major over in's shape S. Copies eb bytes per element. */
static void ref_permute(const uint8_t *in, uint8_t *out, const int32_t *S, int32_t dim, const int32_t *perm,
                        uint32_t eb) {
    int32_t O[MAX_SHAPE_DIM], i[MAX_SHAPE_DIM], j[MAX_SHAPE_DIM];
    for (int32_t k = 0; k < dim; ++k) O[k] = S[perm[k]];
    const uint64_t n = elems_of(S, dim);
    for (uint64_t o = 0; o < n; ++o) {
        uint64_t rest = o;
        for (int32_t k = dim - 1; k >= 0; --k) i[k] = (int32_t)(rest % (uint64_t)O[k]), rest /= (uint64_t)O[k];
        for (int32_t k = 0; k < dim; ++k) j[perm[k]] = i[k];
        uint64_t src = 0;
        for (int32_t d = 0; d < dim; ++d) src = src * (uint64_t)S[d] + (uint64_t)j[d];
        memcpy(out + o * eb, in + src * eb, eb);
    }
}

/* Runs one permutation of random bytes at in_addr -> out_addr and checks the result, the guard bytes around out,
 * that no fault was raised and that the returned cycles are what the HAL counted. Returns the cycles. */
static uint64_t run_case(tx8_rng *r, Data_Format fmt, const int32_t *S, int32_t dim, const int32_t *perm,
                         uint64_t in_addr, uint64_t out_addr, const char *what) {
    const uint32_t eb = tx8_format_bytes(fmt);
    const uint64_t bytes = elems_of(S, dim) * eb;
    int32_t O[MAX_SHAPE_DIM];
    for (int32_t k = 0; k < dim; ++k) O[k] = S[perm[k]];
    tensor_buf in, out;
    make_tensor(&in, fmt, in_addr, S, dim);
    make_tensor(&out, fmt, out_addr, O, dim);
    /* guards only where they stay clear of in */
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    const uint64_t glo = out_addr >= GUARD ? out_addr - GUARD : 0;
    const uint64_t ghi = out_addr + bytes + GUARD <= spm ? out_addr + bytes + GUARD : spm;
    const int guard = in_addr >= ghi || in_addr + bytes <= glo;
    if (guard) ct_fill_pattern(glo, (size_t)(ghi - glo));
    uint8_t *src = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    for (uint64_t b = 0; b < bytes; ++b) src[b] = (uint8_t)tx8_rng_next(r);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, in_addr, src, bytes), 0);
    ref_permute(src, want, S, dim, perm, eb);

    PERMUTE_PARAM p;
    memset(&p, 0, sizeof p);
    for (int32_t k = 0; k < dim; ++k) p.perm[k] = perm[k];
    const uint64_t before = tx8_hal_cycles();
    const uint64_t cyc = op_permute(&p, &in.tsr, &out.tsr);
    if (tx8_test_faults()->count) print_error("%s: unexpected fault: %s\n", what, tx8_test_faults()->last);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_true(cyc != TX8_CYCLES_INVALID);
    assert_int_equal(tx8_hal_cycles() - before, cyc);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, out_addr, got, bytes), 0);
    for (uint64_t b = 0; b < bytes; ++b)
        if (got[b] != want[b]) {
            print_error("%s: out byte %llu (element %llu): got 0x%02x want 0x%02x\n", what, (unsigned long long)b,
                        (unsigned long long)(b / eb), got[b], want[b]);
            fail();
        }
    if (guard) {
        ct_assert_pattern(glo, (size_t)(out_addr - glo));
        ct_assert_pattern(out_addr + bytes, (size_t)(ghi - out_addr - bytes));
    }
    free(src), free(want), free(got);
    return cyc;
}

/* The TDMA formula (cm_cycles.h) for n equal instructions moving `bytes` in all at the full rate (contiguous
 * rows): the least they can cost. */
static uint64_t tdma_cycles(uint64_t n, uint64_t bytes) {
    const tx8_hw_config *c = tx8_hal_config();
    const uint64_t per = bytes / n;
    return n * (c->tdma_startup_cycles + (per + c->tdma_bytes_per_cycle - 1) / c->tdma_bytes_per_cycle);
}

/* ---- fixed cases ---- */

typedef struct fixed_case {
    const char *what;
    Data_Format fmt;
    int32_t dim, shape[MAX_SHAPE_DIM], perm[MAX_SHAPE_DIM];
    uint32_t instrs; /* the planned TDMA instructions */
} fixed_case;

static void fixed_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 11);
    static const fixed_case cases[] = {
        {"NHWC->NCHW fp32 [1,2,3,4]", Fmt_FP32, 4, {1, 2, 3, 4}, {0, 3, 1, 2}, 1},
        {"NCHW->NHWC fp32 [1,4,2,3]", Fmt_FP32, 4, {1, 4, 2, 3}, {0, 2, 3, 1}, 1},
        {"NHWC->NCHW fp32 [2,5,7,3]", Fmt_FP32, 4, {2, 5, 7, 3}, {0, 3, 1, 2}, 1},
        {"NCHW->NHWC fp32 [2,3,5,7]", Fmt_FP32, 4, {2, 3, 5, 7}, {0, 2, 3, 1}, 1},
        {"NHWC->NCHW fp16 [2,4,6,10]", Fmt_FP16, 4, {2, 4, 6, 10}, {0, 3, 1, 2}, 1},
        {"NCHW->NHWC fp16 [2,10,4,6]", Fmt_FP16, 4, {2, 10, 4, 6}, {0, 2, 3, 1}, 1},
        {"NHWC->NCHW bf16 [1,3,3,65]", Fmt_BF16, 4, {1, 3, 3, 65}, {0, 3, 1, 2}, 1},
        {"NHWC->NCHW int8 [2,3,3,130]", Fmt_INT8, 4, {2, 3, 3, 130}, {0, 3, 1, 2}, 1},
        {"NCHW->NHWC int8 [2,130,3,3]", Fmt_INT8, 4, {2, 130, 3, 3}, {0, 2, 3, 1}, 1},
        {"NHWC->NCHW int32 [3,2,2,5]", Fmt_INT32, 4, {3, 2, 2, 5}, {0, 3, 1, 2}, 1},
        {"NHWC->NCHW 3-D fp32 [7,9,5]", Fmt_FP32, 3, {7, 9, 5}, {0, 2, 1}, 1},
        {"2-D transpose fp16 [5,3]", Fmt_FP16, 2, {5, 3}, {1, 0}, 1},
        {"2-D transpose fp32 [33,70]", Fmt_FP32, 2, {33, 70}, {1, 0}, 1},
        {"identity int8 [2,3,4,5]", Fmt_INT8, 4, {2, 3, 4, 5}, {0, 1, 2, 3}, 1},
        {"identity fp32 1-D [1000]", Fmt_FP32, 1, {1000}, {0}, 1},
        {"extent-1 dims fp32 [1,5,1,3,1]", Fmt_FP32, 5, {1, 5, 1, 3, 1}, {4, 3, 2, 0, 1}, 1},
        {"all extents 1 fp16 [1,1,1]", Fmt_FP16, 3, {1, 1, 1}, {2, 0, 1}, 1},
        {"extent-1 only moved fp32 [4,1,6]", Fmt_FP32, 3, {4, 1, 6}, {1, 0, 2}, 1},
        {"5-D, contiguous innermost folded [2,3,4,5,6]", Fmt_FP32, 5, {2, 3, 4, 5, 6}, {1, 0, 3, 2, 4}, 1},
        {"6-D, adjacent pairs merged [2,3,4,5,2,3]", Fmt_FP16, 6, {2, 3, 4, 5, 2, 3}, {4, 5, 2, 3, 0, 1}, 1},
        {"6-D reversed, outer loop [2,3,2,3,2,3]", Fmt_FP32, 6, {2, 3, 2, 3, 2, 3}, {5, 4, 3, 2, 1, 0}, 4},
        {"6-D, outer loop [3,2,4,2,5,2]", Fmt_INT8, 6, {3, 2, 4, 2, 5, 2}, {1, 3, 5, 0, 2, 4}, 4},
        {"5-D, outer loop [2,3,4,5,6]", Fmt_BF16, 5, {2, 3, 4, 5, 6}, {4, 2, 0, 3, 1}, 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        const fixed_case *c = &cases[k];
        const uint64_t bytes = elems_of(c->shape, c->dim) * tx8_format_bytes(c->fmt);
        const uint64_t cyc = run_case(&r, c->fmt, c->shape, c->dim, c->perm, SPM_IN + 64 * k, SPM_OUT, c->what);
        /* Between the full TDMA rate and one element per cycle (cm_cycles.h: strided runs cost whole cycles). */
        const uint64_t lo = tdma_cycles(c->instrs, bytes), hi = c->instrs * tx8_hal_config()->tdma_startup_cycles +
                                                                 elems_of(c->shape, c->dim);
        if (cyc < lo || cyc > hi)
            print_error("%s: %llu cycles, want %u instruction(s) within [%llu, %llu]\n", c->what,
                        (unsigned long long)cyc, c->instrs, (unsigned long long)lo, (unsigned long long)hi);
        assert_true(cyc >= lo && cyc <= hi);
    }
    /* in and out adjacent (not overlapping) is fine */
    const int32_t s[3] = {4, 5, 6}, pm[3] = {2, 0, 1};
    run_case(&r, Fmt_FP32, s, 3, pm, 0x1000, 0x1000 + 4 * 120, "adjacent after in");
    run_case(&r, Fmt_FP32, s, 3, pm, 0x1000 + 4 * 120, 0x1000, "adjacent before in");
}

/* NHWC -> NCHW and back, hand-indexed (an independent check of the reference), with the model's cycles. */
static void nhwc_nchw_by_hand(void **state) {
    (void)state;
    enum { N = 1, H = 56, W = 56, C = 64 };
    const int32_t nhwc[4] = {N, H, W, C}, nchw[4] = {N, C, H, W};
    const size_t n = (size_t)N * H * W * C;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    for (size_t i = 0; i < n; ++i) x[i] = (float)i * 0.5f - 1000.0f;
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, SPM_IN, x, n * sizeof *x), 0);
    tensor_buf a, b, c;
    make_tensor(&a, Fmt_FP32, SPM_IN, nhwc, 4);
    make_tensor(&b, Fmt_FP32, SPM_OUT, nchw, 4);
    make_tensor(&c, Fmt_FP32, SPM_IN, nhwc, 4);
    PERMUTE_PARAM to_nchw = {{0, 3, 1, 2}}, to_nhwc = {{0, 2, 3, 1}};
    const uint64_t cyc = op_permute(&to_nchw, &a.tsr, &b.tsr);
    printf("[ tx8 ] op_permute NHWC->NCHW fp32 [1,56,56,64]: %llu cycles (%zu bytes)\n", (unsigned long long)cyc,
           n * sizeof *x);
    /* C moves from innermost to outer: every element is its own run, 16 + 200704 cycles */
    assert_int_equal(cyc, tx8_hal_config()->tdma_startup_cycles + n);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, SPM_OUT, y, n * sizeof *y), 0);
    for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w)
            for (int ch = 0; ch < C; ++ch)
                if (memcmp(&y[((size_t)ch * H + h) * W + w], &x[((size_t)h * W + w) * C + ch], sizeof(float))) {
                    print_error("NCHW[%d][%d][%d] wrong\n", ch, h, w);
                    fail();
                }
    memset(z, 0, n * sizeof *z);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, SPM_IN, z, n * sizeof *z), 0);
    assert_int_equal(op_permute(&to_nhwc, &b.tsr, &c.tsr), cyc);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, SPM_IN, z, n * sizeof *z), 0);
    assert_memory_equal(z, x, n * sizeof *x);
    assert_int_equal(tx8_test_faults()->count, 0);
    free(x), free(y), free(z);
}

/* ---- seeded random cases ---- */

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x9E27u);
    static const Data_Format fmts[6] = {Fmt_INT8, Fmt_FP16, Fmt_BF16, Fmt_FP32, Fmt_INT32, Fmt_TF32};
    int per_dim[MAX_SHAPE_DIM + 1] = {0};
    for (int t = 0; t < 240; ++t) {
        const int32_t dim = tx8_rng_int(&r, 1, MAX_SHAPE_DIM);
        const Data_Format fmt = fmts[tx8_rng_int(&r, 0, 5)];
        const uint64_t cap = t % 10 == 0 ? 40000 : 4000; /* elements */
        int32_t S[MAX_SHAPE_DIM], perm[MAX_SHAPE_DIM];
        for (;;) {
            for (int32_t i = 0; i < dim; ++i) {
                switch (tx8_rng_int(&r, 0, 5)) {
                case 0: S[i] = 1; break;
                case 1: S[i] = tx8_rng_int(&r, 9, 140); break;
                default: S[i] = tx8_rng_int(&r, 2, 8); break;
                }
            }
            if (elems_of(S, dim) <= cap) break;
        }
        for (int32_t i = 0; i < dim; ++i) perm[i] = i;
        for (int32_t i = dim - 1; i > 0; --i) {
            const int32_t j = tx8_rng_int(&r, 0, i), s = perm[i];
            perm[i] = perm[j], perm[j] = s;
        }
        const uint32_t eb = tx8_format_bytes(fmt);
        const uint64_t in_addr = (uint64_t)tx8_rng_int(&r, 0, 0x20000) * eb;
        const uint64_t out_addr = 0x180000u + (uint64_t)tx8_rng_int(&r, 0, 0x20000) * eb;
        char what[200], b1[96], b2[96];
        int at = 0;
        b1[0] = b2[0] = '\0';
        for (int32_t i = 0; i < dim; ++i) at += snprintf(b1 + at, sizeof b1 - (size_t)at, "%s%d", i ? "," : "", S[i]);
        at = 0;
        for (int32_t i = 0; i < dim; ++i)
            at += snprintf(b2 + at, sizeof b2 - (size_t)at, "%s%d", i ? "," : "", perm[i]);
        snprintf(what, sizeof what, "random case %d: %s [%s] perm (%s)", t, tx8_format_name(fmt), b1, b2);
        const uint64_t cyc = run_case(&r, fmt, S, dim, perm, in_addr, out_addr, what);
        /* never cheaper than one instruction moving every byte */
        assert_true(cyc >= tdma_cycles(1, elems_of(S, dim) * eb));
        ++per_dim[dim];
        ++g_random_cases;
    }
    printf("[ tx8 ] permute: %d random cases (dim 1..6: %d %d %d %d %d %d)\n", g_random_cases, per_dim[1], per_dim[2],
           per_dim[3], per_dim[4], per_dim[5], per_dim[6]);
}

/* ---- bad inputs: clear message, no cycles, nothing written ---- */

static void faults(void **state) {
    (void)state;
    const int32_t s_in[4] = {2, 5, 7, 3}, s_out[4] = {2, 3, 5, 7}, s_wrong[4] = {2, 3, 7, 5}, s3[3] = {2, 3, 35};
    const int32_t s_huge[3] = {4096, 4096, 4096}, s_huge_o[3] = {4096, 4096, 4096};
    tensor_buf in, out, out16, out_wrong, out3, out_on_in, out_same, out_far, out_beyond, in_far, in_huge, out_huge;
    make_tensor(&in, Fmt_FP32, SPM_IN, s_in, 4); /* 840 bytes = 0x348 */
    make_tensor(&out, Fmt_FP32, SPM_OUT, s_out, 4);
    make_tensor(&out16, Fmt_FP16, SPM_OUT, s_out, 4);
    make_tensor(&out_wrong, Fmt_FP32, SPM_OUT, s_wrong, 4);
    make_tensor(&out3, Fmt_FP32, SPM_OUT, s3, 3);
    make_tensor(&out_on_in, Fmt_FP32, SPM_IN + 0x100, s_out, 4);
    make_tensor(&out_same, Fmt_FP32, SPM_IN, s_out, 4);
    make_tensor(&out_far, Fmt_FP32, 0x2fff00, s_out, 4);
    make_tensor(&out_beyond, Fmt_FP32, 0x400000, s_out, 4);
    make_tensor(&in_far, Fmt_FP32, 0x2fff9c, s_in, 4);
    make_tensor(&in_huge, Fmt_INT8, SPM_IN, s_huge, 3);
    make_tensor(&out_huge, Fmt_INT8, SPM_OUT, s_huge_o, 3);
    /* descriptors tx8_lshape_init would refuse */
    tensor_buf in_dim7 = in, in_dim0 = in, in_zero = in, in_badfmt = in, in_noshape = in;
    in_dim7.tsr.shape = &in_dim7.shape, in_dim7.shape.dim = 7;
    in_dim0.tsr.shape = &in_dim0.shape, in_dim0.shape.dim = 0;
    in_zero.tsr.shape = &in_zero.shape, in_zero.shape.shape_real[1] = 0;
    in_badfmt.tsr.format = (Data_Format)9;
    in_noshape.tsr.shape = NULL;
    tensor_buf out_badfmt = out;
    out_badfmt.tsr.shape = &out_badfmt.shape, out_badfmt.tsr.format = (Data_Format)9;
    const PERMUTE_PARAM ok = {{0, 3, 1, 2}}, dup = {{0, 3, 3, 2}}, big = {{0, 4, 1, 2}}, neg = {{-1, 3, 1, 2}};
    const PERMUTE_PARAM ident3 = {{0, 1, 2}};
    struct {
        const PERMUTE_PARAM *p;
        TSR *in, *out;
        const char *msg;
    } cases[] = {
        {NULL, &in.tsr, &out.tsr, "op_permute: param is NULL"},
        {&ok, NULL, &out.tsr, "op_permute: in (or its shape) is NULL"},
        {&ok, &in_noshape.tsr, &out.tsr, "op_permute: in (or its shape) is NULL"},
        {&ok, &in.tsr, NULL, "op_permute: out (or its shape) is NULL"},
        {&ok, &in_dim7.tsr, &out.tsr, "op_permute: in->shape->dim = 7, must be 1..6"},
        {&ok, &in_dim0.tsr, &out.tsr, "op_permute: in->shape->dim = 0, must be 1..6"},
        {&ok, &in.tsr, &out3.tsr, "op_permute: out->shape->dim = 3 differs from in->shape->dim = 4"},
        {&ok, &in_badfmt.tsr, &out.tsr, "op_permute: in->format = 9 is not a Data_Format"},
        {&ok, &in.tsr, &out16.tsr, "op_permute: out->format = fp16 differs from in->format = fp32"},
        {&ok, &in.tsr, &out_badfmt.tsr, "op_permute: out->format = invalid differs from in->format = fp32"},
        {&ok, &in_zero.tsr, &out.tsr,
         "op_permute: in->shape->shape_real = [2][0][7][3], every extent must be >= 1"},
        {&dup, &in.tsr, &out.tsr, "op_permute: param->perm = [0][3][3][2] is not a permutation of 0..3"},
        {&big, &in.tsr, &out.tsr, "op_permute: param->perm = [0][4][1][2] is not a permutation of 0..3"},
        {&neg, &in.tsr, &out.tsr, "op_permute: param->perm = [-1][3][1][2] is not a permutation of 0..3"},
        {&ok, &in.tsr, &out_wrong.tsr, "op_permute: out->shape->shape_real = [2][3][7][5], must be [2][3][5][7] "
                                       "(in [2][5][7][3] permuted by [0][3][1][2])"},
        {&ok, &in.tsr, &in.tsr, "op_permute: out->shape->shape_real = [2][5][7][3], must be [2][3][5][7]"},
        {&ok, &in.tsr, &out_on_in.tsr, "op_permute: out [0x100, 0x448) overlaps in [0x0, 0x348)"},
        {&ok, &in.tsr, &out_same.tsr, "op_permute: out [0x0, 0x348) overlaps in [0x0, 0x348)"},
        {&ok, &in.tsr, &out_far.tsr, "op_permute: out [0x2fff00, 0x300248) is outside SPM [0, 0x300000)"},
        {&ok, &in.tsr, &out_beyond.tsr, "op_permute: out [0x400000, 0x400348) is outside SPM [0, 0x300000)"},
        {&ok, &in_far.tsr, &out.tsr, "op_permute: in [0x2fff9c, 0x3002e4) is outside SPM [0, 0x300000)"},
        {&ident3, &in_huge.tsr, &out_huge.tsr, "op_permute: in at 0x0 holds more bytes than SPM [0, 0x300000)"},
    };
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        /* the output buffer (its part inside SPM) and the default out region carry a marker */
        const TSR *o = cases[k].out;
        const uint64_t oa = o ? o->addr : SPM_OUT;
        const size_t olen = oa < spm ? (size_t)(spm - oa < 1024 ? spm - oa : 1024) : 0;
        if (olen) ct_fill_pattern(oa, olen);
        ct_fill_pattern(SPM_OUT, 1024);
        const uint64_t before = tx8_hal_cycles();
        PERMUTE_PARAM prm;
        if (cases[k].p) prm = *cases[k].p;
        const uint64_t cyc = op_permute(cases[k].p ? &prm : NULL, cases[k].in, cases[k].out);
        assert_true(cyc == TX8_CYCLES_INVALID);
        tx8_test_expect_fault(cases[k].msg);
        assert_int_equal(tx8_hal_cycles(), before);
        if (olen) ct_assert_pattern(oa, olen);
        ct_assert_pattern(SPM_OUT, 1024);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(nhwc_nchw_by_hand, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_permute: %d random cases ran\n", g_random_cases);
    return failed;
}

/*
 * op_slice and op_pad (TDMA, and the CT for constant pads): fixed cases with their outputs written out by hand (a
 * 1-D reverse, a 2-D slice with step 2, each pad mode on a 3x4 image, constant pads of -0, +-inf, NaN and values
 * the format rounds, in fp32/fp16/bf16, with their bits written out) and a few larger ones whose cycles are printed
 * against their bound; seeded random cases over dim 1..6, extents, starts, steps (negative too), pads, modes,
 * element sizes 1/2/4 (int8, fp16, bf16, fp32; constant pads in the float formats only) and random pad values,
 * checked element by element against a scalar index-maths reference (the pad value rounded to the format with
 * cm_round_to_format, a NaN as the format's canonical NaN), with guard bytes around the output and out holding
 * random bytes beforehand; cycles equal the HAL's count and are at least the bound: every output byte once at the
 * full TDMA rate plus one start-up, or for a constant pad the CT fill (2 CT passes over out) plus one TDMA copy of
 * in's bytes. Bad inputs fault with a clear message, take no cycles and change no SPM byte.
 */
#include "op_test_common.h"
#include "tx8/lsu.h"

#define GUARD 64u

static int g_random_slices, g_random_pads;
static double g_worst_ratio = 1.0;

typedef struct slice_case {
    Data_Format fmt;
    int32_t dim, S[MAX_SHAPE_DIM], O[MAX_SHAPE_DIM], start[MAX_SHAPE_DIM], step[MAX_SHAPE_DIM];
    uint64_t in_addr, out_addr;
} slice_case;

typedef struct pad_case {
    Data_Format fmt;
    uint32_t mode;
    int32_t dim, S[MAX_SHAPE_DIM], begin[MAX_SHAPE_DIM], end[MAX_SHAPE_DIM];
    uint64_t in_addr, out_addr;
    float value; /* PAD_CONSTANT's value (passed in the other modes too: ignored) */
} pad_case;

static uint64_t elems_of(const int32_t *s, int32_t dim) {
    uint64_t n = 1;
    for (int32_t k = 0; k < dim; ++k) n *= (uint64_t)s[k];
    return n;
}

/* The multi-index i of row-major linear index o over shape s. */
static void unravel(uint64_t o, const int32_t *s, int32_t dim, int32_t *i) {
    for (int32_t k = dim - 1; k >= 0; --k) i[k] = (int32_t)(o % (uint64_t)s[k]), o /= (uint64_t)s[k];
}

/* The least cycles any TDMA copy writing `bytes` can take: one start-up, every byte at the full rate. */
static uint64_t tdma_bound(uint64_t bytes) {
    const tx8_hw_config *c = tx8_hal_config();
    return c->tdma_startup_cycles + (bytes + c->tdma_bytes_per_cycle - 1) / c->tdma_bytes_per_cycle;
}

/* The least cycles a constant pad can take: the CT fill, two V_S passes over out's elements (ct_expected_cycles,
 * the documented formula: a start-up each, lanes = ct_datapath_bits / element bits), then in's bytes copied by the
 * TDMA (tdma_bound). */
static uint64_t pad_constant_bound(uint64_t out_elems, uint64_t in_bytes, uint32_t eb) {
    return 2 * ct_expected_cycles(out_elems, eb * 8, 0) + tdma_bound(in_bytes);
}

static const char *mode_name(uint32_t mode) {
    return mode == PAD_CONSTANT ? "constant" : mode == PAD_EDGE ? "edge" : mode == PAD_REFLECT ? "reflect" : "?";
}

/* "a,b,c" into buf. */
static const char *dims_str(char *buf, size_t size, const int32_t *v, int32_t n) {
    size_t at = 0;
    buf[0] = '\0';
    for (int32_t k = 0; k < n && at < size; ++k) {
        const int w = snprintf(buf + at, size - at, "%s%d", k ? "," : "", (int)v[k]);
        if (w < 0) break;
        at += (size_t)w;
    }
    return buf;
}

/* ---- scalar references ---- */

static void ref_slice(const slice_case *c, const uint8_t *in, uint8_t *out) {
    const uint32_t eb = tx8_format_bytes(c->fmt);
    int32_t i[MAX_SHAPE_DIM];
    for (uint64_t o = 0, n = elems_of(c->O, c->dim); o < n; ++o) {
        unravel(o, c->O, c->dim, i);
        uint64_t src = 0;
        for (int32_t k = 0; k < c->dim; ++k)
            src = src * (uint64_t)c->S[k] + (uint64_t)(c->start[k] + i[k] * c->step[k]);
        memcpy(out + o * eb, in + src * eb, eb);
    }
}

/* The input index output index i reads along a dim of extent s padded by b before it; -1: the constant. */
static int32_t pad_source(uint32_t mode, int32_t i, int32_t b, int32_t s) {
    const int32_t j = i - b;
    if (j >= 0 && j < s) return j;
    if (mode == PAD_CONSTANT) return -1;
    if (mode == PAD_EDGE) return j < 0 ? 0 : s - 1;
    return j < 0 ? -j : 2 * (s - 1) - j; /* reflect: mirrored without repeating the edge */
}

static void pad_out_shape(const pad_case *c, int32_t *O) {
    for (int32_t k = 0; k < c->dim; ++k) O[k] = c->S[k] + c->begin[k] + c->end[k];
}

/* PAD_CONSTANT's value as the format's bytes (little-endian): rounded once to nearest even, a NaN as the canonical
 * NaN (what the CT stores: cmodel/src/numerics/round.c). */
static void pad_value_bytes(Data_Format fmt, float value, uint8_t *v) {
    const uint32_t bits = cm_round_to_format((double)value, fmt, RND_NEAREST_EVEN);
    for (uint32_t b = 0; b < tx8_format_bytes(fmt); ++b) v[b] = (uint8_t)(bits >> (8 * b));
}

static void ref_pad(const pad_case *c, const uint8_t *in, uint8_t *out) {
    const uint32_t eb = tx8_format_bytes(c->fmt);
    uint8_t value[4] = {0, 0, 0, 0};
    if (c->mode == PAD_CONSTANT) pad_value_bytes(c->fmt, c->value, value);
    int32_t O[MAX_SHAPE_DIM], i[MAX_SHAPE_DIM];
    pad_out_shape(c, O);
    for (uint64_t o = 0, n = elems_of(O, c->dim); o < n; ++o) {
        unravel(o, O, c->dim, i);
        uint64_t src = 0;
        int constant = 0;
        for (int32_t k = 0; k < c->dim; ++k) {
            const int32_t j = pad_source(c->mode, i[k], c->begin[k], c->S[k]);
            constant |= j < 0;
            src = src * (uint64_t)c->S[k] + (uint64_t)(j < 0 ? 0 : j);
        }
        memcpy(out + o * eb, constant ? value : in + src * eb, eb);
    }
}

/* ---- running one case ---- */

/* Guard bytes before and after out, marked; then checked by check_output. */
static void mark_guards(uint64_t out_addr, uint64_t bytes) {
    ct_fill_pattern(out_addr - GUARD, GUARD);
    ct_fill_pattern(out_addr + bytes, GUARD);
}

/* out read back and compared byte for byte (reporting the element), guards intact, no fault, the returned cycles
 * the HAL's count and at least `bound`. Returns out's bytes (malloc'd). */
static uint8_t *check_output(const char *what, uint32_t eb, uint64_t out_addr, const uint8_t *want, uint64_t bytes,
                             uint64_t cyc, uint64_t counted, uint64_t bound) {
    if (tx8_test_faults()->count) print_error("%s: unexpected fault: %s\n", what, tx8_test_faults()->last);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_true(cyc != TX8_CYCLES_INVALID);
    assert_int_equal(counted, cyc);
    uint8_t *got = malloc(bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, out_addr, got, bytes), 0);
    for (uint64_t b = 0; b < bytes; ++b)
        if (got[b] != want[b]) {
            print_error("%s: out byte %llu (element %llu): got 0x%02x want 0x%02x\n", what, (unsigned long long)b,
                        (unsigned long long)(b / eb), got[b], want[b]);
            fail();
        }
    ct_assert_pattern(out_addr - GUARD, GUARD);
    ct_assert_pattern(out_addr + bytes, GUARD);
    if (cyc < bound) print_error("%s: %llu cycles, below the bound %llu\n", what, (unsigned long long)cyc,
                                 (unsigned long long)bound);
    assert_true(cyc >= bound);
    if ((double)cyc / (double)bound > g_worst_ratio) g_worst_ratio = (double)cyc / (double)bound;
    return got;
}

/* op_slice of `src` (in's bytes; random when NULL). Returns out's bytes (malloc'd) and the cycles in *cycles. */
static uint8_t *run_slice(tx8_rng *r, const slice_case *c, const uint8_t *src, const char *what, uint64_t *cycles) {
    const uint32_t eb = tx8_format_bytes(c->fmt);
    const uint64_t in_bytes = elems_of(c->S, c->dim) * eb, out_bytes = elems_of(c->O, c->dim) * eb;
    uint8_t *in = malloc(in_bytes), *want = malloc(out_bytes);
    for (uint64_t b = 0; b < in_bytes; ++b) in[b] = src ? src[b] : (uint8_t)tx8_rng_next(r);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, c->in_addr, in, in_bytes), 0);
    ref_slice(c, in, want);
    tensor_buf ti, to;
    make_tensor(&ti, c->fmt, c->in_addr, c->S, c->dim);
    make_tensor(&to, c->fmt, c->out_addr, c->O, c->dim);
    SLICE_PARAM p;
    memset(&p, 0, sizeof p);
    for (int32_t k = 0; k < c->dim; ++k) p.start[k] = c->start[k], p.step[k] = c->step[k];
    mark_guards(c->out_addr, out_bytes);
    const uint64_t before = tx8_hal_cycles();
    const uint64_t cyc = op_slice(&p, &ti.tsr, &to.tsr);
    const uint64_t bound = tdma_bound(out_bytes);
    uint8_t *got = check_output(what, eb, c->out_addr, want, out_bytes, cyc, tx8_hal_cycles() - before, bound);
    free(in), free(want);
    *cycles = cyc;
    return got;
}

/* A pad case's cycle bound: every output byte once on the TDMA (edge, reflect), or the CT fill plus in's copy
 * (constant). */
static uint64_t pad_bound(const pad_case *c) {
    const uint32_t eb = tx8_format_bytes(c->fmt);
    int32_t O[MAX_SHAPE_DIM];
    pad_out_shape(c, O);
    const uint64_t in_bytes = elems_of(c->S, c->dim) * eb, out_elems = elems_of(O, c->dim);
    return c->mode == PAD_CONSTANT ? pad_constant_bound(out_elems, in_bytes, eb) : tdma_bound(out_elems * eb);
}

/* op_pad of `src` (random when NULL), out holding random bytes beforehand (NaN patterns included: the constant fill
 * must not care). Returns out's bytes (malloc'd) and the cycles in *cycles. */
static uint8_t *run_pad(tx8_rng *r, const pad_case *c, const uint8_t *src, const char *what, uint64_t *cycles) {
    const uint32_t eb = tx8_format_bytes(c->fmt);
    int32_t O[MAX_SHAPE_DIM];
    pad_out_shape(c, O);
    const uint64_t in_bytes = elems_of(c->S, c->dim) * eb, out_bytes = elems_of(O, c->dim) * eb;
    uint8_t *in = malloc(in_bytes), *want = malloc(out_bytes), *old = malloc(out_bytes);
    for (uint64_t b = 0; b < in_bytes; ++b) in[b] = src ? src[b] : (uint8_t)tx8_rng_next(r);
    for (uint64_t b = 0; b < out_bytes; ++b) old[b] = (uint8_t)tx8_rng_next(r);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, c->in_addr, in, in_bytes), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, c->out_addr, old, out_bytes), 0);
    ref_pad(c, in, want);
    tensor_buf ti, to;
    make_tensor(&ti, c->fmt, c->in_addr, c->S, c->dim);
    make_tensor(&to, c->fmt, c->out_addr, O, c->dim);
    PAD_PARAM p;
    memset(&p, 0, sizeof p);
    p.mode = c->mode;
    p.value = c->value;
    for (int32_t k = 0; k < c->dim; ++k) p.begin[k] = c->begin[k], p.end[k] = c->end[k];
    mark_guards(c->out_addr, out_bytes);
    const uint64_t before = tx8_hal_cycles();
    const uint64_t cyc = op_pad(&p, &ti.tsr, &to.tsr);
    uint8_t *got =
        check_output(what, eb, c->out_addr, want, out_bytes, cyc, tx8_hal_cycles() - before, pad_bound(c));
    free(in), free(want), free(old);
    *cycles = cyc;
    return got;
}

static void print_vs_bound(const char *what, uint64_t cyc, uint64_t bound, uint64_t out_bytes, const char *bound_is) {
    printf("[ tx8 ] %s: %llu cycles vs bound %llu (%.2fx; %llu bytes out; bound: %s)\n", what,
           (unsigned long long)cyc, (unsigned long long)bound, (double)cyc / (double)bound,
           (unsigned long long)out_bytes, bound_is);
}

/* ---- fixed cases, outputs written out by hand ---- */

static void assert_floats(const char *what, const uint8_t *got, const float *want, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        float g;
        memcpy(&g, got + i * sizeof g, sizeof g);
        if (g != want[i]) {
            print_error("%s: element %zu = %g, want %g\n", what, i, (double)g, (double)want[i]);
            fail();
        }
    }
}

static void fixed_slices(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 5);
    uint64_t cyc;
    /* 1-D reverse of 8 fp32: one instruction per element (a negative stride is looped over) */
    const float ramp8[8] = {1, 2, 3, 4, 5, 6, 7, 8}, rev8[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    const slice_case rev = {Fmt_FP32, 1, {8}, {8}, {7}, {-1}, SPM_A, SPM_D};
    uint8_t *got = run_slice(&r, &rev, (const uint8_t *)ramp8, "1-D reverse", &cyc);
    assert_floats("1-D reverse", got, rev8, 8);
    assert_int_equal(cyc, 8 * tdma_bound(4));
    free(got);
    /* 2-D, rows 1 and 3 of 4, columns 0, 2, 4 of 6 */
    float m46[24];
    for (int i = 0; i < 24; ++i) m46[i] = (float)i;
    const float step2[6] = {6, 8, 10, 18, 20, 22};
    const slice_case s2 = {Fmt_FP32, 2, {4, 6}, {2, 3}, {1, 0}, {2, 2}, SPM_A, SPM_D};
    got = run_slice(&r, &s2, (const uint8_t *)m46, "2-D step 2", &cyc);
    assert_floats("2-D step 2", got, step2, 6);
    assert_int_equal(cyc, tx8_hal_config()->tdma_startup_cycles + 6); /* one strided gather, element by element */
    free(got);
    /* both dims reversed: rows 3, 2 and columns 5, 3, 1 */
    const float back[6] = {23, 21, 19, 17, 15, 13};
    const slice_case s3 = {Fmt_FP32, 2, {4, 6}, {2, 3}, {3, 5}, {-1, -2}, SPM_A, SPM_D};
    got = run_slice(&r, &s3, (const uint8_t *)m46, "2-D reversed", &cyc);
    assert_floats("2-D reversed", got, back, 6);
    free(got);

    /* larger cases: cycles against the bound */
    const slice_case big[] = {
        {Fmt_FP16, 4, {1, 56, 56, 64}, {1, 28, 28, 64}, {0, 14, 14, 0}, {1, 1, 1, 1}, SPM_A, SPM_D},
        {Fmt_FP16, 4, {1, 56, 56, 64}, {1, 28, 28, 64}, {0, 0, 0, 0}, {1, 2, 2, 1}, SPM_A, SPM_D},
        {Fmt_INT8, 2, {64, 256}, {64, 128}, {0, 255}, {1, -2}, SPM_A, SPM_D},
        {Fmt_FP32, 3, {16, 16, 64}, {16, 16, 64}, {15, 0, 0}, {-1, 1, 1}, SPM_A, SPM_D},
        {Fmt_FP32, 1, {1000}, {1000}, {999}, {-1}, SPM_A, SPM_D},
    };
    static const char *names[] = {
        "op_slice fp16 [1,56,56,64] window [1,28,28,64]",
        "op_slice fp16 [1,56,56,64] H, W step 2",
        "op_slice int8 [64,256] columns reversed, step -2",
        "op_slice fp32 [16,16,64] rows reversed",
        "op_slice fp32 [1000] reversed",
    };
    for (size_t k = 0; k < sizeof big / sizeof big[0]; ++k) {
        got = run_slice(&r, &big[k], NULL, names[k], &cyc);
        const uint64_t out_bytes = elems_of(big[k].O, big[k].dim) * tx8_format_bytes(big[k].fmt);
        print_vs_bound(names[k], cyc, tdma_bound(out_bytes), out_bytes, "TDMA of out");
        free(got);
    }
    /* a window with steps 1 is one instruction of whole rows */
    const tx8_hw_config *hw = tx8_hal_config();
    got = run_slice(&r, &big[0], NULL, names[0], &cyc);
    assert_int_equal(cyc, hw->tdma_startup_cycles + 28 * ((28 * 64 * 2 + hw->tdma_bytes_per_cycle - 1) /
                                                          hw->tdma_bytes_per_cycle));
    free(got);
}

static void fixed_pads(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 6);
    uint64_t cyc;
    const tx8_hw_config *hw = tx8_hal_config();
    /* the 3x4 image 1..12 padded by 1 row before, 2 after, 2 columns before, 1 after: 6x7 */
    float img[12];
    for (int i = 0; i < 12; ++i) img[i] = (float)(i + 1);
    static const float want_const[42] = {
        -1, -1, -1, -1, -1, -1, -1,
        -1, -1,  1,  2,  3,  4, -1,
        -1, -1,  5,  6,  7,  8, -1,
        -1, -1,  9, 10, 11, 12, -1,
        -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1,
    };
    static const float want_edge[42] = {
        1, 1, 1,  2,  3,  4,  4,
        1, 1, 1,  2,  3,  4,  4,
        5, 5, 5,  6,  7,  8,  8,
        9, 9, 9, 10, 11, 12, 12,
        9, 9, 9, 10, 11, 12, 12,
        9, 9, 9, 10, 11, 12, 12,
    };
    static const float want_reflect[42] = {
         7,  6, 5,  6,  7,  8,  7,
         3,  2, 1,  2,  3,  4,  3,
         7,  6, 5,  6,  7,  8,  7,
        11, 10, 9, 10, 11, 12, 11,
         7,  6, 5,  6,  7,  8,  7,
         3,  2, 1,  2,  3,  4,  3,
    };
    const uint32_t modes[3] = {PAD_CONSTANT, PAD_EDGE, PAD_REFLECT};
    const float *wants[3] = {want_const, want_edge, want_reflect};
    for (int m = 0; m < 3; ++m) {
        const pad_case c = {Fmt_FP32, modes[m], 2, {3, 4}, {1, 2}, {2, 1}, SPM_A, SPM_D, -1.0f};
        char what[64];
        snprintf(what, sizeof what, "3x4 image, %s pad", mode_name(modes[m]));
        uint8_t *got = run_pad(&r, &c, (const uint8_t *)img, what, &cyc);
        assert_floats(what, got, wants[m], 42);
        free(got);
        /* constant: the CT fill (out != NaN, then * value: two passes over out's 42 elements), then in's 3 rows of
         * 16 bytes as three TDMA runs (a cycle each) */
        if (modes[m] == PAD_CONSTANT)
            assert_int_equal(cyc, 2 * ct_expected_cycles(42, 32, 0) + hw->tdma_startup_cycles + 3);
    }

    /* constant pads the formats hold specially, their bits written out: a random 2x3 input padded by 1 row before
     * and 1 column after (3x4; out holds random bytes beforehand); out element 0 (row 0) and 7 (row 1, column 3)
     * are pads. A NaN of any sign or payload pads with the format's canonical NaN. */
    static const struct {
        uint32_t value; /* fp32 bits */
        const char *name;
        uint32_t fp32, fp16, bf16; /* the pad's bits */
    } specials[] = {
        {0x80000000u, "-0", 0x80000000u, 0x8000u, 0x8000u},
        {0x7F800000u, "+inf", 0x7F800000u, 0x7C00u, 0x7F80u},
        {0xFF800000u, "-inf", 0xFF800000u, 0xFC00u, 0xFF80u},
        {0x7FC00000u, "NaN", 0x7FC00000u, 0x7E00u, 0x7FC0u},
        {0xFF800001u, "-sNaN 0xff800001", 0x7FC00000u, 0x7E00u, 0x7FC0u},
        {0x477FF000u, "65520 (fp16: a tie, to inf)", 0x477FF000u, 0x7C00u, 0x4780u},
        {0x3EAAAAABu, "1/3", 0x3EAAAAABu, 0x3555u, 0x3EABu},
        {0x33D6BF95u, "1e-7 (fp16: subnormal)", 0x33D6BF95u, 0x0002u, 0x33D7u},
    };
    static const Data_Format float_fmts[3] = {Fmt_FP32, Fmt_FP16, Fmt_BF16};
    for (size_t v = 0; v < sizeof specials / sizeof specials[0]; ++v)
        for (int f = 0; f < 3; ++f) {
            const pad_case c = {float_fmts[f], PAD_CONSTANT, 2,      {2, 3}, {1, 0}, {0, 1},
                                SPM_A,         SPM_D,        ct_bits_float(specials[v].value)};
            const uint32_t want = f == 0 ? specials[v].fp32 : f == 1 ? specials[v].fp16 : specials[v].bf16;
            char what[96];
            snprintf(what, sizeof what, "constant %s pad, %s", specials[v].name, tx8_format_name(c.fmt));
            free(run_pad(&r, &c, NULL, what, &cyc));
            uint32_t bits[12];
            ct_load_bits(SPM_D, c.fmt, bits, 12);
            if (bits[0] != want || bits[7] != want) {
                print_error("%s: pads 0x%x, 0x%x, want 0x%x\n", what, bits[0], bits[7], want);
                fail();
            }
        }

    /* NHWC images padded on H and W, a 1-D constant and reflect: cycles against the bound */
    const pad_case big[] = {
        {Fmt_FP16, PAD_CONSTANT, 4, {1, 56, 56, 64}, {0, 1, 1, 0}, {0, 1, 1, 0}, SPM_A, SPM_D, 0.0f},
        {Fmt_FP16, PAD_EDGE, 4, {1, 56, 56, 64}, {0, 1, 1, 0}, {0, 1, 1, 0}, SPM_A, SPM_D, 0.0f},
        {Fmt_FP16, PAD_REFLECT, 4, {1, 56, 56, 64}, {0, 1, 1, 0}, {0, 1, 1, 0}, SPM_A, SPM_D, 0.0f},
        {Fmt_BF16, PAD_CONSTANT, 4, {1, 28, 28, 128}, {0, 2, 2, 0}, {0, 2, 2, 0}, SPM_A, SPM_D, -0.1f},
        {Fmt_FP32, PAD_REFLECT, 2, {64, 64}, {0, 3}, {0, 3}, SPM_A, SPM_D, 0.0f},
        {Fmt_INT8, PAD_EDGE, 2, {64, 64}, {0, 3}, {0, 3}, SPM_A, SPM_D, 0.0f},
        {Fmt_FP32, PAD_CONSTANT, 1, {1000}, {24}, {24}, SPM_A, SPM_D, -2.5f},
    };
    static const char *names[] = {
        "op_pad constant 0 fp16 [1,56,56,64] H, W +1",
        "op_pad edge fp16 [1,56,56,64] H, W +1",
        "op_pad reflect fp16 [1,56,56,64] H, W +1",
        "op_pad constant -0.1 bf16 [1,28,28,128] H, W +2",
        "op_pad reflect fp32 [64,64] W +3",
        "op_pad edge int8 [64,64] W +3",
        "op_pad constant -2.5 fp32 [1000] +24",
    };
    uint64_t big_cyc[sizeof big / sizeof big[0]];
    for (size_t k = 0; k < sizeof big / sizeof big[0]; ++k) {
        int32_t O[MAX_SHAPE_DIM];
        pad_out_shape(&big[k], O);
        uint8_t *got = run_pad(&r, &big[k], NULL, names[k], &big_cyc[k]);
        print_vs_bound(names[k], big_cyc[k], pad_bound(&big[k]),
                       elems_of(O, big[k].dim) * tx8_format_bytes(big[k].fmt),
                       big[k].mode == PAD_CONSTANT ? "2 CT passes over out + TDMA of in" : "TDMA of out");
        free(got);
    }
    /* a constant pad is its bound exactly when in's rows are whole TDMA runs: one CT instruction per pass (out's
     * elements fit src_elem_num), one TDMA instruction of 56 rows of 7168 bytes */
    assert_int_equal(big_cyc[0], pad_bound(&big[0]));
    assert_int_equal(big_cyc[3], pad_bound(&big[3]));
    assert_int_equal(big_cyc[6], pad_bound(&big[6]));
}

/* ---- seeded random cases ---- */

static const Data_Format kFmts[3] = {Fmt_INT8, Fmt_FP16, Fmt_FP32};

static void random_slices(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x511CEu);
    for (int t = 0; t < 160; ++t) {
        slice_case c;
        memset(&c, 0, sizeof c);
        c.fmt = kFmts[t % 3];
        c.dim = tx8_rng_int(&r, 1, MAX_SHAPE_DIM);
        const uint32_t eb = tx8_format_bytes(c.fmt);
        do {
            for (int32_t k = 0; k < c.dim; ++k) c.S[k] = tx8_rng_int(&r, 1, c.dim > 3 ? 6 : 24);
        } while (elems_of(c.S, c.dim) > 6000);
        for (int32_t k = 0; k < c.dim; ++k) {
            c.start[k] = tx8_rng_int(&r, 0, c.S[k] - 1);
            if (tx8_rng_int(&r, 0, 5) == 0) { /* step 0: a broadcast (tx8be.Expand) */
                c.step[k] = 0;
                c.O[k] = tx8_rng_int(&r, 1, c.dim > 3 ? 6 : 24);
                continue;
            }
            c.step[k] = tx8_rng_int(&r, 1, 3) * (tx8_rng_int(&r, 0, 2) == 0 ? -1 : 1);
            const int32_t room = c.step[k] > 0 ? (c.S[k] - 1 - c.start[k]) / c.step[k] : c.start[k] / -c.step[k];
            c.O[k] = tx8_rng_int(&r, 1, room + 1);
        }
        c.in_addr = SPM_A + (uint64_t)tx8_rng_int(&r, 0, 0x4000) * eb;
        c.out_addr = SPM_D + (uint64_t)tx8_rng_int(&r, 0, 0x4000) * eb;
        char what[240], b1[64], b2[64], b3[64], b4[64];
        snprintf(what, sizeof what, "random slice %d: %s in [%s] out [%s] start (%s) step (%s)", t,
                 tx8_format_name(c.fmt), dims_str(b1, sizeof b1, c.S, c.dim), dims_str(b2, sizeof b2, c.O, c.dim),
                 dims_str(b3, sizeof b3, c.start, c.dim), dims_str(b4, sizeof b4, c.step, c.dim));
        uint64_t cyc;
        free(run_slice(&r, &c, NULL, what, &cyc));
        ++g_random_slices;
    }
}

/* op_pad's formats: constant pads in the float ones only */
static const Data_Format kPadFmts[4] = {Fmt_INT8, Fmt_FP16, Fmt_BF16, Fmt_FP32};

/* A random pad value: mostly ordinary, sometimes one the formats hold specially (-0, +-inf, NaN, past fp16's range,
 * fp16 subnormals). */
static float random_pad_value(tx8_rng *r) {
    switch (tx8_rng_int(r, 0, 9)) {
    case 0: return -0.0f;
    case 1: return tx8_rng_int(r, 0, 1) ? INFINITY : -INFINITY;
    case 2: return NAN;
    case 3: return (float)tx8_rng_uniform(r, -1e6, 1e6);
    case 4: return (float)tx8_rng_uniform(r, -1e-6, 1e-6);
    default: return (float)tx8_rng_uniform(r, -100.0, 100.0);
    }
}

static void random_pads(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x9ADu);
    int per_mode[3] = {0, 0, 0}, specials = 0;
    for (int t = 0; t < 160; ++t) {
        pad_case c;
        memset(&c, 0, sizeof c);
        c.fmt = kPadFmts[t % 4];
        c.mode = (uint32_t)tx8_rng_int(&r, c.fmt == Fmt_INT8 ? 1 : 0, 2); /* int8: reflect or edge */
        c.value = random_pad_value(&r); /* ignored by reflect and edge */
        c.dim = tx8_rng_int(&r, 1, MAX_SHAPE_DIM);
        const uint32_t eb = tx8_format_bytes(c.fmt);
        int32_t O[MAX_SHAPE_DIM];
        do {
            for (int32_t k = 0; k < c.dim; ++k) {
                c.S[k] = tx8_rng_int(&r, 1, c.dim > 3 ? 5 : 16);
                const int32_t most = c.mode == PAD_REFLECT ? (c.S[k] - 1 < 3 ? c.S[k] - 1 : 3) : 3;
                c.begin[k] = tx8_rng_int(&r, 0, 2) == 0 ? 0 : tx8_rng_int(&r, 0, most);
                c.end[k] = tx8_rng_int(&r, 0, 2) == 0 ? 0 : tx8_rng_int(&r, 0, most);
            }
            pad_out_shape(&c, O);
        } while (elems_of(O, c.dim) > 6000);
        c.in_addr = SPM_A + (uint64_t)tx8_rng_int(&r, 0, 0x4000) * eb;
        c.out_addr = SPM_D + (uint64_t)tx8_rng_int(&r, 0, 0x4000) * eb;
        char what[240], b1[64], b2[64], b3[64];
        snprintf(what, sizeof what, "random pad %d: %s %s in [%s] begin (%s) end (%s) value %g", t,
                 mode_name(c.mode), tx8_format_name(c.fmt), dims_str(b1, sizeof b1, c.S, c.dim),
                 dims_str(b2, sizeof b2, c.begin, c.dim), dims_str(b3, sizeof b3, c.end, c.dim), (double)c.value);
        uint64_t cyc;
        free(run_pad(&r, &c, NULL, what, &cyc));
        ++per_mode[c.mode];
        specials += c.mode == PAD_CONSTANT && (c.value == 0.0f || isinf(c.value) || isnan(c.value));
        ++g_random_pads;
    }
    printf("[ tx8 ] op_pad: %d random cases (constant %d, of which %d pad with +-0, +-inf or NaN; reflect %d, "
           "edge %d)\n",
           g_random_pads, per_mode[PAD_CONSTANT], specials, per_mode[PAD_REFLECT], per_mode[PAD_EDGE]);
}

/* ---- bad inputs: clear message, no cycles, no SPM byte changed ---- */

#define WATCH 0x400u /* bytes marked at each of SPM_A, SPM_C and SPM_D */

static void expect_refused(uint64_t cyc, uint64_t before, const char *msg) {
    if (cyc != TX8_CYCLES_INVALID) print_error("expected \"%s\", the op ran\n", msg);
    assert_true(cyc == TX8_CYCLES_INVALID);
    tx8_test_expect_fault(msg);
    assert_int_equal(tx8_hal_cycles(), before);
    ct_assert_pattern(SPM_A, WATCH);
    ct_assert_pattern(SPM_C, WATCH);
    ct_assert_pattern(SPM_D, WATCH);
}

static void mark_all(void) {
    ct_fill_pattern(SPM_A, WATCH);
    ct_fill_pattern(SPM_C, WATCH);
    ct_fill_pattern(SPM_D, WATCH);
}

static void slice_faults(void **state) {
    (void)state;
    const int32_t s45[2] = {4, 5}, s23[2] = {2, 3}, s3[3] = {2, 3, 1}, s111[3] = {1, 1, 1};
    const int32_t s_huge[3] = {4096, 4096, 4096};
    tensor_buf in, out, out16, out3, out_on_in, out_far, in_huge, out_big, out8;
    make_tensor(&in, Fmt_FP32, SPM_A, s45, 2); /* 80 bytes */
    make_tensor(&out, Fmt_FP32, SPM_D, s23, 2);
    make_tensor(&out16, Fmt_FP16, SPM_D, s23, 2);
    make_tensor(&out3, Fmt_FP32, SPM_D, s3, 3);
    make_tensor(&out_on_in, Fmt_FP32, SPM_A + 0x40, s23, 2);
    make_tensor(&out_far, Fmt_FP32, 0x2ffff0, s23, 2);
    make_tensor(&in_huge, Fmt_INT8, SPM_A, s_huge, 3);
    make_tensor(&out_big, Fmt_FP32, SPM_D, s45, 2);
    make_tensor(&out8, Fmt_INT8, SPM_D, s111, 3);
    tensor_buf in_zero = in, in_badfmt = in;
    in_zero.tsr.shape = &in_zero.shape, in_zero.shape.shape_real[1] = 0;
    in_badfmt.tsr.format = (Data_Format)9;
    const SLICE_PARAM ok = {{1, 0}, {1, 2}}, start_hi = {{4, 0}, {1, 1}};
    const SLICE_PARAM start_neg = {{-1, 0}, {1, 1}}, end_hi = {{0, 2}, {1, 2}}, end_neg = {{1, 1}, {-2, 1}};
    struct {
        const SLICE_PARAM *p;
        TSR *in, *out;
        const char *msg;
    } cases[] = {
        {NULL, &in.tsr, &out.tsr, "op_slice: param is NULL"},
        {&ok, NULL, &out.tsr, "op_slice: in or in->shape is NULL"},
        {&ok, &in.tsr, NULL, "op_slice: out or out->shape is NULL"},
        {&ok, &in.tsr, &out3.tsr, "op_slice: out->shape->dim = 3, in->shape->dim = 2; they must match"},
        {&ok, &in_badfmt.tsr, &out.tsr, "op_slice: in->format = 9 is not a Data_Format"},
        {&ok, &in.tsr, &out16.tsr, "op_slice: out->format = fp16, in->format = fp32; they must match"},
        {&ok, &in_zero.tsr, &out.tsr, "op_slice: in->shape->shape_real[1] = 0, must be >= 1"},
        {&start_hi, &in.tsr, &out.tsr, "op_slice: param->start[0] = 4 is outside in's extent [0, 4)"},
        {&start_neg, &in.tsr, &out.tsr, "op_slice: param->start[0] = -1 is outside in's extent [0, 4)"},
        {&end_hi, &in.tsr, &out.tsr, "op_slice: dim 1 reads index 6 (start 2 + (3 - 1) * step 2)"},
        {&end_neg, &in.tsr, &out.tsr, "op_slice: dim 0 reads index -1 (start 1 + (2 - 1) * step -2)"},
        {&ok, &in.tsr, &out_big.tsr, "op_slice: dim 0 reads index 4 (start 1 + (4 - 1) * step 1)"},
        {&ok, &in.tsr, &out_on_in.tsr, "op_slice: out [0x40, 0x58) overlaps in [0x0, 0x50)"},
        {&ok, &in.tsr, &out_far.tsr, "op_slice: out = 0x2ffff0 + 24 bytes is outside SPM"},
        {&ok, &in_huge.tsr, &out8.tsr, "op_slice: in = 0x0 + 68719476736 bytes is outside SPM"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        mark_all();
        SLICE_PARAM prm;
        if (cases[k].p) prm = *cases[k].p;
        const uint64_t before = tx8_hal_cycles();
        expect_refused(op_slice(cases[k].p ? &prm : NULL, cases[k].in, cases[k].out), before, cases[k].msg);
    }
}

static void pad_faults(void **state) {
    (void)state;
    const int32_t s34[2] = {3, 4}, s67[2] = {6, 7}, s57[2] = {5, 7};
    tensor_buf in, out, out16, out_wrong, out_on_in, in8, out8;
    make_tensor(&in, Fmt_FP32, SPM_A, s34, 2); /* 48 bytes */
    make_tensor(&out, Fmt_FP32, SPM_D, s67, 2);
    make_tensor(&out16, Fmt_FP16, SPM_D, s67, 2);
    make_tensor(&out_wrong, Fmt_FP32, SPM_D, s57, 2);
    make_tensor(&out_on_in, Fmt_FP32, SPM_A + 0x20, s67, 2);
    make_tensor(&in8, Fmt_INT8, SPM_A, s34, 2);
    make_tensor(&out8, Fmt_INT8, SPM_D, s67, 2);
    const PAD_PARAM cst = {PAD_CONSTANT, {1, 2}, {2, 1}, 0.5f}, refl = {PAD_REFLECT, {1, 2}, {2, 1}, 0.0f};
    const PAD_PARAM refl_big = {PAD_REFLECT, {3, 2}, {0, 1}, 0.0f}, edge = {PAD_EDGE, {1, 2}, {2, 1}, 0.0f};
    const PAD_PARAM neg = {PAD_EDGE, {1, 3}, {2, -1}, 0.0f}, bad_mode = {7, {1, 2}, {2, 1}, 0.0f};
    struct {
        const PAD_PARAM *p;
        TSR *in, *out;
        const char *msg;
    } cases[] = {
        {NULL, &in.tsr, &out.tsr, "op_pad: param is NULL"},
        {&cst, NULL, &out.tsr, "op_pad: in or in->shape is NULL"},
        {&cst, &in.tsr, NULL, "op_pad: out or out->shape is NULL"},
        {&cst, &in8.tsr, &out8.tsr, "op_pad: PAD_CONSTANT fills on the CT in fp32, fp16 or bf16; in->format = int8"},
        {&cst, &in.tsr, &out16.tsr, "op_pad: out->format = fp16, in->format = fp32; they must match"},
        {&edge, &in.tsr, &out16.tsr, "op_pad: out->format = fp16, in->format = fp32; they must match"},
        {&cst, &in.tsr, &out_wrong.tsr, "op_pad: out->shape->shape_real[0] = 5, must be 6 (in's 3 + begin 1 + end 2)"},
        {&edge, &in.tsr, &out_on_in.tsr, "op_pad: out [0x20, 0xc8) overlaps in [0x0, 0x30)"},
        {&refl_big, &in.tsr, &out.tsr, "op_pad: PAD_REFLECT along dim 0: begin 3 and end 0 must be <= in's "
                                       "extent 3 - 1"},
        {&neg, &in.tsr, &out.tsr, "op_pad: param->begin[1] = 3, param->end[1] = -1; pads must be >= 0"},
        {&bad_mode, &in.tsr, &out.tsr, "op_pad: param->mode = 7 is not a PAD_MODE"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        mark_all();
        PAD_PARAM prm;
        if (cases[k].p) prm = *cases[k].p;
        const uint64_t before = tx8_hal_cycles();
        expect_refused(op_pad(cases[k].p ? &prm : NULL, cases[k].in, cases[k].out), before, cases[k].msg);
    }
    /* reflect within its limit runs (begin, end <= S - 1); int8 pads by edge and reflect */
    const PAD_PARAM runs[3] = {refl, edge, refl};
    TSR *const run_in[3] = {&in.tsr, &in8.tsr, &in8.tsr}, *const run_out[3] = {&out.tsr, &out8.tsr, &out8.tsr};
    for (int k = 0; k < 3; ++k) {
        mark_all();
        PAD_PARAM prm = runs[k];
        assert_true(op_pad(&prm, run_in[k], run_out[k]) != TX8_CYCLES_INVALID);
        assert_int_equal(tx8_test_faults()->count, 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_slices, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_pads, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_slices, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_pads, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(slice_faults, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(pad_faults, tx8_test_setup, tx8_test_teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ tx8 ] test_op_slice_pad: %d random slices, %d random pads ran; at most %.2fx the bound (TDMA of out; "
           "constant pads: 2 CT passes over out + TDMA of in)\n",
           g_random_slices, g_random_pads, g_worst_ratio);
    return failed;
}

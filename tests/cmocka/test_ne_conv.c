/* NE engine, conv form (I_NEUR NE_OP_CONV) through the HAL: bit-exact vs the documented im2col float loop (any
 * pitches, signed pads, groups, accumulate/bias/relu, all formats incl. tf32 rounding on read), within a K-derived
 * bound of a double reference, padding taps as real +0 products, term order, int8 wrap, cycles, faults. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/cm_cycles.h"
#include "tx8/ne.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

#define SPM_IN 0x001000u
#define SPM_W 0x100000u
#define SPM_O 0x200000u
#define SPM_BIAS 0x2F0000u
#define GAP_BYTE 0xFFu /* NaN in every float format: an engine that read a gap would produce NaN */

typedef struct conv_case {
    Data_Format fmt;
    Ncc_NE_GR_Conv_Regs g;
    uint32_t accumulate, bias_en, relu_en;
    uint64_t in, w, out, bias;
} conv_case;

static Data_Format out_fmt_of(Data_Format in) { return in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32; }

/* The cycle formula of cm_cycles.h written out again: the im2col GEMM of each group on the 8x16x8 PE array. */
static uint64_t expected_cycles(Data_Format fmt, uint64_t groups, uint64_t m, uint64_t k, uint64_t n) {
    const tx8_hw_config *c = tx8_hal_config();
    const uint64_t rate = fmt == Fmt_FP32 ? c->ne_macs_per_cycle_fp32
                        : fmt == Fmt_TF32 ? c->ne_macs_per_cycle_tf32
                        : fmt == Fmt_BF16 ? c->ne_macs_per_cycle_bf16
                        : fmt == Fmt_FP16 ? c->ne_macs_per_cycle_fp16 : c->ne_macs_per_cycle_int8;
    const uint64_t steps = groups * ((m + 7) / 8) * ((k + 15) / 16) * ((n + 7) / 8);
    return c->ne_startup_cycles + (steps * 1024 + rate - 1) / rate;
}

static uint64_t case_cycles(const conv_case *c) {
    const Ncc_NE_GR_Conv_Regs *g = &c->g;
    return expected_cycles(c->fmt, g->groups, (uint64_t)g->batch * g->out_h * g->out_w,
                           (uint64_t)g->kernel_h * g->kernel_w * (g->in_c / g->groups), g->out_c / g->groups);
}

static void write_raw(uint64_t addr, const void *p, size_t bytes) {
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, p, bytes), 0);
}
static void read_raw(uint64_t addr, void *p, size_t bytes) {
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, p, bytes), 0);
}

static uint64_t run(const conv_case *c) {
    TsmNeInstr p;
    TsmNe_conv(&p, c->in, c->w, c->bias, c->out, &c->g, c->fmt, out_fmt_of(c->fmt), c->accumulate, c->bias_en,
               c->relu_en);
    return TsmExecute(&p);
}

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* Float value the engine computes with (tf32: rounded on read). */
static float operand(Data_Format fmt, double v) { return fmt == Fmt_TF32 ? cm_fp32_to_tf32((float)v) : (float)v; }

/* Element offsets of a 4-D strided tensor [e3][e2][e1][e0] with pitches p[0..2] for e1, e2, e3. */
static size_t strided(const uint32_t p[3], uint32_t i3, uint32_t i2, uint32_t i1, uint32_t i0) {
    return (size_t)i3 * p[2] + (size_t)i2 * p[1] + (size_t)i1 * p[0] + i0;
}

/* Stores compact values [d3][d2][d1][d0] at pitches p (gaps: GAP_BYTE). tf32 values go in as unrounded fp32 bits
 * so that the engine's read-rounding is exercised. Returns the extent in elements. */
static size_t store_strided(uint64_t addr, Data_Format fmt, const double *v, const uint32_t d[4], const uint32_t p[3]) {
    const Data_Format sf = fmt == Fmt_TF32 ? Fmt_FP32 : fmt;
    const uint32_t eb = tx8_format_bytes(sf);
    const size_t extent = strided(p, d[3] - 1, d[2] - 1, d[1] - 1, d[0]);
    uint8_t *buf = malloc(extent * eb + 1);
    memset(buf, GAP_BYTE, extent * eb);
    size_t i = 0;
    for (uint32_t a = 0; a < d[3]; ++a)
        for (uint32_t b = 0; b < d[2]; ++b)
            for (uint32_t c = 0; c < d[1]; ++c)
                for (uint32_t e = 0; e < d[0]; ++e, ++i)
                    cm_store_element(buf + strided(p, a, b, c, e) * eb, sf, v[i], RND_NEAREST_EVEN);
    write_raw(addr, buf, extent * eb);
    free(buf);
    return extent;
}

static int g_cases;

static void fill(tx8_rng *r, Data_Format fmt, double *v, size_t n, int ints) {
    for (size_t i = 0; i < n; ++i)
        v[i] = fmt == Fmt_INT8 ? tx8_rng_int(r, -128, 127) : ints ? tx8_rng_int(r, -8, 8) : tx8_rng_uniform(r, -2, 2);
    tx8_test_quantize(fmt == Fmt_TF32 ? Fmt_FP32 : fmt, v, n);
}

/* What the engine must produce for out element (n, y, x, o), computed three ways: the documented float loop (im2col
 * order k = (kh, kw, c), padding taps as +0 products), wrapping int32, and a double reference with the sum of
 * |terms| for the error bound. */
typedef struct expected {
    float acc;
    uint32_t iacc;
    double ref, mag;
} expected;

typedef struct case_data {
    const double *in, *w, *out0, *bias; /* compact arrays */
} case_data;

static expected expect_elem(const conv_case *cc, const case_data *v, uint32_t n, uint32_t y, uint32_t x, uint32_t o,
                            size_t i) {
    const Ncc_NE_GR_Conv_Regs *g = &cc->g;
    const uint32_t cg = g->in_c / g->groups, grp = o / (g->out_c / g->groups);
    expected e;
    e.acc = cc->accumulate ? (float)v->out0[i] : 0.0f;
    e.iacc = cc->accumulate ? (uint32_t)(int32_t)v->out0[i] : 0u;
    e.ref = cc->accumulate ? v->out0[i] : 0.0, e.mag = fabs(e.ref);
    for (uint32_t kh = 0; kh < g->kernel_h; ++kh)
        for (uint32_t kw = 0; kw < g->kernel_w; ++kw) {
            const int64_t ih = (int64_t)y * g->stride_h - g->pad_top + (int64_t)kh * g->dilation_h;
            const int64_t iw = (int64_t)x * g->stride_w - g->pad_left + (int64_t)kw * g->dilation_w;
            const int inside = ih >= 0 && ih < g->in_h && iw >= 0 && iw < g->in_w;
            const size_t pix = inside ? (((size_t)n * g->in_h + (size_t)ih) * g->in_w + (size_t)iw) * g->in_c : 0;
            for (uint32_t c = 0; c < cg; ++c) {
                const double av = inside ? v->in[pix + grp * cg + c] : 0.0;
                const double bv = v->w[(((size_t)kh * g->kernel_w + kw) * cg + c) * g->out_c + o];
                const float a = operand(cc->fmt, av), b = operand(cc->fmt, bv);
                e.acc = e.acc + a * b;
                e.iacc += (uint32_t)((int32_t)av * (int32_t)bv);
                e.ref += (double)a * (double)b;
                e.mag += fabs((double)a * (double)b);
            }
        }
    if (cc->bias_en) {
        e.acc = e.acc + (float)v->bias[o], e.iacc += (uint32_t)(int32_t)v->bias[o];
        e.ref += v->bias[o], e.mag += fabs(v->bias[o]);
    }
    if (cc->relu_en) {
        if (e.acc <= 0.0f) e.acc = 0.0f;
        if ((int32_t)e.iacc < 0) e.iacc = 0;
        if (e.ref < 0.0) e.ref = 0.0;
    }
    return e;
}

static void random_outputs(tx8_rng *r, Data_Format of, double *v, size_t n) {
    for (size_t i = 0; i < n; ++i) v[i] = of == Fmt_INT32 ? tx8_rng_int(r, -100000, 100000) : tx8_rng_uniform(r, -4, 4);
    tx8_test_quantize(of, v, n);
}

/* Runs one case with random data. Checks cycles, every output bit against the documented loop (float) or wrapping
 * int32 (int8), a (K+2)*eps32*sum|terms| bound against a double reference, and that out's gaps are untouched. */
static void check_case(tx8_rng *r, const conv_case *cc, int ints) {
    const Ncc_NE_GR_Conv_Regs *g = &cc->g;
    const uint32_t cg = g->in_c / g->groups;
    const uint32_t K = g->kernel_h * g->kernel_w * cg;
    const Data_Format of = out_fmt_of(cc->fmt);
    const size_t n_in = (size_t)g->batch * g->in_h * g->in_w * g->in_c;
    const size_t n_w = (size_t)g->kernel_h * g->kernel_w * cg * g->out_c;
    const size_t n_out = (size_t)g->batch * g->out_h * g->out_w * g->out_c;
    double *IN = malloc(sizeof(double) * n_in), *W = malloc(sizeof(double) * n_w);
    double *O = malloc(sizeof(double) * n_out), *B = malloc(sizeof(double) * g->out_c);
    fill(r, cc->fmt, IN, n_in, ints);
    fill(r, cc->fmt, W, n_w, ints);
    random_outputs(r, of, O, n_out);
    random_outputs(r, of, B, g->out_c);
    const uint32_t din[4] = {g->in_c, g->in_w, g->in_h, g->batch}, dout[4] = {g->out_c, g->out_w, g->out_h, g->batch};
    const uint32_t dw[4] = {g->out_c, cg, g->kernel_w, g->kernel_h};
    const uint32_t pw[3] = {g->w_pitch[0], g->w_pitch[1], g->kernel_w * g->w_pitch[1]};
    store_strided(cc->in, cc->fmt, IN, din, g->in_pitch);
    store_strided(cc->w, cc->fmt, W, dw, pw);
    const size_t o_ext = store_strided(cc->out, of, O, dout, g->out_pitch); /* gaps get GAP_BYTE */
    if (cc->bias_en) {
        const uint32_t db[4] = {g->out_c, 1, 1, 1}, pb[3] = {g->out_c, g->out_c, g->out_c};
        store_strided(cc->bias, of, B, db, pb);
    }

    const uint64_t cyc = run(cc);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_int_equal(cyc, case_cycles(cc));

    uint8_t *got = malloc(o_ext * 4), *is_elem = calloc(o_ext, 1);
    read_raw(cc->out, got, o_ext * 4);
    const case_data v = {IN, W, O, B};
    size_t i = 0;
    for (uint32_t n = 0; n < g->batch; ++n)
        for (uint32_t y = 0; y < g->out_h; ++y)
            for (uint32_t x = 0; x < g->out_w; ++x)
                for (uint32_t o = 0; o < g->out_c; ++o, ++i) {
                    const size_t at = strided(g->out_pitch, n, y, x, o);
                    uint32_t gu;
                    memcpy(&gu, got + at * 4, 4);
                    is_elem[at] = 1;
                    const expected e = expect_elem(cc, &v, n, y, x, o, i);
                    if (of == Fmt_INT32) {
                        if (gu != e.iacc) {
                            print_error("int8 out[%u][%u][%u][%u] = %d, want %d\n", n, y, x, o, (int32_t)gu,
                                        (int32_t)e.iacc);
                            fail();
                        }
                        continue;
                    }
                    if (gu != u32_of(e.acc)) {
                        print_error("%s out[%u][%u][%u][%u] = %.9g, im2col float loop %.9g\n",
                                    tx8_format_name(cc->fmt), n, y, x, o, f32_of(gu), e.acc);
                        fail();
                    }
                    const double tol = (K + 2) * ldexp(1.0, -24) * e.mag + 1e-30;
                    if (fabs(f32_of(gu) - e.ref) > tol) {
                        print_error("%s out[%u][%u][%u][%u] = %.9g, double ref %.9g, bound %.3g\n",
                                    tx8_format_name(cc->fmt), n, y, x, o, f32_of(gu), e.ref, tol);
                        fail();
                    }
                }
    for (size_t b = 0; b < o_ext; ++b)
        if (!is_elem[b])
            for (int j = 0; j < 4; ++j) assert_int_equal(got[b * 4 + j], GAP_BYTE);
    free(IN), free(W), free(O), free(B), free(got), free(is_elem);
}

/* A compact case: the geometry with compact pitches at the default addresses. */
static conv_case compact(Data_Format fmt, Ncc_NE_GR_Conv_Regs g) {
    conv_case c;
    memset(&c, 0, sizeof c);
    c.fmt = fmt, c.g = g;
    TsmNe_conv_compact_pitches(&c.g);
    c.in = SPM_IN, c.w = SPM_W, c.out = SPM_O, c.bias = SPM_BIAS;
    return c;
}

/* batch, in h/w/c, out h/w/c, groups, kernel h/w, stride h/w, dilation h/w, pad top/left */
static Ncc_NE_GR_Conv_Regs geom(uint32_t n, uint32_t ih, uint32_t iw, uint32_t ic, uint32_t oh, uint32_t ow,
                                uint32_t oc, uint32_t groups, uint32_t kh, uint32_t kw, uint32_t s, uint32_t d,
                                int32_t pad) {
    Ncc_NE_GR_Conv_Regs g;
    memset(&g, 0, sizeof g);
    g.batch = n, g.in_h = ih, g.in_w = iw, g.in_c = ic, g.out_h = oh, g.out_w = ow, g.out_c = oc;
    g.groups = groups, g.kernel_h = kh, g.kernel_w = kw;
    g.stride_h = g.stride_w = s, g.dilation_h = g.dilation_w = d, g.pad_top = g.pad_left = pad;
    return g;
}

static void fixed_by_hand(void **state) {
    (void)state;
    /* 3x3 ones, 3x3 kernel of ones, pad 1: the neighbour counts [4 6 4; 6 9 6; 4 6 4], + bias 10 */
    const float in[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, bias = 10;
    write_raw(SPM_IN, in, sizeof in), write_raw(SPM_W, w, sizeof w), write_raw(SPM_BIAS, &bias, 4);
    conv_case c = compact(Fmt_FP32, geom(1, 3, 3, 1, 3, 3, 1, 1, 3, 3, 1, 1, 1));
    c.bias_en = 1;
    /* M = 9 pixels -> 2 steps of 8; K = 9 -> 1; N = 1 -> 1: 2 steps = 2048 MACs at 656/cycle -> 4 cycles */
    assert_int_equal(run(&c), 32 + 4);
    float o[9];
    read_raw(SPM_O, o, sizeof o);
    const float want[9] = {14, 16, 14, 16, 19, 16, 14, 16, 14};
    assert_memory_equal(o, want, sizeof o);
    /* depthwise 2 channels, 1x2 kernel, stride 2, pad_left 1: out[x][c] = in[2x-1][c]*w0[c] + in[2x][c]*w1[c] */
    const float in2[8] = {1, 10, 2, 20, 3, 30, 4, 40}; /* 1x1x4x2 */
    const float w2[4] = {100, 1000, 1, 2};              /* [1][2][1][2]: tap 0 = {100, 1000}, tap 1 = {1, 2} */
    write_raw(SPM_IN, in2, sizeof in2), write_raw(SPM_W, w2, sizeof w2);
    c = compact(Fmt_FP32, geom(1, 1, 4, 2, 1, 3, 2, 2, 1, 2, 2, 1, 1));
    c.g.pad_top = 0;
    run(&c);
    float o2[6];
    read_raw(SPM_O, o2, sizeof o2);
    /* x=0: taps iw = -1 (pad), 0; x=1: iw = 1, 2; x=2: iw = 3, 4 (pad) */
    const float want2[6] = {1 * 1, 10 * 2, 2 * 100 + 3 * 1, 20 * 1000 + 30 * 2, 4 * 100, 40 * 1000};
    assert_memory_equal(o2, want2, sizeof o2);
}

static void term_order_is_kh_kw_c(void **state) {
    (void)state;
    /* 1x2 kernel over 2 channels, weights 1: terms in k order (kw0,c0) (kw0,c1) (kw1,c0) (kw1,c1) =
     * 1e8, 1, -1e8, 0 -> ((1e8 + 1) - 1e8) + 0 = 0 in fp32; a channel-outer order would give 1. */
    const float in[4] = {1e8f, 1.0f, -1e8f, 0.0f}, w[4] = {1, 1, 1, 1};
    write_raw(SPM_IN, in, sizeof in), write_raw(SPM_W, w, sizeof w);
    conv_case c = compact(Fmt_FP32, geom(1, 1, 2, 2, 1, 1, 1, 1, 1, 2, 1, 1, 0));
    run(&c);
    float o;
    read_raw(SPM_O, &o, 4);
    assert_true(o == 0.0f);
    /* kernel rows before columns: 2x1 kernel, rows hold 1e8 / -1e8 on channel 0 and 1 on channel 1 of row 0 */
    const float in2[4] = {1e8f, 1.0f, -1e8f, 0.0f}; /* [h][w=1][c=2] */
    write_raw(SPM_IN, in2, sizeof in2);
    c = compact(Fmt_FP32, geom(1, 2, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 0));
    run(&c);
    read_raw(SPM_O, &o, 4);
    assert_true(o == 0.0f);
}

static void padding_taps_are_zero_products(void **state) {
    (void)state;
    /* accumulate from out = -0 with in = -0 and weights {1, 1}, pad_left 1: the padding tap adds +0*1 = +0,
     * turning -0 into +0 before the real tap adds -0: the result is +0. Skipping padding would leave -0. */
    const float in = -0.0f, w[2] = {1, 1}, o0 = -0.0f;
    write_raw(SPM_IN, &in, 4), write_raw(SPM_W, w, sizeof w), write_raw(SPM_O, &o0, 4);
    conv_case c = compact(Fmt_FP32, geom(1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1));
    c.g.pad_top = 0;
    c.accumulate = 1;
    run(&c);
    uint32_t bits;
    read_raw(SPM_O, &bits, 4);
    assert_int_equal(bits, 0x00000000u);
    /* an infinite weight on a padding tap gives NaN (0 * inf), as the im2col GEMM would, stored as the canonical
     * quiet NaN on every backend (x86 would produce 0xFFC00000 by itself) */
    const float winf[2] = {INFINITY, 1};
    write_raw(SPM_W, winf, sizeof winf);
    c.accumulate = 0;
    run(&c);
    read_raw(SPM_O, &bits, 4);
    assert_int_equal(bits, 0x7FC00000u);
    /* a NaN with a payload and the sign set, accumulated from out, comes out canonical too */
    const uint32_t nan_in = 0xFFC01234u;
    write_raw(SPM_W, w, sizeof w), write_raw(SPM_O, &nan_in, 4);
    c.accumulate = 1, c.relu_en = 1; /* relu passes NaN */
    run(&c);
    read_raw(SPM_O, &bits, 4);
    assert_int_equal(bits, 0x7FC00000u);
    /* whole output in the padding (pad 5 with a 1x1 kernel): +0 */
    c = compact(Fmt_FP32, geom(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5));
    run(&c);
    read_raw(SPM_O, &bits, 4);
    assert_int_equal(bits, 0x00000000u);
}

/* relu maps -0 to +0 (the same rule as CT relu and NE gemm). */
static void relu_turns_negative_zero_positive(void **state) {
    (void)state;
    const float in = 0.0f, w = -1.0f, o0 = -0.0f; /* accumulate: -0 + (0 * -1 = -0) = -0 before relu */
    write_raw(SPM_IN, &in, 4), write_raw(SPM_W, &w, 4), write_raw(SPM_O, &o0, 4);
    conv_case c = compact(Fmt_FP32, geom(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0));
    c.accumulate = 1, c.relu_en = 1;
    assert_true(run(&c) != TX8_CYCLES_INVALID);
    uint32_t bits;
    read_raw(SPM_O, &bits, 4);
    assert_int_equal(bits, 0x00000000u);
}

static void tf32_operands_are_rounded_on_read(void **state) {
    (void)state;
    const uint32_t a_bits[4] = {0x3F801000u, 0x3F803000u, 0x3F801001u, 0xBF9FFFFFu};
    const float one = 1.0f;
    write_raw(SPM_IN, a_bits, sizeof a_bits), write_raw(SPM_W, &one, 4);
    conv_case c = compact(Fmt_TF32, geom(1, 2, 2, 1, 2, 2, 1, 1, 1, 1, 1, 1, 0));
    run(&c);
    uint32_t got[4];
    read_raw(SPM_O, got, sizeof got);
    for (int i = 0; i < 4; ++i) assert_int_equal(got[i], u32_of(cm_fp32_to_tf32(f32_of(a_bits[i]))));
    assert_int_equal(got[0], 0x3F800000u);
    assert_int_equal(got[1], 0x3F804000u);
}

static void int8_wraps_modulo_2_32(void **state) {
    (void)state;
    /* 1x1 output, kernel 1x1 over 140000 channels of 127*127: the int32 sum wraps */
    const uint32_t C = 140000;
    int8_t *a = malloc(C);
    memset(a, 127, C);
    write_raw(SPM_IN, a, C), write_raw(SPM_W, a, C);
    conv_case c = compact(Fmt_INT8, geom(1, 1, 1, C, 1, 1, 1, 1, 1, 1, 1, 1, 0));
    assert_int_equal(run(&c), expected_cycles(Fmt_INT8, 1, 1, C, 1));
    uint32_t got;
    read_raw(SPM_O, &got, 4);
    assert_int_equal(got, (uint32_t)(16129ull * C));
    assert_true((int32_t)got < 0);
    free(a);
}

static void cycles_match_formula(void **state) {
    (void)state;
    const tx8_hw_config *cfg = tx8_hal_config();
    /* ResNet 3x3 64->64 on 56x56, fp32: 392 * 36 * 8 steps = 112896 * 1024 MACs / 656 -> 176231 + 32 */
    conv_case c = compact(Fmt_FP32, geom(1, 56, 56, 64, 56, 56, 64, 1, 3, 3, 1, 1, 1));
    TsmNeInstr p;
    TsmNe_conv(&p, c.in, c.w, 0, c.out, &c.g, Fmt_FP32, Fmt_FP32, 0, 0, 0);
    assert_int_equal(cm_cycles_ne_conv(cfg, &p), 32 + (112896ull * 1024 + 655) / 656);
    assert_int_equal(cm_cycles_ne(cfg, &p), cm_cycles_ne_conv(cfg, &p)); /* the generic entry dispatches */
    /* never faster than the MACs at the configured rate */
    const uint64_t macs = 56ull * 56 * 64 * 64 * 9;
    assert_true(cm_cycles_ne_conv(cfg, &p) >= (macs + 655) / 656);
    /* executed small cases: hand-computed */
    const struct { Data_Format f; Ncc_NE_GR_Conv_Regs g; uint64_t want; } t[] = {
        /* 1 pixel, K = 9, N = 1: 1 step; bf16 1024/4096 -> 1 */
        {Fmt_BF16, geom(1, 3, 3, 1, 1, 1, 1, 1, 3, 3, 1, 1, 0), 32 + 1},
        /* depthwise 16 channels on 4x4, 3x3 pad 1: 16 groups * 2 * 1 * 1 steps = 32768 MACs / 656 -> 50 */
        {Fmt_FP32, geom(1, 4, 4, 16, 4, 4, 16, 16, 3, 3, 1, 1, 1), 32 + 50},
        /* groups 2, 8 -> 16 channels, 1x1 on 2x8 x 2 images: 2 * 4 * 1 * 1 steps = 8192 MACs / 8192 -> 1 */
        {Fmt_INT8, geom(2, 2, 8, 8, 2, 8, 16, 2, 1, 1, 1, 1, 0), 32 + 1},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; ++i) {
        conv_case x = compact(t[i].f, t[i].g);
        assert_int_equal(run(&x), t[i].want);
        assert_int_equal(case_cycles(&x), t[i].want);
    }
}

static void random_cases_all_formats(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x434Eu);
    const Data_Format fmts[5] = {Fmt_FP32, Fmt_TF32, Fmt_BF16, Fmt_FP16, Fmt_INT8};
    int n_cases = 0;
    for (int t = 0; t < 100; ++t) {
        conv_case c;
        memset(&c, 0, sizeof c);
        c.fmt = fmts[t % 5];
        Ncc_NE_GR_Conv_Regs *g = &c.g;
        const int big = t % 25 == 24; /* cross the engine's 64-pixel / 128-term / 128-channel blocking */
        g->batch = (uint32_t)tx8_rng_int(&r, 1, big ? 1 : 2);
        g->groups = (uint32_t)tx8_rng_int(&r, 1, big ? 1 : 3);
        g->in_c = g->groups * (uint32_t)tx8_rng_int(&r, big ? 15 : 1, big ? 48 : 5);
        g->out_c = g->groups * (uint32_t)tx8_rng_int(&r, big ? 120 : 1, big ? 140 : 6);
        g->in_h = (uint32_t)tx8_rng_int(&r, 1, big ? 12 : 6), g->in_w = (uint32_t)tx8_rng_int(&r, 1, big ? 12 : 6);
        g->kernel_h = (uint32_t)tx8_rng_int(&r, 1, 3), g->kernel_w = (uint32_t)tx8_rng_int(&r, 1, 3);
        g->stride_h = (uint32_t)tx8_rng_int(&r, 1, 3), g->stride_w = (uint32_t)tx8_rng_int(&r, 1, 3);
        g->dilation_h = (uint32_t)tx8_rng_int(&r, 1, 2), g->dilation_w = (uint32_t)tx8_rng_int(&r, 1, 2);
        g->pad_top = tx8_rng_int(&r, -2, 3), g->pad_left = tx8_rng_int(&r, -2, 3); /* negative: a tile's window */
        g->out_h = (uint32_t)tx8_rng_int(&r, big ? 7 : 1, big ? 9 : 5);
        g->out_w = (uint32_t)tx8_rng_int(&r, big ? 7 : 1, big ? 9 : 5);
        TsmNe_conv_compact_pitches(g);
        /* widen some pitches: the gaps must be neither read nor written */
        g->in_pitch[0] += (uint32_t)tx8_rng_int(&r, 0, 2);
        g->in_pitch[1] = g->in_pitch[0] * g->in_w + (uint32_t)tx8_rng_int(&r, 0, 3);
        g->in_pitch[2] = g->in_pitch[1] * g->in_h + (uint32_t)tx8_rng_int(&r, 0, 3);
        g->out_pitch[0] += (uint32_t)tx8_rng_int(&r, 0, 2);
        g->out_pitch[1] = g->out_pitch[0] * g->out_w + (uint32_t)tx8_rng_int(&r, 0, 3);
        g->out_pitch[2] = g->out_pitch[1] * g->out_h + (uint32_t)tx8_rng_int(&r, 0, 3);
        g->w_pitch[0] += (uint32_t)tx8_rng_int(&r, 0, 2);
        g->w_pitch[1] = g->w_pitch[0] * (g->in_c / g->groups) + (uint32_t)tx8_rng_int(&r, 0, 3);
        c.accumulate = (uint32_t)tx8_rng_int(&r, 0, 1);
        c.bias_en = (uint32_t)tx8_rng_int(&r, 0, 1);
        c.relu_en = (uint32_t)tx8_rng_int(&r, 0, 1);
        c.in = SPM_IN + (uint32_t)tx8_rng_int(&r, 0, 7); /* unaligned addresses are legal */
        c.w = SPM_W + (uint32_t)tx8_rng_int(&r, 0, 7);
        c.out = SPM_O + (uint32_t)tx8_rng_int(&r, 0, 7);
        c.bias = SPM_BIAS + (uint32_t)tx8_rng_int(&r, 0, 7);
        check_case(&r, &c, t % 3 == 0);
        ++n_cases;
    }
    g_cases += n_cases;
    printf("[ ne ] %d random conv cases (fp32/tf32/bf16/fp16/int8), bit-exact\n", n_cases);
}

/* ---- faults: the message names the field; memory and the cycle counter are untouched ---- */

static void expect_rejected(const conv_case *c, Data_Format out_fmt, uint32_t opcode, const char *needle) {
    uint8_t before[64], after[64];
    for (int i = 0; i < 64; ++i) before[i] = (uint8_t)(i * 7 + 1);
    write_raw(SPM_O, before, sizeof before);
    const uint64_t cyc0 = tx8_hal_cycles();
    TsmNeInstr p;
    TsmNe_conv(&p, c->in, c->w, c->bias, c->out, &c->g, c->fmt, out_fmt, c->accumulate, c->bias_en, c->relu_en);
    p.ctrl.opcode = opcode;
    assert_true(TsmExecute(&p) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault(needle);
    read_raw(SPM_O, after, sizeof after);
    assert_memory_equal(before, after, sizeof before);
    assert_int_equal(tx8_hal_cycles(), cyc0);
}

static void faults_name_the_field(void **state) {
    (void)state;
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    const conv_case c = compact(Fmt_FP32, geom(1, 4, 4, 4, 2, 2, 4, 2, 3, 3, 1, 1, 0)); /* out 64 bytes */
    conv_case x;
    x = c, x.g.batch = 0;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "NE conv: batch = 0, must be >= 1");
    x = c, x.g.kernel_w = 0;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "kernel_w = 0");
    x = c, x.g.stride_h = 0;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "stride_h = 0");
    x = c, x.g.dilation_w = 0;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "dilation_w = 0");
    x = c, x.g.groups = 0;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "groups = 0");
    x = c, x.g.groups = 3;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "NE conv: groups = 3 does not divide in_c = 4 and out_c = 4");
    x = c, x.g.in_pitch[0] = 3;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "NE conv: in_pitch[0] = 3 is less than 4");
    x = c, x.g.in_pitch[1] = 15;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "in_pitch[1] = 15 is less than 16");
    x = c, x.g.out_pitch[2] = 15;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "out_pitch[2] = 15 is less than 16");
    x = c, x.g.w_pitch[1] = 7;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "w_pitch[1] = 7 is less than 8");
    x = c, x.fmt = Fmt_INT8;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "out_fmt = fp32 (3) but in_fmt int8 needs out_fmt int32");
    x = c, x.fmt = Fmt_INT32;
    expect_rejected(&x, Fmt_INT32, NE_OP_CONV, "in_fmt = 5");
    x = c, x.relu_en = 2;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "relu_en = 2");
    x = c, x.in = spm - 100; /* in needs 256 bytes */
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "NE conv: a_addr (in) = ");
    x = c, x.w = spm - 4;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "b_addr (weight) = ");
    x = c, x.bias_en = 1, x.bias = spm - 15;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "bias_addr = ");
    x = c, x.g.out_h = 100000, x.g.out_pitch[2] = 800000; /* 3.2 MB of out */
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "outside SPM");
    x = c, x.g.in_pitch[2] = 0xFFFFFFFFu, x.g.batch = 0xFFFFFFFFu; /* extent overflows 64 bits */
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "a_addr (in) = ");
    x = c, x.in = SPM_O + 32;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "NE conv: out [0x200000, +64) overlaps in");
    x = c, x.w = SPM_O - 16;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "overlaps weight");
    x = c, x.bias_en = 1, x.bias = SPM_O + 60;
    expect_rejected(&x, Fmt_FP32, NE_OP_CONV, "overlaps bias");
    expect_rejected(&c, Fmt_FP32, 9, "opcode = 9"); /* not NE_OP_CONV: the gemm decoder rejects it */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_by_hand, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(term_order_is_kh_kw_c, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(padding_taps_are_zero_products, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(relu_turns_negative_zero_positive, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(tf32_operands_are_rounded_on_read, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(int8_wraps_modulo_2_32, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cycles_match_formula, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases_all_formats, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_name_the_field, tx8_test_setup, tx8_test_teardown),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ ne ] random conv cases in total: %d\n", g_cases);
    return rc;
}

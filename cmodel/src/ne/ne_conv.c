/*
 * NE engine, convolution (I_NEUR, NE_OP_CONV): channel-last 2-D convolution with groups, strides, dilations and
 * zero padding, defined as a GEMM over the im2col matrix of each group (tx8/isa.h).
 *
 * Numerics (the definition every backend must reproduce bit for bit). For output element (n, y, x, o) of group
 * g = o / Og, with Cg = in_c/groups, Og = out_c/groups and K = kernel_h*kernel_w*Cg terms indexed
 *   k = (kh*kernel_w + kw)*Cg + c        (kernel row, then kernel column, then input channel; all ascending):
 *   float inputs (fp32 / tf32 / bf16 / fp16; out and bias fp32):
 *     - a_k = in[n][ih][iw][g*Cg + c] read as float (tf32 rounded to tf32 on read, as NE gemm), or +0.0f when
 *       (ih, iw) = (y*stride_h - pad_top + kh*dilation_h, x*stride_w - pad_left + kw*dilation_w) is outside the
 *       input; b_k = weight[kh][kw][c][o] read the same way;
 *     - acc = accumulate ? out : +0.0f;  for k = 0 .. K-1:  acc = acc + a_k * b_k  (product rounded to float, then
 *       the sum; no FMA). Padding products (+0 * b) are added like any other, so signed zeros and inf/NaN weights
 *       give exactly what the im2col GEMM gives;
 *     - bias_en: acc = acc + bias[o]; relu_en: acc <= 0 ? +0.0f : acc (NaN passes), as NE gemm;
 *     - a NaN result is stored as the canonical quiet NaN 0x7FC00000 (CPUs differ in the NaN bits of 0*inf or
 *       inf-inf: x86 sets the sign, RISC-V does not; this keeps the backends bit-identical).
 *   int8 inputs (out and bias int32): the same sums in int32 with two's-complement wrap-around (padding adds 0).
 * The loops are blocked like NE gemm (register tile NE_MR x NE_NR, panels of NE_KB terms), but every output element sees its
 * terms in ascending k; partial sums between K blocks are parked in `out`, which is fp32/int32 and holds them
 * exactly. Panels are fixed-size stack arrays (96 KiB, as NE gemm; int8 4 KiB); nothing is allocated.
 *
 * Validation happens before any byte moves: opcode, formats, flags, counts >= 1, groups dividing in_c and out_c,
 * pitches (no two elements of a tensor at one address), every operand's extent inside SPM, and out not overlapping
 * in, weight or bias. Because every extent then lies in SPM, all coordinates below fit comfortably in int64.
 */
#include "numerics/cm_bits.h"
#include <string.h>

#include "cm_internal.h"
#include "ne_internal.h"
#include "tx8/cm_cycles.h"
#include "tx8/cm_numerics.h"

#define INSTR "NE conv"

typedef struct conv_operands {
    const uint8_t *in, *w, *bias;
    uint8_t *out;
    const Ncc_NE_GR_Conv_Regs *g;
    Data_Format fmt;
    uint32_t eb;     /* bytes per input / weight element */
    uint32_t cg, og; /* channels per group: input, output */
    uint32_t m, k;   /* im2col rows (output pixels) and terms per group */
} conv_operands;

/* ---- extents: saturating at UINT64_MAX so that absurd fields fail the SPM range check instead of wrapping ---- */

static uint64_t sat_madd(uint64_t acc, uint64_t a, uint64_t b) {
    if (a && b > (UINT64_MAX - acc) / a) return UINT64_MAX;
    return acc + a * b;
}

/* Bytes from a tensor's base to the end of its last element: ((e0-1)*p0 + (e1-1)*p1 + (e2-1)*p2 + inner) * eb. */
static uint64_t extent_bytes(const uint32_t ext[3], const uint32_t pitch[3], uint32_t inner, uint32_t eb) {
    uint64_t elems = inner;
    for (int i = 0; i < 3; ++i) elems = sat_madd(elems, ext[i] - 1u, pitch[i]);
    return sat_madd(0, elems, eb);
}

/* ---- im2col addressing ---- */

typedef struct pixel {
    uint32_t n;
    int64_t ih0, iw0; /* input coordinates of tap (0, 0) */
    uint64_t out_off; /* element offset of the pixel's channel 0 in out */
} pixel;

static pixel pixel_of(const Ncc_NE_GR_Conv_Regs *g, uint32_t i) {
    const uint32_t per_image = g->out_h * g->out_w; /* fits: out lies in SPM */
    const uint32_t n = i / per_image, r = i % per_image, y = r / g->out_w, x = r % g->out_w;
    pixel p;
    p.n = n;
    p.ih0 = (int64_t)y * g->stride_h - (int64_t)g->pad_top;
    p.iw0 = (int64_t)x * g->stride_w - (int64_t)g->pad_left;
    p.out_off = (uint64_t)n * g->out_pitch[2] + (uint64_t)y * g->out_pitch[1] + (uint64_t)x * g->out_pitch[0];
    return p;
}

/* Input element offset of (pixel, tap) at channel 0 of the instruction, or -1 when the tap is in the padding. */
static int64_t tap_offset(const Ncc_NE_GR_Conv_Regs *g, const pixel *px, uint32_t tap) {
    const uint32_t kh = tap / g->kernel_w, kw = tap % g->kernel_w;
    const int64_t ih = px->ih0 + (int64_t)kh * g->dilation_h, iw = px->iw0 + (int64_t)kw * g->dilation_w;
    if (ih < 0 || ih >= (int64_t)g->in_h || iw < 0 || iw >= (int64_t)g->in_w) return -1;
    return (int64_t)((uint64_t)px->n * g->in_pitch[2] + (uint64_t)ih * g->in_pitch[1] + (uint64_t)iw * g->in_pitch[0]);
}

/* im2col row of pixel px, terms [k0, k0 + kc) of group grp, into dst[0], dst[NE_MR], … (padding left at +0). */
static void fill_a_row(const conv_operands *o, uint32_t grp, const pixel *px, uint32_t k0, uint32_t kc, float *dst) {
    uint32_t tap = k0 / o->cg, c = k0 % o->cg, done = 0;
    while (done < kc) {
        const uint32_t run = o->cg - c < kc - done ? o->cg - c : kc - done;
        const int64_t off = tap_offset(o->g, px, tap);
        if (off >= 0)
            ne_read_floats(o->in + ((uint64_t)off + (uint64_t)grp * o->cg + c) * o->eb, o->fmt, run,
                        dst + (size_t)done * NE_MR, NE_MR);
        done += run, c = 0, ++tap;
    }
}

static void conv_float(const conv_operands *o, const Ncc_NE_GR_Ctl_Regs *ctl) {
    float bpanel[NE_KB * NE_NB]; /* [NE_NB/NE_NR][kc][NE_NR], zero-padded columns */
    float apanel[NE_MB * NE_KB]; /* [NE_MB/NE_MR][kc][NE_MR], zero rows / padding taps */
    const Ncc_NE_GR_Conv_Regs *g = o->g;
    for (uint32_t grp = 0; grp < g->groups; ++grp)
        for (uint32_t j0 = 0; j0 < o->og; j0 += NE_NB) {
            const uint32_t nb = o->og - j0 < NE_NB ? o->og - j0 : NE_NB;
            const uint32_t nb_pad = (nb + NE_NR - 1) / NE_NR * NE_NR;
            const uint32_t ch0 = grp * o->og + j0; /* first output channel of the block */
            for (uint32_t k0 = 0; k0 < o->k; k0 += NE_KB) {
                const uint32_t kc = o->k - k0 < NE_KB ? o->k - k0 : NE_KB;
                const int first = k0 == 0, last = k0 + kc == o->k;
                memset(bpanel, 0, sizeof(float) * kc * nb_pad);
                for (uint32_t p = 0; p < kc; ++p) {
                    const uint32_t tap = (k0 + p) / o->cg, c = (k0 + p) % o->cg;
                    const uint64_t row = (uint64_t)tap * g->w_pitch[1] + (uint64_t)c * g->w_pitch[0] + ch0;
                    for (uint32_t jt = 0; jt < nb_pad; jt += NE_NR) {
                        const uint32_t w = nb - jt < NE_NR ? nb - jt : NE_NR;
                        ne_read_floats(o->w + (row + jt) * o->eb, o->fmt, w, bpanel + (size_t)jt * kc + (size_t)p * NE_NR, 1);
                    }
                }
                for (uint32_t i0 = 0; i0 < o->m; i0 += NE_MB) {
                    const uint32_t mb = o->m - i0 < NE_MB ? o->m - i0 : NE_MB;
                    const uint32_t mb_pad = (mb + NE_MR - 1) / NE_MR * NE_MR;
                    pixel px[NE_MB];
                    memset(apanel, 0, sizeof(float) * kc * mb_pad);
                    for (uint32_t i = 0; i < mb; ++i) {
                        px[i] = pixel_of(g, i0 + i);
                        fill_a_row(o, grp, &px[i], k0, kc, apanel + (size_t)(i / NE_MR) * NE_MR * kc + i % NE_MR);
                    }
                    for (uint32_t it = 0; it < mb_pad; it += NE_MR)
                        for (uint32_t jt = 0; jt < nb_pad; jt += NE_NR) {
                            const uint32_t h = mb - it < NE_MR ? mb - it : NE_MR, w = nb - jt < NE_NR ? nb - jt : NE_NR;
                            float c[NE_MR][NE_NR];
                            memset(c, 0, sizeof c);
                            if (!first || ctl->accumulate)
                                for (uint32_t r = 0; r < h; ++r)
                                    memcpy(c[r], o->out + (px[it + r].out_off + ch0 + jt) * 4, 4 * w);
                            ne_micro_kernel(kc, apanel + (size_t)it * kc, bpanel + (size_t)jt * kc, c);
                            for (uint32_t r = 0; r < h; ++r) {
                                for (uint32_t j = 0; j < w; ++j) {
                                    float x = c[r][j];
                                    if (last && ctl->bias_en)
                                        x = x + cm_bits_to_float(ne_load_u32(o->bias + 4ull * (ch0 + jt + j)));
                                    if (last && ctl->relu_en && x <= 0.0f) x = 0.0f; /* -0 -> +0, as CT relu */
                                    c[r][j] = ne_canonical(x);
                                }
                                memcpy(o->out + (px[it + r].out_off + ch0 + jt) * 4, c[r], 4 * w);
                            }
                        }
                }
            }
        }
}

/* int8 x int8 -> int32, wrapping (products fit in 16 bits; sums wrap modulo 2^32 via uint32 arithmetic). */
static void conv_int8(const conv_operands *o, const Ncc_NE_GR_Ctl_Regs *ctl) {
    enum { JB = 1024 };
    uint32_t acc[JB];
    const Ncc_NE_GR_Conv_Regs *g = o->g;
    const uint32_t taps = g->kernel_h * g->kernel_w;
    for (uint32_t grp = 0; grp < g->groups; ++grp)
        for (uint32_t i = 0; i < o->m; ++i) {
            const pixel px = pixel_of(g, i);
            for (uint32_t j0 = 0; j0 < o->og; j0 += JB) {
                const uint32_t w = o->og - j0 < JB ? o->og - j0 : JB, ch0 = grp * o->og + j0;
                uint8_t *orow = o->out + (px.out_off + ch0) * 4;
                if (ctl->accumulate)
                    memcpy(acc, orow, 4 * (size_t)w);
                else
                    memset(acc, 0, 4 * (size_t)w);
                for (uint32_t tap = 0; tap < taps; ++tap) {
                    const int64_t off = tap_offset(g, &px, tap);
                    if (off < 0) continue; /* zero padding */
                    const int8_t *arow = (const int8_t *)(o->in + (uint64_t)off + (uint64_t)grp * o->cg);
                    for (uint32_t c = 0; c < o->cg; ++c) {
                        const int32_t a = arow[c];
                        const int8_t *wrow =
                            (const int8_t *)(o->w + (uint64_t)tap * g->w_pitch[1] + (uint64_t)c * g->w_pitch[0] + ch0);
                        for (uint32_t j = 0; j < w; ++j) acc[j] += (uint32_t)(a * (int32_t)wrow[j]);
                    }
                }
                for (uint32_t j = 0; j < w; ++j) {
                    uint32_t x = acc[j];
                    if (ctl->bias_en) x += ne_load_u32(o->bias + 4ull * (ch0 + j));
                    if (ctl->relu_en && (int32_t)x < 0) x = 0;
                    acc[j] = x;
                }
                memcpy(orow, acc, 4 * (size_t)w);
            }
        }
}

/* ---- validation and execution ---- */

#define REQUIRE_POSITIVE(field)                                                                  \
    do {                                                                                         \
        if (g->field == 0) return cm_fail(err, CM_ERR_FIELD, INSTR ": " #field " = 0, must be >= 1"); \
    } while (0)

/* Pitch rule: pitch[i] >= count * pitch_below (64-bit; no two elements of one tensor share an address). */
#define REQUIRE_PITCH(name, value, count, below)                                                            \
    do {                                                                                                    \
        if ((uint64_t)(value) < (uint64_t)(count) * (below))                                                \
            return cm_fail(err, CM_ERR_FIELD, INSTR ": " name " = %u is less than %llu", (unsigned)(value), \
                           (unsigned long long)((uint64_t)(count) * (below)));                              \
    } while (0)

static cm_status check_overlap(const char *what, uint64_t out, uint64_t out_bytes, uint64_t x, uint64_t x_bytes,
                               cm_error *err) {
    if (!ne_ranges_overlap(out, out_bytes, x, x_bytes)) return CM_OK;
    return cm_fail(err, CM_ERR_FIELD, INSTR ": out [0x%llx, +%llu) overlaps %s [0x%llx, +%llu)",
                   (unsigned long long)out, (unsigned long long)out_bytes, what, (unsigned long long)x,
                   (unsigned long long)x_bytes);
}

cm_status cm_ne_conv_execute(cm_chip *chip, uint32_t tile, const TsmNeInstr *p, cm_cost *cost, cm_error *err) {
    const Ncc_NE_GR_Ctl_Regs *c = &p->ctrl;
    const Ncc_NE_GR_Param_Regs *q = &p->param;
    const Ncc_NE_GR_Conv_Regs *g = &p->conv;
    if (c->opcode != NE_OP_CONV) return cm_fail(err, CM_ERR_FIELD, INSTR ": opcode = %u is not NE_OP_CONV", c->opcode);
    const cm_status ctl = ne_check_ctl(c, INSTR, err);
    if (ctl != CM_OK) return ctl;
    const Data_Format in = (Data_Format)c->in_fmt;
    REQUIRE_POSITIVE(batch);
    REQUIRE_POSITIVE(in_h);
    REQUIRE_POSITIVE(in_w);
    REQUIRE_POSITIVE(in_c);
    REQUIRE_POSITIVE(out_h);
    REQUIRE_POSITIVE(out_w);
    REQUIRE_POSITIVE(out_c);
    REQUIRE_POSITIVE(groups);
    REQUIRE_POSITIVE(kernel_h);
    REQUIRE_POSITIVE(kernel_w);
    REQUIRE_POSITIVE(stride_h);
    REQUIRE_POSITIVE(stride_w);
    REQUIRE_POSITIVE(dilation_h);
    REQUIRE_POSITIVE(dilation_w);
    if (g->in_c % g->groups || g->out_c % g->groups)
        return cm_fail(err, CM_ERR_FIELD, INSTR ": groups = %u does not divide in_c = %u and out_c = %u", g->groups,
                       g->in_c, g->out_c);
    const uint32_t cg = g->in_c / g->groups, og = g->out_c / g->groups;
    REQUIRE_PITCH("in_pitch[0]", g->in_pitch[0], g->in_c, 1u);
    REQUIRE_PITCH("in_pitch[1]", g->in_pitch[1], g->in_w, g->in_pitch[0]);
    REQUIRE_PITCH("in_pitch[2]", g->in_pitch[2], g->in_h, g->in_pitch[1]);
    REQUIRE_PITCH("out_pitch[0]", g->out_pitch[0], g->out_c, 1u);
    REQUIRE_PITCH("out_pitch[1]", g->out_pitch[1], g->out_w, g->out_pitch[0]);
    REQUIRE_PITCH("out_pitch[2]", g->out_pitch[2], g->out_h, g->out_pitch[1]);
    REQUIRE_PITCH("w_pitch[0]", g->w_pitch[0], g->out_c, 1u);
    REQUIRE_PITCH("w_pitch[1]", g->w_pitch[1], cg, g->w_pitch[0]);

    const uint32_t eb = tx8_format_bytes(in);
    const uint32_t in_ext[3] = {g->in_w, g->in_h, g->batch}, out_ext[3] = {g->out_w, g->out_h, g->batch};
    const uint64_t in_bytes = extent_bytes(in_ext, g->in_pitch, g->in_c, eb);
    const uint64_t out_bytes = extent_bytes(out_ext, g->out_pitch, g->out_c, 4);
    /* weight: kernel_h*kernel_w taps at w_pitch[1] (a kernel row is kernel_w taps), cg channel rows each */
    const uint64_t taps = sat_madd(0, g->kernel_h, g->kernel_w);
    const uint64_t w_elems = sat_madd(sat_madd(g->out_c, cg - 1u, g->w_pitch[0]), taps - 1u, g->w_pitch[1]);
    const uint64_t w_bytes = sat_madd(0, w_elems, eb);
    const uint64_t bias_bytes = c->bias_en ? 4ull * g->out_c : 0;
    conv_operands o;
    o.in = cm_spm_span(chip, tile, q->a_addr, in_bytes, INSTR, "a_addr (in)", err);
    if (!o.in) return err ? err->code : CM_ERR_ADDRESS;
    o.w = cm_spm_span(chip, tile, q->b_addr, w_bytes, INSTR, "b_addr (weight)", err);
    if (!o.w) return err ? err->code : CM_ERR_ADDRESS;
    o.out = cm_spm_span(chip, tile, q->out_addr, out_bytes, INSTR, "out_addr", err);
    if (!o.out) return err ? err->code : CM_ERR_ADDRESS;
    o.bias = NULL;
    if (c->bias_en) {
        o.bias = cm_spm_span(chip, tile, q->bias_addr, bias_bytes, INSTR, "bias_addr", err);
        if (!o.bias) return err ? err->code : CM_ERR_ADDRESS;
    }
    cm_status s = check_overlap("in", q->out_addr, out_bytes, q->a_addr, in_bytes, err);
    if (s == CM_OK) s = check_overlap("weight", q->out_addr, out_bytes, q->b_addr, w_bytes, err);
    if (s == CM_OK && c->bias_en) s = check_overlap("bias", q->out_addr, out_bytes, q->bias_addr, bias_bytes, err);
    if (s != CM_OK) return s;

    o.g = g, o.fmt = in, o.eb = eb, o.cg = cg, o.og = og;
    o.m = g->batch * g->out_h * g->out_w;  /* < 2^32: out lies in SPM */
    o.k = g->kernel_h * g->kernel_w * cg; /* < 2^32: weight lies in SPM */
    if (in == Fmt_INT8)
        conv_int8(&o, c);
    else
        conv_float(&o, c);
    cm_cost_init(cost, I_NEUR);
    cost->fixed_cycles = cm_cycles_ne_conv(&chip->cfg, p);
    cost->op = NE_OP_CONV;
    cost->macs = (uint64_t)o.m * o.k * g->out_c; /* each output channel: k taps of its group */
    cost->dims[0] = o.m, cost->dims[1] = o.k, cost->dims[2] = g->out_c, cost->dims[3] = c->in_fmt;
    cm_cost_span(cost, CM_MEM_SPM(tile), 0, q->a_addr, in_bytes);
    cm_cost_span(cost, CM_MEM_SPM(tile), 0, q->b_addr, w_bytes);
    cm_cost_span(cost, CM_MEM_SPM(tile), 0, q->bias_addr, bias_bytes);
    cm_cost_span(cost, CM_MEM_SPM(tile), 1, q->out_addr, out_bytes);
    return CM_OK;
}

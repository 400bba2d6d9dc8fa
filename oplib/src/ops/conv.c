/*
 * op_conv on the NE: out[N,OH,OW,O] (+)= conv(in[N,H,W,C], weight[KH,KW,C/group,O]) (+ bias[O]) (relu), compact
 * channel-last SPM tensors (tx8/ops.h; exact semantics: NE_OP_CONV in tx8/isa.h).
 *
 * Tiling keeps every NE instruction within TSM_NE_CONV_MAX_M (output pixels), _N (output channels) and _K (terms
 * per group) of tx8/ne.h:
 *   K  the term order is k = (kh, kw, c); tiles are contiguous ranges of it: whole kernel rows when a row fits,
 *      else runs of kernel columns of one row, else channel runs of one tap (then one group per instruction).
 *      Tiles after the first accumulate into out; bias and relu ride on the last. out is fp32/int32 and the engine
 *      adds terms in ascending k, so the tiled result is bit-identical to one big instruction.
 *   M  whole images when one fits, else runs of output rows, else runs of output columns of one row. Every tile
 *      addresses the whole input of its images; a tile's signed top/left pad moves the window (negative inside the
 *      image) and taps outside the input read as zero, exactly as in the big instruction.
 *   N  whole groups when a group's channels fit, else runs of one group's channels.
 * Cycles: the sum of the instructions' cycles. The step sizes: tx8_plan_conv (plan/plan.h).
 */
#include "tx8/hal.h"
#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/check_internal.h"

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* One output tile: where its slices of in, weight, bias and out start (SPM bytes) and its first output row and
 * column. */
typedef struct conv_tile {
    uint64_t in, w, bias, out;
    int has_bias;
    uint32_t y0, x0;
} conv_tile;

/* Issues the K tiles of output tile t (g has its batch, out_h/out_w, groups and out_c set), in ascending k. */
static uint64_t issue_k_tiles(const CONV_PARAM *param, const conv_dims *d, const conv_steps *s, const conv_tile *t,
                              Ncc_NE_GR_Conv_Regs *g) {
    const uint64_t eb = tx8_format_bytes(d->in_fmt), tap_pitch = (uint64_t)d->cg * d->o;
    uint64_t total = 0;
    for (uint32_t kh0 = 0; kh0 < d->kh; kh0 += s->kh)
        for (uint32_t kw0 = 0; kw0 < d->kw; kw0 += s->kw)
            for (uint32_t c0 = 0; c0 < d->cg; c0 += s->c) {
                const uint32_t nc = min_u32(s->c, d->cg - c0);
                g->kernel_h = min_u32(s->kh, d->kh - kh0), g->kernel_w = min_u32(s->kw, d->kw - kw0);
                g->in_c = g->groups * nc;
                /* the tile's window: tap (0, 0) of output (y0, x0) reads input row y0*stride_h - pad_top +
                 * kh0*dilation_h (columns alike); fits in int32 as tx8_check_conv_dims keeps the padded input below 2^31 */
                g->pad_top = (int32_t)((int64_t)param->pad_top - (int64_t)t->y0 * param->stride_h -
                                       (int64_t)kh0 * param->dilation_h);
                g->pad_left = (int32_t)((int64_t)param->pad_left - (int64_t)t->x0 * param->stride_w -
                                        (int64_t)kw0 * param->dilation_w);
                const int first = kh0 == 0 && kw0 == 0 && c0 == 0;
                const int last = kh0 + g->kernel_h == d->kh && kw0 + g->kernel_w == d->kw && c0 + nc == d->cg;
                const uint64_t w_off = ((uint64_t)kh0 * d->kw + kw0) * tap_pitch + (uint64_t)c0 * d->o;
                TsmNeInstr p;
                TsmNe_conv(&p, t->in + c0 * eb, t->w + w_off * eb, t->bias, t->out, g, d->in_fmt, d->out_fmt,
                           first ? param->accumulate : 1u, t->has_bias && last ? 1u : 0u, last ? param->relu_en : 0u);
                total = ADD_VALID_CYCLE(total, TsmExecute(&p));
                if (total == TX8_CYCLES_INVALID) return total;
            }
    return total;
}

uint64_t op_conv(CONV_PARAM *param, TSR *in, TSR *weight, TSR *bias, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    conv_dims d;
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_conv_dims(hw, param, in, weight, bias, out, &d, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    conv_steps s;
    tx8_plan_conv(hw, &d, param->group, &s);
    const uint64_t eb = tx8_format_bytes(d.in_fmt);
    const uint64_t in_image = (uint64_t)d.h * d.w * d.c, out_image = (uint64_t)d.oh * d.ow * d.o;

    /* every tile addresses the compact tensors with their own pitches (32-bit: the tensors lie in SPM) */
    Ncc_NE_GR_Conv_Regs g = {0};
    g.in_h = d.h, g.in_w = d.w;
    g.stride_h = param->stride_h, g.stride_w = param->stride_w;
    g.dilation_h = param->dilation_h, g.dilation_w = param->dilation_w;
    g.in_pitch[0] = d.c, g.in_pitch[1] = d.w * d.c, g.in_pitch[2] = (uint32_t)in_image;
    g.out_pitch[0] = d.o, g.out_pitch[1] = d.ow * d.o, g.out_pitch[2] = (uint32_t)out_image;
    g.w_pitch[0] = d.o, g.w_pitch[1] = d.cg * d.o;

    uint64_t total = 0;
    for (uint32_t g0 = 0; g0 < param->group; g0 += s.g)
        for (uint32_t o0 = 0; o0 < d.og; o0 += s.oc)
            for (uint32_t n0 = 0; n0 < d.n; n0 += s.n)
                for (uint32_t y0 = 0; y0 < d.oh; y0 += s.y)
                    for (uint32_t x0 = 0; x0 < d.ow; x0 += s.x) {
                        const uint64_t ch = (uint64_t)g0 * d.og + o0; /* first output channel of the tile */
                        g.groups = min_u32(s.g, param->group - g0);
                        g.out_c = g.groups * min_u32(s.oc, d.og - o0);
                        g.batch = min_u32(s.n, d.n - n0);
                        g.out_h = min_u32(s.y, d.oh - y0), g.out_w = min_u32(s.x, d.ow - x0);
                        conv_tile t;
                        t.in = in->addr + (n0 * in_image + (uint64_t)g0 * d.cg) * eb;
                        t.w = weight->addr + ch * eb;
                        t.bias = bias ? bias->addr + ch * 4 : 0, t.has_bias = bias != NULL;
                        t.out = out->addr + (n0 * out_image + ((uint64_t)y0 * d.ow + x0) * d.o + ch) * 4;
                        t.y0 = y0, t.x0 = x0;
                        total = ADD_VALID_CYCLE(total, issue_k_tiles(param, &d, &s, &t, &g));
                        if (total == TX8_CYCLES_INVALID) return total;
                    }
    return total;
}

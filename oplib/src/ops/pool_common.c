/* Validation and issue for the pooling ops; see pool_common.h. */
#include "pool_common.h"

#include <string.h>

#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/tsm.h"

#define POOL_MAX_EXTENT 65535 /* the POOL_2D geometry registers (tx8/isa.h) */

static int is_pool_format(Data_Format f) { return f == Fmt_FP32 || f == Fmt_FP16 || f == Fmt_BF16; }

int pool_check_tensors(const char *op, LAYOUT_MODE layout, TSR *in, TSR *out, pool_plan *pl) {
    const tx8_hw_config *hw = tx8_hal_config();
    TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    memset(pl, 0, sizeof *pl);
    for (int i = 0; i < 2; ++i) {
        if (!t[i] || !t[i]->shape) return tx8_hal_fault("%s: %s (or its shape) is NULL", op, names[i]), -1;
        if (t[i]->shape->dim != 4)
            return tx8_hal_fault("%s: %s->shape->dim = %d, must be 4 ([N][H][W][C])", op, names[i],
                                 t[i]->shape->dim), -1;
        if (!is_pool_format(t[i]->format))
            return tx8_hal_fault("%s: %s->format = %s, must be fp32, fp16 or bf16", op, names[i],
                                 tx8_format_name(t[i]->format)), -1;
    }
    if (out->format != in->format)
        return tx8_hal_fault("%s: out->format = %s differs from in->format = %s", op, tx8_format_name(out->format),
                             tx8_format_name(in->format)), -1;
    const int32_t *si = in->shape->shape_real, *so = out->shape->shape_real;
    if (so[0] != si[0] || so[3] != si[3])
        return tx8_hal_fault("%s: out is [%d][%d][%d][%d], in is [%d][%d][%d][%d]; N and C must match", op, so[0],
                             so[1], so[2], so[3], si[0], si[1], si[2], si[3]), -1;
    if ((unsigned)layout >= LAYOUT_COUNT)
        return tx8_hal_fault("%s: param->layout = %d is not a LAYOUT_MODE", op, (int)layout), -1;
    const uint32_t align = tx8_hw_batch_align_bytes(hw);
    for (int i = 0; i < 2; ++i) {
        tx8_layout *l = i ? &pl->out : &pl->in;
        if (tx8_layout_init(l, layout, t[i]->format, t[i]->shape->shape_real, 4, align) != 0)
            return tx8_hal_fault("%s: %s->shape_real is not valid in layout %s (extents must be > 0; Tensor and Cx "
                                 "need N == 1)", op, names[i], tx8_layout_name(layout)), -1;
        const int32_t *s = t[i]->shape->shape_real;
        if (s[1] > POOL_MAX_EXTENT || s[2] > POOL_MAX_EXTENT)
            return tx8_hal_fault("%s: %s is %d x %d spatially, at most %d x %d", op, names[i], s[1], s[2],
                                 POOL_MAX_EXTENT, POOL_MAX_EXTENT), -1;
        const uint64_t spm = hw->spm_bytes;
        if (t[i]->addr > spm || l->total_bytes > spm - t[i]->addr)
            return tx8_hal_fault("%s: %s [0x%llx, 0x%llx) is outside SPM [0, 0x%llx)", op, names[i],
                                 (unsigned long long)t[i]->addr, (unsigned long long)(t[i]->addr + l->total_bytes),
                                 (unsigned long long)spm), -1;
    }
    if (in->addr < out->addr + pl->out.total_bytes && out->addr < in->addr + pl->in.total_bytes)
        return tx8_hal_fault("%s: out [0x%llx, 0x%llx) overlaps in [0x%llx, 0x%llx)", op,
                             (unsigned long long)out->addr, (unsigned long long)(out->addr + pl->out.total_bytes),
                             (unsigned long long)in->addr, (unsigned long long)(in->addr + pl->in.total_bytes)), -1;
    pl->geom.in_h = (uint32_t)si[1];
    pl->geom.in_w = (uint32_t)si[2];
    pl->geom.out_h = (uint32_t)so[1];
    pl->geom.out_w = (uint32_t)so[2];
    return 0;
}

/* One spatial dim: the dilated kernel must fit the padded input and `out` must be the floor or ceil_mode extent
 * (tx8/ops.h). dim_name "H"/"W", axis 1/2 for messages. */
static int check_extent(const char *op, const char *dim_name, int axis, uint32_t in, uint32_t out, uint32_t k,
                        uint32_t s, uint32_t d, uint32_t pb, uint32_t pe) {
    const int64_t span = ((int64_t)k - 1) * d + 1, padded = (int64_t)in + pb + pe;
    if (padded < span)
        return tx8_hal_fault("%s: the dilated kernel spans %lld along %s, more than the padded input %lld (%u + pads "
                             "%u + %u)", op, (long long)span, dim_name, (long long)padded, in, pb, pe), -1;
    const int64_t fl = (padded - span) / s + 1;
    int64_t ce = (padded - span + s - 1) / s + 1;
    if ((ce - 1) * s >= (int64_t)in + pb) --ce; /* ceil_mode drops a last window starting in the end padding */
    if (out == fl || out == ce) return 0;
    if (ce == fl)
        return tx8_hal_fault("%s: out->shape->shape_real[%d] = %u, must be %lld for %s %u, kernel %u, stride %u, "
                             "dilation %u, pads %u + %u", op, axis, out, (long long)fl, dim_name, in, k, s, d, pb,
                             pe), -1;
    return tx8_hal_fault("%s: out->shape->shape_real[%d] = %u, must be %lld (floor) or %lld (ceil_mode) for %s %u, "
                         "kernel %u, stride %u, dilation %u, pads %u + %u", op, axis, out, (long long)fl,
                         (long long)ce, dim_name, in, k, s, d, pb, pe), -1;
}

int pool_check_window(const char *op, const POOL_PARAM *param, int avg, pool_plan *pl) {
    const struct { const char *name; int64_t v, lo; } f[] = {
        {"kernel_h", param->kernel_h, 1},     {"kernel_w", param->kernel_w, 1},
        {"stride_h", param->stride_h, 1},     {"stride_w", param->stride_w, 1},
        {"dilation_h", param->dilation_h, 1}, {"dilation_w", param->dilation_w, 1},
        {"pad_top", param->pad_top, 0},       {"pad_left", param->pad_left, 0},
        {"pad_bottom", param->pad_bottom, 0}, {"pad_right", param->pad_right, 0},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
        if (f[i].v < f[i].lo || f[i].v > POOL_MAX_EXTENT)
            return tx8_hal_fault("%s: param->%s = %lld, must be %lld..%d", op, f[i].name, (long long)f[i].v,
                                 (long long)f[i].lo, POOL_MAX_EXTENT), -1;
    if (avg && param->count_include_pad > 1)
        return tx8_hal_fault("%s: param->count_include_pad = %u, must be 0 or 1", op, param->count_include_pad), -1;
    Ncc_CT_GR_Pool_Regs *g = &pl->geom;
    g->kernel_h = param->kernel_h;
    g->kernel_w = param->kernel_w;
    g->stride_h = param->stride_h;
    g->stride_w = param->stride_w;
    g->dilation_h = param->dilation_h;
    g->dilation_w = param->dilation_w;
    g->pad_top = (uint32_t)param->pad_top;
    g->pad_left = (uint32_t)param->pad_left;
    g->pad_bottom = (uint32_t)param->pad_bottom;
    g->pad_right = (uint32_t)param->pad_right;
    g->count_include_pad = avg ? param->count_include_pad : 0;
    if (check_extent(op, "H", 1, g->in_h, g->out_h, g->kernel_h, g->stride_h, g->dilation_h, g->pad_top,
                     g->pad_bottom) != 0)
        return -1;
    return check_extent(op, "W", 2, g->in_w, g->out_w, g->kernel_w, g->stride_w, g->dilation_w, g->pad_left,
                        g->pad_right);
}

static uint64_t issue_one(const pool_plan *pl, CT_OPCODE op, uint64_t src, uint64_t dst, uint32_t images,
                          uint32_t channels) {
    CT_Param ct;
    if (op == CT_OP_POOL_MAX) CGRATensor_PoolOp_T_max(&ct, src, dst, images, channels, &pl->geom, pl->in.fmt);
    else CGRATensor_PoolOp_T_avg(&ct, src, dst, images, channels, &pl->geom, RND_NEAREST_EVEN, pl->in.fmt);
    return TsmExecute(&ct);
}

uint64_t pool_issue(const pool_plan *pl, CT_OPCODE op, uint64_t in_addr, uint64_t out_addr) {
    const tx8_layout *li = &pl->in, *lo = &pl->out;
    const uint64_t eb = li->elem_bytes;
    /* NHWC batches that are exactly one image apart on both sides (always for compact layouts): one instruction */
    if (!li->c_split && li->batch_stride_bytes == (uint64_t)li->hw * li->c0_aligned * eb &&
        lo->batch_stride_bytes == (uint64_t)lo->hw * lo->c0_aligned * eb)
        return issue_one(pl, op, in_addr, out_addr, li->n, li->c0_aligned);
    uint64_t total = 0;
    for (uint32_t b = 0; b < li->n && total != TX8_CYCLES_INVALID; ++b) {
        const uint64_t s = in_addr + b * li->batch_stride_bytes, d = out_addr + b * lo->batch_stride_bytes;
        if (!li->c_split) { /* [HW][Ca]: one image of the aligned channel count */
            total = ADD_VALID_CYCLE(total, issue_one(pl, op, s, d, 1, li->c0_aligned));
            continue;
        }
        if (li->cx) /* [Cx][HW][U]: Cx consecutive images of U channels */
            total = ADD_VALID_CYCLE(total, issue_one(pl, op, s, d, li->cx, li->unit));
        if (li->c0_aligned && total != TX8_CYCLES_INVALID) /* then [HW][C0a] */
            total = ADD_VALID_CYCLE(total, issue_one(pl, op, s + (uint64_t)li->cx * li->hw * li->unit * eb,
                                                     d + (uint64_t)lo->cx * lo->hw * lo->unit * eb, 1,
                                                     li->c0_aligned));
    }
    return total;
}

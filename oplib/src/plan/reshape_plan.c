/* op_reshape's layouts and TDMA boxes (plan.h; the segments are described in lsu/reshape.c, which issues them). */
#include "plan.h"

static uint64_t diff(const tx8_layout *l, uint32_t n, uint32_t hw, uint32_t c, uint64_t base) {
    return tx8_layout_offset(l, n, hw, c) - base;
}

int tx8_plan_reshape(const tx8_hw_config *hw, const RESHAPE_PARAM *param, Data_Format fmt, const int32_t *shape,
                     int32_t dim, reshape_plan *pl) {
    const uint32_t align = tx8_hw_batch_align_bytes(hw);
    tx8_layout *li = &pl->in, *lo = &pl->out;
    pl->nseg = 0;
    if (tx8_layout_init(li, param->in_layout, fmt, shape, dim, align) != 0) return -1;
    if (tx8_layout_init(lo, param->out_layout, fmt, shape, dim, align) != 0) return -2;
    const uint32_t eb = li->elem_bytes, C = li->c, U = li->unit ? li->unit : lo->unit;
    const int split = li->c_split || lo->c_split;
    const uint32_t full = split ? C / U : 0; /* full U-channel blocks (segment 0 when split) */
    for (int seg = 0; seg < 2; ++seg) {
        uint32_t c_lo, width, blocks;
        if (!split) {
            if (seg) break;
            c_lo = 0, width = C, blocks = 1;
        } else if (seg == 0) {
            if (full == 0) continue;
            c_lo = 0, width = U, blocks = full;
        } else {
            if (full * U == C) break;
            c_lo = full * U, width = C - full * U, blocks = 1;
        }
        reshape_seg *g = &pl->seg[pl->nseg++];
        const uint64_t bi = tx8_layout_offset(li, 0, 0, c_lo), bo = tx8_layout_offset(lo, 0, 0, c_lo);
        g->src_off = bi, g->dst_off = bo;
        /* dims innermost first: channel, hw, block, batch */
        g->shape[0] = width, g->shape[1] = li->hw, g->shape[2] = blocks, g->shape[3] = li->n;
        g->src_stride[0] = eb;
        g->src_stride[1] = li->hw > 1 ? diff(li, 0, 1, c_lo, bi) : 0;
        g->src_stride[2] = blocks > 1 ? diff(li, 0, 0, c_lo + U, bi) : 0;
        g->src_stride[3] = li->batch_stride_bytes;
        g->dst_stride[0] = eb;
        g->dst_stride[1] = lo->hw > 1 ? diff(lo, 0, 1, c_lo, bo) : 0;
        g->dst_stride[2] = blocks > 1 ? diff(lo, 0, 0, c_lo + U, bo) : 0;
        g->dst_stride[3] = lo->batch_stride_bytes;
    }
    return 0;
}

/* The DMA boxes of a slice move (plan.h; the rules per layout are in lsu/lsu_slice.c, which issues them). */
#include "plan.h"

static void box_push(lsu_box *b, uint64_t count, uint64_t ddr_stride, uint64_t spm_stride) {
    b->d[b->nd++] = (lsu_box_dim){count, ddr_stride, spm_stride};
}

void tx8_plan_lsu_box_simplify(lsu_box *b) {
    int n = 0;
    for (int i = 0; i < b->nd; ++i)
        if (b->d[i].count != 1) b->d[n++] = b->d[i];
    b->nd = n;
    while (b->nd && b->d[b->nd - 1].ddr_stride == b->run && b->d[b->nd - 1].spm_stride == b->run)
        b->run *= b->d[--b->nd].count;
    for (int i = b->nd - 2; i >= 0; --i) {
        lsu_box_dim *o = &b->d[i], *in = &b->d[i + 1];
        if (o->ddr_stride == in->count * in->ddr_stride && o->spm_stride == in->count * in->spm_stride) {
            in->count *= o->count;
            for (int j = i; j < b->nd - 1; ++j) b->d[j] = b->d[j + 1];
            b->nd--;
        }
    }
}

int tx8_plan_lsu_slice(const tx8_hw_config *hw, LAYOUT_MODE layout, const TSR *ddr, uint64_t spm_addr,
                       const int32_t *start, const int32_t *real, lsu_slice_plan *pl) {
    const int32_t *whole = ddr->shape->shape_whole;
    const int32_t dim = ddr->shape->dim;
    const uint32_t eb = tx8_format_bytes(ddr->format);
    pl->nbox = 0;
    if (layout == LAYOUT_TENSOR || layout == LAYOUT_NTENSOR) {
        lsu_box *b = &pl->box[pl->nbox++];
        b->ddr = ddr->addr, b->spm = spm_addr, b->run = eb, b->nd = 0;
        uint64_t ds = eb, ss = eb;
        uint64_t dstride[MAX_SHAPE_DIM], sstride[MAX_SHAPE_DIM];
        for (int32_t i = dim - 1; i >= 0; --i) {
            dstride[i] = ds, sstride[i] = ss;
            ds *= (uint64_t)whole[i], ss *= (uint64_t)real[i];
        }
        for (int32_t i = 0; i < dim; ++i) {
            box_push(b, (uint64_t)real[i], dstride[i], sstride[i]);
            b->ddr += (uint64_t)start[i] * dstride[i];
        }
        pl->ddr_bytes = ds, pl->spm_bytes = ss;
    } else {
        tx8_layout lw, ls;
        const uint32_t align = tx8_hw_batch_align_bytes(hw);
        if (tx8_layout_init(&lw, layout, ddr->format, whole, dim, align) != 0 ||
            tx8_layout_init(&ls, layout, ddr->format, real, dim, align) != 0)
            return -1;
        /* part 0: the Cx blocks ([blk][hw][U]) or the whole NHWC row; part 1: the C0 part ([hw][C0a]) */
        for (int part = 0; part < 2; ++part) {
            uint64_t row, blocks, base_w, base_s;
            if (!lw.c_split) {
                if (part) break;
                row = (uint64_t)lw.c0_aligned * eb, blocks = 1, base_w = base_s = 0;
            } else if (part == 0) {
                row = (uint64_t)lw.unit * eb, blocks = lw.cx, base_w = base_s = 0;
            } else {
                if (lw.c0_aligned == 0) break;
                row = (uint64_t)lw.c0_aligned * eb, blocks = 1;
                base_w = (uint64_t)lw.cx * lw.hw * lw.unit * eb, base_s = (uint64_t)ls.cx * ls.hw * ls.unit * eb;
            }
            lsu_box *b = &pl->box[pl->nbox++];
            b->ddr = ddr->addr + base_w + (uint64_t)start[0] * lw.batch_stride_bytes;
            b->spm = spm_addr + base_s;
            b->run = row, b->nd = 0;
            box_push(b, (uint64_t)real[0], lw.batch_stride_bytes, ls.batch_stride_bytes);
            box_push(b, blocks, (uint64_t)lw.hw * lw.unit * eb, (uint64_t)ls.hw * ls.unit * eb);
            uint64_t ds = row, ss = row;
            uint64_t dstride[MAX_SHAPE_DIM], sstride[MAX_SHAPE_DIM];
            for (int32_t i = dim - 2; i >= 1; --i) {
                dstride[i] = ds, sstride[i] = ss;
                ds *= (uint64_t)whole[i], ss *= (uint64_t)real[i];
            }
            for (int32_t i = 1; i <= dim - 2; ++i) {
                box_push(b, (uint64_t)real[i], dstride[i], sstride[i]);
                b->ddr += (uint64_t)start[i] * dstride[i];
            }
        }
        pl->ddr_bytes = lw.total_bytes, pl->spm_bytes = ls.total_bytes;
    }
    for (int i = 0; i < pl->nbox; ++i) tx8_plan_lsu_box_simplify(&pl->box[i]);
    return 0;
}

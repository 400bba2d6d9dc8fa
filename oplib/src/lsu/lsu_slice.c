/*
 * The slice mover behind op_loadVar / op_loadConst / op_dma_store / op_store_var_ncx.
 *
 * A slice is described as a "box": a contiguous run of bytes plus up to 8 outer dimensions, each with a count and
 * a byte stride on the DDR side and on the SPM side. Dimensions of count 1 are dropped, a dimension whose strides
 * equal the run on both sides is folded into the run, and neighbouring dimensions that are contiguous on both sides
 * are merged. What is left maps onto RDMA/WDMA boxes (run + 2 dims); more dims loop over the outermost ones.
 *
 *   Tensor / NTensor: row-major over shape_whole (DDR) and shape_real (SPM); the last dim is the run.
 *   Cx / NCx:         per batch, [Cx blocks][spatial][U] and then [spatial][C0a] (tx8/layout.h). The Cx blocks
 *                     are one more dimension (stride HW*U bytes), the C0 part a second box; the run is one
 *                     padded channel row (U or C0a elements).
 */
#include "lsu_internal.h"

#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/tsm.h"

#define MAX_BOX_DIMS 8

typedef struct box_dim {
    uint64_t count, ddr_stride, spm_stride;
} box_dim;

typedef struct box {
    uint64_t ddr, spm, run;
    int nd;
    box_dim d[MAX_BOX_DIMS]; /* outermost first */
} box;

static void box_push(box *b, uint64_t count, uint64_t ddr_stride, uint64_t spm_stride) {
    b->d[b->nd++] = (box_dim){count, ddr_stride, spm_stride};
}

static void box_simplify(box *b) {
    int n = 0;
    for (int i = 0; i < b->nd; ++i)
        if (b->d[i].count != 1) b->d[n++] = b->d[i];
    b->nd = n;
    while (b->nd && b->d[b->nd - 1].ddr_stride == b->run && b->d[b->nd - 1].spm_stride == b->run)
        b->run *= b->d[--b->nd].count;
    for (int i = b->nd - 2; i >= 0; --i) {
        box_dim *o = &b->d[i], *in = &b->d[i + 1];
        if (o->ddr_stride == in->count * in->ddr_stride && o->spm_stride == in->count * in->spm_stride) {
            in->count *= o->count;
            for (int j = i; j < b->nd - 1; ++j) b->d[j] = b->d[j + 1];
            b->nd--;
        }
    }
}

static int box_fits(const char *op, const box *b) {
    if (b->run > UINT32_MAX) {
        tx8_hal_fault("%s: a contiguous run of %llu bytes does not fit a DMA size field", op,
                      (unsigned long long)b->run);
        return 0;
    }
    for (int i = 0; i < b->nd; ++i)
        if (b->d[i].count > UINT32_MAX || b->d[i].spm_stride > UINT32_MAX) {
            tx8_hal_fault("%s: a count or SPM stride does not fit a DMA field", op);
            return 0;
        }
    return 1;
}

static uint64_t box_issue(const box *b, int level, uint64_t ddr, uint64_t spm, int to_spm) {
    if (b->nd - level > 2) {
        uint64_t total = 0;
        const box_dim *d = &b->d[level];
        for (uint64_t i = 0; i < d->count && total != TX8_CYCLES_INVALID; ++i)
            total = ADD_VALID_CYCLE(total, box_issue(b, level + 1, ddr + i * d->ddr_stride, spm + i * d->spm_stride,
                                                     to_spm));
        return total;
    }
    const int left = b->nd - level;
    const box_dim one = {1, 0, 0};
    const box_dim *d1 = left >= 1 ? &b->d[b->nd - 1] : &one; /* inner */
    const box_dim *d2 = left >= 2 ? &b->d[b->nd - 2] : &one; /* outer */
    DMA_Param p;
    if (to_spm)
        LSU_RDMA_box(&p, ddr, spm, (uint32_t)b->run, (uint32_t)d1->count, d1->ddr_stride, (uint32_t)d1->spm_stride,
                     (uint32_t)d2->count, d2->ddr_stride, (uint32_t)d2->spm_stride);
    else
        LSU_WDMA_box(&p, ddr, spm, (uint32_t)b->run, (uint32_t)d1->count, d1->ddr_stride, (uint32_t)d1->spm_stride,
                     (uint32_t)d2->count, d2->ddr_stride, (uint32_t)d2->spm_stride);
    return TsmExecute(&p);
}

static const char *side(int to_spm, int ddr_side) {
    return ddr_side ? (to_spm ? "ddr_src" : "ddr_dst") : (to_spm ? "spm_dst" : "spm_src");
}

uint64_t tx8_lsu_move_slice(const char *op, LAYOUT_MODE layout, const TSR *ddr, const TSR *spm, int to_spm,
                            int whole) {
    if (!ddr || !ddr->shape) {
        tx8_hal_fault("%s: %s or its shape is NULL", op, side(to_spm, 1));
        return TX8_CYCLES_INVALID;
    }
    if (!spm) {
        tx8_hal_fault("%s: %s is NULL", op, side(to_spm, 0));
        return TX8_CYCLES_INVALID;
    }
    if ((uint32_t)layout >= LAYOUT_COUNT) {
        tx8_hal_fault("%s: layout = %d is not a LAYOUT_MODE", op, (int)layout);
        return TX8_CYCLES_INVALID;
    }
    const L_SHAPE *s = ddr->shape;
    const int32_t dim = s->dim;
    const uint32_t eb = tx8_format_bytes(ddr->format);
    if (eb == 0) {
        tx8_hal_fault("%s: %s format = %d is not a Data_Format", op, side(to_spm, 1), (int)ddr->format);
        return TX8_CYCLES_INVALID;
    }
    if (spm->format != ddr->format) {
        tx8_hal_fault("%s: %s format %s differs from %s format %s", op, side(to_spm, 0),
                      tx8_format_name(spm->format), side(to_spm, 1), tx8_format_name(ddr->format));
        return TX8_CYCLES_INVALID;
    }
    const int compact = layout == LAYOUT_TENSOR || layout == LAYOUT_NTENSOR;
    if (dim < (compact ? 1 : 2) || dim > (compact ? MAX_SHAPE_DIM : 4)) {
        tx8_hal_fault("%s: %s dim = %d, expected %s for layout %s", op, side(to_spm, 1), (int)dim,
                      compact ? "1..6" : "2..4", tx8_layout_name(layout));
        return TX8_CYCLES_INVALID;
    }
    int32_t start[MAX_SHAPE_DIM], real[MAX_SHAPE_DIM];
    for (int32_t i = 0; i < dim; ++i) {
        start[i] = whole ? 0 : s->shape_start[i];
        real[i] = whole ? s->shape_whole[i] : s->shape_real[i];
        if (s->shape_whole[i] <= 0 || real[i] <= 0 || start[i] < 0 ||
            (int64_t)start[i] + real[i] > s->shape_whole[i]) {
            tx8_hal_fault("%s: %s dim %d: slice [%d, +%d) is not inside [0, %d)", op, side(to_spm, 1), (int)i,
                          (int)start[i], (int)real[i], (int)s->shape_whole[i]);
            return TX8_CYCLES_INVALID;
        }
    }
    if (spm->shape && !whole) {
        int ok = spm->shape->dim == dim;
        for (int32_t i = 0; ok && i < dim; ++i) ok = spm->shape->shape_real[i] == real[i];
        if (!ok) {
            tx8_hal_fault("%s: %s shape_real differs from the slice's shape_real", op, side(to_spm, 0));
            return TX8_CYCLES_INVALID;
        }
    }

    box boxes[2];
    int nbox = 0;
    uint64_t ddr_bytes, spm_bytes; /* extents, checked before the first instruction */
    if (compact) {
        box *b = &boxes[nbox++];
        b->ddr = ddr->addr, b->spm = spm->addr, b->run = eb, b->nd = 0;
        uint64_t ds = eb, ss = eb;
        uint64_t dstride[MAX_SHAPE_DIM], sstride[MAX_SHAPE_DIM];
        for (int32_t i = dim - 1; i >= 0; --i) {
            dstride[i] = ds, sstride[i] = ss;
            ds *= (uint64_t)s->shape_whole[i], ss *= (uint64_t)real[i];
        }
        for (int32_t i = 0; i < dim; ++i) {
            box_push(b, (uint64_t)real[i], dstride[i], sstride[i]);
            b->ddr += (uint64_t)start[i] * dstride[i];
        }
        ddr_bytes = ds, spm_bytes = ss;
    } else {
        if (start[dim - 1] != 0 || real[dim - 1] != s->shape_whole[dim - 1]) {
            tx8_hal_fault("%s: %s C slice [%d, +%d) of %d: Cx/NCx slices must keep the whole C", op,
                          side(to_spm, 1), (int)start[dim - 1], (int)real[dim - 1], (int)s->shape_whole[dim - 1]);
            return TX8_CYCLES_INVALID;
        }
        tx8_layout lw, ls;
        const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
        if (tx8_layout_init(&lw, layout, ddr->format, s->shape_whole, dim, align) != 0 ||
            tx8_layout_init(&ls, layout, ddr->format, real, dim, align) != 0) {
            tx8_hal_fault("%s: %s shape is not valid in layout %s (Cx needs N == 1)", op, side(to_spm, 1),
                          tx8_layout_name(layout));
            return TX8_CYCLES_INVALID;
        }
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
            box *b = &boxes[nbox++];
            b->ddr = ddr->addr + base_w + (uint64_t)start[0] * lw.batch_stride_bytes;
            b->spm = spm->addr + base_s;
            b->run = row, b->nd = 0;
            box_push(b, (uint64_t)real[0], lw.batch_stride_bytes, ls.batch_stride_bytes);
            box_push(b, blocks, (uint64_t)lw.hw * lw.unit * eb, (uint64_t)ls.hw * ls.unit * eb);
            uint64_t ds = row, ss = row;
            uint64_t dstride[MAX_SHAPE_DIM], sstride[MAX_SHAPE_DIM];
            for (int32_t i = dim - 2; i >= 1; --i) {
                dstride[i] = ds, sstride[i] = ss;
                ds *= (uint64_t)s->shape_whole[i], ss *= (uint64_t)real[i];
            }
            for (int32_t i = 1; i <= dim - 2; ++i) {
                box_push(b, (uint64_t)real[i], dstride[i], sstride[i]);
                b->ddr += (uint64_t)start[i] * dstride[i];
            }
        }
        ddr_bytes = lw.total_bytes, spm_bytes = ls.total_bytes;
    }

    const tx8_hw_config *cfg = tx8_hal_config();
    if (ddr->addr > cfg->ddr_bytes || ddr_bytes > cfg->ddr_bytes - ddr->addr) {
        tx8_hal_fault("%s: %s = 0x%llx + %llu bytes is outside DDR", op, side(to_spm, 1),
                      (unsigned long long)ddr->addr, (unsigned long long)ddr_bytes);
        return TX8_CYCLES_INVALID;
    }
    if (spm->addr > cfg->spm_bytes || spm_bytes > cfg->spm_bytes - spm->addr) {
        tx8_hal_fault("%s: %s = 0x%llx + %llu bytes is outside SPM", op, side(to_spm, 0),
                      (unsigned long long)spm->addr, (unsigned long long)spm_bytes);
        return TX8_CYCLES_INVALID;
    }
    for (int i = 0; i < nbox; ++i) {
        box_simplify(&boxes[i]);
        if (!box_fits(op, &boxes[i])) return TX8_CYCLES_INVALID;
    }
    uint64_t total = 0;
    for (int i = 0; i < nbox && total != TX8_CYCLES_INVALID; ++i)
        total = ADD_VALID_CYCLE(total, box_issue(&boxes[i], 0, boxes[i].ddr, boxes[i].spm, to_spm));
    return total;
}

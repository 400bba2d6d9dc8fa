/*
 * The slice mover behind op_loadVar / op_loadConst / op_dma_store / op_store_var_ncx.
 *
 * A slice is described as a "box": a contiguous run of bytes plus up to 8 outer dimensions, each with a count and
 * a byte stride on the DDR side and on the SPM side. Dimensions of count 1 are dropped, a dimension whose strides
 * equal the run on both sides is folded into the run, and neighbouring dimensions that are contiguous on both sides
 * are merged. What is left maps onto RDMA/WDMA boxes (run + 2 dims); more dims loop over the outermost ones. The
 * boxes are planned by tx8_plan_lsu_slice (plan/plan.h); this file checks the arguments and issues them, executed
 * (op_loadVar, ...) or queued on the RDMA / WDMA engine (the *_async forms: every box after the caller's deps, the
 * move's token being its last box's, which one engine completes after all the earlier ones).
 *
 *   Tensor / NTensor: row-major over shape_whole (DDR) and shape_real (SPM); the last dim is the run.
 *   Cx / NCx:         per batch, [Cx blocks][spatial][U] and then [spatial][C0a] (tx8/layout.h). The Cx blocks
 *                     are one more dimension (stride HW*U bytes), the C0 part a second box; the run is one
 *                     padded channel row (U or C0a elements).
 */
#include "lsu_internal.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"

static int box_fits(const char *op, const lsu_box *b) {
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


static uint64_t box_issue(const lsu_box *b, int level, uint64_t ddr, uint64_t spm, int to_spm, lsu_issue_mode *m) {
    if (b->nd - level > 2) {
        uint64_t total = 0;
        const lsu_box_dim *d = &b->d[level];
        for (uint64_t i = 0; i < d->count && total != TX8_CYCLES_INVALID; ++i)
            total = ADD_VALID_CYCLE(total, box_issue(b, level + 1, ddr + i * d->ddr_stride, spm + i * d->spm_stride,
                                                     to_spm, m));
        return total;
    }
    const int left = b->nd - level;
    const lsu_box_dim one = {1, 0, 0};
    const lsu_box_dim *d1 = left >= 1 ? &b->d[b->nd - 1] : &one; /* inner */
    const lsu_box_dim *d2 = left >= 2 ? &b->d[b->nd - 2] : &one; /* outer */
    DMA_Param p;
    if (to_spm)
        LSU_RDMA_box(&p, ddr, spm, (uint32_t)b->run, (uint32_t)d1->count, d1->ddr_stride, (uint32_t)d1->spm_stride,
                     (uint32_t)d2->count, d2->ddr_stride, (uint32_t)d2->spm_stride);
    else
        LSU_WDMA_box(&p, ddr, spm, (uint32_t)b->run, (uint32_t)d1->count, d1->ddr_stride, (uint32_t)d1->spm_stride,
                     (uint32_t)d2->count, d2->ddr_stride, (uint32_t)d2->spm_stride);
    return tx8_lsu_issue(&p, m);
}

static const char *side(int to_spm, int ddr_side) {
    return ddr_side ? (to_spm ? "ddr_src" : "ddr_dst") : (to_spm ? "spm_dst" : "spm_src");
}

static uint64_t move_slice(const char *op, LAYOUT_MODE layout, const TSR *ddr, const TSR *spm, int to_spm, int whole,
                           lsu_issue_mode *m) {
    const tx8_hw_config *hw = tx8_hal_config();
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
    if (!compact && (start[dim - 1] != 0 || real[dim - 1] != s->shape_whole[dim - 1])) {
        tx8_hal_fault("%s: %s C slice [%d, +%d) of %d: Cx/NCx slices must keep the whole C", op, side(to_spm, 1),
                      (int)start[dim - 1], (int)real[dim - 1], (int)s->shape_whole[dim - 1]);
        return TX8_CYCLES_INVALID;
    }
    lsu_slice_plan pl;
    if (tx8_plan_lsu_slice(hw, layout, ddr, spm->addr, start, real, &pl) != 0) {
        tx8_hal_fault("%s: %s shape is not valid in layout %s (Cx needs N == 1)", op, side(to_spm, 1),
                      tx8_layout_name(layout));
        return TX8_CYCLES_INVALID;
    }
    if (ddr->addr > hw->ddr_bytes || pl.ddr_bytes > hw->ddr_bytes - ddr->addr) {
        tx8_hal_fault("%s: %s = 0x%llx + %llu bytes is outside DDR", op, side(to_spm, 1),
                      (unsigned long long)ddr->addr, (unsigned long long)pl.ddr_bytes);
        return TX8_CYCLES_INVALID;
    }
    if (spm->addr > hw->spm_bytes || pl.spm_bytes > hw->spm_bytes - spm->addr) {
        tx8_hal_fault("%s: %s = 0x%llx + %llu bytes is outside SPM", op, side(to_spm, 0),
                      (unsigned long long)spm->addr, (unsigned long long)pl.spm_bytes);
        return TX8_CYCLES_INVALID;
    }
    for (int i = 0; i < pl.nbox; ++i)
        if (!box_fits(op, &pl.box[i])) return TX8_CYCLES_INVALID;
    uint64_t total = 0;
    for (int i = 0; i < pl.nbox && total != TX8_CYCLES_INVALID; ++i)
        total = ADD_VALID_CYCLE(total, box_issue(&pl.box[i], 0, pl.box[i].ddr, pl.box[i].spm, to_spm, m));
    return total;
}

uint64_t tx8_lsu_move_slice(const char *op, LAYOUT_MODE layout, const TSR *ddr, const TSR *spm, int to_spm,
                            int whole) {
    lsu_issue_mode m = {0, NULL, 0, 0};
    return move_slice(op, layout, ddr, spm, to_spm, whole, &m);
}

tx8_token tx8_lsu_move_slice_async(const char *op, LAYOUT_MODE layout, const TSR *ddr, const TSR *spm, int to_spm,
                                   int whole, const tx8_token *deps, uint32_t ndeps) {
    if (ndeps && !deps) {
        tx8_hal_fault("%s: deps is NULL with ndeps = %u", op, ndeps);
        return 0;
    }
    lsu_issue_mode m = {1, deps, ndeps, 0};
    return move_slice(op, layout, ddr, spm, to_spm, whole, &m) == TX8_CYCLES_INVALID ? 0 : m.token;
}

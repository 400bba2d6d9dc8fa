/*
 * op_noc_copy: a tensor slice from the issuing tile's SPM or from DDR to the SPM of a rectangle of tiles, as DTE
 * boxes (tx8/lsu.h).
 *
 * The move is described as a box (plan/plan.h's lsu_box, its "ddr" side standing for the source and its "spm" side
 * for the destination): a contiguous run plus outer dims, each with a count and a byte stride on both sides.
 *   Tensor / NTensor: row-major over src's shape_whole and dst's shape_whole (or src's shape_real when dst has no
 *                     shape), offset by both starts; simplified as the DMA boxes are (tx8_plan_lsu_box_simplify).
 *   Cx / NCx:         the boxes op_loadVar plans for the same slice (tx8_plan_lsu_slice), the destination being
 *                     the buffer holding the slice in the layout.
 * Each box becomes DTE instructions of run + 2 dims; more dims loop over the outermost ones.
 */
#include "lsu_internal.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"

#define OP "op_noc_copy"

static int box_fits(const lsu_box *b) {
    if (b->run > UINT32_MAX) {
        tx8_hal_fault(OP ": a contiguous run of %llu bytes does not fit a DTE size field", (unsigned long long)b->run);
        return 0;
    }
    for (int i = 0; i < b->nd; ++i)
        if (b->d[i].count > UINT32_MAX || b->d[i].spm_stride > UINT32_MAX) {
            tx8_hal_fault(OP ": a count or destination stride does not fit a DTE field");
            return 0;
        }
    return 1;
}

static uint64_t box_issue(const NOC_COPY_PARAM *pm, const lsu_box *b, int level, uint64_t src, uint64_t dst,
                          lsu_issue_mode *m) {
    if (b->nd - level > 2) {
        uint64_t total = 0;
        const lsu_box_dim *d = &b->d[level];
        for (uint64_t i = 0; i < d->count && total != TX8_CYCLES_INVALID; ++i)
            total = ADD_VALID_CYCLE(total,
                                    box_issue(pm, b, level + 1, src + i * d->ddr_stride, dst + i * d->spm_stride, m));
        return total;
    }
    const int left = b->nd - level;
    const lsu_box_dim one = {1, 0, 0};
    const lsu_box_dim *d1 = left >= 1 ? &b->d[b->nd - 1] : &one; /* inner */
    const lsu_box_dim *d2 = left >= 2 ? &b->d[b->nd - 2] : &one; /* outer */
    DTE_Param p;
    TsmDte_copy(&p, pm->src_ddr ? DTE_SRC_DDR : DTE_SRC_SPM, src, dst, (uint32_t)b->run, (uint32_t)d1->count,
                d1->ddr_stride, (uint32_t)d1->spm_stride, (uint32_t)d2->count, d2->ddr_stride,
                (uint32_t)d2->spm_stride, pm->dst_x0, pm->dst_y0, pm->dst_x1, pm->dst_y1);
    return tx8_lsu_issue(&p, m);
}

/* [start, start + real) inside [0, whole) in every dim of s; faults naming `what` otherwise. */
static int slice_inside(const char *what, const L_SHAPE *s, int32_t dim) {
    for (int32_t i = 0; i < dim; ++i)
        if (s->shape_whole[i] <= 0 || s->shape_real[i] <= 0 || s->shape_start[i] < 0 ||
            (int64_t)s->shape_start[i] + s->shape_real[i] > s->shape_whole[i]) {
            tx8_hal_fault(OP ": %s dim %d: slice [%d, +%d) is not inside [0, %d)", what, (int)i,
                          (int)s->shape_start[i], (int)s->shape_real[i], (int)s->shape_whole[i]);
            return 0;
        }
    return 1;
}

static int check_axis(const char *lo_name, uint32_t lo, const char *hi_name, uint32_t hi, const char *mesh_name,
                      uint32_t mesh) {
    if (lo > hi) {
        tx8_hal_fault(OP ": param %s = %u > %s = %u (the destination rectangle is empty)", lo_name, lo, hi_name, hi);
        return 0;
    }
    if (hi >= mesh) {
        tx8_hal_fault(OP ": param %s = %u is outside the mesh (%s = %u)", hi_name, hi, mesh_name, mesh);
        return 0;
    }
    return 1;
}

/* Bytes from a box's first byte to one past its last, on the source (src_side) or destination side. */
static uint64_t box_extent(const lsu_box *b, int src_side) {
    uint64_t e = b->run;
    for (int i = 0; i < b->nd; ++i) e += (b->d[i].count - 1) * (src_side ? b->d[i].ddr_stride : b->d[i].spm_stride);
    return e;
}

static uint64_t noc_copy(NOC_COPY_PARAM *param, TSR *src, TSR *dst, lsu_issue_mode *m) {
    const tx8_hw_config *hw = tx8_hal_config();
    if (!param) {
        tx8_hal_fault(OP ": param is NULL");
        return TX8_CYCLES_INVALID;
    }
    if (!src || !src->shape) {
        tx8_hal_fault(OP ": src or its shape is NULL");
        return TX8_CYCLES_INVALID;
    }
    if (!dst) {
        tx8_hal_fault(OP ": dst is NULL");
        return TX8_CYCLES_INVALID;
    }
    if (param->src_ddr > 1) {
        tx8_hal_fault(OP ": param src_ddr = %u is neither 0 (SPM) nor 1 (DDR)", param->src_ddr);
        return TX8_CYCLES_INVALID;
    }
    const LAYOUT_MODE layout = param->layout;
    if ((uint32_t)layout >= LAYOUT_COUNT) {
        tx8_hal_fault(OP ": param layout = %d is not a LAYOUT_MODE", (int)layout);
        return TX8_CYCLES_INVALID;
    }
    if (!check_axis("dst_x0", param->dst_x0, "dst_x1", param->dst_x1, "mesh_x", hw->mesh_x) ||
        !check_axis("dst_y0", param->dst_y0, "dst_y1", param->dst_y1, "mesh_y", hw->mesh_y))
        return TX8_CYCLES_INVALID;
    const L_SHAPE *s = src->shape;
    const int32_t dim = s->dim;
    const uint32_t eb = tx8_format_bytes(src->format);
    if (eb == 0) {
        tx8_hal_fault(OP ": src format = %d is not a Data_Format", (int)src->format);
        return TX8_CYCLES_INVALID;
    }
    if (dst->format != src->format) {
        tx8_hal_fault(OP ": dst format %s differs from src format %s", tx8_format_name(dst->format),
                      tx8_format_name(src->format));
        return TX8_CYCLES_INVALID;
    }
    const int compact = layout == LAYOUT_TENSOR || layout == LAYOUT_NTENSOR;
    if (dim < (compact ? 1 : 2) || dim > (compact ? MAX_SHAPE_DIM : 4)) {
        tx8_hal_fault(OP ": src dim = %d, expected %s for layout %s", (int)dim, compact ? "1..6" : "2..4",
                      tx8_layout_name(layout));
        return TX8_CYCLES_INVALID;
    }
    if (!slice_inside("src", s, dim)) return TX8_CYCLES_INVALID;
    const L_SHAPE *ds = dst->shape;
    if (ds) {
        int ok = ds->dim == dim;
        for (int32_t i = 0; ok && i < dim; ++i) ok = ds->shape_real[i] == s->shape_real[i];
        if (!ok) {
            tx8_hal_fault(OP ": dst shape_real differs from src's shape_real");
            return TX8_CYCLES_INVALID;
        }
        if (compact && !slice_inside("dst", ds, dim)) return TX8_CYCLES_INVALID;
    }
    if (!compact && (s->shape_start[dim - 1] != 0 || s->shape_real[dim - 1] != s->shape_whole[dim - 1])) {
        tx8_hal_fault(OP ": src C slice [%d, +%d) of %d: Cx/NCx slices must keep the whole C",
                      (int)s->shape_start[dim - 1], (int)s->shape_real[dim - 1], (int)s->shape_whole[dim - 1]);
        return TX8_CYCLES_INVALID;
    }

    /* The boxes, and the extents of both sides from src->addr and dst->addr (the whole tensors: what the
     * addresses must fit, as op_loadVar checks). */
    lsu_slice_plan pl;
    uint64_t src_bytes, dst_bytes;
    if (compact) {
        lsu_box *b = &pl.box[0];
        pl.nbox = 1;
        b->ddr = src->addr, b->spm = dst->addr, b->run = eb, b->nd = 0;
        uint64_t ss = eb, dsz = eb, sst[MAX_SHAPE_DIM], dst_st[MAX_SHAPE_DIM];
        for (int32_t i = dim - 1; i >= 0; --i) {
            sst[i] = ss, dst_st[i] = dsz;
            ss *= (uint64_t)s->shape_whole[i];
            dsz *= (uint64_t)(ds ? ds->shape_whole[i] : s->shape_real[i]);
        }
        for (int32_t i = 0; i < dim; ++i) {
            b->d[b->nd++] = (lsu_box_dim){(uint64_t)s->shape_real[i], sst[i], dst_st[i]};
            b->ddr += (uint64_t)s->shape_start[i] * sst[i];
            if (ds) b->spm += (uint64_t)ds->shape_start[i] * dst_st[i];
        }
        tx8_plan_lsu_box_simplify(b);
        src_bytes = ss, dst_bytes = dsz;
    } else {
        if (tx8_plan_lsu_slice(hw, layout, src, dst->addr, s->shape_start, s->shape_real, &pl) != 0) {
            tx8_hal_fault(OP ": src shape is not valid in layout %s (Cx needs N == 1)", tx8_layout_name(layout));
            return TX8_CYCLES_INVALID;
        }
        src_bytes = pl.ddr_bytes, dst_bytes = pl.spm_bytes;
    }
    const uint64_t src_limit = param->src_ddr ? hw->ddr_bytes : hw->spm_bytes;
    if (src->addr > src_limit || src_bytes > src_limit - src->addr) {
        tx8_hal_fault(OP ": src = 0x%llx + %llu bytes is outside %s", (unsigned long long)src->addr,
                      (unsigned long long)src_bytes, param->src_ddr ? "DDR" : "SPM");
        return TX8_CYCLES_INVALID;
    }
    if (dst->addr > hw->spm_bytes || dst_bytes > hw->spm_bytes - dst->addr) {
        tx8_hal_fault(OP ": dst = 0x%llx + %llu bytes is outside SPM", (unsigned long long)dst->addr,
                      (unsigned long long)dst_bytes);
        return TX8_CYCLES_INVALID;
    }
    for (int i = 0; i < pl.nbox; ++i)
        if (!box_fits(&pl.box[i])) return TX8_CYCLES_INVALID;
    /* The issuing tile receives a copy too when it lies in the rectangle: its SPM source and destination may not
     * overlap (the bytes the boxes touch, bounded per box). */
    const uint32_t tile = tx8_hal_tile_id(), tx = tile % hw->mesh_x, ty = tile / hw->mesh_x;
    if (!param->src_ddr && tx >= param->dst_x0 && tx <= param->dst_x1 && ty >= param->dst_y0 && ty <= param->dst_y1)
        for (int i = 0; i < pl.nbox; ++i)
            for (int j = 0; j < pl.nbox; ++j) {
                const lsu_box *a = &pl.box[i], *c = &pl.box[j];
                if (a->ddr < c->spm + box_extent(c, 0) && c->spm < a->ddr + box_extent(a, 1)) {
                    tx8_hal_fault(OP ": src and dst overlap in the SPM of tile %u, which is inside the destination "
                                  "rectangle",
                                  tile);
                    return TX8_CYCLES_INVALID;
                }
            }
    uint64_t total = 0;
    for (int i = 0; i < pl.nbox && total != TX8_CYCLES_INVALID; ++i)
        total = ADD_VALID_CYCLE(total, box_issue(param, &pl.box[i], 0, pl.box[i].ddr, pl.box[i].spm, m));
    return total;
}

uint64_t op_noc_copy(NOC_COPY_PARAM *param, TSR *src, TSR *dst) {
    lsu_issue_mode m = {0, NULL, 0, 0};
    return noc_copy(param, src, dst, &m);
}

tx8_token op_noc_copy_async(NOC_COPY_PARAM *param, TSR *src, TSR *dst, const tx8_token *deps, uint32_t ndeps) {
    if (ndeps && !deps) {
        tx8_hal_fault(OP "_async: deps is NULL with ndeps = %u", ndeps);
        return 0;
    }
    lsu_issue_mode m = {1, deps, ndeps, 0};
    return noc_copy(param, src, dst, &m) == TX8_CYCLES_INVALID ? 0 : m.token;
}

/*
 * op_batchnorm_inference_db: op_batchnorm_inference streamed from DDR to DDR through a double-buffered SPM
 * workspace (tx8/ops.h; the bookkeeping and the hazards it expresses: db_common.h).
 *
 * Workspace, in order, each piece on the batch alignment: the four fp32 per-channel vectors (c_lanes floats each,
 * loaded once), in[2] and out[2] (one slice each, in the op's layout and format; param->folded: in[2] only, the
 * slice is normalised in place), imm (the compute op's scratch for the largest slice). The shard (in's box) is cut along dim 0 (N) into slices of as many batches as
 * fit; when one batch does not fit, each batch along dim 1 (H, or W of a rank-3 tensor) into runs of rows; every
 * other dim stays whole. A plan of fewer than 4 slices is cut finer (db_deepen: fewer batches per slice, or runs
 * of at least 4 rows), so that loads and stores overlap computes. Slice lengths are evened out (db_balance).
 *
 *   load vectors (RDMA), load slice 0 -> in[0]
 *   for slice i:  load slice i+1 -> in[(i+1)%2]     its last reader, compute i-1, has returned
 *                 wait load i (RAW), wait store i-2 (WAR on out[i%2])
 *                 op_batchnorm_inference(in[i%2] -> out[i%2])          synchronous (CT + TDMA)
 *                 store out[i%2] -> slice i (WDMA)                    async, after compute i returned
 *   wait the last two stores
 * param->folded: op_batchnorm_inference_folded(in[i%2] -> in[i%2]) in place, and the load of slice i+1 into
 * in[(i+1)%2] depends on the store of slice i-1 from it (WAR, a dep: RDMA after WDMA).
 * Each element goes through exactly the arithmetic of the compute op on the whole tensor, so the result is
 * bit-identical to it, padding lanes of Cx/NCx included.
 */
#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"
#include "db_common.h"

#define OP "op_batchnorm_inference_db"
#define BN_DB_MIN_ROWS 4 /* db_deepen: the shortest row slice it makes */

static int is_bn_format(Data_Format f) { return f == Fmt_FP32 || f == Fmt_FP16 || f == Fmt_BF16; }

/* The slice plan: slices along dim `axis` (0 or 1) of length `len`; for axis 1 every slice holds one batch. */
typedef struct bn_db_plan {
    int32_t axis, len, count_outer, count;
    int32_t shape[4]; /* the largest slice */
    uint64_t io_bytes, imm_bytes, vec_bytes, total;
    uint32_t c_lanes;
} bn_db_plan;

/* Workspace bytes for slices of `shape` (0 if the shape is not valid in the layout): folded, the slice is
 * normalised in place (2 buffers), else from in[2] into out[2]. */
static uint64_t slice_bytes(const db_ws *ws, const BATCHNORM_INFER_PARAM *bn, int folded, Data_Format f,
                            const int32_t *shape, int32_t dim, bn_db_plan *p) {
    L_SHAPE s;
    TSR t;
    db_tsr(&t, &s, f, 0, shape, dim);
    uint64_t io, imm;
    uint32_t c_lanes;
    if (folded) {
        bn_fold_plan fp;
        if (tx8_plan_batchnorm_folded(tx8_hal_config(), bn, &t, &fp) != 0) return 0;
        io = fp.io.total_bytes, imm = fp.imm_bytes, c_lanes = fp.c_lanes;
    } else {
        bn_plan bp;
        if (tx8_plan_batchnorm(tx8_hal_config(), bn, &t, &bp) != 0) return 0;
        io = bp.io.total_bytes, imm = bp.imm_bytes, c_lanes = bp.c_lanes;
    }
    p->io_bytes = db_ws_size(ws, io);
    p->imm_bytes = db_ws_size(ws, imm);
    p->vec_bytes = db_ws_size(ws, (uint64_t)c_lanes * 4);
    p->c_lanes = c_lanes;
    return 4 * p->vec_bytes + (folded ? 2 : 4) * p->io_bytes + p->imm_bytes;
}

/* The longest slice along `axis` that fits (binary search: the bytes grow with the length); 0 if none. */
static int32_t longest_fit(const db_ws *ws, const BATCHNORM_INFER_PARAM *bn, int folded, Data_Format f,
                           const int32_t *box, int32_t dim, int32_t axis, uint64_t *min_need) {
    int32_t shape[4];
    for (int32_t i = 0; i < dim; ++i) shape[i] = box[i];
    if (axis == 1) shape[0] = 1;
    bn_db_plan p;
    int32_t lo = 0, hi = box[axis];
    shape[axis] = 1;
    *min_need = slice_bytes(ws, bn, folded, f, shape, dim, &p);
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo + 1) / 2;
        shape[axis] = mid;
        const uint64_t need = slice_bytes(ws, bn, folded, f, shape, dim, &p);
        if (need && need <= db_ws_usable(ws))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int plan_slices(const db_ws *ws, const BATCHNORM_INFER_PARAM *bn, int folded, Data_Format f,
                       const int32_t *box, int32_t dim, bn_db_plan *p) {
    uint64_t need0 = 0, need1 = 0;
    int32_t len = longest_fit(ws, bn, folded, f, box, dim, 0, &need0);
    p->axis = 0;
    if (len == 0 && dim >= 3) {
        len = longest_fit(ws, bn, folded, f, box, dim, 1, &need1);
        p->axis = 1;
    }
    if (len == 0) {
        db_fault_workspace(OP, ws, dim >= 3 ? need1 : need0,
                           folded ? (dim >= 3 ? "the smallest slice (one row of one batch: 4 vectors, 2 buffers, "
                                                "op_batchnorm_inference_folded's imm)"
                                              : "the smallest slice (one batch: 4 vectors, 2 buffers, "
                                                "op_batchnorm_inference_folded's imm)")
                                  : (dim >= 3 ? "the smallest slice (one row of one batch: 4 vectors, 2 input and 2 "
                                                "output buffers, op_batchnorm_inference's imm)"
                                              : "the smallest slice (one batch: 4 vectors, 2 input and 2 output "
                                                "buffers, op_batchnorm_inference's imm)"));
        return -1;
    }
    db_deepen(box[0], dim >= 3 ? box[1] : 1, BN_DB_MIN_ROWS, &p->axis, &len);
    len = (int32_t)db_balance((uint32_t)box[p->axis], (uint32_t)len);
    p->len = len;
    p->count_outer = p->axis == 0 ? 1 : box[0];
    p->count = (int32_t)db_ceil_div((uint64_t)box[p->axis], (uint64_t)len);
    for (int32_t i = 0; i < dim; ++i) p->shape[i] = box[i];
    if (p->axis == 1) p->shape[0] = 1;
    p->shape[p->axis] = len;
    p->total = slice_bytes(ws, bn, folded, f, p->shape, dim, p);
    return 0;
}

static int check_vector(const TSR *v, const char *name, int32_t c_whole) {
    if (!v || !v->shape) {
        tx8_hal_fault(OP ": %s (or its shape) is NULL", name);
        return -1;
    }
    const L_SHAPE *s = v->shape;
    int ok = s->dim >= 1 && s->dim <= MAX_SHAPE_DIM && s->shape_whole[s->dim - 1] == c_whole;
    for (int32_t i = 0; ok && i < s->dim - 1; ++i) ok = s->shape_whole[i] == 1;
    if (!ok) {
        tx8_hal_fault(OP ": %s must be a 1x..x%d per-channel vector (shape_whole)", name, (int)c_whole);
        return -1;
    }
    if (v->format != Fmt_FP32) {
        tx8_hal_fault(OP ": %s->format = %s, must be fp32", name, tx8_format_name(v->format));
        return -1;
    }
    return 0;
}

/* Waits for every pending token (after a fault: nothing asynchronous may outlive the op). */
static uint64_t drain(db_buf *b, int n) {
    for (int i = 0; i < n; ++i) db_wait(&b[i]);
    return TX8_CYCLES_INVALID;
}

uint64_t op_batchnorm_inference_db(BATCHNORM_DB_PARAM *param, TSR *in, TSR *scale, TSR *shift, TSR *mean, TSR *var,
                                   TSR *out, uint64_t spm_base, uint64_t spm_bytes) {
    if (!param) {
        tx8_hal_fault(OP ": param is NULL");
        return TX8_CYCLES_INVALID;
    }
    const LAYOUT_MODE layout = param->layout;
    if ((uint32_t)layout >= LAYOUT_COUNT) {
        tx8_hal_fault(OP ": param->layout = %d is not a LAYOUT_MODE", (int)layout);
        return TX8_CYCLES_INVALID;
    }
    if (db_check_view(OP, "in", in, 2, 4) || db_check_view(OP, "out", out, 2, 4)) return TX8_CYCLES_INVALID;
    const int32_t dim = in->shape->dim;
    const int32_t *box = in->shape->shape_real;
    if (!is_bn_format(in->format)) {
        tx8_hal_fault(OP ": in->format = %s, supported fp32, fp16, bf16", tx8_format_name(in->format));
        return TX8_CYCLES_INVALID;
    }
    if (out->format != in->format) {
        tx8_hal_fault(OP ": out->format = %s differs from in->format = %s", tx8_format_name(out->format),
                      tx8_format_name(in->format));
        return TX8_CYCLES_INVALID;
    }
    int same = out->shape->dim == dim;
    for (int32_t i = 0; same && i < dim; ++i) same = out->shape->shape_real[i] == box[i];
    if (!same) {
        tx8_hal_fault(OP ": out's box (shape_real) differs from in's");
        return TX8_CYCLES_INVALID;
    }
    const int compact = layout == LAYOUT_TENSOR || layout == LAYOUT_NTENSOR;
    const int32_t c_whole = in->shape->shape_whole[dim - 1], c0 = in->shape->shape_start[dim - 1];
    if (!compact && (c0 != 0 || box[dim - 1] != c_whole || out->shape->shape_real[dim - 1] !=
                                                               out->shape->shape_whole[dim - 1])) {
        tx8_hal_fault(OP ": layout %s: the box must keep the whole C (in C box [%d, +%d) of %d)",
                      tx8_layout_name(layout), (int)c0, (int)box[dim - 1], (int)c_whole);
        return TX8_CYCLES_INVALID;
    }
    if (check_vector(scale, "scale", c_whole) || check_vector(shift, "shift", c_whole) ||
        check_vector(mean, "mean", c_whole) || check_vector(var, "var", c_whole))
        return TX8_CYCLES_INVALID;
    if (db_ddr_bytes(in, layout) == 0 || db_ddr_bytes(out, layout) == 0) {
        tx8_hal_fault(OP ": in's or out's shape_whole is not valid in layout %s (Tensor/Cx need dim 0 == 1)",
                      tx8_layout_name(layout));
        return TX8_CYCLES_INVALID;
    }
    TSR *vec_ddr[4] = {scale, shift, mean, var};
    static const char *const vec_name[4] = {"scale", "shift", "mean", "var"};
    if (db_check_disjoint(OP, "out", out, layout, "in", in, layout)) return TX8_CYCLES_INVALID;
    for (int k = 0; k < 4; ++k)
        if (db_check_disjoint(OP, "out", out, layout, vec_name[k], vec_ddr[k], LAYOUT_TENSOR)) return TX8_CYCLES_INVALID;
    db_ws ws;
    if (db_ws_init(&ws, OP, spm_base, spm_bytes)) return TX8_CYCLES_INVALID;
    if (param->folded > 1) {
        tx8_hal_fault(OP ": param->folded = %u, expected 0 or 1", param->folded);
        return TX8_CYCLES_INVALID;
    }
    BATCHNORM_INFER_PARAM bn = {layout, param->epsilon};
    bn_db_plan pl;
    const int folded = param->folded != 0;
    if (plan_slices(&ws, &bn, folded, in->format, box, dim, &pl)) return TX8_CYCLES_INVALID;

    /* the vectors: compact layouts read the box's channels; Cx/NCx the whole c_lanes image (padding lanes too) */
    const uint64_t vec_floats = compact ? (uint64_t)box[dim - 1] : pl.c_lanes;
    const int32_t vwhole = compact ? c_whole : (int32_t)pl.c_lanes;

    const uint64_t t_start = tx8_hal_cycles();
    db_buf vec[4], inb[2], outb[2];
    for (int k = 0; k < 4; ++k) vec[k].addr = db_ws_take(&ws, (uint64_t)pl.c_lanes * 4), vec[k].tok = 0;
    for (int k = 0; k < 2; ++k) inb[k].addr = db_ws_take(&ws, pl.io_bytes), inb[k].tok = 0;
    for (int k = 0; k < 2; ++k) outb[k].addr = folded ? 0 : db_ws_take(&ws, pl.io_bytes), outb[k].tok = 0;
    const uint64_t imm_addr = db_ws_take(&ws, pl.imm_bytes);
    LOAD_PARAM ld = {layout};
    STORE_PARAM st = {layout};
    LOAD_PARAM ld_vec = {LAYOUT_TENSOR};

    /* per-channel vectors in SPM: [1, C] fp32 over c_lanes floats */
    L_SHAPE s_vd[4], s_vs[4];
    TSR vd[4], vs[4];
    const int32_t vshape[2] = {1, box[dim - 1]};
    for (int k = 0; k < 4; ++k) {
        const int32_t w1[1] = {vwhole}, off[1] = {compact ? c0 : 0}, real[1] = {(int32_t)vec_floats};
        TSR flat;
        L_SHAPE s_flat;
        db_tsr(&flat, &s_flat, Fmt_FP32, vec_ddr[k]->addr, w1, 1);
        db_view(&vd[k], &s_vd[k], &flat, off, real);
        L_SHAPE s_dst;
        TSR dst;
        db_tsr(&dst, &s_dst, Fmt_FP32, vec[k].addr, real, 1);
        vec[k].tok = op_loadVar_async(&ld_vec, &vd[k], &dst, NULL, 0);
        if (!vec[k].tok) return drain(vec, 4);
        db_tsr(&vs[k], &s_vs[k], Fmt_FP32, vec[k].addr, vshape, 2);
    }

    /* slice k of the shard: its offset inside the box and its extents */
    int32_t off[MAX_SHAPE_DIM], real[MAX_SHAPE_DIM];
#define SLICE(k)                                                                                                  \
    do {                                                                                                          \
        const int32_t outer_ = (k) / pl.count, inner_ = (k) % pl.count;                                           \
        for (int32_t d_ = 0; d_ < dim; ++d_) off[d_] = 0, real[d_] = box[d_];                                     \
        if (pl.axis == 1) off[0] = outer_, real[0] = 1;                                                          \
        off[pl.axis] = inner_ * pl.len;                                                                           \
        real[pl.axis] = box[pl.axis] - off[pl.axis] < pl.len ? box[pl.axis] - off[pl.axis] : pl.len;              \
    } while (0)
    const int32_t nslices = pl.count_outer * pl.count;
    L_SHAPE s_ddr, s_spm;
    TSR t_ddr, t_spm;
    SLICE(0);
    db_view(&t_ddr, &s_ddr, in, off, real);
    db_tsr(&t_spm, &s_spm, in->format, inb[0].addr, real, dim);
    inb[0].tok = op_loadVar_async(&ld, &t_ddr, &t_spm, NULL, 0);
    if (!inb[0].tok) return drain(vec, 4);
    for (int k = 0; k < 4; ++k) db_wait(&vec[k]);

    const int32_t imm_shape[1] = {(int32_t)pl.imm_bytes};
    L_SHAPE s_imm;
    TSR imm;
    db_tsr(&imm, &s_imm, Fmt_INT8, imm_addr, imm_shape, 1);
    int ok = 1;
    for (int32_t i = 0; ok && i < nslices; ++i) {
        db_buf *cur_in = &inb[i % 2], *cur_out = folded ? cur_in : &outb[i % 2];
        if (i + 1 < nslices) {
            /* prefetch into in[(i+1)%2]: its last reader, compute i-1, has returned; folded (in place) the store of
             * slice i-1 still reads it: the load follows that store (dep) */
            db_buf *nb = &inb[(i + 1) % 2];
            SLICE(i + 1);
            db_view(&t_ddr, &s_ddr, in, off, real);
            db_tsr(&t_spm, &s_spm, in->format, nb->addr, real, dim);
            const tx8_token dep = folded ? nb->tok : 0;
            nb->tok = op_loadVar_async(&ld, &t_ddr, &t_spm, &dep, dep ? 1u : 0u);
            if (!nb->tok) ok = 0;
        }
        SLICE(i);
        if (!ok) break;
        db_wait(cur_in);  /* RAW: slice i is in SPM */
        db_wait(cur_out); /* WAR: the store of slice i-2 has read out[i%2] (folded: the same buffer, done) */
        L_SHAPE s_x, s_y;
        TSR x, y;
        db_tsr(&x, &s_x, in->format, cur_in->addr, real, dim);
        db_tsr(&y, &s_y, in->format, cur_out->addr, real, dim);
        const uint64_t cyc = folded ? op_batchnorm_inference_folded(&bn, &x, &vs[0], &vs[1], &vs[2], &vs[3], &imm, &y)
                                    : op_batchnorm_inference(&bn, &x, &vs[0], &vs[1], &vs[2], &vs[3], &imm, &y);
        if (cyc == TX8_CYCLES_INVALID) {
            ok = 0;
            break;
        }
        db_view(&t_ddr, &s_ddr, out, off, real);
        cur_out->tok = op_dma_store_async(&st, &y, &t_ddr, NULL, 0);
        ok = cur_out->tok != 0;
    }
#undef SLICE
    db_buf all[4] = {inb[0], inb[1], outb[0], outb[1]};
    if (!ok) return drain(all, 4);
    drain(all, 4);
    return tx8_hal_cycles() - t_start;
}

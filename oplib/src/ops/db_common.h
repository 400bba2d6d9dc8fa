/*
 * Shared bookkeeping of the double-buffered (DDR -> SPM -> DDR streaming) ops: op_batchnorm_inference_db,
 * op_gemm_db and op_conv_db (tx8/ops.h).
 *
 * Each of them runs its shard as a sequence of slices; slice i's input is loaded (RDMA, async) while slice i-1
 * computes, and slice i's result is stored (WDMA, async) while slice i+1 computes. The computes are the plain
 * synchronous ops (op_batchnorm_inference, op_gemm, op_conv: tx8_hal_execute = issue + wait), so an asynchronous
 * instruction issued after a compute returned never races it; what remains is expressed with tokens:
 *   RAW  the kernel core waits for a buffer's load before the compute that reads it;
 *   WAR  a buffer a store still reads is written again (by a compute, a CT convert or a load) only after that
 *        store's token: waited by the core, or given as the load's dep;
 *   WAW  the loads of one buffer are on one engine (RDMA), which runs them in order.
 * Each SPM buffer (db_buf) remembers the token of the last asynchronous instruction that touched it.
 */
#ifndef TX8_OPS_DB_COMMON_H
#define TX8_OPS_DB_COMMON_H

#include <stdint.h>
#include <string.h>

#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

static inline uint64_t db_round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }
static inline uint64_t db_min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t db_ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
/* Evens out a slice length: the fewest slices of at most `len` covering `total`, then the longest of those. */
static inline uint32_t db_balance(uint32_t total, uint32_t len) {
    return (uint32_t)db_ceil_div(total, db_ceil_div(total, len));
}

/* Pipeline depth. A shard is `outer` items (batches, images) of `rows` rows; the plan found the longest slice that
 * fits: *len items (*axis 0) or *len rows of one item (*axis 1). With fewer than DB_MIN_SLICES slices the first load
 * and the last store overlap nothing, so such a plan is cut finer: fewer items per slice, or rows of an item, as
 * long as a row slice keeps at least min_rows rows. A finer plan always fits (its slices are smaller). */
#define DB_MIN_SLICES 4
static inline void db_deepen(int32_t outer, int32_t rows, int32_t min_rows, int32_t *axis, int32_t *len) {
    const int32_t per = (int32_t)db_ceil_div(DB_MIN_SLICES, (uint64_t)outer); /* row slices wanted per item */
    const int32_t rows_len = (int32_t)db_ceil_div((uint64_t)rows, (uint64_t)per);
    if (*axis == 0) {
        if (db_ceil_div((uint64_t)outer, (uint64_t)*len) >= DB_MIN_SLICES) return;
        if (outer >= DB_MIN_SLICES) {
            *len = (int32_t)db_ceil_div((uint64_t)outer, DB_MIN_SLICES);
        } else if (per > 1 && rows_len >= min_rows) {
            *axis = 1, *len = rows_len;
        } else {
            *len = 1;
        }
        return;
    }
    if ((uint64_t)outer * db_ceil_div((uint64_t)rows, (uint64_t)*len) >= DB_MIN_SLICES) return;
    if (rows_len >= min_rows && rows_len < *len) *len = rows_len;
}

/* An SPM buffer and the token of the last asynchronous instruction that reads or writes it (0: none pending). */
typedef struct db_buf {
    uint64_t addr;
    tx8_token tok;
} db_buf;

/* The kernel core waits until nothing asynchronous touches b any more. */
static inline void db_wait(db_buf *b) {
    if (b->tok) TsmWait(b->tok);
    b->tok = 0;
}
static inline void db_wait_token(tx8_token *t) {
    if (*t) TsmWait(*t);
    *t = 0;
}

/* The workspace [base, base + bytes): checked against the tile's SPM, then handed out in pieces that start on the
 * batch alignment (tx8_hw_batch_align_bytes) and are rounded up to it. */
typedef struct db_ws {
    uint64_t base, bytes, next;
    uint32_t align;
} db_ws;

static inline int db_ws_init(db_ws *ws, const char *op, uint64_t base, uint64_t bytes) {
    const tx8_hw_config *hw = tx8_hal_config();
    ws->base = base, ws->bytes = bytes, ws->next = base, ws->align = tx8_hw_batch_align_bytes(hw);
    if (base > hw->spm_bytes || bytes > hw->spm_bytes - base) {
        tx8_hal_fault("%s: workspace [0x%llx, +%llu bytes) is outside SPM [0, 0x%llx)", op, (unsigned long long)base,
                      (unsigned long long)bytes, (unsigned long long)hw->spm_bytes);
        return -1;
    }
    ws->next = db_round_up(base, ws->align); /* buffers start on the batch alignment */
    return 0;
}
/* Bytes of the workspace that buffers can use. */
static inline uint64_t db_ws_usable(const db_ws *ws) {
    const uint64_t lead = ws->next - ws->base;
    return ws->bytes > lead ? ws->bytes - lead : 0;
}
/* Bytes a buffer of `bytes` takes in the workspace. */
static inline uint64_t db_ws_size(const db_ws *ws, uint64_t bytes) { return db_round_up(bytes, ws->align); }
/* The next buffer (the caller has checked the total against ws->bytes). */
static inline uint64_t db_ws_take(db_ws *ws, uint64_t bytes) {
    const uint64_t a = ws->next;
    ws->next += db_ws_size(ws, bytes);
    return a;
}

/* An L_SHAPE describing a whole SPM tensor. */
static inline void db_lshape(L_SHAPE *s, const int32_t *shape, int32_t dim) {
    memset(s, 0, sizeof *s);
    s->dim = dim;
    for (int32_t i = 0; i < dim; ++i) s->shape_whole[i] = s->shape_slice[i] = s->shape_real[i] = shape[i];
}
static inline void db_tsr(TSR *t, L_SHAPE *s, Data_Format f, uint64_t addr, const int32_t *shape, int32_t dim) {
    db_lshape(s, shape, dim);
    t->format = f, t->addr = addr, t->shape = s;
}
/* A view of the DDR tensor `ddr` (itself a view): the box off + [0, real) inside ddr's box. */
static inline void db_view(TSR *t, L_SHAPE *s, const TSR *ddr, const int32_t *off, const int32_t *real) {
    *s = *ddr->shape;
    for (int32_t i = 0; i < s->dim; ++i) {
        s->shape_start[i] = ddr->shape->shape_start[i] + off[i];
        s->shape_slice[i] = s->shape_real[i] = real[i];
    }
    *t = *ddr, t->shape = s;
}

/* The whole tensor `src` (its box dropped: start 0), as a base for views in global indices. */
static inline void db_whole(TSR *t, L_SHAPE *s, const TSR *src) {
    *s = *src->shape;
    for (int32_t i = 0; i < s->dim; ++i) s->shape_start[i] = 0, s->shape_slice[i] = s->shape_real[i] = s->shape_whole[i];
    *t = *src, t->shape = s;
}

/* Checks a DDR view: non-NULL with a shape, dim in [lo, hi], the box inside shape_whole. 0, or -1 after a fault. */
static inline int db_check_view(const char *op, const char *name, const TSR *t, int32_t lo, int32_t hi) {
    if (!t || !t->shape) {
        tx8_hal_fault("%s: %s (or its shape) is NULL", op, name);
        return -1;
    }
    const L_SHAPE *s = t->shape;
    if (s->dim < lo || s->dim > hi) {
        tx8_hal_fault("%s: %s->shape->dim = %d, expected %d..%d", op, name, (int)s->dim, (int)lo, (int)hi);
        return -1;
    }
    for (int32_t i = 0; i < s->dim; ++i)
        if (s->shape_whole[i] <= 0 || s->shape_real[i] <= 0 || s->shape_start[i] < 0 ||
            (int64_t)s->shape_start[i] + s->shape_real[i] > s->shape_whole[i]) {
            tx8_hal_fault("%s: %s dim %d: box [%d, +%d) is not inside [0, %d)", op, name, (int)i,
                          (int)s->shape_start[i], (int)s->shape_real[i], (int)s->shape_whole[i]);
            return -1;
        }
    return 0;
}

/* Bytes [addr, addr + db_ddr_bytes) a whole DDR tensor occupies in `layout` (0 if the shape is not valid there). */
static inline uint64_t db_ddr_bytes(const TSR *t, LAYOUT_MODE layout) {
    const L_SHAPE *s = t->shape;
    if (layout == LAYOUT_TENSOR || layout == LAYOUT_NTENSOR) {
        uint64_t n = tx8_format_bytes(t->format);
        for (int32_t i = 0; i < s->dim; ++i) n *= (uint64_t)s->shape_whole[i];
        return n;
    }
    tx8_layout l;
    if (tx8_layout_init(&l, layout, t->format, s->shape_whole, s->dim, tx8_hw_batch_align_bytes(tx8_hal_config())))
        return 0;
    return l.total_bytes;
}

/* The output tensor must not share DDR bytes with an input: its stores run while the inputs are still loaded. */
static inline int db_check_disjoint(const char *op, const char *out_name, const TSR *out, LAYOUT_MODE out_layout,
                                    const char *in_name, const TSR *in, LAYOUT_MODE in_layout) {
    const uint64_t ob = db_ddr_bytes(out, out_layout), ib = db_ddr_bytes(in, in_layout);
    if (out->addr < in->addr + ib && in->addr < out->addr + ob) {
        tx8_hal_fault("%s: %s [0x%llx, +%llu bytes) overlaps %s [0x%llx, +%llu bytes) in DDR", op, out_name,
                      (unsigned long long)out->addr, (unsigned long long)ob, in_name, (unsigned long long)in->addr,
                      (unsigned long long)ib);
        return -1;
    }
    return 0;
}

/* A workspace that cannot hold the smallest slice: one fault naming the op, both sizes and what was planned. */
static inline void db_fault_workspace(const char *op, const db_ws *ws, uint64_t need, const char *what) {
    tx8_hal_fault("%s: workspace of %llu bytes at 0x%llx is too small: %s needs %llu bytes", op,
                  (unsigned long long)ws->bytes, (unsigned long long)ws->base, what, (unsigned long long)need);
}

#endif /* TX8_OPS_DB_COMMON_H */

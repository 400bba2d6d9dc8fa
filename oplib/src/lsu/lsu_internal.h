/* Shared data paths of the LSU ops: plan DMA boxes for a slice and issue them (load/store); TDMA copies described
 * as dims (op_slice, op_pad). */
#ifndef TX8_LSU_INTERNAL_H
#define TX8_LSU_INTERNAL_H

#include <stdint.h>

#include "tx8/lsu.h"
#include "tx8/tsm.h"

/* Moves the slice ddr->shape (start/real inside shape_whole) between the DDR tensor `ddr` and the SPM buffer
 * `spm`, both in `layout`. to_spm: RDMA, else WDMA. `op` names the caller in faults; whole: use shape_whole
 * as the slice (op_loadConst). */
uint64_t tx8_lsu_move_slice(const char *op, LAYOUT_MODE layout, const TSR *ddr, const TSR *spm, int to_spm,
                            int whole);
/* The same move queued on the RDMA / WDMA engine: every box after deps (tx8_hal_issue); returns the last box's
 * token (the engine runs its boxes in order, so it completes after all of them), or 0 after a fault. */
tx8_token tx8_lsu_move_slice_async(const char *op, LAYOUT_MODE layout, const TSR *ddr, const TSR *spm, int to_spm,
                                   int whole, const tx8_token *deps, uint32_t ndeps);

/* How a move reaches its engine (RDMA, WDMA, DTE): executed (sync: the cycles are summed), or queued after deps
 * (async: token becomes the last instruction's token, 0 after a fault; the engine runs its instructions in order,
 * so the last one completes after all the others). */
typedef struct lsu_issue_mode {
    int async;
    const tx8_token *deps;
    uint32_t ndeps;
    tx8_token token;
} lsu_issue_mode;

/* Issues one instruction as `m` says: its cycles (sync), or 0 (async) or TX8_CYCLES_INVALID after a fault. */
static inline uint64_t tx8_lsu_issue(const void *instr, lsu_issue_mode *m) {
    if (!m->async) return TsmExecute(instr);
    m->token = TsmIssue(instr, m->deps, m->ndeps);
    return m->token ? 0 : TX8_CYCLES_INVALID;
}

/* ---- TDMA copies described as dims (op_slice, op_pad; tdma_copy.c) ----
 * prod(count) elements of elem_bytes bytes; element (i_0, ..., i_{n-1}) moves from src + sum(i_k * src_stride_k)
 * to dst + sum(i_k * dst_stride_k). Dims innermost first, strides in bytes. A source stride may be negative (a
 * reversed dim) or 0 (one element repeated); destination strides are not negative. */
typedef struct lsu_copy_dim {
    uint64_t count;      /* elements, >= 1 */
    int64_t src_stride;  /* bytes */
    uint64_t dst_stride; /* bytes */
} lsu_copy_dim;

/* Issues the copy d[0..nd) (nd <= MAX_SHAPE_DIM; d is rewritten) from src to dst: dims of count 1 dropped,
 * neighbours contiguous on both sides merged, an innermost dim contiguous on both sides folded into the TDMA
 * element; then up to 4 dims with non-negative source strides (those with the largest counts) go into each TDMA
 * instruction and the rest are looped over with signed offsets (a TDMA box has unsigned strides, so a reversed
 * dim costs one instruction per index). The caller has checked that every byte read and written lies in SPM and
 * that source and destination bytes are disjoint; counts, strides and the element then fit the TDMA's 32-bit
 * fields (tx8_hw_config_check caps spm_bytes at 2^28). Returns the summed TDMA cycles, or TX8_CYCLES_INVALID
 * after a fault naming `op`. */
uint64_t tx8_lsu_tdma_copy(const char *op, uint64_t src, uint64_t dst, uint32_t elem_bytes, lsu_copy_dim *d,
                           int nd);

#endif /* TX8_LSU_INTERNAL_H */

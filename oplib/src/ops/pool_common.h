/*
 * Shared by the pooling ops (op_maxpool, op_avgpool, op_global_avgpool): argument validation and the issue of the
 * CT POOL_2D instructions over a tensor in any layout (semantics: tx8/ops.h, tx8/isa.h).
 */
#ifndef TX8_POOL_COMMON_H
#define TX8_POOL_COMMON_H

#include <stdint.h>

#include "tx8/isa.h"
#include "tx8/layout.h"
#include "tx8/ops.h"

typedef struct pool_plan {
    tx8_layout in, out;       /* [N][H*W][C] and [N][OH*OW][C] in the op's layout */
    Ncc_CT_GR_Pool_Regs geom; /* the window, filled by the op */
} pool_plan;

/* Checks in/out ([N][H][W][C] -> [N][OH][OW][C]: non-NULL, dim 4, fp32/fp16/bf16 alike, equal N and C, valid in
 * `layout`, inside SPM, not overlapping) and fills pl->in, pl->out and geom's extents. Returns 0, or reports a
 * fault naming `op` and the argument and returns -1. */
int pool_check_tensors(const char *op, LAYOUT_MODE layout, TSR *in, TSR *out, pool_plan *pl);

/* Checks param's window against the extents in pl->geom (ranges, a dilated kernel no larger than the padded
 * input, OH/OW the floor or ceil_mode value) and fills the rest of pl->geom. avg: also checks count_include_pad.
 * Returns 0, or reports a fault and returns -1. */
int pool_check_window(const char *op, const POOL_PARAM *param, int avg, pool_plan *pl);

/* Issues CT_OP_POOL_MAX / CT_OP_POOL_AVG (nearest even) over the whole tensor: one instruction when each layout
 * batch is exactly one image (compact layouts), else per batch one for the C <= 32 image or one for the
 * 64-channel blocks and one for the C0 block. Returns the summed cycles or TX8_CYCLES_INVALID. */
uint64_t pool_issue(const pool_plan *pl, CT_OPCODE op, uint64_t in_addr, uint64_t out_addr);

#endif /* TX8_POOL_COMMON_H */

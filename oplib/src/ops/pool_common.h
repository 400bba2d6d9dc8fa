/*
 * Shared by the pooling ops (op_maxpool, op_avgpool, op_global_avgpool): the issue of the CT POOL_2D instructions
 * over a tensor in any layout (semantics: tx8/ops.h, tx8/isa.h).
 */
#ifndef TX8_POOL_COMMON_H
#define TX8_POOL_COMMON_H

#include <stdint.h>

#include "tx8/isa.h"
#include "tx8/layout.h"
#include "tx8/ops.h"

#include "../plan/check_internal.h"

/* The checks and their plan (pool_plan: the layouts and the window) are the ops' contracts: plan/check_internal.h
 * (tx8_check_pool_plan, tx8_check_global_pool_plan). */

/* Issues CT_OP_POOL_MAX / CT_OP_POOL_AVG (nearest even) over the whole tensor: one instruction when each layout
 * batch is exactly one image (compact layouts), else per batch one for the C <= 32 image or one for the
 * 64-channel blocks and one for the C0 block. Returns the summed cycles or TX8_CYCLES_INVALID. */
uint64_t pool_issue(const pool_plan *pl, CT_OPCODE op, uint64_t in_addr, uint64_t out_addr);

#endif /* TX8_POOL_COMMON_H */

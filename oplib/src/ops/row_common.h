/*
 * Shared by the row normalisations (op_softmax, op_layernorm, op_attention's online softmax): a per-row fp32 value applied to every element of
 * its row of a compact [rows][len] fp32 tensor in SPM.
 */
#ifndef TX8_ROW_COMMON_H
#define TX8_ROW_COMMON_H

#include <stdint.h>

/* dst[r][i] = src[r][i] (sub, or mul when `mul`) v[r], fp32, nearest even. rows == 1: one V_VuV instruction with
 * the row value as its unit; rows > 1: a TDMA broadcast of v into bcast ([rows][len] fp32, source stride 0), then
 * one V_V instruction: two instructions instead of `rows`. Returns the cycles, TX8_CYCLES_INVALID after a fault. */
uint64_t tx8_row_apply(uint32_t rows, uint32_t len, int mul, uint64_t src, uint64_t dst, uint64_t v,
                       uint64_t bcast);

#endif

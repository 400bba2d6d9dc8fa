/*
 * op_reshape: converts an SPM tensor between layouts with TDMA (e.g. NTensor <-> NCx, Tensor <-> Cx).
 *
 * Both sides are addressed with tx8_layout_offset. Inside one channel segment every layout is affine in
 * (n, hw, c), so a segment is one 4D TDMA box [n][block][hw][c]:
 *   segment 0: channels [0, F*U) as F full blocks of U (U = 64, or 128 for int8) when either side splits channels
 *              into Cx blocks; otherwise all C channels (F = 1, width C);
 *   segment 1: the remaining channels [F*U, C) when either side splits (at most U - 1 of them).
 * Strides are measured from the layouts themselves (offset differences), so any pair of layouts works.
 */
#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

static uint64_t diff(const tx8_layout *l, uint32_t n, uint32_t hw, uint32_t c, uint64_t base) {
    return tx8_layout_offset(l, n, hw, c) - base;
}

static int check_tsr(const char *name, const TSR *t) {
    if (!t || !t->shape) {
        tx8_hal_fault("op_reshape: %s or its shape is NULL", name);
        return 0;
    }
    if (t->shape->dim < 2 || t->shape->dim > 4) {
        tx8_hal_fault("op_reshape: %s dim = %d, expected 2..4", name, (int)t->shape->dim);
        return 0;
    }
    return 1;
}

uint64_t op_reshape(RESHAPE_PARAM *param, TSR *in, TSR *out) {
    if (!param) {
        tx8_hal_fault("op_reshape: param is NULL");
        return TX8_CYCLES_INVALID;
    }
    if (!check_tsr("in", in) || !check_tsr("out", out)) return TX8_CYCLES_INVALID;
    if (in->format != out->format) {
        tx8_hal_fault("op_reshape: out format %s differs from in format %s", tx8_format_name(out->format),
                      tx8_format_name(in->format));
        return TX8_CYCLES_INVALID;
    }
    const int32_t dim = in->shape->dim;
    int same = out->shape->dim == dim;
    for (int32_t i = 0; same && i < dim; ++i) same = out->shape->shape_real[i] == in->shape->shape_real[i];
    if (!same) {
        tx8_hal_fault("op_reshape: out shape_real differs from in shape_real");
        return TX8_CYCLES_INVALID;
    }
    const tx8_hw_config *cfg = tx8_hal_config();
    const uint32_t align = tx8_hw_batch_align_bytes(cfg);
    tx8_layout li, lo;
    if (tx8_layout_init(&li, param->in_layout, in->format, in->shape->shape_real, dim, align) != 0) {
        tx8_hal_fault("op_reshape: in shape is not valid in in_layout %s", tx8_layout_name(param->in_layout));
        return TX8_CYCLES_INVALID;
    }
    if (tx8_layout_init(&lo, param->out_layout, out->format, out->shape->shape_real, dim, align) != 0) {
        tx8_hal_fault("op_reshape: out shape is not valid in out_layout %s", tx8_layout_name(param->out_layout));
        return TX8_CYCLES_INVALID;
    }
    if (in->addr > cfg->spm_bytes || li.total_bytes > cfg->spm_bytes - in->addr) {
        tx8_hal_fault("op_reshape: in = 0x%llx + %llu bytes is outside SPM", (unsigned long long)in->addr,
                      (unsigned long long)li.total_bytes);
        return TX8_CYCLES_INVALID;
    }
    if (out->addr > cfg->spm_bytes || lo.total_bytes > cfg->spm_bytes - out->addr) {
        tx8_hal_fault("op_reshape: out = 0x%llx + %llu bytes is outside SPM", (unsigned long long)out->addr,
                      (unsigned long long)lo.total_bytes);
        return TX8_CYCLES_INVALID;
    }
    if (in->addr < out->addr + lo.total_bytes && out->addr < in->addr + li.total_bytes) {
        tx8_hal_fault("op_reshape: in and out overlap in SPM");
        return TX8_CYCLES_INVALID;
    }

    const uint32_t eb = li.elem_bytes, C = li.c, U = li.unit ? li.unit : lo.unit;
    const int split = li.c_split || lo.c_split;
    const uint32_t full = split ? C / U : 0; /* full U-channel blocks (segment 0 when split) */
    uint64_t total = 0;
    for (int seg = 0; seg < 2 && total != TX8_CYCLES_INVALID; ++seg) {
        uint32_t c_lo, width, blocks;
        if (!split) {
            if (seg) break;
            c_lo = 0, width = C, blocks = 1;
        } else if (seg == 0) {
            if (full == 0) continue;
            c_lo = 0, width = U, blocks = full;
        } else {
            if (full * U == C) break;
            c_lo = full * U, width = C - full * U, blocks = 1;
        }
        const uint64_t bi = tx8_layout_offset(&li, 0, 0, c_lo), bo = tx8_layout_offset(&lo, 0, 0, c_lo);
        const uint64_t s[2][4] = {
            {eb, li.hw > 1 ? diff(&li, 0, 1, c_lo, bi) : 0, blocks > 1 ? diff(&li, 0, 0, c_lo + U, bi) : 0,
             li.batch_stride_bytes},
            {eb, lo.hw > 1 ? diff(&lo, 0, 1, c_lo, bo) : 0, blocks > 1 ? diff(&lo, 0, 0, c_lo + U, bo) : 0,
             lo.batch_stride_bytes}};
        uint32_t src_stride[4], dst_stride[4];
        for (int d = 0; d < 4; ++d) {
            if (s[0][d] > UINT32_MAX || s[1][d] > UINT32_MAX) {
                tx8_hal_fault("op_reshape: a stride does not fit a TDMA stride field");
                return TX8_CYCLES_INVALID;
            }
            src_stride[d] = (uint32_t)s[0][d], dst_stride[d] = (uint32_t)s[1][d];
        }
        /* dims innermost first: channel, hw, block, batch */
        const uint32_t shape[4] = {width, li.hw, blocks, li.n};
        TD_Param p;
        LSU_TDMA_box(&p, TD_OP_RESHAPE, in->addr + bi, out->addr + bo, eb, shape, src_stride, dst_stride);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
    }
    return total;
}

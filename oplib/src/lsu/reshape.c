/*
 * op_reshape: converts an SPM tensor between layouts with TDMA (e.g. NTensor <-> NCx, Tensor <-> Cx).
 *
 * Both sides are addressed with tx8_layout_offset. Inside one channel segment every layout is affine in
 * (n, hw, c), so a segment is one 4D TDMA box [n][block][hw][c]:
 *   segment 0: channels [0, F*U) as F full blocks of U (U = 64, or 128 for int8) when either side splits channels
 *              into Cx blocks; otherwise all C channels (F = 1, width C);
 *   segment 1: the remaining channels [F*U, C) when either side splits (at most U - 1 of them).
 * Strides are measured from the layouts themselves (offset differences), so any pair of layouts works. The
 * layouts and boxes are planned by tx8_plan_reshape (plan/plan.h); every check comes before the first instruction.
 */
#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"

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
    const tx8_hw_config *hw = tx8_hal_config();
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
    reshape_plan pl;
    const int bad = tx8_plan_reshape(hw, param, in->format, in->shape->shape_real, dim, &pl);
    if (bad == -1) {
        tx8_hal_fault("op_reshape: in shape is not valid in in_layout %s", tx8_layout_name(param->in_layout));
        return TX8_CYCLES_INVALID;
    }
    if (bad != 0) {
        tx8_hal_fault("op_reshape: out shape is not valid in out_layout %s", tx8_layout_name(param->out_layout));
        return TX8_CYCLES_INVALID;
    }
    const tx8_layout *li = &pl.in, *lo = &pl.out;
    if (in->addr > hw->spm_bytes || li->total_bytes > hw->spm_bytes - in->addr) {
        tx8_hal_fault("op_reshape: in = 0x%llx + %llu bytes is outside SPM", (unsigned long long)in->addr,
                      (unsigned long long)li->total_bytes);
        return TX8_CYCLES_INVALID;
    }
    if (out->addr > hw->spm_bytes || lo->total_bytes > hw->spm_bytes - out->addr) {
        tx8_hal_fault("op_reshape: out = 0x%llx + %llu bytes is outside SPM", (unsigned long long)out->addr,
                      (unsigned long long)lo->total_bytes);
        return TX8_CYCLES_INVALID;
    }
    if (in->addr < out->addr + lo->total_bytes && out->addr < in->addr + li->total_bytes) {
        tx8_hal_fault("op_reshape: in and out overlap in SPM");
        return TX8_CYCLES_INVALID;
    }
    for (int k = 0; k < pl.nseg; ++k)
        for (int d = 0; d < 4; ++d)
            if (pl.seg[k].src_stride[d] > UINT32_MAX || pl.seg[k].dst_stride[d] > UINT32_MAX) {
                tx8_hal_fault("op_reshape: a stride does not fit a TDMA stride field");
                return TX8_CYCLES_INVALID;
            }
    uint64_t total = 0;
    for (int k = 0; k < pl.nseg && total != TX8_CYCLES_INVALID; ++k) {
        const reshape_seg *g = &pl.seg[k];
        uint32_t src_stride[4], dst_stride[4];
        for (int d = 0; d < 4; ++d)
            src_stride[d] = (uint32_t)g->src_stride[d], dst_stride[d] = (uint32_t)g->dst_stride[d];
        TD_Param p;
        LSU_TDMA_box(&p, TD_OP_RESHAPE, in->addr + g->src_off, out->addr + g->dst_off, li->elem_bytes, g->shape,
                     src_stride, dst_stride);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
    }
    return total;
}

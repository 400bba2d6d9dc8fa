/* op_concat: inputs placed side by side along one dim of a compact SPM tensor, one TDMA gather/scatter each. */
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

#include <stdio.h>

#include "tsr_checks.h"

uint64_t op_concat(CONCAT_PARAM *param, TSR *const *in, TSR *out) {
    const char *op = "op_concat";
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    if (!in || param->count == 0) return tx8_hal_fault("%s: no inputs", op), TX8_CYCLES_INVALID;
    if (!out || !out->shape) return tx8_hal_fault("%s: out or out->shape is NULL", op), TX8_CYCLES_INVALID;
    const int32_t dim = out->shape->dim;
    if (dim < 1 || dim > MAX_SHAPE_DIM)
        return tx8_hal_fault("%s: out->shape->dim = %d, must be 1..%d", op, dim, MAX_SHAPE_DIM), TX8_CYCLES_INVALID;
    if (param->axis >= (uint32_t)dim)
        return tx8_hal_fault("%s: param->axis = %u, out has %d dims", op, param->axis, dim), TX8_CYCLES_INVALID;
    const uint64_t eb = tx8_format_bytes(out->format);
    uint64_t outer = 1, inner = 1, total = 0;
    for (int32_t d = 0; d < dim; ++d) {
        if (out->shape->shape_real[d] < 1)
            return tx8_hal_fault("%s: out->shape->shape_real[%d] = %d", op, d, out->shape->shape_real[d]),
                   TX8_CYCLES_INVALID;
        if ((uint32_t)d < param->axis) outer *= (uint64_t)out->shape->shape_real[d];
        if ((uint32_t)d > param->axis) inner *= (uint64_t)out->shape->shape_real[d];
    }
    const uint64_t out_axis = (uint64_t)out->shape->shape_real[param->axis], out_bytes = tx8_tsr_compact_bytes(out);
    if (tx8_check_in_spm(op, "out", out->addr, out_bytes) != 0) return TX8_CYCLES_INVALID;
    /* Every input checked before the first copy. */
    for (uint32_t i = 0; i < param->count; ++i) {
        const TSR *t = in[i];
        if (!t || !t->shape) return tx8_hal_fault("%s: in[%u] or its shape is NULL", op, i), TX8_CYCLES_INVALID;
        if (t->format != out->format)
            return tx8_hal_fault("%s: in[%u]->format = %s, out->format = %s; they must match", op, i,
                                 tx8_format_name(t->format), tx8_format_name(out->format)), TX8_CYCLES_INVALID;
        if (t->shape->dim != dim)
            return tx8_hal_fault("%s: in[%u]->shape->dim = %d, out's is %d", op, i, t->shape->dim, dim),
                   TX8_CYCLES_INVALID;
        for (int32_t d = 0; d < dim; ++d)
            if ((uint32_t)d != param->axis && t->shape->shape_real[d] != out->shape->shape_real[d])
                return tx8_hal_fault("%s: in[%u]->shape->shape_real[%d] = %d, out's is %d", op, i, d,
                                     t->shape->shape_real[d], out->shape->shape_real[d]), TX8_CYCLES_INVALID;
        if (t->shape->shape_real[param->axis] < 1)
            return tx8_hal_fault("%s: in[%u] is empty along the axis", op, i), TX8_CYCLES_INVALID;
        const uint64_t bytes = tx8_tsr_compact_bytes(t);
        char name[16];
        snprintf(name, sizeof name, "in[%u]", i);
        if (tx8_check_in_spm(op, name, t->addr, bytes) != 0) return TX8_CYCLES_INVALID;
        if (ranges_overlap(t->addr, bytes, out->addr, out_bytes))
            return tx8_hal_fault("%s: in[%u] overlaps out", op, i), TX8_CYCLES_INVALID;
        total += (uint64_t)t->shape->shape_real[param->axis];
    }
    if (total != out_axis)
        return tx8_hal_fault("%s: the inputs' extents along axis %u sum to %llu, out's is %llu", op, param->axis,
                             (unsigned long long)total, (unsigned long long)out_axis), TX8_CYCLES_INVALID;
    if (out_axis * inner * eb > UINT32_MAX || outer > UINT32_MAX)
        return tx8_hal_fault("%s: a row of %llu bytes does not fit a TDMA field", op,
                             (unsigned long long)(out_axis * inner * eb)), TX8_CYCLES_INVALID;
    uint64_t cycles = 0, offset = 0;
    for (uint32_t i = 0; i < param->count && cycles != TX8_CYCLES_INVALID; ++i) {
        const uint64_t row = (uint64_t)in[i]->shape->shape_real[param->axis] * inner * eb;
        cycles = ADD_VALID_CYCLE(cycles, op_gatherScatter(in[i]->addr, out->addr + offset, (uint32_t)row,
                                                          (uint32_t)outer, (uint32_t)row,
                                                          (uint32_t)(out_axis * inner * eb)));
        offset += row;
    }
    return cycles;
}

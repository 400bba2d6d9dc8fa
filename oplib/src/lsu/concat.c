/* op_concat: inputs placed side by side along one dim of a compact SPM tensor, one TDMA gather/scatter each. */
#include "tx8/check.h"
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

uint64_t op_concat(CONCAT_PARAM *param, TSR *const *in, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_concat(tx8_hal_config(), param, (const TSR *const *)in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const int32_t dim = out->shape->dim;
    const uint64_t eb = tx8_format_bytes(out->format);
    uint64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < dim; ++d) {
        if ((uint32_t)d < param->axis) outer *= (uint64_t)out->shape->shape_real[d];
        if ((uint32_t)d > param->axis) inner *= (uint64_t)out->shape->shape_real[d];
    }
    const uint64_t out_axis = (uint64_t)out->shape->shape_real[param->axis];
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

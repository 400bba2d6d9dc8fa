/*
 * op_slice: a strided (possibly reversed) window of a compact SPM tensor, copied by the TDMA.
 *
 * Output dim k walks input dim k from start_k by step_k: count O_k, source stride step_k times in's row-major
 * stride of dim k (negative for a reversed dim), destination stride out's row-major stride. tx8_lsu_tdma_copy
 * (lsu_internal.h) simplifies and issues that: a window with steps 1 keeps its inner rows contiguous on both sides
 * and is one instruction; a step > 1 makes its dim a strided gather; a negative step is looped over, one
 * instruction per output index along it (TDMA strides are unsigned).
 */
#include "lsu_internal.h"

#include "tx8/check.h"
#include "tx8/hal.h"

uint64_t op_slice(SLICE_PARAM *param, TSR *in, TSR *out) {
    const char *op = "op_slice";
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_slice(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const uint32_t eb = tx8_format_bytes(in->format);
    const int32_t dim = in->shape->dim, *S = in->shape->shape_real, *O = out->shape->shape_real;
    /* in and out are inside SPM, so every stride below is < 2^28 bytes times a step < 2^31: fits int64 */
    lsu_copy_dim d[MAX_SHAPE_DIM];
    int64_t in_stride = eb, first = 0;
    uint64_t out_stride = eb;
    for (int32_t k = dim - 1, i = 0; k >= 0; --k, ++i) {
        d[i] = (lsu_copy_dim){(uint64_t)O[k], param->step[k] * in_stride, out_stride};
        first += param->start[k] * in_stride;
        in_stride *= S[k], out_stride *= (uint64_t)O[k];
    }
    return tx8_lsu_tdma_copy(op, in->addr + (uint64_t)first, out->addr, eb, d, dim);
}

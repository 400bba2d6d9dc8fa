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

#include "tx8/hal.h"

uint64_t op_slice(SLICE_PARAM *param, TSR *in, TSR *out) {
    const char *op = "op_slice";
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    const uint32_t eb = tx8_lsu_check_compact_pair(op, in, out);
    if (eb == 0) return TX8_CYCLES_INVALID;
    const int32_t dim = in->shape->dim, *S = in->shape->shape_real, *O = out->shape->shape_real;
    /* every index read inside in: the first and the last along each dim (steps are constant) */
    for (int32_t k = 0; k < dim; ++k) {
        const int32_t start = param->start[k], step = param->step[k];
        if (start < 0 || start >= S[k])
            return tx8_hal_fault("%s: param->start[%d] = %d is outside in's extent [0, %d)", op, k, start, S[k]),
                   TX8_CYCLES_INVALID;
        const int64_t last = (int64_t)start + (int64_t)(O[k] - 1) * step; /* |.| < 2^62 */
        if (last < 0 || last >= S[k])
            return tx8_hal_fault("%s: dim %d reads index %lld (start %d + (%d - 1) * step %d), outside in's extent "
                                 "[0, %d)", op, k, (long long)last, start, O[k], step, S[k]), TX8_CYCLES_INVALID;
    }
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

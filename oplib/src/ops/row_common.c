/* The per-row value applied along rows (row_common.h). */
#include "row_common.h"

#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

uint64_t tx8_row_apply(uint32_t rows, uint32_t len, int mul, uint64_t src, uint64_t dst, uint64_t v,
                       uint64_t bcast) {
    CT_Param ct;
    if (rows == 1) {
        if (mul) CGRATensor_ArithOp_V_VuV_mul(&ct, src, dst, v, RND_NEAREST_EVEN, len, 1, Fmt_FP32);
        else CGRATensor_ArithOp_V_VuV_sub(&ct, src, dst, v, RND_NEAREST_EVEN, len, 1, Fmt_FP32);
        return TsmExecute(&ct);
    }
    TD_Param td;
    const uint32_t shape[4] = {len, rows, 1, 1};
    const uint32_t src_stride[4] = {0, 4, 0, 0}, dst_stride[4] = {4, 4 * len, 0, 0};
    LSU_TDMA_box(&td, TD_OP_GATHER_SCATTER, v, bcast, 4, shape, src_stride, dst_stride);
    uint64_t total = TsmExecute(&td);
    if (total == TX8_CYCLES_INVALID) return total;
    const uint32_t n = rows * len;
    if (mul) CGRATensor_ArithOp_V_V_mul(&ct, src, bcast, dst, n, RND_NEAREST_EVEN, Fmt_FP32);
    else CGRATensor_ArithOp_V_V_sub(&ct, src, bcast, dst, n, RND_NEAREST_EVEN, Fmt_FP32);
    return ADD_VALID_CYCLE(total, TsmExecute(&ct));
}

/*
 * TDMA copies described as dims (lsu_internal.h), shared by op_slice and op_pad: the simplify-then-issue of one copy
 * (their pre-issue checks are tx8_check_slice / tx8_check_pad, plan/check_lsu.c).
 *
 * Simplifying follows tx8_plan_permute: a dim of count 1 moves nothing; an outer dim whose strides are its inner
 * neighbour's count times that neighbour's strides, on both sides, continues it (this holds for a negative or a
 * zero source stride too: a reversed row of rows is one reversed row, a repeated element stays repeated); an
 * innermost dim contiguous on both sides is one bigger element. What is left has at most 6 dims. A TDMA box has 4
 * dims with unsigned strides, so a dim with a negative source stride is always looped over, and of the others the
 * 4 with the largest counts go into the instruction (fewest instructions), in their order.
 */
#include "lsu_internal.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

uint64_t tx8_lsu_tdma_copy(const char *op, uint64_t src, uint64_t dst, uint32_t elem_bytes, lsu_copy_dim *d,
                           int nd) {
    /* drop count-1 dims, merge an outer dim into its inner neighbour when it continues it on both sides */
    int n = 0;
    for (int i = 0; i < nd; ++i) {
        if (d[i].count == 1) continue;
        if (n && d[i].src_stride == (int64_t)d[n - 1].count * d[n - 1].src_stride &&
            d[i].dst_stride == d[n - 1].count * d[n - 1].dst_stride)
            d[n - 1].count *= d[i].count;
        else
            d[n++] = d[i];
    }
    uint64_t eb = elem_bytes;
    if (n && d[0].src_stride == (int64_t)eb && d[0].dst_stride == eb) {
        eb *= d[0].count;
        for (int i = 1; i < n; ++i) d[i - 1] = d[i];
        --n;
    }
    /* into the instruction: non-negative source strides, at most 4, the smallest counts looped first */
    int in_instr[MAX_SHAPE_DIM], eligible = 0;
    for (int i = 0; i < n; ++i) in_instr[i] = d[i].src_stride >= 0, eligible += in_instr[i];
    for (; eligible > 4; --eligible) {
        int pick = -1;
        for (int i = 0; i < n; ++i)
            if (in_instr[i] && (pick < 0 || d[i].count <= d[pick].count)) pick = i;
        in_instr[pick] = 0;
    }
    /* never after the caller's checks (every value is below spm_bytes), but a TDMA field must not be truncated */
    int fits = eb <= UINT32_MAX;
    for (int i = 0; i < n; ++i) {
        const uint64_t src_mag = d[i].src_stride < 0 ? 0 - (uint64_t)d[i].src_stride : (uint64_t)d[i].src_stride;
        fits &= d[i].count <= UINT32_MAX && src_mag <= UINT32_MAX && d[i].dst_stride <= UINT32_MAX;
    }
    if (!fits) {
        tx8_hal_fault("%s: a TDMA count, stride or element of the copy does not fit 32 bits", op);
        return TX8_CYCLES_INVALID;
    }
    uint32_t shape[4] = {1, 1, 1, 1}, ss[4] = {0, 0, 0, 0}, ds[4] = {0, 0, 0, 0};
    int loop[MAX_SHAPE_DIM], nl = 0, k = 0;
    for (int i = 0; i < n; ++i) {
        if (in_instr[i])
            shape[k] = (uint32_t)d[i].count, ss[k] = (uint32_t)d[i].src_stride, ds[k] = (uint32_t)d[i].dst_stride, ++k;
        else
            loop[nl++] = i;
    }
    /* odometer over the looped dims, innermost fastest; a negative stride walks the source backwards */
    uint64_t idx[MAX_SHAPE_DIM] = {0}, total = 0;
    for (;;) {
        int64_t so = 0;
        uint64_t dof = 0;
        for (int j = 0; j < nl; ++j)
            so += (int64_t)idx[j] * d[loop[j]].src_stride, dof += idx[j] * d[loop[j]].dst_stride;
        TD_Param p;
        LSU_TDMA_box(&p, TD_OP_GATHER_SCATTER, src + (uint64_t)so, dst + dof, (uint32_t)eb, shape, ss, ds);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        if (total == TX8_CYCLES_INVALID) return total;
        int j = 0;
        while (j < nl && ++idx[j] == d[loop[j]].count) idx[j++] = 0;
        if (j == nl) return total;
    }
}

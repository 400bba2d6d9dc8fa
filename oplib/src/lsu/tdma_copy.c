/*
 * TDMA copies described as dims (lsu_internal.h), shared by op_slice and op_pad: the pre-issue checks of a compact
 * in/out pair, and the simplify-then-issue of one copy.
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

#include "tsr_checks.h"

static int check_tsr(const char *op, const char *name, const TSR *t) {
    if (!t || !t->shape) {
        tx8_hal_fault("%s: %s or %s->shape is NULL", op, name, name);
        return 0;
    }
    const int32_t dim = t->shape->dim;
    if (dim < 1 || dim > MAX_SHAPE_DIM) {
        tx8_hal_fault("%s: %s->shape->dim = %d, must be 1..%d", op, name, (int)dim, MAX_SHAPE_DIM);
        return 0;
    }
    for (int32_t d = 0; d < dim; ++d)
        if (t->shape->shape_real[d] < 1) {
            tx8_hal_fault("%s: %s->shape->shape_real[%d] = %d, must be >= 1", op, name, (int)d,
                          (int)t->shape->shape_real[d]);
            return 0;
        }
    return 1;
}

uint32_t tx8_lsu_check_compact_pair(const char *op, const TSR *in, const TSR *out) {
    if (!check_tsr(op, "in", in) || !check_tsr(op, "out", out)) return 0;
    if (out->shape->dim != in->shape->dim) {
        tx8_hal_fault("%s: out->shape->dim = %d, in->shape->dim = %d; they must match", op, (int)out->shape->dim,
                      (int)in->shape->dim);
        return 0;
    }
    const uint32_t eb = tx8_format_bytes(in->format);
    if (eb == 0) {
        tx8_hal_fault("%s: in->format = %d is not a Data_Format", op, (int)in->format);
        return 0;
    }
    if (out->format != in->format) {
        tx8_hal_fault("%s: out->format = %s, in->format = %s; they must match", op, tx8_format_name(out->format),
                      tx8_format_name(in->format));
        return 0;
    }
    /* 0 bytes (a product past 64 bits) fails the SPM check */
    const uint64_t in_bytes = tx8_tsr_compact_bytes(in), out_bytes = tx8_tsr_compact_bytes(out);
    if (tx8_check_in_spm(op, "in", in->addr, in_bytes) != 0 || tx8_check_in_spm(op, "out", out->addr, out_bytes) != 0)
        return 0;
    if (ranges_overlap(in->addr, in_bytes, out->addr, out_bytes)) {
        tx8_hal_fault("%s: out [0x%llx, 0x%llx) overlaps in [0x%llx, 0x%llx)", op, (unsigned long long)out->addr,
                      (unsigned long long)(out->addr + out_bytes), (unsigned long long)in->addr,
                      (unsigned long long)(in->addr + in_bytes));
        return 0;
    }
    return eb;
}

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

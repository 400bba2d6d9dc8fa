/*
 * op_pad: a compact SPM tensor surrounded by constant, edge or reflect pads.
 *
 * PAD_EDGE and PAD_REFLECT copy every output element straight from in on the TDMA. Along dim k out splits into
 * three parts: begin_k pad indices, the S_k interior indices and end_k pad indices. An output element depends on
 * its own index along each dim only (edge: clamped into the interior; reflect: mirrored at the interior's first or
 * last index), so each product of parts over the dims (at most 3^dim, empty ones skipped) is one copy from in,
 * along dim k:
 *   interior  count S_k, from in's index 0 with in's stride
 *   edge      count begin_k (end_k), from index 0 (S_k - 1) with stride 0: one element repeated
 *   reflect   count begin_k (end_k), from index begin_k (S_k - 2) with in's stride negated: walked backwards
 * Copies are issued by tx8_lsu_tdma_copy (lsu_internal.h), which loops over the reflected dims.
 *
 * PAD_CONSTANT (fp32, fp16, bf16) takes its value as a float in PAD_PARAM: the caller (the compiler) has no SPM
 * buffer holding it, and none is needed. The CT fills all of out in place with two V_S passes over its elements,
 *   out = (out != NaN)    every comparison with NaN is unequal: 1.0 in out's format, whatever out held
 *   out = out * value     1 * value = value rounded once to the format, exactly (-0, inf; NaN as the canonical NaN)
 * and then the interior copy above (region 0, from in) overwrites in's part of it on the TDMA.
 *
 * Why not pad dim by dim inside out (interior first, then each padded slab from an already written one): the TDMA
 * refuses a copy whose source and destination extents overlap, and a slab along an inner dim interleaves with its
 * source slab across the outer dims, so each outer index would cost an instruction. Reading from in, which may not
 * overlap out, never meets that rule; edge and reflect write every output byte once, constant writes in's bytes
 * twice (fill, then copy).
 */
#include "lsu_internal.h"

#include <string.h>

#include "tx8/cgra.h"
#include "tx8/check.h"
#include "tx8/hal.h"
#include "tx8/tsm.h"

uint64_t op_pad(PAD_PARAM *param, TSR *in, TSR *out) {
    const char *op = "op_pad";
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_pad(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const uint32_t eb = tx8_format_bytes(in->format), mode = param->mode;
    const Data_Format fmt = in->format;
    const int32_t dim = in->shape->dim, *S = in->shape->shape_real, *O = out->shape->shape_real;
    const int32_t *B = param->begin, *E = param->end;

    /* row-major strides, indexed by dim (in and out lie in SPM: < 2^28 bytes) */
    int64_t in_stride[MAX_SHAPE_DIM], is = eb;
    uint64_t out_stride[MAX_SHAPE_DIM], os = eb;
    for (int32_t k = dim - 1; k >= 0; --k) {
        in_stride[k] = is, out_stride[k] = os;
        is *= S[k], os *= (uint64_t)O[k];
    }
    uint64_t total = 0;
    int32_t regions = 1; /* parts per dim: 0 interior, 1 begin pad, 2 end pad; region 0 is in's copy */
    if (mode == PAD_CONSTANT) {
        /* One instruction per pass: out lies in SPM (checked above), which tx8_hw_config_check caps at 2^28 bytes,
         * and its elements are >= 2 bytes, so n <= 2^27 fits the CT's uint32 src_elem_num. */
        const uint32_t n = (uint32_t)(os / eb), nan_bits = 0x7FC00000u;
        uint32_t value_bits;
        memcpy(&value_bits, &param->value, sizeof value_bits);
        CT_Param p;
        CGRATensor_RelationOp_V_S_cmp(&p, CT_OP_CMP_NE, out->addr, nan_bits, out->addr, n, fmt);
        total = TsmExecute(&p);
        if (total == TX8_CYCLES_INVALID) return total;
        CGRATensor_ArithOp_V_S_mul(&p, out->addr, value_bits, out->addr, n, RND_NEAREST_EVEN, fmt);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
    } else {
        for (int32_t k = 0; k < dim; ++k) regions *= 3;
    }
    lsu_copy_dim d[MAX_SHAPE_DIM];
    for (int32_t r = 0; r < regions && total != TX8_CYCLES_INVALID; ++r) {
        int64_t src_off = 0;
        uint64_t dst_off = 0;
        int empty = 0;
        for (int32_t k = dim - 1, i = 0, rest = r; k >= 0; --k, ++i, rest /= 3) {
            const int part = rest % 3;
            const int64_t back = mode == PAD_REFLECT ? -in_stride[k] : 0; /* a pad's source stride */
            int64_t count = S[k], src_index = 0, src_stride = in_stride[k], dst_index = B[k];
            if (part == 1) count = B[k], src_index = mode == PAD_REFLECT ? B[k] : 0, src_stride = back, dst_index = 0;
            if (part == 2)
                count = E[k], src_index = mode == PAD_REFLECT ? S[k] - 2 : S[k] - 1, src_stride = back,
                dst_index = (int64_t)B[k] + S[k];
            empty |= count == 0;
            d[i] = (lsu_copy_dim){(uint64_t)count, src_stride, out_stride[k]};
            src_off += src_index * in_stride[k], dst_off += (uint64_t)dst_index * out_stride[k];
        }
        if (empty) continue;
        total = ADD_VALID_CYCLE(total,
                                tx8_lsu_tdma_copy(op, in->addr + (uint64_t)src_off, out->addr + dst_off, eb, d, dim));
    }
    return total;
}

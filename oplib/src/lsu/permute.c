/*
 * op_permute: reorders the dims of a compact (row-major) SPM tensor with TDMA box copies.
 *
 * The copy is described in output order: output dim k walks input dim perm[k], so it has count S[perm[k]], the
 * destination stride of the compact output and the source stride of input dim perm[k]. Then, as in lsu_slice.c:
 * dims of count 1 are dropped, neighbouring dims that are contiguous on both sides (a run of input dims that stays
 * together and in order) are merged, and an innermost dim contiguous on both sides is folded into the TDMA
 * element (one "element" = the contiguous run, as gatherScatter does). NHWC -> NCHW thus becomes
 * [C][HW] <- [HW][C]: one instruction. What is left has at most 6 dims; the 4 with the largest counts go into the
 * instruction (kept in output order, innermost first) and the others, if any, are looped over.
 *
 * Everything is checked before the first instruction; cycles are the sum of what the TDMA instructions return.
 * The dims are planned by tx8_plan_permute (plan/plan.h).
 */
#include <stdio.h>

#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"

/* "[a][b][c]" into buf (for messages). */
static const char *dims_str(char *buf, size_t size, const int32_t *v, int32_t n) {
    size_t at = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < n && at < size; ++i) {
        const int w = snprintf(buf + at, size - at, "[%d]", (int)v[i]);
        if (w < 0) break;
        at += (size_t)w;
    }
    return buf;
}

static int check_tsr(const char *name, const TSR *t) {
    if (!t || !t->shape) {
        tx8_hal_fault("op_permute: %s (or its shape) is NULL", name);
        return 0;
    }
    if (t->shape->dim < 1 || t->shape->dim > MAX_SHAPE_DIM) {
        tx8_hal_fault("op_permute: %s->shape->dim = %d, must be 1..%d", name, (int)t->shape->dim, MAX_SHAPE_DIM);
        return 0;
    }
    return 1;
}

/* Bytes of a compact tensor of shape s, or UINT64_MAX when that exceeds `cap` (so no overflow is possible). */
static uint64_t compact_bytes(const int32_t *s, int32_t dim, uint32_t eb, uint64_t cap) {
    uint64_t b = eb;
    for (int32_t i = 0; i < dim; ++i) {
        if (b > cap / (uint64_t)s[i]) return UINT64_MAX;
        b *= (uint64_t)s[i];
    }
    return b > cap ? UINT64_MAX : b;
}

static int check_range(const char *name, uint64_t addr, uint64_t bytes, uint64_t spm) {
    if (bytes == UINT64_MAX || addr > spm || bytes > spm - addr) {
        if (bytes == UINT64_MAX)
            tx8_hal_fault("op_permute: %s at 0x%llx holds more bytes than SPM [0, 0x%llx)", name,
                          (unsigned long long)addr, (unsigned long long)spm);
        else
            tx8_hal_fault("op_permute: %s [0x%llx, 0x%llx) is outside SPM [0, 0x%llx)", name,
                          (unsigned long long)addr, (unsigned long long)(addr + bytes), (unsigned long long)spm);
        return 0;
    }
    return 1;
}

/* Issues the box: the dims with in_instr[i] go into each instruction, the others are looped over (odometer). */
static uint64_t issue(const permute_dim *d, int nd, const int *in_instr, uint64_t src, uint64_t dst, uint32_t eb) {
    uint32_t shape[4] = {1, 1, 1, 1}, ss[4] = {0, 0, 0, 0}, ds[4] = {0, 0, 0, 0};
    int loop[MAX_SHAPE_DIM], nl = 0, k = 0;
    for (int i = 0; i < nd; ++i) {
        if (in_instr[i]) {
            shape[k] = (uint32_t)d[i].count, ss[k] = (uint32_t)d[i].src_stride, ds[k] = (uint32_t)d[i].dst_stride;
            ++k;
        } else {
            loop[nl++] = i;
        }
    }
    uint64_t idx[MAX_SHAPE_DIM] = {0}, total = 0;
    for (;;) {
        uint64_t so = 0, dof = 0;
        for (int j = 0; j < nl; ++j) so += idx[j] * d[loop[j]].src_stride, dof += idx[j] * d[loop[j]].dst_stride;
        TD_Param p;
        LSU_TDMA_box(&p, TD_OP_RESHAPE, src + so, dst + dof, eb, shape, ss, ds);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        if (total == TX8_CYCLES_INVALID) return total;
        int j = 0;
        while (j < nl && ++idx[j] == d[loop[j]].count) idx[j++] = 0;
        if (j == nl) return total;
    }
}

uint64_t op_permute(PERMUTE_PARAM *param, TSR *in, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    if (!param) {
        tx8_hal_fault("op_permute: param is NULL");
        return TX8_CYCLES_INVALID;
    }
    if (!check_tsr("in", in) || !check_tsr("out", out)) return TX8_CYCLES_INVALID;
    const int32_t dim = in->shape->dim;
    if (out->shape->dim != dim) {
        tx8_hal_fault("op_permute: out->shape->dim = %d differs from in->shape->dim = %d", (int)out->shape->dim,
                      (int)dim);
        return TX8_CYCLES_INVALID;
    }
    const uint32_t eb = tx8_format_bytes(in->format);
    if (eb == 0) {
        tx8_hal_fault("op_permute: in->format = %d is not a Data_Format", (int)in->format);
        return TX8_CYCLES_INVALID;
    }
    if (out->format != in->format) {
        tx8_hal_fault("op_permute: out->format = %s differs from in->format = %s", tx8_format_name(out->format),
                      tx8_format_name(in->format));
        return TX8_CYCLES_INVALID;
    }
    const int32_t *S = in->shape->shape_real, *O = out->shape->shape_real;
    char b1[96], b2[96], b3[96], b4[96];
    for (int32_t i = 0; i < dim; ++i)
        if (S[i] < 1) {
            tx8_hal_fault("op_permute: in->shape->shape_real = %s, every extent must be >= 1",
                          dims_str(b1, sizeof b1, S, dim));
            return TX8_CYCLES_INVALID;
        }
    int seen[MAX_SHAPE_DIM] = {0};
    for (int32_t k = 0; k < dim; ++k) {
        const int32_t p = param->perm[k];
        if (p < 0 || p >= dim || seen[p]++) {
            tx8_hal_fault("op_permute: param->perm = %s is not a permutation of 0..%d",
                          dims_str(b1, sizeof b1, param->perm, dim), (int)dim - 1);
            return TX8_CYCLES_INVALID;
        }
    }
    int32_t want[MAX_SHAPE_DIM];
    int same = 1;
    for (int32_t k = 0; k < dim; ++k) want[k] = S[param->perm[k]], same &= O[k] == want[k];
    if (!same) {
        tx8_hal_fault("op_permute: out->shape->shape_real = %s, must be %s (in %s permuted by %s)",
                      dims_str(b1, sizeof b1, O, dim), dims_str(b2, sizeof b2, want, dim),
                      dims_str(b3, sizeof b3, S, dim), dims_str(b4, sizeof b4, param->perm, dim));
        return TX8_CYCLES_INVALID;
    }
    const uint64_t spm = hw->spm_bytes;
    const uint64_t bytes = compact_bytes(S, dim, eb, spm); /* same for out: same extents */
    if (!check_range("in", in->addr, bytes, spm) || !check_range("out", out->addr, bytes, spm))
        return TX8_CYCLES_INVALID;
    if (in->addr < out->addr + bytes && out->addr < in->addr + bytes) {
        tx8_hal_fault("op_permute: out [0x%llx, 0x%llx) overlaps in [0x%llx, 0x%llx)", (unsigned long long)out->addr,
                      (unsigned long long)(out->addr + bytes), (unsigned long long)in->addr,
                      (unsigned long long)(in->addr + bytes));
        return TX8_CYCLES_INVALID;
    }

    /* every count and stride of the plan is <= bytes <= spm_bytes */
    permute_plan pl;
    tx8_plan_permute(hw, S, dim, param->perm, eb, &pl);
    if (pl.elem_bytes > UINT32_MAX) {
        tx8_hal_fault("op_permute: a contiguous run of %llu bytes does not fit the TDMA elem_bytes field",
                      (unsigned long long)pl.elem_bytes);
        return TX8_CYCLES_INVALID;
    }
    for (int i = 0; i < pl.nd; ++i)
        if (pl.d[i].count > UINT32_MAX || pl.d[i].src_stride > UINT32_MAX || pl.d[i].dst_stride > UINT32_MAX) {
            tx8_hal_fault("op_permute: a count or stride does not fit a TDMA field");
            return TX8_CYCLES_INVALID;
        }
    return issue(pl.d, pl.nd, pl.in_instr, in->addr, out->addr, (uint32_t)pl.elem_bytes);
}

/* The TDMA moves' contracts (tx8/check.h): op_permute, op_slice, op_pad, op_concat. The lsu kernels issue what these
 * accept. */
#include "check_internal.h"

#include <stdio.h>

/* ---- op_slice / op_pad: a compact in/out pair ---- */

static int check_pair_tsr(const char *op, const char *name, const TSR *t, char *why, size_t why_size) {
    if (!t || !t->shape) return tx8_why(why, why_size, "%s: %s or %s->shape is NULL", op, name, name);
    const int32_t dim = t->shape->dim;
    if (dim < 1 || dim > MAX_SHAPE_DIM)
        return tx8_why(why, why_size, "%s: %s->shape->dim = %d, must be 1..%d", op, name, (int)dim, MAX_SHAPE_DIM);
    for (int32_t d = 0; d < dim; ++d)
        if (t->shape->shape_real[d] < 1)
            return tx8_why(why, why_size, "%s: %s->shape->shape_real[%d] = %d, must be >= 1", op, name, (int)d,
                           (int)t->shape->shape_real[d]);
    return 0;
}

uint32_t tx8_check_compact_pair(const tx8_hw_config *hw, const char *op, const TSR *in, const TSR *out, char *why,
                                size_t why_size) {
    if (check_pair_tsr(op, "in", in, why, why_size) != 0 || check_pair_tsr(op, "out", out, why, why_size) != 0)
        return 0;
    if (out->shape->dim != in->shape->dim) {
        tx8_why(why, why_size, "%s: out->shape->dim = %d, in->shape->dim = %d; they must match", op,
                (int)out->shape->dim, (int)in->shape->dim);
        return 0;
    }
    const uint32_t eb = tx8_format_bytes(in->format);
    if (eb == 0) {
        tx8_why(why, why_size, "%s: in->format = %d is not a Data_Format", op, (int)in->format);
        return 0;
    }
    if (out->format != in->format) {
        tx8_why(why, why_size, "%s: out->format = %s, in->format = %s; they must match", op,
                tx8_format_name(out->format), tx8_format_name(in->format));
        return 0;
    }
    /* 0 bytes (a product past 64 bits) fails the SPM check */
    const uint64_t in_bytes = tx8_tsr_compact_bytes(in), out_bytes = tx8_tsr_compact_bytes(out);
    if (tx8_check_range_in_spm(hw, op, "in", in->addr, in_bytes, why, why_size) != 0 ||
        tx8_check_range_in_spm(hw, op, "out", out->addr, out_bytes, why, why_size) != 0)
        return 0;
    if (ranges_overlap(in->addr, in_bytes, out->addr, out_bytes)) {
        tx8_why(why, why_size, "%s: out [0x%llx, 0x%llx) overlaps in [0x%llx, 0x%llx)", op,
                (unsigned long long)out->addr, (unsigned long long)(out->addr + out_bytes),
                (unsigned long long)in->addr, (unsigned long long)(in->addr + in_bytes));
        return 0;
    }
    return eb;
}

int tx8_check_slice(const tx8_hw_config *hw, const SLICE_PARAM *param, const TSR *in, const TSR *out, char *why,
                    size_t why_size) {
    const char *op = "op_slice";
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if (tx8_check_compact_pair(hw, op, in, out, why, why_size) == 0) return -1;
    const int32_t dim = in->shape->dim, *S = in->shape->shape_real, *O = out->shape->shape_real;
    /* every index read inside in: the first and the last along each dim (steps are constant) */
    for (int32_t k = 0; k < dim; ++k) {
        const int32_t start = param->start[k], step = param->step[k];
        if (start < 0 || start >= S[k])
            return tx8_why(why, why_size, "%s: param->start[%d] = %d is outside in's extent [0, %d)", op, k, start,
                           S[k]);
        const int64_t last = (int64_t)start + (int64_t)(O[k] - 1) * step; /* |.| < 2^62 */
        if (last < 0 || last >= S[k])
            return tx8_why(why, why_size,
                           "%s: dim %d reads index %lld (start %d + (%d - 1) * step %d), outside in's extent [0, %d)",
                           op, k, (long long)last, start, O[k], step, S[k]);
    }
    return 0;
}

int tx8_check_pad(const tx8_hw_config *hw, const PAD_PARAM *param, const TSR *in, const TSR *out, char *why,
                  size_t why_size) {
    const char *op = "op_pad";
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if (tx8_check_compact_pair(hw, op, in, out, why, why_size) == 0) return -1;
    const uint32_t mode = param->mode;
    if (mode != PAD_CONSTANT && mode != PAD_REFLECT && mode != PAD_EDGE)
        return tx8_why(why, why_size, "%s: param->mode = %u is not a PAD_MODE", op, mode);
    const Data_Format fmt = in->format;
    if (mode == PAD_CONSTANT && fmt != Fmt_FP32 && fmt != Fmt_FP16 && fmt != Fmt_BF16)
        return tx8_why(why, why_size, "%s: PAD_CONSTANT fills on the CT in fp32, fp16 or bf16; in->format = %s", op,
                       tx8_format_name(fmt));
    const int32_t dim = in->shape->dim, *S = in->shape->shape_real, *O = out->shape->shape_real;
    const int32_t *B = param->begin, *E = param->end;
    for (int32_t k = 0; k < dim; ++k) {
        if (B[k] < 0 || E[k] < 0)
            return tx8_why(why, why_size, "%s: param->begin[%d] = %d, param->end[%d] = %d; pads must be >= 0", op, k,
                           B[k], k, E[k]);
        const int64_t want = (int64_t)S[k] + B[k] + E[k];
        if (O[k] != want)
            return tx8_why(why, why_size, "%s: out->shape->shape_real[%d] = %d, must be %lld (in's %d + begin %d + end %d)",
                           op, k, O[k], (long long)want, S[k], B[k], E[k]);
        if (mode == PAD_REFLECT && (B[k] > S[k] - 1 || E[k] > S[k] - 1))
            return tx8_why(why, why_size,
                           "%s: PAD_REFLECT along dim %d: begin %d and end %d must be <= in's extent %d - 1", op, k,
                           B[k], E[k], S[k]);
    }
    return 0;
}

/* ---- op_permute ---- */

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

static int check_permute_tsr(const char *name, const TSR *t, char *why, size_t why_size) {
    if (!t || !t->shape) return tx8_why(why, why_size, "op_permute: %s (or its shape) is NULL", name);
    if (t->shape->dim < 1 || t->shape->dim > MAX_SHAPE_DIM)
        return tx8_why(why, why_size, "op_permute: %s->shape->dim = %d, must be 1..%d", name, (int)t->shape->dim,
                       MAX_SHAPE_DIM);
    return 0;
}

/* Bytes of a compact tensor of shape s, or UINT64_MAX when that exceeds `cap` (so no overflow is possible). */
static uint64_t capped_bytes(const int32_t *s, int32_t dim, uint32_t eb, uint64_t cap) {
    uint64_t b = eb;
    for (int32_t i = 0; i < dim; ++i) {
        if (b > cap / (uint64_t)s[i]) return UINT64_MAX;
        b *= (uint64_t)s[i];
    }
    return b > cap ? UINT64_MAX : b;
}

static int check_permute_range(const char *name, uint64_t addr, uint64_t bytes, uint64_t spm, char *why,
                               size_t why_size) {
    if (bytes == UINT64_MAX)
        return tx8_why(why, why_size, "op_permute: %s at 0x%llx holds more bytes than SPM [0, 0x%llx)", name,
                       (unsigned long long)addr, (unsigned long long)spm);
    if (addr > spm || bytes > spm - addr)
        return tx8_why(why, why_size, "op_permute: %s [0x%llx, 0x%llx) is outside SPM [0, 0x%llx)", name,
                       (unsigned long long)addr, (unsigned long long)(addr + bytes), (unsigned long long)spm);
    return 0;
}

int tx8_check_permute(const tx8_hw_config *hw, const PERMUTE_PARAM *param, const TSR *in, const TSR *out, char *why,
                      size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_permute: param is NULL");
    if (check_permute_tsr("in", in, why, why_size) != 0 || check_permute_tsr("out", out, why, why_size) != 0)
        return -1;
    const int32_t dim = in->shape->dim;
    if (out->shape->dim != dim)
        return tx8_why(why, why_size, "op_permute: out->shape->dim = %d differs from in->shape->dim = %d",
                       (int)out->shape->dim, (int)dim);
    const uint32_t eb = tx8_format_bytes(in->format);
    if (eb == 0) return tx8_why(why, why_size, "op_permute: in->format = %d is not a Data_Format", (int)in->format);
    if (out->format != in->format)
        return tx8_why(why, why_size, "op_permute: out->format = %s differs from in->format = %s",
                       tx8_format_name(out->format), tx8_format_name(in->format));
    const int32_t *S = in->shape->shape_real, *O = out->shape->shape_real;
    char b1[96], b2[96], b3[96], b4[96];
    for (int32_t i = 0; i < dim; ++i)
        if (S[i] < 1)
            return tx8_why(why, why_size, "op_permute: in->shape->shape_real = %s, every extent must be >= 1",
                           dims_str(b1, sizeof b1, S, dim));
    int seen[MAX_SHAPE_DIM] = {0};
    for (int32_t k = 0; k < dim; ++k) {
        const int32_t p = param->perm[k];
        if (p < 0 || p >= dim || seen[p]++)
            return tx8_why(why, why_size, "op_permute: param->perm = %s is not a permutation of 0..%d",
                           dims_str(b1, sizeof b1, param->perm, dim), (int)dim - 1);
    }
    int32_t want[MAX_SHAPE_DIM];
    int same = 1;
    for (int32_t k = 0; k < dim; ++k) want[k] = S[param->perm[k]], same &= O[k] == want[k];
    if (!same)
        return tx8_why(why, why_size, "op_permute: out->shape->shape_real = %s, must be %s (in %s permuted by %s)",
                       dims_str(b1, sizeof b1, O, dim), dims_str(b2, sizeof b2, want, dim),
                       dims_str(b3, sizeof b3, S, dim), dims_str(b4, sizeof b4, param->perm, dim));
    const uint64_t spm = hw->spm_bytes;
    const uint64_t bytes = capped_bytes(S, dim, eb, spm); /* same for out: same extents */
    if (check_permute_range("in", in->addr, bytes, spm, why, why_size) != 0 ||
        check_permute_range("out", out->addr, bytes, spm, why, why_size) != 0)
        return -1;
    if (in->addr < out->addr + bytes && out->addr < in->addr + bytes)
        return tx8_why(why, why_size, "op_permute: out [0x%llx, 0x%llx) overlaps in [0x%llx, 0x%llx)",
                       (unsigned long long)out->addr, (unsigned long long)(out->addr + bytes),
                       (unsigned long long)in->addr, (unsigned long long)(in->addr + bytes));
    /* every count and stride of the plan is <= bytes <= spm_bytes */
    permute_plan pl;
    tx8_plan_permute(hw, S, dim, param->perm, eb, &pl);
    if (pl.elem_bytes > UINT32_MAX)
        return tx8_why(why, why_size, "op_permute: a contiguous run of %llu bytes does not fit the TDMA elem_bytes field",
                       (unsigned long long)pl.elem_bytes);
    for (int i = 0; i < pl.nd; ++i)
        if (pl.d[i].count > UINT32_MAX || pl.d[i].src_stride > UINT32_MAX || pl.d[i].dst_stride > UINT32_MAX)
            return tx8_why(why, why_size, "op_permute: a count or stride does not fit a TDMA field");
    return 0;
}

/* ---- op_concat ---- */

int tx8_check_concat(const tx8_hw_config *hw, const CONCAT_PARAM *param, const TSR *const *in, const TSR *out,
                     char *why, size_t why_size) {
    const char *op = "op_concat";
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if (!in || param->count == 0) return tx8_why(why, why_size, "%s: no inputs", op);
    if (!out || !out->shape) return tx8_why(why, why_size, "%s: out or out->shape is NULL", op);
    const int32_t dim = out->shape->dim;
    if (dim < 1 || dim > MAX_SHAPE_DIM)
        return tx8_why(why, why_size, "%s: out->shape->dim = %d, must be 1..%d", op, dim, MAX_SHAPE_DIM);
    if (param->axis >= (uint32_t)dim)
        return tx8_why(why, why_size, "%s: param->axis = %u, out has %d dims", op, param->axis, dim);
    const uint64_t eb = tx8_format_bytes(out->format);
    uint64_t outer = 1, inner = 1, total = 0;
    for (int32_t d = 0; d < dim; ++d) {
        if (out->shape->shape_real[d] < 1)
            return tx8_why(why, why_size, "%s: out->shape->shape_real[%d] = %d", op, d, out->shape->shape_real[d]);
        if ((uint32_t)d < param->axis) outer *= (uint64_t)out->shape->shape_real[d];
        if ((uint32_t)d > param->axis) inner *= (uint64_t)out->shape->shape_real[d];
    }
    const uint64_t out_axis = (uint64_t)out->shape->shape_real[param->axis], out_bytes = tx8_tsr_compact_bytes(out);
    if (tx8_check_range_in_spm(hw, op, "out", out->addr, out_bytes, why, why_size) != 0) return -1;
    /* Every input checked before the first copy. */
    for (uint32_t i = 0; i < param->count; ++i) {
        const TSR *t = in[i];
        if (!t || !t->shape) return tx8_why(why, why_size, "%s: in[%u] or its shape is NULL", op, i);
        if (t->format != out->format)
            return tx8_why(why, why_size, "%s: in[%u]->format = %s, out->format = %s; they must match", op, i,
                           tx8_format_name(t->format), tx8_format_name(out->format));
        if (t->shape->dim != dim)
            return tx8_why(why, why_size, "%s: in[%u]->shape->dim = %d, out's is %d", op, i, t->shape->dim, dim);
        for (int32_t d = 0; d < dim; ++d)
            if ((uint32_t)d != param->axis && t->shape->shape_real[d] != out->shape->shape_real[d])
                return tx8_why(why, why_size, "%s: in[%u]->shape->shape_real[%d] = %d, out's is %d", op, i, d,
                               t->shape->shape_real[d], out->shape->shape_real[d]);
        if (t->shape->shape_real[param->axis] < 1)
            return tx8_why(why, why_size, "%s: in[%u] is empty along the axis", op, i);
        const uint64_t bytes = tx8_tsr_compact_bytes(t);
        char name[16];
        snprintf(name, sizeof name, "in[%u]", i);
        if (tx8_check_range_in_spm(hw, op, name, t->addr, bytes, why, why_size) != 0) return -1;
        if (ranges_overlap(t->addr, bytes, out->addr, out_bytes))
            return tx8_why(why, why_size, "%s: in[%u] overlaps out", op, i);
        total += (uint64_t)t->shape->shape_real[param->axis];
    }
    if (total != out_axis)
        return tx8_why(why, why_size, "%s: the inputs' extents along axis %u sum to %llu, out's is %llu", op,
                       param->axis, (unsigned long long)total, (unsigned long long)out_axis);
    if (out_axis * inner * eb > UINT32_MAX || outer > UINT32_MAX)
        return tx8_why(why, why_size, "%s: a row of %llu bytes does not fit a TDMA field", op,
                       (unsigned long long)(out_axis * inner * eb));
    return 0;
}

/* What the kernel checks share (check_internal.h): reasons, byte counts, SPM ranges, the elementwise formats and
 * images, and the broadcast runs the binary kernels issue. */
#include "check_internal.h"

#include <stdarg.h>
#include <stdio.h>

int tx8_why(char *why, size_t why_size, const char *fmt, ...) {
    if (why && why_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

uint64_t tx8_tsr_compact_bytes(const TSR *t) {
    uint64_t bytes = tx8_format_bytes(t->format);
    for (int32_t d = 0; d < t->shape->dim; ++d)
        if (t->shape->shape_real[d] < 1 || __builtin_mul_overflow(bytes, (uint64_t)t->shape->shape_real[d], &bytes))
            return 0;
    return bytes;
}

int tx8_check_range_in_spm(const tx8_hw_config *hw, const char *op, const char *name, uint64_t addr, uint64_t bytes,
                           char *why, size_t why_size) {
    const uint64_t spm = hw->spm_bytes;
    if (bytes > 0 && addr <= spm && bytes <= spm - addr) return 0;
    return tx8_why(why, why_size, "%s: %s = 0x%llx + %llu bytes is outside SPM", op, name, (unsigned long long)addr,
                   (unsigned long long)bytes);
}

/* "fp32, fp16 or bf16": the names of the formats in `set`, floats first (the order the messages have always had). */
static const char *format_list(uint32_t set, char *buf, size_t size) {
    static const Data_Format kOrder[] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_TF32, Fmt_INT8, Fmt_UINT8, Fmt_INT32};
    enum { ORDERED = sizeof kOrder / sizeof kOrder[0] };
    Data_Format f[ORDERED + Fmt_COUNT];
    int n = 0;
    for (int i = 0; i < ORDERED; ++i)
        if (set & ELTWISE_FMT(kOrder[i])) f[n++] = kOrder[i];
    for (int g = 0; g < Fmt_COUNT && g < 24; ++g) { /* formats the order above does not name */
        int listed = 0;
        for (int i = 0; i < ORDERED; ++i) listed |= kOrder[i] == (Data_Format)g;
        if (!listed && (set & ELTWISE_FMT(g))) f[n++] = (Data_Format)g;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < size; ++i) {
        const int w = snprintf(buf + at, size - at, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                               tx8_format_name(f[i]));
        if (w < 0) break;
        at += (size_t)w;
    }
    return buf;
}

static int in_set(Data_Format f, uint32_t set) { return (unsigned)f < 24u && (set & ELTWISE_FMT(f)) != 0; }

int tx8_check_eltwise_formats(const tx8_hw_config *hw, const char *op, LAYOUT_MODE layout, RND_MODE rnd,
                              const TSR *const *t, const char *const *names, const uint32_t *formats, int count,
                              uint64_t *elems, char *why, size_t why_size) {
    for (int i = 0; i < count; ++i) {
        if (!t[i]) return tx8_why(why, why_size, "%s: %s is NULL", op, names[i]);
        if (!t[i]->shape) return tx8_why(why, why_size, "%s: %s->shape is NULL", op, names[i]);
        const int32_t dim = t[i]->shape->dim;
        if (dim < 2 || dim > 4)
            return tx8_why(why, why_size, "%s: %s->shape->dim = %d, must be 2..4", op, names[i], dim);
        if (!in_set(t[i]->format, formats[i])) {
            char list[128];
            return tx8_why(why, why_size, "%s: %s->format = %s, must be %s", op, names[i],
                           tx8_format_name(t[i]->format), format_list(formats[i], list, sizeof list));
        }
    }
    for (int i = 1; i < count; ++i) {
        const uint32_t same = formats[i] >> 24; /* 1 + the operand to match, or 0 */
        if (same && (int)same <= count && t[i]->format != t[same - 1]->format)
            return tx8_why(why, why_size, "%s: %s->format = %s, %s->format = %s; they must match", op, names[i],
                           tx8_format_name(t[i]->format), names[same - 1], tx8_format_name(t[same - 1]->format));
        if (t[i]->shape->dim != t[0]->shape->dim)
            return tx8_why(why, why_size, "%s: %s->shape->dim = %d, %s->shape->dim = %d; they must match", op,
                           names[i], t[i]->shape->dim, names[0], t[0]->shape->dim);
        for (int32_t d = 0; d < t[0]->shape->dim; ++d)
            if (t[i]->shape->shape_real[d] != t[0]->shape->shape_real[d])
                return tx8_why(why, why_size,
                               "%s: %s->shape->shape_real[%d] = %d, %s->shape->shape_real[%d] = %d; shapes must "
                               "match", op, names[i], d, t[i]->shape->shape_real[d], names[0], d,
                               t[0]->shape->shape_real[d]);
    }
    if ((unsigned)layout >= LAYOUT_COUNT)
        return tx8_why(why, why_size, "%s: param->layout = %d is not a LAYOUT_MODE", op, (int)layout);
    if ((unsigned)rnd >= RND_COUNT) return tx8_why(why, why_size, "%s: param->rnd = %d is not a RND_MODE", op, (int)rnd);
    for (int i = 0; i < count; ++i) {
        if (i > 0 && t[i]->format == t[0]->format) continue; /* same format, same shape: valid as t[0] is */
        tx8_layout l;
        if (tx8_layout_init(&l, layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim,
                            tx8_hw_batch_align_bytes(hw)) != 0)
            return tx8_why(why, why_size,
                           "%s: %s->shape_real is not valid in layout %s (extents must be > 0; Tensor and Cx need "
                           "N == 1)", op, names[i], tx8_layout_name(layout));
        if (i == 0 && elems) *elems = l.total_bytes / l.elem_bytes;
    }
    return 0;
}

int tx8_check_eltwise_images(const tx8_hw_config *hw, const char *op, const TSR *const *t, const char *const *names,
                             const tx8_layout *l, int count, char *why, size_t why_size) {
    for (int i = 0; i < count; ++i)
        if (tx8_check_range_in_spm(hw, op, names[i], t[i]->addr, l[i].total_bytes, why, why_size) != 0) return -1;
    const int o = count - 1;
    for (int i = 0; i < o; ++i) {
        if (!ranges_overlap(t[i]->addr, l[i].total_bytes, t[o]->addr, l[o].total_bytes)) continue;
        if (t[i]->addr == t[o]->addr && l[i].elem_bytes == l[o].elem_bytes) continue; /* in place */
        return tx8_why(why, why_size, "%s: %s overlaps %s; it may only be that very buffer, of the same element size",
                       op, names[o], names[i]);
    }
    return 0;
}

int tx8_plan_broadcast(const TSR *a, const TSR *b, const TSR *out, tx8_bcast_run *runs) {
    const int32_t dim = out->shape->dim;
    const int32_t *o = out->shape->shape_real, *ea = a->shape->shape_real, *eb = b->shape->shape_real;
    /* Row-major strides (elements), then runs from the outermost dim in. */
    uint64_t sa = 1, sb = 1, so = 1, stride_a[4], stride_b[4], stride_o[4];
    for (int32_t d = dim - 1; d >= 0; --d) {
        stride_a[d] = sa, stride_b[d] = sb, stride_o[d] = so;
        sa *= (uint64_t)ea[d], sb *= (uint64_t)eb[d], so *= (uint64_t)o[d];
    }
    int n = 0;
    for (int32_t d = 0; d < dim; ++d) {
        if (o[d] == 1) continue;
        const int fa = ea[d] == o[d], fb = eb[d] == o[d];
        if (n == 0 || runs[n - 1].fa != fa || runs[n - 1].fb != fb) runs[n++] = (tx8_bcast_run){1, 0, 0, 0, fa, fb};
        tx8_bcast_run *r = &runs[n - 1];
        r->size *= (uint64_t)o[d];
        r->sa = fa ? stride_a[d] : 0, r->sb = fb ? stride_b[d] : 0, r->so = stride_o[d];
    }
    return n;
}

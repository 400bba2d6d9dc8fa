/* Address maths of the TX8 memory layouts; see tx8/layout.h for the rules and the seed's worked example. */
#include "tx8/layout.h"

#include <string.h>

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

static uint32_t unit_of(Data_Format fmt) { return tx8_format_bytes(fmt) == 1 ? 128u : 64u; }

uint32_t tx8_layout_align_channels(Data_Format fmt, uint32_t c) {
    uint32_t a = 4;
    while (a < c && a < unit_of(fmt)) a *= 2;
    return c == 0 ? 0 : (c <= a ? a : (uint32_t)round_up(c, unit_of(fmt)));
}

int tx8_layout_init(tx8_layout *l, LAYOUT_MODE mode, Data_Format fmt, const int32_t *shape, int32_t dim,
                    uint32_t batch_align_bytes) {
    memset(l, 0, sizeof(*l));
    if (dim < 2 || dim > 4 || tx8_format_bytes(fmt) == 0 || mode < 0 || mode >= LAYOUT_COUNT) return -1;
    uint64_t hw = 1;
    for (int32_t i = 0; i < dim; ++i)
        if (shape[i] <= 0) return -1;
    for (int32_t i = 1; i < dim - 1; ++i) hw *= (uint64_t)shape[i];
    if (hw > UINT32_MAX) return -1;
    l->mode = mode;
    l->fmt = fmt;
    l->elem_bytes = tx8_format_bytes(fmt);
    l->n = (uint32_t)shape[0];
    l->hw = (uint32_t)hw;
    l->c = (uint32_t)shape[dim - 1];
    if ((mode == LAYOUT_TENSOR || mode == LAYOUT_CX) && l->n != 1) return -1;

    if (mode == LAYOUT_TENSOR || mode == LAYOUT_NTENSOR) {
        l->c0 = l->c0_aligned = l->c;
        l->batch_elems = (uint64_t)l->hw * l->c;
        l->batch_stride_bytes = l->batch_elems * l->elem_bytes;
    } else {
        l->unit = unit_of(fmt);
        l->c_split = l->c > l->unit / 2;
        l->cx = l->c_split ? l->c / l->unit : 0;
        l->c0 = l->c - l->cx * l->unit;
        l->c0_aligned = tx8_layout_align_channels(fmt, l->c0);
        if (l->c0_aligned == l->unit && l->c_split) { /* a full-width C0 is one more Cx block */
            l->cx += 1;
            l->c0 = 0;
            l->c0_aligned = 0;
        }
        l->batch_elems = (uint64_t)l->hw * ((uint64_t)l->cx * l->unit + l->c0_aligned);
        l->batch_stride_bytes = round_up(l->batch_elems * l->elem_bytes, batch_align_bytes);
    }
    l->total_bytes = (uint64_t)l->n * l->batch_stride_bytes;
    return 0;
}

uint64_t tx8_layout_offset(const tx8_layout *l, uint32_t n, uint32_t hw, uint32_t c) {
    uint64_t e;
    if (!l->c_split) {
        e = (uint64_t)hw * l->c0_aligned + c;
    } else {
        uint32_t blk = c / l->unit;
        if (blk < l->cx)
            e = ((uint64_t)blk * l->hw + hw) * l->unit + c % l->unit;
        else
            e = (uint64_t)l->cx * l->hw * l->unit + (uint64_t)hw * l->c0_aligned + (c - l->cx * l->unit);
    }
    return (uint64_t)n * l->batch_stride_bytes + e * l->elem_bytes;
}

void tx8_layout_pack(const tx8_layout *l, const void *compact, void *image) {
    const uint8_t *src = (const uint8_t *)compact;
    uint8_t *dst = (uint8_t *)image;
    memset(dst, 0, (size_t)l->total_bytes);
    for (uint32_t n = 0; n < l->n; ++n)
        for (uint32_t hw = 0; hw < l->hw; ++hw)
            for (uint32_t c = 0; c < l->c; ++c, src += l->elem_bytes)
                memcpy(dst + tx8_layout_offset(l, n, hw, c), src, l->elem_bytes);
}

void tx8_layout_unpack(const tx8_layout *l, const void *image, void *compact) {
    const uint8_t *src = (const uint8_t *)image;
    uint8_t *dst = (uint8_t *)compact;
    for (uint32_t n = 0; n < l->n; ++n)
        for (uint32_t hw = 0; hw < l->hw; ++hw)
            for (uint32_t c = 0; c < l->c; ++c, dst += l->elem_bytes)
                memcpy(dst, src + tx8_layout_offset(l, n, hw, c), l->elem_bytes);
}

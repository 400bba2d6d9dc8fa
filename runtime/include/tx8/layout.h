/*
 * Address maths of the TX8 memory layouts (seed §Tensor Layout).
 *
 * A tensor of dim 2..4 is viewed as [N][HW][C]: N = shape[0], C = shape[dim-1], HW = product of the dims between.
 *   Tensor / NTensor  compact NHWC; batch stride = HW*C elements. Tensor requires N == 1.
 *   Cx / NCx          fp16/bf16/fp32/tf32 (unit U = 64, C0 alignments {4,8,16,32}); int8 (U = 128, {4,…,64}):
 *                       C <= U/2: NHWC with C rounded up to the next alignment  ->  [HW][Ca]
 *                       C >  U/2: C = Cx*U + C0  ->  [Cx][HW][U] then [HW][C0a], C0a = C0 rounded up to the next
 *                                 alignment (a C0a of U is simply one more Cx block; C0 == 0 means no C0 part)
 *                     each batch starts on a batch_align_bits (2048-bit) boundary. Cx requires N == 1.
 *
 * Worked example (seed): fp16 2x1x2x131 in NCx: 131 = 2*64 + 3 -> Cx = 2, C0a = 4; one batch is
 * 2*2*64 + 2*4 = 264 elements = 528 bytes, so batch 0 ends at byte 0x210 and batch 1 starts at byte 0x300.
 * The seed writes these as 0x1080 and 0x1800: its addresses there count bits (528*8, 768*8).
 */
#ifndef TX8_LAYOUT_H
#define TX8_LAYOUT_H

#include <stdint.h>

#include "tx8/dtype.h"
#include "tx8/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tx8_layout {
    LAYOUT_MODE mode;
    Data_Format fmt;
    uint32_t elem_bytes;
    uint32_t n, hw, c;            /* logical [N][HW][C] */
    uint32_t unit;                /* Cx block width in elements: 64, or 128 for int8 (0 for compact layouts) */
    uint32_t cx;                  /* full unit blocks (channel-split form), else 0 */
    uint32_t c0;                  /* channels after the Cx blocks (channel-split form) or C (NHWC forms) */
    uint32_t c0_aligned;          /* c0 rounded up to the layout's alignment (== c0 for compact layouts) */
    uint32_t c_split;             /* 1: the [Cx][HW][U] + [HW][C0a] form; 0: NHWC form */
    uint64_t batch_elems;         /* elements in one batch including channel padding */
    uint64_t batch_stride_bytes;  /* bytes from one batch's start to the next's */
    uint64_t total_bytes;         /* n * batch_stride_bytes */
} tx8_layout;

/* Describes `shape` (dim 2..4) in `mode`. batch_align_bytes is tx8_hw_batch_align_bytes() (256 by default).
 * Returns 0, or -1 for a bad dim, a non-positive extent, N != 1 with Tensor/Cx, or an unsupported format. */
int tx8_layout_init(tx8_layout *l, LAYOUT_MODE mode, Data_Format fmt, const int32_t *shape, int32_t dim,
                    uint32_t batch_align_bytes);

/* Byte offset of logical element (n, hw, c) from the tensor's base address. */
uint64_t tx8_layout_offset(const tx8_layout *l, uint32_t n, uint32_t hw, uint32_t c);

/* Channel alignment used by Cx/NCx for `c` channels: the next of {4,8,16,32[,64]}, or the unit when larger. */
uint32_t tx8_layout_align_channels(Data_Format fmt, uint32_t c);

/* Copies between a compact NHWC array (host memory, elements of l->fmt) and the layout's image (l->total_bytes).
 * pack zero-fills the padding, so the image is deterministic. */
void tx8_layout_pack(const tx8_layout *l, const void *compact, void *image);
void tx8_layout_unpack(const tx8_layout *l, const void *image, void *compact);

#ifdef __cplusplus
}
#endif

#endif /* TX8_LAYOUT_H */

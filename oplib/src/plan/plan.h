/*
 * OpLib's planning (library tx8_oplib_plan, internal header): pure functions that turn an op's shapes, formats and
 * the hardware config into scratch sizes, offsets and instruction tilings. They call no HAL function and touch no
 * chip state, so the compiler links this library alone (through the *_imm_size functions of tx8/ops.h), and the
 * ops, which run on the chip, call the same functions with tx8_hal_config().
 *
 * Every function takes the hardware config first. Sizes, offsets and strides are in bytes, counts in elements.
 * A function that can fail returns 0 or -1 and reports nothing: the op decides what to report.
 */
#ifndef TX8_OPLIB_PLAN_H
#define TX8_OPLIB_PLAN_H

#include <stdint.h>

#include "tx8/hw_config.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tensor.h"

/* ---- op_softmax (softmax_plan.c): in viewed as [R][L] (L = last dim); imm holds, each part starting on a
 * batch-align boundary (tx8_hw_batch_align_bytes):
 *   work   fp32 [R][L]   fp16/bf16 only (fp32 works in out)
 *   bcast  fp32 [R][L]   R > 1 only (the row values broadcast by TDMA)
 *   row    fp32 [R]      the per-row max, then sum, then reciprocal ---- */
typedef struct sm_plan {
    uint32_t rows, len; /* R, L (elements) */
    uint64_t work_off;  /* imm offsets: fp32 work tensor (fp16/bf16 only) */
    uint64_t bcast_off; /* fp32 broadcast rows (R > 1 only) */
    uint64_t row_off;   /* fp32 per-row values */
    uint64_t imm_bytes; /* row_off + the row part */
} sm_plan;

/* The [R][L] view and the imm plan of in's shape and format; -1 for a shape outside dim 2..4 / extents >= 1 or
 * more than 2^30 elements (instruction counts and TDMA strides are 32-bit byte counts). */
int tx8_plan_softmax(const tx8_hw_config *hw, const TSR *in, sm_plan *pl);

/* ---- op_quantize_linear / op_dequantize_linear (quantize_plan.c): imm holds, each part starting on a batch-align
 * boundary:
 *   work  fp32 / int32 [x's elements]      quantize only: x / scale, then its integers, then + zero point
 *   zp    int32 / fp32 [scale's elements]  the zero point converted ---- */
typedef struct quant_plan {
    uint64_t x_elems, scale_elems;
    uint64_t work_off, zp_off; /* imm offsets */
    uint64_t imm_bytes;
} quant_plan;

/* The imm plan for x's and scale's shapes (dequantize != 0: no work image); -1 for shapes outside dim 2..4 /
 * extents >= 1 or of 2^30 elements or more. */
int tx8_plan_quantize(const tx8_hw_config *hw, int dequantize, const TSR *x, const TSR *scale, quant_plan *pl);

/* ---- op_layernorm (layernorm_plan.c): in viewed as [R][n] (n = last dim); imm holds, each part starting on a
 * batch-align boundary:
 *   work   fp32 [R][n]   fp16/bf16 only (fp32 works in out)
 *   sq     fp32 [R][n]   the squares, and the row values broadcast by TDMA (R > 1)
 *   row    fp32 [R]      the per-row mean, then variance, then 1 / sqrt(variance + epsilon)
 *   coef   fp32 [2][n]   fp16/bf16 only: scale, then bias, converted ---- */
typedef struct ln_plan {
    uint32_t rows, len; /* R, n (elements) */
    uint64_t work_off, sq_off, row_off, coef_off; /* imm offsets */
    uint64_t imm_bytes;
} ln_plan;

/* The [R][n] view and the imm plan of in's shape and format; -1 for a shape outside dim 2..4 / extents >= 1 or
 * more than 2^30 elements. */
int tx8_plan_layernorm(const tx8_hw_config *hw, const TSR *in, ln_plan *pl);
/* ---- op_attention (attention_plan.c): blocks of Bq query rows and Bk keys; imm holds, each part starting on a
 * batch-align boundary (fmt = q's format, eb its bytes; nkb = ceil(Skv / Bk) key blocks):
 *   kt     fmt  [nkb][D][Bk]  k^T of one k matrix, block b [D][bk_b] compact (bk_b = Bk but the last)
 *   kt32   fp32 [D][Bk]       the NE's transposed block before its conversion (fp16/bf16 only)
 *   ident  fmt  [Bk][Bk]      the identity the NE transposes with
 *   s      fp32 [Bq][Bk]      one score block
 *   p      fmt  [Bq][Bk]      P rounded to fmt for the NE (fp16/bf16 only)
 *   mraw   mask [Bq][Bk]      the mask block gathered by TDMA; mask32 fp32 [Bq][Bk] (fp16/bf16 masks only)
 *   bcast  fp32 [Bq][max(Bk, Dv)]  row values broadcast by TDMA
 *   rows   fp32 5 x [Bq]      m, the block max / new max, exp(m - m'), row sums, l (one aligned part each)
 *   acc    fp32 [Bq][Dv]      O, unless out is fp32 (O accumulates in out)
 *   causal only: tab fp32 [Bq][Bk] and tab_tail [Bq][Skv % Bk] (j - i), ninf fp32 [Bq][Bk] (-inf), mk int8
 *   [Bq][Bk] (the masked positions of a block), iota fp32 [max(Bq, Bk)] ---- */
typedef struct attn_plan {
    uint32_t sq, skv, d, dv; /* one matrix's extents (elements) */
    uint32_t bq, bk, nkb;    /* block sizes (elements), key blocks */
    uint32_t batch_dims;     /* leading dims (dim count - 2) */
    uint64_t batches;        /* matrices of out */
    uint64_t kt_off, kt32_off, ident_off, s_off, p_off, mraw_off, mask32_off, bcast_off, rows_off[5], acc_off;
    uint64_t tab_off, tab_tail_off, ninf_off, mk_off, iota_off;
    uint64_t imm_bytes;
} attn_plan;

/* The plan for these operands (shapes and formats; mask may be NULL). -1 for a dim count outside 2..MAX_SHAPE_DIM,
 * an extent < 1 or a shape too large for 32-bit instruction counts; nothing else is checked here. */
int tx8_plan_attention(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                       const TSR *v, const TSR *mask, const TSR *out, attn_plan *pl);

/* ---- op_batchnorm_inference (batchnorm_plan.c): imm holds, each part rounded up to the batch alignment:
 *   work   the fp32 image of in's shape in param->layout       fp16/bf16 only (fp32 works in out)
 *   stage  half of it: in's own format at half the fp32 batch stride, so one convert makes the fp32 image
 *                                                               fp16/bf16 only
 *   rstd   fp32 [c_lanes]: rsqrt(var + epsilon) over the layout's aligned channel count ---- */
typedef struct bn_plan {
    tx8_layout io;      /* in/out in their own format */
    tx8_layout work;    /* the same shape in fp32 */
    uint32_t c_lanes;   /* channel lanes a per-channel vector spans (aligned C) */
    uint64_t stage_off; /* imm offsets; the fp32 work tensor is at 0 */
    uint64_t rstd_off;
    uint64_t imm_bytes;
} bn_plan;

/* The layouts and the imm plan of in's local shape (shape_real) in param->layout; -1 when the shape is not valid
 * in that layout (tx8_layout_init). */
int tx8_plan_batchnorm(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in, bn_plan *pl);

/* ---- op_batchnorm_inference_folded (batchnorm_folded_plan.c): tx8_plan_batchnorm's layouts; imm holds, each part
 * rounded up to the batch alignment, the fp32 per-channel vectors a = scale * rsqrt(var + epsilon) and
 * b = shift - mean * a over c_lanes lanes ---- */
typedef struct bn_fold_plan {
    tx8_layout io;      /* in/out in their own format (the data pass runs on them directly) */
    uint32_t c_lanes;   /* channel lanes a per-channel vector spans (aligned C) */
    uint64_t a_off;     /* imm offsets of a and b */
    uint64_t b_off;
    uint64_t imm_bytes;
} bn_fold_plan;

/* The layout and the imm plan of in's local shape in param->layout; -1 as tx8_plan_batchnorm. */
int tx8_plan_batchnorm_folded(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in,
                              bn_fold_plan *pl);

/* ---- op_conv (conv_plan.c): the NE tiling; the loops and their order are in conv.c's file comment ---- */
typedef struct conv_dims {
    uint32_t n, h, w, c; /* in */
    uint32_t kh, kw, o;  /* weight */
    uint32_t oh, ow;     /* out */
    uint32_t cg, og;     /* channels per group */
    Data_Format in_fmt, out_fmt;
} conv_dims;

/* Step sizes of every loop of the tiling. */
typedef struct conv_steps {
    uint32_t kh, kw, c; /* K: kernel rows, kernel columns, channels per instruction */
    uint32_t n, y, x;   /* M: images, output rows, output columns */
    uint32_t g, oc;     /* N: groups, output channels of a group */
} conv_steps;

/* The steps that keep every instruction within TSM_NE_CONV_MAX_M/_N/_K (tx8/ne.h) for the checked dims d
 * (extents >= 1) and `groups` groups. hw is not read: the limits are the instruction's fields, not the config. */
void tx8_plan_conv(const tx8_hw_config *hw, const conv_dims *d, uint32_t groups, conv_steps *s);

/* ---- op_loadVar / op_loadConst / op_dma_store / op_store_var_ncx (lsu_slice_plan.c): a slice as DMA "boxes",
 * each a contiguous run plus up to 8 outer dims (count, DDR stride, SPM stride; outermost first), simplified:
 * dims of count 1 dropped, an innermost dim contiguous on both sides folded into the run, neighbours that are
 * contiguous on both sides merged. The rules per layout are in lsu_slice.c's file comment. ---- */
#define LSU_MAX_BOX_DIMS 8

typedef struct lsu_box_dim {
    uint64_t count, ddr_stride, spm_stride;
} lsu_box_dim;

typedef struct lsu_box {
    uint64_t ddr, spm, run; /* addresses of the first run, run length */
    int nd;
    lsu_box_dim d[LSU_MAX_BOX_DIMS];
} lsu_box;

typedef struct lsu_slice_plan {
    int nbox;           /* 1 (compact, or Cx/NCx without C split), else 2 (the Cx blocks, then the C0 part) */
    lsu_box box[2];
    uint64_t ddr_bytes; /* extent of the whole DDR tensor from ddr->addr */
    uint64_t spm_bytes; /* extent of the SPM slice from spm_addr */
} lsu_slice_plan;

/* Plans the move of the slice [start[i], start[i] + real[i]) of the DDR tensor `ddr` (format, address,
 * shape_whole, dim) to or from the SPM buffer at spm_addr holding it as a tensor of shape `real`, both in
 * `layout`. The caller has checked dim (1..6 compact, 2..4 Cx/NCx), a valid format, a slice inside shape_whole,
 * and for Cx/NCx a slice that keeps the whole C. -1 when a shape is not valid in a Cx/NCx layout (Cx: N != 1). */
int tx8_plan_lsu_slice(const tx8_hw_config *hw, LAYOUT_MODE layout, const TSR *ddr, uint64_t spm_addr,
                       const int32_t *start, const int32_t *real, lsu_slice_plan *pl);
/* The simplification above on one box (op_noc_copy builds its own boxes, both sides strided): dims of count 1
 * dropped, an innermost dim contiguous on both sides folded into the run, neighbours contiguous on both sides
 * merged. */
void tx8_plan_lsu_box_simplify(lsu_box *b);

/* ---- op_reshape (reshape_plan.c): at most two TDMA boxes [n][block][hw][c] (see reshape.c) ---- */
typedef struct reshape_seg {
    uint64_t src_off, dst_off;   /* from in->addr / out->addr */
    uint32_t shape[4];           /* counts, innermost first: channel, hw, block, batch */
    uint64_t src_stride[4];      /* strides of those dims; the TDMA takes them only when they fit 32 bits */
    uint64_t dst_stride[4];
} reshape_seg;

typedef struct reshape_plan {
    tx8_layout in, out; /* in's shape in param->in_layout / param->out_layout */
    int nseg;           /* boxes to issue, in order */
    reshape_seg seg[2];
} reshape_plan;

/* The layouts and boxes converting a tensor of `shape` (dim 2..4, format fmt) from param->in_layout to
 * param->out_layout; -1 when the shape is not valid in in_layout, -2 when not in out_layout. */
int tx8_plan_reshape(const tx8_hw_config *hw, const RESHAPE_PARAM *param, Data_Format fmt, const int32_t *shape,
                     int32_t dim, reshape_plan *pl);

/* ---- op_permute (permute_plan.c): the copy as TDMA box dims (see permute.c) ---- */
typedef struct permute_dim {
    uint64_t count, src_stride, dst_stride;
} permute_dim;

typedef struct permute_plan {
    int nd;                          /* dims left after dropping, merging and folding; innermost first */
    permute_dim d[MAX_SHAPE_DIM];
    int in_instr[MAX_SHAPE_DIM];     /* 1: the dim goes into each instruction (at most 4), 0: looped over */
    uint64_t elem_bytes;             /* the TDMA element: the contiguous innermost run */
} permute_plan;

/* Plans out = in permuted by perm for a compact tensor of `shape` (dim 1..6, extents >= 1, perm a permutation
 * of 0..dim-1, all checked by the caller) of elem_bytes-byte elements whose byte size fits 64 bits. Counts and
 * strides are at most that byte size. hw is not read. */
void tx8_plan_permute(const tx8_hw_config *hw, const int32_t *shape, int32_t dim, const int32_t *perm,
                      uint32_t elem_bytes, permute_plan *pl);

#endif /* TX8_OPLIB_PLAN_H */

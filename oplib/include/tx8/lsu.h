/*
 * LSU (RDMA DDR->SPM, WDMA SPM->DDR, TDMA SPM->SPM) instruction wrappers and the LSU ops (seed names:
 * op_loadVar, op_loadConst, op_dma_store, op_store_var_ncx, op_reshape, op_gatherScatter), op_permute, op_concat,
 * op_slice and op_pad; the DTE (NoC tile-to-tile copy) wrapper and op_noc_copy.
 *
 * Wrappers only fill *p; issue with TsmExecute(p). Ops issue instructions and return the summed cycles, or
 * TX8_CYCLES_INVALID after tx8_hal_fault("<op>: <argument> …"). An op checks everything it can (shapes, layouts,
 * whole address ranges) before its first instruction, so a rejected op leaves memory untouched.
 */
#ifndef TX8_LSU_H
#define TX8_LSU_H

#include <stdint.h>

#include "tx8/hal.h" /* tx8_token */
#include "tx8/isa.h"
#include "tx8/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- wrappers ---- */

/* RDMA / WDMA box (both take the DDR address first, then the SPM address; the name gives the direction):
 * count2 x count1 runs of run_bytes contiguous bytes; run (i1, i2) is at ddr_addr + i1*ddr_stride1 +
 * i2*ddr_stride2 and spm_addr + i1*spm_stride1 + i2*spm_stride2 (strides in bytes; counts 1 for unused dims). */
void LSU_RDMA_box(DMA_Param *p, uint64_t ddr_addr, uint64_t spm_addr, uint32_t run_bytes, uint32_t count1,
                  uint64_t ddr_stride1, uint32_t spm_stride1, uint32_t count2, uint64_t ddr_stride2,
                  uint32_t spm_stride2);
void LSU_WDMA_box(DMA_Param *p, uint64_t ddr_addr, uint64_t spm_addr, uint32_t run_bytes, uint32_t count1,
                  uint64_t ddr_stride1, uint32_t spm_stride1, uint32_t count2, uint64_t ddr_stride2,
                  uint32_t spm_stride2);

/* TDMA 4D box: shape[4] elements of elem_bytes bytes ([0] innermost, unused dims 1), strides in bytes. */
void LSU_TDMA_box(TD_Param *p, TD_OPCODE opcode, uint64_t src_spm, uint64_t dst_spm, uint32_t elem_bytes,
                  const uint32_t shape[4], const uint32_t src_stride[4], const uint32_t dst_stride[4]);

/* DTE box (tx8/isa.h): count2 x count1 runs of run_bytes from src_addr (the issuing tile's SPM, or DDR when
 * src_mem is DTE_SRC_DDR) to dst_addr on every tile of the mesh rectangle [dst_x0, dst_x1] x [dst_y0, dst_y1]
 * (inclusive; one tile: a unicast). Run (i1, i2) is at src_addr + i1*src_stride1 + i2*src_stride2 and at
 * dst_addr + i1*dst_stride1 + i2*dst_stride2 (bytes; counts 1 for unused dims). */
void TsmDte_copy(DTE_Param *p, DTE_SRC_MEM src_mem, uint64_t src_addr, uint64_t dst_addr, uint32_t run_bytes,
                 uint32_t count1, uint64_t src_stride1, uint32_t dst_stride1, uint32_t count2, uint64_t src_stride2,
                 uint32_t dst_stride2, uint32_t dst_x0, uint32_t dst_y0, uint32_t dst_x1, uint32_t dst_y1);

/* ---- ops ---- */

/* Copies block_num blocks of block_bytes within SPM: block i from src_spm + i*src_stride_bytes to
 * dst_spm + i*dst_stride_bytes. One TDMA instruction. The src and dst extents may not overlap. */
uint64_t op_gatherScatter(uint64_t src_spm, uint64_t dst_spm, uint32_t block_bytes, uint32_t block_num,
                          uint32_t src_stride_bytes, uint32_t dst_stride_bytes);

/* Converts an SPM tensor between layouts (in and out: same format, same dim 2..4 and shape_real; the address maths
 * of tx8/layout.h on both sides). At most two TDMA instructions: the full 64/128-channel blocks, then the rest.
 * Only element positions are written: channel padding and the batch-alignment tail of a Cx/NCx output keep their
 * previous bytes (zero the buffer first if a consumer reads padding). in and out may not overlap. */
typedef struct RESHAPE_PARAM {
    LAYOUT_MODE in_layout;
    LAYOUT_MODE out_layout;
} RESHAPE_PARAM;
uint64_t op_reshape(RESHAPE_PARAM *param, TSR *in, TSR *out);

/* Reorders the dims of a compact (row-major, Tensor/NTensor) SPM tensor on the TDMA: out = in with its dims
 * reordered, both in SPM, same format (any element size: int8/fp16/bf16/fp32/int32). in has shape_real S
 * (dim 1..6); out has dim equal and shape_real S[perm[0]], ..., S[perm[dim-1]], i.e. out[i0,...] = in[j...] with
 * j[perm[k]] = i_k (NHWC -> NCHW: perm {0, 3, 1, 2}; NCHW -> NHWC: {0, 2, 3, 1}). in and out may not overlap.
 * Issued as TDMA 4-D box copies: dims of extent 1 dropped, adjacent dims that stay adjacent merged, a contiguous
 * innermost run copied as one TDMA element, so NHWC <-> NCHW (and any 2-D transpose) is one instruction; more
 * than 4 remaining dims loop over the ones with the smallest extents. Returns the summed TDMA cycles. */
typedef struct PERMUTE_PARAM {
    int32_t perm[MAX_SHAPE_DIM]; /* a permutation of 0..dim-1 (entries from dim on are ignored) */
} PERMUTE_PARAM;
uint64_t op_permute(PERMUTE_PARAM *param, TSR *in, TSR *out);

/* Concatenates count compact (row-major) SPM tensors along dim `axis` into out (same format, same dim 1..6; every
 * extent but axis's equal to out's, axis's summing to out's). Viewed as [outer][C_i * inner] blocks, input i goes
 * to out at element offset (C_0 + ... + C_{i-1}) * inner with out's row stride: one TDMA gather/scatter per
 * input. Inputs may not overlap out. */
typedef struct CONCAT_PARAM {
    uint32_t axis;  /* 0..dim-1, in the TSRs' dim order */
    uint32_t count; /* inputs, >= 1 */
} CONCAT_PARAM;
uint64_t op_concat(CONCAT_PARAM *param, TSR *const *in, TSR *out);

/* Strided slice of a compact (row-major) SPM tensor on the TDMA: out[i_0, ..., i_{dim-1}] =
 * in[start_0 + i_0*step_0, ...]. in and out: same format (any element size), same dim 1..6; every index read is
 * inside in (checked: start in [0, S_k) and start + (O_k - 1)*step inside [0, S_k)); steps may be negative (a
 * reversed dim) or 0 (element start_k repeated O_k times: a broadcast). in and out may not overlap. Dims of extent 1 are dropped, dims contiguous on both
 * sides merged and a contiguous innermost run copied as one TDMA element, so a window with steps 1 is one
 * instruction; a dim with a negative step costs one instruction per output index along it (TDMA strides are
 * unsigned). Returns the summed TDMA cycles. ---- */
typedef struct SLICE_PARAM {
    int32_t start[MAX_SHAPE_DIM]; /* first input index per dim (elements) */
    int32_t step[MAX_SHAPE_DIM];  /* input index increment per output index (0: repeat start) */
} SLICE_PARAM;
uint64_t op_slice(SLICE_PARAM *param, TSR *in, TSR *out);

/* Pads a compact SPM tensor: out has extent S_k + begin_k + end_k per dim (begin/end >= 0); the interior is in,
 * the pads are param->value (PAD_CONSTANT), the nearest edge element (PAD_EDGE), or the mirror image without the
 * edge (PAD_REFLECT, needs begin_k, end_k <= S_k - 1). Same format, same dim 1..6; in and out may not overlap.
 * PAD_CONSTANT takes fp32, fp16 or bf16 only (an int format faults): the CT fills all of out in place with two V_S
 * passes (out != NaN gives 1, then 1 * value: value rounded to the format, -0, inf and NaN included, NaN as the
 * format's canonical NaN), so no SPM buffer holding the value is needed; then the TDMA copies in into the
 * interior. PAD_EDGE / PAD_REFLECT copy every output element straight from in: one TDMA box per combination of
 * {begin pad, interior, end pad} along the dims (pad.c), reflected dims looped over. Everything is checked before
 * the first instruction. Returns the summed CT and TDMA cycles. ---- */
typedef enum PAD_MODE { PAD_CONSTANT = 0, PAD_REFLECT = 1, PAD_EDGE = 2 } PAD_MODE;
typedef struct PAD_PARAM {
    uint32_t mode;                /* PAD_MODE */
    int32_t begin[MAX_SHAPE_DIM]; /* elements before, per dim */
    int32_t end[MAX_SHAPE_DIM];   /* elements after, per dim */
    float value;                  /* PAD_CONSTANT: the pad value (rounded to the tensors' format); else ignored */
} PAD_PARAM;
uint64_t op_pad(PAD_PARAM *param, TSR *in, TSR *out);

/* Copies a tensor slice from the issuing tile's SPM or from DDR (param->src_ddr) into the SPM of every tile of a
 * mesh rectangle over the NoC, with DTE instructions (unicast: a 1x1 rectangle; the issuing tile may be inside it
 * and then receives a copy too, which may not overlap its SPM source). Both sides are in param->layout, with the
 * same format.
 *   src: the whole tensor at src->addr (shape_whole); the slice [shape_start, shape_start + shape_real) moves, as
 *        op_loadVar's DDR side (Cx / NCx: C whole).
 *   dst: SPM address dst->addr on each destination tile. Tensor / NTensor: dst->shape NULL (a compact buffer of
 *        src's shape_real) or a view like src's, its shape_real equal to src's (a slice of a larger SPM tensor);
 *        Cx / NCx: the buffer holding the slice in the layout (as op_loadVar's SPM side; dst->shape, if given,
 *        has src's dim and shape_real).
 * Dims contiguous on both sides are merged, so a slice with one strided dim is one DTE box; more dims loop.
 * Everything (format, shapes, rectangle, whole address ranges on both sides) is checked before the first
 * instruction. Returns the summed DTE cycles. The destination tiles may read the data once this tile has
 * finished the op and a barrier followed (tx8_hal_barrier). */
typedef struct NOC_COPY_PARAM {
    LAYOUT_MODE layout; /* of src and dst */
    uint32_t src_ddr;   /* 0: src is in the issuing tile's SPM, 1: src is in DDR */
    uint32_t dst_x0, dst_y0, dst_x1, dst_y1; /* destination tiles: mesh columns x0..x1, rows y0..y1 (inclusive) */
} NOC_COPY_PARAM;
uint64_t op_noc_copy(NOC_COPY_PARAM *param, TSR *src, TSR *dst);
/* The same copy queued on the issuing tile's DTE after deps (tx8_hal_issue): returns the token of its last DTE
 * instruction (the DTE runs them in order), 0 after a fault. The destination tiles may read the data once this
 * tile has waited for the token and a barrier followed. */
tx8_token op_noc_copy_async(NOC_COPY_PARAM *param, TSR *src, TSR *dst, const tx8_token *deps, uint32_t ndeps);

/* Loads and stores between a DDR tensor stored whole and an SPM buffer holding one slice of it, both in the same
 * layout. The slice comes from the DDR TSR's L_SHAPE: shape_whole (the DDR tensor), shape_start and shape_real
 * (the slice, which the SPM buffer holds as a tensor of shape shape_real). If the SPM TSR has a shape, its dim and
 * shape_real must match. Formats must be equal.
 *   Tensor / NTensor (compact row-major, dim 1..6): any slice.
 *   Cx / NCx (dim 2..4): slices of N and the spatial dims; C must be whole (start 0, real = whole). Rows are copied
 *     with their channel padding; each batch of the SPM buffer starts on the layout's batch alignment.
 * Contiguous dims are merged, so most slices take one RDMA/WDMA box (Cx/NCx with C > unit/2 and a C0 part: two). */
typedef struct LOAD_PARAM {
    LAYOUT_MODE layout; /* layout of both the DDR tensor and the SPM slice */
} LOAD_PARAM;
typedef struct STORE_PARAM {
    LAYOUT_MODE layout;
} STORE_PARAM;

uint64_t op_loadVar(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst);
/* Whole tensor (shape_whole; start and real are ignored): weights and other constants. */
uint64_t op_loadConst(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst);
uint64_t op_dma_store(STORE_PARAM *param, TSR *spm_src, TSR *ddr_dst);
/* op_dma_store in NCx whatever param->layout says (param may be NULL). */
uint64_t op_store_var_ncx(STORE_PARAM *param, TSR *spm_src, TSR *ddr_dst);

/* Asynchronous forms (tx8/hal.h, "asynchronous issue"): the same checks and DMA boxes, but each box is queued on
 * the RDMA (load) / WDMA (store) engine to start after every token in deps (ndeps <= 8, deps may be NULL when
 * ndeps is 0) instead of executed. They return at once with the token of the move's last box: one engine runs
 * its instructions in issue order, so that token completes after every box of the move. 0 after a fault (a
 * rejected move issues nothing). The caller owns the hazards: wait for (or depend on) a load's token before
 * reading its SPM buffer, a store's before overwriting its SPM source, and give a load into a buffer that earlier
 * instructions still read or write their tokens as deps. */
tx8_token op_loadVar_async(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst, const tx8_token *deps, uint32_t ndeps);
tx8_token op_loadConst_async(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst, const tx8_token *deps, uint32_t ndeps);
tx8_token op_dma_store_async(STORE_PARAM *param, TSR *spm_src, TSR *ddr_dst, const tx8_token *deps, uint32_t ndeps);

#ifdef __cplusplus
}
#endif

#endif /* TX8_LSU_H */

/*
 * TX8 neural-core instruction set: the engine parameter structs that OpLib wrappers fill and that the HAL
 * executes (seed §"BatchNorm Design": CT_Param / TsmNeInstr / DMA_Param / TD_Param tagged by OP_INSTR_TYPE; ours:
 * DTE_Param for the NoC).
 *
 * Conventions for every instruction:
 *   - SPM addresses are byte offsets into the issuing tile's SPM, [0, spm_bytes).
 *   - DDR addresses are byte offsets into the chip's DDR, [0, ddr_bytes).
 *   - Element counts are elements of the stated Data_Format; strides say whether they are bytes or elements.
 *   - An instruction starts with `inter_type` (an OP_INSTR_TYPE), so one execute call can take any of them.
 *   - Executing one returns the cycles it took (formulas: cmodel/include/tx8/cm_cycles.h) or reports an error
 *     naming the instruction and the offending field; an ill-formed instruction never touches memory.
 */
#ifndef TX8_ISA_H
#define TX8_ISA_H

#include <stdint.h>

#include "tx8/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum OP_INSTR_TYPE {
    I_CGRA,   /* CT: CGRA tensor engine */
    I_NEUR,   /* NE: neural engine (GEMM, convolution) */
    I_RDMA,   /* LSU: DDR -> SPM */
    I_WDMA,   /* LSU: SPM -> DDR */
    I_TDMA,   /* LSU: SPM -> SPM (reshape, gatherScatter) */
    I_SCALAR, /* scalar unit (not modelled yet) */
    I_DTE,    /* special core NoC engine: tile-to-tile copies over the mesh (DTE_Param) */
    I_CSR,    /* control registers (not modelled yet) */
} OP_INSTR_TYPE;

/* ------------------------------------------------------------------------------------------------------------
 * CT (I_CGRA). Wrapper names: CGRATensor_<Function>_<Format>_<name> (seed).
 *
 * Numerics: every element is read as an exact double, the operation is done in double, and the result is rounded
 * once to dst_fmt with `rnd`. For + - * / sqrt the result is the correctly rounded one in dst_fmt in every mode
 * (an inexact double sum under a directed mode is corrected with its exact TwoSum error). Transcendentals use the
 * cmodel's own portable routines, so every backend gives the same bits.
 * Overlap: dst may be exactly a source read element by element (same address, same element size: in-place);
 * any other overlap between dst and a source is rejected.
 * Booleans: CMP writes 1 or 0 per element, in src_fmt or as int8 (dst_fmt = Fmt_INT8 from any src_fmt: numpy's
 * bool bytes); every comparison with a NaN operand is false except NE. SELECT reads its mask (src0) in src_fmt
 * and copies the chosen element of src1 / src2 bit for bit in dst_fmt, so an int8 mask can pick fp32 data.
 * Integers: int8 / uint8 / int32 operands of ARITH (add sub mul div max min pow mod fmod) and of UNARY abs neg relu give the
 * exact integer result, stored saturating to dst_fmt (rnd plays no part: nothing is inexact). A sum or difference
 * is exact in double; a product beyond 2^53 is far beyond int32 and saturates exactly as the exact product would;
 * div truncates toward zero (C), x / 0 = 0, INT32_MIN / -1 (int8: -128 / -1) saturates; pow is the exact integer
 * power, saturating, pow(x, 0) = 1 (0^0 too), a negative exponent gives the real result truncated toward zero (1
 * for x = 1, +-1 for x = -1, 0 otherwise, 0^negative = 0); abs / neg of the minimum saturate (|-128| = 127). A
 * V_S scalar is an int32 for every integer format (an int8 op may take a scalar outside int8). uint8 (Fmt_UINT8) is
 * an integer format like int8 with the range 0..255 (results saturate to it: 3 - 5 = 0); the NE does not take it.
 * MOD / FMOD (ARITH, every format but int64, in every ARITH form): the remainder of src0 / src1. FMOD is C's fmod,
 * x - trunc(x / y) * y, with the dividend's sign (ONNX Mod fmod = 1): always exact. MOD is Python's and numpy's %,
 * x - floor(x / y) * y, with the divisor's sign (ONNX Mod fmod = 0): fmod(x, y), plus y where that is non-zero and
 * of the other sign; for floats that sum is rounded once with rnd (correctly, as add: it can need more bits than
 * the format has: (1 + 2^-23) mod -4 in fp32, which numpy rounds alike), a zero result is the zero of y's
 * sign. Floats: a NaN operand, an infinite x or y = 0 give NaN; an infinite y gives FMOD x, and MOD x when x and y
 * have the same sign, y (+-inf) when they differ, a zero x the zero of y's sign. Integers: exact, y = 0 gives 0.
 * int64 (Fmt_INT64) is a storage format: only CONVERT (as src_fmt or dst_fmt) and SELECT (as dst_fmt: the data,
 * copied bit for bit; not its mask) take it. Any other CT instruction naming it, and any NE one, is rejected
 * (CM_ERR_UNSUPPORTED); the DMA and TDMA engines move bytes whatever they hold.
 * CONVERT: float -> float and int -> float round once with rnd, int64 included (the integer itself is rounded,
 * correctly, also where |v| > 2^53: never through a rounded double); float -> int (int8, uint8, int32, int64) rounds
 * to an integer with rnd (RND_ZERO truncates, RND_NEAREST_EVEN is numpy's rint) and saturates to the destination's
 * range, +-inf saturating too and NaN giving 0; int -> int saturates (int64 -> int32 / int8 / uint8, int32 -> int8 /
 * uint8, int8 <-> uint8), widening is exact (int8 / uint8 / int32 -> int64). NaN -> float is dst_fmt's canonical
 * quiet NaN; float overflow gives inf or the largest finite value as rnd dictates.
 * FMA (ARITH, float formats only, in V_V, V_S, V_VuV and V_VuV_LOOP): the fused multiply-add
 * dst[i] = src0[i] * m + a, with m, a = src1[i], src2[i] (V_V), the unit vectors src1[u], src2[u] (V_VuV: u =
 * i % unit_elem_num; V_VuV_LOOP pass j reads both at + j*unit_elem_num) or the fp32 scalars `scalar`, `scalar1`
 * (V_S). It is IEEE 754's fusedMultiplyAdd: the exact x*m + a rounded ONCE to dst_fmt with rnd (no rounding of the
 * product), zero results signed as IEEE says (-0 only for -0 + -0, or under RND_NEG_INF for an exact zero of
 * operands of other signs). Formats: src0 and dst are in dst_fmt, src1 and src2 in src_fmt, which is dst_fmt or
 * fp32 (fp32 coefficients for fp16 / bf16 / tf32 data: a per-channel scale and shift applied to narrow data in one
 * instruction, with no conversion). How the cmodel gets one rounding: the product of two <= 24-bit significands is
 * exact in double; the double sum s = p + a is not always, so its exact error e comes from TwoSum and, when e != 0
 * and s has an even last bit, s moves one double ulp toward p + a (round to odd). A round-to-odd value with
 * 53 >= p + 2 bits rounds to any p-bit format in any mode exactly as the exact value does (Boldo and Melquiond,
 * "When double rounding is odd", 2005), and every format here has p <= 24 bits.
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum CT_FUNCTION {
    CT_FUNC_ARITH,   /* binary arithmetic: add sub mul div max min pow mod fmod; the ternary fma */
    CT_FUNC_UNARY,   /* abs neg rsqrt sqrt exp reciprocal log erf, activations, trigonometric and hyperbolic
                        functions, floor ceil round sign (definitions: cmodel/src/ct/ct_unary.c) */
    CT_FUNC_REDUCE,  /* sum / max / min over one axis of a 2D [outer][inner] view */
    CT_FUNC_CMP,     /* compare -> mask (1 or 0 in dst_fmt: src_fmt, or int8 from any src_fmt) */
    CT_FUNC_SELECT,  /* dst = mask != 0 ? a : b (mask in src_fmt; a, b, dst in dst_fmt) */
    CT_FUNC_CONVERT, /* src_fmt -> dst_fmt with rnd (integer results saturate; int64 allowed; see above) */
    CT_FUNC_POOL,    /* 2-D window max / average over channel-last images (format POOL_2D, geometry in param.pool) */
} CT_FUNCTION;

/* Operand shapes ("Format" in the seed's naming scheme). */
typedef enum CT_FORMAT {
    CT_FMT_V,           /* one vector:                      dst[i] = f(src0[i]),              i < src_elem_num */
    CT_FMT_V_V,         /* vector-vector:                   dst[i] = src0[i] op src1[i]                        */
    CT_FMT_V_S,         /* vector-scalar:                   dst[i] = src0[i] op scalar                         */
    CT_FMT_V_VuV,       /* vector with unit vector:         dst[i] = src0[i] op src1[i % unit_elem_num]        */
    CT_FMT_V_VuV_LOOP,  /* VuV repeated full_unit/unit times: pass j uses src0/dst + j*src_elem_num and
                           src1 + j*unit_elem_num; needs full_src/full_unit == src/unit and unit_elem_num == 64 */
    CT_FMT_REDUCE_INNER,/* src0 is [outer_num][src_elem_num] -> dst[outer_num]                              */
    CT_FMT_REDUCE_OUTER,/* src0 is [outer_num][src_elem_num] -> dst[src_elem_num]                           */
    CT_FMT_POOL_2D,     /* src0 is [outer_num][in_h][in_w][src_elem_num] -> dst [outer_num][out_h][out_w][same],
                           both compact; see Ncc_CT_GR_Pool_Regs                                            */
} CT_FORMAT;

typedef enum CT_OPCODE {
    /* CT_FUNC_ARITH */
    CT_OP_ADD, CT_OP_SUB, CT_OP_MUL, CT_OP_DIV, CT_OP_MAX, CT_OP_MIN,
    /* CT_FUNC_UNARY */
    CT_OP_ABS, CT_OP_NEG, CT_OP_RSQRT, CT_OP_SQRT, CT_OP_EXP, CT_OP_RECIPROCAL,
    CT_OP_RELU, CT_OP_LEAKY_RELU /* alpha = scalar */, CT_OP_SIGMOID, CT_OP_TANH, CT_OP_GELU /* tanh form */,
    CT_OP_SILU,
    /* CT_FUNC_REDUCE */
    CT_OP_REDUCE_SUM, CT_OP_REDUCE_MAX, CT_OP_REDUCE_MIN,
    /* CT_FUNC_CMP (V_V, V_S, V_VuV, V_VuV_LOOP as ARITH: src0 is the left operand, src1 / the scalar / the unit
     * vector the right one) */
    CT_OP_CMP_EQ, CT_OP_CMP_NE, CT_OP_CMP_LT, CT_OP_CMP_LE, CT_OP_CMP_GT, CT_OP_CMP_GE,
    /* CT_FUNC_SELECT (V_V: src0 = mask in src_fmt, src1 = a, src2 = b and dst in dst_fmt) */
    CT_OP_SELECT,
    /* CT_FUNC_CONVERT (V) */
    CT_OP_CONVERT,
    /* CT_FUNC_POOL (POOL_2D) */
    CT_OP_POOL_MAX, CT_OP_POOL_AVG,
    /* CT_FUNC_UNARY (V), float formats only, appended (the values above stay). Parameters in the scalar registers
     * (fp32 bits): ELU/CELU alpha = scalar; SELU alpha = scalar, gamma = scalar1; THRESHOLDED_RELU alpha = scalar;
     * SHRINK lambd = scalar, bias = scalar1. GELU_ERF is the exact-erf GELU; ROUND is half to even. */
    CT_OP_LOG, CT_OP_ERF, CT_OP_GELU_ERF, CT_OP_SOFTPLUS, CT_OP_SOFTSIGN, CT_OP_ELU, CT_OP_CELU, CT_OP_SELU,
    CT_OP_THRESHOLDED_RELU, CT_OP_SHRINK, CT_OP_HARD_SWISH, CT_OP_MISH,
    CT_OP_SIN, CT_OP_COS, CT_OP_TAN, CT_OP_ASIN, CT_OP_ACOS, CT_OP_ATAN,
    CT_OP_SINH, CT_OP_COSH, CT_OP_ASINH, CT_OP_ACOSH, CT_OP_ATANH,
    CT_OP_FLOOR, CT_OP_CEIL, CT_OP_ROUND, CT_OP_SIGN,
    /* CT_FUNC_ARITH (every form the other ARITH ops take): dst = pow(src0, src1); floats: cm_pow rounded once,
     * int8 / int32: the exact integer power, saturating (see "Integers" above) */
    CT_OP_POW,
    /* CT_FUNC_ARITH, every form and format but int64: the remainder of src0 / src1 (see "MOD / FMOD" above) */
    CT_OP_MOD,  /* divisor's sign (Python / numpy %) */
    CT_OP_FMOD, /* dividend's sign (C fmod) */
    /* CT_FUNC_ARITH, float formats, V_V / V_S / V_VuV / V_VuV_LOOP: dst = src0 * src1 + src2 rounded once (see
     * "FMA" above; src1/src2 may be fp32 coefficients for fp16 / bf16 / tf32 src0 and dst) */
    CT_OP_FMA,
    CT_OP_COUNT
} CT_OPCODE;

typedef struct Ncc_CT_GR_Ctl_Regs {
    uint32_t function; /* CT_FUNCTION */
    uint32_t format;   /* CT_FORMAT */
    uint32_t opcode;   /* CT_OPCODE */
    uint32_t src_fmt;  /* Data_Format of src0/src1/src2 and of the scalar's meaning (SELECT: of src0, the mask;
                          FMA: of src1 and src2 only) */
    uint32_t dst_fmt;  /* Data_Format of dst: == src_fmt, except CONVERT (any), CMP (src_fmt or int8: the 1/0
                          mask), SELECT (the format of src1, src2 and dst, any) and FMA (the format of src0 and
                          dst; src_fmt may be fp32 with dst_fmt fp16, bf16 or tf32) */
    uint32_t rnd;      /* RND_MODE used when rounding results to dst_fmt */
} Ncc_CT_GR_Ctl_Regs;

/* POOL_2D geometry, in elements. Output (oh, ow) of image b reads the window taps
 *   ih = oh*stride_h - pad_top + kh*dilation_h,  iw = ow*stride_w - pad_left + kw*dilation_w   (kh < kernel_h,
 *   kw < kernel_w); a tap outside [0, in_h) x [0, in_w) is padding: never read, never part of a max or a sum.
 *   POOL_MAX  the max of the taps inside the input (NaN propagates, as REDUCE_MAX); no tap inside: -inf. Exact.
 *   POOL_AVG  the taps inside the input summed in double (kh-major, then kw; each channel on its own), divided in
 *             double by `count` and rounded once to dst_fmt with rnd. count = taps inside the input, or with
 *             count_include_pad taps inside the explicitly padded input [-pad_top, in_h + pad_bottom) x
 *             [-pad_left, in_w + pad_right): an overhang past that (a ceil_mode output) never counts. count 0: NaN.
 * Extents, kernel, strides and dilations are 1..65535, pads 0..65535, count_include_pad 0 or 1. Channels are
 * param.src_elem_num, images param.outer_num; src0 and dst may not overlap. */
typedef struct Ncc_CT_GR_Pool_Regs {
    uint32_t in_h, in_w, out_h, out_w;
    uint32_t kernel_h, kernel_w;
    uint32_t stride_h, stride_w;
    uint32_t dilation_h, dilation_w;
    uint32_t pad_top, pad_left, pad_bottom, pad_right; /* pad_bottom / pad_right only feed the AVG count */
    uint32_t count_include_pad;                        /* AVG: 1 = explicit padding counts in the divisor */
} Ncc_CT_GR_Pool_Regs;

typedef struct Ncc_CT_GR_Param_Regs {
    uint64_t src0_addr;          /* SPM bytes: main vector (mask for SELECT) */
    uint64_t src1_addr;          /* SPM bytes: second vector / unit vector (a for SELECT) */
    uint64_t src2_addr;          /* SPM bytes: b for SELECT; the addend (vector / unit vector) for FMA */
    uint64_t dst_addr;           /* SPM bytes */
    uint32_t scalar;             /* V_S operand / LEAKY_RELU, ELU, CELU, SELU, THRESHOLDED_RELU alpha / SHRINK
                                    lambd: fp32 bits for float formats, int32 for ints */
    uint32_t src_elem_num;       /* elements per pass (V, V_V, V_S: all; VuV: src vector; REDUCE: inner;
                                    POOL_2D: channels) */
    uint32_t unit_elem_num;      /* VuV: unit vector length */
    uint32_t full_src_elem_num;  /* VuV_LOOP: src elements over all passes */
    uint32_t full_unit_elem_num; /* VuV_LOOP: unit elements over all passes */
    uint32_t outer_num;          /* REDUCE: rows; POOL_2D: images */
    Ncc_CT_GR_Pool_Regs pool;    /* POOL_2D only */
    uint32_t scalar1;            /* second parameter, fp32 bits: SELU gamma, SHRINK bias, FMA V_S addend; no
                                    other op reads it */
} Ncc_CT_GR_Param_Regs;

typedef struct CT_Param {
    uint32_t inter_type; /* I_CGRA */
    Ncc_CT_GR_Ctl_Regs ctrl;
    Ncc_CT_GR_Param_Regs param;
} CT_Param;

/* ------------------------------------------------------------------------------------------------------------
 * NE (I_NEUR): out[M][N] (+)= A[M][K] x B[K][N] (+ bias[N]), row-major with leading dimensions in elements.
 * Inputs fp32 / tf32 (fp32 container, rounded to tf32 on read) / bf16 / fp16 / int8; accumulation fp32 for float
 * inputs (products then sums rounded to fp32 in k order), int32 (exact, wrapping) for int8. relu maps x <= 0 to +0
 * (as CT relu). out may not overlap A, B or bias (a blocked engine would make in-place results order-dependent).
 *
 * NE_OP_CONV uses ctrl, the four addresses of param (a = in, b = weight) and `conv` (m/n/k/ld* are ignored):
 *   in     [batch][in_h][in_w][in_c]              channel-last; pitches in_pitch[0..2] (column, row, image)
 *   weight [kernel_h][kernel_w][in_c/groups][out_c] pitches w_pitch[0] (one input channel), w_pitch[1] (one
 *                                                 kernel tap); a kernel row is kernel_w * w_pitch[1]
 *   out    [batch][out_h][out_w][out_c]           fp32 / int32; pitches out_pitch[0..2]
 *   bias   [out_c]                                fp32 / int32, contiguous
 * Output channel o is in group g = o / (out_c/groups) and reads input channels g*Cg .. g*Cg+Cg-1, Cg = in_c/groups:
 *   out[n][y][x][o] = sum over (kh, kw, c) of in[n][ih][iw][g*Cg + c] * weight[kh][kw][c][o]
 *   ih = y*stride_h - pad_top + kh*dilation_h,  iw = x*stride_w - pad_left + kw*dilation_w
 * where in is +0 (zero padding) whenever ih is outside [0, in_h) or iw outside [0, in_w). This is exactly a GEMM
 * over the im2col matrix (one row per output pixel, k = (kh*kernel_w + kw)*Cg + c, padding rows included as
 * zeros), with the GEMM numerics above in ascending k; accumulate / bias / relu as for GEMM; a NaN result is stored
 * as the canonical quiet NaN 0x7FC00000 (so backends agree on the bits of 0*inf). The bottom and right
 * padding are implied by out_h / out_w. pad_top / pad_left are signed so that a tile of the output can start
 * inside the image (negative pad) while still addressing the whole input.
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum NE_OPCODE { NE_OP_GEMM, NE_OP_CONV } NE_OPCODE;

typedef struct Ncc_NE_GR_Ctl_Regs {
    uint32_t opcode;     /* NE_OPCODE */
    uint32_t in_fmt;     /* Data_Format of A and B */
    uint32_t out_fmt;    /* Fmt_FP32 (float inputs) or Fmt_INT32 (int8) */
    uint32_t accumulate; /* 1: out += A·B (psum from out), 0: out = A·B */
    uint32_t bias_en;    /* 1: add bias[N] (out_fmt) once per output element, after the products */
    uint32_t relu_en;    /* 1: post-process max(x, 0) */
} Ncc_NE_GR_Ctl_Regs;

typedef struct Ncc_NE_GR_Param_Regs {
    uint64_t a_addr, b_addr, bias_addr, out_addr; /* SPM bytes */
    uint32_t m, n, k;                             /* elements */
    uint32_t lda, ldb, ldc;                       /* row pitch in elements of A (>= k), B (>= n), out (>= n) */
} Ncc_NE_GR_Param_Regs;

/* NE_OP_CONV geometry. Counts and pitches are elements; all counts >= 1. */
typedef struct Ncc_NE_GR_Conv_Regs {
    uint32_t batch;                  /* images */
    uint32_t in_h, in_w, in_c;       /* input extent (in_c: all groups) */
    uint32_t out_h, out_w, out_c;    /* output extent (out_c: all groups) */
    uint32_t groups;                 /* divides in_c and out_c (depthwise: groups == in_c) */
    uint32_t kernel_h, kernel_w;
    uint32_t stride_h, stride_w;
    uint32_t dilation_h, dilation_w;
    int32_t pad_top, pad_left;       /* may be negative (a tile starting inside the image) */
    uint32_t in_pitch[3];            /* column (>= in_c), row (>= in_w*[0]), image (>= in_h*[1]) */
    uint32_t out_pitch[3];           /* column (>= out_c), row (>= out_w*[0]), image (>= out_h*[1]) */
    uint32_t w_pitch[2];             /* input channel (>= out_c), kernel tap (>= in_c/groups*[0]) */
} Ncc_NE_GR_Conv_Regs;

typedef struct TsmNeInstr {
    uint32_t inter_type; /* I_NEUR */
    Ncc_NE_GR_Ctl_Regs ctrl;
    Ncc_NE_GR_Param_Regs param;
    Ncc_NE_GR_Conv_Regs conv; /* NE_OP_CONV only */
} TsmNeInstr;

/* ------------------------------------------------------------------------------------------------------------
 * RDMA / WDMA (I_RDMA: DDR -> SPM, I_WDMA: SPM -> DDR): a box of up to 3 dimensions.
 * size[0] is the contiguous run in bytes; size[1], size[2] are counts (1 for unused dimensions); the strides of
 * dimensions 1 and 2 are in bytes on each side.
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum DMA_OPCODE { DMA_OP_COPY } DMA_OPCODE;

typedef struct Ncc_DMA_GR_Ctl_Regs {
    uint32_t opcode; /* DMA_OPCODE */
} Ncc_DMA_GR_Ctl_Regs;

typedef struct Ncc_DMA_GR_Param_Regs {
    uint64_t ddr_addr;      /* DDR bytes */
    uint64_t spm_addr;      /* SPM bytes */
    uint32_t size[3];       /* bytes, count, count */
    uint64_t ddr_stride[2]; /* bytes between consecutive runs of dims 1 and 2 in DDR */
    uint32_t spm_stride[2]; /* bytes between consecutive runs of dims 1 and 2 in SPM */
} Ncc_DMA_GR_Param_Regs;

typedef struct DMA_Param {
    uint32_t inter_type; /* I_RDMA or I_WDMA */
    Ncc_DMA_GR_Ctl_Regs ctrl;
    Ncc_DMA_GR_Param_Regs param;
} DMA_Param;

/* ------------------------------------------------------------------------------------------------------------
 * TDMA (I_TDMA): SPM -> SPM copy of a 4D box of elem_bytes-sized elements, dimension 0 innermost, with independent
 * byte strides on each side. gatherScatter = blocks at strides; reshape = permuted strides. src and dst may not
 * overlap.
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum TD_OPCODE { TD_OP_GATHER_SCATTER, TD_OP_RESHAPE } TD_OPCODE;

typedef struct Ncc_TDMA_GR_Ctl_Regs {
    uint32_t opcode;     /* TD_OPCODE (same data path; kept apart for tracing) */
    uint32_t elem_bytes; /* 1, 2, 4, … bytes per element (a gatherScatter block may be one big "element") */
} Ncc_TDMA_GR_Ctl_Regs;

typedef struct Ncc_TDMA_GR_Param_Regs {
    uint64_t src_addr, dst_addr; /* SPM bytes */
    uint32_t shape[4];           /* elements per dimension, [0] innermost; unused dimensions are 1 */
    uint32_t src_stride[4];      /* bytes between consecutive elements of each dimension in src */
    uint32_t dst_stride[4];      /* same in dst */
} Ncc_TDMA_GR_Param_Regs;

typedef struct TD_Param {
    uint32_t inter_type; /* I_TDMA */
    Ncc_TDMA_GR_Ctl_Regs ctrl;
    Ncc_TDMA_GR_Param_Regs param;
} TD_Param;

/* ------------------------------------------------------------------------------------------------------------
 * DTE (I_DTE): the special core's NoC engine, a tile-to-tile copy of a 3D box over the mesh.
 * Source: the issuing tile's SPM (DTE_SRC_SPM) or the chip's DDR (DTE_SRC_DDR), at src_addr. Destination: the
 * SPM of every tile of the mesh rectangle [dst_x0, dst_x1] x [dst_y0, dst_y1] (inclusive; tile id = y*mesh_x + x),
 * the same box at the same dst_addr on each: a 1x1 rectangle is a unicast, a larger one a multicast (the data
 * crosses each NoC link of the XY multicast tree once). The issuing tile may lie inside the rectangle: it then
 * receives a copy too; an SPM source on such a tile may not overlap its own destination range.
 * The box is as DMA_Param's: size[0] is the contiguous run in bytes, size[1], size[2] are counts (1 for unused
 * dimensions); run (i1, i2) is at src_addr + i1*src_stride[0] + i2*src_stride[1] and at dst_addr +
 * i1*dst_stride[0] + i2*dst_stride[1] (bytes), copied i2 outer, i1 inner (overlapping destination runs: the later
 * wins). Every byte read and every byte written on every destination tile is checked before a byte moves.
 * Visibility: another tile may read the data once the issuing tile has waited for the transfer and a barrier
 * (tx8_hal_barrier) has followed; before that its bytes are undefined. Routing is dimension-ordered (X first,
 * then Y); the cost (cmodel/include/tx8/cm_cycles.h) depends on the longest route's hop count.
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum DTE_OPCODE { DTE_OP_COPY } DTE_OPCODE;
typedef enum DTE_SRC_MEM {
    DTE_SRC_SPM = 0, /* src_addr is in the issuing tile's SPM */
    DTE_SRC_DDR = 1, /* src_addr is in the chip's DDR */
} DTE_SRC_MEM;

typedef struct Ncc_DTE_GR_Ctl_Regs {
    uint32_t opcode;  /* DTE_OPCODE */
    uint32_t src_mem; /* DTE_SRC_MEM */
} Ncc_DTE_GR_Ctl_Regs;

typedef struct Ncc_DTE_GR_Param_Regs {
    uint64_t src_addr;      /* bytes in the issuing tile's SPM or in DDR (ctrl.src_mem) */
    uint64_t dst_addr;      /* SPM bytes, on every destination tile */
    uint32_t size[3];       /* bytes, count, count */
    uint64_t src_stride[2]; /* bytes between consecutive runs of dims 1 and 2 at the source */
    uint32_t dst_stride[2]; /* bytes between consecutive runs of dims 1 and 2 in each destination SPM */
    uint32_t dst_x0, dst_y0; /* the destination rectangle's first tile (mesh column, row) */
    uint32_t dst_x1, dst_y1; /* its last tile, inclusive: x0 <= x1 < mesh_x, y0 <= y1 < mesh_y */
} Ncc_DTE_GR_Param_Regs;

typedef struct DTE_Param {
    uint32_t inter_type; /* I_DTE */
    Ncc_DTE_GR_Ctl_Regs ctrl;
    Ncc_DTE_GR_Param_Regs param;
} DTE_Param;

const char *tx8_instr_type_name(uint32_t inter_type);
const char *tx8_ct_opcode_name(uint32_t opcode);

#ifdef __cplusplus
}
#endif

#endif /* TX8_ISA_H */

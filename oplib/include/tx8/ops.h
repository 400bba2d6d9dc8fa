/*
 * OpLib operators. Every op takes a *_PARAM, its input TSRs (SPM tensors of the current tile), an `imm` scratch
 * TSR where it needs one, and its outputs; it returns the cycles it spent, or TX8_CYCLES_INVALID after reporting
 * a fault (bad shape, dtype or layout; the message names the op and the argument).
 *
 * The *_imm_size functions plan without the chip: they read nothing but their arguments, the hardware config
 * included (the firmware passes tx8_hal_config(), the compiler the config it compiles for), so they need no HAL.
 */
#ifndef TX8_OPS_H
#define TX8_OPS_H

#include <stdint.h>

#include "tx8/hw_config.h"
#include "tx8/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- op_batchnorm_inference: out = scale * (in - mean) / sqrt(var + epsilon) + shift, per channel (last dim).
 * in/out: dim 2..4, fp32 / fp16 / bf16, in `layout`; scale/shift/mean/var: fp32 [C] vectors (Cx layout of
 * 1x..xC, i.e. C contiguous floats). imm: op_batchnorm_inference_imm_size() bytes of SPM. ---- */
typedef struct BATCHNORM_INFER_PARAM {
    LAYOUT_MODE layout; /* layout of in and out */
    float epsilon;      /* the seed uses 1e-6 */
} BATCHNORM_INFER_PARAM;

/* Bytes of SPM scratch (imm) op_batchnorm_inference needs for in's shape_real and format in param->layout on the
 * hardware `hw`. With A = tx8_hw_batch_align_bytes(hw), W = total_bytes of in's shape in param->layout as fp32
 * (tx8/layout.h, batch alignment A) and Ca = the fp32 layout's channel count with its padding (C for
 * Tensor/NTensor; Cx*64 + C0a for a split Cx/NCx, else C0a), imm holds, each part rounded up to a multiple of A:
 * for fp16/bf16 only, the fp32 work image (W bytes) and then a staging image (W/2 bytes); always the fp32
 * rsqrt(var + epsilon) vector (4*Ca bytes). 0 when hw, param, in or in->shape is NULL, or in's shape is not
 * valid in param->layout. */
uint64_t op_batchnorm_inference_imm_size(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param,
                                         const TSR *in);
uint64_t op_batchnorm_inference(BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift, TSR *mean, TSR *var,
                                TSR *imm, TSR *out);

/* ---- op_batchnorm_inference_folded: the same operation, arguments, formats and layouts as op_batchnorm_inference,
 * with the per-channel constants folded first: a = scale * rsqrt(var + epsilon), b = shift - mean * a (fp32, over
 * the layout's aligned channel count, in imm), then ONE fused multiply-add pass out = in * a + b straight from in's
 * format to out's (CT fma with fp32 coefficients, rounded once to out's format; per batch, per Cx block as the
 * layout needs). No conversion and no fp32 image: far fewer cycles (fp16 [1,28,56,129] NCx: 3370 against 22877)
 * and a tiny imm. out may be in (in place).
 * Numerics: a is within about 2.5 fp32 roundings of its exact value, b = shift - mean * a is rounded once (fma),
 * and the result once, so with u = 2^-24 and e = the output format's unit roundoff (fp32 2^-24, fp16 2^-11, bf16
 * 2^-8), |out - exact| <= e*|exact| + (1 + e) * u * (2.5 * |a| * |in - mean| + |b|) up to second-order terms (plus
 * half a subnormal step of the output format); the tests check it with the u-term doubled. The 10-step flow
 * subtracts the mean first instead, so its error is relative to |in - mean| * |a| + |shift| while the folded one
 * pays u * |b| = u * |shift - mean * a|. With S = |a| * |in - mean| + |b| + |out|, the two ops' outputs differ by a
 * few u * S before the final rounding: fp32 outputs by at most 16 u * S (tested; about 2.4 u * S seen), fp16 /
 * bf16 outputs by at most one ulp of the output plus 16 u * S (tested), which is one ulp except where out nearly
 * cancels (|out| << S). imm: op_batchnorm_inference_folded_imm_size() bytes of SPM:
 * the two fp32 vectors a and b of Ca lanes each (Ca as in op_batchnorm_inference_imm_size), each rounded up to a
 * multiple of tx8_hw_batch_align_bytes(hw); 0 when hw, param, in or in->shape is NULL, or in's shape is not valid
 * in param->layout. ---- */
uint64_t op_batchnorm_inference_folded_imm_size(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param,
                                                const TSR *in);
uint64_t op_batchnorm_inference_folded(BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift, TSR *mean,
                                       TSR *var, TSR *imm, TSR *out);

/* ---- op_gemm on the NE: out[M][N] = a[M][K] x b[K][N] (+ bias[N]) (relu), compact row-major (Tensor layout).
 * Batched: a [..., M, K], b [..., K, N], out [..., M, N] with the same number of dims (2 to MAX_SHAPE_DIM); each
 * leading (batch) dim of a and of b is out's or 1 (numpy's broadcasting), every matrix of out is a x b of its batch
 * index, bias added to each.
 * a, b: fp32 / tf32 / bf16 / fp16 / int8 (same format); out (and bias): fp32, or int32 for int8. ---- */
typedef struct GEMM_PARAM {
    uint32_t accumulate; /* 1: out += a x b */
    uint32_t relu_en;    /* 1: max(out, 0) after the bias */
} GEMM_PARAM;

uint64_t op_gemm(GEMM_PARAM *param, TSR *a, TSR *b, TSR *bias /* NULL: none */, TSR *out);

/* ---- op_attention on the NE and the CT: scaled dot-product attention, FlashAttention's tiling.
 *   out[..., Sq, Dv] = softmax(scale * q k^T + mask, over the last dim) v
 * Shapes (shape_real, elements), all tensors compact row-major with one dim count (2 to MAX_SHAPE_DIM):
 *   q [..., Sq, D], k [..., Skv, D], v [..., Skv, Dv], out [..., Sq, Dv], mask (optional, additive)
 *   [..., Sq or 1, Skv or 1]. Each leading (batch) dim of q, k, v and mask is out's or 1 (numpy's broadcasting).
 *   causal: query i sees keys j <= i + (Skv - Sq) (needs Sq <= Skv), the others count as -inf; with a mask too.
 *   D, Dv <= TSM_NE_GEMM_MAX_K / _N.
 * Formats: q, k, v one of fp32 / bf16 / fp16 (the NE's operand format); out fp32 or q's; mask fp32 / bf16 / fp16.
 * Numerics: scores, softmax statistics and the accumulator are fp32 (NE products summed in fp32). Per block of Bq
 * query rows, K/V stream in blocks of Bk keys (op_attention_imm_size's plan):
 *   S = q_blk k_blk^T (NE)  S = S*scale (+ mask) (causal: -inf)  m' = max(m, rowmax S)  P = exp(S - m')
 *   l = l*exp(m - m') + rowsum P   O = O*exp(m - m') + P v_blk (NE, P rounded to q's format first)
 * and at the end out = O * (1 / l) (rounded to out's format). Only [Bq, Bk] of the scores is ever held (in imm).
 * k^T: the NE's B operand is row-major [K][N], so each key block is transposed once per k matrix on the NE (a 1-D
 * convolution of the block with an identity weight, exact), Bk*Bk*D MACs per block on top of the 2*Sq*Skv*D of
 * the attention itself. imm: op_attention_imm_size() bytes of SPM (int8 [bytes]) apart from every operand; out
 * apart from q, k, v, mask. Cycles: the sum of the instructions' (NE, CT, TDMA). ---- */
typedef struct ATTENTION_PARAM {
    float scale;     /* multiplies q k^T (before the mask); finite */
    uint32_t causal; /* 1: query i sees keys j <= i + Skv - Sq */
} ATTENTION_PARAM;

/* Bytes of SPM scratch op_attention needs for these operands on `hw` (shapes and formats as above; mask may be
 * NULL); 0 when an argument is NULL or a shape is outside the contract's dims. Grows with Skv (the transposed keys
 * of one k matrix, Skv*D elements) and with the blocks (Bq, Bk <= 128). */
uint64_t op_attention_imm_size(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                               const TSR *v, const TSR *mask, const TSR *out);
uint64_t op_attention(ATTENTION_PARAM *param, TSR *q, TSR *k, TSR *v, TSR *mask /* NULL: none */, TSR *imm,
                      TSR *out);

/* ---- op_conv on the NE: 2-D convolution (1-D: rank-3 tensors, H = KH = 1), channel-last, zero padding, groups
 * (depthwise: group == C). All shapes are shape_real, in elements:
 *   in     [N,H,W,C] (1-D: [N,W,C]), compact NHWC
 *   weight [KH,KW,C/group,O] (1-D: [KW,C/group,O]), compact, in's format. This is the device layout the compiler
 *          arranges constants in: weight[kh][kw][c][o] = ONNX W[o][c][kh][kw]; output channel o belongs to group
 *          o / (O/group) and reads input channels (o / (O/group)) * C/group + c
 *   bias   [O] or [1,O], fp32 (int32 for int8 inputs), added once per output element after the sum
 *   out    [N,OH,OW,O] (1-D: [N,OW,O]), compact, fp32 (int32 for int8 inputs), with
 *          OH = (H + pad_top + pad_bottom - dilation_h*(KH-1) - 1) / stride_h + 1  (OW likewise; floor division)
 * in and weight: fp32 / tf32 / bf16 / fp16 / int8. Numerics are the NE conv instruction's (tx8/isa.h) whatever the
 * tiling: per output element acc = accumulate ? out : +0, then acc = fl(acc + fl(a*b)) over k = (kh, kw, c)
 * ascending with padding taps contributing +0*b, then + bias, then relu (int8: exact int32, wrapping). ---- */
typedef struct CONV_PARAM {
    LAYOUT_MODE layout;               /* in and out: LAYOUT_TENSOR (N == 1) or LAYOUT_NTENSOR; Cx/NCx not supported */
    uint32_t stride_h, stride_w;      /* elements, >= 1 (1-D: stride_h 1) */
    uint32_t dilation_h, dilation_w;  /* elements, >= 1 (1-D: dilation_h 1) */
    int32_t pad_top, pad_left;        /* elements of zero padding, >= 0 (1-D: pad_top, pad_bottom 0) */
    int32_t pad_bottom, pad_right;
    uint32_t group;                   /* >= 1, divides C and O */
    uint32_t accumulate;              /* 1: out += conv (bias and relu still apply once, at the end) */
    uint32_t relu_en;                 /* 1: max(out, 0) after the bias */
} CONV_PARAM;

/* No scratch: the NE reads in and weight in place. Tiles so that one NE instruction stays within
 * TSM_NE_CONV_MAX_M/N/K (tx8/ne.h); the result is bit-identical to one big instruction. */
uint64_t op_conv(CONV_PARAM *param, TSR *in, TSR *weight, TSR *bias /* NULL: none */, TSR *out);

/* ---- elementwise on the CT: same shape and layout for all tensors; fp32 / fp16 / bf16; op_add, op_sub, op_mul,
 * op_div, op_max, op_min, op_pow, op_abs and op_neg also int8 / int32 (every operand of one format) ---- */
typedef struct ELTWISE_PARAM {
    LAYOUT_MODE layout;
    RND_MODE rnd;
} ELTWISE_PARAM;

/* One CT instruction over the layout image; each result computed in double and rounded once to the format with
 * param->rnd (add/sub/mul/div and sqrt correctly rounded; max/min/abs/neg/relu exact; max/min propagate NaN). */
uint64_t op_add(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_sub(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_mul(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_div(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
/* out = pow(a, b): the cmodel's cm_pow (C99 Annex F: pow(x, 0) = 1, a negative a with an integer b gives the signed
 * result, with a non-integer b NaN, ...; within an ulp of double) rounded once; transcendental passes. The binary
 * ops also broadcast (numpy rules at equal dim counts, compact layouts: oplib/src/ops/eltwise_common.h); as op_div's
 * numerator, op_pow's base a may broadcast only where its exponent b does too (pow does not commute, and the CT has
 * no reversed pow to put a broadcast base on the unit side): pow(x, scalar) is one instruction, pow(scalar, x) a
 * fault. */
uint64_t op_pow(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_max(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_min(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
/* Integer tensors (int8 / int32) get the CT's integer semantics (tx8/isa.h, "Integers"): each result is the exact
 * integer, stored saturating (param->rnd is checked, nothing rounds): add / sub / mul saturate, div truncates toward
 * zero with x / 0 = 0, pow is the exact power (a negative exponent: truncated, 0 but for a = +-1), max / min exact,
 * abs / neg of the minimum saturate (|-128| = 127). Broadcasting as for floats, except that an integer op_sub's a
 * may broadcast only where b does too (as op_div's: -(b - a) would saturate differently): a fault otherwise. */

/* ---- op_mod: out = a mod b elementwise on the CT. param->fmod 0: the divisor's sign, a - floor(a/b) b (Python's
 * and numpy's %, ONNX Mod fmod = 0; a zero result is the zero of b's sign; for floats fmod(a, b) + b where the
 * signs differ, that sum rounded to nearest even as numpy's float % does); 1: the dividend's sign, a - trunc(a/b) b
 * (C's fmod, ONNX Mod fmod = 1), always exact. fp32 / fp16 / bf16 / int8 / int32 (integers: exact), every operand
 * of one format. b = 0 gives 0 for integers and NaN for floats; a float NaN operand or infinite a NaN; an infinite
 * b gives fmod a, mod a when a and b have the same sign, b when not (tx8/isa.h, "MOD / FMOD"). Shapes broadcast as
 * op_div's (a may broadcast only where b does too); one CT mod / fmod instruction per chunk or broadcast run, at the
 * CT's dividing cost (ct_transcendental_passes). ---- */
typedef struct MOD_PARAM {
    LAYOUT_MODE layout;
    uint32_t fmod; /* 0: Python's % (divisor's sign), 1: C's fmod (dividend's sign) */
} MOD_PARAM;
uint64_t op_mod(MOD_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_relu(ELTWISE_PARAM *param, TSR *in, TSR *out);
uint64_t op_abs(ELTWISE_PARAM *param, TSR *in, TSR *out);
uint64_t op_neg(ELTWISE_PARAM *param, TSR *in, TSR *out);
uint64_t op_sqrt(ELTWISE_PARAM *param, TSR *in, TSR *out);
uint64_t op_reciprocal(ELTWISE_PARAM *param, TSR *in, TSR *out);
/* out = exp(in): the cmodel's portable exp (within an ulp of double), rounded once to the format. */
uint64_t op_exp(ELTWISE_PARAM *param, TSR *in, TSR *out);

/* ---- op_unary: out = f(in) elementwise on the CT for the function param->kind names: one CT instruction per
 * chunk over the whole layout image (ELTWISE_PARAM's tensors: same shape, dim 2..4, fp32 / fp16 / bf16, any
 * layout; out may be in itself). Each result is computed in double with the cmodel's portable routines and rounded
 * once to the format with param->rnd; the definitions (order of operations, NaN and infinities) are the CT's:
 * cmodel/src/ct/ct_unary.c. In short:
 *   LOG ERF SIN COS TAN ASIN ACOS ATAN SINH COSH ASINH ACOSH ATANH   the function (NaN outside its domain)
 *   GELU_ERF x/2 (1 + erf(x / sqrt 2))   SOFTPLUS ln(1 + e^x)   SOFTSIGN x / (1 + |x|)   MISH x tanh(softplus x)
 *   ELU x > 0 ? x : alpha (e^x - 1)      CELU max(0, x) + min(0, alpha (e^(x/alpha) - 1))
 *   SELU x > 0 ? beta x : beta alpha (e^x - 1)      (beta = gamma)
 *   THRESHOLDED_RELU x > alpha ? x : 0   SHRINK x < -alpha ? x + beta : x > alpha ? x - beta : 0  (alpha = lambd,
 *   beta = bias)
 *   HARD_SWISH x max(0, min(1, x/6 + 1/2))   FLOOR   CEIL   ROUND (half to even)   SIGN (-1, 0, +1)   RSQRT 1/sqrt x
 *   GELU_TANH x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (the CT's gelu: GELU's tanh approximation)
 * FLOOR, CEIL, ROUND and SIGN are exact. Cycles: one instruction at the CT's cost for its opcode (tx8/cm_cycles.h:
 * the transcendental passes for all but THRESHOLDED_RELU, SHRINK, HARD_SWISH, FLOOR, CEIL, ROUND and SIGN). A kind
 * that is not a UNARY_KIND, a bad layout, rnd, format or shape is a fault naming op_unary and the argument. ---- */
typedef enum UNARY_KIND {
    UNARY_LOG = 0, UNARY_ERF, UNARY_GELU_ERF, UNARY_SOFTPLUS, UNARY_SOFTSIGN, UNARY_ELU,
    UNARY_CELU, UNARY_SELU, UNARY_THRESHOLDED_RELU, UNARY_SHRINK, UNARY_HARD_SWISH, UNARY_MISH, UNARY_SIN,
    UNARY_COS, UNARY_TAN, UNARY_ASIN, UNARY_ACOS, UNARY_ATAN, UNARY_SINH, UNARY_COSH, UNARY_ASINH, UNARY_ACOSH,
    UNARY_ATANH, UNARY_FLOOR, UNARY_CEIL, UNARY_ROUND, UNARY_SIGN, UNARY_RSQRT, UNARY_GELU_TANH, UNARY_KIND_COUNT
} UNARY_KIND;
typedef struct UNARY_PARAM {
    LAYOUT_MODE layout;
    RND_MODE rnd;
    uint32_t kind;   /* UNARY_KIND */
    float alpha;     /* ELU/CELU/SELU alpha, THRESHOLDED_RELU alpha, SHRINK lambd; else ignored */
    float beta;      /* SELU gamma, SHRINK bias; else ignored */
} UNARY_PARAM;
uint64_t op_unary(UNARY_PARAM *param, TSR *in, TSR *out);

/* Activations with scalar parameters (fp32 values, as ONNX gives them), same tensors as ELTWISE_PARAM's ops:
 *   op_leaky_relu   out = in > 0 ? in : alpha * in                   one CT leaky_relu (rounded once)
 *   op_clip         out = min(max(in, min), max)                     V_S max, then V_S min (exact; NaN stays NaN)
 *   op_hard_sigmoid out = max(0, min(1, alpha * in + beta))          V_S mul, add, max, min (each rounded) */
typedef struct LEAKY_RELU_PARAM {
    LAYOUT_MODE layout;
    RND_MODE rnd;
    float alpha;
} LEAKY_RELU_PARAM;
uint64_t op_leaky_relu(LEAKY_RELU_PARAM *param, TSR *in, TSR *out);

typedef struct CLIP_PARAM {
    LAYOUT_MODE layout;
    RND_MODE rnd;
    uint32_t has_min, has_max; /* 0: no such bound (as -inf / +inf; generated C never spells an infinity) */
    float min, max;            /* min > max clips everything to max, as ONNX's min(max(x, min), max) does */
} CLIP_PARAM;
uint64_t op_clip(CLIP_PARAM *param, TSR *in, TSR *out);

typedef struct HARD_SIGMOID_PARAM {
    LAYOUT_MODE layout;
    RND_MODE rnd;
    float alpha, beta;
} HARD_SIGMOID_PARAM;
uint64_t op_hard_sigmoid(HARD_SIGMOID_PARAM *param, TSR *in, TSR *out);
/* out = 1 / (1 + exp(-in)) and tanh(in): one CT instruction each, computed in double with the cmodel's portable
 * exp/tanh and rounded once to the format with param->rnd (tx8/isa.h; no libm, same bits on every backend). */
uint64_t op_sigmoid(ELTWISE_PARAM *param, TSR *in, TSR *out);
uint64_t op_tanh(ELTWISE_PARAM *param, TSR *in, TSR *out);

/* ---- op_cast on the CT: out = in converted to out's format, one CT convert per chunk. in and out: any of fp32,
 * fp16, bf16, int8, uint8, int32, int64 (each way; a boolean is int8 0/1), of the same shape (dim 2..4) in a compact
 * layout (Tensor / NTensor, param->layout). Float -> float and int -> float round to nearest even (int64 too: the
 * integer rounded once, also past 2^53); float -> int truncates toward zero and saturates (+-inf too, NaN -> 0);
 * int -> int saturates (int64 -> int32 narrowing included), widening is exact. param->to_bool = 1: out is Fmt_INT8
 * and out = (in != 0) as 0/1 (NaN -> 1, -0 -> 0): one CT compare NE against the scalar 0 writing int8 (int64: a
 * saturating convert to int8 into out, then that compare in place). in and out may not overlap unless they are the
 * same buffer with the same element size. Cycles: the CT's for one instruction at the wider format's lanes (two
 * for an int64 to_bool). ---- */
typedef struct CAST_PARAM {
    LAYOUT_MODE layout;
    uint32_t to_bool; /* 0: convert to out's format; 1: out (int8) = in != 0 */
} CAST_PARAM;
uint64_t op_cast(CAST_PARAM *param, TSR *in, TSR *out);

/* ---- op_quantize_linear / op_dequantize_linear on the CT (ONNX QuantizeLinear / DequantizeLinear). x, scale,
 * zero_point and out have one dim count (2..4), compact row-major (param->layout Tensor or NTensor); out has x's
 * shape; scale's extents are each x's or 1 (numpy broadcasting: all 1 per tensor, one dim x's per axis) and
 * zero_point has scale's shape.
 *   quantize:   x fp32, scale fp32, zero_point and out int8 or uint8 (one format):
 *                 out = saturate(rint(fp32(x / scale)) + zero_point)
 *               x / scale rounded to fp32 (nearest even), that rounded to an integer (nearest even; NaN -> 0,
 *               saturating to int32), the zero point added in int32, the sum saturated to out's range. Five CT
 *               instructions per broadcast run at most: div into imm's fp32 work image, convert it to int32 in
 *               place, convert zero_point to int32 into imm, add (broadcast), convert to out's format.
 *   dequantize: x int8, uint8 or int32, zero_point x's format, scale fp32, out fp32:
 *                 out = fp32((fp32(x) - fp32(zero_point)) * scale)
 *               (the difference is exact for 8-bit x; int32 x is rounded to fp32 first, as numpy's astype): convert x
 *               into out, zero_point into imm (fp32), sub and mul (broadcast) in place.
 * imm: op_quantize_linear_imm_size() / op_dequantize_linear_imm_size() bytes of SPM, an int8 [bytes] tensor.
 * No tensor may overlap another. Cycles: the CT's for those instructions. ---- */
typedef struct QUANTIZE_PARAM {
    LAYOUT_MODE layout; /* of x and out: LAYOUT_TENSOR (dim 0 == 1) or LAYOUT_NTENSOR */
} QUANTIZE_PARAM;

/* Bytes of SPM scratch for x's and scale's shapes on `hw`, each part rounded up to tx8_hw_batch_align_bytes(hw):
 * quantize: the fp32 / int32 work image of x (4 bytes per element), then the int32 zero point (4 per element of
 * scale); dequantize: the fp32 zero point only. 0 when an argument is NULL or the shapes are not dim 2..4 with
 * extents >= 1, below 2^30 elements. */
uint64_t op_quantize_linear_imm_size(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x,
                                     const TSR *scale);
uint64_t op_dequantize_linear_imm_size(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x,
                                       const TSR *scale);
uint64_t op_quantize_linear(QUANTIZE_PARAM *param, TSR *x, TSR *scale, TSR *zero_point, TSR *imm, TSR *out);
uint64_t op_dequantize_linear(QUANTIZE_PARAM *param, TSR *x, TSR *scale, TSR *zero_point, TSR *imm, TSR *out);

/* ---- op_reduce on the CT: in viewed as [A][R][B] (dim 3, compact row-major), out as [A][1][B]; reduces the
 * middle dim: sum (accumulated in double in index order, rounded once), max / min (NaN propagates), mean (the
 * rounded sum divided by R, rounded again). B == 1: one inner reduction over [A][R]; otherwise one outer
 * reduction over [R][B] per a (A instructions). fp32 / fp16 / bf16; out may not overlap in. ---- */
typedef enum REDUCE_KIND {
    REDUCE_SUM = 0,
    REDUCE_MEAN = 1,
    REDUCE_MAX = 2,
    REDUCE_MIN = 3,
    REDUCE_KIND_COUNT
} REDUCE_KIND;
typedef struct REDUCE_PARAM {
    REDUCE_KIND kind;
    RND_MODE rnd;
} REDUCE_PARAM;
uint64_t op_reduce(REDUCE_PARAM *param, TSR *in, TSR *out);

/* ---- op_softmax on the CT: softmax along the last (contiguous) dim of a dim 2..4 tensor, viewed as
 * [R][L] (R = product of the other dims, L = last dim). in/out: same shape, fp32 / fp16 / bf16, compact
 * row-major; out may be in itself (in place) but may not overlap it otherwise. Computed in fp32, every step
 * rounded to nearest even (the contract; each step is one CT instruction over the whole tensor):
 *   m[r] = max_i x[r][i]                     exact (x converted to fp32 first for fp16/bf16: exact)
 *   d    = fp32(x - m[r])                    e = fp32(exp(d))       (exp: the cmodel's portable cm_exp)
 *   s[r] = fp32(sum_i e[r][i])               summed in double in ascending i, rounded once
 *   q[r] = fp32(1 / s[r])                    y = fp32(e * q[r]), then rounded to out's format
 * so |y - softmax(x)| <= y * (|x - m| + ln(L) + 6) * 2^-24 before the final rounding to fp16/bf16 (half an ulp
 * more), up to underflow (the e-weighted mean of |x - m| that s inherits is below ln(L)).
 * The row values m, q reach each element through V_VuV with a 1-element unit (R == 1) or a TDMA broadcast
 * into imm (R > 1). imm: op_softmax_imm_size() bytes of SPM, an int8 [bytes] tensor, overlapping neither. ---- */
typedef struct SOFTMAX_PARAM {
    LAYOUT_MODE layout; /* of in and out: LAYOUT_TENSOR (dim 0 == 1) or LAYOUT_NTENSOR (Cx would pad the rows) */
} SOFTMAX_PARAM;

/* Bytes of SPM scratch (imm) op_softmax needs for in's shape_real (viewed as [R][L]) and format on the hardware
 * `hw`. With A = tx8_hw_batch_align_bytes(hw), imm holds, each part rounded up to a multiple of A: for fp16/bf16
 * only, the fp32 work tensor (4*R*L bytes); for R > 1 only, the broadcast rows (4*R*L bytes); always the fp32
 * per-row values (4*R bytes). 0 when hw, param, in or in->shape is NULL, or in is not dim 2..4 with extents >= 1
 * and at most 2^30 elements. */
uint64_t op_softmax_imm_size(const tx8_hw_config *hw, const SOFTMAX_PARAM *param, const TSR *in);
uint64_t op_softmax(SOFTMAX_PARAM *param, TSR *in, TSR *imm, TSR *out);

/* ---- op_layernorm on the CT: layer normalisation (or RMS normalisation) of each row of a compact row-major tensor of
 * dim 2..4 viewed as [R][n] (n = the last dim, R = the product of the others; a caller normalising several trailing
 * dims merges them into the last one first). in/out: same shape and format, fp32 / fp16 / bf16; out may be in itself
 * (in place) but may not overlap it otherwise. scale (and bias, or NULL) hold n elements of in's format, compact, in
 * any dim count 1..4 (only their element count matters). With every statistic in fp32, each step one CT instruction
 * over the whole tensor, rounded to nearest even (x converted to fp32 first for fp16 / bf16: exact):
 *   layer (rms == 0):  m[r] = fp32(sum_i x / n)          d = fp32(x - m[r])
 *   rms   (rms == 1):  d = x (no mean)
 *   v[r] = fp32(fp32(sum_i fp32(d * d)) / n)   sums in double in ascending i, rounded once; / n is fp32(n)
 *   q[r] = fp32(1 / sqrt(fp32(v[r] + epsilon)))   (rsqrt: one rounding)
 *   t    = fp32(d * q[r]),  y = fp32(t * scale[i] + bias[i]) (one fused rounding; no bias: fp32(t * scale[i])),
 *   then rounded to out's format.
 * So, with u = 2^-24 and s = sqrt(v + epsilon), |y - y_exact| <= |scale| * (4u (|x| + |m|) / s + 8u |d / s|) +
 * 2u |bias| before the final rounding (half an ulp of out's format more); the first term is the cancellation of
 * x - m, which no fp32 algorithm avoids. The row values m, q reach each element through V_VuV with a 1-element unit
 * (R == 1) or a TDMA broadcast into imm (R > 1), as in op_softmax; scale and bias through V_VuV with an n-element
 * unit. epsilon must be finite and >= 0. imm: op_layernorm_imm_size() bytes of SPM, an int8 [bytes] tensor,
 * overlapping none of the others. Every tensor lies in SPM. ---- */
typedef struct LAYERNORM_PARAM {
    LAYOUT_MODE layout; /* of in and out: LAYOUT_TENSOR (dim 0 == 1) or LAYOUT_NTENSOR (Cx would pad the rows) */
    int32_t rms;        /* 0: layer normalisation (subtract the mean); 1: RMS normalisation (no mean) */
    float epsilon;      /* added to the variance (the mean square for rms) before the square root */
} LAYERNORM_PARAM;

/* Bytes of SPM scratch (imm) op_layernorm needs for in's shape_real (viewed as [R][n]) and format on the hardware
 * `hw`. With A = tx8_hw_batch_align_bytes(hw), imm holds, each part rounded up to a multiple of A: for fp16/bf16
 * only, the fp32 work tensor (4*R*n bytes); always the fp32 squares / broadcast rows (4*R*n bytes) and the fp32
 * per-row values (4*R bytes); for fp16/bf16 only, scale and bias in fp32 (4*n bytes each). 0 when hw, param, in or
 * in->shape is NULL, or in is not dim 2..4 with extents >= 1 and at most 2^30 elements. */
uint64_t op_layernorm_imm_size(const tx8_hw_config *hw, const LAYERNORM_PARAM *param, const TSR *in);
uint64_t op_layernorm(LAYERNORM_PARAM *param, TSR *in, TSR *scale, TSR *bias, TSR *imm, TSR *out);

/* ---- op_gather_rows on the RDMA: an embedding lookup (ONNX Gather along axis 0 of a 2-D table), the table left
 * in DDR and only the rows the indices pick moved into SPM.
 *   table: [rows][width] (dim 2, shape_real), compact row-major, fp32 / fp16 / bf16, in DDR: addr is a DDR byte
 *          address and all rows * width elements lie inside hw->ddr_bytes.
 *   index: int32, any dim 1..MAX_SHAPE_DIM, compact in SPM; its count = the product of its shape_real (>= 1)
 *          indices are read in row-major order. Index i must lie in [-rows, rows); a negative one counts from the
 *          end (i + rows), as ONNX Gather's. An index outside that range is a fault ("op_gather_rows: index[k] =
 *          i is outside [-rows, rows)"), found before the first row moves: every index is read and checked first.
 *   out:   [count][width] (dim 2), table's format, compact in SPM, clear of index.
 * out row k = table row wrap(index[k]), bit for bit: one RDMA box of width * element bytes per index (repeated
 * indices load their row again). The indices are read by the kernel core (no engine instruction, no cycles);
 * returns the summed RDMA cycles: per row ddr_latency_cycles + ceil(roundup(width * bytes, ddr_burst_bytes) /
 * min(lsu_bytes_per_cycle, ddr_bytes_per_cycle)) (cm_cycles.h). No scratch. ---- */
typedef struct GATHER_ROWS_PARAM {
    LAYOUT_MODE layout; /* of index and out: LAYOUT_TENSOR or LAYOUT_NTENSOR (compact rows; the same bytes here) */
} GATHER_ROWS_PARAM;
uint64_t op_gather_rows(GATHER_ROWS_PARAM *param, TSR *table, TSR *index, TSR *out);

/* ---- 2-D pooling on the CT: in [N][H][W][C] -> out [N][OH][OW][C] (dim 4, shape_real), fp32 / fp16 / bf16, same
 * format, in any layout (Tensor/NTensor: compact NHWC, one instruction; Cx/NCx: per batch one instruction for the
 * C <= 32 image, or one for the 64-channel blocks and one for the C0 block, unless the batches happen to be
 * contiguous; channel padding lanes are pooled like channels, harmlessly). No scratch;
 * in and out may not overlap. Window of output (oh, ow): taps (oh*stride_h - pad_top + kh*dilation_h,
 * ow*stride_w - pad_left + kw*dilation_w); taps outside the input are padding (ONNX): never part of a max, and in
 * an average they count in the divisor only with count_include_pad and only inside the explicit pads.
 *   maxpool  exact. A window with no tap inside the input gives -inf.
 *   avgpool  taps inside the input summed in double (kh-major, then kw), divided in double by the count, rounded
 *            once to out's format (nearest even). A count of 0 gives NaN.
 * OH must be floor((H + pad_top + pad_bottom - (kernel_h-1)*dilation_h - 1) / stride_h) + 1, or the ceil_mode
 * value (ceil instead of floor, minus one if that last window would start at or past H + pad_top: the ONNX /
 * PyTorch rule); the ceil_mode window may run past the bottom pad, and that overhang is padding. OW likewise. ---- */
typedef struct POOL_PARAM {
    LAYOUT_MODE layout;               /* of in and out */
    uint32_t kernel_h, kernel_w;      /* elements, 1..65535 */
    uint32_t stride_h, stride_w;      /* elements, 1..65535 */
    uint32_t dilation_h, dilation_w;  /* elements, 1..65535 */
    int32_t pad_top, pad_left;        /* elements, 0..65535 */
    int32_t pad_bottom, pad_right;
    uint32_t count_include_pad;       /* avgpool: 0 or 1 (maxpool ignores it) */
} POOL_PARAM;

uint64_t op_maxpool(POOL_PARAM *param, TSR *in, TSR *out);
uint64_t op_avgpool(POOL_PARAM *param, TSR *in, TSR *out);

/* ---- op_global_avgpool: out[n][0][0][c] = mean over (h, w) of in[n][h][w][c]; in [N][H][W][C] -> out
 * [N][1][1][C], H and W 1..65535; otherwise as op_avgpool (one POOL_AVG over the whole H x W window: summed in
 * double in (h, w) order, divided by H*W, rounded once). ---- */
typedef struct GLOBAL_POOL_PARAM {
    LAYOUT_MODE layout; /* of in and out */
} GLOBAL_POOL_PARAM;

uint64_t op_global_avgpool(GLOBAL_POOL_PARAM *param, TSR *in, TSR *out);

/* ---- Booleans and comparisons on the CT. A boolean tensor is Fmt_INT8 holding 0 or 1 (numpy's bool bytes).
 * Tensors are dim 2..4 of shape_real, in param->layout; a NULL pointer, a wrong format, a shape that does not fit,
 * a bad layout or kind is a fault naming the op and the argument, and nothing is written. Cycles: the CT's
 * (tx8/cm_cycles.h); a compare or select runs at the lanes of its wider format. ---- */

/* op_compare: out = (a kind b) as 0/1, exact; a and b of one format (fp32, fp16, bf16, int8 or int32), out
 * Fmt_INT8. Every comparison with a NaN is false except NE (IEEE; NE of NaN is true). Shapes broadcast as op_add's:
 * equal shapes in any layout, one CT compare per chunk over the image (or over the stretches a's and out's images
 * share, where their element sizes give them different Cx blocks or batch padding: per batch, or per 64-channel
 * run); otherwise numpy broadcasting at equal dim counts in a compact layout (Tensor/NTensor), the instructions of
 * eltwise_binary (oplib/src/ops/eltwise_common.h), a broadcast a swapped to the unit side with LT <-> GT and
 * LE <-> GE mirrored. out may be a itself only when a is int8 (same element size); never a broadcast operand. */
typedef enum COMPARE_KIND { COMPARE_EQ, COMPARE_NE, COMPARE_LT, COMPARE_LE, COMPARE_GT, COMPARE_GE } COMPARE_KIND;
typedef struct COMPARE_PARAM {
    LAYOUT_MODE layout;
    COMPARE_KIND kind;
} COMPARE_PARAM;
uint64_t op_compare(COMPARE_PARAM *param, TSR *a, TSR *b, TSR *out);

/* op_logical: out = a kind b on Fmt_INT8 booleans (a, b, out), broadcasting as op_add: AND is the CT's min, OR its
 * max, XOR its int8 -> int8 compare NE; one CT instruction per chunk or broadcast run. On other int8 values the
 * same instructions give min(a, b), max(a, b) and a != b. */
typedef enum LOGICAL_KIND { LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR } LOGICAL_KIND;
typedef struct LOGICAL_PARAM {
    LAYOUT_MODE layout;
    LOGICAL_KIND kind;
} LOGICAL_PARAM;
uint64_t op_logical(LOGICAL_PARAM *param, TSR *a, TSR *b, TSR *out);

/* op_not: out = (in == 0) on Fmt_INT8 booleans of one shape, any layout: one CT compare EQ against the scalar 0 per
 * chunk over the image (param->rnd is checked but nothing rounds). out may be in itself. */
uint64_t op_not(ELTWISE_PARAM *param, TSR *in, TSR *out);

/* op_where: out = cond != 0 ? x : y elementwise, the chosen element copied bit for bit. cond Fmt_INT8; x, y and out
 * one format (fp32, fp16, bf16, int8 or int32); all four the same shape (no broadcasting), any layout. One CT
 * select per chunk over the image, or over the stretches cond's and x's images share (as op_compare's). out may
 * be x or y itself (cond too when the data is int8); any other overlap with an input is a fault. */
typedef struct WHERE_PARAM {
    LAYOUT_MODE layout;
} WHERE_PARAM;
uint64_t op_where(WHERE_PARAM *param, TSR *cond, TSR *x, TSR *y, TSR *out);

/* ---- Double-buffered forms: DDR -> SPM -> DDR streaming of one shard on the current tile ----
 * The tensors are DDR TSRs: shape_whole is the whole tensor, shape_start / shape_real the box this call covers
 * (the caller's shard, as op_loadVar / op_dma_store read them). The op uses the SPM workspace [spm_base, spm_base +
 * spm_bytes) and nothing else; it cuts its shard into slices that fit, and for slice i issues the load (RDMA) of
 * slice i+1 before the compute of slice i and the store (WDMA) of slice i after it, with ping-pong input and output
 * buffers, so loads, compute and stores overlap on their engines (tx8/hal.h, asynchronous issue). The compute is
 * the plain op, executed synchronously; every hazard between the asynchronous transfers and the buffers they share
 * is expressed with a wait or a dep (oplib/src/ops/db_common.h), and the op returns once its last store is done.
 * A plan of fewer than 4 slices is cut finer when the shard allows, so that the first load and the last store are
 * not all that overlaps. The result is bit-identical to the plain op on the whole shard in SPM. The output must
 * not share DDR bytes with an input. Returns the tile's cycles from the call to the last store's completion, or TX8_CYCLES_INVALID after a
 * fault naming the op (bad arguments, checked before the first instruction; or a workspace too small for the
 * smallest slice: the message gives both sizes). */

/* op_batchnorm_inference on in's box -> out's box (same extents), both in param->layout, fp32 / fp16 / bf16,
 * dim 2..4. Cx / NCx boxes keep the whole C. scale / shift / mean / var: fp32 1x..xC vectors over in's whole C in
 * DDR, loaded once: compact layouts read the entries of in's channel box; Cx / NCx read the layout's c_lanes floats
 * (the Cx image of [1, C] with its padding lanes, which feed out's padding lanes as in op_batchnorm_inference).
 * Slices: as many batches as fit, else runs of dim 1 (H) of one batch. Bit-identical to op_batchnorm_inference
 * (folded: op_batchnorm_inference_folded) on the whole box. */
typedef struct BATCHNORM_DB_PARAM {
    LAYOUT_MODE layout; /* of in and out (DDR) and of the SPM slices */
    float epsilon;
    uint32_t folded;    /* 1: compute with op_batchnorm_inference_folded, in place (half the buffers) */
} BATCHNORM_DB_PARAM;
uint64_t op_batchnorm_inference_db(BATCHNORM_DB_PARAM *param, TSR *in, TSR *scale, TSR *shift, TSR *mean, TSR *var,
                                   TSR *out, uint64_t spm_base, uint64_t spm_bytes);

/* op_gemm: c[M,N] (+)= a[M,K] x b[K,N] (+ bias[N]) (relu) over the boxes a [M,K], b [K,N], c [M,N], bias [N] or
 * [1,N] (compact row-major DDR tensors). a, b: fp32 / tf32 / bf16 / fp16 / int8; bias fp32 (int32 for int8); c in
 * the accumulator's format (fp32, int32 for int8) or in a's format, then each finished block is converted by one CT
 * convert (round to nearest even; int8 saturates) before its store. Output blocks of at most max_m x max_n,
 * streaming K in chunks of at most max_k that accumulate in ascending k into the block's fp32 / int32 accumulator. */
typedef struct GEMM_DB_PARAM {
    uint32_t accumulate;            /* 1: c += a x b (c in the accumulator's format) */
    uint32_t relu_en;               /* 1: max(c, 0) after the bias */
    uint32_t max_m, max_n, max_k;   /* bounds on the blocks and K chunks (elements); 0: as the workspace allows */
} GEMM_DB_PARAM;
uint64_t op_gemm_db(GEMM_DB_PARAM *param, TSR *a, TSR *b, TSR *bias /* NULL: none */, TSR *c, uint64_t spm_base,
                    uint64_t spm_bytes);

/* op_conv (param->conv as op_conv's; accumulate: out += conv) over out's box [n, oh, ow, o] (rank 3: [n, ow, o])
 * of the whole output [N, OH, OW, O]; in, weight, bias: the whole tensors (their boxes are ignored), compact NHWC
 * in DDR. out in the accumulator's format (fp32, int32 for int8) or in in's format (one CT convert per slice). The
 * box's channels must cover whole groups. Weight columns and bias entries of the box are loaded once; the output
 * is streamed in slices of whole images, else of output rows (at most max_rows), each reading its input row band
 * with its halo; pads are the slice's clipped rows (op_conv's padding). When the box's weight columns would take
 * more than half the workspace, the box is done in passes over parts of its output channels (whole groups), the
 * input streamed once per pass. Output rows or columns whose windows miss the input entirely (pads larger than the
 * dilated kernel) are refused. */
typedef struct CONV_DB_PARAM {
    CONV_PARAM conv;
    uint32_t max_rows; /* bound on the output rows of a slice; 0: as the workspace allows */
} CONV_DB_PARAM;
uint64_t op_conv_db(CONV_DB_PARAM *param, TSR *in, TSR *weight, TSR *bias /* NULL: none */, TSR *out,
                    uint64_t spm_base, uint64_t spm_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TX8_OPS_H */

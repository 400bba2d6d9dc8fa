/*
 * The argument contracts of the OpLib kernels, as pure functions (library tx8_oplib_plan: no HAL call, no chip
 * state, no hidden globals). Each kernel calls its check before its first instruction and faults with the reason
 * the check gives (tx8_hal_fault("%s", why)); the compiler calls the same functions with the TSRs and *_PARAMs a
 * generated main.c will pass, at every step of every tile, and refuses a plan that breaks one. One source for
 * both sides: what a kernel would fault on before touching memory is exactly what its check rejects.
 *
 * Every check has the form
 *   int tx8_check_<kernel>(const tx8_hw_config *hw, const <PARAM> *param, <the kernel's TSRs>, char *why,
 *                          size_t why_size);
 * with the kernel's own arguments in the kernel's order (const here). It returns 0 when the kernel would accept
 * the call; otherwise -1, with the one-line reason the kernel faults with written into why (at most why_size
 * bytes, NUL-terminated; nothing is written when why is NULL or why_size is 0). TX8_CHECK_WHY_BYTES holds any
 * reason in full. hw is the chip the call runs on (the firmware passes tx8_hal_config(), the compiler the config
 * it compiles for): it gives spm_bytes and the batch alignment. The reasons name the kernel first
 * ("op_mul: b->shape->shape_real[2] = 24, out->shape->shape_real[2] = 4; must be equal or 1 (broadcast)").
 *
 * Units: TSR addresses are SPM byte addresses (every range check is in bytes against hw->spm_bytes); shapes
 * (L_SHAPE shape_real), PARAM extents, starts, steps, pads, strides, dilations and kernel sizes are in elements;
 * an imm TSR is an Fmt_INT8 [bytes] buffer, its one extent in bytes. What each kernel checks is documented with
 * it (tx8/ops.h, tx8/lsu.h); the checks here are those, in the kernel's order, so the first broken rule is the
 * one reported.
 *
 * Only a call's arguments are checked: what the engines themselves fault on while running (an instruction
 * reaching outside SPM where a kernel does not check its ranges first) is not a contract of the kernel and is not
 * predicted here.
 */
#ifndef TX8_CHECK_H
#define TX8_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "tx8/hw_config.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a why buffer that holds every reason whole (the HAL's fault message buffer). */
#define TX8_CHECK_WHY_BYTES 320

/* ---- elementwise, binary with numpy broadcasting (op_add ... op_logical; eltwise_common.h's rules): equal shapes
 * in any layout, or broadcasting at equal dim counts (2..4) in a compact layout; operand formats per kernel
 * (tx8/ops.h); for a broadcast or a change of element size, out may not overlap a or b and every tensor lies in
 * SPM ---- */
int tx8_check_add(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_sub(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_mul(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_div(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_max(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_min(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_pow(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_mod(const tx8_hw_config *hw, const MOD_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size);
int tx8_check_compare(const tx8_hw_config *hw, const COMPARE_PARAM *param, const TSR *a, const TSR *b,
                      const TSR *out, char *why, size_t why_size);
int tx8_check_logical(const tx8_hw_config *hw, const LOGICAL_PARAM *param, const TSR *a, const TSR *b,
                      const TSR *out, char *why, size_t why_size);

/* ---- elementwise, unary: in and out of one shape (dim 2..4) valid in param->layout, one format (the floats;
 * op_abs and op_neg also int8 / int32; op_not int8 booleans) ---- */
int tx8_check_relu(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                   size_t why_size);
int tx8_check_abs(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                  size_t why_size);
int tx8_check_neg(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                  size_t why_size);
int tx8_check_exp(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                  size_t why_size);
int tx8_check_sqrt(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                   size_t why_size);
int tx8_check_reciprocal(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out,
                         char *why, size_t why_size);
int tx8_check_sigmoid(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                      size_t why_size);
int tx8_check_tanh(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                   size_t why_size);
int tx8_check_not(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                  size_t why_size);
int tx8_check_unary(const tx8_hw_config *hw, const UNARY_PARAM *param, const TSR *in, const TSR *out, char *why,
                    size_t why_size);
int tx8_check_leaky_relu(const tx8_hw_config *hw, const LEAKY_RELU_PARAM *param, const TSR *in, const TSR *out,
                         char *why, size_t why_size);
int tx8_check_clip(const tx8_hw_config *hw, const CLIP_PARAM *param, const TSR *in, const TSR *out, char *why,
                   size_t why_size);
int tx8_check_hard_sigmoid(const tx8_hw_config *hw, const HARD_SIGMOID_PARAM *param, const TSR *in, const TSR *out,
                           char *why, size_t why_size);
/* op_cast: also both images in SPM (bytes of the layout image) and out clear of in unless it is in itself with the
 * same element size. */
int tx8_check_cast(const tx8_hw_config *hw, const CAST_PARAM *param, const TSR *in, const TSR *out, char *why,
                   size_t why_size);
/* op_where: cond int8; x, y, out one format; one shape; every image in SPM, out clear of the inputs unless it is
 * one of them with the same element size. */
int tx8_check_where(const tx8_hw_config *hw, const WHERE_PARAM *param, const TSR *cond, const TSR *x, const TSR *y,
                    const TSR *out, char *why, size_t why_size);

/* op_quantize_linear / op_dequantize_linear: the formats and shapes of tx8/ops.h; imm an int8 [bytes] buffer of at
 * least the *_imm_size bytes; every tensor in SPM, none overlapping another. */
int tx8_check_quantize_linear(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x, const TSR *scale,
                              const TSR *zero_point, const TSR *imm, const TSR *out, char *why, size_t why_size);
int tx8_check_dequantize_linear(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x, const TSR *scale,
                                const TSR *zero_point, const TSR *imm, const TSR *out, char *why, size_t why_size);

/* ---- reductions, normalisation, pooling (CT) ---- */
/* op_reduce: in [A][R][B], out [A][1][B] (elements), fp32/fp16/bf16 alike; both in SPM (compact bytes), apart. */
int tx8_check_reduce(const tx8_hw_config *hw, const REDUCE_PARAM *param, const TSR *in, const TSR *out, char *why,
                     size_t why_size);
/* op_layernorm: scale (and bias unless NULL) n elements of in's format; imm an int8 [bytes] buffer of at least
 * op_layernorm_imm_size(hw, param, in) bytes. */
int tx8_check_layernorm(const tx8_hw_config *hw, const LAYERNORM_PARAM *param, const TSR *in, const TSR *scale,
                        const TSR *bias, const TSR *imm, const TSR *out, char *why, size_t why_size);
/* op_softmax: imm an int8 [bytes] buffer of at least op_softmax_imm_size(hw, param, in) bytes. */
int tx8_check_softmax(const tx8_hw_config *hw, const SOFTMAX_PARAM *param, const TSR *in, const TSR *imm,
                      const TSR *out, char *why, size_t why_size);
/* op_maxpool / op_avgpool: [N][H][W][C] -> [N][OH][OW][C]; the window (elements) against the extents; both
 * layout images in SPM and apart. */
int tx8_check_maxpool(const tx8_hw_config *hw, const POOL_PARAM *param, const TSR *in, const TSR *out, char *why,
                      size_t why_size);
int tx8_check_avgpool(const tx8_hw_config *hw, const POOL_PARAM *param, const TSR *in, const TSR *out, char *why,
                      size_t why_size);
int tx8_check_global_avgpool(const tx8_hw_config *hw, const GLOBAL_POOL_PARAM *param, const TSR *in,
                             const TSR *out, char *why, size_t why_size);
/* op_batchnorm_inference: imm an int8 [bytes] buffer of at least op_batchnorm_inference_imm_size bytes. */
int tx8_check_batchnorm_inference(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in,
                                  const TSR *scale, const TSR *shift, const TSR *mean, const TSR *var,
                                  const TSR *imm, const TSR *out, char *why, size_t why_size);

/* ---- NE ---- */
/* op_gemm: a [..., M,K], b [..., K,N], out [..., M,N] of one dim count (2 to MAX_SHAPE_DIM), each batch dim of a and
 * b out's or 1; bias NULL or [N] / [1,N] (elements); formats as tx8/ops.h says. */
int tx8_check_gemm(const tx8_hw_config *hw, const GEMM_PARAM *param, const TSR *a, const TSR *b, const TSR *bias,
                   const TSR *out, char *why, size_t why_size);
/* op_attention: shapes, formats and param as tx8/ops.h says; imm an int8 [bytes] buffer of at least
 * op_attention_imm_size bytes; every tensor in SPM (compact bytes), imm clear of all, out clear of the inputs. */
int tx8_check_attention(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                        const TSR *v, const TSR *mask, const TSR *imm, const TSR *out, char *why, size_t why_size);
/* op_conv: shapes, formats, strides / dilations / pads (elements), groups; every tensor in SPM (compact bytes), out
 * clear of in, weight and bias. */
int tx8_check_conv(const tx8_hw_config *hw, const CONV_PARAM *param, const TSR *in, const TSR *weight,
                   const TSR *bias, const TSR *out, char *why, size_t why_size);

/* ---- RDMA gathers ---- */
/* op_gather_rows: param->layout compact; table dim 2, fp32/fp16/bf16, its rows * width elements inside DDR
 * (table->addr is a DDR address; sizes overflow-checked); index int32 of dim 1..MAX_SHAPE_DIM with >= 1 element,
 * out dim 2 [count][width] in table's format, both in SPM (compact bytes) and disjoint; a row's bytes fit one RDMA
 * run. The index values are data, not arguments: the kernel checks them when it reads them. */
int tx8_check_gather_rows(const tx8_hw_config *hw, const GATHER_ROWS_PARAM *param, const TSR *table, const TSR *index,
                          const TSR *out, char *why, size_t why_size);

/* ---- TDMA data movement (compact tensors, dim 1..6; both in SPM, disjoint) ---- */
int tx8_check_permute(const tx8_hw_config *hw, const PERMUTE_PARAM *param, const TSR *in, const TSR *out, char *why,
                      size_t why_size);
int tx8_check_slice(const tx8_hw_config *hw, const SLICE_PARAM *param, const TSR *in, const TSR *out, char *why,
                    size_t why_size);
int tx8_check_pad(const tx8_hw_config *hw, const PAD_PARAM *param, const TSR *in, const TSR *out, char *why,
                  size_t why_size);
/* op_concat: in[0 .. param->count) (in may be NULL: a fault). */
int tx8_check_concat(const tx8_hw_config *hw, const CONCAT_PARAM *param, const TSR *const *in, const TSR *out,
                     char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* TX8_CHECK_H */

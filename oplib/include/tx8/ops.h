/*
 * OpLib operators. Every op takes a *_PARAM, its input TSRs (SPM tensors of the current tile), an `imm` scratch
 * TSR where it needs one, and its outputs; it returns the cycles it spent, or TX8_CYCLES_INVALID after reporting
 * a fault (bad shape, dtype or layout; the message names the op and the argument).
 */
#ifndef TX8_OPS_H
#define TX8_OPS_H

#include <stdint.h>

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

uint64_t op_batchnorm_inference_imm_size(const BATCHNORM_INFER_PARAM *param, const TSR *in);
uint64_t op_batchnorm_inference(BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift, TSR *mean, TSR *var,
                                TSR *imm, TSR *out);

/* ---- op_gemm on the NE: out[M][N] = a[M][K] x b[K][N] (+ bias[N]) (relu), compact row-major (Tensor layout).
 * a, b: fp32 / tf32 / bf16 / fp16 / int8 (same format); out (and bias): fp32, or int32 for int8. ---- */
typedef struct GEMM_PARAM {
    uint32_t accumulate; /* 1: out += a x b */
    uint32_t relu_en;    /* 1: max(out, 0) after the bias */
} GEMM_PARAM;

uint64_t op_gemm(GEMM_PARAM *param, TSR *a, TSR *b, TSR *bias /* NULL: none */, TSR *out);

/* ---- elementwise on the CT: same shape and layout for all tensors; fp32 / fp16 / bf16 ---- */
typedef struct ELTWISE_PARAM {
    LAYOUT_MODE layout;
    RND_MODE rnd;
} ELTWISE_PARAM;

uint64_t op_add(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_mul(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);
uint64_t op_relu(ELTWISE_PARAM *param, TSR *in, TSR *out);

#ifdef __cplusplus
}
#endif

#endif /* TX8_OPS_H */

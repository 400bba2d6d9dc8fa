/*
 * NE (neural engine) instruction wrappers. Each wrapper only fills *p (inter_type I_NEUR); issue it with
 * TsmExecute(p). Addresses are SPM byte addresses; m, n, k, the leading dimensions and all conv counts and pitches
 * are elements. Semantics and numerics: tx8/isa.h (TsmNeInstr) and cmodel/src/ne/ne_gemm.c, ne_conv.c.
 */
#ifndef TX8_NE_H
#define TX8_NE_H

#include <stdint.h>

#include "tx8/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest m, n, k op_gemm puts into one NE instruction (elements). The engine itself takes any 32-bit sizes that
 * fit in SPM; op_gemm tiles bigger problems so that one instruction stays a bounded unit of work and splitting K
 * stays bit-exact (partial sums are parked in the fp32/int32 output). */
#define TSM_NE_GEMM_MAX_M 4096u
#define TSM_NE_GEMM_MAX_N 4096u
#define TSM_NE_GEMM_MAX_K 4096u

/* out[m][n] (+)= a[m][k] x b[k][n] (+ bias[n]) (relu).
 *   a, b, bias, out  SPM byte addresses (bias ignored unless bias_en)
 *   lda, ldb, ldc    row pitch in elements of a (>= k), b (>= n), out (>= n)
 *   in_fmt           fp32 / tf32 / bf16 / fp16 / int8; out_fmt fp32 (float inputs) or int32 (int8)
 *   accumulate       1: start from out's current value; bias_en / relu_en: 0 or 1 */
void TsmNe_gemm(TsmNeInstr *p, uint64_t a, uint64_t b, uint64_t bias, uint64_t out, uint32_t m, uint32_t n,
                uint32_t k, uint32_t lda, uint32_t ldb, uint32_t ldc, Data_Format in_fmt, Data_Format out_fmt,
                uint32_t accumulate, uint32_t bias_en, uint32_t relu_en);

/* Largest implicit-GEMM sizes op_conv puts into one NE conv instruction: M = output pixels (batch*out_h*out_w),
 * N = output channels, K = kernel taps x input channels of one group. The same bounds as gemm, for the same
 * reasons; K is only ever split at tap or channel boundaries in ascending k, so the tiles stay bit-exact. */
#define TSM_NE_CONV_MAX_M TSM_NE_GEMM_MAX_M
#define TSM_NE_CONV_MAX_N TSM_NE_GEMM_MAX_N
#define TSM_NE_CONV_MAX_K TSM_NE_GEMM_MAX_K

/* Convolution (NE_OP_CONV), see tx8/isa.h for the exact semantics:
 *   in, weight, bias, out  SPM byte addresses (bias ignored unless bias_en)
 *   geom                   extents, groups, kernel, strides, dilations, signed top/left pads and pitches (elements);
 *                          copied into p->conv
 *   in_fmt                 fp32 / tf32 / bf16 / fp16 / int8 (in and weight); out_fmt fp32 (floats) or int32 (int8)
 *   accumulate             1: start from out's current value; bias_en / relu_en: 0 or 1 */
void TsmNe_conv(TsmNeInstr *p, uint64_t in, uint64_t weight, uint64_t bias, uint64_t out,
                const Ncc_NE_GR_Conv_Regs *geom, Data_Format in_fmt, Data_Format out_fmt, uint32_t accumulate,
                uint32_t bias_en, uint32_t relu_en);

/* Sets g's pitches for compact tensors of its extents: in [batch][in_h][in_w][in_c], out [..][out_c] and weight
 * [kernel_h][kernel_w][in_c/groups][out_c]. Needs groups != 0. */
void TsmNe_conv_compact_pitches(Ncc_NE_GR_Conv_Regs *g);

#ifdef __cplusplus
}
#endif

#endif /* TX8_NE_H */

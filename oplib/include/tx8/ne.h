/*
 * NE (neural engine) instruction wrappers. Each wrapper only fills *p (inter_type I_NEUR); issue it with
 * TsmExecute(p). Addresses are SPM byte addresses; m, n, k and the leading dimensions are elements.
 * Semantics and numerics: tx8/isa.h (TsmNeInstr) and cmodel/src/ne/ne_gemm.c.
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

#ifdef __cplusplus
}
#endif

#endif /* TX8_NE_H */

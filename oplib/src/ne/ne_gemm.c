/* NE wrappers: fill a TsmNeInstr (see tx8/ne.h). */
#include "ne_instr.h"

void TsmNe_gemm(TsmNeInstr *p, uint64_t a, uint64_t b, uint64_t bias, uint64_t out, uint32_t m, uint32_t n,
                uint32_t k, uint32_t lda, uint32_t ldb, uint32_t ldc, Data_Format in_fmt, Data_Format out_fmt,
                uint32_t accumulate, uint32_t bias_en, uint32_t relu_en) {
    ne_instr_init(p, NE_OP_GEMM, a, b, bias, out, in_fmt, out_fmt, accumulate, bias_en, relu_en);
    p->param.m = m, p->param.n = n, p->param.k = k;
    p->param.lda = lda, p->param.ldb = ldb, p->param.ldc = ldc;
}

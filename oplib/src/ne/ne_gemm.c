/* NE wrappers: fill a TsmNeInstr (see tx8/ne.h). */
#include <string.h>

#include "tx8/ne.h"

void TsmNe_gemm(TsmNeInstr *p, uint64_t a, uint64_t b, uint64_t bias, uint64_t out, uint32_t m, uint32_t n,
                uint32_t k, uint32_t lda, uint32_t ldb, uint32_t ldc, Data_Format in_fmt, Data_Format out_fmt,
                uint32_t accumulate, uint32_t bias_en, uint32_t relu_en) {
    memset(p, 0, sizeof(*p));
    p->inter_type = I_NEUR;
    p->ctrl.opcode = NE_OP_GEMM;
    p->ctrl.in_fmt = (uint32_t)in_fmt;
    p->ctrl.out_fmt = (uint32_t)out_fmt;
    p->ctrl.accumulate = accumulate;
    p->ctrl.bias_en = bias_en;
    p->ctrl.relu_en = relu_en;
    p->param.a_addr = a;
    p->param.b_addr = b;
    p->param.bias_addr = bias;
    p->param.out_addr = out;
    p->param.m = m, p->param.n = n, p->param.k = k;
    p->param.lda = lda, p->param.ldb = ldb, p->param.ldc = ldc;
}

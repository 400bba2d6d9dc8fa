/*
 * CGRATensor_ArithOp_V_V_{abs,neg} and CGRATensor_TranscOp_V_V_* wrappers: unary ops, CT format V
 * (dst[i] = f(src[i]), elem_num elements). Each only fills *p.
 */
#include "cgra_fill.h"

void CGRATensor_ArithOp_V_V_abs(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ABS, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_neg(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_NEG, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_rsqrt(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_RSQRT, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_sqrt(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SQRT, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_exp(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_EXP, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_reciprocal(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_RECIPROCAL, src, dst, elem_num, rnd, fmt);
}

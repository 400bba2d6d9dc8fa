/*
 * CGRATensor_ActOp_V_V_* wrappers: activations, CT format V (dst[i] = f(src[i])). leaky_relu passes alpha as fp32
 * bits in the scalar register. Each only fills *p.
 */
#include <string.h>

#include "cgra_fill.h"

void CGRATensor_ActOp_V_V_relu(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_RELU, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_leaky_relu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_LEAKY_RELU, src, dst, elem_num, rnd, fmt);
    memcpy(&p->param.scalar, &alpha, sizeof alpha);
}
void CGRATensor_ActOp_V_V_sigmoid(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SIGMOID, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_tanh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_TANH, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_gelu(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_GELU, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_silu(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SILU, src, dst, elem_num, rnd, fmt);
}

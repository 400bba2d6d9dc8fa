/*
 * CGRATensor_ActOp_V_V_* wrappers: activations, CT format V (dst[i] = f(src[i])). leaky_relu, elu, celu, selu,
 * thresholded_relu and shrink pass their parameters as fp32 bits in the scalar (and scalar1) registers. Each only
 * fills *p.
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

/* ---- appended, float formats only; the parameters go as fp32 bits in scalar (alpha, lambd) and scalar1 (gamma,
 * bias) ---- */
static void set_params(CT_Param *p, float a, float b) {
    memcpy(&p->param.scalar, &a, sizeof a);
    memcpy(&p->param.scalar1, &b, sizeof b);
}
void CGRATensor_ActOp_V_V_gelu_erf(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt) {
    cgra_unary_v(p, CT_OP_GELU_ERF, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_softplus(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SOFTPLUS, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_softsign(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SOFTSIGN, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_elu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num, RND_MODE rnd,
                              Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ELU, src, dst, elem_num, rnd, fmt);
    set_params(p, alpha, 0.0f);
}
void CGRATensor_ActOp_V_V_celu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num, RND_MODE rnd,
                               Data_Format fmt) {
    cgra_unary_v(p, CT_OP_CELU, src, dst, elem_num, rnd, fmt);
    set_params(p, alpha, 0.0f);
}
void CGRATensor_ActOp_V_V_selu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, float gamma, uint32_t elem_num,
                               RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SELU, src, dst, elem_num, rnd, fmt);
    set_params(p, alpha, gamma);
}
void CGRATensor_ActOp_V_V_thresholded_relu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num,
                                           RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_THRESHOLDED_RELU, src, dst, elem_num, rnd, fmt);
    set_params(p, alpha, 0.0f);
}
void CGRATensor_ActOp_V_V_shrink(CT_Param *p, uint64_t src, uint64_t dst, float lambd, float bias, uint32_t elem_num,
                                 RND_MODE rnd, Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SHRINK, src, dst, elem_num, rnd, fmt);
    set_params(p, lambd, bias);
}
void CGRATensor_ActOp_V_V_hard_swish(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                     Data_Format fmt) {
    cgra_unary_v(p, CT_OP_HARD_SWISH, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ActOp_V_V_mish(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                               Data_Format fmt) {
    cgra_unary_v(p, CT_OP_MISH, src, dst, elem_num, rnd, fmt);
}

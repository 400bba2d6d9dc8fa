/*
 * CGRATensor_ArithOp_V_V_{abs,neg,floor,ceil,round,sign} and CGRATensor_TranscOp_V_V_* wrappers: unary ops, CT
 * format V (dst[i] = f(src[i]), elem_num elements). Each only fills *p.
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

/* ---- appended, float formats only: transcendentals (rounded once from the cmodel's portable double routines) ---- */
void CGRATensor_TranscOp_V_V_log(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt) {
    cgra_unary_v(p, CT_OP_LOG, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_erf(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ERF, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_sin(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SIN, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_cos(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt) {
    cgra_unary_v(p, CT_OP_COS, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_tan(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt) {
    cgra_unary_v(p, CT_OP_TAN, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_asin(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ASIN, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_acos(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ACOS, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_atan(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ATAN, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_sinh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SINH, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_cosh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt) {
    cgra_unary_v(p, CT_OP_COSH, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_asinh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ASINH, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_acosh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ACOSH, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_TranscOp_V_V_atanh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ATANH, src, dst, elem_num, rnd, fmt);
}

/* ---- appended, float formats only: exact roundings to an integral value and sign ---- */
void CGRATensor_ArithOp_V_V_floor(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt) {
    cgra_unary_v(p, CT_OP_FLOOR, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_ceil(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt) {
    cgra_unary_v(p, CT_OP_CEIL, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_round(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt) {
    cgra_unary_v(p, CT_OP_ROUND, src, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_sign(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt) {
    cgra_unary_v(p, CT_OP_SIGN, src, dst, elem_num, rnd, fmt);
}

/*
 * CGRATensor_ArithOp_* binary wrappers: V_V, V_S, V_VuV and V_VuV_loop for add sub mul div max min pow mod fmod.
 * Each only fills *p (see tx8/cgra.h, semantics in tx8/isa.h); counts are elements, addresses SPM bytes.
 */
#include "cgra_fill.h"

static void arith_vv(CT_Param *p, CT_OPCODE op, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num,
                     RND_MODE rnd, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_ARITH, CT_FMT_V_V, op, fmt, fmt, rnd);
    cgra_operands_vv(p, src0, src1, dst, elem_num);
}

static void arith_vs(CT_Param *p, CT_OPCODE op, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num,
                     RND_MODE rnd, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_ARITH, CT_FMT_V_S, op, fmt, fmt, rnd);
    cgra_operands_vs(p, src, scalar, dst, elem_num);
}

static void arith_vuv(CT_Param *p, CT_OPCODE op, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                      uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_ARITH, CT_FMT_V_VuV, op, fmt, fmt, rnd);
    p->param.src0_addr = src;
    p->param.src1_addr = unit;
    p->param.dst_addr = dst;
    p->param.src_elem_num = src_elem_num;
    p->param.unit_elem_num = unit_elem_num;
}

static void arith_vuv_loop(CT_Param *p, CT_OPCODE op, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                           uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                           uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv(p, op, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
    p->ctrl.format = CT_FMT_V_VuV_LOOP;
    p->param.full_src_elem_num = full_src_elem_num;
    p->param.full_unit_elem_num = full_unit_elem_num;
}

/* ---- V_V ---- */
void CGRATensor_ArithOp_V_V_add(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_ADD, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_sub(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_SUB, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_mul(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_MUL, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_div(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_DIV, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_max(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_MAX, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_min(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_MIN, src0, src1, dst, elem_num, rnd, fmt);
}

/* ---- V_S ---- */
void CGRATensor_ArithOp_V_S_add(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_ADD, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_sub(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_SUB, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_mul(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_MUL, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_div(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_DIV, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_max(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_MAX, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_min(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_MIN, src, scalar, dst, elem_num, rnd, fmt);
}

/* ---- V_VuV ---- */
void CGRATensor_ArithOp_V_VuV_add(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_ADD, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_sub(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_SUB, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_mul(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_MUL, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_div(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_DIV, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_max(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_MAX, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_min(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_MIN, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}

/* ---- V_VuV_loop ---- */
void CGRATensor_ArithOp_V_VuV_add_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_ADD, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num, full_unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_sub_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_SUB, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num, full_unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_mul_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_MUL, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num, full_unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_div_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_DIV, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num, full_unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_max_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_MAX, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num, full_unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_min_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_MIN, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num, full_unit_elem_num, fmt);
}

/* ---- pow: dst = pow(src0, src1) in the same four formats ---- */
void CGRATensor_ArithOp_V_V_pow(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_POW, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_pow(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_POW, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_VuV_pow(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                  uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_POW, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_pow_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                       uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                       uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_POW, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num,
                   full_unit_elem_num, fmt);
}

/* ---- mod (divisor's sign) and fmod (dividend's sign): the remainder of src0 / src1 in the same four formats ---- */
void CGRATensor_ArithOp_V_V_mod(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_MOD, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_V_fmod(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num,
                                 RND_MODE rnd, Data_Format fmt) {
    arith_vv(p, CT_OP_FMOD, src0, src1, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_mod(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_MOD, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_S_fmod(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num,
                                 RND_MODE rnd, Data_Format fmt) {
    arith_vs(p, CT_OP_FMOD, src, scalar, dst, elem_num, rnd, fmt);
}
void CGRATensor_ArithOp_V_VuV_mod(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                  uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_MOD, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_fmod(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                   uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt) {
    arith_vuv(p, CT_OP_FMOD, src, dst, unit, rnd, src_elem_num, unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_mod_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                       uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                       uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_MOD, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num,
                   full_unit_elem_num, fmt);
}
void CGRATensor_ArithOp_V_VuV_fmod_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                        uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                        uint32_t full_unit_elem_num, Data_Format fmt) {
    arith_vuv_loop(p, CT_OP_FMOD, src, dst, unit, rnd, src_elem_num, unit_elem_num, full_src_elem_num,
                   full_unit_elem_num, fmt);
}

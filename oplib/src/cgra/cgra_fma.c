/*
 * CGRATensor_ArithOp_*_fma: the fused multiply-add dst = src0 * m + a, rounded once (CT_OP_FMA; tx8/isa.h "FMA"),
 * in V_V, V_S, V_VuV and V_VuV_loop. Each only fills *p (see tx8/cgra.h). coef_fmt is the format of the multiplier
 * and addend vectors (ctrl.src_fmt), fmt the format of src and dst (ctrl.dst_fmt).
 */
#include "cgra_fill.h"

void CGRATensor_ArithOp_V_V_fma(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t src2, uint64_t dst,
                                uint32_t elem_num, RND_MODE rnd, Data_Format coef_fmt, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_ARITH, CT_FMT_V_V, CT_OP_FMA, coef_fmt, fmt, rnd);
    cgra_operands_vv(p, src0, src1, dst, elem_num);
    p->param.src2_addr = src2;
}

void CGRATensor_ArithOp_V_S_fma(CT_Param *p, uint64_t src, uint32_t mul_scalar, uint32_t add_scalar, uint64_t dst,
                                uint32_t elem_num, RND_MODE rnd, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_ARITH, CT_FMT_V_S, CT_OP_FMA, fmt, fmt, rnd);
    cgra_operands_vs(p, src, mul_scalar, dst, elem_num);
    p->param.scalar1 = add_scalar;
}

void CGRATensor_ArithOp_V_VuV_fma(CT_Param *p, uint64_t src, uint64_t dst, uint64_t mul_unit, uint64_t add_unit,
                                  RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format coef_fmt,
                                  Data_Format fmt) {
    cgra_fill(p, CT_FUNC_ARITH, CT_FMT_V_VuV, CT_OP_FMA, coef_fmt, fmt, rnd);
    p->param.src0_addr = src;
    p->param.src1_addr = mul_unit;
    p->param.src2_addr = add_unit;
    p->param.dst_addr = dst;
    p->param.src_elem_num = src_elem_num;
    p->param.unit_elem_num = unit_elem_num;
}

void CGRATensor_ArithOp_V_VuV_fma_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t mul_unit,
                                       uint64_t add_unit, RND_MODE rnd, uint32_t src_elem_num,
                                       uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                       uint32_t full_unit_elem_num, Data_Format coef_fmt, Data_Format fmt) {
    CGRATensor_ArithOp_V_VuV_fma(p, src, dst, mul_unit, add_unit, rnd, src_elem_num, unit_elem_num, coef_fmt, fmt);
    p->ctrl.format = CT_FMT_V_VuV_LOOP;
    p->param.full_src_elem_num = full_src_elem_num;
    p->param.full_unit_elem_num = full_unit_elem_num;
}

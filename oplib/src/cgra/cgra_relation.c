/*
 * CGRATensor_RelationOp_* (compare -> 1/0 mask in fmt, or in mask_fmt for the *_to and VuV forms) and
 * CGRATensor_LogicOp_V_V_select{,_mask} wrappers. `cmp` is one of CT_OP_CMP_EQ … CT_OP_CMP_GE (anything else is
 * rejected by the engine). Each only fills *p; the results are exact, so rnd is left at RND_NEAREST_EVEN.
 */
#include "cgra_fill.h"

void CGRATensor_RelationOp_V_V_cmp(CT_Param *p, CT_OPCODE cmp, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, Data_Format fmt) {
    CGRATensor_RelationOp_V_V_cmp_to(p, cmp, src0, src1, dst, elem_num, fmt, fmt);
}

void CGRATensor_RelationOp_V_S_cmp(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, Data_Format fmt) {
    CGRATensor_RelationOp_V_S_cmp_to(p, cmp, src, scalar, dst, elem_num, fmt, fmt);
}

void CGRATensor_RelationOp_V_V_cmp_to(CT_Param *p, CT_OPCODE cmp, uint64_t src0, uint64_t src1, uint64_t dst,
                                      uint32_t elem_num, Data_Format src_fmt, Data_Format mask_fmt) {
    cgra_fill(p, CT_FUNC_CMP, CT_FMT_V_V, cmp, src_fmt, mask_fmt, RND_NEAREST_EVEN);
    cgra_operands_vv(p, src0, src1, dst, elem_num);
}

void CGRATensor_RelationOp_V_S_cmp_to(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint32_t scalar, uint64_t dst,
                                      uint32_t elem_num, Data_Format src_fmt, Data_Format mask_fmt) {
    cgra_fill(p, CT_FUNC_CMP, CT_FMT_V_S, cmp, src_fmt, mask_fmt, RND_NEAREST_EVEN);
    cgra_operands_vs(p, src, scalar, dst, elem_num);
}

void CGRATensor_RelationOp_V_VuV_cmp(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint64_t dst, uint64_t unit,
                                     uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format src_fmt,
                                     Data_Format mask_fmt) {
    cgra_fill(p, CT_FUNC_CMP, CT_FMT_V_VuV, cmp, src_fmt, mask_fmt, RND_NEAREST_EVEN);
    p->param.src0_addr = src;
    p->param.src1_addr = unit;
    p->param.dst_addr = dst;
    p->param.src_elem_num = src_elem_num;
    p->param.unit_elem_num = unit_elem_num;
}

void CGRATensor_RelationOp_V_VuV_cmp_loop(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint64_t dst, uint64_t unit,
                                          uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                          uint32_t full_unit_elem_num, Data_Format src_fmt, Data_Format mask_fmt) {
    CGRATensor_RelationOp_V_VuV_cmp(p, cmp, src, dst, unit, src_elem_num, unit_elem_num, src_fmt, mask_fmt);
    p->ctrl.format = CT_FMT_V_VuV_LOOP;
    p->param.full_src_elem_num = full_src_elem_num;
    p->param.full_unit_elem_num = full_unit_elem_num;
}

void CGRATensor_LogicOp_V_V_select(CT_Param *p, uint64_t mask, uint64_t a, uint64_t b, uint64_t dst, uint32_t elem_num, Data_Format fmt) {
    CGRATensor_LogicOp_V_V_select_mask(p, mask, a, b, dst, elem_num, fmt, fmt);
}

void CGRATensor_LogicOp_V_V_select_mask(CT_Param *p, uint64_t mask, uint64_t a, uint64_t b, uint64_t dst,
                                        uint32_t elem_num, Data_Format mask_fmt, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_SELECT, CT_FMT_V_V, CT_OP_SELECT, mask_fmt, fmt, RND_NEAREST_EVEN);
    p->param.src0_addr = mask;
    p->param.src1_addr = a;
    p->param.src2_addr = b;
    p->param.dst_addr = dst;
    p->param.src_elem_num = elem_num;
}

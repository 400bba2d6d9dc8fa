/*
 * CGRATensor_ConvertOp_V_V_convert wrapper: elem_num elements from src_fmt to dst_fmt (int64 included), rounded
 * with rnd (integer results saturate). Only fills *p.
 */
#include "cgra_fill.h"

void CGRATensor_ConvertOp_V_V_convert(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, Data_Format src_fmt, Data_Format dst_fmt, RND_MODE rnd) {
    cgra_fill(p, CT_FUNC_CONVERT, CT_FMT_V, CT_OP_CONVERT, src_fmt, dst_fmt, rnd);
    p->param.src0_addr = src;
    p->param.dst_addr = dst;
    p->param.src_elem_num = elem_num;
}

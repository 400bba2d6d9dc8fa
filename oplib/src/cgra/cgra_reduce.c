/*
 * CGRATensor_ReduceOp_T_{inner,outer}_{sum,max,min} wrappers: src is [outer_num][inner_num] elements; inner
 * reduces each row (dst[outer_num]), outer reduces each column (dst[inner_num]). Each only fills *p.
 */
#include "cgra_fill.h"

static void reduce(CT_Param *p, CT_FORMAT format, CT_OPCODE op, uint64_t src, uint64_t dst, uint32_t outer_num,
                   uint32_t inner_num, RND_MODE rnd, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_REDUCE, format, op, fmt, fmt, rnd);
    p->param.src0_addr = src;
    p->param.dst_addr = dst;
    p->param.src_elem_num = inner_num;
    p->param.outer_num = outer_num;
}

void CGRATensor_ReduceOp_T_inner_sum(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt) {
    reduce(p, CT_FMT_REDUCE_INNER, CT_OP_REDUCE_SUM, src, dst, outer_num, inner_num, rnd, fmt);
}
void CGRATensor_ReduceOp_T_inner_max(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt) {
    reduce(p, CT_FMT_REDUCE_INNER, CT_OP_REDUCE_MAX, src, dst, outer_num, inner_num, rnd, fmt);
}
void CGRATensor_ReduceOp_T_inner_min(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt) {
    reduce(p, CT_FMT_REDUCE_INNER, CT_OP_REDUCE_MIN, src, dst, outer_num, inner_num, rnd, fmt);
}
void CGRATensor_ReduceOp_T_outer_sum(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt) {
    reduce(p, CT_FMT_REDUCE_OUTER, CT_OP_REDUCE_SUM, src, dst, outer_num, inner_num, rnd, fmt);
}
void CGRATensor_ReduceOp_T_outer_max(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt) {
    reduce(p, CT_FMT_REDUCE_OUTER, CT_OP_REDUCE_MAX, src, dst, outer_num, inner_num, rnd, fmt);
}
void CGRATensor_ReduceOp_T_outer_min(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt) {
    reduce(p, CT_FMT_REDUCE_OUTER, CT_OP_REDUCE_MIN, src, dst, outer_num, inner_num, rnd, fmt);
}

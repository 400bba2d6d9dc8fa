/*
 * CGRATensor_PoolOp_T_{max,avg} wrappers: CT format POOL_2D over [image_num][in_h][in_w][channel_num] images with
 * the window geometry of *geom (copied). Each only fills *p; semantics in tx8/isa.h (Ncc_CT_GR_Pool_Regs).
 */
#include "cgra_fill.h"

static void pool(CT_Param *p, CT_OPCODE op, uint64_t src, uint64_t dst, uint32_t image_num, uint32_t channel_num,
                 const Ncc_CT_GR_Pool_Regs *geom, RND_MODE rnd, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_POOL, CT_FMT_POOL_2D, op, fmt, fmt, rnd);
    p->param.src0_addr = src;
    p->param.dst_addr = dst;
    p->param.src_elem_num = channel_num;
    p->param.outer_num = image_num;
    p->param.pool = *geom;
}

void CGRATensor_PoolOp_T_max(CT_Param *p, uint64_t src, uint64_t dst, uint32_t image_num, uint32_t channel_num, const Ncc_CT_GR_Pool_Regs *geom, Data_Format fmt) {
    pool(p, CT_OP_POOL_MAX, src, dst, image_num, channel_num, geom, RND_NEAREST_EVEN, fmt); /* exact: rnd unused */
}
void CGRATensor_PoolOp_T_avg(CT_Param *p, uint64_t src, uint64_t dst, uint32_t image_num, uint32_t channel_num, const Ncc_CT_GR_Pool_Regs *geom, RND_MODE rnd, Data_Format fmt) {
    pool(p, CT_OP_POOL_AVG, src, dst, image_num, channel_num, geom, rnd, fmt);
}

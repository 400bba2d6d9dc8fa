/*
 * Shared by the CGRA wrappers: start a CT_Param (zeroed, I_CGRA) with its control registers.
 * Addresses are SPM bytes, counts are elements; the wrappers set only the parameter registers they use.
 */
#ifndef TX8_CGRA_FILL_H
#define TX8_CGRA_FILL_H

#include <string.h>

#include "tx8/cgra.h"

static inline void cgra_fill(CT_Param *p, CT_FUNCTION func, CT_FORMAT format, CT_OPCODE op, Data_Format src_fmt,
                             Data_Format dst_fmt, RND_MODE rnd) {
    memset(p, 0, sizeof *p);
    p->inter_type = I_CGRA;
    p->ctrl.function = (uint32_t)func;
    p->ctrl.format = (uint32_t)format;
    p->ctrl.opcode = (uint32_t)op;
    p->ctrl.src_fmt = (uint32_t)src_fmt;
    p->ctrl.dst_fmt = (uint32_t)dst_fmt;
    p->ctrl.rnd = (uint32_t)rnd;
}

/* A whole one-input instruction, CT format V: dst[i] = op(src[i]) for elem_num elements (unary and activations). */
static inline void cgra_unary_v(CT_Param *p, CT_OPCODE op, uint64_t src, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt) {
    cgra_fill(p, CT_FUNC_UNARY, CT_FMT_V, op, fmt, fmt, rnd);
    p->param.src0_addr = src;
    p->param.dst_addr = dst;
    p->param.src_elem_num = elem_num;
}

/* Operand registers of the two-input vector forms: V_V (src1 is a vector) and V_S (a scalar instead). */
static inline void cgra_operands_vv(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num) {
    p->param.src0_addr = src0;
    p->param.src1_addr = src1;
    p->param.dst_addr = dst;
    p->param.src_elem_num = elem_num;
}

static inline void cgra_operands_vs(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num) {
    p->param.src0_addr = src;
    p->param.scalar = scalar;
    p->param.dst_addr = dst;
    p->param.src_elem_num = elem_num;
}

#endif /* TX8_CGRA_FILL_H */

/* What every NE wrapper fills the same way: a zeroed TsmNeInstr with the control registers and the four
 * operand addresses (a/in, b/weight, bias, out). */
#ifndef TX8_OPLIB_NE_INSTR_H
#define TX8_OPLIB_NE_INSTR_H

#include <string.h>

#include "tx8/ne.h"

static inline void ne_instr_init(TsmNeInstr *p, NE_OPCODE opcode, uint64_t a, uint64_t b, uint64_t bias,
                                 uint64_t out, Data_Format in_fmt, Data_Format out_fmt, uint32_t accumulate,
                                 uint32_t bias_en, uint32_t relu_en) {
    memset(p, 0, sizeof(*p));
    p->inter_type = I_NEUR;
    p->ctrl.opcode = opcode;
    p->ctrl.in_fmt = (uint32_t)in_fmt;
    p->ctrl.out_fmt = (uint32_t)out_fmt;
    p->ctrl.accumulate = accumulate;
    p->ctrl.bias_en = bias_en;
    p->ctrl.relu_en = relu_en;
    p->param.a_addr = a;
    p->param.b_addr = b;
    p->param.bias_addr = bias;
    p->param.out_addr = out;
}

#endif /* TX8_OPLIB_NE_INSTR_H */

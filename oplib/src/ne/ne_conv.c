/* NE conv wrapper: fill a TsmNeInstr with NE_OP_CONV (see tx8/ne.h, tx8/isa.h). */
#include "ne_instr.h"

void TsmNe_conv(TsmNeInstr *p, uint64_t in, uint64_t weight, uint64_t bias, uint64_t out,
                const Ncc_NE_GR_Conv_Regs *geom, Data_Format in_fmt, Data_Format out_fmt, uint32_t accumulate,
                uint32_t bias_en, uint32_t relu_en) {
    ne_instr_init(p, NE_OP_CONV, in, weight, bias, out, in_fmt, out_fmt, accumulate, bias_en, relu_en);
    p->conv = *geom;
}

void TsmNe_conv_compact_pitches(Ncc_NE_GR_Conv_Regs *g) {
    g->in_pitch[0] = g->in_c;
    g->in_pitch[1] = g->in_w * g->in_c;
    g->in_pitch[2] = g->in_h * g->in_w * g->in_c;
    g->out_pitch[0] = g->out_c;
    g->out_pitch[1] = g->out_w * g->out_c;
    g->out_pitch[2] = g->out_h * g->out_w * g->out_c;
    g->w_pitch[0] = g->out_c;
    g->w_pitch[1] = g->in_c / g->groups * g->out_c;
}

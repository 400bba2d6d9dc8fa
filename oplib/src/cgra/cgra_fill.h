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

#endif /* TX8_CGRA_FILL_H */

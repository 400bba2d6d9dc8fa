/* op_leaky_relu: out = in > 0 ? in : alpha * in elementwise on the CT (one leaky_relu per chunk over the whole layout
 * image, rounded once). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

uint64_t op_leaky_relu(LEAKY_RELU_PARAM *param, TSR *in, TSR *out) {
    if (!param) return tx8_hal_fault("op_leaky_relu: param is NULL"), TX8_CYCLES_INVALID;
    uint64_t elems;
    if (eltwise_prepare_unary("op_leaky_relu", param->layout, param->rnd, in, out, &elems) != 0)
        return TX8_CYCLES_INVALID;
    const uint64_t eb = tx8_format_bytes(in->format);
    uint64_t total = 0;
    for (uint64_t done = 0; done < elems && total != TX8_CYCLES_INVALID;) {
        const uint32_t n = elems - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(elems - done);
        CT_Param p;
        CGRATensor_ActOp_V_V_leaky_relu(&p, in->addr + done * eb, out->addr + done * eb, param->alpha, n, param->rnd,
                                        in->format);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += n;
    }
    return total;
}

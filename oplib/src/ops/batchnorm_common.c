/* The batchnorm argument contract (batchnorm_common.h): plan/check_ops.c's, faulting. */
#include "tx8/hal.h"

#include "batchnorm_common.h"

#include "../plan/check_internal.h"

int tx8_bn_check_tensors(const char *op, const BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift,
                         TSR *mean, TSR *var, TSR *imm, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_bn_tensors(op, param, in, scale, shift, mean, var, imm, out, why, sizeof why) == 0) return 0;
    tx8_hal_fault("%s", why);
    return -1;
}

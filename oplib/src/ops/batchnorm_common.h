/* What op_batchnorm_inference and op_batchnorm_inference_folded share: their argument contract. */
#ifndef TX8_OPLIB_BATCHNORM_COMMON_H
#define TX8_OPLIB_BATCHNORM_COMMON_H

#include "tx8/ops.h"

/* Checks the tensors of a batchnorm call (all present, in's dim 2..4 and format fp32/fp16/bf16, out like in, four
 * fp32 1x..xC per-channel vectors); everything but the layout plan and imm's size, which differ per entry point.
 * Faults with a message starting "<op>: " and returns -1, or returns 0. */
int tx8_bn_check_tensors(const char *op, const BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift,
                         TSR *mean, TSR *var, TSR *imm, TSR *out);

#endif /* TX8_OPLIB_BATCHNORM_COMMON_H */

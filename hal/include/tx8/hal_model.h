/*
 * For backends that execute NPU instructions with the chip model (both of today's: cmodel and riscv): access
 * to that model, e.g. for memory digests that show two backends ended a run with the same bits.
 */
#ifndef TX8_HAL_MODEL_H
#define TX8_HAL_MODEL_H

#include "tx8/cmodel.h"
#include "tx8/hal.h"

#ifdef __cplusplus
extern "C" {
#endif

cm_chip *tx8_hal_model(tx8_hal *hal);

#ifdef __cplusplus
}
#endif

#endif /* TX8_HAL_MODEL_H */

/* Pieces shared by the HAL backends that run the chip model (hal/cmodel, hal/riscv). Internal to hal/. */
#ifndef TX8_HAL_MODEL_ACCESS_H
#define TX8_HAL_MODEL_ACCESS_H

#include "tx8/cmodel.h"
#include "tx8/hal.h"

/* Host access to DDR or to `tile`'s SPM; an unknown region is an error like a bad address. */
cm_status tx8_hal_model_access(cm_chip *chip, uint32_t tile, tx8_mem_region region, uint64_t addr, void *buf,
                               uint64_t bytes, int write, cm_error *err);

/* Provided by each backend: the open chip and the calling tile (a HAL used before tx8_hal_open stops the program),
 * and its fault path (the program's handler, or the message and the fault exit). */
cm_chip *tx8_hal_backend_chip(uint32_t *tile);
void tx8_hal_backend_fault(const char *message);

/* Defined here for both backends on those two: tx8_hal_issue, tx8_hal_wait, tx8_hal_wait_all, tx8_hal_execute. */

#endif /* TX8_HAL_MODEL_ACCESS_H */

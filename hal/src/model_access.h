/* Pieces shared by the HAL backends that run the chip model (hal/cmodel, hal/riscv). Internal to hal/. */
#ifndef TX8_HAL_MODEL_ACCESS_H
#define TX8_HAL_MODEL_ACCESS_H

#include "tx8/cmodel.h"
#include "tx8/hal.h"

/* Host access to DDR or to `tile`'s SPM; an unknown region is an error like a bad address. */
cm_status tx8_hal_model_access(cm_chip *chip, uint32_t tile, tx8_mem_region region, uint64_t addr, void *buf,
                               uint64_t bytes, int write, cm_error *err);

#endif /* TX8_HAL_MODEL_ACCESS_H */

/*
 * RISC-V bare-metal backend of the HAL: the firmware runs on the kernel cores (one hart per tile) and the NPU
 * engines are the same portable chip model as on the host, so results are bit-identical with the cmodel backend.
 *
 * tx8_hal_open (tx8/hal.h) is called once, on hart 0, before anything runs on other harts; tile = hart. The
 * hart services themselves (start-up, waiting, UART, exit codes) are in tx8/riscv.h.
 */
#ifndef TX8_HAL_RISCV_H
#define TX8_HAL_RISCV_H

#include "tx8/hal_model.h"
#include "tx8/riscv.h"

#endif /* TX8_HAL_RISCV_H */

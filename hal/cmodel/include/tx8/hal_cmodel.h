/*
 * cmodel backend of the HAL (x86 host): the chip model executes the instructions, host threads act as tiles.
 *
 * tx8_hal_open (tx8/hal.h) creates the chip and binds the calling thread to its tile 0; tx8_hal_run_tiles runs
 * code on several tiles, one host thread each, bound with tx8_hal_cmodel_bind(). Every tx8_hal_* call from a
 * thread acts on the tile it is bound to (the counterpart of "which kernel core am I" on hardware).
 */
#ifndef TX8_HAL_CMODEL_H
#define TX8_HAL_CMODEL_H

#include "tx8/hal_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the calling thread act as `tile` of `hal`. */
void tx8_hal_cmodel_bind(tx8_hal *hal, uint32_t tile);

#ifdef __cplusplus
}
#endif

#endif /* TX8_HAL_CMODEL_H */

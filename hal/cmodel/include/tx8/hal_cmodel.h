/*
 * cmodel backend of the HAL: owns a simulated chip and binds host threads to its tiles.
 *
 * A run opens one backend, then each thread that acts as a tile calls tx8_hal_cmodel_bind(); every tx8_hal_*
 * call from that thread then acts on that tile. The binding is the backend's only per-thread state (the
 * counterpart of "which kernel core am I" on hardware).
 */
#ifndef TX8_HAL_CMODEL_H
#define TX8_HAL_CMODEL_H

#include "tx8/cmodel.h"
#include "tx8/hal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tx8_hal_cmodel tx8_hal_cmodel;

/* Opens a chip with `cfg` for a run on `run_tiles` tiles (1..cfg->tile_count) and binds the calling thread to
 * tile 0. Returns NULL after printing the reason to stderr. */
tx8_hal_cmodel *tx8_hal_cmodel_open(const tx8_hw_config *cfg, uint32_t run_tiles);
void tx8_hal_cmodel_close(tx8_hal_cmodel *hal);

/* Makes the calling thread act as `tile` of `hal`. */
void tx8_hal_cmodel_bind(tx8_hal_cmodel *hal, uint32_t tile);

cm_chip *tx8_hal_cmodel_chip(tx8_hal_cmodel *hal);

/* Cycles tile `tile` has spent in instructions of one engine (indexed by OP_INSTR_TYPE), for breakdowns. */
#define TX8_HAL_ENGINE_SLOTS 8
uint64_t tx8_hal_cmodel_engine_cycles(const tx8_hal_cmodel *hal, uint32_t tile, OP_INSTR_TYPE engine);

#ifdef __cplusplus
}
#endif

#endif /* TX8_HAL_CMODEL_H */

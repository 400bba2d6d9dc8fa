/*
 * The chip's time without the chip: per-tile programs of instructions (issue with deps, wait, barrier) replayed
 * through the chip model's own scheduler (cmodel/README.md, "Time") from their costs alone: the cm_cycles.h
 * formulas, DDR / port / NoC-link sharing, engines in issue order. Nothing executes and no memory exists, so an
 * estimate is cheap and needs no data; for the same instructions, deps, waits and barriers it gives exactly the
 * cycles the chip model simulates (tests/cmocka/test_estimate.c). Meant for the compiler's cost model.
 *
 * Tiles [0, tiles) start together at cycle 0, as in a run (tx8_hal_run_tiles). Instructions are not validated
 * beyond what their cost needs (a DTE's rectangle must lie in the mesh).
 */
#ifndef TX8_CM_ESTIMATE_H
#define TX8_CM_ESTIMATE_H

#include <stdint.h>

#include "tx8/cmodel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_estimate cm_estimate;

cm_estimate *cm_estimate_create(const tx8_hw_config *cfg, uint32_t tiles, const cm_allocator *alloc, cm_error *err);
void cm_estimate_destroy(cm_estimate *e);

/* Tile `tile` issues `instr` after `deps` (its own earlier tokens; at most CM_MAX_DEPS); *token names it. */
cm_status cm_estimate_issue(cm_estimate *e, uint32_t tile, const void *instr, const cm_token *deps, uint32_t ndeps,
                            cm_token *token, cm_error *err);
/* Tile `tile`'s kernel core waits for `token` (0: for everything it issued). */
cm_status cm_estimate_wait(cm_estimate *e, uint32_t tile, cm_token token, cm_error *err);
/* Every tile waits for its own instructions and then for the others; all leave at the latest time plus
 * barrier_cycles (with one tile: only the wait). */
cm_status cm_estimate_barrier(cm_estimate *e, cm_error *err);
/* The cycle the last barrier left at (0 before any). */
uint64_t cm_estimate_now(const cm_estimate *e);
/* The chip's time once every tile has finished what it issued (the end of a run: no barrier cost). */
cm_status cm_estimate_finish(cm_estimate *e, uint64_t *cycles, cm_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TX8_CM_ESTIMATE_H */

/*
 * Issuing instructions from OpLib (seed: "TsmExecute(&ct_param)" and ADD_VALID_CYCLE).
 */
#ifndef TX8_TSM_H
#define TX8_TSM_H

#include <stdint.h>

#include "tx8/hal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Executes a filled CT_Param / TsmNeInstr / DMA_Param / TD_Param on the current tile; returns its cycles
 * or TX8_CYCLES_INVALID (a fault has been reported). */
static inline uint64_t TsmExecute(const void *instr) { return tx8_hal_execute(instr); }

/* Asynchronous forms (tx8/hal.h): queue on the instruction's engine after `deps`, wait for a token. */
static inline tx8_token TsmIssue(const void *instr, const tx8_token *deps, uint32_t ndeps) {
    return tx8_hal_issue(instr, deps, ndeps);
}
static inline uint64_t TsmWait(tx8_token token) { return tx8_hal_wait(token); }

/* total + single, keeping TX8_CYCLES_INVALID sticky so one failed instruction fails the op. */
static inline uint64_t tx8_add_valid_cycle(uint64_t total, uint64_t single) {
    return (total == TX8_CYCLES_INVALID || single == TX8_CYCLES_INVALID) ? TX8_CYCLES_INVALID : total + single;
}
#define ADD_VALID_CYCLE(total, single) tx8_add_valid_cycle((total), (single))

#ifdef __cplusplus
}
#endif

#endif /* TX8_TSM_H */

/* See model_access.h. */
#include "model_access.h"

#include <stdio.h>

cm_status tx8_hal_model_access(cm_chip *chip, uint32_t tile, tx8_mem_region region, uint64_t addr, void *buf,
                               uint64_t bytes, int write, cm_error *err) {
    switch (region) {
    case TX8_MEM_DDR:
        return write ? cm_ddr_write(chip, addr, buf, bytes, err) : cm_ddr_read(chip, addr, buf, bytes, err);
    case TX8_MEM_SPM:
        return write ? cm_spm_write(chip, tile, addr, buf, bytes, err) : cm_spm_read(chip, tile, addr, buf, bytes, err);
    }
    err->code = CM_ERR_FIELD;
    snprintf(err->message, sizeof err->message, "memory access: region %d is neither DDR nor SPM", (int)region);
    return CM_ERR_FIELD;
}

/* One chip-model call on the calling tile; a failure is a fault (and a 0 return). */
static int model_call(cm_status status, const cm_error *err) {
    if (status == CM_OK) return 1;
    tx8_hal_backend_fault(err->message);
    return 0;
}

static int issue(const void *instr, const tx8_token *deps, uint32_t ndeps, tx8_token *token) {
    uint32_t tile;
    cm_chip *chip = tx8_hal_backend_chip(&tile);
    cm_error err = {CM_OK, ""};
    return model_call(cm_issue(chip, tile, instr, deps, ndeps, token, &err), &err);
}

static int wait_for(tx8_token token, int all) {
    uint32_t tile;
    cm_chip *chip = tx8_hal_backend_chip(&tile);
    cm_error err = {CM_OK, ""};
    return model_call(all ? cm_wait_all(chip, tile, &err) : cm_wait(chip, tile, token, &err), &err);
}

tx8_token tx8_hal_issue(const void *instr, const tx8_token *deps, uint32_t ndeps) {
    tx8_token token = 0;
    return issue(instr, deps, ndeps, &token) ? token : 0;
}

uint64_t tx8_hal_wait(tx8_token token) {
    wait_for(token, 0);
    return tx8_hal_cycles();
}

uint64_t tx8_hal_wait_all(void) {
    wait_for(0, 1);
    return tx8_hal_cycles();
}

/* Issue + wait: the kernel core's cycles from issuing the instruction to its end (queueing included). */
uint64_t tx8_hal_execute(const void *instr) {
    const uint64_t before = tx8_hal_cycles();
    tx8_token token = 0;
    if (!issue(instr, NULL, 0, &token) || !wait_for(token, 0)) return TX8_CYCLES_INVALID;
    return tx8_hal_cycles() - before;
}

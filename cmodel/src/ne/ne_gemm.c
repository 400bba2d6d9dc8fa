/* PLACEHOLDER until the NE engine lands. */
#include "cm_internal.h"
cm_status cm_ne_execute(cm_chip *chip, uint32_t tile, const TsmNeInstr *p, uint64_t *cycles, cm_error *err) {
    (void)chip, (void)tile, (void)p, (void)cycles;
    return cm_fail(err, CM_ERR_UNSUPPORTED, "NE: engine not implemented yet");
}

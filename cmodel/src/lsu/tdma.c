/* PLACEHOLDER until the LSU lands. */
#include "cm_internal.h"
cm_status cm_tdma_execute(cm_chip *chip, uint32_t tile, const TD_Param *p, uint64_t *cycles, cm_error *err) {
    (void)chip, (void)tile, (void)p, (void)cycles;
    return cm_fail(err, CM_ERR_UNSUPPORTED, "TDMA: engine not implemented yet");
}

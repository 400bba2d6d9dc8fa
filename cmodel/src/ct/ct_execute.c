/* PLACEHOLDER until the CT engine lands: every CT instruction is reported unsupported. */
#include "cm_internal.h"
cm_status cm_ct_execute(cm_chip *chip, uint32_t tile, const CT_Param *p, uint64_t *cycles, cm_error *err) {
    (void)chip, (void)tile, (void)p, (void)cycles;
    return cm_fail(err, CM_ERR_UNSUPPORTED, "CT: engine not implemented yet");
}

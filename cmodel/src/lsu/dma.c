/* PLACEHOLDER until the LSU lands. */
#include "cm_internal.h"
cm_status cm_dma_execute(cm_chip *chip, uint32_t tile, const DMA_Param *p, uint64_t *cycles, cm_error *err) {
    (void)chip, (void)tile, (void)p, (void)cycles;
    return cm_fail(err, CM_ERR_UNSUPPORTED, "DMA: engine not implemented yet");
}

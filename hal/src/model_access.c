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

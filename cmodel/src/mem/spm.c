/* Per-tile SPM access with bounds checks. */
#include "cm_internal.h"

uint8_t *cm_spm_span(cm_chip *chip, uint32_t tile, uint64_t addr, uint64_t bytes, const char *instr,
                     const char *field, cm_error *err) {
    const uint64_t size = chip->cfg.spm_bytes;
    if (tile >= chip->cfg.tile_count) {
        cm_fail(err, CM_ERR_FIELD, "%s: tile %u does not exist (tile_count %u)", instr, tile, chip->cfg.tile_count);
        return NULL;
    }
    if (addr > size || bytes > size - addr) {
        cm_fail(err, CM_ERR_ADDRESS,
                "%s: %s = 0x%llx + %llu bytes is outside SPM of tile %u [0, 0x%llx)", instr, field,
                (unsigned long long)addr, (unsigned long long)bytes, tile, (unsigned long long)size);
        return NULL;
    }
    return chip->spm[tile] + addr;
}

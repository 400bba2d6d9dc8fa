/* Chip lifetime, instruction dispatch and host access to the memories. */
#include <string.h>

#include "cm_internal.h"
#include "noc/noc.h"

static const uint64_t kL2Span = CM_DDR_PAGE_BYTES << CM_DDR_L2_BITS; /* DDR bytes per first-level entry */

static cm_status check_config(const tx8_hw_config *c, cm_error *err) {
    const char *why = tx8_hw_config_check(c); /* the one validation, shared with the compiler */
    return why ? cm_fail(err, CM_ERR_CONFIG, "hw config: %s", why) : CM_OK;
}

cm_chip *cm_chip_create(const tx8_hw_config *cfg, const cm_allocator *alloc, cm_error *err) {
    if (check_config(cfg, err) != CM_OK) return NULL;
    cm_chip *chip = (cm_chip *)alloc->alloc_zeroed(alloc->ctx, sizeof(cm_chip));
    if (!chip) {
        cm_fail(err, CM_ERR_NOMEM, "cm_chip_create: out of host memory");
        return NULL;
    }
    chip->cfg = *cfg;
    chip->alloc = *alloc;
    if (cm_timeline_create(chip, err) != CM_OK) {
        cm_chip_destroy(chip);
        return NULL;
    }
    chip->ddr.bytes = cfg->ddr_bytes;
    chip->ddr.l1_count = (cfg->ddr_bytes + kL2Span - 1) / kL2Span;
    chip->ddr.l1 = (uint8_t ***)alloc->alloc_zeroed(alloc->ctx, chip->ddr.l1_count * sizeof(uint8_t **));
    chip->spm = (uint8_t **)alloc->alloc_zeroed(alloc->ctx, cfg->tile_count * sizeof(uint8_t *));
    int ok = chip->ddr.l1 && chip->spm;
    for (uint32_t t = 0; ok && t < cfg->tile_count; ++t) {
        chip->spm[t] = (uint8_t *)alloc->alloc_zeroed(alloc->ctx, (size_t)cfg->spm_bytes);
        ok = chip->spm[t] != NULL;
    }
    if (!ok) {
        cm_chip_destroy(chip);
        cm_fail(err, CM_ERR_NOMEM, "cm_chip_create: out of host memory for %u x %llu bytes of SPM",
                cfg->tile_count, (unsigned long long)cfg->spm_bytes);
        return NULL;
    }
    return chip;
}

void cm_chip_destroy(cm_chip *chip) {
    if (!chip) return;
    const cm_allocator a = chip->alloc;
    cm_timeline_destroy(chip);
    for (uint64_t i = 0; chip->ddr.l1 && i < chip->ddr.l1_count; ++i) {
        if (!chip->ddr.l1[i]) continue;
        for (uint64_t j = 0; j < (1ull << CM_DDR_L2_BITS); ++j)
            if (chip->ddr.l1[i][j]) a.release(a.ctx, chip->ddr.l1[i][j]);
        a.release(a.ctx, chip->ddr.l1[i]);
    }
    if (chip->ddr.l1) a.release(a.ctx, chip->ddr.l1);
    for (uint32_t t = 0; chip->spm && t < chip->cfg.tile_count; ++t)
        if (chip->spm[t]) a.release(a.ctx, chip->spm[t]);
    if (chip->spm) a.release(a.ctx, chip->spm);
    a.release(a.ctx, chip);
}

const tx8_hw_config *cm_chip_config(const cm_chip *chip) { return &chip->cfg; }

cm_status cm_execute_cost(cm_chip *chip, uint32_t tile, const void *instr, cm_cost *cost, cm_error *err) {
    cm_cost_init(cost, 0);
    if (!instr) return cm_fail(err, CM_ERR_FIELD, "execute: instruction pointer is NULL");
    if (tile >= chip->cfg.tile_count)
        return cm_fail(err, CM_ERR_FIELD, "execute: tile %u does not exist (tile_count %u)", tile,
                       chip->cfg.tile_count);
    uint32_t type;
    memcpy(&type, instr, sizeof(type));
    switch (type) {
    case I_CGRA: return cm_ct_execute(chip, tile, (const CT_Param *)instr, cost, err);
    case I_NEUR: {
        const TsmNeInstr *ne = (const TsmNeInstr *)instr;
        return ne->ctrl.opcode == NE_OP_CONV ? cm_ne_conv_execute(chip, tile, ne, cost, err)
                                             : cm_ne_execute(chip, tile, ne, cost, err);
    }
    case I_RDMA:
    case I_WDMA: return cm_dma_execute(chip, tile, (const DMA_Param *)instr, cost, err);
    case I_TDMA: return cm_tdma_execute(chip, tile, (const TD_Param *)instr, cost, err);
    case I_DTE: return cm_dte_execute(chip, tile, (const DTE_Param *)instr, cost, err);
    case I_SCALAR:
    case I_CSR:
        return cm_fail(err, CM_ERR_UNSUPPORTED, "execute: inter_type %s is not modelled yet",
                       tx8_instr_type_name(type));
    default: return cm_fail(err, CM_ERR_FIELD, "execute: inter_type = %u is not an OP_INSTR_TYPE", type);
    }
}

cm_status cm_execute(cm_chip *chip, uint32_t tile, const void *instr, uint64_t *cycles, cm_error *err) {
    cm_cost cost;
    *cycles = 0;
    const cm_status s = cm_execute_cost(chip, tile, instr, &cost, err);
    if (s == CM_OK) *cycles = cm_cost_cycles(&chip->cfg, &cost);
    return s;
}

/* SPM transfers are told apart from DDR ones (addresses < 2^36) in the traffic digest by the tile in the top bits. */
#define SPM_WHERE(tile, addr) ((1ull << 63) | ((uint64_t)(tile) << 48) | (addr))

cm_status cm_ddr_write(cm_chip *chip, uint64_t addr, const void *src, uint64_t bytes, cm_error *err) {
    cm_status s = cm_ddr_check(chip, addr, bytes, "ddr_write", "addr", err);
    if (s == CM_OK) s = cm_ddr_copy_in(chip, addr, src, bytes, err);
    if (s == CM_OK) cm_io_digest_fold(chip, addr, src, bytes);
    return s;
}

cm_status cm_ddr_read(const cm_chip *chip, uint64_t addr, void *dst, uint64_t bytes, cm_error *err) {
    cm_status s = cm_ddr_check(chip, addr, bytes, "ddr_read", "addr", err);
    if (s == CM_OK) {
        cm_ddr_copy_out(chip, addr, dst, bytes);
        cm_io_digest_fold(chip, addr, dst, bytes);
    }
    return s;
}

cm_status cm_spm_write(cm_chip *chip, uint32_t tile, uint64_t addr, const void *src, uint64_t bytes, cm_error *err) {
    uint8_t *p = cm_spm_span(chip, tile, addr, bytes, "spm_write", "addr", err);
    if (!p) return err ? err->code : CM_ERR_ADDRESS;
    memcpy(p, src, (size_t)bytes);
    cm_io_digest_fold(chip, SPM_WHERE(tile, addr), src, bytes);
    return CM_OK;
}

cm_status cm_spm_read(const cm_chip *chip, uint32_t tile, uint64_t addr, void *dst, uint64_t bytes, cm_error *err) {
    uint8_t *p = cm_spm_span((cm_chip *)chip, tile, addr, bytes, "spm_read", "addr", err);
    if (!p) return err ? err->code : CM_ERR_ADDRESS;
    memcpy(dst, p, (size_t)bytes);
    cm_io_digest_fold(chip, SPM_WHERE(tile, addr), dst, bytes);
    return CM_OK;
}

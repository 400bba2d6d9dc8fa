/*
 * TX8 hardware configuration (numbers in tx8/hw_config.def, nowhere else).
 *
 * tx8_hw_config is a plain struct so that a run can change a number (e.g. a smaller SPM for a test) without
 * recompiling; tx8_hw_config_default() gives the defaults from the .def file.
 */
#ifndef TX8_HW_CONFIG_H
#define TX8_HW_CONFIG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tx8_hw_config {
#define TX8_HW(type, name, def, lo, hi, unit, desc) type name;
#include "tx8/hw_config.def"
#undef TX8_HW
} tx8_hw_config;

static inline tx8_hw_config tx8_hw_config_default(void) {
    tx8_hw_config c = {
#define TX8_HW(type, name, def, lo, hi, unit, desc) (type)(def),
#include "tx8/hw_config.def"
#undef TX8_HW
    };
    return c;
}

/* Why `c` is not a configuration the chip model, OpLib and the compiler can work with: a static text naming
 * the field and its rule, or NULL if it is one. The one validation of a config: each field within the
 * [min, max] of hw_config.def, and the rules across fields. */
static inline int tx8_hw_in_range(uint64_t value, uint64_t lo, uint64_t hi) { return value >= lo && value <= hi; }

static inline const char *tx8_hw_config_check(const tx8_hw_config *c) {
#define TX8_HW(type, name, def, lo, hi, unit, desc)                                                           \
    if (!tx8_hw_in_range(c->name, (uint64_t)(lo), (uint64_t)(hi)))                                            \
        return "'" #name "' must be in [" #lo ", " #hi "] (" unit ")";
#include "tx8/hw_config.def"
#undef TX8_HW
    if (c->mesh_x * c->mesh_y != c->tile_count) return "'mesh_x' x 'mesh_y' must equal 'tile_count'";
    if (c->spm_bytes % 256u != 0) return "'spm_bytes' must be a multiple of 256";
    if ((c->batch_align_bits & (c->batch_align_bits - 1u)) != 0)
        return "'batch_align_bits' must be a power of two (8 or more)";
    if ((c->ddr_bank_bytes & (c->ddr_bank_bytes - 1u)) != 0) return "'ddr_bank_bytes' must be a power of two";
    if (c->ct_datapath_bits % 64u != 0) return "'ct_datapath_bits' must be a multiple of 64";
    return 0;
}

/* Derived numbers, computed in one place. */
static inline uint32_t tx8_hw_batch_align_bytes(const tx8_hw_config *c) { return c->batch_align_bits / 8u; }
static inline uint32_t tx8_hw_ct_bytes_per_cycle(const tx8_hw_config *c) { return c->ct_datapath_bits / 8u; }
static inline uint32_t tx8_hw_ne_macs_per_step(const tx8_hw_config *c) {
    return c->ne_step_m * c->ne_step_k * c->ne_step_n;
}

#ifdef __cplusplus
}
#endif

#endif /* TX8_HW_CONFIG_H */

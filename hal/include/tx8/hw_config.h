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
#define TX8_HW(type, name, def, unit, desc) type name;
#include "tx8/hw_config.def"
#undef TX8_HW
} tx8_hw_config;

static inline tx8_hw_config tx8_hw_config_default(void) {
    tx8_hw_config c = {
#define TX8_HW(type, name, def, unit, desc) (type)(def),
#include "tx8/hw_config.def"
#undef TX8_HW
    };
    return c;
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

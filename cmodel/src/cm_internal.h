/*
 * cmodel internals shared by the engines: the chip struct, SPM/DDR access with bounds checks, error reporting.
 */
#ifndef TX8_CM_INTERNAL_H
#define TX8_CM_INTERNAL_H

#include <stdint.h>

#include "tx8/cmodel.h"
#include "sched/cm_cost.h"

/* DDR: two-level table of pages allocated on first write; reads of untouched pages see zeros. */
#define CM_DDR_PAGE_BITS 16u /* 64 KiB pages */
#define CM_DDR_PAGE_BYTES (1ull << CM_DDR_PAGE_BITS)
#define CM_DDR_L2_BITS 12u /* 4096 pages (256 MiB) per second-level table */

typedef struct cm_ddr {
    uint64_t bytes;
    uint64_t l1_count;   /* first-level entries */
    uint8_t ***l1;       /* l1[i] -> table of 2^CM_DDR_L2_BITS page pointers, or NULL */
    uint64_t pages;      /* allocated pages */
} cm_ddr;

struct cm_chip {
    tx8_hw_config cfg;
    cm_allocator alloc;
    uint8_t **spm; /* spm[tile]: cfg.spm_bytes bytes */
    cm_ddr ddr;
    uint64_t io_digest; /* running digest of host transfers (cm_chip_io_digest) */
    struct cm_timeline *time; /* every tile's clock (sched/timeline.c) */
};

typedef struct cm_timeline cm_timeline;
cm_status cm_timeline_create(cm_chip *chip, cm_error *err);
void cm_timeline_destroy(cm_chip *chip);

/* Executes one instruction on `tile` and describes its cost (cm_execute without the cycles). */
cm_status cm_execute_cost(cm_chip *chip, uint32_t tile, const void *instr, cm_cost *cost, cm_error *err);
/* The cycles of an instruction alone: nothing queued before it, no other transfer in flight. */
uint64_t cm_cost_cycles(const tx8_hw_config *cfg, const cm_cost *cost);

/* Word-wise FNV-1a step over bytes (mem/digest.c). */
uint64_t cm_digest_words(uint64_t h, const uint8_t *p, uint64_t bytes);
/* Folds one host transfer into chip->io_digest. `where` identifies memory, tile and address. */
void cm_io_digest_fold(const cm_chip *chip, uint64_t where, const void *data, uint64_t bytes);

/* Fills *err (message printf-style) and returns code. err may be NULL. */
cm_status cm_fail(cm_error *err, cm_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Pointer to SPM [addr, addr + bytes) of `tile`, or NULL with *err naming `instr` and `field` when out of range. */
uint8_t *cm_spm_span(cm_chip *chip, uint32_t tile, uint64_t addr, uint64_t bytes, const char *instr,
                     const char *field, cm_error *err);

/* Bytes of a box of c2 x c1 runs of `run` bytes at strides s1, s2 from its first to one past its last byte:
 * (c2-1)*s2 + (c1-1)*s1 + run (counts >= 1); UINT64_MAX on overflow. Shared by the DMA and DTE engines. */
static inline uint64_t cm_box_extent(uint32_t run, uint32_t c1, uint64_t s1, uint32_t c2, uint64_t s2) {
    const uint64_t a = (uint64_t)(c1 - 1), b = (uint64_t)(c2 - 1);
    if (a && s1 > UINT64_MAX / a) return UINT64_MAX;
    if (b && s2 > UINT64_MAX / b) return UINT64_MAX;
    const uint64_t x = a * s1, y = b * s2;
    if (x > UINT64_MAX - y || x + y > UINT64_MAX - run) return UINT64_MAX;
    return x + y + run;
}

/* DDR range check naming instr/field; CM_OK when [addr, addr + bytes) fits. */
cm_status cm_ddr_check(const cm_chip *chip, uint64_t addr, uint64_t bytes, const char *instr, const char *field,
                       cm_error *err);
/* Unchecked copies (call cm_ddr_check first); copy_in may allocate pages and fail with CM_ERR_NOMEM. */
cm_status cm_ddr_copy_in(cm_chip *chip, uint64_t addr, const void *src, uint64_t bytes, cm_error *err);
void cm_ddr_copy_out(const cm_chip *chip, uint64_t addr, void *dst, uint64_t bytes);

/* Engines: validate the whole instruction first (touching nothing), then execute it and describe its cost (engine,
 * cycles from cm_cycles_*, bytes through shared resources, memory touched) for the scheduler. */
cm_status cm_ct_execute(cm_chip *chip, uint32_t tile, const CT_Param *p, cm_cost *cost, cm_error *err);
cm_status cm_ne_execute(cm_chip *chip, uint32_t tile, const TsmNeInstr *p, cm_cost *cost, cm_error *err);
cm_status cm_ne_conv_execute(cm_chip *chip, uint32_t tile, const TsmNeInstr *p, cm_cost *cost, cm_error *err);
cm_status cm_dma_execute(cm_chip *chip, uint32_t tile, const DMA_Param *p, cm_cost *cost, cm_error *err);
cm_status cm_tdma_execute(cm_chip *chip, uint32_t tile, const TD_Param *p, cm_cost *cost, cm_error *err);

#endif /* TX8_CM_INTERNAL_H */

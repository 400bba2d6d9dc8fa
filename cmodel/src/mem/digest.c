/* Digests of the chip's memory state and of its host traffic (see cmodel.h): how runs on different backends
 * are shown to be bit-identical. */
#include <string.h>

#include "cm_internal.h"

#define L2_ENTRIES (1ull << CM_DDR_L2_BITS)

/* FNV-1a over 64-bit words (a word-wide variant: byte-wise hashing of 3 MiB is too slow under QEMU). */
uint64_t cm_digest_words(uint64_t h, const uint8_t *p, uint64_t bytes) {
    for (uint64_t i = 0; i + 8 <= bytes; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (uint64_t i = bytes & ~7ull; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static int page_is_zero(const uint8_t *p) {
    for (uint64_t i = 0; i < CM_DDR_PAGE_BYTES; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w) return 0;
    }
    return 1;
}

uint64_t cm_chip_digest(const cm_chip *chip, uint32_t tiles) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t t = 0; t < tiles && t < chip->cfg.tile_count; ++t)
        h = cm_digest_words(h, chip->spm[t], chip->cfg.spm_bytes);
    for (uint64_t i = 0; i < chip->ddr.l1_count; ++i) {
        uint8_t **l2 = chip->ddr.l1[i];
        if (!l2) continue;
        for (uint64_t j = 0; j < L2_ENTRIES; ++j) {
            if (!l2[j] || page_is_zero(l2[j])) continue;
            const uint64_t page = (i << CM_DDR_L2_BITS) | j;
            h = (h ^ page) * 0x100000001b3ull;
            h = cm_digest_words(h, l2[j], CM_DDR_PAGE_BYTES);
        }
    }
    return h;
}

void cm_io_digest_fold(const cm_chip *chip, uint64_t where, const void *data, uint64_t bytes) {
    /* The chip is always heap-allocated by cm_chip_create, so updating this bookkeeping field through a pointer
     * the read functions take as const is well defined; reads do not change the modelled memory. */
    cm_chip *c = (cm_chip *)chip;
    c->io_digest = (c->io_digest ^ where) * 0x100000001b3ull;
    c->io_digest = (c->io_digest ^ bytes) * 0x100000001b3ull;
    c->io_digest = cm_digest_words(c->io_digest, (const uint8_t *)data, bytes);
}

uint64_t cm_chip_io_digest(const cm_chip *chip) { return chip->io_digest; }

/*
 * Checks the OpLib ops share before their first instruction (so that a rejected op writes nothing): the bytes of a
 * compact TSR, overflow-checked, whether a byte range lies in SPM, and whether two ranges overlap.
 */
#ifndef TX8_OPLIB_TSR_CHECKS_H
#define TX8_OPLIB_TSR_CHECKS_H

#include <stdint.h>

#include "tx8/tensor.h"

/* Bytes of `t` stored compact (row-major): the product of its shape_real times its element size. 0 when an extent
 * is < 1 or the product overflows 64 bits (no SPM range holds either). */
uint64_t tx8_tsr_compact_bytes(const TSR *t);

/* 0 when [addr, addr + bytes) is a non-empty range in SPM; otherwise faults "<op>: <name> = 0x<addr> + <bytes>
 * bytes is outside SPM" and returns -1. */
int tx8_check_in_spm(const char *op, const char *name, uint64_t addr, uint64_t bytes);

/* Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte. */
static inline int ranges_overlap(uint64_t a, uint64_t a_bytes, uint64_t b, uint64_t b_bytes) {
    return a < b + b_bytes && b < a + a_bytes;
}

#endif /* TX8_OPLIB_TSR_CHECKS_H */

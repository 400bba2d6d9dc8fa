/* Shared pre-issue checks of the OpLib ops; see tsr_checks.h. */
#include "tsr_checks.h"

#include "tx8/hal.h"

uint64_t tx8_tsr_compact_bytes(const TSR *t) {
    uint64_t bytes = tx8_format_bytes(t->format);
    for (int32_t d = 0; d < t->shape->dim; ++d)
        if (t->shape->shape_real[d] < 1 || __builtin_mul_overflow(bytes, (uint64_t)t->shape->shape_real[d], &bytes))
            return 0;
    return bytes;
}

int tx8_check_in_spm(const char *op, const char *name, uint64_t addr, uint64_t bytes) {
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    if (bytes > 0 && addr <= spm && bytes <= spm - addr) return 0;
    tx8_hal_fault("%s: %s = 0x%llx + %llu bytes is outside SPM", op, name, (unsigned long long)addr,
                  (unsigned long long)bytes);
    return -1;
}

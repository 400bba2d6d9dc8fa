/* Sparse DDR: pages are allocated on first write, so a 64 GiB address space costs nothing until touched. */
#include <string.h>

#include "cm_internal.h"

#define L2_ENTRIES (1ull << CM_DDR_L2_BITS)

cm_status cm_ddr_check(const cm_chip *chip, uint64_t addr, uint64_t bytes, const char *instr, const char *field,
                       cm_error *err) {
    const uint64_t size = chip->ddr.bytes;
    if (addr > size || bytes > size - addr)
        return cm_fail(err, CM_ERR_ADDRESS, "%s: %s = 0x%llx + %llu bytes is outside DDR [0, 0x%llx)", instr,
                       field, (unsigned long long)addr, (unsigned long long)bytes, (unsigned long long)size);
    return CM_OK;
}

static uint8_t *page_lookup(const cm_ddr *ddr, uint64_t page) {
    uint8_t **l2 = ddr->l1[page >> CM_DDR_L2_BITS];
    return l2 ? l2[page & (L2_ENTRIES - 1)] : NULL;
}

static uint8_t *page_alloc_locked(cm_chip *chip, uint64_t page, cm_error *err) {
    cm_ddr *ddr = &chip->ddr;
    uint8_t ***slot = &ddr->l1[page >> CM_DDR_L2_BITS];
    if (!*slot) {
        *slot = (uint8_t **)chip->alloc.alloc_zeroed(chip->alloc.ctx, L2_ENTRIES * sizeof(uint8_t *));
        if (!*slot) {
            cm_fail(err, CM_ERR_NOMEM, "DDR: out of host memory for a page table");
            return NULL;
        }
    }
    uint8_t **p = &(*slot)[page & (L2_ENTRIES - 1)];
    if (!*p) {
        *p = (uint8_t *)chip->alloc.alloc_zeroed(chip->alloc.ctx, CM_DDR_PAGE_BYTES);
        if (!*p) {
            cm_fail(err, CM_ERR_NOMEM, "DDR: out of host memory for page 0x%llx", (unsigned long long)page);
            return NULL;
        }
        ddr->pages++;
    }
    return *p;
}

/* Existing pages are found without the lock (a table entry only ever goes from NULL to its final value); a
 * missing one is created under the allocator's lock, re-checked there, so two tiles writing a new page at once
 * end up sharing one page. */
static uint8_t *page_get_or_alloc(cm_chip *chip, uint64_t page, cm_error *err) {
    uint8_t *p = page_lookup(&chip->ddr, page);
    if (p) return p;
    if (chip->alloc.lock) chip->alloc.lock(chip->alloc.ctx);
    p = page_alloc_locked(chip, page, err);
    if (chip->alloc.unlock) chip->alloc.unlock(chip->alloc.ctx);
    return p;
}

cm_status cm_ddr_copy_in(cm_chip *chip, uint64_t addr, const void *src, uint64_t bytes, cm_error *err) {
    const uint8_t *s = (const uint8_t *)src;
    while (bytes) {
        uint64_t off = addr & (CM_DDR_PAGE_BYTES - 1);
        uint64_t n = CM_DDR_PAGE_BYTES - off < bytes ? CM_DDR_PAGE_BYTES - off : bytes;
        uint8_t *page = page_get_or_alloc(chip, addr >> CM_DDR_PAGE_BITS, err);
        if (!page) return CM_ERR_NOMEM;
        memcpy(page + off, s, (size_t)n);
        addr += n, s += n, bytes -= n;
    }
    return CM_OK;
}

void cm_ddr_copy_out(const cm_chip *chip, uint64_t addr, void *dst, uint64_t bytes) {
    uint8_t *d = (uint8_t *)dst;
    while (bytes) {
        uint64_t off = addr & (CM_DDR_PAGE_BYTES - 1);
        uint64_t n = CM_DDR_PAGE_BYTES - off < bytes ? CM_DDR_PAGE_BYTES - off : bytes;
        const uint8_t *page = page_lookup(&chip->ddr, addr >> CM_DDR_PAGE_BITS);
        if (page)
            memcpy(d, page + off, (size_t)n);
        else
            memset(d, 0, (size_t)n);
        addr += n, d += n, bytes -= n;
    }
}

uint64_t cm_ddr_resident_bytes(const cm_chip *chip) { return chip->ddr.pages * CM_DDR_PAGE_BYTES; }

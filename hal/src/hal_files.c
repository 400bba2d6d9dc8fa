/*
 * File <-> DDR transfers of the HAL, shared by both backends: plain C stdio on top of tx8_hal_mem_*. On the host
 * that is the host's file system; on RISC-V, picolibc's stdio reaches the host's files through semihosting.
 * Call from tile 0 (outside tx8_hal_run_tiles), like any console or file I/O.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tx8/hal.h"

enum { CHUNK = 1 << 16 };

int64_t tx8_hal_file_to_ddr(const char *path, uint64_t ddr_addr, uint64_t max_bytes) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tx8 hal: cannot open input file '%s'\n", path);
        return -1;
    }
    char *buf = (char *)malloc(CHUNK);
    uint64_t total = 0;
    size_t n;
    int rc = buf ? 0 : -1;
    while (rc == 0 && (n = fread(buf, 1, CHUNK, f)) > 0) {
        if (total + n > max_bytes) {
            fprintf(stderr, "tx8 hal: input file '%s' is larger than its %llu-byte DDR region\n", path,
                    (unsigned long long)max_bytes);
            rc = -1;
            break;
        }
        rc = tx8_hal_mem_write(TX8_MEM_DDR, ddr_addr + total, buf, n);
        total += n;
    }
    free(buf);
    fclose(f);
    return rc ? -1 : (int64_t)total;
}

int tx8_hal_ddr_to_file(const char *path, uint64_t ddr_addr, uint64_t bytes) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "tx8 hal: cannot create output file '%s'\n", path);
        return -1;
    }
    char *buf = (char *)malloc(CHUNK);
    int rc = buf ? 0 : -1;
    for (uint64_t done = 0; rc == 0 && done < bytes;) {
        size_t n = bytes - done < CHUNK ? (size_t)(bytes - done) : CHUNK;
        rc = tx8_hal_mem_read(TX8_MEM_DDR, ddr_addr + done, buf, n);
        if (rc == 0 && fwrite(buf, 1, n, f) != n) {
            fprintf(stderr, "tx8 hal: short write to '%s'\n", path);
            rc = -1;
        }
        done += n;
    }
    free(buf);
    if (fclose(f) != 0) rc = -1;
    return rc;
}

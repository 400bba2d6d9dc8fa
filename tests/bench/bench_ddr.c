/*
 * tx8-bench-ddr: the chip's shared DDR under load. 1, 2, 4, 8 and 16 tiles each stream the same number of bytes
 * from DDR into their SPM (RDMA, in chunks, the next chunk queued behind the current one), then meet at a barrier;
 * prints the aggregate bytes per cycle next to the DDR's configured bandwidth. Prints numbers; asserts nothing.
 *
 *   tx8-bench-ddr [--bytes PER_TILE] [--chunk BYTES] [--write]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/hal_cmodel.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

typedef struct job {
    uint32_t bytes, chunk;
    int write;
    uint64_t start, end;
} job;

static void tile_main(void *arg) {
    job *j = (job *)arg;
    const uint32_t t = tx8_hal_tile_id();
    if (t == 0) j->start = tx8_hal_cycles();
    const uint64_t ddr = (uint64_t)t * j->bytes;
    for (uint32_t off = 0; off < j->bytes; off += j->chunk) {
        const uint32_t n = j->bytes - off < j->chunk ? j->bytes - off : j->chunk;
        DMA_Param p; /* ping-pong halves of a 2-chunk SPM buffer: each waits for nothing, the engine orders them */
        const uint64_t spm = (uint64_t)((off / j->chunk) % 2) * j->chunk;
        if (j->write) LSU_WDMA_box(&p, ddr + off, spm, n, 1, 0, 0, 1, 0, 0);
        else LSU_RDMA_box(&p, ddr + off, spm, n, 1, 0, 0, 1, 0, 0);
        TsmIssue(&p, NULL, 0);
    }
    tx8_hal_barrier(); /* waits for the tile's transfers */
    if (t == 0) j->end = tx8_hal_cycles() - (tx8_hal_tile_count() > 1 ? tx8_hal_config()->barrier_cycles : 0);
}

int main(int argc, char **argv) {
    job j = {4u << 20, 64u << 10, 0, 0, 0};
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc) j.bytes = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--chunk") && i + 1 < argc) j.chunk = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--write")) j.write = 1;
        else {
            fprintf(stderr, "usage: %s [--bytes PER_TILE] [--chunk BYTES] [--write]\n", argv[0]);
            return 2;
        }
    }
    const tx8_hw_config cfg = tx8_hw_config_default();
    if (j.chunk == 0 || j.bytes == 0 || 2ull * j.chunk > cfg.spm_bytes) {
        fprintf(stderr, "tx8-bench-ddr: need 0 < chunk <= spm_bytes / 2 and bytes > 0\n");
        return 2;
    }
    tx8_hal *hal = tx8_hal_open(&cfg);
    if (!hal) return 1;
    printf("DDR %s: every tile moves %u bytes in %u-byte %s; DDR %u B/cycle, each tile's port %u B/cycle\n",
           j.write ? "writes" : "reads", j.bytes, j.chunk, j.write ? "WDMAs" : "RDMAs", cfg.ddr_bytes_per_cycle,
           cfg.lsu_bytes_per_cycle);
    printf("  tiles  cycles      aggregate B/cycle  of DDR\n");
    for (uint32_t tiles = 1; tiles <= cfg.tile_count; tiles *= 2) {
        if (tx8_hal_run_tiles(tiles, tile_main, &j) != 0) return 1;
        const uint64_t cycles = j.end - j.start;
        const double agg = (double)tiles * j.bytes / (double)cycles;
        printf("  %5u  %10llu  %17.1f  %6.3f\n", tiles, (unsigned long long)cycles, agg,
               agg / cfg.ddr_bytes_per_cycle);
    }
    tx8_hal_close(hal);
    return 0;
}

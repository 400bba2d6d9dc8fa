/* HAL on the x86 host: instructions go to the C chip model; files and console are the host's. */
#define _POSIX_C_SOURCE 200809L
#include "tx8/hal_cmodel.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tx8_hal_cmodel {
    cm_chip *chip;
    uint32_t run_tiles;
    uint64_t *cycles; /* per tile */
    uint64_t (*engine_cycles)[TX8_HAL_ENGINE_SLOTS]; /* per tile, per OP_INSTR_TYPE */
    pthread_barrier_t barrier;
    pthread_mutex_t lock; /* guards cycles[] at barriers */
    tx8_fault_handler fault_handler;
    void *fault_ctx;
};

typedef struct binding {
    tx8_hal_cmodel *hal;
    uint32_t tile;
} binding;

static __thread binding tls_binding;

static void *host_alloc(void *ctx, size_t bytes) { (void)ctx; return calloc(1, bytes); }
static void host_release(void *ctx, void *p) { (void)ctx; free(p); }

tx8_hal_cmodel *tx8_hal_cmodel_open(const tx8_hw_config *cfg, uint32_t run_tiles) {
    if (run_tiles == 0 || run_tiles > cfg->tile_count) {
        fprintf(stderr, "tx8 hal: run_tiles = %u, the chip has %u tiles\n", run_tiles, cfg->tile_count);
        return NULL;
    }
    tx8_hal_cmodel *hal = (tx8_hal_cmodel *)calloc(1, sizeof(*hal));
    uint64_t *cycles = (uint64_t *)calloc(run_tiles, sizeof(uint64_t));
    uint64_t(*engine_cycles)[TX8_HAL_ENGINE_SLOTS] = calloc(run_tiles, sizeof(*engine_cycles));
    const cm_allocator alloc = {host_alloc, host_release, NULL};
    cm_error err = {CM_OK, ""};
    cm_chip *chip = hal && cycles && engine_cycles ? cm_chip_create(cfg, &alloc, &err) : NULL;
    if (!chip) {
        fprintf(stderr, "tx8 hal: cannot create the chip model: %s\n", err.message[0] ? err.message : "out of memory");
        free(engine_cycles);
        free(cycles);
        free(hal);
        return NULL;
    }
    hal->chip = chip;
    hal->run_tiles = run_tiles;
    hal->cycles = cycles;
    hal->engine_cycles = engine_cycles;
    pthread_barrier_init(&hal->barrier, NULL, run_tiles);
    pthread_mutex_init(&hal->lock, NULL);
    tx8_hal_cmodel_bind(hal, 0);
    return hal;
}

void tx8_hal_cmodel_close(tx8_hal_cmodel *hal) {
    if (!hal) return;
    if (tls_binding.hal == hal) tls_binding.hal = NULL;
    pthread_barrier_destroy(&hal->barrier);
    pthread_mutex_destroy(&hal->lock);
    cm_chip_destroy(hal->chip);
    free(hal->engine_cycles);
    free(hal->cycles);
    free(hal);
}

void tx8_hal_cmodel_bind(tx8_hal_cmodel *hal, uint32_t tile) {
    tls_binding.hal = hal;
    tls_binding.tile = tile;
}

cm_chip *tx8_hal_cmodel_chip(tx8_hal_cmodel *hal) { return hal->chip; }

uint64_t tx8_hal_cmodel_engine_cycles(const tx8_hal_cmodel *hal, uint32_t tile, OP_INSTR_TYPE engine) {
    return tile < hal->run_tiles && (unsigned)engine < TX8_HAL_ENGINE_SLOTS ? hal->engine_cycles[tile][engine] : 0;
}

static tx8_hal_cmodel *bound(void) {
    if (!tls_binding.hal) {
        fprintf(stderr, "tx8 hal: this thread is not bound to a tile (call tx8_hal_cmodel_open/bind first)\n");
        exit(TX8_EXIT_FAULT);
    }
    return tls_binding.hal;
}

void tx8_hal_set_fault_handler(tx8_fault_handler handler, void *ctx) {
    tx8_hal_cmodel *hal = bound();
    hal->fault_handler = handler;
    hal->fault_ctx = ctx;
}

static void raise_fault(const char *message) {
    tx8_hal_cmodel *hal = bound();
    if (hal->fault_handler) {
        hal->fault_handler(hal->fault_ctx, message);
        return;
    }
    fprintf(stderr, "tx8 fault: tile %u: %s\n", tls_binding.tile, message);
    exit(TX8_EXIT_FAULT);
}

void tx8_hal_fault(const char *fmt, ...) {
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    raise_fault(msg);
}

uint64_t tx8_hal_execute(const void *instr) {
    tx8_hal_cmodel *hal = bound();
    uint64_t cycles = 0;
    cm_error err = {CM_OK, ""};
    if (cm_execute(hal->chip, tls_binding.tile, instr, &cycles, &err) != CM_OK) {
        raise_fault(err.message);
        return TX8_CYCLES_INVALID;
    }
    uint32_t type;
    memcpy(&type, instr, sizeof type);
    hal->cycles[tls_binding.tile] += cycles;
    hal->engine_cycles[tls_binding.tile][type < TX8_HAL_ENGINE_SLOTS ? type : 0] += cycles;
    return cycles;
}

uint32_t tx8_hal_tile_id(void) { bound(); return tls_binding.tile; }
uint32_t tx8_hal_tile_count(void) { return bound()->run_tiles; }
uint64_t tx8_hal_cycles(void) { return bound()->cycles[tls_binding.tile]; }
const tx8_hw_config *tx8_hal_config(void) { return cm_chip_config(bound()->chip); }

/* All tiles leave the barrier at the simulated time of the last one to arrive. */
void tx8_hal_barrier(void) {
    tx8_hal_cmodel *hal = bound();
    if (hal->run_tiles == 1) return;
    pthread_barrier_wait(&hal->barrier);
    pthread_mutex_lock(&hal->lock);
    uint64_t latest = 0;
    for (uint32_t t = 0; t < hal->run_tiles; ++t)
        if (hal->cycles[t] > latest) latest = hal->cycles[t];
    pthread_mutex_unlock(&hal->lock);
    pthread_barrier_wait(&hal->barrier); /* everyone has read the maximum before anyone updates */
    hal->cycles[tls_binding.tile] = latest;
}

static int mem_access(tx8_mem_region region, uint64_t addr, void *buf, uint64_t bytes, int write) {
    tx8_hal_cmodel *hal = bound();
    cm_error err = {CM_OK, ""};
    cm_status s;
    if (region == TX8_MEM_DDR)
        s = write ? cm_ddr_write(hal->chip, addr, buf, bytes, &err) : cm_ddr_read(hal->chip, addr, buf, bytes, &err);
    else if (region == TX8_MEM_SPM)
        s = write ? cm_spm_write(hal->chip, tls_binding.tile, addr, buf, bytes, &err)
                  : cm_spm_read(hal->chip, tls_binding.tile, addr, buf, bytes, &err);
    else {
        s = CM_ERR_FIELD;
        snprintf(err.message, sizeof err.message, "memory access: region %d is neither DDR nor SPM", (int)region);
    }
    if (s != CM_OK) {
        raise_fault(err.message);
        return -1;
    }
    return 0;
}

int tx8_hal_mem_write(tx8_mem_region region, uint64_t addr, const void *src, uint64_t bytes) {
    return mem_access(region, addr, (void *)src, bytes, 1);
}

int tx8_hal_mem_read(tx8_mem_region region, uint64_t addr, void *dst, uint64_t bytes) {
    return mem_access(region, addr, dst, bytes, 0);
}

void tx8_hal_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

int64_t tx8_hal_file_to_ddr(const char *path, uint64_t ddr_addr, uint64_t max_bytes) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tx8 hal: cannot open input file '%s'\n", path);
        return -1;
    }
    char buf[1 << 16];
    uint64_t total = 0;
    size_t n;
    int rc = 0;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (total + n > max_bytes) {
            fprintf(stderr, "tx8 hal: input file '%s' is larger than its %llu-byte DDR region\n", path,
                    (unsigned long long)max_bytes);
            rc = -1;
            break;
        }
        rc = tx8_hal_mem_write(TX8_MEM_DDR, ddr_addr + total, buf, n);
        total += n;
    }
    fclose(f);
    return rc ? -1 : (int64_t)total;
}

int tx8_hal_ddr_to_file(const char *path, uint64_t ddr_addr, uint64_t bytes) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "tx8 hal: cannot create output file '%s'\n", path);
        return -1;
    }
    char buf[1 << 16];
    int rc = 0;
    for (uint64_t done = 0; rc == 0 && done < bytes;) {
        size_t n = bytes - done < sizeof buf ? (size_t)(bytes - done) : sizeof buf;
        rc = tx8_hal_mem_read(TX8_MEM_DDR, ddr_addr + done, buf, n);
        if (rc == 0 && fwrite(buf, 1, n, f) != n) {
            fprintf(stderr, "tx8 hal: short write to '%s'\n", path);
            rc = -1;
        }
        done += n;
    }
    if (fclose(f) != 0) rc = -1;
    return rc;
}

void tx8_hal_exit(int code) {
    fflush(stdout);
    exit(code);
}

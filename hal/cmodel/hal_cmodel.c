/* HAL on the x86 host: instructions go to the C chip model; files and console are the host's. */
#define _POSIX_C_SOURCE 200809L
#include "tx8/hal_cmodel.h"
#include "../src/model_access.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct tx8_hal {
    cm_chip *chip;
    uint32_t run_tiles; /* tiles of the current tx8_hal_run_tiles call; 1 outside */
    pthread_barrier_t barrier; /* for run_tiles tiles, valid during a run */
    pthread_mutex_t ddr_lock;  /* the chip model's DDR page table (cm_allocator lock) */
    tx8_fault_handler fault_handler;
    void *fault_ctx;
};

typedef struct binding {
    tx8_hal *hal;
    uint32_t tile;
} binding;

static __thread binding tls_binding;

static void *host_alloc(void *ctx, size_t bytes) { (void)ctx; return calloc(1, bytes); }
static void host_release(void *ctx, void *p) { (void)ctx; free(p); }
static void host_lock(void *ctx) { pthread_mutex_lock(&((tx8_hal *)ctx)->ddr_lock); }
static void host_unlock(void *ctx) { pthread_mutex_unlock(&((tx8_hal *)ctx)->ddr_lock); }

tx8_hal *tx8_hal_open(const tx8_hw_config *cfg) {
    tx8_hal *hal = (tx8_hal *)calloc(1, sizeof(*hal));
    const cm_allocator alloc = {host_alloc, host_release, hal, host_lock, host_unlock};
    cm_error err = {CM_OK, ""};
    cm_chip *chip = hal ? cm_chip_create(cfg, &alloc, &err) : NULL;
    if (!chip) {
        fprintf(stderr, "tx8 hal: cannot create the chip model: %s\n", err.message[0] ? err.message : "out of memory");
        free(hal);
        return NULL;
    }
    hal->chip = chip;
    hal->run_tiles = 1;
    pthread_mutex_init(&hal->ddr_lock, NULL);
    tx8_hal_cmodel_bind(hal, 0);
    return hal;
}

void tx8_hal_close(tx8_hal *hal) {
    if (!hal) return;
    if (tls_binding.hal == hal) tls_binding.hal = NULL;
    pthread_mutex_destroy(&hal->ddr_lock);
    cm_chip_destroy(hal->chip);
    free(hal);
}

void tx8_hal_cmodel_bind(tx8_hal *hal, uint32_t tile) {
    tls_binding.hal = hal;
    tls_binding.tile = tile;
}

cm_chip *tx8_hal_model(tx8_hal *hal) { return hal->chip; }

uint64_t tx8_hal_engine_cycles(const tx8_hal *hal, uint32_t tile, OP_INSTR_TYPE engine) {
    return cm_engine_busy_cycles(hal->chip, tile, (uint32_t)engine);
}

static tx8_hal *bound(void) {
    if (!tls_binding.hal) {
        fprintf(stderr, "tx8 hal: this thread is not bound to a tile (call tx8_hal_open or tx8_hal_cmodel_bind first)\n");
        exit(TX8_EXIT_FAULT);
    }
    return tls_binding.hal;
}

void tx8_hal_set_fault_handler(tx8_fault_handler handler, void *ctx) {
    tx8_hal *hal = bound();
    hal->fault_handler = handler;
    hal->fault_ctx = ctx;
}

void tx8_hal_backend_fault(const char *message) {
    tx8_hal *hal = bound();
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
    tx8_hal_backend_fault(msg);
}

cm_chip *tx8_hal_backend_chip(uint32_t *tile) {
    cm_chip *chip = bound()->chip;
    *tile = tls_binding.tile;
    return chip;
}

typedef struct tile_thread {
    tx8_hal *hal;
    uint32_t tile;
    void (*fn)(void *);
    void *arg;
} tile_thread;

static void *tile_thread_main(void *p) {
    tile_thread *t = (tile_thread *)p;
    tx8_hal_cmodel_bind(t->hal, t->tile);
    t->fn(t->arg);
    return NULL;
}

int tx8_hal_run_tiles(uint32_t tiles, void (*fn)(void *arg), void *arg) {
    tx8_hal *hal = bound();
    const uint32_t chip_tiles = cm_chip_config(hal->chip)->tile_count;
    if (hal->run_tiles != 1 || tls_binding.tile != 0) {
        tx8_hal_fault("run_tiles: called from inside a run (tile %u of %u)", tls_binding.tile, hal->run_tiles);
        return -1;
    }
    if (tiles == 0 || tiles > chip_tiles) {
        tx8_hal_fault("run_tiles: %u tiles requested, the chip has %u", tiles, chip_tiles);
        return -1;
    }
    tile_thread *threads = (tile_thread *)calloc(tiles, sizeof(tile_thread));
    pthread_t *ids = (pthread_t *)calloc(tiles, sizeof(pthread_t));
    if (!threads || !ids) {
        free(threads), free(ids);
        tx8_hal_fault("run_tiles: out of host memory");
        return -1;
    }
    cm_error err = {CM_OK, ""};
    if (cm_run_begin(hal->chip, tiles, &err) != CM_OK) {
        free(threads), free(ids);
        tx8_hal_backend_fault(err.message);
        return -1;
    }
    hal->run_tiles = tiles;
    pthread_barrier_init(&hal->barrier, NULL, tiles);
    uint32_t started = 1;
    for (uint32_t t = 1; t < tiles; ++t, ++started) {
        threads[t] = (tile_thread){hal, t, fn, arg};
        if (pthread_create(&ids[t], NULL, tile_thread_main, &threads[t]) != 0) {
            fprintf(stderr, "tx8 hal: cannot start the thread of tile %u\n", t);
            exit(TX8_EXIT_FAULT); /* the started tiles may already wait at a barrier for it */
        }
    }
    fn(arg);
    for (uint32_t t = 1; t < started; ++t) pthread_join(ids[t], NULL);
    pthread_barrier_destroy(&hal->barrier);
    hal->run_tiles = 1;
    tx8_hal_cmodel_bind(hal, 0);
    free(threads), free(ids);
    if (cm_run_end(hal->chip, &err) != CM_OK) { /* the chip's time is now the latest tile's */
        tx8_hal_backend_fault(err.message);
        return -1;
    }
    return 0;
}

uint64_t tx8_hal_core_cycles(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t tx8_hal_tile_id(void) { bound(); return tls_binding.tile; }
uint32_t tx8_hal_tile_count(void) { return bound()->run_tiles; }
uint64_t tx8_hal_cycles(void) { return cm_tile_cycles(bound()->chip, tls_binding.tile); }
const tx8_hw_config *tx8_hal_config(void) { return cm_chip_config(bound()->chip); }

/* All tiles wait here; then tile 0 replays the epoch of every tile together (the exact times, with shared DDR and
 * NoC) while the others wait again, and they all leave at the latest tile's time plus barrier_cycles. */
void tx8_hal_barrier(void) {
    tx8_hal *hal = bound();
    if (hal->run_tiles == 1) { /* nobody to wait for but the tile's own instructions */
        tx8_hal_wait_all();
        return;
    }
    pthread_barrier_wait(&hal->barrier);
    cm_error err = {CM_OK, ""};
    const cm_status s = tls_binding.tile == 0
                            ? cm_run_barrier(hal->chip, cm_chip_config(hal->chip)->barrier_cycles, &err)
                            : CM_OK;
    pthread_barrier_wait(&hal->barrier);
    if (s != CM_OK) tx8_hal_backend_fault(err.message);
}

static int mem_access(tx8_mem_region region, uint64_t addr, void *buf, uint64_t bytes, int write) {
    cm_error err = {CM_OK, ""};
    if (tx8_hal_model_access(bound()->chip, tls_binding.tile, region, addr, buf, bytes, write, &err) != CM_OK) {
        tx8_hal_backend_fault(err.message);
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

void tx8_hal_exit(int code) {
    fflush(stdout);
    exit(code);
}

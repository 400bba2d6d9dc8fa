/*
 * HAL on bare-metal RISC-V: tile = hart. Instructions go to the chip model in guest RAM; files (src/hal_files.c)
 * go through semihosting to the host running QEMU, relative to QEMU's working directory; the console is
 * semihosted stdio on hart 0 and the UART elsewhere.
 *
 * Unlike the host backend there is no thread binding: the hart id says which tile is running, and the one chip
 * of the firmware is a file-level pointer (bare metal has exactly one machine).
 */
#include "tx8/hal_riscv.h"
#include "../src/model_access.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct tx8_hal {
    cm_chip *chip;
    uint32_t run_tiles; /* tiles of the current tx8_hal_run_tiles call; 1 outside */
    tx8_fault_handler fault_handler;
    void *fault_ctx;
};

static tx8_hal *g_hal;
static tx8_riscv_lock g_ddr_lock;

static void *guest_alloc(void *ctx, size_t bytes) { (void)ctx; return calloc(1, bytes); }
static void guest_release(void *ctx, void *p) { (void)ctx; free(p); }
static void guest_lock(void *ctx) { tx8_riscv_lock_acquire((tx8_riscv_lock *)ctx); }
static void guest_unlock(void *ctx) { tx8_riscv_lock_release((tx8_riscv_lock *)ctx); }

/* Stops the machine from any hart: exit() (semihosting, flushes stdio) belongs to hart 0. */
static void stop(int code) __attribute__((noreturn));
static void stop(int code) {
    if (tx8_riscv_hart_id() == 0) {
        fflush(stdout);
        exit(code);
    }
    tx8_riscv_finish(code);
}

tx8_hal *tx8_hal_open(const tx8_hw_config *cfg) {
    if (tx8_riscv_hart_id() != 0 || g_hal) {
        tx8_riscv_uart_printf("tx8 hal: open from hart %u with %s chip open; only hart 0 opens one chip\n",
                              tx8_riscv_hart_id(), g_hal ? "a" : "no");
        return NULL;
    }
    if (cfg->tile_count > TX8_RISCV_MAX_HARTS) {
        printf("tx8 hal: the config has %u tiles, RISC-V firmware supports at most %u\n", cfg->tile_count,
               TX8_RISCV_MAX_HARTS);
        return NULL;
    }
    tx8_hal *hal = (tx8_hal *)calloc(1, sizeof(*hal));
    const cm_allocator alloc = {guest_alloc, guest_release, &g_ddr_lock, guest_lock, guest_unlock};
    cm_error err = {CM_OK, ""};
    cm_chip *chip = hal ? cm_chip_create(cfg, &alloc, &err) : NULL;
    if (!chip) {
        printf("tx8 hal: cannot create the chip model: %s\n", err.message[0] ? err.message : "out of guest memory");
        free(hal);
        return NULL;
    }
    hal->chip = chip;
    hal->run_tiles = 1;
    g_hal = hal;
    return hal;
}

void tx8_hal_close(tx8_hal *hal) {
    if (!hal) return;
    if (g_hal == hal) g_hal = NULL;
    cm_chip_destroy(hal->chip);
    free(hal);
}

cm_chip *tx8_hal_model(tx8_hal *hal) { return hal->chip; }

uint64_t tx8_hal_engine_cycles(const tx8_hal *hal, uint32_t tile, OP_INSTR_TYPE engine) {
    return cm_engine_busy_cycles(hal->chip, tile, (uint32_t)engine);
}

static tx8_hal *opened(void) {
    if (!g_hal) {
        tx8_riscv_uart_printf("tx8 hal: hart %u used the HAL before tx8_hal_open\n", tx8_riscv_hart_id());
        tx8_riscv_finish(TX8_EXIT_FAULT);
    }
    return g_hal;
}

void tx8_hal_set_fault_handler(tx8_fault_handler handler, void *ctx) {
    tx8_hal *hal = opened();
    hal->fault_handler = handler;
    hal->fault_ctx = ctx;
}

void tx8_hal_backend_fault(const char *message) {
    tx8_hal *hal = opened();
    if (hal->fault_handler) {
        hal->fault_handler(hal->fault_ctx, message);
        return;
    }
    if (tx8_riscv_hart_id() == 0) printf("tx8 fault: tile 0: %s\n", message);
    else tx8_riscv_uart_printf("tx8 fault: tile %u: %s\n", tx8_riscv_hart_id(), message);
    stop(TX8_EXIT_FAULT);
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
    cm_chip *chip = opened()->chip;
    *tile = tx8_riscv_hart_id();
    return chip;
}

int tx8_hal_run_tiles(uint32_t tiles, void (*fn)(void *arg), void *arg) {
    tx8_hal *hal = opened();
    const uint32_t chip_tiles = cm_chip_config(hal->chip)->tile_count;
    if (hal->run_tiles != 1 || tx8_riscv_hart_id() != 0) {
        tx8_hal_fault("run_tiles: called from inside a run (tile %u of %u)", tx8_riscv_hart_id(), hal->run_tiles);
        return -1;
    }
    if (tiles == 0 || tiles > chip_tiles) {
        tx8_hal_fault("run_tiles: %u tiles requested, the chip has %u", tiles, chip_tiles);
        return -1;
    }
    if (tiles > tx8_riscv_harts()) {
        tx8_hal_fault("run_tiles: %u tiles requested, this firmware is linked for %u harts (tx8_riscv_firmware HARTS)",
                      tiles, tx8_riscv_harts());
        return -1;
    }
    cm_error err = {CM_OK, ""};
    if (cm_run_begin(hal->chip, tiles, &err) != CM_OK) {
        tx8_hal_backend_fault(err.message);
        return -1;
    }
    hal->run_tiles = tiles;
    tx8_riscv_run_on_harts(tiles, fn, arg);
    hal->run_tiles = 1;
    if (cm_run_end(hal->chip, &err) != CM_OK) { /* the chip's time is now the latest tile's */
        tx8_hal_backend_fault(err.message);
        return -1;
    }
    return 0;
}

uint32_t tx8_hal_tile_id(void) { opened(); return tx8_riscv_hart_id(); }
uint32_t tx8_hal_tile_count(void) { return opened()->run_tiles; }
uint64_t tx8_hal_cycles(void) { return cm_tile_cycles(opened()->chip, tx8_riscv_hart_id()); }
uint64_t tx8_hal_core_cycles(void) { return tx8_riscv_mcycle(); }
const tx8_hw_config *tx8_hal_config(void) { return cm_chip_config(opened()->chip); }

/* As on the cmodel backend: all harts wait, hart 0 replays every tile's epoch together while the others wait
 * again, and all leave at the latest tile's time plus barrier_cycles. */
void tx8_hal_barrier(void) {
    tx8_hal *hal = opened();
    const uint32_t n = hal->run_tiles;
    if (n == 1) { /* nobody to wait for but the tile's own instructions */
        tx8_hal_wait_all();
        return;
    }
    tx8_riscv_hart_barrier(n);
    cm_error err = {CM_OK, ""};
    const cm_status s = tx8_riscv_hart_id() == 0
                            ? cm_run_barrier(hal->chip, cm_chip_config(hal->chip)->barrier_cycles, &err)
                            : CM_OK;
    tx8_riscv_hart_barrier(n);
    if (s != CM_OK) tx8_hal_backend_fault(err.message);
}

static int mem_access(tx8_mem_region region, uint64_t addr, void *buf, uint64_t bytes, int write) {
    cm_error err = {CM_OK, ""};
    if (tx8_hal_model_access(opened()->chip, tx8_riscv_hart_id(), region, addr, buf, bytes, write, &err) != CM_OK) {
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
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (tx8_riscv_hart_id() == 0) {
        fputs(buf, stdout);
        fflush(stdout);
    } else {
        tx8_riscv_uart_puts(buf);
    }
}

void tx8_hal_exit(int code) { stop(code); }

/*
 * TX8 HAL: the one interface the runtime and OpLib use to reach the chip. Two backends implement it:
 * hal/cmodel (x86 host, instructions executed by the C chip model) and hal/riscv (bare metal under QEMU).
 *
 * Each kernel core (tile) issues instructions to its own neural core, so the calls below act on "the current
 * tile": the tile this thread / hart runs as. No call allocates or hides state beyond that binding.
 */
#ifndef TX8_HAL_H
#define TX8_HAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tx8/hw_config.h"
#include "tx8/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returned by tx8_hal_execute (and by op_* functions) when an instruction or op could not run. */
#define TX8_CYCLES_INVALID UINT64_MAX

/* ---- the chip ----
 * A program opens its chip once with a hardware config and then runs as tile 0 of it (tx8_hal_run_tiles runs
 * more tiles). On RISC-V only hart 0 opens it, and one chip exists at a time. */
typedef struct tx8_hal tx8_hal;
tx8_hal *tx8_hal_open(const tx8_hw_config *cfg); /* NULL after printing why */
void tx8_hal_close(tx8_hal *hal);
/* Cycles one engine of tile `tile` has been busy (each instruction from its start to its end, summed; the exact
 * figures once a run's barrier has replayed them), for breakdowns. */
uint64_t tx8_hal_engine_cycles(const tx8_hal *hal, uint32_t tile, OP_INSTR_TYPE engine);

typedef enum tx8_mem_region {
    TX8_MEM_DDR = 0, /* chip DDR, byte addresses [0, ddr_bytes) */
    TX8_MEM_SPM = 1, /* current tile's SPM, byte addresses [0, spm_bytes) */
} tx8_mem_region;

/* ---- instructions ---- */

/* Executes one instruction (CT_Param, TsmNeInstr, DMA_Param, TD_Param or DTE_Param; told apart by its leading
 * inter_type) on the current tile: issue + wait (below). Returns the cycles the tile's kernel core spent from the
 * issue to its end (its own cost, plus any wait for its engine); on a bad instruction reports a fault (see below)
 * and returns TX8_CYCLES_INVALID without touching memory. */
uint64_t tx8_hal_execute(const void *instr);

/* ---- asynchronous issue: per-engine timelines ----
 * Each tile's engines (CT, NE, RDMA, WDMA, TDMA, DTE) run concurrently, each one its own instructions in issue
 * order, the way the tile's kernel core drives them. tx8_hal_issue queues an instruction on its engine and returns
 * at once with a token; the instruction starts when its engine is free, the kernel core has issued it and every
 * token in deps has completed, and it occupies its engine for its cycles (DMA and DTE transfers share DDR and NoC
 * bandwidth with every other transfer in flight, see cmodel/README.md). tx8_hal_wait holds the kernel core until
 * the token's instruction has completed. tx8_hal_execute is issue + wait.
 * The model executes an instruction's data movement when it is issued, in program order; so that a missing wait
 * cannot hide behind that, an instruction that starts while an unfinished earlier one of the same tile writes
 * memory it touches (or touches memory it writes) is a fault naming both. Tokens are per tile; 0 means none. */
typedef uint64_t tx8_token;
tx8_token tx8_hal_issue(const void *instr, const tx8_token *deps, uint32_t ndeps); /* 0 after a fault */
uint64_t tx8_hal_wait(tx8_token token); /* the current tile's cycles once the token's instruction is done */
uint64_t tx8_hal_wait_all(void);        /* ... once every instruction it issued is done */

/* ---- faults ----
 * A fault is what hardware would raise as an exception: a bad address, an ill-formed instruction, an op given
 * parameters it cannot handle. The default handler prints "tx8 fault: <message>" on the console and exits with
 * TX8_EXIT_FAULT. Tests install their own handler to check the message. */
#define TX8_EXIT_FAULT 3
typedef void (*tx8_fault_handler)(void *ctx, const char *message);
void tx8_hal_set_fault_handler(tx8_fault_handler handler, void *ctx);
void tx8_hal_fault(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- tiles, time and synchronisation ---- */
/* Runs fn(arg) on tiles 0..tiles-1 at once (host threads on the cmodel, harts on RISC-V), the caller acting as
 * tile 0, and returns when every tile has returned. Inside fn, tx8_hal_tile_id() tells the tiles apart and
 * tx8_hal_tile_count() is `tiles`; outside, a program is one tile. Returns 0, or -1 after a fault when the
 * chip or the machine cannot provide that many tiles (or when called from inside fn). */
int tx8_hal_run_tiles(uint32_t tiles, void (*fn)(void *arg), void *arg);
uint32_t tx8_hal_tile_id(void);
uint32_t tx8_hal_tile_count(void);
/* All tiles of the run wait here, each once its own instructions are done, and leave at the latest tile's time plus
 * barrier_cycles (hw_config.def); with one tile it only waits for that tile's instructions. */
void tx8_hal_barrier(void);
/* Current tile's NPU time: simulated cycles of the instructions it has executed (plus barrier waits). The same
 * on every backend: it comes from the chip model's cycle model, not from the CPU running it. */
uint64_t tx8_hal_cycles(void);
/* The kernel core's own clock: mcycle on RISC-V (under QEMU -icount shift=0, exactly the guest instructions
 * retired); on the x86 host, which has no kernel core, CLOCK_MONOTONIC nanoseconds. For measuring firmware
 * overhead, never for results. */
uint64_t tx8_hal_core_cycles(void);
const tx8_hw_config *tx8_hal_config(void);

/* ---- memory: host-side access to DDR and the current tile's SPM (for loaders, tests, I/O) ----
 * Return 0 on success; an out-of-range access reports a fault and returns -1. */
int tx8_hal_mem_write(tx8_mem_region region, uint64_t addr, const void *src, uint64_t bytes);
int tx8_hal_mem_read(tx8_mem_region region, uint64_t addr, void *dst, uint64_t bytes);

/* ---- console, files, exit ---- */
void tx8_hal_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Reads a whole file into DDR at ddr_addr (at most max_bytes). Returns the bytes read, or -1 (message printed). */
int64_t tx8_hal_file_to_ddr(const char *path, uint64_t ddr_addr, uint64_t max_bytes);
/* Writes DDR [ddr_addr, ddr_addr + bytes) to a file. Returns 0, or -1 (message printed). */
int tx8_hal_ddr_to_file(const char *path, uint64_t ddr_addr, uint64_t bytes);
/* ---- traces: every engine's instructions on the simulated timeline (tx8/trace_format.h) ----
 * tx8_hal_trace_begin(path): when the file `path` exists (a runner asks for a trace by creating it empty), the
 * chip model reports every instruction, trace mark and barrier wait from now on into it; returns 1 when tracing,
 * 0 when not asked, -1 on an error (message printed). Tile 0, outside tx8_hal_run_tiles. tx8_hal_trace_mark(tag),
 * from any tile: the tile's instructions from this point of its program on carry `tag` (a group number); nothing
 * when not tracing. tx8_hal_trace_end(): waits for tile 0's instructions, appends each tile's engine busy cycles
 * and the end time and closes the file; 0, or -1 on a write error. */
int tx8_hal_trace_begin(const char *path);
void tx8_hal_trace_mark(uint32_t tag);
int tx8_hal_trace_end(void);

void tx8_hal_exit(int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* TX8_HAL_H */

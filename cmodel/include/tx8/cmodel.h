/*
 * TX8 cmodel: a functional and cycle-level C model of one chip (DDR + per-tile SPM + CT/NE/LSU engines).
 *
 * Portable C99 with no OS calls: memory comes from the caller's allocator, errors come back in cm_error. The
 * same code runs inside the x86 HAL backend and inside bare-metal RISC-V firmware, so both give the same bits.
 * Every function that can fail returns CM_OK (0) or an error code and fills *err with a message naming the
 * instruction and the field at fault.
 */
#ifndef TX8_CMODEL_H
#define TX8_CMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tx8/hw_config.h"
#include "tx8/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cm_status {
    CM_OK = 0,
    CM_ERR_ADDRESS,     /* an access outside SPM or DDR */
    CM_ERR_FIELD,       /* an instruction field with an invalid value */
    CM_ERR_UNSUPPORTED, /* a valid but not modelled instruction type / combination */
    CM_ERR_NOMEM,       /* the allocator refused */
    CM_ERR_CONFIG,      /* an invalid hardware configuration */
    CM_ERR_HAZARD,      /* an instruction started while an unfinished earlier one touched its memory */
} cm_status;

typedef struct cm_error {
    cm_status code;
    char message[256];
} cm_error;

/* Memory for the model. alloc must return zeroed, 16-byte aligned memory or NULL. When several tiles run at
 * once, lock/unlock (optional, NULL when single-threaded) guard the DDR page table, which grows on first write
 * from any tile. */
typedef struct cm_allocator {
    void *(*alloc_zeroed)(void *ctx, size_t bytes);
    void (*release)(void *ctx, void *ptr);
    void *ctx;
    void (*lock)(void *ctx);
    void (*unlock)(void *ctx);
} cm_allocator;

typedef struct cm_chip cm_chip;

/* Creates a chip. SPM of every tile is allocated now (tile_count x spm_bytes); DDR pages only when first written,
 * so a 64 GiB DDR costs nothing until used. Returns NULL and fills *err on failure. */
cm_chip *cm_chip_create(const tx8_hw_config *cfg, const cm_allocator *alloc, cm_error *err);
void cm_chip_destroy(cm_chip *chip);
const tx8_hw_config *cm_chip_config(const cm_chip *chip);

/* Executes one instruction (its leading uint32 is an OP_INSTR_TYPE) on `tile`; *cycles gets its cost alone (no
 * queueing, no other transfer in flight). Not timed: cm_issue is the timed form. */
cm_status cm_execute(cm_chip *chip, uint32_t tile, const void *instr, uint64_t *cycles, cm_error *err);

/* ---- time: every tile's engines on their own timelines (cmodel/README.md, "Time") ----
 * cm_issue executes an instruction's data movement at once (as cm_execute) and queues its timing on its engine:
 * it starts when the engine is free, every token in deps is done and the tile's kernel core has issued it.
 * cm_wait advances the tile's kernel core until the token's instruction is done. Tokens count a tile's
 * instructions from 1. An instruction that starts while an earlier one of its tile that is not done writes
 * memory it touches (or touches memory it writes) is an error (CM_ERR_HAZARD) from the wait that finds it.
 * Outside a run a tile's time is exact at once. Between cm_run_begin and cm_run_end, tiles [0, tiles) run at once:
 * a tile's time is provisional (its transfers see no other tile's traffic) until cm_run_barrier replays every
 * tile's instructions since the last barrier together, sharing DDR and NoC bandwidth, and moves every tile to
 * the latest one's time plus the barrier's cycles. Per-tile calls may come from each tile's own thread at once;
 * cm_run_* from one thread while no tile calls anything. */
typedef uint64_t cm_token;
#define CM_MAX_DEPS 8u
cm_status cm_issue(cm_chip *chip, uint32_t tile, const void *instr, const cm_token *deps, uint32_t ndeps,
                   cm_token *token, cm_error *err);
cm_status cm_wait(cm_chip *chip, uint32_t tile, cm_token token, cm_error *err);
cm_status cm_wait_all(cm_chip *chip, uint32_t tile, cm_error *err);
uint64_t cm_tile_cycles(const cm_chip *chip, uint32_t tile);                       /* the kernel core's time */
uint64_t cm_engine_busy_cycles(const cm_chip *chip, uint32_t tile, uint32_t engine); /* start-to-end, summed */
cm_status cm_run_begin(cm_chip *chip, uint32_t tiles, cm_error *err);
cm_status cm_run_barrier(cm_chip *chip, uint64_t barrier_cycles, cm_error *err);
cm_status cm_run_end(cm_chip *chip, cm_error *err); /* as a barrier of 0 cycles, then tile 0 runs alone */

/* ---- traces: what every engine did when, for timelines (cmodel/README.md, "Traces") ----
 * With a sink set, the scheduler reports each instruction once its times are exact: outside a run when its tile's
 * own replay completes it, inside a run at the barrier that replays every tile together (provisional replays report
 * nothing). Marks are records in a tile's program like waits, so they get the tile's exact time too; each
 * instruction carries the tag of the last mark its tile set before issuing it (0 before any). Events of a run
 * arrive from the thread that calls cm_run_barrier / cm_run_end, outside one from the tile's own thread. */
typedef enum cm_trace_kind {
    CM_TRACE_INSTR = 1,   /* an instruction: [start, end) on `engine`; DMA / DTE bytes flow from `ready` */
    CM_TRACE_MARK = 2,    /* the tile's kernel core passed cm_trace_mark(tag) at `start` */
    CM_TRACE_BARRIER = 3, /* the tile waited in a run's barrier from `start` (its work done) to `end` (it left) */
} cm_trace_kind;

typedef struct cm_trace_event {
    uint32_t kind;   /* cm_trace_kind */
    uint32_t tile;
    uint32_t engine; /* INSTR: OP_INSTR_TYPE */
    uint32_t op;     /* INSTR: CT_OPCODE / NE_OPCODE / TD_OPCODE (DMA, DTE: 0) */
    uint32_t tag;    /* INSTR: the tile's tag when it was issued; MARK: the new tag */
    uint32_t flags;  /* INSTR: CM_TRACE_FROM_DDR for a DTE transfer whose source is DDR */
    uint64_t start, ready, end; /* cycles */
    uint64_t bytes;  /* DMA / DTE: bytes moved (DDR bursts rounded up) */
    uint64_t macs;   /* NE: multiply-accumulates */
    uint32_t dims[4]; /* NE: M, K, N, in_fmt (a conv as its implicit GEMM); CT: elements, src_fmt, dst_fmt, format */
} cm_trace_event;
#define CM_TRACE_FROM_DDR 1u

typedef struct cm_trace_sink {
    void (*event)(void *ctx, const cm_trace_event *ev);
    void *ctx;
} cm_trace_sink;
/* Starts (sink non-NULL, copied) or stops (NULL) reporting. Call while no tile has instructions in flight. */
void cm_chip_set_trace(cm_chip *chip, const cm_trace_sink *sink);
/* Sets the tile's tag (a group number, say) at the current point of its program; nothing without a sink. */
cm_status cm_trace_mark(cm_chip *chip, uint32_t tile, uint32_t tag, cm_error *err);

/* Host access to memories (no cycles). */
cm_status cm_ddr_write(cm_chip *chip, uint64_t addr, const void *src, uint64_t bytes, cm_error *err);
cm_status cm_ddr_read(const cm_chip *chip, uint64_t addr, void *dst, uint64_t bytes, cm_error *err);
cm_status cm_spm_write(cm_chip *chip, uint32_t tile, uint64_t addr, const void *src, uint64_t bytes, cm_error *err);
cm_status cm_spm_read(const cm_chip *chip, uint32_t tile, uint64_t addr, void *dst, uint64_t bytes, cm_error *err);

/* DDR bytes currently backed by allocated pages (to check that untouched DDR costs nothing). */
uint64_t cm_ddr_resident_bytes(const cm_chip *chip);

/* A 64-bit digest of the memory state: the SPM of tiles [0, tiles) and every DDR page holding a non-zero byte
 * (with its address). Two runs that end with equal digests ended with equal memories (up to hash collisions):
 * this is how host and RISC-V runs are shown to be bit-identical. */
uint64_t cm_chip_digest(const cm_chip *chip, uint32_t tiles);
/* A running digest of every host transfer so far (cm_ddr_read/write, cm_spm_read/write: memory, tile, address
 * and data, in order): it covers every input a test wrote and every output it read back, also those later
 * overwritten. Deterministic as long as the host accesses come from one thread at a time. */
uint64_t cm_chip_io_digest(const cm_chip *chip);

#ifdef __cplusplus
}
#endif

#endif /* TX8_CMODEL_H */

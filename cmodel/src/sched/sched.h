/*
 * The scheduler: turns what tiles issued (instructions with their cm_cost, waits) into cycles.
 *
 * A tile's log is its kernel core's program as the chip saw it: ISSUE (an instruction, queued in order on its
 * engine), WAIT (the core stops until a token's instruction is done) and WAIT_ALL. A simulation (cm_sim) replays
 * the logs of one or several tiles from a common start time as a discrete-event simulation over whole cycles:
 *   - an engine runs its queue in issue order, one instruction at a time; an instruction starts when it heads its
 *     queue, its deps are done and the core has issued it;
 *   - FIXED instructions take fixed_cycles; DMA / DTE ones take fixed_cycles (latency), then move their bytes as a
 *     flow through shared resources (DDR, each tile's RDMA / WDMA / DTE port, each directed NoC link); the
 *     flows in progress share every resource max-min fairly (progressive filling), in 1/65536-byte units so
 *     that rates are integers: the same input gives the same cycles on every host and backend;
 *   - an instruction that starts while an earlier-issued, unfinished one of its tile writes memory it touches (or
 *     touches memory it writes) is a hazard: the simulation stops with an error naming both.
 * The logs are read-only to the simulation, so one log can be replayed alone (a tile's own, provisional view)
 * and again together with every other tile's (the exact one, at a barrier).
 */
#ifndef TX8_CM_SCHED_H
#define TX8_CM_SCHED_H

#include <stdint.h>

#include "tx8/cmodel.h"
#include "cm_cost.h"

#define CM_ENGINES 8u /* OP_INSTR_TYPE values index the engines */

/* MARK: a trace mark (cm_trace_mark), passed by the core at once; reported by a simulation with a trace sink. */
typedef enum cm_rec_kind { CM_REC_ISSUE, CM_REC_WAIT, CM_REC_WAIT_ALL, CM_REC_MARK } cm_rec_kind;

typedef struct cm_rec {
    uint32_t kind; /* cm_rec_kind */
    uint64_t arg;  /* ISSUE: index into the log's ops; WAIT: a token; MARK: the tag */
} cm_rec;

typedef struct cm_op {
    cm_cost cost;
    uint32_t tag; /* the tile's trace tag when it was issued */
    uint32_t ndeps;
    cm_token deps[CM_MAX_DEPS];
} cm_op;

typedef struct cm_log {
    cm_op *ops;
    uint64_t nops, cap_ops;
    cm_rec *recs;
    uint64_t nrecs, cap_recs;
    cm_token base; /* the token of ops[0]; tokens below it belong to instructions already done */
} cm_log;

/* Appends to a log, growing it with the allocator; CM_ERR_NOMEM when it refuses. */
cm_status cm_log_issue(cm_log *log, const cm_allocator *a, const cm_cost *cost, uint32_t tag, const cm_token *deps,
                       uint32_t ndeps, cm_error *err);
cm_status cm_log_rec(cm_log *log, const cm_allocator *a, uint32_t kind, uint64_t arg, cm_error *err);
void cm_log_clear(cm_log *log); /* forget every record; the next op gets token base + nops */
void cm_log_free(cm_log *log, const cm_allocator *a);

typedef struct sim_op {
    uint64_t issue, start, ready, end; /* cycles; ready: end of a transfer's latency */
    uint64_t rem;                      /* bytes still to move, in 1/65536 bytes */
    uint32_t phase;
} sim_op;

typedef struct sim_queue {
    uint64_t *idx; /* op indices in issue order */
    uint64_t n, cap, head;
} sim_queue;

typedef struct sim_tile {
    uint32_t tile; /* chip tile id */
    const cm_log *log;
    sim_op *ops;
    uint64_t cap_ops;
    sim_queue q[CM_ENGINES];
    uint64_t pc;       /* next record */
    uint64_t core;     /* the kernel core's time */
    uint64_t pending;  /* issued, not done */
    uint64_t last_end; /* latest end of a done instruction */
    uint64_t busy[CM_ENGINES];
} sim_tile;

typedef struct sim_flow {
    uint32_t t; /* index into cm_sim.tiles */
    uint64_t op;
    uint64_t rate; /* 1/65536 bytes per cycle */
    uint32_t nres;
    uint32_t *res;
} sim_flow;

typedef struct cm_sim {
    const tx8_hw_config *cfg;
    const cm_allocator *alloc;
    uint32_t ntiles;
    sim_tile *tiles;
    uint64_t now;
    sim_flow *flows;
    uint32_t nflows, cap_flows;
    int rates_dirty;
    uint32_t nres;       /* resources: DDR, 3 ports per tile, 4 out-links per tile */
    uint64_t *cap_left;  /* progressive-filling scratch, per resource */
    uint32_t *users;     /* ... */
    uint8_t *frozen;     /* per flow slot */
    const cm_trace_sink *trace; /* NULL, or where exact replays report instructions and marks */
} cm_sim;

/* A simulation of `ntiles` logs (logs[i] of chip tile tiles[i]) starting at cycle `start`, every engine idle. */
cm_status cm_sim_init(cm_sim *s, const tx8_hw_config *cfg, const cm_allocator *a, uint32_t ntiles,
                      const uint32_t *tiles, const cm_log *const *logs, uint64_t start, cm_error *err);
void cm_sim_free(cm_sim *s);
/* Forgets everything of tile slot 0 and restarts it idle at `start` (the log was cleared). Single-tile sims. */
void cm_sim_restart(cm_sim *s, uint64_t start);
/* Runs until every tile has replayed all of its records (each WAIT satisfied); stops earlier on a hazard. */
cm_status cm_sim_run(cm_sim *s, cm_error *err);

/* One epoch of a run: appends a WAIT_ALL to each of logs[0..n) (chip tiles 0..n-1), replays them together from
 * `start`, sets *latest to the latest tile's time, arrive[t] to tile t's (may be NULL) and adds each tile's engine
 * cycles to busy[t] (busy may be NULL); reports to `trace` (may be NULL). The logs keep their records; the caller
 * clears them. */
cm_status cm_sched_epoch(const tx8_hw_config *cfg, const cm_allocator *a, cm_log *const *logs, uint32_t n,
                         uint64_t start, const cm_trace_sink *trace, uint64_t *latest, uint64_t *arrive,
                         uint64_t (*busy)[CM_ENGINES], cm_error *err);

#endif /* TX8_CM_SCHED_H */

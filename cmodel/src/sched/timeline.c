/*
 * Every tile's clock: issue, wait, runs and barriers (the API in tx8/cmodel.h; the model in cmodel/README.md).
 *
 * Each tile keeps the log of what it issued and a simulation of that log alone, which answers its waits at once.
 * Outside a run that answer is exact (no other tile is running), so once the tile has nothing in flight its log is
 * dropped. Inside a run of several tiles the logs are kept until the barrier, where one simulation of all of them
 * together gives the exact times; the barrier then moves every tile to the latest time plus its own cost.
 */
#include <string.h>

#include "../cm_internal.h"
#include "sched.h"

typedef struct cm_clock {
    cm_log log;
    cm_sim local; /* this tile alone; created on the tile's first issue */
    int has_local;
    uint64_t start; /* where the local simulation restarts after the log is cleared */
    uint64_t busy[CM_ENGINES]; /* committed: exact engine cycles of instructions no longer in a log */
    cm_token last;             /* tokens issued so far */
    uint32_t tag;              /* the last trace mark's tag: instructions issued now carry it */
} cm_clock;

struct cm_timeline {
    uint32_t run_tiles;   /* tiles of the current run; 1 outside */
    uint64_t epoch_start; /* cycle the current run's last barrier (or its start) left at */
    cm_clock *clocks;     /* per tile */
    int tracing;
    cm_trace_sink trace;  /* valid while tracing */
};

cm_status cm_timeline_create(cm_chip *chip, cm_error *err) {
    const cm_allocator *a = &chip->alloc;
    chip->time = (cm_timeline *)a->alloc_zeroed(a->ctx, sizeof(cm_timeline));
    if (chip->time) chip->time->clocks = (cm_clock *)a->alloc_zeroed(a->ctx, chip->cfg.tile_count * sizeof(cm_clock));
    if (!chip->time || !chip->time->clocks) return cm_fail(err, CM_ERR_NOMEM, "cm_chip_create: out of host memory");
    chip->time->run_tiles = 1;
    for (uint32_t t = 0; t < chip->cfg.tile_count; ++t) chip->time->clocks[t].log.base = 1; /* tokens count from 1 */
    return CM_OK;
}

void cm_timeline_destroy(cm_chip *chip) {
    cm_timeline *tl = chip->time;
    if (!tl) return;
    const cm_allocator *a = &chip->alloc;
    for (uint32_t t = 0; tl->clocks && t < chip->cfg.tile_count; ++t) {
        if (tl->clocks[t].has_local) cm_sim_free(&tl->clocks[t].local);
        cm_log_free(&tl->clocks[t].log, a);
    }
    if (tl->clocks) a->release(a->ctx, tl->clocks);
    a->release(a->ctx, tl);
    chip->time = NULL;
}

static int in_run(const cm_chip *chip, uint32_t tile) {
    return chip->time->run_tiles > 1 && tile < chip->time->run_tiles;
}

static cm_status local_sim(cm_chip *chip, uint32_t tile, cm_sim **out, cm_error *err) {
    cm_clock *c = &chip->time->clocks[tile];
    if (!c->has_local) {
        const cm_log *logs[1] = {&c->log};
        cm_status s = cm_sim_init(&c->local, &chip->cfg, &chip->alloc, 1, &tile, logs, c->start, err);
        if (s != CM_OK) return s;
        c->has_local = 1;
    }
    *out = &c->local;
    return CM_OK;
}

static cm_status check_tile(const cm_chip *chip, uint32_t tile, const char *what, cm_error *err) {
    return tile < chip->cfg.tile_count ? CM_OK
                                       : cm_fail(err, CM_ERR_FIELD, "%s: tile %u does not exist (tile_count %u)",
                                                 what, tile, chip->cfg.tile_count);
}

cm_status cm_issue(cm_chip *chip, uint32_t tile, const void *instr, const cm_token *deps, uint32_t ndeps,
                   cm_token *token, cm_error *err) {
    *token = 0;
    cm_status s = check_tile(chip, tile, "issue", err);
    if (s != CM_OK) return s;
    cm_clock *c = &chip->time->clocks[tile];
    if (ndeps > CM_MAX_DEPS)
        return cm_fail(err, CM_ERR_FIELD, "issue: %u dependencies, at most %u", ndeps, CM_MAX_DEPS);
    if (ndeps && !deps) return cm_fail(err, CM_ERR_FIELD, "issue: %u dependencies but deps is NULL", ndeps);
    for (uint32_t i = 0; i < ndeps; ++i)
        if (deps[i] > c->last)
            return cm_fail(err, CM_ERR_FIELD, "issue: dependency %u is token %llu, tile %u has issued only %llu", i,
                           (unsigned long long)deps[i], tile, (unsigned long long)c->last);
    cm_cost cost;
    s = cm_execute_cost(chip, tile, instr, &cost, err);
    if (s == CM_OK) s = cm_log_issue(&c->log, &chip->alloc, &cost, c->tag, deps, ndeps, err);
    if (s != CM_OK) return s;
    *token = ++c->last;
    return CM_OK;
}

/* Replays the tile's log alone up to its last record; outside a run, drops what is done. */
static cm_status replay_local(cm_chip *chip, uint32_t tile, cm_error *err) {
    cm_clock *c = &chip->time->clocks[tile];
    cm_sim *sim;
    cm_status s = local_sim(chip, tile, &sim, err);
    if (s != CM_OK) return s;
    /* Only an exact replay reports: inside a run this one is provisional (the barrier's replay reports). */
    sim->trace = chip->time->tracing && !in_run(chip, tile) ? &chip->time->trace : NULL;
    s = cm_sim_run(sim, err);
    sim->trace = NULL;
    if (s != CM_OK) return s;
    sim_tile *st = &sim->tiles[0];
    if (in_run(chip, tile) || st->pending) return CM_OK;
    for (uint32_t e = 0; e < CM_ENGINES; ++e) c->busy[e] += st->busy[e], st->busy[e] = 0;
    c->start = st->core;
    cm_log_clear(&c->log);
    cm_sim_restart(sim, c->start);
    return CM_OK;
}

cm_status cm_wait(cm_chip *chip, uint32_t tile, cm_token token, cm_error *err) {
    cm_status s = check_tile(chip, tile, "wait", err);
    if (s != CM_OK) return s;
    cm_clock *c = &chip->time->clocks[tile];
    if (token > c->last)
        return cm_fail(err, CM_ERR_FIELD, "wait: token %llu was never issued on tile %u (last %llu)",
                       (unsigned long long)token, tile, (unsigned long long)c->last);
    if (token < c->log.base) return CM_OK; /* done and forgotten */
    s = cm_log_rec(&c->log, &chip->alloc, CM_REC_WAIT, token, err);
    return s == CM_OK ? replay_local(chip, tile, err) : s;
}

cm_status cm_wait_all(cm_chip *chip, uint32_t tile, cm_error *err) {
    cm_status s = check_tile(chip, tile, "wait", err);
    if (s != CM_OK) return s;
    cm_clock *c = &chip->time->clocks[tile];
    if (c->log.nrecs == 0) return CM_OK;
    s = cm_log_rec(&c->log, &chip->alloc, CM_REC_WAIT_ALL, 0, err);
    return s == CM_OK ? replay_local(chip, tile, err) : s;
}

uint64_t cm_tile_cycles(const cm_chip *chip, uint32_t tile) {
    if (tile >= chip->cfg.tile_count) return 0;
    const cm_clock *c = &chip->time->clocks[tile];
    return c->has_local ? c->local.tiles[0].core : c->start;
}

uint64_t cm_engine_busy_cycles(const cm_chip *chip, uint32_t tile, uint32_t engine) {
    if (tile >= chip->cfg.tile_count || engine >= CM_ENGINES) return 0;
    const cm_clock *c = &chip->time->clocks[tile];
    const uint64_t provisional = c->has_local && !in_run(chip, tile) ? c->local.tiles[0].busy[engine] : 0;
    return c->busy[engine] + provisional;
}

/* Every tile of the run restarts idle at `at`. */
static void restart_all(cm_chip *chip, uint32_t tiles, uint64_t at) {
    for (uint32_t t = 0; t < tiles; ++t) {
        cm_clock *c = &chip->time->clocks[t];
        cm_log_clear(&c->log);
        c->start = at;
        if (c->has_local) {
            memset(c->local.tiles[0].busy, 0, sizeof c->local.tiles[0].busy);
            cm_sim_restart(&c->local, at);
        }
    }
    chip->time->epoch_start = at;
}

cm_status cm_run_begin(cm_chip *chip, uint32_t tiles, cm_error *err) {
    cm_timeline *tl = chip->time;
    if (tl->run_tiles != 1) return cm_fail(err, CM_ERR_FIELD, "run: a run of %u tiles is already going", tl->run_tiles);
    if (tiles == 0 || tiles > chip->cfg.tile_count)
        return cm_fail(err, CM_ERR_FIELD, "run: %u tiles requested, the chip has %u", tiles, chip->cfg.tile_count);
    cm_status s = cm_wait_all(chip, 0, err); /* tile 0 starts the run once its own instructions are done */
    if (s != CM_OK) return s;
    tl->run_tiles = tiles;
    restart_all(chip, tiles, cm_tile_cycles(chip, 0));
    return CM_OK;
}

cm_status cm_run_barrier(cm_chip *chip, uint64_t barrier_cycles, cm_error *err) {
    cm_timeline *tl = chip->time;
    const uint32_t n = tl->run_tiles;
    if (n == 1) return CM_OK;
    const cm_allocator *a = &chip->alloc;
    cm_log **logs = (cm_log **)a->alloc_zeroed(a->ctx, n * sizeof(cm_log *));
    uint64_t(*busy)[CM_ENGINES] = (uint64_t(*)[CM_ENGINES])a->alloc_zeroed(a->ctx, n * sizeof(*busy));
    uint64_t *arrive = (uint64_t *)a->alloc_zeroed(a->ctx, n * sizeof(uint64_t));
    uint64_t leave = tl->epoch_start;
    cm_status s = logs && busy && arrive ? CM_OK : cm_fail(err, CM_ERR_NOMEM, "barrier: out of host memory");
    for (uint32_t t = 0; s == CM_OK && t < n; ++t) logs[t] = &tl->clocks[t].log;
    if (s == CM_OK)
        s = cm_sched_epoch(&chip->cfg, a, logs, n, tl->epoch_start, tl->tracing ? &tl->trace : NULL, &leave, arrive,
                           busy, err);
    for (uint32_t t = 0; s == CM_OK && t < n; ++t) {
        for (uint32_t e = 0; e < CM_ENGINES; ++e) tl->clocks[t].busy[e] += busy[t][e];
        if (tl->tracing) {
            const cm_trace_event ev = {CM_TRACE_BARRIER, t, 0, 0, 0, 0, arrive[t], arrive[t],
                                       leave + barrier_cycles, 0, 0, {0, 0, 0, 0}};
            tl->trace.event(tl->trace.ctx, &ev);
        }
    }
    if (logs) a->release(a->ctx, (void *)logs);
    if (busy) a->release(a->ctx, busy);
    if (arrive) a->release(a->ctx, arrive);
    if (s != CM_OK) return s;
    restart_all(chip, n, leave + barrier_cycles);
    return CM_OK;
}

cm_status cm_run_end(cm_chip *chip, cm_error *err) {
    cm_status s = cm_run_barrier(chip, 0, err);
    chip->time->run_tiles = 1;
    return s;
}

void cm_chip_set_trace(cm_chip *chip, const cm_trace_sink *sink) {
    chip->time->tracing = sink != NULL;
    if (sink) chip->time->trace = *sink;
    for (uint32_t t = 0; t < chip->cfg.tile_count; ++t) chip->time->clocks[t].tag = 0;
}

cm_status cm_trace_mark(cm_chip *chip, uint32_t tile, uint32_t tag, cm_error *err) {
    cm_status s = check_tile(chip, tile, "trace mark", err);
    if (s != CM_OK || !chip->time->tracing) return s;
    cm_clock *c = &chip->time->clocks[tile];
    c->tag = tag;
    s = cm_log_rec(&c->log, &chip->alloc, CM_REC_MARK, tag, err);
    /* Outside a run with nothing in flight the mark's time is the tile's now: replay it at once, as a wait would. */
    return s == CM_OK && !in_run(chip, tile) ? replay_local(chip, tile, err) : s;
}

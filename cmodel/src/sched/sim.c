/* The discrete-event replay of tile logs: engines, flows through shared resources, hazards (see sched.h). */
#include <string.h>

#include "../cm_internal.h"
#include "tx8/cm_noc.h"
#include "sched.h"

#define FRAC_BITS 16u /* flows count bytes in 1/65536 units so that fair shares are integers */

enum { PH_NONE, PH_QUEUED, PH_FIXED, PH_LATENCY, PH_FLOW, PH_DONE };

/* ---- memory ---- */

static void *grow(const cm_allocator *a, void *old, uint64_t old_n, uint64_t new_n, uint64_t elem) {
    void *p = a->alloc_zeroed(a->ctx, (size_t)(new_n * elem));
    if (!p) return NULL;
    if (old) {
        memcpy(p, old, (size_t)(old_n * elem));
        a->release(a->ctx, old);
    }
    return p;
}

static int reserve(const cm_allocator *a, void **arr, uint64_t *cap, uint64_t need, uint64_t elem) {
    if (need <= *cap) return 1;
    uint64_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    void *p = grow(a, *arr, *cap, n, elem);
    if (!p) return 0;
    *arr = p, *cap = n;
    return 1;
}

cm_status cm_log_issue(cm_log *log, const cm_allocator *a, const cm_cost *cost, uint32_t tag, const cm_token *deps,
                       uint32_t ndeps, cm_error *err) {
    if (!reserve(a, (void **)&log->ops, &log->cap_ops, log->nops + 1, sizeof(cm_op)))
        return cm_fail(err, CM_ERR_NOMEM, "issue: out of host memory for the timeline");
    cm_op *op = &log->ops[log->nops];
    op->cost = *cost;
    op->tag = tag;
    op->ndeps = ndeps;
    for (uint32_t i = 0; i < ndeps; ++i) op->deps[i] = deps[i];
    cm_status s = cm_log_rec(log, a, CM_REC_ISSUE, log->nops, err);
    if (s == CM_OK) log->nops++;
    return s;
}

cm_status cm_log_rec(cm_log *log, const cm_allocator *a, uint32_t kind, uint64_t arg, cm_error *err) {
    if (!reserve(a, (void **)&log->recs, &log->cap_recs, log->nrecs + 1, sizeof(cm_rec)))
        return cm_fail(err, CM_ERR_NOMEM, "issue: out of host memory for the timeline");
    log->recs[log->nrecs++] = (cm_rec){kind, arg};
    return CM_OK;
}

void cm_log_clear(cm_log *log) {
    log->base += log->nops;
    log->nops = log->nrecs = 0;
}

void cm_log_free(cm_log *log, const cm_allocator *a) {
    if (log->ops) a->release(a->ctx, log->ops);
    if (log->recs) a->release(a->ctx, log->recs);
    log->ops = NULL, log->recs = NULL;
    log->cap_ops = log->cap_recs = log->nops = log->nrecs = 0;
}

/* ---- resources: DDR, then per tile its RDMA, WDMA and DTE ports, then 4 out-links per tile ---- */

static uint32_t res_ddr(void) { return 0; }
static uint32_t res_port(const tx8_hw_config *c, uint32_t engine, uint32_t tile) {
    const uint32_t which = engine == I_RDMA ? 0 : engine == I_WDMA ? 1 : 2;
    return 1 + which * c->tile_count + tile;
}
static uint32_t res_link(const tx8_hw_config *c, uint32_t link) { return 1 + 3 * c->tile_count + link; }

static uint64_t res_capacity(const tx8_hw_config *c, uint32_t r) {
    if (r == 0) return c->ddr_bytes_per_cycle;
    if (r < 1 + 2 * c->tile_count) return c->lsu_bytes_per_cycle;
    return c->noc_link_bytes_per_cycle; /* DTE ports and links */
}

cm_status cm_sim_init(cm_sim *s, const tx8_hw_config *cfg, const cm_allocator *a, uint32_t ntiles,
                      const uint32_t *tiles, const cm_log *const *logs, uint64_t start, cm_error *err) {
    memset(s, 0, sizeof *s);
    s->cfg = cfg, s->alloc = a, s->ntiles = ntiles, s->now = start;
    s->nres = 1 + 3 * cfg->tile_count + cm_noc_link_count(cfg);
    s->tiles = (sim_tile *)a->alloc_zeroed(a->ctx, ntiles * sizeof(sim_tile));
    s->cap_left = (uint64_t *)a->alloc_zeroed(a->ctx, s->nres * sizeof(uint64_t));
    s->users = (uint32_t *)a->alloc_zeroed(a->ctx, s->nres * sizeof(uint32_t));
    if (!s->tiles || !s->cap_left || !s->users) {
        cm_sim_free(s);
        return cm_fail(err, CM_ERR_NOMEM, "scheduler: out of host memory");
    }
    for (uint32_t i = 0; i < ntiles; ++i) {
        s->tiles[i].tile = tiles[i];
        s->tiles[i].log = logs[i];
        s->tiles[i].core = start;
    }
    return CM_OK;
}

static void free_flow(cm_sim *s, sim_flow *f) {
    if (f->res) s->alloc->release(s->alloc->ctx, f->res);
    f->res = NULL;
}

void cm_sim_free(cm_sim *s) {
    const cm_allocator *a = s->alloc;
    for (uint32_t i = 0; s->tiles && i < s->ntiles; ++i) {
        sim_tile *t = &s->tiles[i];
        if (t->ops) a->release(a->ctx, t->ops);
        for (uint32_t e = 0; e < CM_ENGINES; ++e)
            if (t->q[e].idx) a->release(a->ctx, t->q[e].idx);
    }
    for (uint32_t f = 0; f < s->nflows; ++f) free_flow(s, &s->flows[f]);
    if (s->tiles) a->release(a->ctx, s->tiles);
    if (s->flows) a->release(a->ctx, s->flows);
    if (s->frozen) a->release(a->ctx, s->frozen);
    if (s->cap_left) a->release(a->ctx, s->cap_left);
    if (s->users) a->release(a->ctx, s->users);
    memset(s, 0, sizeof *s);
}

void cm_sim_restart(cm_sim *s, uint64_t start) {
    sim_tile *t = &s->tiles[0];
    for (uint32_t f = 0; f < s->nflows; ++f) free_flow(s, &s->flows[f]);
    s->nflows = 0;
    s->now = start;
    t->pc = t->pending = 0;
    t->core = t->last_end = start;
    for (uint32_t e = 0; e < CM_ENGINES; ++e) t->q[e].n = t->q[e].head = 0;
}

/* ---- hazards ---- */

static const cm_span *conflict(const cm_cost *a, const cm_cost *b) {
    for (uint32_t i = 0; i < a->nspans; ++i)
        for (uint32_t j = 0; j < b->nspans; ++j) {
            const cm_span *x = &a->spans[i], *y = &b->spans[j];
            if (x->mem == y->mem && (x->writes || y->writes) && x->lo < y->hi && y->lo < x->hi) return x;
        }
    return NULL;
}

/* Op i of tile t starts now: no earlier-issued op of the tile may still be running or queued on memory it shares. */
static cm_status check_hazards(cm_sim *s, sim_tile *t, uint64_t i, cm_error *err) {
    const cm_cost *ci = &t->log->ops[i].cost;
    for (uint32_t e = 0; e < CM_ENGINES; ++e) {
        const sim_queue *q = &t->q[e];
        for (uint64_t k = q->head; k < q->n && q->idx[k] < i; ++k) {
            const uint64_t j = q->idx[k];
            const cm_span *m = conflict(ci, &t->log->ops[j].cost);
            if (!m) continue;
            return cm_fail(err, CM_ERR_HAZARD,
                           "tile %u: %s (token %llu) starts at cycle %llu while %s (token %llu), issued before it, "
                           "has not finished; both touch %s [0x%llx, 0x%llx), one writing it: a wait is missing",
                           t->tile, tx8_instr_type_name(ci->engine), (unsigned long long)(t->log->base + i),
                           (unsigned long long)s->now, tx8_instr_type_name(t->log->ops[j].cost.engine),
                           (unsigned long long)(t->log->base + j), m->mem == CM_MEM_DDR ? "DDR" : "SPM",
                           (unsigned long long)m->lo, (unsigned long long)m->hi);
        }
    }
    return CM_OK;
}

/* ---- instruction life ---- */

static void report(const cm_sim *s, const sim_tile *t, uint64_t i) {
    const cm_op *op = &t->log->ops[i];
    const cm_cost *c = &op->cost;
    const sim_op *o = &t->ops[i];
    cm_trace_event ev = {CM_TRACE_INSTR, t->tile, c->engine, c->op, op->tag, 0, o->start, o->start, o->end,
                         c->bytes, c->macs, {c->dims[0], c->dims[1], c->dims[2], c->dims[3]}};
    if (c->kind != CM_COST_FIXED) ev.ready = o->ready;
    if (c->kind == CM_COST_DTE && c->from_ddr) ev.flags = CM_TRACE_FROM_DDR;
    s->trace->event(s->trace->ctx, &ev);
}

static void complete(cm_sim *s, sim_tile *t, uint64_t i) {
    sim_op *o = &t->ops[i];
    const uint32_t e = t->log->ops[i].cost.engine;
    o->phase = PH_DONE;
    o->end = s->now;
    t->pending--;
    if (o->end > t->last_end) t->last_end = o->end;
    t->busy[e] += o->end - o->start;
    t->q[e].head++;
    if (s->trace) report(s, t, i);
}

static cm_status start_flow(cm_sim *s, uint32_t ti, uint64_t i, cm_error *err) {
    sim_tile *t = &s->tiles[ti];
    const cm_cost *c = &t->log->ops[i].cost;
    if (c->bytes == 0) {
        complete(s, t, i);
        return CM_OK;
    }
    const tx8_hw_config *cfg = s->cfg;
    uint32_t nlinks = 0;
    if (c->kind == CM_COST_DTE)
        nlinks = cm_noc_tree_links(cfg, c->src_tile, c->x0, c->y0, c->x1, c->y1, NULL, 0);
    uint64_t cap = s->cap_flows;
    if (!reserve(s->alloc, (void **)&s->flows, &cap, s->nflows + 1, sizeof(sim_flow)))
        return cm_fail(err, CM_ERR_NOMEM, "scheduler: out of host memory");
    if (cap != s->cap_flows) {
        uint8_t *fz = (uint8_t *)grow(s->alloc, s->frozen, s->cap_flows, cap, 1);
        if (!fz) return cm_fail(err, CM_ERR_NOMEM, "scheduler: out of host memory");
        s->frozen = fz, s->cap_flows = (uint32_t)cap;
    }
    sim_flow *f = &s->flows[s->nflows];
    f->res = (uint32_t *)s->alloc->alloc_zeroed(s->alloc->ctx, (nlinks + 2) * sizeof(uint32_t));
    if (!f->res) return cm_fail(err, CM_ERR_NOMEM, "scheduler: out of host memory");
    s->nflows++;
    f->t = ti, f->op = i, f->rate = 0, f->nres = 0;
    if (c->kind == CM_COST_DMA) {
        f->res[f->nres++] = res_ddr();
        f->res[f->nres++] = res_port(cfg, c->engine, t->tile);
    } else {
        f->res[f->nres++] = res_port(cfg, I_DTE, c->src_tile);
        if (c->from_ddr) f->res[f->nres++] = res_ddr();
        cm_noc_tree_links(cfg, c->src_tile, c->x0, c->y0, c->x1, c->y1, f->res + f->nres, nlinks);
        for (uint32_t k = 0; k < nlinks; ++k) f->res[f->nres + k] = res_link(cfg, f->res[f->nres + k]);
        f->nres += nlinks;
    }
    t->ops[i].phase = PH_FLOW;
    t->ops[i].rem = c->bytes > (UINT64_MAX >> FRAC_BITS) ? UINT64_MAX : c->bytes << FRAC_BITS; /* saturate */
    s->rates_dirty = 1;
    return CM_OK;
}

static cm_status start_op(cm_sim *s, uint32_t ti, uint64_t i, cm_error *err) {
    sim_tile *t = &s->tiles[ti];
    const cm_cost *c = &t->log->ops[i].cost;
    sim_op *o = &t->ops[i];
    cm_status st = check_hazards(s, t, i, err);
    if (st != CM_OK) return st;
    o->start = s->now;
    if (c->kind == CM_COST_FIXED) {
        o->phase = PH_FIXED;
        o->end = s->now + c->fixed_cycles;
        if (c->fixed_cycles == 0) complete(s, t, i);
        return CM_OK;
    }
    o->phase = PH_LATENCY;
    o->ready = s->now + c->fixed_cycles;
    return c->fixed_cycles == 0 ? start_flow(s, ti, i, err) : CM_OK;
}

static int deps_done(const sim_tile *t, uint64_t i) {
    const cm_op *op = &t->log->ops[i];
    for (uint32_t d = 0; d < op->ndeps; ++d) {
        if (op->deps[d] < t->log->base) continue; /* done before this log began */
        if (t->ops[op->deps[d] - t->log->base].phase != PH_DONE) return 0;
    }
    return 1;
}

/* The kernel core runs through its records until one blocks. */
static cm_status core_step(cm_sim *s, sim_tile *t, int *changed, cm_error *err) {
    const cm_log *log = t->log;
    while (t->pc < log->nrecs) {
        const cm_rec *r = &log->recs[t->pc];
        if (r->kind == CM_REC_ISSUE) {
            const uint64_t i = r->arg;
            if (!reserve(s->alloc, (void **)&t->ops, &t->cap_ops, i + 1, sizeof(sim_op)))
                return cm_fail(err, CM_ERR_NOMEM, "scheduler: out of host memory");
            sim_queue *q = &t->q[log->ops[i].cost.engine];
            if (!reserve(s->alloc, (void **)&q->idx, &q->cap, q->n + 1, sizeof(uint64_t)))
                return cm_fail(err, CM_ERR_NOMEM, "scheduler: out of host memory");
            q->idx[q->n++] = i;
            t->ops[i] = (sim_op){t->core, 0, 0, 0, 0, PH_QUEUED};
            t->pending++;
        } else if (r->kind == CM_REC_MARK) {
            if (s->trace) {
                const cm_trace_event ev = {CM_TRACE_MARK, t->tile, 0, 0, (uint32_t)r->arg, 0, t->core, t->core,
                                           t->core, 0, 0, {0, 0, 0, 0}};
                s->trace->event(s->trace->ctx, &ev);
            }
        } else if (r->kind == CM_REC_WAIT) {
            if (r->arg >= log->base) {
                const sim_op *o = &t->ops[r->arg - log->base];
                if (o->phase != PH_DONE) return CM_OK;
                if (o->end > t->core) t->core = o->end;
            }
        } else {
            if (t->pending) return CM_OK;
            if (t->last_end > t->core) t->core = t->last_end;
        }
        t->pc++;
        *changed = 1;
    }
    return CM_OK;
}

static cm_status engines_step(cm_sim *s, uint32_t ti, int *changed, cm_error *err) {
    sim_tile *t = &s->tiles[ti];
    for (uint32_t e = 0; e < CM_ENGINES; ++e) {
        const sim_queue *q = &t->q[e];
        if (q->head >= q->n) continue;
        const uint64_t i = q->idx[q->head];
        if (t->ops[i].phase != PH_QUEUED || !deps_done(t, i)) continue;
        cm_status st = start_op(s, ti, i, err);
        if (st != CM_OK) return st;
        *changed = 1;
    }
    return CM_OK;
}

/* ---- flows: max-min fair shares by progressive filling ---- */

static void compute_rates(cm_sim *s) {
    for (uint32_t r = 0; r < s->nres; ++r) s->cap_left[r] = res_capacity(s->cfg, r) << FRAC_BITS, s->users[r] = 0;
    for (uint32_t f = 0; f < s->nflows; ++f) {
        s->frozen[f] = 0;
        for (uint32_t k = 0; k < s->flows[f].nres; ++k) s->users[s->flows[f].res[k]]++;
    }
    uint32_t left = s->nflows;
    while (left) {
        uint64_t best = UINT64_MAX;
        uint32_t br = 0;
        for (uint32_t r = 0; r < s->nres; ++r)
            if (s->users[r] && s->cap_left[r] / s->users[r] < best) best = s->cap_left[r] / s->users[r], br = r;
        for (uint32_t f = 0; f < s->nflows; ++f) {
            sim_flow *fl = &s->flows[f];
            if (s->frozen[f]) continue;
            int uses = 0;
            for (uint32_t k = 0; k < fl->nres && !uses; ++k) uses = fl->res[k] == br;
            if (!uses) continue;
            fl->rate = best ? best : 1;
            s->frozen[f] = 1;
            left--;
            for (uint32_t k = 0; k < fl->nres; ++k) s->cap_left[fl->res[k]] -= best, s->users[fl->res[k]]--;
        }
    }
    s->rates_dirty = 0;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

static uint64_t next_event(cm_sim *s) {
    uint64_t next = UINT64_MAX;
    for (uint32_t ti = 0; ti < s->ntiles; ++ti) {
        const sim_tile *t = &s->tiles[ti];
        for (uint32_t e = 0; e < CM_ENGINES; ++e) {
            const sim_queue *q = &t->q[e];
            if (q->head >= q->n) continue;
            const sim_op *o = &t->ops[q->idx[q->head]];
            if (o->phase == PH_FIXED && o->end < next) next = o->end;
            if (o->phase == PH_LATENCY && o->ready < next) next = o->ready;
        }
    }
    if (s->rates_dirty) compute_rates(s);
    for (uint32_t f = 0; f < s->nflows; ++f) {
        const sim_flow *fl = &s->flows[f];
        const uint64_t at = s->now + ceil_div(s->tiles[fl->t].ops[fl->op].rem, fl->rate);
        if (at < next) next = at;
    }
    return next;
}

static cm_status advance_to(cm_sim *s, uint64_t next, cm_error *err) {
    const uint64_t dt = next - s->now;
    for (uint32_t f = 0; f < s->nflows; ++f) {
        sim_flow *fl = &s->flows[f];
        sim_op *o = &s->tiles[fl->t].ops[fl->op];
        o->rem = dt >= ceil_div(o->rem, fl->rate) ? 0 : o->rem - fl->rate * dt;
    }
    s->now = next;
    for (uint32_t f = 0; f < s->nflows;) { /* finished flows, in slot order */
        sim_flow *fl = &s->flows[f];
        if (s->tiles[fl->t].ops[fl->op].rem != 0) {
            ++f;
            continue;
        }
        complete(s, &s->tiles[fl->t], fl->op);
        free_flow(s, fl);
        memmove(fl, fl + 1, (s->nflows - f - 1) * sizeof(sim_flow));
        s->nflows--;
        s->rates_dirty = 1;
    }
    for (uint32_t ti = 0; ti < s->ntiles; ++ti) {
        sim_tile *t = &s->tiles[ti];
        for (uint32_t e = 0; e < CM_ENGINES; ++e) {
            const sim_queue *q = &t->q[e];
            if (q->head >= q->n) continue;
            const uint64_t i = q->idx[q->head];
            if (t->ops[i].phase == PH_FIXED && t->ops[i].end == s->now) complete(s, t, i);
            else if (t->ops[i].phase == PH_LATENCY && t->ops[i].ready == s->now) {
                cm_status st = start_flow(s, ti, i, err);
                if (st != CM_OK) return st;
            }
        }
    }
    return CM_OK;
}

static int all_replayed(const cm_sim *s) {
    for (uint32_t ti = 0; ti < s->ntiles; ++ti)
        if (s->tiles[ti].pc < s->tiles[ti].log->nrecs) return 0;
    return 1;
}

cm_status cm_sim_run(cm_sim *s, cm_error *err) {
    for (;;) {
        int changed;
        do { /* everything that happens at `now` */
            changed = 0;
            for (uint32_t ti = 0; ti < s->ntiles; ++ti) {
                cm_status st = core_step(s, &s->tiles[ti], &changed, err);
                if (st == CM_OK) st = engines_step(s, ti, &changed, err);
                if (st != CM_OK) return st;
            }
        } while (changed);
        if (all_replayed(s)) return CM_OK;
        const uint64_t next = next_event(s);
        if (next == UINT64_MAX) /* cannot happen: a wait names an issued instruction, deps name earlier ones */
            return cm_fail(err, CM_ERR_FIELD, "scheduler: no instruction can make progress at cycle %llu",
                           (unsigned long long)s->now);
        cm_status st = advance_to(s, next, err);
        if (st != CM_OK) return st;
    }
}

cm_status cm_sched_epoch(const tx8_hw_config *cfg, const cm_allocator *a, cm_log *const *logs, uint32_t n,
                         uint64_t start, const cm_trace_sink *trace, uint64_t *latest, uint64_t *arrive,
                         uint64_t (*busy)[CM_ENGINES], cm_error *err) {
    uint32_t *ids = (uint32_t *)a->alloc_zeroed(a->ctx, n * sizeof(uint32_t));
    cm_status s = ids ? CM_OK : cm_fail(err, CM_ERR_NOMEM, "barrier: out of host memory");
    for (uint32_t t = 0; s == CM_OK && t < n; ++t) {
        ids[t] = t;
        s = cm_log_rec(logs[t], a, CM_REC_WAIT_ALL, 0, err); /* a barrier waits for the tile's own work */
    }
    cm_sim all;
    *latest = start;
    if (s == CM_OK) s = cm_sim_init(&all, cfg, a, n, ids, (const cm_log *const *)logs, start, err);
    if (s == CM_OK) {
        all.trace = trace;
        s = cm_sim_run(&all, err);
        for (uint32_t t = 0; s == CM_OK && t < n; ++t) {
            if (all.tiles[t].core > *latest) *latest = all.tiles[t].core;
            if (arrive) arrive[t] = all.tiles[t].core;
            for (uint32_t e = 0; busy && e < CM_ENGINES; ++e) busy[t][e] += all.tiles[t].busy[e];
        }
        cm_sim_free(&all);
    }
    if (ids) a->release(a->ctx, ids);
    return s;
}

uint64_t cm_cost_cycles(const tx8_hw_config *cfg, const cm_cost *c) {
    if (c->kind == CM_COST_FIXED || c->bytes == 0) return c->fixed_cycles;
    uint64_t rate = c->kind == CM_COST_DMA ? cfg->lsu_bytes_per_cycle : cfg->noc_link_bytes_per_cycle;
    if ((c->kind == CM_COST_DMA || c->from_ddr) && cfg->ddr_bytes_per_cycle < rate) rate = cfg->ddr_bytes_per_cycle;
    return c->fixed_cycles + ceil_div(c->bytes, rate);
}

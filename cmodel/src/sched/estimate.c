/* Estimates: tile logs built from instruction costs alone, replayed by the scheduler (tx8/cm_estimate.h). */
#include <string.h>

#include "tx8/cm_cycles.h"
#include "tx8/cm_estimate.h"
#include "tx8/cm_noc.h"
#include "../cm_internal.h"
#include "sched.h"

struct cm_estimate {
    tx8_hw_config cfg;
    cm_allocator alloc;
    uint32_t tiles;
    uint64_t now;    /* where the current epoch starts */
    cm_log **logs;   /* per tile */
    cm_token *last;  /* per tile: tokens issued so far */
};

cm_estimate *cm_estimate_create(const tx8_hw_config *cfg, uint32_t tiles, const cm_allocator *alloc, cm_error *err) {
    const char *why = tx8_hw_config_check(cfg);
    if (why) {
        cm_fail(err, CM_ERR_CONFIG, "hw config: %s", why);
        return NULL;
    }
    if (tiles == 0 || tiles > cfg->tile_count) {
        cm_fail(err, CM_ERR_FIELD, "estimate: %u tiles requested, the chip has %u", tiles, cfg->tile_count);
        return NULL;
    }
    cm_estimate *e = (cm_estimate *)alloc->alloc_zeroed(alloc->ctx, sizeof(cm_estimate));
    if (!e) {
        cm_fail(err, CM_ERR_NOMEM, "estimate: out of host memory");
        return NULL;
    }
    e->cfg = *cfg, e->alloc = *alloc, e->tiles = tiles;
    e->logs = (cm_log **)alloc->alloc_zeroed(alloc->ctx, tiles * sizeof(cm_log *));
    e->last = (cm_token *)alloc->alloc_zeroed(alloc->ctx, tiles * sizeof(cm_token));
    int ok = e->logs && e->last;
    for (uint32_t t = 0; ok && t < tiles; ++t) {
        e->logs[t] = (cm_log *)alloc->alloc_zeroed(alloc->ctx, sizeof(cm_log));
        ok = e->logs[t] != NULL;
        if (ok) e->logs[t]->base = 1; /* tokens count from 1, as on the chip */
    }
    if (!ok) {
        cm_estimate_destroy(e);
        cm_fail(err, CM_ERR_NOMEM, "estimate: out of host memory");
        return NULL;
    }
    return e;
}

void cm_estimate_destroy(cm_estimate *e) {
    if (!e) return;
    const cm_allocator a = e->alloc;
    for (uint32_t t = 0; e->logs && t < e->tiles; ++t)
        if (e->logs[t]) {
            cm_log_free(e->logs[t], &a);
            a.release(a.ctx, e->logs[t]);
        }
    if (e->logs) a.release(a.ctx, (void *)e->logs);
    if (e->last) a.release(a.ctx, e->last);
    a.release(a.ctx, e);
}

/* What the engines' execute functions would describe, from the formulas alone. */
static cm_status cost_of(const tx8_hw_config *cfg, uint32_t tile, const void *instr, cm_cost *c, cm_error *err) {
    uint32_t type;
    memcpy(&type, instr, sizeof type);
    cm_cost_init(c, type);
    switch (type) {
    case I_CGRA: c->fixed_cycles = cm_cycles_ct(cfg, (const CT_Param *)instr); return CM_OK;
    case I_NEUR: c->fixed_cycles = cm_cycles_ne(cfg, (const TsmNeInstr *)instr); return CM_OK;
    case I_TDMA: c->fixed_cycles = cm_cycles_tdma(cfg, (const TD_Param *)instr); return CM_OK;
    case I_RDMA:
    case I_WDMA:
        c->kind = CM_COST_DMA;
        c->dma_write = type == I_WDMA;
        c->fixed_cycles = cfg->ddr_latency_cycles;
        c->bytes = cm_dma_bytes(cfg, (const DMA_Param *)instr);
        return CM_OK;
    case I_DTE: {
        const DTE_Param *p = (const DTE_Param *)instr;
        const Ncc_DTE_GR_Param_Regs *q = &p->param;
        if (q->dst_x0 > q->dst_x1 || q->dst_y0 > q->dst_y1 || q->dst_x1 >= cfg->mesh_x || q->dst_y1 >= cfg->mesh_y)
            return cm_fail(err, CM_ERR_FIELD, "estimate: DTE rectangle [%u, %u] x [%u, %u] is not inside the %u x %u mesh",
                           q->dst_x0, q->dst_x1, q->dst_y0, q->dst_y1, cfg->mesh_x, cfg->mesh_y);
        c->kind = CM_COST_DTE;
        c->fixed_cycles = cm_dte_fixed_cycles(cfg, tile, p);
        c->bytes = cm_dte_bytes(cfg, p);
        c->from_ddr = p->ctrl.src_mem == DTE_SRC_DDR;
        c->src_tile = tile;
        c->x0 = q->dst_x0, c->y0 = q->dst_y0, c->x1 = q->dst_x1, c->y1 = q->dst_y1;
        return CM_OK;
    }
    default:
        return cm_fail(err, CM_ERR_UNSUPPORTED, "estimate: inter_type %s has no cost", tx8_instr_type_name(type));
    }
}

static cm_status check_tile(const cm_estimate *e, uint32_t tile, cm_error *err) {
    return tile < e->tiles ? CM_OK
                           : cm_fail(err, CM_ERR_FIELD, "estimate: tile %u is not one of the %u", tile, e->tiles);
}

cm_status cm_estimate_issue(cm_estimate *e, uint32_t tile, const void *instr, const cm_token *deps, uint32_t ndeps,
                            cm_token *token, cm_error *err) {
    *token = 0;
    cm_status s = check_tile(e, tile, err);
    if (s != CM_OK) return s;
    if (!instr) return cm_fail(err, CM_ERR_FIELD, "estimate: instruction pointer is NULL");
    if (ndeps > CM_MAX_DEPS || (ndeps && !deps))
        return cm_fail(err, CM_ERR_FIELD, "estimate: %u dependencies (at most %u, deps not NULL)", ndeps, CM_MAX_DEPS);
    for (uint32_t i = 0; i < ndeps; ++i)
        if (deps[i] > e->last[tile])
            return cm_fail(err, CM_ERR_FIELD, "estimate: dependency %u is token %llu, tile %u has issued only %llu",
                           i, (unsigned long long)deps[i], tile, (unsigned long long)e->last[tile]);
    cm_cost c;
    s = cost_of(&e->cfg, tile, instr, &c, err);
    if (s == CM_OK) s = cm_log_issue(e->logs[tile], &e->alloc, &c, 0, deps, ndeps, err);
    if (s == CM_OK) *token = ++e->last[tile];
    return s;
}

cm_status cm_estimate_wait(cm_estimate *e, uint32_t tile, cm_token token, cm_error *err) {
    cm_status s = check_tile(e, tile, err);
    if (s != CM_OK) return s;
    if (token > e->last[tile])
        return cm_fail(err, CM_ERR_FIELD, "estimate: token %llu was never issued on tile %u",
                       (unsigned long long)token, tile);
    if (token != 0 && token < e->logs[tile]->base) return CM_OK;
    return cm_log_rec(e->logs[tile], &e->alloc, token ? CM_REC_WAIT : CM_REC_WAIT_ALL, token, err);
}

static cm_status epoch(cm_estimate *e, uint64_t cost, cm_error *err) {
    uint64_t latest;
    cm_status s = cm_sched_epoch(&e->cfg, &e->alloc, e->logs, e->tiles, e->now, NULL, &latest, NULL, NULL, err);
    if (s != CM_OK) return s;
    for (uint32_t t = 0; t < e->tiles; ++t) cm_log_clear(e->logs[t]);
    e->now = latest + cost;
    return CM_OK;
}

cm_status cm_estimate_barrier(cm_estimate *e, cm_error *err) {
    return epoch(e, e->tiles > 1 ? e->cfg.barrier_cycles : 0, err);
}

cm_status cm_estimate_finish(cm_estimate *e, uint64_t *cycles, cm_error *err) {
    cm_status s = epoch(e, 0, err);
    *cycles = e->now;
    return s;
}

uint64_t cm_estimate_now(const cm_estimate *e) { return e->now; }

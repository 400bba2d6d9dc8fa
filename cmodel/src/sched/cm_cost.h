/*
 * What one executed instruction asks of the machine's time: the engine it occupies, the cycles it spends there on
 * its own, the bytes it moves through shared resources (DDR, DMA ports, NoC links) and the memory it touches.
 * Each engine's execute function describes its instruction this way; the scheduler (sched/timeline.c) turns the
 * descriptions of every tile into start and end cycles.
 */
#ifndef TX8_CM_COST_H
#define TX8_CM_COST_H

#include <stdint.h>

typedef enum cm_cost_kind {
    CM_COST_FIXED, /* fixed_cycles on its engine, nothing shared (CT, NE, TDMA) */
    CM_COST_DMA,   /* fixed_cycles (first-byte latency), then `bytes` through DDR and the tile's RDMA/WDMA port */
    CM_COST_DTE,   /* fixed_cycles (startup + hops), then `bytes` over the NoC links of the XY route(s) from
                      src_tile to every tile of the destination rectangle, from DDR too when from_ddr */
} cm_cost_kind;

/* Memory a span lives in: CM_MEM_DDR, or CM_MEM_SPM(tile). */
#define CM_MEM_DDR 0u
#define CM_MEM_SPM(tile) (1u + (uint32_t)(tile))

typedef struct cm_span {
    uint32_t mem;    /* CM_MEM_DDR or CM_MEM_SPM(tile) */
    uint32_t writes; /* 1: the instruction writes it, 0: only reads */
    uint64_t lo, hi; /* bytes [lo, hi): a bounding range (strided boxes are covered whole) */
} cm_span;

#define CM_COST_MAX_SPANS 4

typedef struct cm_cost {
    uint32_t engine;       /* OP_INSTR_TYPE whose in-order queue the instruction occupies */
    uint32_t kind;         /* cm_cost_kind */
    uint64_t fixed_cycles; /* FIXED: all of its cycles; DMA / DTE: the cycles before the first byte flows */
    uint64_t bytes;        /* DMA / DTE: bytes through the shared resources (DDR bursts rounded up) */
    uint32_t dma_write;    /* DMA: 1 for WDMA (SPM -> DDR), 0 for RDMA */
    uint32_t from_ddr;     /* DTE: 1 when the source is DDR (the flow also takes DDR bandwidth) */
    uint32_t src_tile;     /* DTE: the tile whose NoC port injects the data */
    uint32_t x0, y0, x1, y1; /* DTE: destination tiles, the mesh rectangle [x0, x1] x [y0, y1] (inclusive) */
    uint32_t nspans;
    cm_span spans[CM_COST_MAX_SPANS];
    /* What the instruction is, for traces (cm_trace_event): nothing above depends on it. */
    uint32_t op;      /* CT: CT_OPCODE; NE: NE_OPCODE; TDMA: TD_OPCODE; DMA, DTE: 0 */
    uint64_t macs;    /* NE: multiply-accumulates */
    uint32_t dims[4]; /* NE: M, K, N (a conv as its implicit GEMM), in_fmt; CT: elements, src_fmt, dst_fmt, format */
} cm_cost;

/* A cost with nothing in it yet: `engine`, FIXED, zero cycles, no spans. */
static inline void cm_cost_init(cm_cost *c, uint32_t engine) {
    *c = (cm_cost){0};
    c->engine = engine;
    c->kind = CM_COST_FIXED;
}

/* Records memory [lo, lo + bytes) of `mem` as read (writes 0) or written (writes 1); empty ranges are skipped. */
static inline void cm_cost_span(cm_cost *c, uint32_t mem, uint32_t writes, uint64_t lo, uint64_t bytes) {
    if (bytes == 0 || c->nspans == CM_COST_MAX_SPANS) return;
    cm_span *s = &c->spans[c->nspans++];
    s->mem = mem, s->writes = writes, s->lo = lo, s->hi = lo + bytes;
}

#endif /* TX8_CM_COST_H */

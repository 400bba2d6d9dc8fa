/*
 * Running an OpLib op on a shard of its output box on any tile (test_op_shard.c).
 *
 * A case names its output tensor, how the output box splits over the 16 tiles (one dim into 16 uneven parts, or
 * two dims into a 4 x 4 grid of uneven parts) and a compute function: given an output box and a DDR destination,
 * it loads the input boxes that box needs from DDR (op_loadVar), runs the op on them in the calling tile's SPM and
 * stores the box (op_dma_store). The reference is the same function called by tile 0 alone on the whole output
 * box, outside tx8_hal_run_tiles (so: whole inputs loaded, the op run once, the whole output stored the ordinary
 * way); then every tile of tx8_hal_run_tiles(16) calls it on its own box, and tile 0 compares the two outputs byte
 * for byte. Both output regions start filled with different poison bytes, so a part no tile wrote shows too.
 *
 * Every SPM tensor a compute function passes to an op carries the shard's view (tx8_lshape_box: shape_whole the
 * whole DDR tensor, shape_start the shard's offset, shape_real its extent), as generated code does; ops read only
 * shape_real. Tiles never call cmocka (no longjmp across harts or threads): each records its status in a log that
 * tile 0 checks after the run.
 */
#ifndef TX8_SHARD_COMMON_H
#define TX8_SHARD_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8_test.h"

enum { SH_TILES = 16, SH_SPM_ALIGN = 256, SH_DDR_ALIGN = 4096 };

/* Relative part sizes: part i of an extent n is [n*W_i/W, n*W_(i+1)/W) with W_i the sum of the weights before i.
 * Uneven on purpose: 16 parts of a short extent include empty and 1-element parts. */
static const int32_t sh_w16[16] = {2, 1, 3, 0, 2, 4, 1, 2, 3, 1, 2, 5, 1, 3, 2, 1};
static const int32_t sh_w4a[4] = {2, 1, 4, 3};
static const int32_t sh_w4b[4] = {1, 3, 2, 4};

static inline void sh_split(int32_t n, int32_t parts, const int32_t *w, int32_t idx, int32_t *start, int32_t *size) {
    int64_t total = 0, before = 0;
    for (int32_t i = 0; i < parts; ++i) total += w[i];
    for (int32_t i = 0; i < idx; ++i) before += w[i];
    const int64_t s = (int64_t)n * before / total, e = (int64_t)n * (before + w[idx]) / total;
    *start = (int32_t)s, *size = (int32_t)(e - s);
}

/* ---- one run of a compute function: an SPM bump allocator, summed cycles, the first op that failed ---- */
typedef struct sh_run {
    uint64_t spm_next;
    uint64_t cycles;
    const char *failed;
} sh_run;

static inline uint64_t sh_alloc(sh_run *r, uint64_t bytes) {
    const uint64_t a = r->spm_next;
    r->spm_next = (a + bytes + SH_SPM_ALIGN - 1) / SH_SPM_ALIGN * SH_SPM_ALIGN;
    return a;
}

/* Adds an op's cycles; -1 (and the op's name kept) when it returned TX8_CYCLES_INVALID. */
static inline int sh_check(sh_run *r, const char *what, uint64_t cycles) {
    if (cycles == TX8_CYCLES_INVALID) {
        if (!r->failed) r->failed = what;
        return -1;
    }
    r->cycles += cycles;
    return 0;
}
#define SH_DO(r, what, expr)                                                                                       \
    do {                                                                                                           \
        if (sh_check((r), (what), (expr)) != 0) return -1;                                                         \
    } while (0)

/* ---- tensors: a TSR over its own L_SHAPE ---- */
typedef struct sh_tsr {
    L_SHAPE s;
    TSR t;
} sh_tsr;

/* The box [start, start + size) of a tensor of shape `whole` (start NULL: 0; size NULL: whole) at addr. */
static inline int sh_view(sh_tsr *v, Data_Format f, uint64_t addr, int32_t dim, const int32_t *whole,
                          const int32_t *start, const int32_t *size) {
    tx8_box b;
    memset(&b, 0, sizeof b);
    for (int32_t k = 0; k < dim; ++k) {
        b.start[k] = start ? start[k] : 0;
        b.size[k] = size ? size[k] : whole[k];
    }
    v->t.format = f, v->t.addr = addr, v->t.shape = &v->s;
    return tx8_lshape_box(&v->s, whole, dim, &b);
}

static inline uint64_t sh_bytes(const sh_tsr *v) {
    uint64_t n = tx8_format_bytes(v->t.format);
    for (int32_t k = 0; k < v->s.dim; ++k) n *= (uint64_t)v->s.shape_real[k];
    return n;
}

/* A fresh SPM tensor holding the box (start, size) of the DDR tensor (whole, dim) at ddr: loaded from it. */
static inline int sh_load(sh_run *r, sh_tsr *spm, Data_Format f, uint64_t ddr, int32_t dim, const int32_t *whole,
                          const int32_t *start, const int32_t *size) {
    sh_tsr d;
    if (sh_view(&d, f, ddr, dim, whole, start, size) != 0) return r->failed = "sh_load: box leaves the tensor", -1;
    if (sh_view(spm, f, 0, dim, whole, start, size) != 0) return -1;
    spm->t.addr = sh_alloc(r, sh_bytes(spm));
    LOAD_PARAM ld = {LAYOUT_NTENSOR};
    SH_DO(r, "op_loadVar", op_loadVar(&ld, &d.t, &spm->t));
    return 0;
}

/* A fresh SPM tensor for the box (start, size) of a tensor of shape `whole` (nothing loaded). */
static inline int sh_spm(sh_run *r, sh_tsr *spm, Data_Format f, int32_t dim, const int32_t *whole,
                         const int32_t *start, const int32_t *size) {
    if (sh_view(spm, f, 0, dim, whole, start, size) != 0) return r->failed = "sh_spm: box leaves the tensor", -1;
    spm->t.addr = sh_alloc(r, sh_bytes(spm));
    return 0;
}

/* Stores the SPM tensor into its box (its L_SHAPE's view) of the DDR tensor at ddr. */
static inline int sh_store(sh_run *r, const sh_tsr *spm, uint64_t ddr) {
    sh_tsr d = *spm;
    d.t.shape = &d.s, d.t.addr = ddr;
    sh_tsr s = *spm;
    s.t.shape = &s.s;
    STORE_PARAM st = {LAYOUT_NTENSOR};
    SH_DO(r, "op_dma_store", op_dma_store(&st, &s.t, &d.t));
    return 0;
}

/* ---- a case ---- */
typedef struct sh_case sh_case;
/* Computes the output box `ob` (a box of c->whole) into the DDR tensor at dst (shape c->whole); 0 or -1. */
typedef int (*sh_compute_fn)(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r);

struct sh_case {
    const char *name;
    Data_Format out_fmt;
    int32_t dim;
    int32_t whole[MAX_SHAPE_DIM]; /* the output */
    int32_t split[2];             /* the split dims; split[1] < 0: one dim in 16 parts */
    sh_compute_fn compute;
    const void *ctx;
};

static inline uint64_t sh_elems(int32_t dim, const int32_t *shape) {
    uint64_t n = 1;
    for (int32_t k = 0; k < dim; ++k) n *= (uint64_t)shape[k];
    return n;
}

/* Tile t's output box; returns 0 when it is empty. */
static inline int sh_case_box(const sh_case *c, int32_t t, tx8_box *b) {
    memset(b, 0, sizeof *b);
    for (int32_t k = 0; k < c->dim; ++k) b->size[k] = c->whole[k];
    if (c->split[1] < 0) {
        sh_split(c->whole[c->split[0]], 16, sh_w16, t, &b->start[c->split[0]], &b->size[c->split[0]]);
    } else {
        sh_split(c->whole[c->split[0]], 4, sh_w4a, t / 4, &b->start[c->split[0]], &b->size[c->split[0]]);
        sh_split(c->whole[c->split[1]], 4, sh_w4b, t % 4, &b->start[c->split[1]], &b->size[c->split[1]]);
    }
    for (int32_t k = 0; k < c->dim; ++k)
        if (b->size[k] == 0) return 0;
    return 1;
}

/* ---- DDR: a bump allocator over the test case's DDR, and host-side fills ---- */
typedef struct sh_ddr {
    uint64_t next;
} sh_ddr;

static inline uint64_t sh_ddr_alloc(sh_ddr *d, uint64_t bytes) {
    const uint64_t a = d->next;
    d->next = (a + bytes + SH_DDR_ALIGN - 1) / SH_DDR_ALIGN * SH_DDR_ALIGN;
    return a;
}

/* n random values in [lo, hi] (integers for int formats) stored in format f at DDR addr. */
static inline void sh_put_random(tx8_rng *rng, uint64_t addr, Data_Format f, size_t n, double lo, double hi) {
    const uint32_t eb = tx8_format_bytes(f);
    const int is_int = f == Fmt_INT8 || f == Fmt_INT32;
    uint8_t *buf = (uint8_t *)malloc(n * eb + 1);
    for (size_t i = 0; i < n; ++i) {
        const double v = is_int ? (double)tx8_rng_int(rng, (int32_t)lo, (int32_t)hi) : tx8_rng_uniform(rng, lo, hi);
        cm_store_element(buf + i * eb, f, v, RND_NEAREST_EVEN);
    }
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, addr, buf, n * eb), 0);
    free(buf);
}

static inline void sh_fill(uint64_t addr, uint8_t byte, size_t bytes) {
    uint8_t *buf = (uint8_t *)malloc(bytes + 1);
    memset(buf, byte, bytes);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, addr, buf, bytes), 0);
    free(buf);
}

/* ---- the run ---- */
typedef struct sh_tile_log {
    int status; /* 0 ran, 1 empty shard (nothing to do), -1 an op failed */
    const char *failed;
    uint64_t cycles; /* the tile's op cycles */
    tx8_box box;
} sh_tile_log;

typedef struct sh_job {
    const sh_case *c;
    uint64_t dst;
    sh_tile_log log[SH_TILES];
} sh_job;

static inline void sh_tile_main(void *arg) {
    sh_job *j = (sh_job *)arg;
    const uint32_t t = tx8_hal_tile_id();
    sh_tile_log *l = &j->log[t];
    if (!sh_case_box(j->c, (int32_t)t, &l->box)) {
        l->status = 1;
        return;
    }
    sh_run r = {0, 0, NULL};
    l->status = j->c->compute(j->c, &l->box, j->dst, &r) == 0 ? 0 : -1;
    l->failed = r.failed, l->cycles = r.cycles;
}

static inline void sh_print_sizes(const sh_case *c, int32_t which) {
    const int32_t k = c->split[which], parts = c->split[1] < 0 ? 16 : 4;
    const int32_t *w = c->split[1] < 0 ? sh_w16 : which == 0 ? sh_w4a : sh_w4b;
    int32_t s, n, first = -1, all_equal = 1;
    printf(" dim %d (%d) in {", k, c->whole[k]);
    for (int32_t i = 0; i < parts; ++i) {
        sh_split(c->whole[k], parts, w, i, &s, &n);
        printf(i ? ",%d" : "%d", n);
        if (first < 0) first = n;
        all_equal &= n == first;
    }
    printf("}");
    assert_false(all_equal); /* the split is uneven */
}

/* The reference by tile 0 alone, then the sharded run on 16 tiles; the two outputs must be equal bit for bit. */
static inline void sh_run_case(const sh_case *c, sh_ddr *ddr) {
    const uint64_t bytes = sh_elems(c->dim, c->whole) * tx8_format_bytes(c->out_fmt);
    const uint64_t ref = sh_ddr_alloc(ddr, bytes), out = sh_ddr_alloc(ddr, bytes);
    sh_fill(ref, 0x5A, bytes);
    sh_fill(out, 0xA5, bytes);

    tx8_box whole;
    memset(&whole, 0, sizeof whole);
    for (int32_t k = 0; k < c->dim; ++k) whole.size[k] = c->whole[k];
    sh_run r = {0, 0, NULL};
    const int rc = c->compute(c, &whole, ref, &r);
    if (rc != 0 || tx8_test_faults()->count) {
        print_error("%s: the one-tile reference failed in %s: %s\n", c->name, r.failed ? r.failed : "?",
                    tx8_test_faults()->last);
        fail();
    }
    const uint64_t ref_cycles = r.cycles;

    sh_job *job = (sh_job *)calloc(1, sizeof *job);
    job->c = c, job->dst = out;
    assert_int_equal(tx8_hal_run_tiles(SH_TILES, sh_tile_main, job), 0);
    int ran = 0;
    uint64_t slowest = 0;
    for (int t = 0; t < SH_TILES; ++t) {
        const sh_tile_log *l = &job->log[t];
        if (l->status < 0) {
            print_error("%s: tile %d (box start %d,%d,%d,%d size %d,%d,%d,%d) failed in %s: %s\n", c->name, t,
                        l->box.start[0], l->box.start[1], l->box.start[2], l->box.start[3], l->box.size[0],
                        l->box.size[1], l->box.size[2], l->box.size[3], l->failed ? l->failed : "?",
                        tx8_test_faults()->last);
            fail();
        }
        ran += l->status == 0;
        if (l->cycles > slowest) slowest = l->cycles;
    }
    if (tx8_test_faults()->count) {
        print_error("%s: %d faults on the tiles, last: %s\n", c->name, tx8_test_faults()->count,
                    tx8_test_faults()->last);
        fail();
    }
    printf("[ shard ] %s:", c->name);
    sh_print_sizes(c, 0);
    if (c->split[1] >= 0) sh_print_sizes(c, 1);
    printf("; %d tiles ran; one tile %llu cycles, slowest shard %llu\n", ran, (unsigned long long)ref_cycles,
           (unsigned long long)slowest);
    assert_true(ran >= SH_TILES / 2); /* most tiles have work */

    uint8_t *a = (uint8_t *)malloc(bytes + 1), *b = (uint8_t *)malloc(bytes + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, ref, a, bytes), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, out, b, bytes), 0);
    if (memcmp(a, b, bytes) != 0) {
        const uint32_t eb = tx8_format_bytes(c->out_fmt);
        size_t i = 0;
        while (memcmp(a + i * eb, b + i * eb, eb) == 0) ++i;
        print_error("%s: sharded output differs from the one-tile output at element %zu: %.9g vs %.9g\n", c->name,
                    i, cm_load_element(b + i * eb, c->out_fmt), cm_load_element(a + i * eb, c->out_fmt));
        fail();
    }
    free(a), free(b), free(job);
}

#endif /* TX8_SHARD_COMMON_H */

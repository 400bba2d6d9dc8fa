/*
 * The DTE (I_DTE: tile-to-tile copies over the NoC) on 16 tiles (16 host threads on the cmodel, 16 harts under
 * QEMU), its XY routes and its faults.
 *   routes     cm_noc_hops, cm_noc_rect_max_hops and cm_noc_tree_links on hand-made cases (exact link sets), and
 *              on every source and rectangle of the 4x4 mesh and of a 3x5 one against the union of the
 *              destinations' XY routes walked hop by hop;
 *   transfers  one case after another, each issued by one tile between barriers: unicast SPM -> SPM over 1, 3
 *              and 6 hops, DDR -> a remote SPM, multicast to a row, a column (both holding the issuing tile), the
 *              whole mesh from DDR, a rectangle not holding the source, a strided box; then op_noc_copy of a
 *              strided fp32 view into a strided view, and of an NCx slice from DDR (each receiver loads the same
 *              slice with op_loadVar too), the latter also queued (op_noc_copy_async, waited for by its token). After the barrier that follows, every tile stores its destination
 *              window to DDR (WDMA), and the test checks every window byte for byte: the box on the tiles of the
 *              rectangle, untouched bytes everywhere else. Each DTE's cycles must be the formula of
 *              tx8/cm_cycles.h, computed here from tx8_hal_config() and the hop count;
 *   faults     a rectangle outside the mesh, x0 > x1, a destination outside SPM, size 0, a bad src_mem, a source
 *              outside DDR, SPM -> own SPM overlapping, op_noc_copy's rectangle: each a fault naming the field,
 *              and no destination byte written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/cm_cycles.h"
#include "tx8/cm_noc.h"
#include "tx8/hal_model.h"
#include "tx8/lsu.h"
#include "tx8_test.h"

enum { TILES = 16, MESH = 4, WIN = 4096 };

/* SPM map of every tile. */
enum { SPM_DST = 0x10000, SPM_CMP = 0x11000, SPM_SRC = 0x20000 };
/* DDR map: the DDR source pattern, each tile's SPM source pattern, the canary, the exported windows. */
enum { DDR_SRC = 0x0, DDR_TILE_SRC = 0x10000, DDR_CANARY = 0x30000, DDR_RES = 0x100000 };
#define CANARY 0xA5u

static uint8_t src_byte(uint32_t tile, uint32_t i) { return (uint8_t)(i * 7u + tile * 29u + (i >> 8) * 3u + 1u); }
static uint8_t ddr_byte(uint32_t i) { return (uint8_t)(i * 13u + (i >> 9) * 5u + 0x5Du); }

/* ---- routes ---- */

static int cmp_u32(const void *a, const void *b) {
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The tree's links, sorted, must be `want` (any order). */
static void expect_tree(const tx8_hw_config *cfg, uint32_t src, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                        const uint32_t *want, uint32_t n) {
    uint32_t got[64], w[64];
    const uint32_t count = cm_noc_tree_links(cfg, src, x0, y0, x1, y1, got, 64);
    assert_int_equal(count, n);
    if (n) memcpy(w, want, n * sizeof *w); /* want may be NULL for an empty tree */
    qsort(got, n, sizeof *got, cmp_u32);
    qsort(w, n, sizeof *w, cmp_u32);
    assert_memory_equal(got, w, n * sizeof *w);
}

#define L(tile, dir) CM_NOC_LINK(tile, dir)

/* Every source and rectangle of cfg's mesh: the tree is exactly the union of the XY routes, walked hop by hop, each
 * link once; the hop counts agree with the walks. */
static void check_all_trees(const tx8_hw_config *cfg) {
    const uint32_t mx = cfg->mesh_x, my = cfg->mesh_y, nlinks = cm_noc_link_count(cfg);
    assert_int_equal(nlinks, cfg->tile_count * 4);
    uint8_t *in_union = malloc(nlinks);
    uint32_t *links = malloc(nlinks * sizeof *links);
    for (uint32_t src = 0; src < cfg->tile_count; ++src)
        for (uint32_t x0 = 0; x0 < mx; ++x0)
            for (uint32_t x1 = x0; x1 < mx; ++x1)
                for (uint32_t y0 = 0; y0 < my; ++y0)
                    for (uint32_t y1 = y0; y1 < my; ++y1) {
                        memset(in_union, 0, nlinks);
                        uint32_t union_count = 0, deepest = 0;
                        for (uint32_t y = y0; y <= y1; ++y)
                            for (uint32_t x = x0; x <= x1; ++x) {
                                uint32_t cx = src % mx, cy = src / mx, hops = 0;
                                while (cx != x || cy != y) { /* X first, then Y */
                                    uint32_t dir;
                                    if (cx != x) dir = x > cx ? CM_NOC_XP : CM_NOC_XN;
                                    else dir = y > cy ? CM_NOC_YP : CM_NOC_YN;
                                    const uint32_t link = CM_NOC_LINK(cy * mx + cx, dir);
                                    union_count += !in_union[link];
                                    in_union[link] = 1;
                                    if (dir == CM_NOC_XP) ++cx;
                                    else if (dir == CM_NOC_XN) --cx;
                                    else if (dir == CM_NOC_YP) ++cy;
                                    else --cy;
                                    ++hops;
                                }
                                assert_int_equal(cm_noc_hops(cfg, src, y * mx + x), hops);
                                if (hops > deepest) deepest = hops;
                            }
                        assert_int_equal(cm_noc_rect_max_hops(cfg, src, x0, y0, x1, y1), deepest);
                        const uint32_t n = cm_noc_tree_links(cfg, src, x0, y0, x1, y1, links, nlinks);
                        assert_int_equal(n, union_count);
                        for (uint32_t i = 0; i < n; ++i) {
                            assert_true(links[i] < nlinks);
                            assert_int_equal(in_union[links[i]], 1); /* on a route, and listed once */
                            in_union[links[i]] = 2;
                        }
                    }
    free(in_union), free(links);
}

static void xy_routes(void **state) {
    (void)state;
    const tx8_hw_config *cfg = tx8_hal_config();
    assert_int_equal(cfg->mesh_x, MESH);
    assert_int_equal(cfg->mesh_y, MESH);
    assert_int_equal(cm_noc_link_count(cfg), 64);
    assert_int_equal(cm_noc_hops(cfg, 0, 15), 6);
    assert_int_equal(cm_noc_hops(cfg, 5, 6), 1);
    assert_int_equal(cm_noc_hops(cfg, 5, 12), 3);
    assert_int_equal(cm_noc_hops(cfg, 3, 12), 6);
    assert_int_equal(cm_noc_hops(cfg, 9, 9), 0);
    assert_int_equal(cm_noc_rect_max_hops(cfg, 10, 0, 0, 3, 3), 4);

    /* unicast (1, 1) -> (2, 3): +x out of 5, then +y out of 6 and 10 */
    const uint32_t uni[] = {L(5, CM_NOC_XP), L(6, CM_NOC_YP), L(10, CM_NOC_YP)};
    expect_tree(cfg, 5, 2, 3, 2, 3, uni, 3);
    /* unicast (3, 3) -> (0, 0): -x out of 15, 14, 13, then -y out of 12, 8, 4 */
    const uint32_t back[] = {L(15, CM_NOC_XN), L(14, CM_NOC_XN), L(13, CM_NOC_XN),
                             L(12, CM_NOC_YN), L(8, CM_NOC_YN),  L(4, CM_NOC_YN)};
    expect_tree(cfg, 15, 0, 0, 0, 0, back, 6);
    expect_tree(cfg, 9, 1, 2, 1, 2, NULL, 0); /* to itself: no link */
    /* row 1 from (1, 1): both ways along the row */
    const uint32_t row[] = {L(5, CM_NOC_XP), L(6, CM_NOC_XP), L(5, CM_NOC_XN)};
    expect_tree(cfg, 5, 0, 1, 3, 1, row, 3);
    /* column 1 from (1, 1): both ways along the column */
    const uint32_t col[] = {L(5, CM_NOC_YP), L(9, CM_NOC_YP), L(5, CM_NOC_YN)};
    expect_tree(cfg, 5, 1, 0, 1, 3, col, 3);
    /* a column elsewhere, (0, 2) -> column 3 rows 0..1: along row 2, then up column 3 */
    const uint32_t col3[] = {L(8, CM_NOC_XP), L(9, CM_NOC_XP), L(10, CM_NOC_XP), L(11, CM_NOC_YN), L(7, CM_NOC_YN)};
    expect_tree(cfg, 8, 3, 0, 3, 1, col3, 5);
    /* the whole mesh from (0, 0): a spanning tree, 15 links */
    const uint32_t all[] = {L(0, CM_NOC_XP), L(1, CM_NOC_XP), L(2, CM_NOC_XP),  L(0, CM_NOC_YP), L(4, CM_NOC_YP),
                            L(8, CM_NOC_YP), L(1, CM_NOC_YP), L(5, CM_NOC_YP),  L(9, CM_NOC_YP), L(2, CM_NOC_YP),
                            L(6, CM_NOC_YP), L(10, CM_NOC_YP), L(3, CM_NOC_YP), L(7, CM_NOC_YP), L(11, CM_NOC_YP)};
    expect_tree(cfg, 0, 0, 0, 3, 3, all, 15);
    /* a rectangle [2, 3] x [1, 2] not holding (0, 0): the row to column 3, then each column from row 0 */
    const uint32_t rect[] = {L(0, CM_NOC_XP), L(1, CM_NOC_XP), L(2, CM_NOC_XP), L(2, CM_NOC_YP),
                             L(6, CM_NOC_YP), L(3, CM_NOC_YP), L(7, CM_NOC_YP)};
    expect_tree(cfg, 0, 2, 1, 3, 2, rect, 7);
    /* max_links smaller than the tree: the count, and only max_links ids written */
    uint32_t few[3] = {999, 999, 999};
    assert_int_equal(cm_noc_tree_links(cfg, 0, 0, 0, 3, 3, few, 2), 15);
    assert_int_equal(few[2], 999);
    assert_int_equal(cm_noc_tree_links(cfg, 0, 0, 0, 3, 3, NULL, 0), 15);

    check_all_trees(cfg);
    tx8_hw_config odd = *cfg; /* a 3 x 5 mesh: routes are not symmetric in x and y */
    odd.mesh_x = 3, odd.mesh_y = 5, odd.tile_count = 15;
    assert_null(tx8_hw_config_check(&odd));
    check_all_trees(&odd);
}

/* ---- transfers on 16 tiles ---- */

typedef struct dte_case {
    const char *name;
    uint32_t src_tile, hops; /* hops: of the farthest destination, counted by hand */
    DTE_Param p;
} dte_case;

enum { DTE_CASES = 9, NOC_CASES = 3, CASES = DTE_CASES + NOC_CASES };

typedef struct run_log {
    dte_case cases[DTE_CASES];
    uint64_t cycles[CASES]; /* as tx8_hal_execute / op_noc_copy returned them on the issuing tile */
    uint64_t model_cycles[DTE_CASES]; /* cm_cycles_dte on the issuing tile */
} run_log;

static uint64_t res_addr(int k, uint32_t tile, int window) {
    return DDR_RES + ((uint64_t)(k * TILES + (int)tile) * 2 + (uint64_t)window) * WIN;
}

static void load_window(uint64_t ddr, uint64_t spm, uint32_t bytes) {
    DMA_Param p;
    LSU_RDMA_box(&p, ddr, spm, bytes, 1, 0, 0, 1, 0, 0);
    tx8_hal_execute(&p);
}

static void store_window(uint64_t spm, uint64_t ddr) {
    DMA_Param p;
    LSU_WDMA_box(&p, ddr, spm, WIN, 1, 0, 0, 1, 0, 0);
    tx8_hal_execute(&p);
}

static void fill_cases(dte_case *c) {
    /* name, issuing tile, hops; box: src_mem, src, dst, run, count1, src/dst stride1, count2, strides2, rectangle */
    c[0] = (dte_case){"unicast SPM -> SPM, (0,0) -> (3,3), 6 hops", 0, 6, {0}};
    TsmDte_copy(&c[0].p, DTE_SRC_SPM, SPM_SRC + 8, SPM_DST + 16, 1000, 1, 0, 0, 1, 0, 0, 3, 3, 3, 3);
    c[1] = (dte_case){"unicast SPM -> SPM, (1,1) -> (2,1), 1 hop", 5, 1, {0}};
    TsmDte_copy(&c[1].p, DTE_SRC_SPM, SPM_SRC, SPM_DST, 256, 1, 0, 0, 1, 0, 0, 2, 1, 2, 1);
    c[2] = (dte_case){"unicast SPM -> SPM, (1,1) -> (0,3), 3 hops", 5, 3, {0}};
    TsmDte_copy(&c[2].p, DTE_SRC_SPM, SPM_SRC + 100, SPM_DST + 3, 777, 1, 0, 0, 1, 0, 0, 0, 3, 0, 3);
    c[3] = (dte_case){"DDR -> remote SPM, (3,0) -> (0,2), 5 hops, runs of 100 bytes", 3, 5, {0}};
    TsmDte_copy(&c[3].p, DTE_SRC_DDR, DDR_SRC + 64, SPM_DST + 8, 100, 3, 128, 120, 1, 0, 0, 0, 2, 0, 2);
    c[4] = (dte_case){"multicast to row 1 from (2,1), itself included", 6, 2, {0}};
    TsmDte_copy(&c[4].p, DTE_SRC_SPM, SPM_SRC + 40, SPM_DST + 40, 2000, 1, 0, 0, 1, 0, 0, 0, 1, 3, 1);
    c[5] = (dte_case){"multicast to column 1 from (1,0), itself included", 1, 3, {0}};
    TsmDte_copy(&c[5].p, DTE_SRC_SPM, SPM_SRC, SPM_DST + 512, 64, 16, 96, 80, 1, 0, 0, 1, 0, 1, 3);
    c[6] = (dte_case){"multicast from DDR to the whole mesh, issued by (2,2)", 10, 4, {0}};
    TsmDte_copy(&c[6].p, DTE_SRC_DDR, DDR_SRC + 4096, SPM_DST, 4096, 1, 0, 0, 1, 0, 0, 0, 0, 3, 3);
    c[7] = (dte_case){"multicast to [2,3] x [1,2] from (0,0), outside it", 0, 5, {0}};
    TsmDte_copy(&c[7].p, DTE_SRC_SPM, SPM_SRC + 1, SPM_DST + 2, 333, 1, 0, 0, 1, 0, 0, 2, 1, 3, 2);
    c[8] = (dte_case){"strided 24 x 5 x 3 box from (3,3) to [0,1] x [0,1]", 15, 6, {0}};
    TsmDte_copy(&c[8].p, DTE_SRC_SPM, SPM_SRC + 5, SPM_DST + 7, 24, 5, 40, 32, 3, 256, 200, 0, 0, 1, 1);
}

/* op_noc_copy cases. */
static const int32_t kViewWhole[3] = {4, 6, 10}, kViewStart[3] = {1, 2, 3}, kViewReal[3] = {2, 3, 5};
static const int32_t kDstWhole[3] = {3, 4, 8}, kDstStart[3] = {1, 0, 2};
static const int32_t kNcxWhole[4] = {2, 3, 4, 40}, kNcxStart[4] = {1, 1, 0, 0}, kNcxReal[4] = {1, 2, 4, 40};
#define NCX_DDR (DDR_SRC + 0x2000)

static void view(L_SHAPE *s, const int32_t *whole, const int32_t *start, const int32_t *real, int32_t dim) {
    tx8_lshape_init(s, whole, dim);
    for (int32_t i = 0; i < dim; ++i) s->shape_start[i] = start[i], s->shape_slice[i] = s->shape_real[i] = real[i];
}

static void tile_main(void *arg) {
    run_log *log = (run_log *)arg;
    const uint32_t t = tx8_hal_tile_id();
    load_window(DDR_TILE_SRC + (uint64_t)t * WIN, SPM_SRC, WIN);
    for (int k = 0; k < CASES; ++k) {
        load_window(DDR_CANARY, SPM_DST, WIN);
        load_window(DDR_CANARY, SPM_CMP, WIN);
        tx8_hal_barrier();
        if (k < DTE_CASES && t == log->cases[k].src_tile) {
            log->cycles[k] = tx8_hal_execute(&log->cases[k].p);
            log->model_cycles[k] = cm_cycles_dte(tx8_hal_config(), t, &log->cases[k].p);
        } else if (k == DTE_CASES && t == 0) {
            /* fp32 [4][6][10] in tile 0's SPM, slice [1,3) x [2,5) x [3,8), into the view [1,3) x [0,3) x [2,7)
             * of a [3][4][8] tensor on the tiles of [1, 2] x [0, 1] */
            NOC_COPY_PARAM pm = {LAYOUT_TENSOR, 0, 1, 0, 2, 1};
            L_SHAPE ss, ds;
            view(&ss, kViewWhole, kViewStart, kViewReal, 3);
            view(&ds, kDstWhole, kDstStart, kViewReal, 3);
            TSR src = {Fmt_FP32, SPM_SRC, &ss}, dst = {Fmt_FP32, SPM_DST, &ds};
            log->cycles[k] = op_noc_copy(&pm, &src, &dst);
        } else if (k == DTE_CASES + 1 && t == 0) {
            NOC_COPY_PARAM pm = {LAYOUT_NCX, 1, 0, 3, 3, 3}; /* from DDR to the bottom row */
            L_SHAPE ss;
            view(&ss, kNcxWhole, kNcxStart, kNcxReal, 4);
            TSR src = {Fmt_FP16, NCX_DDR, &ss}, dst = {Fmt_FP16, SPM_DST, NULL};
            log->cycles[k] = op_noc_copy(&pm, &src, &dst);
        } else if (k == DTE_CASES + 2 && t == 5) {
            NOC_COPY_PARAM pm = {LAYOUT_NCX, 1, 0, 2, 3, 2}; /* queued, from DDR to row 2, by (1,1) outside it */
            L_SHAPE ss;
            view(&ss, kNcxWhole, kNcxStart, kNcxReal, 4);
            TSR src = {Fmt_FP16, NCX_DDR, &ss}, dst = {Fmt_FP16, SPM_DST, NULL};
            const uint64_t before = tx8_hal_cycles();
            const tx8_token token = op_noc_copy_async(&pm, &src, &dst, NULL, 0);
            log->cycles[k] = token ? tx8_hal_wait(token) - before : TX8_CYCLES_INVALID;
        }
        tx8_hal_barrier(); /* the transfer is done and visible */
        const uint32_t receivers = k == DTE_CASES + 1 ? 3u : k == DTE_CASES + 2 ? 2u : MESH;
        if (t / MESH == receivers) { /* the receivers load the same slice themselves */
            LOAD_PARAM ld = {LAYOUT_NCX};
            L_SHAPE ss;
            view(&ss, kNcxWhole, kNcxStart, kNcxReal, 4);
            TSR src = {Fmt_FP16, NCX_DDR, &ss}, cmp = {Fmt_FP16, SPM_CMP, NULL};
            op_loadVar(&ld, &src, &cmp);
        }
        store_window(SPM_DST, res_addr(k, t, 0));
        store_window(SPM_CMP, res_addr(k, t, 1));
    }
    tx8_hal_barrier();
}

static int in_rect(const Ncc_DTE_GR_Param_Regs *q, uint32_t tile) {
    const uint32_t x = tile % MESH, y = tile / MESH;
    return x >= q->dst_x0 && x <= q->dst_x1 && y >= q->dst_y0 && y <= q->dst_y1;
}

static uint64_t expected_dte_cycles(const dte_case *c) {
    const tx8_hw_config *hw = tx8_hal_config();
    const Ncc_DTE_GR_Param_Regs *q = &c->p.param;
    const int ddr = c->p.ctrl.src_mem == DTE_SRC_DDR;
    const uint64_t run = ddr ? (q->size[0] + hw->ddr_burst_bytes - 1) / hw->ddr_burst_bytes * hw->ddr_burst_bytes
                             : q->size[0];
    const uint64_t bytes = run * q->size[1] * q->size[2];
    uint64_t rate = hw->noc_link_bytes_per_cycle;
    if (ddr && hw->ddr_bytes_per_cycle < rate) rate = hw->ddr_bytes_per_cycle;
    return hw->dte_startup_cycles + (uint64_t)c->hops * hw->noc_hop_cycles + (ddr ? hw->ddr_latency_cycles : 0) +
           (bytes + rate - 1) / rate;
}

static uint8_t *read_ddr(uint64_t addr, size_t bytes) {
    uint8_t *buf = malloc(bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, addr, buf, bytes), 0);
    return buf;
}

static void expect_window(int k, uint32_t tile, const uint8_t *want, const char *what) {
    uint8_t *got = read_ddr(res_addr(k, tile, 0), WIN);
    for (uint32_t i = 0; i < WIN; ++i)
        if (got[i] != want[i]) {
            print_error("%s: tile %u, destination byte %u: got 0x%02x want 0x%02x\n", what, tile, i, got[i], want[i]);
            fail();
        }
    free(got);
}

static void transfers_on_16_tiles(void **state) {
    (void)state;
    const tx8_hw_config *hw = tx8_hal_config();
    uint8_t *buf = malloc(0x20000);
    for (uint32_t i = 0; i < 0x10000; ++i) buf[i] = ddr_byte(i);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, DDR_SRC, buf, 0x10000), 0);
    for (uint32_t t = 0; t < TILES; ++t)
        for (uint32_t i = 0; i < WIN; ++i) buf[t * WIN + i] = src_byte(t, i);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, DDR_TILE_SRC, buf, TILES * WIN), 0);
    memset(buf, CANARY, WIN);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, DDR_CANARY, buf, WIN), 0);
    free(buf);

    run_log *log = calloc(1, sizeof *log);
    fill_cases(log->cases);
    assert_int_equal(tx8_hal_run_tiles(TILES, tile_main, log), 0);
    assert_int_equal(tx8_test_faults()->count, 0);

    uint8_t want[WIN];
    for (int k = 0; k < DTE_CASES; ++k) {
        const dte_case *c = &log->cases[k];
        const Ncc_DTE_GR_Param_Regs *q = &c->p.param;
        const int ddr = c->p.ctrl.src_mem == DTE_SRC_DDR;
        const uint64_t cycles = expected_dte_cycles(c);
        printf("[ noc ] %-62s %llu cycles\n", c->name, (unsigned long long)log->cycles[k]);
        assert_int_equal(cm_noc_rect_max_hops(hw, c->src_tile, q->dst_x0, q->dst_y0, q->dst_x1, q->dst_y1), c->hops);
        assert_int_equal(log->cycles[k], cycles);
        assert_int_equal(log->model_cycles[k], cycles);
        for (uint32_t t = 0; t < TILES; ++t) {
            memset(want, CANARY, WIN);
            if (in_rect(q, t))
                for (uint32_t i2 = 0; i2 < q->size[2]; ++i2)
                    for (uint32_t i1 = 0; i1 < q->size[1]; ++i1)
                        for (uint32_t b = 0; b < q->size[0]; ++b) {
                            const uint64_t s = q->src_addr + i2 * q->src_stride[1] + i1 * q->src_stride[0] + b;
                            const uint64_t d = q->dst_addr + i2 * q->dst_stride[1] + i1 * q->dst_stride[0] + b;
                            want[d - SPM_DST] =
                                ddr ? ddr_byte((uint32_t)(s - DDR_SRC)) : src_byte(c->src_tile, (uint32_t)(s - SPM_SRC));
                        }
            expect_window(k, t, want, c->name);
        }
    }

    /* op_noc_copy of the fp32 view: element (a, b, c) of the slice comes from source element
     * (1 + a, 2 + b, 3 + c) of [4][6][10] and goes to (1 + a, 0 + b, 2 + c) of [3][4][8] */
    {
        const int k = DTE_CASES;
        printf("[ noc ] op_noc_copy fp32 view -> view, [1,2] x [0,1]: %llu cycles\n",
               (unsigned long long)log->cycles[k]);
        /* rows of 5 elements (20 bytes) in 2 x 3 runs: one DTE box, 3 hops from (0,0) to (2,1) */
        const uint64_t want_cycles = hw->dte_startup_cycles + 3ull * hw->noc_hop_cycles +
                                     (6 * 20 + hw->noc_link_bytes_per_cycle - 1) / hw->noc_link_bytes_per_cycle;
        assert_int_equal(log->cycles[k], want_cycles);
        for (uint32_t t = 0; t < TILES; ++t) {
            memset(want, CANARY, WIN);
            const uint32_t x = t % MESH, y = t / MESH;
            if (x >= 1 && x <= 2 && y <= 1)
                for (int a = 0; a < 2; ++a)
                    for (int b = 0; b < 3; ++b)
                        for (int e = 0; e < 5; ++e)
                            for (int byte = 0; byte < 4; ++byte) {
                                const uint32_t s = (uint32_t)((((1 + a) * 6 + 2 + b) * 10 + 3 + e) * 4 + byte);
                                const uint32_t d = (uint32_t)((((1 + a) * 4 + b) * 8 + 2 + e) * 4 + byte);
                                want[d] = src_byte(0, s);
                            }
            expect_window(k, t, want, "op_noc_copy fp32 view");
        }
    }
    /* op_noc_copy of the NCx slice from DDR, executed to the bottom row and queued to row 2: what op_loadVar gives
     * on the receiving row, the canary elsewhere */
    for (int k = DTE_CASES + 1; k < CASES; ++k) {
        const uint32_t row = k == DTE_CASES + 1 ? 3u : 2u;
        printf("[ noc ] op_noc_copy%s NCx slice from DDR to row %u: %llu cycles\n", row == 2 ? "_async" : "", row,
               (unsigned long long)log->cycles[k]);
        assert_true(log->cycles[k] != TX8_CYCLES_INVALID && log->cycles[k] > 0);
        for (uint32_t t = 0; t < TILES; ++t) {
            uint8_t *got = read_ddr(res_addr(k, t, 0), WIN), *ref = read_ddr(res_addr(k, t, 1), WIN);
            memset(want, CANARY, WIN);
            if (t / MESH == row) {
                assert_true(memcmp(ref, want, WIN) != 0); /* op_loadVar wrote something */
                assert_memory_equal(got, ref, WIN);
            } else {
                assert_memory_equal(got, want, WIN);
            }
            free(got), free(ref);
        }
    }
    free(log);
}

/* ---- faults (tile 0 alone; the chip still has 16 tiles) ---- */

static void expect_untouched(void **state, uint32_t tile) {
    uint8_t got[WIN], want[WIN];
    cm_error err = {CM_OK, ""};
    assert_int_equal(cm_spm_read(tx8_hal_model((tx8_hal *)*state), tile, SPM_DST, got, WIN, &err), CM_OK);
    memset(want, 0, WIN);
    assert_memory_equal(got, want, WIN);
}

static void bad_dte(void **state) {
    const tx8_hw_config *hw = tx8_hal_config();
    uint8_t pattern[256];
    for (int i = 0; i < 256; ++i) pattern[i] = src_byte(0, (uint32_t)i);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, SPM_SRC, pattern, sizeof pattern), 0);
    DTE_Param p;

#define BAD(needle, ...)                                                                                      \
    do {                                                                                                      \
        TsmDte_copy(&p, DTE_SRC_SPM, SPM_SRC, SPM_DST, 256, 1, 0, 0, 1, 0, 0, 1, 1, 3, 3);                    \
        __VA_ARGS__;                                                                                          \
        assert_int_equal(tx8_hal_execute(&p), TX8_CYCLES_INVALID);                                            \
        tx8_test_expect_fault(needle);                                                                        \
    } while (0)

    BAD("dst_x1 = 4 is outside the mesh", p.param.dst_x1 = MESH);
    BAD("dst_y1 = 9 is outside the mesh", p.param.dst_y0 = 2, p.param.dst_y1 = 9);
    BAD("dst_x0 = 3 > dst_x1 = 2", p.param.dst_x0 = 3, p.param.dst_x1 = 2);
    BAD("dst_y0 = 2 > dst_y1 = 1", p.param.dst_y0 = 2, p.param.dst_y1 = 1);
    BAD("DTE: dst_addr", p.param.dst_addr = hw->spm_bytes - 100);
    BAD("DTE: dst_addr", p.param.size[1] = 2, p.param.dst_stride[0] = (uint32_t)hw->spm_bytes);
    BAD("DTE: size[0] = 0", p.param.size[0] = 0);
    BAD("DTE: size[2] = 0", p.param.size[2] = 0);
    BAD("DTE: src_mem = 7", p.ctrl.src_mem = 7);
    BAD("DTE: opcode = 3", p.ctrl.opcode = 3);
    BAD("DTE: src_addr", p.param.src_addr = hw->spm_bytes);
    BAD("DTE: src_addr", p.ctrl.src_mem = DTE_SRC_DDR, p.param.src_addr = hw->ddr_bytes - 8);
    BAD("DTE: src_addr", p.param.size[2] = 3, p.param.src_stride[1] = UINT64_MAX / 2); /* extent overflows */
    /* tile 0 inside [0, 1] x [0, 0], its SPM source overlapping its destination */
    BAD("overlaps dst_addr range", p.param.dst_x0 = 0, p.param.dst_y0 = 0, p.param.dst_x1 = 1, p.param.dst_y1 = 0,
        p.param.dst_addr = SPM_SRC + 128);
#undef BAD
    for (uint32_t t = 0; t < TILES; ++t) expect_untouched(state, t);

    /* to itself without overlap is fine: 0 hops */
    TsmDte_copy(&p, DTE_SRC_SPM, SPM_SRC, SPM_SRC + 256, 256, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0);
    assert_int_equal(tx8_hal_execute(&p), hw->dte_startup_cycles + (256 + hw->noc_link_bytes_per_cycle - 1) /
                                                                       hw->noc_link_bytes_per_cycle);
    uint8_t back[256];
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, SPM_SRC + 256, back, sizeof back), 0);
    assert_memory_equal(back, pattern, sizeof back);

    /* op_noc_copy checks before its first instruction */
    const int32_t shape[2] = {4, 16};
    L_SHAPE s;
    tx8_lshape_init(&s, shape, 2);
    TSR src = {Fmt_FP32, SPM_SRC, &s}, dst = {Fmt_FP32, SPM_DST, NULL};
    NOC_COPY_PARAM pm = {LAYOUT_TENSOR, 0, 1, 1, 1, 4};
    assert_int_equal(op_noc_copy(&pm, &src, &dst), TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_noc_copy: param dst_y1 = 4 is outside the mesh");
    pm = (NOC_COPY_PARAM){LAYOUT_TENSOR, 2, 1, 1, 1, 1};
    assert_int_equal(op_noc_copy(&pm, &src, &dst), TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_noc_copy: param src_ddr = 2");
    pm = (NOC_COPY_PARAM){LAYOUT_TENSOR, 0, 1, 1, 1, 1};
    dst.addr = hw->spm_bytes - 64;
    assert_int_equal(op_noc_copy(&pm, &src, &dst), TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_noc_copy: dst = ");
    dst.addr = SPM_SRC + 64; /* tile 0 receives too: overlap */
    pm = (NOC_COPY_PARAM){LAYOUT_TENSOR, 0, 0, 0, 1, 1};
    assert_int_equal(op_noc_copy(&pm, &src, &dst), TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_noc_copy: src and dst overlap in the SPM of tile 0");
    for (uint32_t t = 1; t < TILES; ++t) expect_untouched(state, t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(xy_routes, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(transfers_on_16_tiles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_dte, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

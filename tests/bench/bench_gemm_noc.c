/*
 * tx8-bench-gemm: C[M,N] = A[M,K] x B[K,N] in bf16 (fp32 accumulate, bf16 out), hand-written against OpLib on a
 * grid of tiles, and its simulated cycles as a ratio to the NE peak of the tiles used. Prints numbers; asserts
 * nothing but the result.
 *
 *   tx8-bench-gemm [--size M N K] [--grid X Y] [--feed noc|ddr] [--link BYTES_PER_CYCLE] [--check]
 *
 * Schedule. Tile (x, y) of the X x Y grid (mesh tile y * mesh_x + x: the grid sits in the mesh's corner) owns the C block of rows [y M/Y, (y+1) M/Y) and columns
 * [x N/X, (x+1) N/X), computed as 512 x 512 sub-blocks, each streaming K in chunks of 128:
 *   step g (one chunk of one sub-block): every tile multiplies the A chunk [512 x 128] and the B chunk [128 x 512]
 *   in its buffers g % 2 into its fp32 accumulator (one NE instruction); meanwhile the next chunks are brought
 *   into buffers (g + 1) % 2, and 16 rows of the previous sub-block's bf16 result go to DDR; then a barrier.
 * Feeding the chunks:
 *   --feed noc  (default) A chunks are read from DDR once per grid row by one tile of the row (the diagonal tile
 *               (y, y) mod X) and multicast over the NoC to the whole row; B chunks once per grid column by tile
 *               (x, (x + 1) mod Y), multicast down the column: DDR carries each chunk once;
 *   --feed ddr  every tile reads its own A and B chunks from DDR (RDMA): DDR carries each chunk X (or Y) times.
 * The NoC feed wins whenever DDR is the bottleneck: per step the chip needs (X + Y) chunks from DDR instead of
 * 2 X Y; a link carries one 128 KiB chunk per step, far below its rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tx8/cgra.h"
#include "tx8/cm_numerics.h"
#include "tx8/hal_cmodel.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

enum { SUB = 512, KC = 128 };

/* SPM map of a tile (bytes). */
#define SPM_A(b) ((uint64_t)(b) * SUB * KC * 2)
#define SPM_B(b) (2ull * SUB * KC * 2 + (uint64_t)(b) * KC * SUB * 2)
#define SPM_ACC (4ull * SUB * KC * 2)
#define SPM_OUT (SPM_ACC + 4ull * SUB * SUB)
#define STORE_ROWS 16u /* rows of the previous sub-block stored per step: SUB / (K / KC) at K = 4096 */

typedef struct gemm_job {
    uint32_t m, n, k, gx, gy;
    int feed_noc;
    uint64_t a_ddr, b_ddr, c_ddr;
    uint64_t start, end;
    int failed;
} gemm_job;

static void tsr2(TSR *t, L_SHAPE *s, Data_Format f, uint64_t addr, int32_t rows, int32_t cols) {
    const int32_t shape[2] = {rows, cols};
    tx8_lshape_init(s, shape, 2);
    t->format = f, t->addr = addr, t->shape = s;
}

/* Brings chunk `kc` of sub-block (r0, c0) into buffer `buf` of the tiles that need it; returns the tokens. */
static uint32_t feed(const gemm_job *j, uint32_t x, uint32_t y, uint32_t r0, uint32_t c0, uint32_t kc, int buf,
                     tx8_token *tokens) {
    uint32_t n = 0;
    const uint64_t a_src = j->a_ddr + ((uint64_t)r0 * j->k + (uint64_t)kc * KC) * 2;
    const uint64_t b_src = j->b_ddr + ((uint64_t)kc * KC * j->n + c0) * 2;
    if (j->feed_noc) {
        DTE_Param p;
        if (x == y % j->gx) { /* A leader of row y */
            TsmDte_copy(&p, DTE_SRC_DDR, a_src, SPM_A(buf), KC * 2, SUB, (uint64_t)j->k * 2, KC * 2, 1, 0, 0, 0, y,
                        j->gx - 1, y);
            tokens[n++] = TsmIssue(&p, NULL, 0);
        }
        if (y == (x + 1) % j->gy) { /* B leader of column x */
            TsmDte_copy(&p, DTE_SRC_DDR, b_src, SPM_B(buf), SUB * 2, KC, (uint64_t)j->n * 2, SUB * 2, 1, 0, 0, x, 0, x,
                        j->gy - 1);
            tokens[n++] = TsmIssue(&p, NULL, 0);
        }
    } else {
        DMA_Param p;
        LSU_RDMA_box(&p, a_src, SPM_A(buf), KC * 2, SUB, (uint64_t)j->k * 2, KC * 2, 1, 0, 0);
        tokens[n++] = TsmIssue(&p, NULL, 0);
        LSU_RDMA_box(&p, b_src, SPM_B(buf), SUB * 2, KC, (uint64_t)j->n * 2, SUB * 2, 1, 0, 0);
        tokens[n++] = TsmIssue(&p, NULL, 0);
    }
    return n;
}

static void gemm_tile(void *arg) {
    gemm_job *j = (gemm_job *)arg;
    const uint32_t t = tx8_hal_tile_id(), mx = tx8_hal_config()->mesh_x, x = t % mx, y = t / mx;
    const uint32_t bm = j->m / j->gy, bn = j->n / j->gx, subs_c = bn / SUB, subs = (bm / SUB) * subs_c;
    const uint32_t chunks = j->k / KC, steps = subs * chunks;
    if (t == 0) j->start = tx8_hal_cycles();
    if (x >= j->gx || y >= j->gy) { /* a tile of the run outside the grid (the grid sits in the mesh's corner) */
        for (uint32_t b = 0; b < steps + 2; ++b) tx8_hal_barrier();
        return;
    }
    tx8_token fed[2], stored = 0;
    uint32_t nfed = 0;
    /* prologue: chunk 0 of sub-block 0 */
    nfed = feed(j, x, y, y * bm, x * bn, 0, 0, fed);
    for (uint32_t i = 0; i < nfed; ++i) TsmWait(fed[i]);
    tx8_hal_barrier();
    for (uint32_t g = 0; g < steps; ++g) {
        const uint32_t sub = g / chunks, kc = g % chunks, buf = g % 2;
        nfed = 0;
        if (g + 1 < steps) {
            const uint32_t ns = (g + 1) / chunks;
            nfed = feed(j, x, y, y * bm + (ns / subs_c) * SUB, x * bn + (ns % subs_c) * SUB, (g + 1) % chunks,
                        (int)((g + 1) % 2), fed);
        }
        /* the previous sub-block's result, STORE_ROWS rows per step */
        if (sub > 0 && kc * STORE_ROWS < SUB) {
            const uint32_t ps = sub - 1, pr = y * bm + (ps / subs_c) * SUB, pc = x * bn + (ps % subs_c) * SUB;
            DMA_Param st;
            LSU_WDMA_box(&st, j->c_ddr + ((uint64_t)(pr + kc * STORE_ROWS) * j->n + pc) * 2,
                         SPM_OUT + (uint64_t)kc * STORE_ROWS * SUB * 2, SUB * 2, STORE_ROWS, (uint64_t)j->n * 2,
                         SUB * 2, 1, 0, 0);
            stored = TsmIssue(&st, NULL, 0);
        }
        L_SHAPE sa, sb, sc;
        TSR a, b, c;
        tsr2(&a, &sa, Fmt_BF16, SPM_A(buf), SUB, KC);
        tsr2(&b, &sb, Fmt_BF16, SPM_B(buf), KC, SUB);
        tsr2(&c, &sc, Fmt_FP32, SPM_ACC, SUB, SUB);
        GEMM_PARAM gp = {kc > 0, 0};
        if (op_gemm(&gp, &a, &b, NULL, &c) == TX8_CYCLES_INVALID) j->failed = 1;
        if (kc == chunks - 1) { /* sub-block done: round it to bf16 once its buffer's last store has left */
            if (stored) TsmWait(stored);
            CT_Param cv;
            CGRATensor_ConvertOp_V_V_convert(&cv, SPM_ACC, SPM_OUT, SUB * SUB, Fmt_FP32, Fmt_BF16, RND_NEAREST_EVEN);
            if (TsmExecute(&cv) == TX8_CYCLES_INVALID) j->failed = 1;
        }
        for (uint32_t i = 0; i < nfed; ++i) TsmWait(fed[i]);
        tx8_hal_barrier();
    }
    /* epilogue: the last sub-block, whole */
    const uint32_t ls = subs - 1, lr = y * bm + (ls / subs_c) * SUB, lc = x * bn + (ls % subs_c) * SUB;
    DMA_Param st;
    LSU_WDMA_box(&st, j->c_ddr + ((uint64_t)lr * j->n + lc) * 2, SPM_OUT, SUB * 2, SUB, (uint64_t)j->n * 2, SUB * 2,
                 1, 0, 0);
    TsmWait(TsmIssue(&st, NULL, 0));
    tx8_hal_barrier();
    if (t == 0) j->end = tx8_hal_cycles();
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t lcg(uint64_t *s) { return *s = *s * 6364136223846793005ull + 1442695040888963407ull; }

static void fill_bf16(uint64_t addr, uint64_t elems, uint64_t seed) {
    const uint64_t chunk = 1u << 20;
    uint16_t *buf = (uint16_t *)malloc(chunk * 2);
    uint64_t s = seed;
    for (uint64_t i = 0; i < elems; i += chunk) {
        const uint64_t n = elems - i < chunk ? elems - i : chunk;
        for (uint64_t e = 0; e < n; ++e) buf[e] = cm_fp32_to_bf16((float)((int)(lcg(&s) >> 59) - 16) / 16.0f);
        tx8_hal_mem_write(TX8_MEM_DDR, addr + 2 * i, buf, n * 2);
    }
    free(buf);
}

static double bf16_at(uint64_t addr) {
    uint8_t v[2];
    tx8_hal_mem_read(TX8_MEM_DDR, addr, v, 2);
    return cm_load_element(v, Fmt_BF16);
}

/* Spot-checks `samples` elements of C against a double dot product (bf16 rounding of an fp32 sum: 2^-8 relative). */
static int check(const gemm_job *j, int samples) {
    uint64_t s = 7;
    int bad = 0;
    for (int i = 0; i < samples; ++i) {
        const uint32_t r = (uint32_t)(lcg(&s) >> 33) % j->m, c = (uint32_t)(lcg(&s) >> 33) % j->n;
        double want = 0, mag = 0;
        for (uint32_t k = 0; k < j->k; ++k) {
            const double p = bf16_at(j->a_ddr + ((uint64_t)r * j->k + k) * 2) * bf16_at(j->b_ddr + ((uint64_t)k * j->n + c) * 2);
            want += p, mag += p < 0 ? -p : p;
        }
        const double got = bf16_at(j->c_ddr + ((uint64_t)r * j->n + c) * 2);
        const double err = got > want ? got - want : want - got;
        if (err > 0x1p-8 * (want < 0 ? -want : want) + 1e-6 * mag + 1e-30) {
            printf("  C[%u][%u] = %.6g, want %.6g\n", r, c, got, want);
            ++bad;
        }
    }
    return bad;
}

int main(int argc, char **argv) {
    gemm_job j = {4096, 4096, 4096, 4, 4, 1, 0, 0, 0, 0, 0, 0};
    uint32_t link = 0;
    int do_check = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--size") && i + 3 < argc) {
            j.m = (uint32_t)atoi(argv[++i]), j.n = (uint32_t)atoi(argv[++i]), j.k = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--grid") && i + 2 < argc) {
            j.gx = (uint32_t)atoi(argv[++i]), j.gy = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--feed") && i + 1 < argc) {
            j.feed_noc = strcmp(argv[++i], "ddr") != 0;
        } else if (!strcmp(argv[i], "--link") && i + 1 < argc) {
            link = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--check")) {
            do_check = 1;
        } else {
            fprintf(stderr, "usage: %s [--size M N K] [--grid X Y] [--feed noc|ddr] [--link B/cycle] [--check]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!j.gx || !j.gy || j.gx > 4 || j.gy > 4 || j.m % (j.gy * SUB) || j.n % (j.gx * SUB) || j.k % KC ||
        j.k / KC < SUB / STORE_ROWS) {
        fprintf(stderr, "tx8-bench-gemm: needs a grid within 4 x 4, M and N multiples of 512 per tile, K >= %u and a "
                        "multiple of %u\n", SUB / STORE_ROWS * KC, KC);
        return 2;
    }
    tx8_hw_config cfg = tx8_hw_config_default();
    if (link) cfg.noc_link_bytes_per_cycle = link;
    tx8_hal *hal = tx8_hal_open(&cfg);
    if (!hal) return 1;
    j.a_ddr = 0;
    j.b_ddr = ((uint64_t)j.m * j.k * 2 + 4095) / 4096 * 4096;
    j.c_ddr = j.b_ddr + ((uint64_t)j.k * j.n * 2 + 4095) / 4096 * 4096;
    fill_bf16(j.a_ddr, (uint64_t)j.m * j.k, 1);
    fill_bf16(j.b_ddr, (uint64_t)j.k * j.n, 2);

    const double t0 = now_s();
    if (tx8_hal_run_tiles((j.gy - 1) * cfg.mesh_x + j.gx, gemm_tile, &j) != 0 || j.failed) return 1;
    const double wall = now_s() - t0;
    const uint64_t cycles = j.end - j.start, tiles = (uint64_t)j.gx * j.gy;
    const double macs = (double)j.m * j.n * j.k, peak = (double)tiles * cfg.ne_macs_per_cycle_bf16;
    uint64_t ne = 0;
    for (uint32_t t = 0; t < cfg.tile_count; ++t) ne += tx8_hal_engine_cycles(hal, t, I_NEUR);
    printf("gemm %ux%ux%u bf16 on %llu tiles (%ux%u), feed %s, link %u B/cycle\n", j.m, j.n, j.k,
           (unsigned long long)tiles, j.gx, j.gy, j.feed_noc ? "noc (multicast)" : "ddr (every tile)",
           cfg.noc_link_bytes_per_cycle);
    printf("  simulated cycles  %llu = %.1f us at %u MHz\n", (unsigned long long)cycles,
           (double)cycles / cfg.clock_mhz, cfg.clock_mhz);
    printf("  MAC/cycle         %.0f of %.0f (%llu x %u): %.3f of the NE peak\n", macs / (double)cycles, peak,
           (unsigned long long)tiles, cfg.ne_macs_per_cycle_bf16, macs / (double)cycles / peak);
    printf("  NE busy           %.3f of the tiles' time\n", (double)ne / ((double)cycles * (double)tiles));
    printf("  host              %.2f s, %.3f ns per simulated MAC\n", wall, wall * 1e9 / macs);
    if (do_check) {
        const int bad = check(&j, 64);
        printf("  check             %d of 64 sampled elements wrong\n", bad);
        if (bad) return 1;
    }
    tx8_hal_close(hal);
    return 0;
}

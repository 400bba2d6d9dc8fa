/*
 * The chip's time: engines that run concurrently, shared DDR, NoC links, barriers, determinism (cmodel/README.md).
 *
 * Every expected number is derived from the hardware config and the per-instruction formulas of tx8/cm_cycles.h
 * (an instruction's cost alone is what tx8_hal_execute returns on an idle tile), never typed in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(__riscv)
#include <sched.h>
#include <time.h>
#endif

#include "tx8/cgra.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

enum { SPM_A = 0, SPM_B = 0x40000, SPM_C = 0x80000, SPM_D = 0xC0000, SPM_E = 0x100000 };

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static const tx8_hw_config *hw(void) { return tx8_hal_config(); }

static void rdma(DMA_Param *p, uint64_t ddr, uint64_t spm, uint32_t bytes) {
    LSU_RDMA_box(p, ddr, spm, bytes, 1, 0, 0, 1, 0, 0);
}
static void wdma(DMA_Param *p, uint64_t ddr, uint64_t spm, uint32_t bytes) {
    LSU_WDMA_box(p, ddr, spm, bytes, 1, 0, 0, 1, 0, 0);
}
static void ct_add(CT_Param *p, uint64_t a, uint64_t b, uint64_t dst, uint32_t n) {
    CGRATensor_ArithOp_V_V_add(p, a, b, dst, n, RND_NEAREST_EVEN, Fmt_FP32);
}

/* ---- one tile: overlap, order, dependencies, hazards ---- */

static void dma_and_ct_issued_together_take_max(void **state) {
    tx8_hal *hal = (tx8_hal *)*state;
    DMA_Param ld;
    CT_Param add;
    rdma(&ld, 0, SPM_A, 64 * 1024);
    ct_add(&add, SPM_B, SPM_C, SPM_D, 32 * 1024);
    const uint64_t t_ld = tx8_hal_execute(&ld), t_add = tx8_hal_execute(&add); /* alone: issue + wait */
    assert_int_equal(t_ld, hw()->ddr_latency_cycles + ceil_div(64 * 1024, hw()->ddr_bytes_per_cycle));
    const uint64_t t0 = tx8_hal_cycles();
    const tx8_token a = tx8_hal_issue(&ld, NULL, 0), b = tx8_hal_issue(&add, NULL, 0);
    assert_true(a != 0 && b != 0 && a != b);
    assert_int_equal(tx8_hal_cycles(), t0); /* issuing costs the kernel core nothing */
    tx8_hal_wait_all();
    assert_int_equal(tx8_hal_cycles() - t0, t_ld > t_add ? t_ld : t_add);
    assert_int_equal(tx8_hal_engine_cycles(hal, 0, I_RDMA), 2 * t_ld); /* alone once, overlapped once */
}

static void one_engine_runs_in_issue_order(void **state) {
    (void)state;
    DMA_Param a, b;
    rdma(&a, 0, SPM_A, 4096);
    rdma(&b, 8192, SPM_B, 12345);
    const uint64_t t_a = tx8_hal_execute(&a), t_b = tx8_hal_execute(&b);
    const uint64_t t0 = tx8_hal_cycles();
    const tx8_token ta = tx8_hal_issue(&a, NULL, 0), tb = tx8_hal_issue(&b, NULL, 0);
    assert_int_equal(tx8_hal_wait(ta) - t0, t_a); /* waiting for the first does not wait for the second */
    assert_int_equal(tx8_hal_wait(tb) - t0, t_a + t_b);
}

static void a_dependency_delays_the_start(void **state) {
    (void)state;
    DMA_Param ld;
    CT_Param add;
    rdma(&ld, 0, SPM_A, 32 * 1024);
    ct_add(&add, SPM_A, SPM_B, SPM_C, 8 * 1024); /* reads what the load writes */
    const uint64_t t_ld = tx8_hal_execute(&ld), t_add = tx8_hal_execute(&add);
    const uint64_t t0 = tx8_hal_cycles();
    const tx8_token l = tx8_hal_issue(&ld, NULL, 0);
    const tx8_token c = tx8_hal_issue(&add, &l, 1);
    tx8_hal_wait(c);
    assert_int_equal(tx8_hal_cycles() - t0, t_ld + t_add);
    assert_int_equal(tx8_test_faults()->count, 0);
}

static void a_missing_wait_is_a_fault(void **state) {
    (void)state;
    DMA_Param ld;
    CT_Param add;
    rdma(&ld, 0, SPM_A, 32 * 1024);
    ct_add(&add, SPM_A, SPM_B, SPM_C, 8 * 1024);
    tx8_hal_issue(&ld, NULL, 0);
    tx8_hal_issue(&add, NULL, 0); /* no dependency on the load: the add would read SPM_A while it is written */
    tx8_hal_wait_all();
    tx8_test_expect_fault("a wait is missing");
    tx8_test_fault_reset();
    assert_int_equal(tx8_hal_wait(99999), tx8_hal_cycles());
    tx8_test_expect_fault("token 99999 was never issued");
}

static void reads_and_writes_share_ddr(void **state) {
    (void)state;
    const uint32_t bytes = 100 * 1024;
    DMA_Param rd, wr;
    rdma(&rd, 0, SPM_A, bytes);
    wdma(&wr, 1 << 20, SPM_B, bytes);
    const uint64_t t_rd = tx8_hal_execute(&rd), t_wr = tx8_hal_execute(&wr);
    const uint64_t t0 = tx8_hal_cycles();
    tx8_hal_issue(&rd, NULL, 0);
    tx8_hal_issue(&wr, NULL, 0);
    const uint64_t both = tx8_hal_wait_all() - t0;
    printf("[ timeline ] RDMA %u B alone %llu, WDMA alone %llu, both at once %llu cycles\n", bytes,
           (unsigned long long)t_rd, (unsigned long long)t_wr, (unsigned long long)both);
    /* together they move 2 x bytes through one DDR: no faster than its bandwidth, faster than one after the other */
    assert_true(both >= hw()->ddr_latency_cycles + 2ull * bytes / hw()->ddr_bytes_per_cycle);
    assert_true(both <= hw()->ddr_latency_cycles + ceil_div(2ull * bytes, hw()->ddr_bytes_per_cycle) + 1);
    assert_true(both < t_rd + t_wr);
}

/* ---- several tiles ---- */

typedef struct stream_job {
    uint32_t tiles, bytes;
    uint64_t start, end;
} stream_job;

static void stream_tile(void *arg) {
    stream_job *j = (stream_job *)arg;
    const uint32_t t = tx8_hal_tile_id();
    if (t == 0) j->start = tx8_hal_cycles();
    DMA_Param p;
    rdma(&p, (uint64_t)t * j->bytes, SPM_A, j->bytes);
    tx8_hal_execute(&p);
    tx8_hal_barrier();
    if (t == 0) j->end = tx8_hal_cycles() - hw()->barrier_cycles;
}

static uint64_t stream(uint32_t tiles, uint32_t bytes) {
    stream_job j = {tiles, bytes, 0, 0};
    assert_int_equal(tx8_hal_run_tiles(tiles, stream_tile, &j), 0);
    return j.end - j.start;
}

static void tiles_streaming_share_ddr_bandwidth(void **state) {
    (void)state;
    const uint32_t bytes = 256 * 1024;
    for (uint32_t tiles = 1; tiles <= 16; tiles *= 2) {
        const uint64_t cycles = stream(tiles, bytes);
        const double aggregate = (double)tiles * bytes / (double)cycles;
        printf("[ timeline ] %2u tiles each reading %u B: %llu cycles, %.1f B/cycle aggregate (DDR %u)\n", tiles,
               bytes, (unsigned long long)cycles, aggregate, hw()->ddr_bytes_per_cycle);
        assert_true(cycles >= (uint64_t)tiles * bytes / hw()->ddr_bytes_per_cycle);
        assert_true(cycles <= hw()->ddr_latency_cycles + ceil_div((uint64_t)tiles * bytes, hw()->ddr_bytes_per_cycle) + tiles);
    }
}

/* NoC: tile `from` sends `bytes` from its SPM to the rectangle; all tiles then meet at a barrier. */
typedef struct noc_job {
    int nsend;
    uint32_t from[4], x0[4], y0[4], x1[4], y1[4], bytes;
    uint64_t start, end, alone[4];
} noc_job;

static void noc_tile(void *arg) {
    noc_job *j = (noc_job *)arg;
    const uint32_t t = tx8_hal_tile_id();
    if (t == 0) j->start = tx8_hal_cycles();
    for (int i = 0; i < j->nsend; ++i)
        if (j->from[i] == t) {
            DTE_Param p;
            TsmDte_copy(&p, DTE_SRC_SPM, SPM_A, SPM_B + 0x10000u * (uint32_t)i, j->bytes, 1, 0, 0, 1, 0, 0, j->x0[i],
                        j->y0[i], j->x1[i], j->y1[i]);
            j->alone[i] = tx8_hal_execute(&p); /* a tile's own view inside a run: no other tile's traffic */
        }
    tx8_hal_barrier();
    if (t == 0) j->end = tx8_hal_cycles() - hw()->barrier_cycles;
}

static uint64_t dte_alone(uint32_t hops, uint32_t bytes) {
    return hw()->dte_startup_cycles + (uint64_t)hops * hw()->noc_hop_cycles + ceil_div(bytes, hw()->noc_link_bytes_per_cycle);
}

static void noc_cycles_follow_hops_and_contention(void **state) {
    (void)state;
    const uint32_t bytes = 64 * 1024, mx = hw()->mesh_x;
    /* unicasts from tile 0 at 1, 3 and 6 hops (XY: along the row, then down the column) */
    const uint32_t dest[3][2] = {{1, 0}, {3, 0}, {3, 3}}, hops[3] = {1, 3, 6};
    for (int i = 0; i < 3; ++i) {
        noc_job j = {1, {0}, {dest[i][0]}, {dest[i][1]}, {dest[i][0]}, {dest[i][1]}, bytes, 0, 0, {0}};
        assert_int_equal(tx8_hal_run_tiles(16, noc_tile, &j), 0);
        assert_int_equal(j.alone[0], dte_alone(hops[i], bytes));
        assert_int_equal(j.end - j.start, dte_alone(hops[i], bytes));
    }
    /* tiles 0 and 1 both send to tile 3: links 1->2 and 2->3 carry both, so each gets half of them */
    noc_job shared = {2, {0, 1}, {3, 3}, {0, 0}, {3, 3}, {0, 0}, bytes, 0, 0, {0}};
    assert_int_equal(tx8_hal_run_tiles(16, noc_tile, &shared), 0);
    const uint64_t contended = shared.end - shared.start;
    printf("[ timeline ] NoC %u B: 3 hops alone %llu cycles; two senders over shared links %llu\n", bytes,
           (unsigned long long)dte_alone(3, bytes), (unsigned long long)contended);
    assert_true(contended >= hw()->dte_startup_cycles + 2ull * bytes / hw()->noc_link_bytes_per_cycle);
    assert_true(contended <= dte_alone(3, 2 * bytes) + 2);
    /* tiles 0 -> 1 and 2 -> 3 use different links: no slower than the longer alone */
    noc_job apart = {2, {0, 2}, {1, 3}, {0, 0}, {1, 3}, {0, 0}, bytes, 0, 0, {0}};
    assert_int_equal(tx8_hal_run_tiles(16, noc_tile, &apart), 0);
    assert_int_equal(apart.end - apart.start, dte_alone(1, bytes));
    /* a multicast to the whole last row crosses each link once: as fast as the unicast to its far end */
    noc_job mc = {1, {0}, {0}, {3}, {mx - 1}, {3}, bytes, 0, 0, {0}};
    assert_int_equal(tx8_hal_run_tiles(16, noc_tile, &mc), 0);
    assert_int_equal(mc.end - mc.start, dte_alone(3 + (mx - 1), bytes));
}

/* ---- determinism: the same program, host threads disturbed differently each time ---- */

typedef struct mixed_job {
    uint64_t jitter_seed;
    uint64_t start, after[2][16];
} mixed_job;

static void jitter(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    const unsigned spins = (unsigned)(*s >> 54); /* 0..1023 */
#if defined(__riscv)
    for (volatile unsigned i = 0; i < spins * 16u; ++i) {
    }
#else
    if (spins & 1) sched_yield();
    if (spins < 64) {
        struct timespec ts = {0, (long)spins * 1000};
        nanosleep(&ts, NULL);
    }
#endif
}

static void mixed_tile(void *arg) {
    mixed_job *j = (mixed_job *)arg;
    const uint32_t t = tx8_hal_tile_id();
    uint64_t s = j->jitter_seed ^ (0x9E3779B97F4A7C15ull * (t + 1));
    if (t == 0) j->start = tx8_hal_cycles();
    for (int phase = 0; phase < 2; ++phase) {
        DMA_Param ld, st;
        CT_Param add;
        DTE_Param send;
        rdma(&ld, (uint64_t)t * 65536, SPM_A, 16384 + 1024 * t);
        ct_add(&add, SPM_C, SPM_D, SPM_E, 4096 * (1 + t % 3));
        wdma(&st, (8ull << 20) + (uint64_t)t * 65536, SPM_C, 8192 + 512 * (15 - t));
        const uint32_t to = (t * 5 + 3) % 16;
        TsmDte_copy(&send, DTE_SRC_SPM, SPM_A, SPM_B + 0x4000u * (t % 4), 4096, 1, 0, 0, 1, 0, 0, to % 4, to / 4,
                    to % 4, to / 4);
        jitter(&s);
        const tx8_token l = tx8_hal_issue(&ld, NULL, 0);
        jitter(&s);
        tx8_hal_issue(&st, NULL, 0);
        const tx8_token c = tx8_hal_issue(&add, NULL, 0);
        jitter(&s);
        tx8_hal_issue(&send, &l, 1);
        tx8_hal_wait(c);
        jitter(&s);
        tx8_hal_barrier();
        j->after[phase][t] = tx8_hal_cycles();
    }
}

static void cycles_do_not_depend_on_host_timing(void **state) {
    (void)state;
    mixed_job first;
    for (int run = 0; run < 20; ++run) {
        mixed_job j;
        memset(&j, 0, sizeof j);
        j.jitter_seed = tx8_test_seed() * 31 + (uint64_t)run;
        assert_int_equal(tx8_hal_run_tiles(16, mixed_tile, &j), 0);
        assert_int_equal(tx8_test_faults()->count, 0);
        for (int p = 0; p < 2; ++p)
            for (int t = 15; t >= 0; --t) {
                assert_int_equal(j.after[p][t], j.after[p][0]); /* a barrier synchronises */
                j.after[p][t] -= j.start;                        /* each run starts where the last one ended */
            }
        if (run == 0) {
            first = j;
            printf("[ timeline ] mixed 16-tile program: barriers left %llu and %llu cycles after the start\n",
                   (unsigned long long)j.after[0][0], (unsigned long long)j.after[1][0]);
        }
        assert_memory_equal(j.after, first.after, sizeof j.after);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(dma_and_ct_issued_together_take_max, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(one_engine_runs_in_issue_order, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(a_dependency_delays_the_start, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(a_missing_wait_is_a_fault, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(reads_and_writes_share_ddr, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(tiles_streaming_share_ddr_bandwidth, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(noc_cycles_follow_hops_and_contention, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cycles_do_not_depend_on_host_timing, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Traces (cmodel/README.md "Traces"): the chip model reports an instruction once its times are exact, marks carry
 * the tile's replayed time and tag the instructions issued after them, a run reports at its barriers only, and an
 * engine's reported slices sum to its busy counter.
 */
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/cmodel.h"
#include "tx8/hal_model.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

enum { MAX_EVENTS = 64, SPM_A = 0, SPM_B = 0x40000, SPM_C = 0x80000, SPM_D = 0xC0000 };

typedef struct collected {
    cm_trace_event ev[MAX_EVENTS];
    uint32_t n, overflow;
} collected;

static collected g_seen; /* filled by the sink, from tile 0 only (outside runs, or at a run's barriers) */

static void collect(void *ctx, const cm_trace_event *ev) {
    collected *c = (collected *)ctx;
    if (c->n < MAX_EVENTS) c->ev[c->n++] = *ev;
    else c->overflow = 1;
}

static void start_trace(tx8_hal *hal) {
    memset(&g_seen, 0, sizeof g_seen);
    const cm_trace_sink sink = {collect, &g_seen};
    cm_chip_set_trace(tx8_hal_model(hal), &sink);
}

static uint32_t count(uint32_t kind) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < g_seen.n; ++i) n += g_seen.ev[i].kind == kind;
    return n;
}

static void reported_when_exact_with_tags(void **state) {
    tx8_hal *hal = (tx8_hal *)*state;
    DMA_Param ld;
    CT_Param add;
    LSU_RDMA_box(&ld, 0, SPM_A, 64 * 1024, 1, 0, 0, 1, 0, 0);
    CGRATensor_ArithOp_V_V_add(&add, SPM_B, SPM_C, SPM_D, 4096, RND_NEAREST_EVEN, Fmt_FP32);
    const uint64_t t_ld = tx8_hal_execute(&ld), t_add = tx8_hal_execute(&add);
    start_trace(hal);
    const uint64_t t0 = tx8_hal_cycles();
    tx8_hal_issue(&ld, NULL, 0);
    tx8_hal_trace_mark(7);
    tx8_hal_issue(&add, NULL, 0);
    tx8_hal_wait_all();
    cm_chip_set_trace(tx8_hal_model(hal), NULL);
    assert_int_equal(count(CM_TRACE_INSTR), 2);
    assert_int_equal(count(CM_TRACE_MARK), 1);
    for (uint32_t i = 0; i < g_seen.n; ++i) {
        const cm_trace_event *e = &g_seen.ev[i];
        if (e->kind == CM_TRACE_MARK) {
            assert_int_equal(e->tag, 7);
            assert_int_equal(e->start, t0); /* issuing costs the core nothing: the mark is at t0 */
        } else if (e->engine == I_RDMA) {
            assert_int_equal(e->tag, 0); /* issued before the mark */
            assert_int_equal(e->start, t0);
            assert_int_equal(e->end - e->start, t_ld);
            assert_int_equal(e->ready - e->start, tx8_hal_config()->ddr_latency_cycles);
            assert_int_equal(e->bytes, 64 * 1024);
        } else {
            assert_int_equal(e->engine, I_CGRA);
            assert_int_equal(e->tag, 7);
            assert_int_equal(e->op, CT_OP_ADD);
            assert_int_equal(e->dims[0], 4096);
            assert_int_equal(e->end - e->start, t_add);
        }
    }
    /* Without a sink nothing is reported and marks cost nothing. */
    g_seen.n = 0;
    tx8_hal_trace_mark(9);
    tx8_hal_execute(&add);
    assert_int_equal(g_seen.n, 0);
}

static void tile_job(void *arg) {
    (void)arg;
    const uint32_t t = tx8_hal_tile_id();
    DMA_Param ld;
    LSU_RDMA_box(&ld, (uint64_t)t * 65536, SPM_A, 32 * 1024, 1, 0, 0, 1, 0, 0);
    tx8_hal_trace_mark(t + 1);
    tx8_hal_execute(&ld);
    tx8_hal_barrier();
    tx8_hal_execute(&ld);
}

static void a_run_reports_at_its_barriers(void **state) {
    tx8_hal *hal = (tx8_hal *)*state;
    enum { TILES = 4 };
    uint64_t busy0[TILES];
    for (uint32_t t = 0; t < TILES; ++t) busy0[t] = tx8_hal_engine_cycles(hal, t, I_RDMA);
    start_trace(hal);
    assert_int_equal(tx8_hal_run_tiles(TILES, tile_job, NULL), 0);
    cm_chip_set_trace(tx8_hal_model(hal), NULL);
    assert_false(g_seen.overflow);
    /* Each instruction once (from the barriers' replays, none from the tiles' provisional ones). */
    assert_int_equal(count(CM_TRACE_INSTR), 2 * TILES);
    assert_int_equal(count(CM_TRACE_MARK), TILES);
    assert_int_equal(count(CM_TRACE_BARRIER), 2 * TILES); /* the barrier and the end of the run */
    for (uint32_t t = 0; t < TILES; ++t) {
        uint64_t sum = 0;
        for (uint32_t i = 0; i < g_seen.n; ++i) {
            const cm_trace_event *e = &g_seen.ev[i];
            if (e->tile != t) continue;
            if (e->kind == CM_TRACE_INSTR) {
                assert_int_equal(e->tag, t + 1);
                sum += e->end - e->start;
            }
            if (e->kind == CM_TRACE_BARRIER) assert_true(e->end >= e->start);
        }
        assert_int_equal(sum, tx8_hal_engine_cycles(hal, t, I_RDMA) - busy0[t]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reported_when_exact_with_tags, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(a_run_reports_at_its_barriers, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * cm_estimate (tx8/cm_estimate.h) against the chip model: random 16-tile programs (RDMA, WDMA, CT, NE, TDMA and
 * DTE instructions with random dependencies, waits and barriers) run on the chip through the HAL and replayed by
 * the estimator from their costs alone must take exactly the same cycles at every barrier and at the end.
 *
 * Every instruction of a phase owns its own SPM slot (and DDR range, and DTE landing area per sender), so no
 * dependency is needed for correctness: the random ones only shape the timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/cm_estimate.h"
#include "tx8/lsu.h"
#include "tx8/ne.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

enum { TILES = 16, PHASES = 3, ACTIONS = 12, SLOT = 0x10000, DTE_AREA = 0x200000, DTE_SLOT = 0x8000 };
enum { A_ISSUE, A_WAIT, A_WAIT_ALL };

typedef union instr {
    uint32_t type;
    DMA_Param dma;
    CT_Param ct;
    TsmNeInstr ne;
    TD_Param td;
    DTE_Param dte;
} instr;

typedef struct action {
    int kind;
    instr in;
    uint32_t ndeps;
    uint32_t deps[2]; /* indices of earlier actions of the phase (issues) */
    uint32_t wait;    /* A_WAIT: index of an earlier issue */
} action;

typedef struct program {
    action act[TILES][PHASES + 1][ACTIONS]; /* the last phase ends the run without a barrier */
    uint32_t n[TILES][PHASES + 1];
    uint64_t chip_start, chip_after[PHASES + 1];
} program;

static void make_instr(tx8_rng *r, uint32_t t, uint32_t p, uint32_t i, instr *in) {
    const uint64_t slot = (uint64_t)i * SLOT, half = SLOT / 2;
    const uint32_t bytes = (uint32_t)tx8_rng_int(r, 1, 16) * 2048;
    memset(in, 0, sizeof *in);
    switch (tx8_rng_int(r, 0, 5)) {
    case 0: LSU_RDMA_box(&in->dma, (uint64_t)t << 20, slot, bytes, 1, 0, 0, 1, 0, 0); break;
    case 1:
        LSU_WDMA_box(&in->dma, (32ull << 20) + (((uint64_t)t * (PHASES + 1) + p) << 20) + slot, slot, bytes, 1, 0, 0,
                     1, 0, 0);
        break;
    case 2:
        CGRATensor_ArithOp_V_V_add(&in->ct, slot, slot + 4, slot + half, bytes / 8, RND_NEAREST_EVEN, Fmt_FP32);
        break;
    case 3: {
        const uint32_t m = (uint32_t)tx8_rng_int(r, 1, 32), k = (uint32_t)tx8_rng_int(r, 1, 32),
                       n = (uint32_t)tx8_rng_int(r, 1, 32);
        TsmNe_gemm(&in->ne, slot, slot + 8192, 0, slot + half, m, n, k, k, n, n, Fmt_BF16, Fmt_FP32, 0, 0, 0);
        break;
    }
    case 4: {
        const uint32_t shape[4] = {bytes / 4, 1, 1, 1}, stride[4] = {4, 0, 0, 0};
        LSU_TDMA_box(&in->td, TD_OP_GATHER_SCATTER, slot, slot + half, 4, shape, stride, stride);
        break;
    }
    default: {
        const uint32_t x0 = (uint32_t)tx8_rng_int(r, 0, 3), y0 = (uint32_t)tx8_rng_int(r, 0, 3);
        const uint32_t x1 = (uint32_t)tx8_rng_int(r, (int32_t)x0, 3), y1 = (uint32_t)tx8_rng_int(r, (int32_t)y0, 3);
        const int from_ddr = tx8_rng_int(r, 0, 1);
        TsmDte_copy(&in->dte, from_ddr ? DTE_SRC_DDR : DTE_SRC_SPM, from_ddr ? (uint64_t)t << 20 : slot,
                    DTE_AREA + (uint64_t)t * DTE_SLOT, bytes > DTE_SLOT ? DTE_SLOT : bytes, 1, 0, 0, 1, 0, 0, x0, y0,
                    x1, y1);
        break;
    }
    }
}

static void make_program(program *pg, uint64_t seed) {
    tx8_rng r;
    tx8_rng_seed(&r, seed);
    for (uint32_t t = 0; t < TILES; ++t)
        for (uint32_t p = 0; p <= PHASES; ++p) {
            uint32_t issued[ACTIONS], ni = 0, n = (uint32_t)tx8_rng_int(&r, 1, ACTIONS);
            for (uint32_t i = 0; i < n; ++i) {
                action *a = &pg->act[t][p][i];
                const int32_t roll = tx8_rng_int(&r, 0, 9);
                if (ni > 0 && roll == 0) {
                    a->kind = A_WAIT, a->wait = issued[tx8_rng_int(&r, 0, (int32_t)ni - 1)];
                } else if (roll == 1) {
                    a->kind = A_WAIT_ALL;
                } else {
                    a->kind = A_ISSUE;
                    make_instr(&r, t, p, i, &a->in);
                    a->ndeps = ni ? (uint32_t)tx8_rng_int(&r, 0, 2) : 0;
                    for (uint32_t d = 0; d < a->ndeps; ++d) a->deps[d] = issued[tx8_rng_int(&r, 0, (int32_t)ni - 1)];
                    issued[ni++] = i;
                }
            }
            pg->n[t][p] = n;
        }
}

static void chip_tile(void *arg) {
    program *pg = (program *)arg;
    const uint32_t t = tx8_hal_tile_id();
    if (t == 0) pg->chip_start = tx8_hal_cycles();
    for (uint32_t p = 0; p <= PHASES; ++p) {
        tx8_token tok[ACTIONS] = {0};
        for (uint32_t i = 0; i < pg->n[t][p]; ++i) {
            const action *a = &pg->act[t][p][i];
            if (a->kind == A_WAIT) {
                tx8_hal_wait(tok[a->wait]);
            } else if (a->kind == A_WAIT_ALL) {
                tx8_hal_wait_all();
            } else {
                tx8_token deps[2];
                for (uint32_t d = 0; d < a->ndeps; ++d) deps[d] = tok[a->deps[d]];
                tok[i] = tx8_hal_issue(&a->in, deps, a->ndeps);
            }
        }
        if (p < PHASES) tx8_hal_barrier();
        if (t == 0 && p < PHASES) pg->chip_after[p] = tx8_hal_cycles() - pg->chip_start;
    }
}

static void *est_alloc(void *ctx, size_t bytes) { (void)ctx; return calloc(1, bytes); }
static void est_release(void *ctx, void *p) { (void)ctx; free(p); }

static void estimate_equals_the_chip(void **state) {
    (void)state;
    static program pg;
    for (uint64_t run = 0; run < 4; ++run) {
        memset(&pg, 0, sizeof pg);
        make_program(&pg, tx8_test_seed() * 977 + run);
        assert_int_equal(tx8_hal_run_tiles(TILES, chip_tile, &pg), 0);
        assert_int_equal(tx8_test_faults()->count, 0);
        pg.chip_after[PHASES] = tx8_hal_cycles() - pg.chip_start; /* the run's end */

        const cm_allocator alloc = {est_alloc, est_release, NULL, NULL, NULL};
        cm_error err = {CM_OK, ""};
        cm_estimate *e = cm_estimate_create(tx8_hal_config(), TILES, &alloc, &err);
        assert_non_null(e);
        for (uint32_t p = 0; p <= PHASES; ++p) {
            for (uint32_t t = 0; t < TILES; ++t) {
                cm_token tok[ACTIONS] = {0};
                for (uint32_t i = 0; i < pg.n[t][p]; ++i) {
                    const action *a = &pg.act[t][p][i];
                    cm_status s;
                    if (a->kind == A_WAIT) {
                        s = cm_estimate_wait(e, t, tok[a->wait], &err);
                    } else if (a->kind == A_WAIT_ALL) {
                        s = cm_estimate_wait(e, t, 0, &err);
                    } else {
                        cm_token deps[2];
                        for (uint32_t d = 0; d < a->ndeps; ++d) deps[d] = tok[a->deps[d]];
                        s = cm_estimate_issue(e, t, &a->in, deps, a->ndeps, &tok[i], &err);
                    }
                    if (s != CM_OK) fail_msg("estimate: %s", err.message);
                }
            }
            uint64_t at;
            if (p < PHASES) {
                assert_int_equal(cm_estimate_barrier(e, &err), CM_OK);
                at = cm_estimate_now(e);
            } else {
                assert_int_equal(cm_estimate_finish(e, &at, &err), CM_OK);
            }
            assert_int_equal(at, pg.chip_after[p]);
        }
        printf("[ estimate ] random 16-tile program %llu: barriers at %llu, %llu, %llu, end %llu cycles on both\n",
               (unsigned long long)run, (unsigned long long)pg.chip_after[0], (unsigned long long)pg.chip_after[1],
               (unsigned long long)pg.chip_after[2], (unsigned long long)pg.chip_after[PHASES]);
        cm_estimate_destroy(e);
    }
}

static void estimate_rejects_bad_requests(void **state) {
    (void)state;
    const cm_allocator alloc = {est_alloc, est_release, NULL, NULL, NULL};
    cm_error err = {CM_OK, ""};
    assert_null(cm_estimate_create(tx8_hal_config(), 17, &alloc, &err));
    assert_non_null(strstr(err.message, "17 tiles requested"));
    cm_estimate *e = cm_estimate_create(tx8_hal_config(), 2, &alloc, &err);
    assert_non_null(e);
    DTE_Param d;
    TsmDte_copy(&d, DTE_SRC_SPM, 0, 0, 64, 1, 0, 0, 1, 0, 0, 0, 0, 4, 0);
    cm_token tok;
    assert_int_equal(cm_estimate_issue(e, 0, &d, NULL, 0, &tok, &err), CM_ERR_FIELD);
    assert_non_null(strstr(err.message, "not inside the 4 x 4 mesh"));
    assert_int_equal(cm_estimate_wait(e, 1, 5, &err), CM_ERR_FIELD);
    assert_int_equal(cm_estimate_issue(e, 2, &d, NULL, 0, &tok, &err), CM_ERR_FIELD);
    cm_estimate_destroy(e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(estimate_equals_the_chip, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(estimate_rejects_bad_requests, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* LSU RDMA / WDMA engine through the HAL: 3D boxes against a host model, DDR page crossings, untouched DDR reads
 * zeros, cycles, and faults that leave the destination untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/lsu.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

typedef struct box {
    uint64_t ddr, spm;
    uint32_t run, c1, c2;
    uint64_t ds1, ds2;
    uint32_t ss1, ss2;
} box;

static uint64_t expected_cycles(const box *b) {
    const tx8_hw_config *c = tx8_hal_config();
    const uint64_t bytes = (uint64_t)b->c1 * b->c2 * ((b->run + 63) / 64 * 64);
    const uint64_t rate = c->lsu_bytes_per_cycle < c->ddr_bytes_per_cycle ? c->lsu_bytes_per_cycle
                                                                          : c->ddr_bytes_per_cycle;
    return c->ddr_latency_cycles + (bytes + rate - 1) / rate;
}

static uint64_t issue(const box *b, int read) {
    DMA_Param p;
    if (read)
        LSU_RDMA_box(&p, b->ddr, b->spm, b->run, b->c1, b->ds1, b->ss1, b->c2, b->ds2, b->ss2);
    else
        LSU_WDMA_box(&p, b->ddr, b->spm, b->run, b->c1, b->ds1, b->ss1, b->c2, b->ds2, b->ss2);
    return TsmExecute(&p);
}

static uint64_t ext(uint32_t run, uint32_t c1, uint64_t s1, uint32_t c2, uint64_t s2) {
    return (uint64_t)(c2 - 1) * s2 + (uint64_t)(c1 - 1) * s1 + run;
}

/* WDMA the box from SPM (random bytes) into DDR, check the DDR extent against a host model, then RDMA it back
 * into a cleared SPM area and check that too (gap bytes keep their previous values on both sides). */
static void round_trip(tx8_rng *r, const box *b) {
    const uint64_t de = ext(b->run, b->c1, b->ds1, b->c2, b->ds2), se = ext(b->run, b->c1, b->ss1, b->c2, b->ss2);
    uint8_t *spm = malloc(se), *ddr_before = malloc(de), *ddr_model = malloc(de), *ddr_after = malloc(de);
    for (uint64_t i = 0; i < se; ++i) spm[i] = (uint8_t)tx8_rng_next(r);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, b->spm, spm, se), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, b->ddr, ddr_before, de), 0);
    memcpy(ddr_model, ddr_before, de);
    for (uint32_t i2 = 0; i2 < b->c2; ++i2)
        for (uint32_t i1 = 0; i1 < b->c1; ++i1)
            memcpy(ddr_model + i2 * b->ds2 + i1 * b->ds1, spm + (uint64_t)i2 * b->ss2 + (uint64_t)i1 * b->ss1, b->run);
    assert_int_equal(issue(b, 0), expected_cycles(b));
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, b->ddr, ddr_after, de), 0);
    assert_memory_equal(ddr_after, ddr_model, de);

    /* back: clear SPM to a marker, RDMA, compare with the model (runs from DDR, gaps keep the marker) */
    uint8_t *marker = malloc(se), *spm_model = malloc(se), *spm_after = malloc(se);
    memset(marker, 0x5A, se);
    memcpy(spm_model, marker, se);
    for (uint32_t i2 = 0; i2 < b->c2; ++i2)
        for (uint32_t i1 = 0; i1 < b->c1; ++i1)
            memcpy(spm_model + (uint64_t)i2 * b->ss2 + (uint64_t)i1 * b->ss1, ddr_model + i2 * b->ds2 + i1 * b->ds1, b->run);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, b->spm, marker, se), 0);
    assert_int_equal(issue(b, 1), expected_cycles(b));
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, b->spm, spm_after, se), 0);
    assert_memory_equal(spm_after, spm_model, se);
    assert_int_equal(tx8_test_faults()->count, 0);
    free(spm), free(ddr_before), free(ddr_model), free(ddr_after), free(marker), free(spm_model), free(spm_after);
}

static void fixed_boxes(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 1);
    const box boxes[] = {
        {0x1000, 0x100, 37, 5, 3, 100, 1000, 40, 256},             /* 3D, gaps on both sides */
        {0x20000 - 50, 0x0, 100, 1, 1, 0, 0, 0, 0},                /* one run across a 64 KiB page edge */
        {0x3FFF0, 0x2000, 64, 4, 2, 0x10000, 0x40000, 64, 256},    /* every run straddles a page edge */
        {(1ull << 36) - 256, 0x8000, 16, 16, 1, 16, 0, 16, 0},     /* the last 256 bytes of 64 GiB DDR */
        {0x5000, 0x9000, 1, 7, 3, 3, 31, 2, 19},                   /* 1-byte runs */
    };
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; ++i) round_trip(&r, &boxes[i]);
    /* cycles by hand for the first box: 15 runs of 37 -> 15 bursts of 64 = 960 B / 200 B/cycle -> 5 */
    assert_int_equal(expected_cycles(&boxes[0]), 205);
}

static void untouched_ddr_reads_zeros(void **state) {
    (void)state;
    uint8_t buf[300];
    memset(buf, 0xFF, sizeof buf);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 0x400, buf, sizeof buf), 0);
    const box b = {40ull << 30, 0x400, 100, 3, 1, 1 << 20, 0, 100, 0};
    assert_int_equal(issue(&b, 1), expected_cycles(&b));
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x400, buf, sizeof buf), 0);
    for (int i = 0; i < 300; ++i) assert_int_equal(buf[i], 0);
}

static void random_boxes(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xD3Au);
    int n = 0;
    for (int t = 0; t < 60; ++t) {
        box b;
        b.run = (uint32_t)tx8_rng_int(&r, 1, 300);
        b.c1 = (uint32_t)tx8_rng_int(&r, 1, 12);
        b.c2 = (uint32_t)tx8_rng_int(&r, 1, 6);
        b.ss1 = b.run + (uint32_t)tx8_rng_int(&r, 0, 20);
        b.ss2 = b.ss1 * b.c1 + (uint32_t)tx8_rng_int(&r, 0, 50);
        b.ds1 = b.run + (uint64_t)tx8_rng_int(&r, 0, 70000); /* often crosses DDR pages */
        b.ds2 = b.ds1 * b.c1 + (uint64_t)tx8_rng_int(&r, 0, 1000);
        b.spm = (uint64_t)tx8_rng_int(&r, 0, 1 << 20);
        b.ddr = ((uint64_t)tx8_rng_int(&r, 0, 1 << 20) << 12) + (uint64_t)tx8_rng_int(&r, 0, 4095);
        round_trip(&r, &b);
        ++n;
    }
    printf("[ dma ] %d random RDMA/WDMA box round trips\n", n);
}

/* A bad instruction faults with `needle`, leaves `region` [addr, +64) as it was and costs no cycles. */
static void expect_rejected(const box *b, int read, const char *needle) {
    uint8_t before[64], after[64];
    const tx8_mem_region region = read ? TX8_MEM_SPM : TX8_MEM_DDR;
    const uint64_t dst = read ? b->spm : b->ddr;
    const uint64_t limit = read ? tx8_hal_config()->spm_bytes : tx8_hal_config()->ddr_bytes;
    const uint64_t at = dst + 64 <= limit ? dst : limit - 64;
    for (int i = 0; i < 64; ++i) before[i] = (uint8_t)(3 * i + 1);
    assert_int_equal(tx8_hal_mem_write(region, at, before, 64), 0);
    const uint64_t cyc = tx8_hal_cycles();
    assert_true(issue(b, read) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault(needle);
    assert_int_equal(tx8_hal_mem_read(region, at, after, 64), 0);
    assert_memory_equal(before, after, 64);
    assert_int_equal(tx8_hal_cycles(), cyc);
}

static void faults_leave_memory_alone(void **state) {
    (void)state;
    const uint64_t spm = tx8_hal_config()->spm_bytes, ddr = tx8_hal_config()->ddr_bytes;
    const box ok = {0x1000, 0x100, 16, 4, 2, 32, 256, 16, 64};
    box b;
    b = ok, b.run = 0;
    expect_rejected(&b, 1, "RDMA: size[0] = 0");
    b = ok, b.c1 = 0;
    expect_rejected(&b, 0, "WDMA: size[1] = 0");
    b = ok, b.c2 = 0;
    expect_rejected(&b, 1, "RDMA: size[2] = 0");
    b = ok, b.spm = spm - 100; /* first runs fit, the last one does not */
    expect_rejected(&b, 1, "RDMA: spm_addr = ");
    b = ok, b.ddr = ddr - 300;
    expect_rejected(&b, 0, "WDMA: ddr_addr = ");
    b = ok, b.ddr = ddr - 300;
    expect_rejected(&b, 1, "outside DDR");
    b = ok, b.ds2 = UINT64_MAX / 2 + 5; /* extent overflows */
    expect_rejected(&b, 0, "outside DDR");
    b = ok, b.ss1 = 2000000; /* 3 x 2 MB past the end of SPM */
    expect_rejected(&b, 0, "outside SPM");
    DMA_Param p;
    LSU_RDMA_box(&p, 0, 0, 4, 1, 0, 0, 1, 0, 0);
    p.ctrl.opcode = 3;
    assert_true(TsmExecute(&p) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("RDMA: opcode = 3");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_boxes, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(untouched_ddr_reads_zeros, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_boxes, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_leave_memory_alone, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

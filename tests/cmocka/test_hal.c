/* HAL (either backend): memory access, faults, files, tiles, barrier and cycle counting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/lsu.h"
#include "tx8_test.h"

static void memory_round_trip_and_faults(void **state) {
    (void)state;
    const uint8_t data[5] = {1, 2, 3, 4, 5};
    uint8_t back[5] = {0};
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 100, data, 5), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 100, back, 5), 0);
    assert_memory_equal(data, back, 5);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, 1ull << 35, data, 5), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, 1ull << 35, back, 5), 0);
    assert_memory_equal(data, back, 5);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, tx8_hal_config()->spm_bytes, back, 1), -1);
    tx8_test_expect_fault("outside SPM");
    assert_int_equal(tx8_hal_mem_read((tx8_mem_region)7, 0, back, 1), -1);
    tx8_test_expect_fault("region 7");
}

static void bad_instruction_faults_and_costs_nothing(void **state) {
    (void)state;
    uint64_t before = tx8_hal_cycles();
    uint32_t bogus[16] = {77};
    assert_true(tx8_hal_execute(bogus) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("inter_type = 77");
    assert_int_equal(tx8_hal_cycles(), before);
}

/* Files go through plain stdio: the host's file system on the cmodel, semihosting to the host under QEMU (relative
 * to QEMU's working directory). The names carry the backend so concurrent host and QEMU runs do not collide. */
static void file_io_round_trip_and_errors(void **state) {
    (void)state;
    char in_path[64], out_path[64];
    snprintf(in_path, sizeof in_path, "tx8_hal_test_%s_in.bin", tx8_test_backend());
    snprintf(out_path, sizeof out_path, "tx8_hal_test_%s_out.bin", tx8_test_backend());
    static uint8_t data[100000], back[100000];
    for (size_t i = 0; i < sizeof data; ++i) data[i] = (uint8_t)(i * 7 + 3);
    FILE *f = fopen(in_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, sizeof data, f), sizeof data);
    assert_int_equal(fclose(f), 0);

    const uint64_t at = (1ull << 36) - 200000; /* near the top of the 64 GiB DDR, across pages */
    assert_int_equal(tx8_hal_file_to_ddr(in_path, at, sizeof data), (int64_t)sizeof data);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, at, back, sizeof back), 0);
    assert_memory_equal(data, back, sizeof data);
    assert_int_equal(tx8_hal_ddr_to_file(out_path, at, sizeof data), 0);
    memset(back, 0, sizeof back);
    f = fopen(out_path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(back, 1, sizeof back, f), sizeof data);
    fclose(f);
    assert_memory_equal(data, back, sizeof data);

    assert_int_equal(tx8_hal_file_to_ddr(in_path, at, sizeof data - 1), -1); /* larger than its region */
    assert_int_equal(tx8_hal_file_to_ddr("nonexistent-dir/tx8/input.bin", 0, 16), -1);
    assert_int_equal(tx8_hal_ddr_to_file("nonexistent-dir/tx8/out.bin", 0, 16), -1);
    assert_int_equal(tx8_hal_file_to_ddr(in_path, (1ull << 36) - 10, sizeof data), -1); /* runs off DDR */
    tx8_test_expect_fault("outside DDR");
    remove(in_path);
    remove(out_path);
}

static void single_tile_identity(void **state) {
    (void)state;
    assert_int_equal(tx8_hal_tile_id(), 0);
    assert_int_equal(tx8_hal_tile_count(), 1);
    tx8_hal_barrier(); /* a one-tile barrier returns at once */
    assert_int_equal(tx8_hal_config()->tile_count, 16);
}

typedef struct worker {
    uint32_t tile, tiles;
    uint64_t spent, after_barrier;
} worker;

/* Each tile copies (tile + 1) KiB in its own SPM, so the tiles reach the barrier at different simulated times. */
static void tile_main(void *arg) {
    worker *w = &((worker *)arg)[tx8_hal_tile_id()];
    w->tile = tx8_hal_tile_id();
    w->tiles = tx8_hal_tile_count();
    w->spent = op_gatherScatter(0, 0x10000, 1024, w->tile + 1, 1024, 1024);
    tx8_hal_barrier();
    w->after_barrier = tx8_hal_cycles();
}

static void barrier_syncs_simulated_time_of_four_tiles(void **state) {
    (void)state;
    worker w[4];
    memset(w, 0, sizeof w);
    assert_int_equal(tx8_hal_run_tiles(4, tile_main, w), 0);
    for (uint32_t t = 0; t < 4; ++t) {
        assert_int_equal(w[t].tile, t);
        assert_int_equal(w[t].tiles, 4);
    }
    assert_true(w[0].spent < w[3].spent);
    /* everyone leaves at the latest arrival plus the barrier's own cost, and the run ends there */
    const uint64_t leave = w[3].spent + tx8_hal_config()->barrier_cycles;
    for (int t = 0; t < 4; ++t) assert_int_equal(w[t].after_barrier, leave);
    assert_int_equal(tx8_hal_tile_count(), 1); /* back to a one-tile program */
    assert_int_equal(tx8_hal_cycles(), leave);
}

static void nested(void *arg) {
    if (tx8_hal_tile_id() == 0) *(int *)arg = tx8_hal_run_tiles(2, nested, arg);
}

static void run_tiles_rejects_bad_counts_and_nesting(void **state) {
    (void)state;
    int rc = 0;
    assert_int_equal(tx8_hal_run_tiles(17, tile_main, NULL), -1);
    tx8_test_expect_fault("17 tiles requested, the chip has 16");
    assert_int_equal(tx8_hal_run_tiles(0, tile_main, NULL), -1);
    tx8_test_expect_fault("0 tiles requested");
    assert_int_equal(tx8_hal_run_tiles(2, nested, &rc), 0);
    assert_int_equal(rc, -1);
    tx8_test_expect_fault("called from inside a run");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(memory_round_trip_and_faults, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_instruction_faults_and_costs_nothing, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(file_io_round_trip_and_errors, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(single_tile_identity, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(barrier_syncs_simulated_time_of_four_tiles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(run_tiles_rejects_bad_counts_and_nesting, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

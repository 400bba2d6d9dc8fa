/* HAL cmodel backend: memory access, faults, tiles, barrier and cycle counting. */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

static void file_io_round_trip_and_errors(void **state) {
    (void)state;
    char in_path[] = "/tmp/tx8_hal_in_XXXXXX", out_path[] = "/tmp/tx8_hal_out_XXXXXX";
    int fd_in = mkstemp(in_path), fd_out = mkstemp(out_path);
    assert_true(fd_in >= 0 && fd_out >= 0);
    close(fd_out);
    uint8_t data[100000], back[100000];
    for (size_t i = 0; i < sizeof data; ++i) data[i] = (uint8_t)(i * 7 + 3);
    assert_int_equal(write(fd_in, data, sizeof data), (ssize_t)sizeof data);
    close(fd_in);

    const uint64_t at = (1ull << 36) - 200000; /* near the top of the 64 GiB DDR, across pages */
    assert_int_equal(tx8_hal_file_to_ddr(in_path, at, sizeof data), (int64_t)sizeof data);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, at, back, sizeof back), 0);
    assert_memory_equal(data, back, sizeof data);
    assert_int_equal(tx8_hal_ddr_to_file(out_path, at, sizeof data), 0);
    FILE *f = fopen(out_path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(back, 1, sizeof back, f), sizeof data);
    fclose(f);
    assert_memory_equal(data, back, sizeof data);

    assert_int_equal(tx8_hal_file_to_ddr(in_path, at, sizeof data - 1), -1); /* larger than its region */
    assert_int_equal(tx8_hal_file_to_ddr("/nonexistent/tx8/input.bin", 0, 16), -1);
    assert_int_equal(tx8_hal_ddr_to_file("/nonexistent/dir/out.bin", 0, 16), -1);
    assert_int_equal(tx8_hal_file_to_ddr(in_path, (1ull << 36) - 10, sizeof data), -1); /* runs off DDR */
    tx8_test_expect_fault("outside DDR");
    unlink(in_path);
    unlink(out_path);
}

static void single_tile_identity(void **state) {
    (void)state;
    assert_int_equal(tx8_hal_tile_id(), 0);
    assert_int_equal(tx8_hal_tile_count(), 1);
    tx8_hal_barrier(); /* a one-tile barrier returns at once */
    assert_int_equal(tx8_hal_config()->tile_count, 16);
}

typedef struct worker {
    tx8_hal_cmodel *hal;
    uint32_t tile;
    uint64_t spent, after_barrier;
} worker;

/* Each tile copies (tile + 1) KiB in its own SPM, so the tiles reach the barrier at different simulated times. */
static void *tile_main(void *arg) {
    worker *w = (worker *)arg;
    tx8_hal_cmodel_bind(w->hal, w->tile);
    w->spent = op_gatherScatter(0, 0x10000, 1024, w->tile + 1, 1024, 1024);
    tx8_hal_barrier();
    w->after_barrier = tx8_hal_cycles();
    return NULL;
}

static void barrier_syncs_simulated_time_of_four_tile_threads(void **state) {
    tx8_hw_config cfg = tx8_hw_config_default();
    tx8_hal_cmodel *hal = tx8_hal_cmodel_open(&cfg, 4);
    assert_non_null(hal);
    pthread_t th[4];
    worker w[4];
    for (uint32_t t = 0; t < 4; ++t) {
        w[t] = (worker){hal, t, 0, 0};
        pthread_create(&th[t], NULL, tile_main, &w[t]);
    }
    for (int t = 0; t < 4; ++t) pthread_join(th[t], NULL);
    assert_true(w[0].spent < w[3].spent);
    for (int t = 0; t < 4; ++t) assert_int_equal(w[t].after_barrier, w[3].spent); /* everyone leaves at the latest */
    tx8_hal_cmodel_close(hal);
    tx8_hal_cmodel_bind((tx8_hal_cmodel *)*state, 0); /* back to the fixture's chip */
}

static void open_rejects_more_tiles_than_the_chip_has(void **state) {
    (void)state;
    tx8_hw_config cfg = tx8_hw_config_default();
    assert_null(tx8_hal_cmodel_open(&cfg, 17));
    assert_null(tx8_hal_cmodel_open(&cfg, 0));
    tx8_hal_cmodel_bind((tx8_hal_cmodel *)*state, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(memory_round_trip_and_faults, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(bad_instruction_faults_and_costs_nothing, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(file_io_round_trip_and_errors, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(single_tile_identity, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(barrier_syncs_simulated_time_of_four_tile_threads, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(open_rejects_more_tiles_than_the_chip_has, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

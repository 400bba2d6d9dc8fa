/* cmodel memories: sparse 64 GiB DDR, SPM bounds, config validation, dispatch of bad instructions. */
#include <stdlib.h>
#include <string.h>

#include "tx8/cmodel.h"
#include "tx8_test.h"

static void *alloc_z(void *ctx, size_t n) { (void)ctx; return calloc(1, n); }
static void release(void *ctx, void *p) { (void)ctx; free(p); }
static const cm_allocator kAlloc = {alloc_z, release, NULL, NULL, NULL};

static void ddr_64gib_costs_nothing_until_touched(void **state) {
    (void)state;
    tx8_hw_config cfg = tx8_hw_config_default();
    assert_int_equal(cfg.ddr_bytes, 64ull << 30);
    cm_error err;
    cm_chip *chip = cm_chip_create(&cfg, &kAlloc, &err);
    assert_non_null(chip);
    assert_int_equal(cm_ddr_resident_bytes(chip), 0);
    uint8_t buf[16] = {1, 2, 3};
    /* last bytes of the 64 GiB space, and a write spanning a page boundary */
    assert_int_equal(cm_ddr_write(chip, cfg.ddr_bytes - 16, buf, 16, &err), CM_OK);
    assert_int_equal(cm_ddr_write(chip, (1ull << 16) - 8, buf, 16, &err), CM_OK);
    assert_int_equal(cm_ddr_resident_bytes(chip), 3ull << 16);
    uint8_t back[16];
    assert_int_equal(cm_ddr_read(chip, cfg.ddr_bytes - 16, back, 16, &err), CM_OK);
    assert_memory_equal(buf, back, 16);
    /* untouched DDR reads as zeros and allocates nothing */
    assert_int_equal(cm_ddr_read(chip, 12345ull << 20, back, 16, &err), CM_OK);
    for (int i = 0; i < 16; ++i) assert_int_equal(back[i], 0);
    assert_int_equal(cm_ddr_resident_bytes(chip), 3ull << 16);
    cm_chip_destroy(chip);
}

static void out_of_range_accesses_are_errors(void **state) {
    (void)state;
    tx8_hw_config cfg = tx8_hw_config_default();
    cm_error err;
    cm_chip *chip = cm_chip_create(&cfg, &kAlloc, &err);
    uint8_t buf[32] = {0};
    assert_int_equal(cm_ddr_write(chip, cfg.ddr_bytes - 8, buf, 16, &err), CM_ERR_ADDRESS);
    assert_non_null(strstr(err.message, "outside DDR"));
    assert_int_equal(cm_ddr_read(chip, UINT64_MAX - 4, buf, 16, &err), CM_ERR_ADDRESS); /* no wrap-around */
    assert_int_equal(cm_spm_write(chip, 0, cfg.spm_bytes - 4, buf, 8, &err), CM_ERR_ADDRESS);
    assert_non_null(strstr(err.message, "outside SPM of tile 0"));
    assert_int_equal(cm_spm_write(chip, cfg.tile_count, 0, buf, 8, &err), CM_ERR_FIELD);
    assert_non_null(strstr(err.message, "tile 16 does not exist"));
    assert_int_equal(cm_spm_write(chip, 15, cfg.spm_bytes - 8, buf, 8, &err), CM_OK); /* the very end is fine */
    cm_chip_destroy(chip);
}

static void bad_instruction_types_are_named(void **state) {
    (void)state;
    tx8_hw_config cfg = tx8_hw_config_default();
    cm_error err;
    cm_chip *chip = cm_chip_create(&cfg, &kAlloc, &err);
    uint64_t cycles = 7;
    uint32_t bogus[8] = {99};
    assert_int_equal(cm_execute(chip, 0, bogus, &cycles, &err), CM_ERR_FIELD);
    assert_non_null(strstr(err.message, "inter_type = 99"));
    assert_int_equal(cycles, 0);
    uint32_t scalar[8] = {I_SCALAR};
    assert_int_equal(cm_execute(chip, 0, scalar, &cycles, &err), CM_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "I_SCALAR"));
    assert_int_equal(cm_execute(chip, 0, NULL, &cycles, &err), CM_ERR_FIELD);
    cm_chip_destroy(chip);
}

static void invalid_configs_are_rejected(void **state) {
    (void)state;
    cm_error err;
    tx8_hw_config cfg = tx8_hw_config_default();
    cfg.spm_bytes = 1000; /* not a multiple of 256 */
    assert_null(cm_chip_create(&cfg, &kAlloc, &err));
    assert_int_equal(err.code, CM_ERR_CONFIG);
    assert_non_null(strstr(err.message, "spm_bytes"));
    cfg = tx8_hw_config_default();
    cfg.tile_count = 0;
    assert_null(cm_chip_create(&cfg, &kAlloc, &err));
    assert_non_null(strstr(err.message, "tile_count"));
    cfg = tx8_hw_config_default();
    cfg.ne_macs_per_cycle_bf16 = 0;
    assert_null(cm_chip_create(&cfg, &kAlloc, &err));
}

static void *refuse(void *ctx, size_t n) { (void)ctx; (void)n; return NULL; }

static void allocator_failure_is_reported(void **state) {
    (void)state;
    cm_error err;
    tx8_hw_config cfg = tx8_hw_config_default();
    const cm_allocator none = {refuse, release, NULL, NULL, NULL};
    assert_null(cm_chip_create(&cfg, &none, &err));
    assert_int_equal(err.code, CM_ERR_NOMEM);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ddr_64gib_costs_nothing_until_touched),
        cmocka_unit_test(out_of_range_accesses_are_errors),
        cmocka_unit_test(bad_instruction_types_are_named),
        cmocka_unit_test(invalid_configs_are_rejected),
        cmocka_unit_test(allocator_failure_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Shared helpers of the CMocka suites; see tx8_test.h. */
#include "tx8_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tx8_fault_log g_faults; /* one fixture at a time per test program */

static void record_fault(void *ctx, const char *message) {
    tx8_fault_log *log = (tx8_fault_log *)ctx;
    log->count++;
    snprintf(log->last, sizeof log->last, "%s", message);
}

#include "tx8/hal_model.h"

#if defined(TX8_HAL_RISCV)
#define BACKEND_NAME "riscv"
#else
#define BACKEND_NAME "cmodel"
#endif

int tx8_test_setup(void **state) {
    tx8_hw_config cfg = tx8_hw_config_default();
    tx8_hal *hal = tx8_hal_open(&cfg);
    if (!hal) return -1;
    tx8_test_fault_reset();
    tx8_hal_set_fault_handler(record_fault, &g_faults);
    *state = hal;
    return 0;
}

int tx8_test_teardown(void **state) {
    const cm_chip *chip = tx8_hal_model((tx8_hal *)*state);
    printf("[ digest ] memory %016llx io %016llx cycles %llu\n", (unsigned long long)cm_chip_digest(chip, 1),
           (unsigned long long)cm_chip_io_digest(chip), (unsigned long long)tx8_hal_cycles());
    tx8_hal_close((tx8_hal *)*state);
    return 0;
}

const char *tx8_test_backend(void) { return BACKEND_NAME; }

tx8_fault_log *tx8_test_faults(void) { return &g_faults; }
void tx8_test_fault_reset(void) { memset(&g_faults, 0, sizeof g_faults); }

void tx8_test_expect_fault(const char *needle) {
    if (g_faults.count != 1 || !strstr(g_faults.last, needle)) {
        print_error("expected one fault containing \"%s\"; got %d, last: \"%s\"\n", needle, g_faults.count,
                    g_faults.last);
        fail();
    }
    tx8_test_fault_reset();
}

void tx8_rng_seed(tx8_rng *r, uint64_t seed) { r->s = seed ? seed : 0x9E3779B97F4A7C15ull; }

uint64_t tx8_rng_next(tx8_rng *r) {
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

int32_t tx8_rng_int(tx8_rng *r, int32_t lo, int32_t hi) {
    return lo + (int32_t)(tx8_rng_next(r) % (uint64_t)((int64_t)hi - lo + 1));
}

double tx8_rng_uniform(tx8_rng *r, double lo, double hi) {
    return lo + (hi - lo) * ((double)(tx8_rng_next(r) >> 11) / 9007199254740992.0);
}

uint64_t tx8_test_seed(void) {
    static int printed;
    const char *env = getenv("TX8_TEST_SEED"); /* NULL on bare metal: the default seed */
    uint64_t seed = env ? strtoull(env, NULL, 0) : 20261121ull;
    if (!printed) {
        printf("[ tx8 ] random seed %llu (set TX8_TEST_SEED to change)\n", (unsigned long long)seed);
        printed = 1;
    }
    return seed;
}

void tx8_test_spm_store(uint64_t addr, Data_Format fmt, const double *vals, size_t n) {
    const uint32_t eb = tx8_format_bytes(fmt);
    uint8_t *buf = (uint8_t *)malloc(n * eb + 1);
    for (size_t i = 0; i < n; ++i) cm_store_element(buf + i * eb, fmt, vals[i], RND_NEAREST_EVEN);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, buf, n * eb), 0);
    free(buf);
}

void tx8_test_spm_load(uint64_t addr, Data_Format fmt, double *vals, size_t n) {
    const uint32_t eb = tx8_format_bytes(fmt);
    uint8_t *buf = (uint8_t *)malloc(n * eb + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, buf, n * eb), 0);
    for (size_t i = 0; i < n; ++i) vals[i] = cm_load_element(buf + i * eb, fmt);
    free(buf);
}

void tx8_test_quantize(Data_Format fmt, double *vals, size_t n) {
    for (size_t i = 0; i < n; ++i)
        vals[i] = cm_format_to_double(cm_round_to_format(vals[i], fmt, RND_NEAREST_EVEN), fmt);
}

double tx8_test_eps(Data_Format fmt) {
    switch (fmt) {
    case Fmt_FP32: return ldexp(1.0, -24);
    case Fmt_TF32: case Fmt_FP16: return ldexp(1.0, -11);
    case Fmt_BF16: return ldexp(1.0, -8);
    default: return 0.5; /* integers: half a unit */
    }
}

double tx8_test_subnormal_step(Data_Format fmt) {
    switch (fmt) {
    case Fmt_FP32: return ldexp(1.0, -149);
    case Fmt_TF32: return ldexp(1.0, -136); /* fp32's exponent range, 10 fraction bits */
    case Fmt_FP16: return ldexp(1.0, -24);
    case Fmt_BF16: return ldexp(1.0, -133);
    default: return 0.0; /* integers have none */
    }
}

void tx8_test_assert_close(const double *got, const double *want, size_t n, double rtol, double atol,
                           const char *what) {
    for (size_t i = 0; i < n; ++i) {
        double tol = atol + rtol * fabs(want[i]);
        int ok = (isnan(want[i]) && isnan(got[i])) || fabs(got[i] - want[i]) <= tol ||
                 (isinf(want[i]) && got[i] == want[i]);
        if (!ok) {
            print_error("%s: element %zu: got %.9g, want %.9g (tolerance %.3g)\n", what, i, got[i], want[i], tol);
            fail();
        }
    }
}

/*
 * Shared helpers of the CMocka suites: a HAL fixture, a fault recorder, a seeded RNG, element I/O in any format
 * and tolerance-based comparison against scalar references.
 */
#ifndef TX8_TEST_H
#define TX8_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tx8/cm_numerics.h"
#include "tx8/cmodel.h"
#include "tx8/hal.h"

/* ---- fixture: a chip with the default config, the test running as tile 0 ----
 * Use as a cmocka setup/teardown pair; *state becomes the tx8_hal (either backend).
 * Faults are recorded, not fatal. The teardown prints the test's end state as one line,
 *   [ digest ] memory <tile 0's SPM and all of DDR> io <every host read and write> cycles <tile 0's cycles>
 * which the host-vs-QEMU comparison (support/compare-digests.sh) checks line by line: `io` covers every input
 * the test case wrote and every output it read back, including those of earlier random cases. */
int tx8_test_setup(void **state);
int tx8_test_teardown(void **state);
/* Backend name: "cmodel" or "riscv" (e.g. to keep the file names of the two backends' runs apart). */
const char *tx8_test_backend(void);

typedef struct tx8_fault_log {
    int count;
    char last[320];
} tx8_fault_log;
/* The fault log of the current fixture (reset by tx8_test_fault_reset). */
tx8_fault_log *tx8_test_faults(void);
void tx8_test_fault_reset(void);
/* Asserts that exactly one fault was raised since the last reset and that its message contains `needle`. */
void tx8_test_expect_fault(const char *needle);

/* The compiler's _Float16 is an independent fp16 reference where the target has it: x86-64 gcc 12 does, riscv64
 * gcc 12 does not. Without it the fp16 checks against it are skipped; the host run makes them, and the
 * host-vs-QEMU digest comparison shows the RISC-V run produced the same bits. */
#if defined(__FLT16_MAX__)
#define HAVE_FLOAT16 1
#endif

/* ---- deterministic RNG (xorshift64*) ---- */
typedef struct tx8_rng {
    uint64_t s;
} tx8_rng;
void tx8_rng_seed(tx8_rng *r, uint64_t seed);
uint64_t tx8_rng_next(tx8_rng *r);
int32_t tx8_rng_int(tx8_rng *r, int32_t lo, int32_t hi); /* inclusive */
double tx8_rng_uniform(tx8_rng *r, double lo, double hi);
/* The suite's base seed: TX8_TEST_SEED from the environment, else a fixed default; printed once. */
uint64_t tx8_test_seed(void);

/* ---- element I/O: values are rounded to fmt (RNE) when stored; loads give exact doubles ---- */
void tx8_test_spm_store(uint64_t addr, Data_Format fmt, const double *vals, size_t n);
void tx8_test_spm_load(uint64_t addr, Data_Format fmt, double *vals, size_t n);
/* Rounds vals in place to what fmt can hold (what the device sees after a store). */
void tx8_test_quantize(Data_Format fmt, double *vals, size_t n);

/* ---- tolerances ---- */
double tx8_test_eps(Data_Format fmt); /* unit roundoff of the format: 2^-p (fp32 2^-24, fp16 2^-11, bf16 2^-8) */
/* Spacing of the format's subnormals (its smallest positive value): below the normal range a rounding error is up
 * to half of it (nearest) or all of it (directed), whatever the relative tolerance says. */
double tx8_test_subnormal_step(Data_Format fmt);
/* Asserts |got[i] - want[i]| <= atol + rtol*|want[i]| for all i; on failure prints `what`, the index and both. */
void tx8_test_assert_close(const double *got, const double *want, size_t n, double rtol, double atol,
                           const char *what);

#endif /* TX8_TEST_H */

/*
 * Helpers shared by the CT / CGRA test programs (test_ct_*.c, test_op_eltwise.c): SPM regions, random data,
 * an independent copy of the documented CT cycle formula, "destination untouched" checks.
 */
#ifndef TX8_CT_TEST_COMMON_H
#define TX8_CT_TEST_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

/* SPM byte addresses of the test operands (512 KiB apart; SPM is 3 MiB). */
#define SPM_A 0x000000u
#define SPM_B 0x080000u
#define SPM_C 0x100000u
#define SPM_D 0x180000u /* destination */
#define SPM_E 0x200000u

static const Data_Format kFloatFmts[3] = {Fmt_FP32, Fmt_FP16, Fmt_BF16};

/* Random values in [lo, hi] already rounded to fmt (what the device holds). */
static inline void ct_rand_vals(tx8_rng *r, Data_Format fmt, double *v, size_t n, double lo, double hi) {
    for (size_t i = 0; i < n; ++i) v[i] = tx8_rng_uniform(r, lo, hi);
    tx8_test_quantize(fmt, v, n);
}

/* Random element count in [1, 5000], biased toward awkward sizes around multiples of 64/128. */
static inline uint32_t ct_rand_count(tx8_rng *r) {
    switch (tx8_rng_int(r, 0, 3)) {
    case 0: return (uint32_t)tx8_rng_int(r, 1, 70);
    case 1: return (uint32_t)(tx8_rng_int(r, 1, 39) * 128 + tx8_rng_int(r, -1, 1));
    default: return (uint32_t)tx8_rng_int(r, 1, 5000);
    }
}

/* A random operand geometry for the ARITH forms, by `shape`: 0 V_V, 1 V_S, 2 V_VuV (a unit of 1..300 elements, n a
 * multiple of it), 3 V_VuV_LOOP (unit 64, n = 64 * 1..12 per pass, 1..6 passes). total: elements of src0 and dst;
 * nb: elements of src1 (total for V_V, the whole unit vector otherwise). */
typedef struct ct_geom {
    uint32_t n, unit, unit_total, total, nb;
} ct_geom;
static inline ct_geom ct_rand_geom(tx8_rng *r, int shape) {
    ct_geom g = {ct_rand_count(r), 1, 1, 0, 0};
    if (shape == 2) {
        g.unit = (uint32_t)tx8_rng_int(r, 1, 300);
        g.n = g.unit * (uint32_t)tx8_rng_int(r, 1, 5000 / (int)g.unit > 0 ? 5000 / (int)g.unit : 1);
        g.unit_total = g.unit;
    } else if (shape == 3) {
        g.unit = 64;
        g.unit_total = 64 * (uint32_t)tx8_rng_int(r, 1, 6);
        g.n = 64 * (uint32_t)tx8_rng_int(r, 1, 12);
    }
    g.total = shape == 3 ? g.n * (g.unit_total / 64) : g.n;
    g.nb = shape == 0 ? g.total : g.unit_total;
    return g;
}

/* The documented CT cycle formula (tx8/cm_cycles.h), written out here independently of cm_cycles_ct. */
static inline uint64_t ct_expected_cycles(uint64_t elems, uint32_t elem_bits, int transcendental) {
    const tx8_hw_config *c = tx8_hal_config();
    const uint64_t lanes = c->ct_datapath_bits / elem_bits;
    return c->ct_startup_cycles + (elems + lanes - 1) / lanes * (transcendental ? c->ct_transcendental_passes : 1);
}

/* Fills SPM [addr, addr + bytes) with a marker pattern; ct_assert_pattern checks it is still there. */
static inline void ct_fill_pattern(uint64_t addr, size_t bytes) {
    uint8_t *b = (uint8_t *)malloc(bytes);
    memset(b, 0xA5, bytes);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, b, bytes), 0);
    free(b);
}
static inline void ct_assert_pattern(uint64_t addr, size_t bytes) {
    uint8_t *b = (uint8_t *)malloc(bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, b, bytes), 0);
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != 0xA5) {
            print_error("destination byte %zu at 0x%llx was modified\n", i, (unsigned long long)addr);
            fail();
        }
    free(b);
}

/* Executes an instruction that must be rejected: no cycles, one fault containing `needle`, destination intact. */
static inline void ct_expect_reject(const CT_Param *p, const char *needle, uint64_t dst, size_t dst_bytes) {
    ct_fill_pattern(dst, dst_bytes);
    tx8_test_fault_reset();
    const uint64_t before = tx8_hal_cycles();
    assert_true(TsmExecute(p) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault(needle);
    assert_int_equal(tx8_hal_cycles(), before);
    ct_assert_pattern(dst, dst_bytes);
}

static inline float ct_bits_float(uint32_t b) { float f; memcpy(&f, &b, sizeof f); return f; }
static inline uint32_t ct_float_bits(float f) { uint32_t b; memcpy(&b, &f, sizeof b); return b; }

/* Raw element bits at SPM addr (n elements of fmt). */
static inline void ct_load_bits(uint64_t addr, Data_Format fmt, uint32_t *bits, size_t n) {
    const uint32_t eb = tx8_format_bytes(fmt);
    uint8_t *b = (uint8_t *)malloc(n * eb + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, b, n * eb), 0);
    for (size_t i = 0; i < n; ++i) {
        uint32_t v = 0;
        for (uint32_t k = 0; k < eb; ++k) v |= (uint32_t)b[i * eb + k] << (8 * k);
        bits[i] = v;
    }
    free(b);
}
static inline void ct_store_bits(uint64_t addr, Data_Format fmt, const uint32_t *bits, size_t n) {
    const uint32_t eb = tx8_format_bytes(fmt);
    uint8_t *b = (uint8_t *)malloc(n * eb + 1);
    for (size_t i = 0; i < n; ++i)
        for (uint32_t k = 0; k < eb; ++k) b[i * eb + k] = (uint8_t)(bits[i] >> (8 * k));
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, b, n * eb), 0);
    free(b);
}

/* ---- int64 (a storage format: CONVERT and SELECT data only) ---- */

/* Raw int64 elements at SPM addr (little endian). */
static inline void ct_store_i64(uint64_t addr, const int64_t *v, size_t n) {
    uint8_t *b = (uint8_t *)malloc(n * 8 + 1);
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 8; ++k) b[i * 8 + k] = (uint8_t)((uint64_t)v[i] >> (8 * k));
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, b, n * 8), 0);
    free(b);
}
static inline void ct_load_i64(uint64_t addr, int64_t *v, size_t n) {
    uint8_t *b = (uint8_t *)malloc(n * 8 + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, b, n * 8), 0);
    for (size_t i = 0; i < n; ++i) {
        uint64_t u = 0;
        for (int k = 7; k >= 0; --k) u = u << 8 | b[i * 8 + k];
        v[i] = (int64_t)u;
    }
    free(b);
}

/* An int64 rounded once to a float format with rnd, by integer arithmetic alone (an independent reference: no
 * double rounding, no cmodel code): the value, +-inf on overflow where the mode rounds away. */
static inline double ct_ref_i64_to_float(int64_t v, Data_Format fmt, RND_MODE rnd) {
    const int p = fmt == Fmt_FP32 ? 24 : fmt == Fmt_BF16 ? 8 : 11; /* fp16 and tf32: 11 */
    const double maxv = fmt == Fmt_FP16 ? 65504.0 : ldexp((double)((1 << p) - 1), 128 - p);
    if (v == 0) return 0.0;
    const int neg = v < 0;
    const uint64_t mag = neg ? 0 - (uint64_t)v : (uint64_t)v;
    int len = 64;
    while (!(mag >> (len - 1))) --len;
    double val;
    if (len <= p) {
        val = (double)mag;
    } else {
        const int shift = len - p;
        uint64_t q = mag >> shift;
        const uint64_t rem = mag & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        const int up = rnd == RND_NEAREST_EVEN   ? rem > half || (rem == half && (q & 1))
                       : rnd == RND_NEAREST_AWAY ? rem >= half
                       : rnd == RND_POS_INF      ? rem != 0 && !neg
                       : rnd == RND_NEG_INF      ? rem != 0 && neg
                                                 : 0;
        q += (uint64_t)up;
        val = ldexp((double)q, shift);
    }
    if (val > maxv) {
        const int to_inf = rnd == RND_NEAREST_EVEN || rnd == RND_NEAREST_AWAY || (rnd == RND_POS_INF && !neg) ||
                           (rnd == RND_NEG_INF && neg);
        val = to_inf ? INFINITY : maxv;
    }
    return neg ? -val : val;
}

/* A double (an exact element value) rounded to an integer with rnd, saturated to [lo, hi]; NaN -> 0. C's truncating
 * conversion, then the exact fraction x - trunc(x) decides the step (no libm, no cmodel code). */
static inline int64_t ct_ref_to_int(double x, RND_MODE rnd, int64_t lo, int64_t hi) {
    if (x != x) return 0;
    if (x >= ldexp(1.0, 63)) return hi;
    if (x <= -ldexp(1.0, 63)) return lo;
    int64_t v = (int64_t)x;                   /* toward zero, exact */
    const double f = x - (double)v;           /* exact: from 2^52 up x is an integer and f = 0 */
    const double af = f < 0 ? -f : f;
    const int64_t away = f < 0 ? -1 : 1;
    if ((rnd == RND_POS_INF && f > 0) || (rnd == RND_NEG_INF && f < 0) ||
        (rnd == RND_NEAREST_AWAY && af >= 0.5) || (rnd == RND_NEAREST_EVEN && (af > 0.5 || (af == 0.5 && (v & 1)))))
        v += away;
    return v > hi ? hi : v < lo ? lo : v;
}

#endif /* TX8_CT_TEST_COMMON_H */

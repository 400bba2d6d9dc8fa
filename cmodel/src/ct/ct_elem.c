/*
 * CT element I/O: blocks of elements <-> exact doubles, with fast paths for the common cases (fp32/fp16/bf16
 * loads, fp32/fp16/bf16 round-to-nearest-even stores). Every fast path gives exactly the bits of
 * cm_format_to_double / cm_round_to_format and falls back to them outside its range (subnormals, inf, NaN,
 * other rounding modes). Memory is little endian; the byte assembly below compiles to plain loads/stores.
 */
#include "numerics/cm_bits.h"
#include <string.h>

#include "ct_internal.h"
#include "tx8/cm_numerics.h"


static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* fp16 -> double: normal numbers by re-biasing the exponent; the rest through the reference decoder. */
static double fp16_to_double(uint32_t h) {
    const uint32_t e = (h >> 10) & 0x1Fu;
    if (e == 0 || e == 31) return cm_format_to_double(h, Fmt_FP16);
    return cm_bits_to_double((uint64_t)(h & 0x8000u) << 48 | (uint64_t)(e + 1008u) << 52 | (uint64_t)(h & 0x3FFu) << 42);
}

void ct_load_block(const uint8_t *src, Data_Format fmt, double *out, size_t n) {
    size_t i;
    switch (fmt) {
    case Fmt_FP32:
    case Fmt_TF32: /* tf32 bits are read as fp32 */
        for (i = 0; i < n; ++i) out[i] = (double)cm_bits_to_float(get32(src + 4 * i));
        break;
    case Fmt_BF16:
        for (i = 0; i < n; ++i) out[i] = (double)cm_bits_to_float(get16(src + 2 * i) << 16);
        break;
    case Fmt_FP16:
        for (i = 0; i < n; ++i) out[i] = fp16_to_double(get16(src + 2 * i));
        break;
    case Fmt_INT8:
        for (i = 0; i < n; ++i) out[i] = (double)(int8_t)src[i];
        break;
    case Fmt_UINT8:
        for (i = 0; i < n; ++i) out[i] = (double)src[i];
        break;
    case Fmt_INT32:
        for (i = 0; i < n; ++i) out[i] = (double)(int32_t)get32(src + 4 * i);
        break;
    default:
        for (i = 0; i < n; ++i) out[i] = 0.0; /* unreachable: formats are validated */
        break;
    }
}

/* double -> 16-bit float, round to nearest even, for results whose double exponent maps to a normal number of the
 * format (biased double exponent in [lo, hi]); the rounding carry propagates into the exponent, and a carry out of
 * the largest binade gives exactly the inf pattern. shift = 52 - stored mantissa bits, rebias = (1023 - bias). */
static uint32_t round16_rne(double x, Data_Format fmt, uint32_t lo, uint32_t hi, int shift, uint64_t rebias) {
    const uint64_t b = cm_double_to_bits(x);
    const uint32_t e = (uint32_t)(b >> 52) & 0x7FFu;
    if (e < lo || e > hi) return cm_round_to_format(x, fmt, RND_NEAREST_EVEN);
    const uint64_t mag = b & 0x7FFFFFFFFFFFFFFFull, half = 1ull << (shift - 1);
    const uint64_t rem = mag & ((1ull << shift) - 1);
    uint64_t r = mag >> shift;
    r += (uint64_t)((rem > half) | ((rem == half) & (uint32_t)(r & 1u)));
    return (uint32_t)((b >> 48) & 0x8000u) | (uint32_t)(r - (rebias << (52 - shift)));
}

void ct_store_block(uint8_t *dst, Data_Format fmt, RND_MODE rnd, const double *v, size_t n) {
    size_t i;
    if (rnd == RND_NEAREST_EVEN) {
        switch (fmt) {
        case Fmt_FP32:
            for (i = 0; i < n; ++i) put32(dst + 4 * i, v[i] != v[i] ? 0x7FC00000u : cm_float_to_bits((float)v[i]));
            return;
        case Fmt_FP16: /* normal fp16: biased exponent 1..30 <-> double 1009..1038 */
            for (i = 0; i < n; ++i) put16(dst + 2 * i, round16_rne(v[i], Fmt_FP16, 1009u, 1038u, 42, 1008u));
            return;
        case Fmt_BF16: /* normal bf16: biased exponent 1..254 <-> double 897..1150 */
            for (i = 0; i < n; ++i) put16(dst + 2 * i, round16_rne(v[i], Fmt_BF16, 897u, 1150u, 45, 896u));
            return;
        default: break;
        }
    }
    switch (tx8_format_bytes(fmt)) {
    case 1:
        for (i = 0; i < n; ++i) dst[i] = (uint8_t)cm_round_to_format(v[i], fmt, rnd);
        break;
    case 2:
        for (i = 0; i < n; ++i) put16(dst + 2 * i, cm_round_to_format(v[i], fmt, rnd));
        break;
    default:
        for (i = 0; i < n; ++i) put32(dst + 4 * i, cm_round_to_format(v[i], fmt, rnd));
        break;
    }
}

double ct_scalar_value(uint32_t scalar, Data_Format fmt) {
    return tx8_format_is_float(fmt) ? (double)cm_bits_to_float(scalar) : (double)(int32_t)scalar;
}

/*
 * Numerics of the TX8 engines: element formats, rounding, and the portable transcendental functions.
 *
 * This is the single definition of "what bits the chip produces": the cmodel engines, the compiler (constant
 * blobs in device formats) and the tests all use it. Everything is plain IEEE double/float arithmetic without
 * libm or FMA contraction (build with -ffp-contract=off), so x86 and RISC-V give identical bits.
 */
#ifndef TX8_CM_NUMERICS_H
#define TX8_CM_NUMERICS_H

#include <stdint.h>

#include "tx8/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rounds a double to the format's bit pattern (fp16/bf16 in the low 16 bits, int8 in the low 8 bits).
 * Floats: IEEE semantics with subnormals; overflow gives inf or the largest finite value as the mode dictates;
 * NaN gives the format's canonical quiet NaN. Ints: rounding by mode, then saturation; NaN gives 0.
 * Fmt_INT64 does not fit the result (0): use cm_round_to_int64. */
uint32_t cm_round_to_format(double x, Data_Format fmt, RND_MODE rnd);

/* Exact value of an element's bit pattern (tf32 bits are read as fp32); 0 for Fmt_INT64 (not 32 bits). */
double cm_format_to_double(uint32_t bits, Data_Format fmt);

/* int64 conversions, each rounded once (the CT's CONVERT to and from Fmt_INT64):
 * cm_round_to_int64: x rounded to an integer by rnd, saturated to [INT64_MIN, INT64_MAX]; NaN gives 0.
 * cm_int64_to_format: v as fmt's bit pattern (as cm_round_to_format's): int8 / int32 saturate; the float formats
 * get v rounded once, correctly, by rnd, also where |v| > 2^53 (no detour through a rounded double); 0 for int64. */
int64_t cm_round_to_int64(double x, RND_MODE rnd);
uint32_t cm_int64_to_format(int64_t v, Data_Format fmt, RND_MODE rnd);

/* Element load/store from memory (little endian, unaligned allowed). Fmt_INT64: the load gives the nearest double
 * (exact for |v| <= 2^53), the store cm_round_to_int64. */
double cm_load_element(const uint8_t *p, Data_Format fmt);
void cm_store_element(uint8_t *p, Data_Format fmt, double x, RND_MODE rnd);

/* Convenience conversions with round-to-nearest-even. */
uint16_t cm_fp32_to_fp16(float x);
uint16_t cm_fp32_to_bf16(float x);
float cm_fp16_to_fp32(uint16_t h);
float cm_bf16_to_fp32(uint16_t h);
float cm_fp32_to_tf32(float x);

/* Portable transcendentals in double (deterministic, within a few ulp of double; results are rounded to the
 * destination format afterwards, so they are well below the precision of fp32). */
double cm_exp(double x);
double cm_expm1(double x);
double cm_tanh(double x);

/* Exact operations: the correctly rounded square root (negative: NaN), and rounding to an integral value (floor,
 * ceil, and round half to even as C23 roundeven / numpy.round). NaN in gives NaN out, +-inf and +-0 stay. */
double cm_sqrt(double x);
double cm_floor(double x);
double cm_ceil(double x);
double cm_roundeven(double x);
/* C's fmod, exact (the remainder of two doubles is a double): x - trunc(x / y) * y with the sign of x (a zero
 * result too); NaN for a NaN operand, an infinite x or a zero y; x itself for an infinite y. */
double cm_fmod(double x, double y);

/* More portable functions of one double, each within one double ulp of the exact result over its whole domain (below
 * 0.8 ulp against 200-bit references in sampled hard regions; tests/cmocka/test_numerics.c prints the difference to
 * libm), deterministic to the bit, with C99 Annex F special values: NaN in gives NaN out;
 * log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf; log1p(-1) = -inf, log1p(x < -1) = NaN; asin/acos outside
 * [-1, 1] NaN; acosh(x < 1) NaN; atanh(+-1) = +-inf, atanh outside [-1, 1] NaN; sin/cos/tan(+-inf) NaN; erf(+-inf)
 * = +-1, erfc(-inf) = 2, erfc(+inf) = +0. Odd functions keep the sign of a zero argument.
 * log, log1p, pow and the hyperbolic ones go through double-double kernels (numerics/cm_dd.h) and are within about
 * half an ulp; sin/cos/tan reduce the argument by pi/2 with a 152-bit Cody-Waite split for |x| < 2^20 pi/2 and by
 * Payne-Hanek (1280 bits of 2/pi) above, so they are accurate for every finite double. */
double cm_log(double x);
double cm_log1p(double x);
double cm_sin(double x);
double cm_cos(double x);
double cm_tan(double x);
double cm_atan(double x);
double cm_asin(double x);
double cm_acos(double x);
double cm_sinh(double x);
double cm_cosh(double x);
double cm_asinh(double x);
double cm_acosh(double x);
double cm_atanh(double x);
double cm_erf(double x);
double cm_erfc(double x);

/* x^y with the special cases of C99 F.9.4.4: pow(x, +-0) = 1 and pow(1, y) = 1 for any x, y (NaN too); otherwise
 * NaN in gives NaN; a finite x < 0 with a non-integer finite y gives NaN, with an integer y the sign of x^|y|
 * (odd y: negative); pow(-1, +-inf) = 1; |x| < 1 (> 1) to +inf gives +0 (+inf), to -inf the reverse; pow(+-0, y)
 * and pow(+-inf, y) as the standard's table (the sign kept for odd integer y). Overflow gives +-inf, underflow
 * +-0 (through the subnormals). Computed as exp(y * log|x|) with log|x| and the product in double-double. */
double cm_pow(double x, double y);

#ifdef __cplusplus
}
#endif

#endif /* TX8_CM_NUMERICS_H */

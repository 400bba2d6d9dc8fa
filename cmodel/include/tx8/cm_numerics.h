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
 * NaN gives the format's canonical quiet NaN. Ints: rounding by mode, then saturation; NaN gives 0. */
uint32_t cm_round_to_format(double x, Data_Format fmt, RND_MODE rnd);

/* Exact value of an element's bit pattern (tf32 bits are read as fp32). */
double cm_format_to_double(uint32_t bits, Data_Format fmt);

/* Element load/store from memory (little endian, unaligned allowed). */
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

#ifdef __cplusplus
}
#endif

#endif /* TX8_CM_NUMERICS_H */

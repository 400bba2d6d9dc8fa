/* Bit-pattern views of float and double (memcpy: no aliasing UB, compiles to a register move). */
#ifndef TX8_CM_BITS_H
#define TX8_CM_BITS_H

#include <stdint.h>
#include <string.h>

static inline double cm_bits_to_double(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
static inline uint64_t cm_double_to_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }
static inline float cm_bits_to_float(uint32_t b) { float f; memcpy(&f, &b, sizeof f); return f; }
static inline uint32_t cm_float_to_bits(float f) { uint32_t b; memcpy(&b, &f, sizeof b); return b; }
/* 2^e for e in the normal range [-1022, 1023] */
static inline double cm_pow2(int e) { return cm_bits_to_double((uint64_t)(e + 1023) << 52); }

#endif /* TX8_CM_BITS_H */

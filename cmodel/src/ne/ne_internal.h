/*
 * What the NE instructions (ne_gemm.c, ne_conv.c) share: the blocking, how operands are read as floats, the
 * register-tile kernel whose order of additions defines the numerics, and the NaN stored for a NaN result.
 * static inline: the kernel sits in the innermost loops.
 */
#ifndef TX8_CMODEL_NE_INTERNAL_H
#define TX8_CMODEL_NE_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "cm_internal.h"
#include "numerics/cm_bits.h"
#include "tx8/cm_numerics.h"
#include "tx8/isa.h"

/* Blocking. MR x NR is the register tile; KB x NB the B panel, MB x KB the A panel (floats). */
enum { NE_MR = 4, NE_NR = 8, NE_KB = 128, NE_NB = 128, NE_MB = 64 };

static inline int ne_ranges_overlap(uint64_t a, uint64_t a_bytes, uint64_t b, uint64_t b_bytes) {
    return a < b + b_bytes && b < a + a_bytes;
}

static inline int ne_is_flag(uint32_t v) { return v == 0 || v == 1; }

static inline uint32_t ne_load_u32(const uint8_t *p) {
    uint32_t u;
    memcpy(&u, p, sizeof u);
    return u;
}

/* fp32 bits -> tf32 value, round to nearest even (carry into the exponent gives inf on overflow, as IEEE). */
static inline float ne_tf32_round(uint32_t u) {
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu)) return cm_bits_to_float(0x7FC00000u);
    u = (u + 0x0FFFu + ((u >> 13) & 1u)) & ~0x1FFFu;
    return cm_bits_to_float(u);
}

/* Reads `count` contiguous elements at p (fp32 / tf32 / bf16 / fp16) as floats into dst[0], dst[stride], … */
static inline void ne_read_floats(const uint8_t *p, Data_Format fmt, uint32_t count, float *dst, uint32_t stride) {
    switch (fmt) {
    case Fmt_FP32:
        for (uint32_t i = 0; i < count; ++i) dst[(size_t)i * stride] = cm_bits_to_float(ne_load_u32(p + 4 * i));
        break;
    case Fmt_TF32:
        for (uint32_t i = 0; i < count; ++i) dst[(size_t)i * stride] = ne_tf32_round(ne_load_u32(p + 4 * i));
        break;
    case Fmt_BF16:
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t h = (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
            dst[(size_t)i * stride] = cm_bits_to_float(h << 16);
        }
        break;
    default: /* Fmt_FP16 */
        for (uint32_t i = 0; i < count; ++i)
            dst[(size_t)i * stride] = cm_fp16_to_fp32((uint16_t)(p[2 * i] | p[2 * i + 1] << 8));
        break;
    }
}

/* c[MR][NR] += a_panel[kc][MR] x b_panel[kc][NR], k ascending for every element (no FMA: -ffp-contract=off). */
static inline void ne_micro_kernel(uint32_t kc, const float *a, const float *b, float c[NE_MR][NE_NR]) {
    float acc[NE_MR][NE_NR];
    memcpy(acc, c, sizeof acc);
    for (uint32_t p = 0; p < kc; ++p, a += NE_MR, b += NE_NR)
        for (int r = 0; r < NE_MR; ++r) {
            const float ar = a[r];
            for (int j = 0; j < NE_NR; ++j) acc[r][j] = acc[r][j] + ar * b[j];
        }
    memcpy(c, acc, sizeof acc);
}

/* The value stored for a result: hosts differ in the NaN bits they produce (x86: sign set, RISC-V: canonical),
 * so a NaN is stored as the canonical quiet NaN 0x7FC00000. */
static inline float ne_canonical(float x) { return x != x ? cm_bits_to_float(0x7FC00000u) : x; }

/* Checks the control registers every NE instruction has: in_fmt (fp32 / tf32 / bf16 / fp16 / int8), the out_fmt
 * it implies (int32 for int8, else fp32) and the accumulate / bias_en / relu_en flags. `instr` names the
 * instruction in the message. */
static inline cm_status ne_check_ctl(const Ncc_NE_GR_Ctl_Regs *c, const char *instr, cm_error *err) {
    const Data_Format in = (Data_Format)c->in_fmt;
    if (in == Fmt_INT64 || c->out_fmt == Fmt_INT64)
        return cm_fail(err, CM_ERR_UNSUPPORTED, "%s: %s = int64 is not supported: int64 is a storage format (CT "
                       "CONVERT / SELECT and the DMA engines only)", instr, in == Fmt_INT64 ? "in_fmt" : "out_fmt");
    if (c->in_fmt >= Fmt_COUNT || in == Fmt_INT32 || in == Fmt_UINT8)
        return cm_fail(err, CM_ERR_FIELD, "%s: in_fmt = %u is not one of fp32, tf32, bf16, fp16, int8", instr,
                       c->in_fmt);
    const uint32_t want_out = in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    if (c->out_fmt != want_out)
        return cm_fail(err, CM_ERR_FIELD, "%s: out_fmt = %s (%u) but in_fmt %s needs out_fmt %s", instr,
                       tx8_format_name((Data_Format)c->out_fmt), c->out_fmt, tx8_format_name(in),
                       tx8_format_name((Data_Format)want_out));
    if (!ne_is_flag(c->accumulate))
        return cm_fail(err, CM_ERR_FIELD, "%s: accumulate = %u, expected 0 or 1", instr, c->accumulate);
    if (!ne_is_flag(c->bias_en)) return cm_fail(err, CM_ERR_FIELD, "%s: bias_en = %u, expected 0 or 1", instr, c->bias_en);
    if (!ne_is_flag(c->relu_en)) return cm_fail(err, CM_ERR_FIELD, "%s: relu_en = %u, expected 0 or 1", instr, c->relu_en);
    return CM_OK;
}

#endif /* TX8_CMODEL_NE_INTERNAL_H */

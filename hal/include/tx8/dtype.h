/*
 * Element formats and rounding modes of the TX8 engines (seed names: Data_Format, Fmt_FP32, RND_NEAREST_EVEN).
 */
#ifndef TX8_DTYPE_H
#define TX8_DTYPE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum Data_Format {
    Fmt_INT8 = 0,  /* signed 8-bit integer */
    Fmt_FP16 = 1,  /* IEEE binary16 */
    Fmt_BF16 = 2,  /* bfloat16: fp32 with a 7-bit mantissa */
    Fmt_FP32 = 3,  /* IEEE binary32 */
    Fmt_TF32 = 4,  /* 1+8+10 bits, stored in a 32-bit container whose low 13 mantissa bits are zero */
    Fmt_INT32 = 5, /* signed 32-bit integer (NE int8 accumulation) */
    Fmt_INT64 = 6, /* signed 64-bit integer, a storage format: only CT CONVERT (source or destination), CT SELECT's
                      data (copied bit for bit) and the DMA / TDMA engines take it; every other engine and opcode
                      rejects it (tx8/isa.h) */
    Fmt_UINT8 = 7, /* unsigned 8-bit integer (ONNX uint8 quantized tensors): a CT integer format like int8 (values 0..255,
                      results saturate to that range); the NE does not take it */
    Fmt_COUNT
} Data_Format;

typedef enum RND_MODE {
    RND_NEAREST_EVEN = 0, /* round to nearest, ties to even (IEEE default) */
    RND_ZERO = 1,         /* toward zero (truncate) */
    RND_POS_INF = 2,      /* toward +infinity */
    RND_NEG_INF = 3,      /* toward -infinity */
    RND_NEAREST_AWAY = 4, /* round to nearest, ties away from zero */
    RND_COUNT
} RND_MODE;

/* Bytes one element occupies in memory (tf32 uses a 4-byte container, int64 8 bytes). 0 for an invalid format. */
static inline uint32_t tx8_format_bytes(Data_Format f) {
    switch (f) {
    case Fmt_INT8: case Fmt_UINT8: return 1;
    case Fmt_FP16: case Fmt_BF16: return 2;
    case Fmt_FP32: case Fmt_TF32: case Fmt_INT32: return 4;
    case Fmt_INT64: return 8;
    default: return 0;
    }
}

static inline int tx8_format_is_float(Data_Format f) {
    return f == Fmt_FP16 || f == Fmt_BF16 || f == Fmt_FP32 || f == Fmt_TF32;
}

const char *tx8_format_name(Data_Format f); /* "fp32", …; "invalid" otherwise */
const char *tx8_rnd_name(RND_MODE r);

#ifdef __cplusplus
}
#endif

#endif /* TX8_DTYPE_H */

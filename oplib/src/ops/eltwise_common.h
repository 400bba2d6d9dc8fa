/*
 * Shared by the elementwise ops (op_add, op_sub, op_mul, op_div, op_max, op_min, op_pow, op_relu, op_abs, op_neg,
 * op_exp, op_sqrt, op_reciprocal, op_sigmoid, op_tanh, op_unary): argument validation, chunked issue of one CT
 * instruction per chunk over the tensors' whole layout image, and the binary ops' broadcasting.
 */
#ifndef TX8_ELTWISE_COMMON_H
#define TX8_ELTWISE_COMMON_H

#include <stdint.h>

#include "tx8/cgra.h"
#include "tx8/ops.h"

/* Elements per CT instruction: the largest multiple of 64 a uint32 element count holds. SPM is far smaller, so in
 * practice one instruction covers a tensor (each extra instruction would cost another ct_startup_cycles). */
#define ELTWISE_MAX_ELEMS 0xFFFFFFC0u

/* Checks param and tensors t[0..count) (names for messages): non-NULL, dim 2..4, fp32/fp16/bf16 all alike, equal
 * shape_real, valid layout and rnd. On success *elems = layout total_bytes / element bytes (padding included,
 * harmless for elementwise ops) and returns 0; otherwise reports a fault naming `op` and the argument and
 * returns -1. */
int eltwise_prepare(const char *op, const ELTWISE_PARAM *param, TSR *const *t, const char *const *names, int count,
                    uint64_t *elems);

typedef void (*eltwise_unary_fn)(CT_Param *, uint64_t, uint64_t, uint32_t, RND_MODE, Data_Format);
typedef void (*eltwise_vuv_fn)(CT_Param *, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE, uint32_t src_elem_num,
                               uint32_t unit_elem_num, Data_Format);

/* A binary CT op: its V_V and V_VuV instructions. `commutative`: a broadcast left operand may be swapped to the
 * unit side; sub instead runs as -(b - a) with the rounding direction mirrored (exact: negation is); div and pow
 * cannot (a fault). */
typedef struct eltwise_binary_kind {
    const char *name;
    TsmArithVV vv;
    eltwise_vuv_fn vuv;
    int commutative, is_sub;
} eltwise_binary_kind;

/* out = a op b. Same shapes: any layout, one V_V per chunk over the layout image (eltwise_prepare). Otherwise numpy
 * broadcasting at equal dim counts (every extent of a and b is out's or 1), in a compact layout (Tensor/NTensor):
 * the dims are merged into runs that broadcast alike, and per index of the outer runs one instruction covers the
 * inner run (V_V where both are full, V_VuV with a one-element unit where one broadcasts; V_VuV with a whole-run
 * unit over two runs when the innermost is full in both and the next broadcasts one operand: a per-channel bias
 * in channel-last order is one instruction). Faults (naming k->name) on anything else. */
uint64_t eltwise_binary(const eltwise_binary_kind *k, const ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out);

/* The one chunk loop of the elementwise kernels: `fill` writes the instruction for the `n` elements that start
 * `offset` elements into the image (ctx: the kernel's operands), issued ELTWISE_MAX_ELEMS at a time; returns the
 * summed cycles or TX8_CYCLES_INVALID after the first failing instruction. */
typedef void (*eltwise_chunk_fn)(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n);
uint64_t eltwise_issue_chunks(eltwise_chunk_fn fill, const void *ctx, uint64_t elems);

/* Issues f over out = a op b, chunked by eltwise_issue_chunks. */
uint64_t eltwise_issue_binary(TsmArithVV f, const TSR *a, const TSR *b, const TSR *out, uint64_t elems, RND_MODE rnd);
/* out = in op scalar (V_S; the scalar an fp32 value), chunked the same way. */
uint64_t eltwise_issue_scalar(TsmArithVS f, const TSR *in, float scalar, const TSR *out, uint64_t elems, RND_MODE rnd);

/* A chain of V_S passes: the first from in into out, the others in place on out; stops at the first that fails. */
typedef struct eltwise_scalar_step {
    TsmArithVS f;
    float scalar;
} eltwise_scalar_step;
uint64_t eltwise_issue_scalar_chain(const eltwise_scalar_step *steps, int count, const TSR *in, const TSR *out,
                                    uint64_t elems, RND_MODE rnd);
uint64_t eltwise_issue_unary(eltwise_unary_fn f, const TSR *in, const TSR *out, uint64_t elems, RND_MODE rnd);

/* A one-instruction unary op (op_relu, op_abs, ...): eltwise_prepare of in and out, then f over the image. */
uint64_t eltwise_unary(const char *op, eltwise_unary_fn f, const ELTWISE_PARAM *param, TSR *in, TSR *out);

/* eltwise_prepare for a unary op whose param is not an ELTWISE_PARAM (its layout and rnd): 0 and *elems, or -1
 * after a fault. */
int eltwise_prepare_unary(const char *op, LAYOUT_MODE layout, RND_MODE rnd, TSR *in, TSR *out, uint64_t *elems);

#endif /* TX8_ELTWISE_COMMON_H */

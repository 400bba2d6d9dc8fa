/*
 * Shared by the elementwise ops (op_add, op_sub, op_mul, op_div, op_max, op_min, op_relu, op_abs, op_neg, op_exp,
 * op_sqrt, op_reciprocal, op_sigmoid, op_tanh): argument validation and chunked
 * issue of one CT instruction per chunk over the tensors' whole layout image.
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

/* Issues f over out = a op b (or out = f(a) when b == NULL), ELTWISE_MAX_ELEMS at a time; returns summed cycles or
 * TX8_CYCLES_INVALID after the first failing instruction. */
uint64_t eltwise_issue_binary(TsmArithVV f, const TSR *a, const TSR *b, const TSR *out, uint64_t elems, RND_MODE rnd);
uint64_t eltwise_issue_unary(eltwise_unary_fn f, const TSR *in, const TSR *out, uint64_t elems, RND_MODE rnd);

#endif /* TX8_ELTWISE_COMMON_H */

/*
 * Shared by the elementwise ops (op_add, op_sub, op_mul, op_div, op_max, op_min, op_pow, op_relu, op_abs, op_neg,
 * op_exp, op_sqrt, op_reciprocal, op_sigmoid, op_tanh, op_unary, op_compare, op_logical, op_not, op_where): the
 * chunked issue of one CT instruction per chunk over the tensors' whole layout image (or over the
 * stretches two images of different element sizes share), and the binary ops' broadcasting.
 */
#ifndef TX8_ELTWISE_COMMON_H
#define TX8_ELTWISE_COMMON_H

#include <stdint.h>

#include "tx8/cgra.h"
#include "tx8/layout.h"
#include "tx8/ops.h"

#include "../plan/check_internal.h"

/* The argument checks of these ops are their contracts (tx8/check.h, plan/check_internal.h: the format sets
 * ELTWISE_FMT ..., ELTWISE_MAX_ELEMS, the broadcast runs); every op calls its check before its first instruction and
 * faults with the reason. What is here issues the instructions of a call its check accepted. */

/* Elements of t's image in `layout` (padding included, harmless for elementwise ops): what one pass covers. The
 * caller's check has accepted t's shape in that layout. */
uint64_t eltwise_elems(LAYOUT_MODE layout, const TSR *t);

/* Two images of one shape in one layout whose formats may differ (src: ls, dst: ld), issued as the stretches of
 * elements that lie in the same order in both: the whole image when they agree element for element (the same
 * layout, compact layouts, Cx/NCx with the same channel blocks); one stretch per batch when only their batch
 * padding differs; otherwise one per (batch, hw, channel run), the runs as wide as the narrower channel block (a
 * Cx float image's 64 channels against int8's 128). fill(p, ctx, src_offset, dst_offset, n) writes the instruction
 * for n elements at those element offsets (at most ELTWISE_MAX_ELEMS); returns the summed cycles or
 * TX8_CYCLES_INVALID after the first failing instruction. */
typedef void (*eltwise_pair_fn)(CT_Param *p, const void *ctx, uint64_t src_offset, uint64_t dst_offset, uint32_t n);
uint64_t eltwise_issue_pairs(eltwise_pair_fn fill, const void *ctx, const tx8_layout *ls, const tx8_layout *ld);

typedef void (*eltwise_unary_fn)(CT_Param *, uint64_t, uint64_t, uint32_t, RND_MODE, Data_Format);
typedef void (*eltwise_vuv_fn)(CT_Param *, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE, uint32_t src_elem_num,
                               uint32_t unit_elem_num, Data_Format);

/* A binary CT op: its contract (name, commutativity, formats, compare kind: plan/check_internal.h) and its V_V and
 * V_VuV instructions. A commutative op may put a broadcast left operand on the unit side; a float sub instead runs
 * as -(b - a) with the rounding direction mirrored (exact: negation is). A compare (contract cmp != 0) issues its
 * CT_OP_CMP_* opcode instead of vv / vuv (NULL), writing out as the 1/0 mask in Fmt_INT8; a broadcast a goes to the
 * unit side with LT <-> GT and LE <-> GE mirrored. */
typedef struct eltwise_binary_kind {
    const tx8_binary_contract *contract;
    TsmArithVV vv;
    eltwise_vuv_fn vuv;
} eltwise_binary_kind;

/* out = a op b, after tx8_check_binary(k->contract) accepted the call (the caller has checked it). Same shapes: any
 * layout, one V_V per chunk over the layout image (or the stretches two images of different element sizes share).
 * Otherwise numpy broadcasting at equal dim counts in a compact layout: the dims are merged into runs that broadcast
 * alike (tx8_plan_broadcast), and per index of the outer runs one instruction covers the inner run (V_V where both
 * are full, V_VuV with a one-element unit where one broadcasts; V_VuV with a whole-run unit over two runs when the
 * innermost is full in both and the next broadcasts one operand: a per-channel bias in channel-last order is one
 * instruction). */
uint64_t eltwise_binary_issue(const eltwise_binary_kind *k, LAYOUT_MODE layout, RND_MODE rnd, const TSR *a,
                              const TSR *b, const TSR *out);

/* A binary ELTWISE_PARAM op: its check (tx8_check_add ...), then eltwise_binary_issue. */
typedef int (*eltwise_binary_check_fn)(const tx8_hw_config *, const ELTWISE_PARAM *, const TSR *, const TSR *,
                                       const TSR *, char *, size_t);
uint64_t eltwise_binary(eltwise_binary_check_fn check, const eltwise_binary_kind *k, const ELTWISE_PARAM *param,
                        TSR *a, TSR *b, TSR *out);

/* The one chunk loop of the elementwise kernels: `fill` writes the instruction for the `n` elements that start
 * `offset` elements into the image (ctx: the kernel's operands), issued ELTWISE_MAX_ELEMS at a time; returns the
 * summed cycles or TX8_CYCLES_INVALID after the first failing instruction. */
typedef void (*eltwise_chunk_fn)(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n);
uint64_t eltwise_issue_chunks(eltwise_chunk_fn fill, const void *ctx, uint64_t elems);

/* dst (format `to`) = src (format `from`) converted with rnd, elems elements of two compact images at element
 * offsets that agree (one CT convert per chunk). */
uint64_t eltwise_issue_convert(uint64_t src, Data_Format from, uint64_t dst, Data_Format to, uint64_t elems,
                               RND_MODE rnd);

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

/* A one-instruction unary ELTWISE_PARAM op (op_relu, op_abs, ...): its check (tx8_check_relu ...), then f over the
 * image. */
typedef int (*eltwise_unary_check_fn)(const tx8_hw_config *, const ELTWISE_PARAM *, const TSR *, const TSR *, char *,
                                      size_t);
uint64_t eltwise_unary(eltwise_unary_check_fn check, eltwise_unary_fn f, const ELTWISE_PARAM *param, TSR *in,
                       TSR *out);

#endif /* TX8_ELTWISE_COMMON_H */

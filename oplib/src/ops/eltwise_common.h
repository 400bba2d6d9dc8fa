/*
 * Shared by the elementwise ops (op_add, op_sub, op_mul, op_div, op_max, op_min, op_pow, op_relu, op_abs, op_neg,
 * op_exp, op_sqrt, op_reciprocal, op_sigmoid, op_tanh, op_unary, op_compare, op_logical, op_not, op_where): argument
 * validation, chunked issue of one CT instruction per chunk over the tensors' whole layout image (or over the
 * stretches two images of different element sizes share), and the binary ops' broadcasting.
 */
#ifndef TX8_ELTWISE_COMMON_H
#define TX8_ELTWISE_COMMON_H

#include <stdint.h>

#include "tx8/cgra.h"
#include "tx8/layout.h"
#include "tx8/ops.h"

/* Elements per CT instruction: the largest multiple of 64 a uint32 element count holds. SPM is far smaller, so in
 * practice one instruction covers a tensor (each extra instruction would cost another ct_startup_cycles). */
#define ELTWISE_MAX_ELEMS 0xFFFFFFC0u

/* Checks param and tensors t[0..count) (names for messages): non-NULL, dim 2..4, fp32/fp16/bf16 all alike, equal
 * shape_real, valid layout and rnd. On success *elems = layout total_bytes / element bytes (padding included,
 * harmless for elementwise ops) and returns 0; otherwise reports a fault naming `op` and the argument and
 * returns -1. count <= ELTWISE_MAX_OPERANDS. */
int eltwise_prepare(const char *op, const ELTWISE_PARAM *param, TSR *const *t, const char *const *names, int count,
                    uint64_t *elems);

/* Format sets for eltwise_prepare_formats: bit ELTWISE_FMT(f) per accepted Data_Format f (bits 0..23), and in the
 * top byte ELTWISE_SAME_AS(j): the operand's format must also equal operand j's. */
#define ELTWISE_MAX_OPERANDS 4
#define ELTWISE_FMT(f) (1u << (unsigned)(f))
#define ELTWISE_FLOATS (ELTWISE_FMT(Fmt_FP32) | ELTWISE_FMT(Fmt_FP16) | ELTWISE_FMT(Fmt_BF16))
#define ELTWISE_NUMBERS (ELTWISE_FLOATS | ELTWISE_FMT(Fmt_INT8) | ELTWISE_FMT(Fmt_INT32))
#define ELTWISE_SAME_AS(j) ((uint32_t)((j) + 1) << 24)

/* eltwise_prepare with the layout and rnd given (the caller has checked its param) and each operand's formats:
 * t[i]->format must be in formats[i] ("<op>: <name>->format = int32, must be fp32, fp16 or bf16", the set's names
 * floats first) and match the operand formats[i] names, if any; all shapes equal t[0]'s and valid in `layout` in
 * their own format. *elems: t[0]'s layout image in elements. 0, or -1 after a fault. */
int eltwise_prepare_formats(const char *op, LAYOUT_MODE layout, RND_MODE rnd, TSR *const *t,
                            const char *const *names, const uint32_t *formats, int count, uint64_t *elems);

/* Before an op whose operands' images differ (element sizes) runs several instructions, so that a fault writes
 * nothing: every t[i]'s image (l[i].total_bytes) in SPM, and the output t[count - 1] clear of every source unless
 * it is exactly that source (same address and element size: the same image). 0, or -1 after a fault. */
int eltwise_check_images(const char *op, TSR *const *t, const char *const *names, const tx8_layout *l, int count);

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

/* A binary CT op: its V_V and V_VuV instructions. `commutative`: a broadcast left operand may be swapped to the
 * unit side; a float sub instead runs as -(b - a) with the rounding direction mirrored (exact: negation is); div,
 * pow, mod and an integer sub (b - a saturates where a - b would not) cannot (a fault). `formats`: a's and b's
 * accepted formats (ELTWISE_FMT set); out's is a's. `cmp` 0, or a compare kind: its CT_OP_CMP_* opcode is issued
 * instead of vv / vuv (NULL), writing out as the 1/0 mask in Fmt_INT8; it is commutative: a broadcast a goes to the
 * unit side with LT <-> GT and LE <-> GE mirrored. */
typedef struct eltwise_binary_kind {
    const char *name;
    TsmArithVV vv;
    eltwise_vuv_fn vuv;
    int commutative, is_sub;
    uint32_t formats;
    int cmp;
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
/* The same with in's formats an ELTWISE_FMT set (out's format must be in's): op_abs, op_neg take integers too. */
uint64_t eltwise_unary_formats(const char *op, eltwise_unary_fn f, const ELTWISE_PARAM *param, uint32_t formats,
                               TSR *in, TSR *out);

/* eltwise_prepare for a unary op whose param is not an ELTWISE_PARAM (its layout and rnd): 0 and *elems, or -1
 * after a fault. */
int eltwise_prepare_unary(const char *op, LAYOUT_MODE layout, RND_MODE rnd, TSR *in, TSR *out, uint64_t *elems);

#endif /* TX8_ELTWISE_COMMON_H */

/*
 * What the kernel checks (tx8/check.h) share, and the plans that both a check and its kernel compute (library
 * tx8_oplib_plan, internal header). Every function here is pure: it reads its arguments and the config it is
 * given. A function that can fail writes its reason into why (tx8_why) and returns -1; the kernels fault with that
 * reason, so the checks and the kernels report the same text.
 */
#ifndef TX8_OPLIB_CHECK_INTERNAL_H
#define TX8_OPLIB_CHECK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tx8/check.h"
#include "tx8/isa.h"
#include "tx8/layout.h"

#include "plan.h"

/* Writes the printf-style reason into why (NUL-terminated, truncated to why_size; nothing when why is NULL or
 * why_size is 0) and returns -1. */
int tx8_why(char *why, size_t why_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Bytes of `t` stored compact (row-major): the product of its shape_real times its element size. 0 when an extent
 * is < 1 or the product overflows 64 bits (no SPM range holds either). */
uint64_t tx8_tsr_compact_bytes(const TSR *t);

/* 0 when [addr, addr + bytes) is a non-empty range of hw's SPM; otherwise the reason "<op>: <name> = 0x<addr> +
 * <bytes> bytes is outside SPM" and -1. */
int tx8_check_range_in_spm(const tx8_hw_config *hw, const char *op, const char *name, uint64_t addr, uint64_t bytes,
                           char *why, size_t why_size);

/* Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte. */
static inline int ranges_overlap(uint64_t a, uint64_t a_bytes, uint64_t b, uint64_t b_bytes) {
    return a < b + b_bytes && b < a + a_bytes;
}

/* ---- the elementwise family (ops/eltwise_common.h issues what these accept) ---- */

/* Format sets: bit ELTWISE_FMT(f) per accepted Data_Format f (bits 0..23), and in the top byte ELTWISE_SAME_AS(j):
 * the operand's format must also equal operand j's. */
#define ELTWISE_MAX_OPERANDS 4
#define ELTWISE_FMT(f) (1u << (unsigned)(f))
#define ELTWISE_FLOATS (ELTWISE_FMT(Fmt_FP32) | ELTWISE_FMT(Fmt_FP16) | ELTWISE_FMT(Fmt_BF16))
#define ELTWISE_NUMBERS (ELTWISE_FLOATS | ELTWISE_FMT(Fmt_INT8) | ELTWISE_FMT(Fmt_INT32))
#define ELTWISE_SAME_AS(j) ((uint32_t)((j) + 1) << 24)

/* Elements per CT instruction: the largest multiple of 64 a uint32 element count holds. */
#define ELTWISE_MAX_ELEMS 0xFFFFFFC0u

/* Tensors t[0..count) (names for messages): non-NULL, dim 2..4, t[i]->format in formats[i] ("<op>: <name>->format
 * = int32, must be fp32, fp16 or bf16", the set's names floats first) and equal to the operand formats[i] names,
 * if any; equal shape_real; a valid layout and rnd; every shape valid in `layout` in its own format. On success
 * *elems = t[0]'s layout image in elements (padding included) and 0. count <= ELTWISE_MAX_OPERANDS. */
int tx8_check_eltwise_formats(const tx8_hw_config *hw, const char *op, LAYOUT_MODE layout, RND_MODE rnd,
                              const TSR *const *t, const char *const *names, const uint32_t *formats, int count,
                              uint64_t *elems, char *why, size_t why_size);

/* Before an op whose operands' images differ (element sizes) runs several instructions: every t[i]'s image
 * (l[i].total_bytes) in SPM, and the output t[count - 1] clear of every source unless it is exactly that source
 * (same address and element size: the same image). */
int tx8_check_eltwise_images(const tx8_hw_config *hw, const char *op, const TSR *const *t, const char *const *names,
                             const tx8_layout *l, int count, char *why, size_t why_size);

/* A binary kernel's contract: its name, whether a broadcast left operand may go to the unit side (`commutative`;
 * a float sub may, as -(b - a): `is_sub`), a's and b's formats (an ELTWISE_FMT set; out's is a's, or int8 for a
 * compare) and `cmp`: 0, or the CT_OP_CMP_* a compare kernel issues. */
typedef struct tx8_binary_contract {
    const char *name;
    int commutative, is_sub;
    uint32_t formats;
    int cmp;
} tx8_binary_contract;

extern const tx8_binary_contract tx8_binary_add, tx8_binary_sub, tx8_binary_mul, tx8_binary_div, tx8_binary_max,
    tx8_binary_min, tx8_binary_pow, tx8_binary_mod, tx8_binary_fmod, tx8_binary_compare[6], tx8_binary_logical[3];

/* The binary ops' checks (eltwise_common.h's eltwise_binary): param, tensors, formats, shapes, the broadcast rules,
 * overlaps and SPM ranges. 0, or -1 with the reason. */
int tx8_check_binary(const tx8_hw_config *hw, const tx8_binary_contract *k, const ELTWISE_PARAM *param, const TSR *a,
                     const TSR *b, const TSR *out, char *why, size_t why_size);

/* Consecutive dims of out (extent > 1) in which a and b broadcast alike: `size` elements; the strides (elements) of
 * the run's innermost dim in a, b and out, 0 where the operand broadcasts. */
#define ELTWISE_MAX_RUNS 4
typedef struct tx8_bcast_run {
    uint64_t size, sa, sb, so;
    int fa, fb; /* a / b full (not broadcast) over the run */
} tx8_bcast_run;

/* Merges out's dims (dim <= 4, every extent of a and b out's or 1) into runs that broadcast alike, outermost
 * first; returns their count (0: out has one element). */
int tx8_plan_broadcast(const TSR *a, const TSR *b, const TSR *out, tx8_bcast_run *runs);

/* ---- pooling: the checks and the plan the pooling kernels issue (ops/pool_common.h) ---- */
#define POOL_MAX_EXTENT 65535 /* the POOL_2D geometry registers (tx8/isa.h) */

typedef struct pool_plan {
    tx8_layout in, out;       /* [N][H*W][C] and [N][OH*OW][C] in the op's layout */
    Ncc_CT_GR_Pool_Regs geom; /* the window */
} pool_plan;

/* in/out ([N][H][W][C] -> [N][OH][OW][C]: non-NULL, dim 4, fp32/fp16/bf16 alike, equal N and C, valid in `layout`,
 * inside SPM, not overlapping); fills pl->in, pl->out and geom's extents. */
int tx8_check_pool_tensors(const tx8_hw_config *hw, const char *op, LAYOUT_MODE layout, const TSR *in,
                           const TSR *out, pool_plan *pl, char *why, size_t why_size);
/* param's window against the extents in pl->geom (ranges, a dilated kernel no larger than the padded input, OH/OW
 * the floor or ceil_mode value); fills the rest of pl->geom. avg: also checks count_include_pad. */
int tx8_check_pool_window(const char *op, const POOL_PARAM *param, int avg, pool_plan *pl, char *why,
                          size_t why_size);
/* op_maxpool (avg 0) / op_avgpool (avg 1), named `op`: param, tensors, window; *pl the plan. */
int tx8_check_pool_plan(const tx8_hw_config *hw, const char *op, int avg, const POOL_PARAM *param, const TSR *in,
                        const TSR *out, pool_plan *pl, char *why, size_t why_size);
/* op_global_avgpool: param, tensors, a 1 x 1 output; *pl the plan (the window the whole image). */
int tx8_check_global_pool_plan(const tx8_hw_config *hw, const GLOBAL_POOL_PARAM *param, const TSR *in,
                               const TSR *out, pool_plan *pl, char *why, size_t why_size);

/* ---- op_softmax, op_conv, op_batchnorm_inference: the check and the plan the kernel runs on ---- */
int tx8_check_softmax_plan(const tx8_hw_config *hw, const SOFTMAX_PARAM *param, const TSR *in, const TSR *imm,
                           const TSR *out, sm_plan *pl, char *why, size_t why_size);
int tx8_check_layernorm_plan(const tx8_hw_config *hw, const LAYERNORM_PARAM *param, const TSR *in, const TSR *scale,
                             const TSR *bias, const TSR *imm, const TSR *out, ln_plan *pl, char *why,
                             size_t why_size);
int tx8_check_attention_plan(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                             const TSR *v, const TSR *mask, const TSR *imm, const TSR *out, attn_plan *pl,
                             char *why, size_t why_size);
int tx8_check_conv_dims(const tx8_hw_config *hw, const CONV_PARAM *param, const TSR *in, const TSR *weight,
                        const TSR *bias, const TSR *out, conv_dims *d, char *why, size_t why_size);
/* What op_batchnorm_inference and op_batchnorm_inference_folded share: the tensors (all present, in's dim 2..4
 * and format fp32/fp16/bf16, out like in, four fp32 1x..xC per-channel vectors); everything but the layout plan
 * and imm's size, which differ per entry point. The reasons start with "<op>: ". */
int tx8_check_bn_tensors(const char *op, const BATCHNORM_INFER_PARAM *param, const TSR *in, const TSR *scale,
                         const TSR *shift, const TSR *mean, const TSR *var, const TSR *imm, const TSR *out,
                         char *why, size_t why_size);
int tx8_check_batchnorm_inference_plan(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in,
                                       const TSR *scale, const TSR *shift, const TSR *mean, const TSR *var,
                                       const TSR *imm, const TSR *out, bn_plan *pl, char *why, size_t why_size);

/* ---- the TDMA moves ---- */
/* What op_slice and op_pad ask of their compact in/out pair before anything else: both non-NULL with a shape, dim
 * 1..6 and equal, one valid format, every extent >= 1, both inside SPM (overflow-checked sizes) and disjoint.
 * Returns the element size in bytes, or 0 with the reason. */
uint32_t tx8_check_compact_pair(const tx8_hw_config *hw, const char *op, const TSR *in, const TSR *out, char *why,
                                size_t why_size);

#endif /* TX8_OPLIB_CHECK_INTERNAL_H */

/*
 * CT engine internals shared by ct_execute.c (validation, dispatch) and the family files.
 *
 * Every family works block-wise: CT_BLOCK elements are decoded to double (one loop per source format), computed
 * (one loop per opcode) and rounded back (one loop per destination format / rounding mode). No switch runs per
 * element, and exact in-place operation (dst == src) works because a block is read completely before it is
 * written.
 */
#ifndef TX8_CT_INTERNAL_H
#define TX8_CT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cm_internal.h"

#define CT_BLOCK 256u /* elements per block; three double buffers of this size live on the stack (6 KiB) */

/* A validated instruction with its SPM operands resolved to host pointers (NULL for unused operands). */
typedef struct ct_job {
    const CT_Param *p;
    uint32_t op;        /* CT_OPCODE */
    Data_Format sf, df; /* src / dst element formats */
    RND_MODE rnd;
    uint32_t sb, db;    /* bytes per src / dst element */
    const uint8_t *src0, *src1, *src2;
    uint8_t *dst;
} ct_job;

/* Element blocks <-> double (ct_elem.c). Loads are exact; stores round once with rnd (saturating for ints). */
void ct_load_block(const uint8_t *src, Data_Format fmt, double *out, size_t n);
void ct_store_block(uint8_t *dst, Data_Format fmt, RND_MODE rnd, const double *v, size_t n);
/* The V_S scalar / LEAKY_RELU alpha as a double: fp32 bits for float formats, int32 for integer formats. */
double ct_scalar_value(uint32_t scalar, Data_Format fmt);

/* Families; each runs a job that ct_execute has fully validated (they cannot fail). */
void ct_arith_run(const ct_job *j);
void ct_fma_run(const ct_job *j); /* ARITH's CT_OP_FMA: src0 in df, src1/src2 in sf (ct_fma.c) */
void ct_unary_run(const ct_job *j);
void ct_reduce_run(const ct_job *j);
void ct_cmp_run(const ct_job *j);
void ct_select_run(const ct_job *j);
void ct_convert_run(const ct_job *j);
void ct_pool_run(const ct_job *j);

#endif /* TX8_CT_INTERNAL_H */

/*
 * op_attention: softmax(scale * q k^T + mask) v with FlashAttention's tiling (contract and numerics in tx8/ops.h,
 * imm layout in plan/plan.h). For every matrix of out and every block of Bq query rows, the keys stream in blocks
 * of Bk; only one [Bq][Bk] score block is ever held:
 *   once per call   the identity [Bk][Bk] (CT compares with NaN: 0 everywhere, 1 on the diagonal by a TDMA
 *                   scatter); causal: the tables j - i of a block (CT iota by doubling, two TDMA broadcasts, a sub)
 *   per k matrix    k^T block by block on the NE: a 1-D convolution of the block [bk][D] read with dilation D
 *                   (tap j, pixel d) against the identity gives [D][bk] (exact), converted to q's format
 *   per key block   S = q_blk k_blk^T (NE), S *= scale, S += mask (TDMA gather, convert), causal: S = -inf where
 *                   j - i > off (CT compare + select), rowmax, m' = max(m, rowmax), alpha = exp(m - m'),
 *                   S = exp(S - m') (TDMA broadcast + sub), l = l*alpha + rowsum S (fma), O *= alpha,
 *                   O += P v_blk (NE accumulating into O, P = S rounded to q's format)
 *   per query block out = O * (1 / l), rounded to out's format.
 * Causal key blocks entirely after a query block's last visible key are skipped (their P is 0).
 */
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/check_internal.h"
#include "row_common.h"
#include "issue.h"

#define F32_NAN 0x7FC00000u
#define F32_NEG_INF 0xFF800000u
#define F32_NEG_MAX 0xFF7FFFFFu /* -FLT_MAX */

static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The identity [Bk][Bk] in fmt at imm.ident. */
static uint64_t make_identity(const attn_plan *pl, uint64_t imm, Data_Format fmt) {
    const uint64_t eb = tx8_format_bytes(fmt), ident = imm + pl->ident_off, one = imm + pl->rows_off[0];
    uint64_t total = 0;
    CT_Param ct;
    /* Every comparison with NaN is false but NE, whatever the scratch held: 0 everywhere, then a 1. */
    CGRATensor_RelationOp_V_S_cmp(&ct, CT_OP_CMP_EQ, ident, F32_NAN, ident, pl->bk * pl->bk, fmt);
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_RelationOp_V_S_cmp(&ct, CT_OP_CMP_NE, one, F32_NAN, one, 1, fmt);
    ISSUE(total, TsmExecute(&ct));
    TD_Param td;
    const uint32_t shape[4] = {pl->bk, 1, 1, 1};
    const uint32_t src_stride[4] = {0, 0, 0, 0}, dst_stride[4] = {(uint32_t)((pl->bk + 1) * eb), 0, 0, 0};
    LSU_TDMA_box(&td, TD_OP_GATHER_SCATTER, one, ident, (uint32_t)eb, shape, src_stride, dst_stride);
    ISSUE(total, TsmExecute(&td));
    return total;
}

/* table[i][j] = j - i (fp32) for [Bq][w]. */
static uint64_t make_table(const attn_plan *pl, uint64_t imm, uint64_t table, uint32_t w) {
    uint64_t total = 0;
    TD_Param td;
    CT_Param ct;
    const uint64_t iota = imm + pl->iota_off, bcast = imm + pl->bcast_off;
    const uint32_t shape[4] = {w, pl->bq, 1, 1}, dst_stride[4] = {4, 4 * w, 0, 0};
    const uint32_t j_stride[4] = {4, 0, 0, 0}, i_stride[4] = {0, 4, 0, 0};
    LSU_TDMA_box(&td, TD_OP_GATHER_SCATTER, iota, table, 4, shape, j_stride, dst_stride);
    ISSUE(total, TsmExecute(&td));
    LSU_TDMA_box(&td, TD_OP_GATHER_SCATTER, iota, bcast, 4, shape, i_stride, dst_stride);
    ISSUE(total, TsmExecute(&td));
    CGRATensor_ArithOp_V_V_sub(&ct, table, bcast, table, pl->bq * w, RNE, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    return total;
}

/* Causal tables: iota, the j - i tables of a full and of the last key block, and a block of -inf. */
static uint64_t make_causal(const attn_plan *pl, uint64_t imm) {
    uint64_t total = 0;
    CT_Param ct;
    const uint64_t iota = imm + pl->iota_off, ninf = imm + pl->ninf_off;
    const uint32_t n = pl->bq > pl->bk ? pl->bq : pl->bk;
    CGRATensor_RelationOp_V_S_cmp(&ct, CT_OP_CMP_EQ, iota, F32_NAN, iota, 1, Fmt_FP32); /* iota[0] = 0 */
    ISSUE(total, TsmExecute(&ct));
    for (uint32_t len = 1; len < n; len *= 2) { /* iota[len, 2 len) = iota[0, len) + len */
        const uint32_t c = n - len < len ? n - len : len;
        CGRATensor_ArithOp_V_S_add(&ct, iota, f32_bits((float)len), iota + 4ull * len, c, RNE, Fmt_FP32);
        ISSUE(total, TsmExecute(&ct));
    }
    ISSUE(total, make_table(pl, imm, imm + pl->tab_off, pl->bk));
    if (pl->skv % pl->bk) ISSUE(total, make_table(pl, imm, imm + pl->tab_tail_off, pl->skv % pl->bk));
    const uint32_t blk = pl->bq * pl->bk;
    CGRATensor_RelationOp_V_S_cmp(&ct, CT_OP_CMP_NE, ninf, F32_NAN, ninf, blk, Fmt_FP32); /* 1 */
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_ArithOp_V_S_mul(&ct, ninf, F32_NEG_INF, ninf, blk, RNE, Fmt_FP32); /* 1 * -inf */
    ISSUE(total, TsmExecute(&ct));
    return total;
}

/* k^T of the k matrix at `k` into imm.kt, block b as [D][bk_b] compact. */
static uint64_t transpose_k(const attn_plan *pl, uint64_t imm, uint64_t k, Data_Format fmt) {
    const uint64_t eb = tx8_format_bytes(fmt);
    uint64_t total = 0;
    for (uint32_t b = 0; b < pl->nkb; ++b) {
        const uint32_t j0 = b * pl->bk, bk = pl->skv - j0 < pl->bk ? pl->skv - j0 : pl->bk;
        const uint64_t kt = imm + pl->kt_off + (uint64_t)b * pl->d * pl->bk * eb;
        const uint64_t dst = fmt == Fmt_FP32 ? kt : imm + pl->kt32_off;
        /* out[x = d][o] = sum over taps j of in[d + j*D] * I[j][o] = k[o][d]: pixel d, tap j at dilation D. */
        Ncc_NE_GR_Conv_Regs g;
        memset(&g, 0, sizeof g);
        g.batch = 1, g.in_h = 1, g.in_w = bk * pl->d, g.in_c = 1;
        g.out_h = 1, g.out_w = pl->d, g.out_c = bk, g.groups = 1;
        g.kernel_h = 1, g.kernel_w = bk, g.stride_h = 1, g.stride_w = 1, g.dilation_h = 1, g.dilation_w = pl->d;
        g.in_pitch[0] = 1, g.in_pitch[1] = g.in_w, g.in_pitch[2] = g.in_w;
        g.out_pitch[0] = bk, g.out_pitch[1] = pl->d * bk, g.out_pitch[2] = pl->d * bk;
        g.w_pitch[0] = pl->bk, g.w_pitch[1] = pl->bk;
        TsmNeInstr ne;
        TsmNe_conv(&ne, k + (uint64_t)j0 * pl->d * eb, imm + pl->ident_off, 0, dst, &g, fmt, Fmt_FP32, 0, 0, 0);
        ISSUE(total, TsmExecute(&ne));
        if (fmt != Fmt_FP32) {
            CT_Param ct;
            CGRATensor_ConvertOp_V_V_convert(&ct, dst, kt, pl->d * bk, Fmt_FP32, fmt, RNE);
            ISSUE(total, TsmExecute(&ct));
        }
    }
    return total;
}

/* Where one matrix of out reads an operand: its batch index o mapped through the operand's broadcast dims. */
static uint64_t operand_matrix(const attn_plan *pl, const int32_t *os, const int32_t *ts, uint64_t o) {
    uint64_t idx = 0, stride = 1;
    for (int32_t i = (int32_t)pl->batch_dims - 1; i >= 0; --i) {
        const uint64_t at = o % (uint64_t)os[i];
        o /= (uint64_t)os[i];
        idx += (ts[i] == 1 ? 0 : at) * stride, stride *= (uint64_t)ts[i];
    }
    return idx;
}

typedef struct attn_call {
    const attn_plan *pl;
    const ATTENTION_PARAM *param;
    Data_Format fmt, out_fmt, mask_fmt;
    uint64_t imm;
    uint64_t q, v, out;        /* this matrix's q, v and out (SPM bytes) */
    int has_mask;
    uint64_t mask;             /* this matrix's mask */
    uint32_t mq, mk;           /* mask's last two extents (1: broadcast) */
} attn_call;

/* Query rows [i0, i0 + bq) of one matrix. */
static uint64_t query_block(const attn_call *c, uint32_t i0, uint32_t bq) {
    const attn_plan *pl = c->pl;
    const uint64_t eb = tx8_format_bytes(c->fmt), imm = c->imm;
    const uint64_t s = imm + pl->s_off, p = imm + pl->p_off, bcast = imm + pl->bcast_off;
    const uint64_t acc = c->out_fmt == Fmt_FP32 ? c->out + (uint64_t)i0 * pl->dv * 4 : imm + pl->acc_off;
    uint64_t m = imm + pl->rows_off[0], mn = imm + pl->rows_off[1], alpha = imm + pl->rows_off[2];
    uint64_t rs = imm + pl->rows_off[3], l = imm + pl->rows_off[4];
    const int64_t shift = (int64_t)pl->skv - (int64_t)pl->sq; /* causal: i sees j <= i + shift */
    uint64_t total = 0;
    CT_Param ct;
    TsmNeInstr ne;
    for (uint32_t b = 0; b < pl->nkb; ++b) {
        const uint32_t j0 = b * pl->bk, bk = pl->skv - j0 < pl->bk ? pl->skv - j0 : pl->bk, n = bq * bk;
        const int first = b == 0;
        const int64_t off = (int64_t)i0 - (int64_t)j0 + shift; /* masked: j - i > off */
        if (c->param->causal && -(int64_t)(bq - 1) > off) break; /* this block and the later ones: all masked */
        /* S = q k^T */
        TsmNe_gemm(&ne, c->q + (uint64_t)i0 * pl->d * eb, imm + pl->kt_off + (uint64_t)b * pl->d * pl->bk * eb, 0, s,
                   bq, bk, pl->d, pl->d, bk, bk, c->fmt, Fmt_FP32, 0, 0, 0);
        ISSUE(total, TsmExecute(&ne));
        if (c->param->scale != 1.0f) {
            CGRATensor_ArithOp_V_S_mul(&ct, s, f32_bits(c->param->scale), s, n, RNE, Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
        }
        if (c->has_mask) {
            const uint32_t mb = tx8_format_bytes(c->mask_fmt);
            const uint64_t src = c->mask + ((c->mq == 1 ? 0 : (uint64_t)i0 * c->mk) + (c->mk == 1 ? 0 : j0)) * mb;
            const uint32_t shape[4] = {bk, bq, 1, 1};
            const uint32_t src_stride[4] = {c->mk == 1 ? 0 : mb, c->mq == 1 ? 0 : c->mk * mb, 0, 0};
            const uint32_t dst_stride[4] = {mb, bk * mb, 0, 0};
            TD_Param td;
            LSU_TDMA_box(&td, TD_OP_GATHER_SCATTER, src, imm + pl->mraw_off, mb, shape, src_stride, dst_stride);
            ISSUE(total, TsmExecute(&td));
            if (c->mask_fmt != Fmt_FP32) {
                CGRATensor_ConvertOp_V_V_convert(&ct, imm + pl->mraw_off, imm + pl->mask32_off, n, c->mask_fmt,
                                                 Fmt_FP32, RNE);
                ISSUE(total, TsmExecute(&ct));
            }
            CGRATensor_ArithOp_V_V_add(&ct, s, imm + pl->mask32_off, s, n, RNE, Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
        }
        if (c->param->causal && (int64_t)bk - 1 > off) { /* some j - i > off in this block */
            const uint64_t tab = bk == pl->bk ? imm + pl->tab_off : imm + pl->tab_tail_off;
            CGRATensor_RelationOp_V_S_cmp_to(&ct, CT_OP_CMP_GT, tab, f32_bits((float)off), imm + pl->mk_off, n,
                                             Fmt_FP32, Fmt_INT8);
            ISSUE(total, TsmExecute(&ct));
            CGRATensor_LogicOp_V_V_select_mask(&ct, imm + pl->mk_off, imm + pl->ninf_off, s, s, n, Fmt_INT8,
                                               Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
        }
        /* m' = max(m, rowmax S); alpha = exp(m - m') */
        CGRATensor_ReduceOp_T_inner_max(&ct, s, mn, bq, bk, RNE, Fmt_FP32);
        ISSUE(total, TsmExecute(&ct));
        if (c->has_mask || c->param->causal) {
            /* A row whose keys so far are all -inf keeps a finite max, so exp(S - m') is 0 there, not NaN, and a
             * later real key rescales it away (alpha = 0). */
            CGRATensor_ArithOp_V_S_max(&ct, mn, F32_NEG_MAX, mn, bq, RNE, Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
        }
        if (!first) {
            CGRATensor_ArithOp_V_V_max(&ct, m, mn, mn, bq, RNE, Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
            CGRATensor_ArithOp_V_V_sub(&ct, m, mn, alpha, bq, RNE, Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
            CGRATensor_TranscOp_V_V_exp(&ct, alpha, alpha, bq, RNE, Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
        }
        /* P = exp(S - m') */
        ISSUE(total, tx8_row_apply(bq, bk, 0, s, s, mn, bcast));
        CGRATensor_TranscOp_V_V_exp(&ct, s, s, n, RNE, Fmt_FP32);
        ISSUE(total, TsmExecute(&ct));
        /* l = l*alpha + rowsum P (the first block's sum is l) */
        CGRATensor_ReduceOp_T_inner_sum(&ct, s, first ? l : rs, bq, bk, RNE, Fmt_FP32);
        ISSUE(total, TsmExecute(&ct));
        if (!first) {
            CGRATensor_ArithOp_V_V_fma(&ct, l, alpha, rs, l, bq, RNE, Fmt_FP32, Fmt_FP32);
            ISSUE(total, TsmExecute(&ct));
            ISSUE(total, tx8_row_apply(bq, pl->dv, 1, acc, acc, alpha, bcast)); /* O *= alpha */
        }
        if (c->fmt != Fmt_FP32) {
            CGRATensor_ConvertOp_V_V_convert(&ct, s, p, n, Fmt_FP32, c->fmt, RNE);
            ISSUE(total, TsmExecute(&ct));
        }
        /* O (+)= P v_blk */
        TsmNe_gemm(&ne, p, c->v + (uint64_t)j0 * pl->dv * eb, 0, acc, bq, pl->dv, bk, bk, pl->dv, pl->dv, c->fmt,
                   Fmt_FP32, first ? 0u : 1u, 0, 0);
        ISSUE(total, TsmExecute(&ne));
        const uint64_t t = m; /* m' becomes m */
        m = mn, mn = t;
    }
    /* out = O * (1 / l) */
    CGRATensor_TranscOp_V_V_reciprocal(&ct, l, l, bq, RNE, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    ISSUE(total, tx8_row_apply(bq, pl->dv, 1, acc, acc, l, bcast));
    if (c->out_fmt != Fmt_FP32) {
        CGRATensor_ConvertOp_V_V_convert(&ct, acc, c->out + (uint64_t)i0 * pl->dv * eb, bq * pl->dv, Fmt_FP32,
                                         c->out_fmt, RNE);
        ISSUE(total, TsmExecute(&ct));
    }
    return total;
}

uint64_t op_attention(ATTENTION_PARAM *param, TSR *q, TSR *k, TSR *v, TSR *mask, TSR *imm, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    attn_plan pl;
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_attention_plan(hw, param, q, k, v, mask, imm, out, &pl, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const Data_Format fmt = q->format;
    const uint64_t eb = tx8_format_bytes(fmt), ob = tx8_format_bytes(out->format);
    const int32_t *os = out->shape->shape_real;
    attn_call c;
    memset(&c, 0, sizeof c);
    c.pl = &pl, c.param = param, c.fmt = fmt, c.out_fmt = out->format, c.imm = imm->addr;
    if (mask) {
        const int32_t d = mask->shape->dim;
        c.has_mask = 1;
        c.mask_fmt = mask->format;
        c.mq = (uint32_t)mask->shape->shape_real[d - 2], c.mk = (uint32_t)mask->shape->shape_real[d - 1];
    }
    uint64_t total = 0;
    ISSUE(total, make_identity(&pl, imm->addr, fmt));
    if (param->causal) ISSUE(total, make_causal(&pl, imm->addr));
    uint64_t kt_of = UINT64_MAX; /* the k matrix whose k^T imm holds */
    for (uint64_t o = 0; o < pl.batches; ++o) {
        const uint64_t ik = operand_matrix(&pl, os, k->shape->shape_real, o);
        if (ik != kt_of) {
            ISSUE(total, transpose_k(&pl, imm->addr, k->addr + ik * pl.skv * pl.d * eb, fmt));
            kt_of = ik;
        }
        c.q = q->addr + operand_matrix(&pl, os, q->shape->shape_real, o) * pl.sq * pl.d * eb;
        c.v = v->addr + operand_matrix(&pl, os, v->shape->shape_real, o) * pl.skv * pl.dv * eb;
        c.out = out->addr + o * pl.sq * pl.dv * ob;
        if (mask)
            c.mask = mask->addr + operand_matrix(&pl, os, mask->shape->shape_real, o) * c.mq * c.mk *
                                      tx8_format_bytes(c.mask_fmt);
        for (uint32_t i0 = 0; i0 < pl.sq; i0 += pl.bq)
            ISSUE(total, query_block(&c, i0, pl.sq - i0 < pl.bq ? pl.sq - i0 : pl.bq));
    }
    return total;
}

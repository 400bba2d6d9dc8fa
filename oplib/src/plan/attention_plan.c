/* op_attention's plan: block sizes and the layout of imm (plan.h; the steps are in ops/attention.c). */
#include <string.h>

#include "plan.h"

/* Largest blocks: a [128][128] fp32 score block is 64 KiB, and at D = 64 one block's two NE instructions
 * (q k^T and P v, 128*64*128 MACs each) outweigh their startup. */
#define ATTN_MAX_BQ 128u
#define ATTN_MAX_BK 128u

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* Appends a part of `bytes` at *end (aligned), returns its offset. */
static uint64_t part(uint64_t *end, uint64_t bytes, uint64_t align) {
    const uint64_t off = *end;
    *end = round_up(off + bytes, align);
    return off;
}

int tx8_plan_attention(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                       const TSR *v, const TSR *mask, const TSR *out, attn_plan *pl) {
    memset(pl, 0, sizeof *pl);
    const TSR *const t[5] = {q, k, v, out, mask};
    for (int i = 0; i < 5; ++i) {
        if (!t[i]) {
            if (i == 4) continue;
            return -1;
        }
        if (!t[i]->shape || t[i]->shape->dim < 2 || t[i]->shape->dim > MAX_SHAPE_DIM) return -1;
        for (int32_t j = 0; j < t[i]->shape->dim; ++j)
            if (t[i]->shape->shape_real[j] < 1) return -1;
    }
    const int32_t d = out->shape->dim;
    const int32_t *qs = q->shape->shape_real, *ks = k->shape->shape_real, *vs = v->shape->shape_real;
    const int32_t *os = out->shape->shape_real;
    pl->sq = (uint32_t)qs[q->shape->dim - 2], pl->d = (uint32_t)qs[q->shape->dim - 1];
    pl->skv = (uint32_t)ks[k->shape->dim - 2], pl->dv = (uint32_t)vs[v->shape->dim - 1];
    pl->batch_dims = (uint32_t)d - 2;
    pl->batches = 1;
    for (int32_t i = 0; i + 2 < d; ++i) pl->batches *= (uint64_t)os[i];
    /* Every element count of one instruction stays below 2^30. */
    const uint64_t lim = 1u << 30;
    if ((uint64_t)pl->sq * pl->d >= lim || (uint64_t)pl->skv * pl->d >= lim || (uint64_t)pl->skv * pl->dv >= lim ||
        (uint64_t)pl->sq * pl->dv >= lim)
        return -1;
    pl->bq = pl->sq < ATTN_MAX_BQ ? pl->sq : ATTN_MAX_BQ;
    pl->bk = pl->skv < ATTN_MAX_BK ? pl->skv : ATTN_MAX_BK;
    pl->nkb = (pl->skv + pl->bk - 1) / pl->bk;

    const Data_Format fmt = q->format;
    const int narrow = fmt != Fmt_FP32;
    const uint64_t eb = tx8_format_bytes(fmt), align = tx8_hw_batch_align_bytes(hw);
    const uint64_t bq = pl->bq, bk = pl->bk, blk = bq * bk;
    uint64_t end = 0;
    pl->kt_off = part(&end, (uint64_t)pl->nkb * pl->d * bk * eb, align);
    pl->kt32_off = narrow ? part(&end, (uint64_t)pl->d * bk * 4, align) : pl->kt_off;
    pl->ident_off = part(&end, bk * bk * eb, align);
    pl->s_off = part(&end, blk * 4, align);
    pl->p_off = narrow ? part(&end, blk * eb, align) : pl->s_off;
    if (mask) {
        pl->mraw_off = part(&end, blk * tx8_format_bytes(mask->format), align);
        pl->mask32_off = mask->format != Fmt_FP32 ? part(&end, blk * 4, align) : pl->mraw_off;
    }
    pl->bcast_off = part(&end, bq * (bk > pl->dv ? bk : pl->dv) * 4, align);
    for (int i = 0; i < 5; ++i) pl->rows_off[i] = part(&end, bq * 4, align);
    pl->acc_off = out->format != Fmt_FP32 ? part(&end, bq * pl->dv * 4, align) : 0;
    if (param && param->causal) {
        pl->tab_off = part(&end, blk * 4, align);
        pl->tab_tail_off = pl->skv % pl->bk ? part(&end, bq * (pl->skv % pl->bk) * 4, align) : pl->tab_off;
        pl->ninf_off = part(&end, blk * 4, align);
        pl->mk_off = part(&end, blk, align);
        pl->iota_off = part(&end, (bq > bk ? bq : bk) * 4, align);
    }
    pl->imm_bytes = end;
    return 0;
}

uint64_t op_attention_imm_size(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                               const TSR *v, const TSR *mask, const TSR *out) {
    attn_plan pl;
    if (!hw || !param || tx8_plan_attention(hw, param, q, k, v, mask, out, &pl) != 0) return 0;
    return pl.imm_bytes;
}

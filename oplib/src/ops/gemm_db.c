/*
 * op_gemm_db: c[M,N] (+)= a[M,K] x b[K,N] (+ bias) (relu) from DDR to DDR through a double-buffered SPM workspace
 * (tx8/ops.h; the bookkeeping and the hazards it expresses: db_common.h).
 *
 * The shard (c's box, a's rows, b's columns) is cut into output blocks of mb x nb, row-major, and K into chunks of
 * kc; a step is one (block, chunk), and op_gemm (synchronous, NE) accumulates the chunk into the block's fp32 /
 * int32 accumulator in ascending k, so the result is bit-identical to op_gemm on the whole shard.
 *
 * Workspace, in order, each piece on the batch alignment: bias (the shard's columns, fp32/int32, loaded once),
 * A[2] ([mb, kc] panels), B[2] ([kc, nb] panels), then either acc[2] ([mb, nb], stored straight from there) or,
 * when c has the input format, acc[1] + stage[2] ([mb, nb] in c's format, written by one CT convert per block).
 * The sizes: mb, nb, kc start at the shard's extents (or param's bounds); while the pieces do not fit, kc halves
 * down to 64, then the larger of mb / nb down to 8, then all three down to 1; a shard that fits as one block and
 * one chunk (K >= 128, no max_k) takes two K chunks, so that a load overlaps a product; each is then evened out.
 *
 *   load bias, the panels of step 0 (and c's block 0 when accumulating)
 *   for step s (block j, chunk k):
 *     load step s+1's A / B panel into the other buffer, unless it is the panel step s uses (then it stays: one
 *       K chunk keeps a block row's A panel for all its blocks). The other buffer's last reader, compute s-1,
 *       has returned. First step of block j+1 when accumulating: load c's block j+1 into acc[(j+1)%2] after the
 *       store of block j-1 that reads that buffer (dep: its token).
 *     wait step s's panels (RAW); first chunk: wait acc[j%2]'s last async instruction (the store of block j-2:
 *       WAR, or the load of c's block: RAW)
 *     op_gemm (accumulate after the first chunk or with param->accumulate; bias and relu on the last chunk)
 *     last chunk: convert: wait stage[j%2]'s store (block j-2, WAR), CT convert acc -> stage[j%2] (synchronous);
 *       store stage[j%2] or acc[j%2] to c's block (WDMA, async; when accumulating, after the load of c's block
 *       j+1, whose DDR bounding range the store may touch)
 *   wait the last stores
 */
#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "db_common.h"

#define OP "op_gemm_db"

typedef struct gemm_db_plan {
    uint32_t M, N, K;    /* the shard */
    uint32_t mb, nb, kc; /* block and chunk */
    uint32_t eb, ob;     /* bytes of an input / output element */
    int convert, has_bias;
} gemm_db_plan;

static uint64_t plan_bytes(const db_ws *ws, const gemm_db_plan *p, uint64_t mb, uint64_t nb, uint64_t kc) {
    uint64_t need = p->has_bias ? db_ws_size(ws, 4ull * p->N) : 0;
    need += 2 * db_ws_size(ws, mb * kc * p->eb) + 2 * db_ws_size(ws, kc * nb * p->eb);
    need += (p->convert ? 1 : 2) * db_ws_size(ws, mb * nb * 4);
    if (p->convert) need += 2 * db_ws_size(ws, mb * nb * p->ob);
    return need;
}

static int plan_blocks(const db_ws *ws, const GEMM_DB_PARAM *param, gemm_db_plan *p) {
    uint64_t mb = param->max_m ? db_min64(param->max_m, p->M) : p->M;
    uint64_t nb = param->max_n ? db_min64(param->max_n, p->N) : p->N;
    uint64_t kc = param->max_k ? db_min64(param->max_k, p->K) : p->K;
    const uint64_t room = db_ws_usable(ws);
    while (plan_bytes(ws, p, mb, nb, kc) > room) {
        if (kc > 64)
            kc = db_ceil_div(kc, 2);
        else if (mb > 8 || nb > 8) {
            if (mb >= nb) mb = db_ceil_div(mb, 2);
            else nb = db_ceil_div(nb, 2);
        } else if (kc > 1)
            kc = db_ceil_div(kc, 2);
        else if (mb > 1 || nb > 1) {
            if (mb >= nb) mb = db_ceil_div(mb, 2);
            else nb = db_ceil_div(nb, 2);
        } else {
            db_fault_workspace(OP, ws, plan_bytes(ws, p, 1, 1, 1),
                               p->convert ? "the smallest blocks (1x1, k 1: bias, 2 A and 2 B panels, "
                                            "1 accumulator, 2 output stages)"
                                          : "the smallest blocks (1x1, k 1: bias, 2 A and 2 B panels, "
                                            "2 accumulators)");
            return -1;
        }
    }
    /* one block and one chunk overlap nothing: two K chunks let the second load run under the first product */
    if (!param->max_k && mb == p->M && nb == p->N && kc == p->K && p->K >= 128) kc = db_ceil_div(p->K, 2);
    p->mb = db_balance(p->M, (uint32_t)mb), p->nb = db_balance(p->N, (uint32_t)nb);
    p->kc = db_balance(p->K, (uint32_t)kc);
    return 0;
}

static int check_args(const GEMM_DB_PARAM *param, const TSR *a, const TSR *b, const TSR *bias, const TSR *c,
                      gemm_db_plan *p) {
    if (!param) {
        tx8_hal_fault(OP ": param is NULL");
        return -1;
    }
    if (db_check_view(OP, "a", a, 2, 2) || db_check_view(OP, "b", b, 2, 2) || db_check_view(OP, "c", c, 2, 2) ||
        (bias && db_check_view(OP, "bias", bias, 1, 2)))
        return -1;
    const int32_t *as = a->shape->shape_real, *bs = b->shape->shape_real, *cs = c->shape->shape_real;
    if (as[1] != bs[0] || cs[0] != as[0] || cs[1] != bs[1]) {
        tx8_hal_fault(OP ": boxes a [%d,%d] x b [%d,%d] -> c [%d,%d] do not match", as[0], as[1], bs[0], bs[1],
                      cs[0], cs[1]);
        return -1;
    }
    p->M = (uint32_t)as[0], p->K = (uint32_t)as[1], p->N = (uint32_t)bs[1];
    const Data_Format in = a->format;
    if (in != Fmt_FP32 && in != Fmt_TF32 && in != Fmt_BF16 && in != Fmt_FP16 && in != Fmt_INT8) {
        tx8_hal_fault(OP ": a format %s is not fp32, tf32, bf16, fp16 or int8", tx8_format_name(in));
        return -1;
    }
    if (b->format != in) {
        tx8_hal_fault(OP ": b format %s differs from a format %s", tx8_format_name(b->format), tx8_format_name(in));
        return -1;
    }
    const Data_Format acc = in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    if (c->format != acc && c->format != in) {
        tx8_hal_fault(OP ": c format %s, expected %s (the accumulator) or %s (a's)", tx8_format_name(c->format),
                      tx8_format_name(acc), tx8_format_name(in));
        return -1;
    }
    p->convert = c->format != acc;
    p->eb = tx8_format_bytes(in), p->ob = tx8_format_bytes(c->format);
    p->has_bias = bias != NULL;
    if (bias) {
        const L_SHAPE *s = bias->shape;
        const int ok = s->shape_real[s->dim - 1] == (int32_t)p->N && (s->dim == 1 || s->shape_real[0] == 1);
        if (!ok) {
            tx8_hal_fault(OP ": bias box must be [%u] or [1,%u]", p->N, p->N);
            return -1;
        }
        if (bias->format != acc) {
            tx8_hal_fault(OP ": bias format %s, expected %s", tx8_format_name(bias->format), tx8_format_name(acc));
            return -1;
        }
    }
    if (param->accumulate > 1 || param->relu_en > 1) {
        tx8_hal_fault(OP ": param accumulate = %u / relu_en = %u, expected 0 or 1", param->accumulate,
                      param->relu_en);
        return -1;
    }
    if (param->accumulate && p->convert) {
        tx8_hal_fault(OP ": param accumulate needs c in the accumulator's format %s, c is %s", tx8_format_name(acc),
                      tx8_format_name(c->format));
        return -1;
    }
    if (db_check_disjoint(OP, "c", c, LAYOUT_TENSOR, "a", a, LAYOUT_TENSOR) ||
        db_check_disjoint(OP, "c", c, LAYOUT_TENSOR, "b", b, LAYOUT_TENSOR) ||
        (bias && db_check_disjoint(OP, "c", c, LAYOUT_TENSOR, "bias", bias, LAYOUT_TENSOR)))
        return -1;
    return 0;
}

static uint32_t extent(uint32_t total, uint32_t step, uint32_t i) {
    const uint32_t left = total - i * step;
    return left < step ? left : step;
}

uint64_t op_gemm_db(GEMM_DB_PARAM *param, TSR *a, TSR *b, TSR *bias, TSR *c, uint64_t spm_base, uint64_t spm_bytes) {
    gemm_db_plan p;
    if (check_args(param, a, b, bias, c, &p)) return TX8_CYCLES_INVALID;
    db_ws ws;
    if (db_ws_init(&ws, OP, spm_base, spm_bytes) || plan_blocks(&ws, param, &p)) return TX8_CYCLES_INVALID;
    const Data_Format in = a->format, acc_fmt = in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    const uint32_t nbm = (uint32_t)db_ceil_div(p.M, p.mb), nbn = (uint32_t)db_ceil_div(p.N, p.nb);
    const uint32_t nk = (uint32_t)db_ceil_div(p.K, p.kc);
    const uint64_t nsteps = (uint64_t)nbm * nbn * nk;
    const int nacc = p.convert ? 1 : 2;

    const uint64_t t_start = tx8_hal_cycles();
    db_buf biasb = {0, 0}, A[2], B[2], acc[2] = {{0, 0}, {0, 0}}, stg[2] = {{0, 0}, {0, 0}};
    if (p.has_bias) biasb.addr = db_ws_take(&ws, 4ull * p.N);
    for (int i = 0; i < 2; ++i) A[i].addr = db_ws_take(&ws, (uint64_t)p.mb * p.kc * p.eb), A[i].tok = 0;
    for (int i = 0; i < 2; ++i) B[i].addr = db_ws_take(&ws, (uint64_t)p.kc * p.nb * p.eb), B[i].tok = 0;
    for (int i = 0; i < nacc; ++i) acc[i].addr = db_ws_take(&ws, (uint64_t)p.mb * p.nb * 4);
    if (p.convert)
        for (int i = 0; i < 2; ++i) stg[i].addr = db_ws_take(&ws, (uint64_t)p.mb * p.nb * p.ob);
    LOAD_PARAM ld = {LAYOUT_TENSOR};
    STORE_PARAM st = {LAYOUT_TENSOR};
    L_SHAPE s_ddr, s_spm;
    TSR t_ddr, t_spm;
    int ok = 1;

    if (p.has_bias) {
        const int32_t bdim = bias->shape->dim;
        const int32_t off[2] = {0, 0}, real[2] = {1, (int32_t)p.N};
        db_view(&t_ddr, &s_ddr, bias, off, bdim == 1 ? real + 1 : real);
        db_tsr(&t_spm, &s_spm, acc_fmt, biasb.addr, bdim == 1 ? real + 1 : real, bdim);
        biasb.tok = op_loadVar_async(&ld, &t_ddr, &t_spm, NULL, 0);
        ok = biasb.tok != 0;
    }

    /* which buffer holds each step's panels: a_key/b_key name the panel a buffer holds (-1: none) */
    int64_t a_key[2] = {-1, -1}, b_key[2] = {-1, -1};
    int a_idx = 1, b_idx = 1; /* the buffers of the step last prepared */
    int a_cur = 0, b_cur = 0; /* ... of the step computing */
    /* Issues what step t needs (its panels, c's block when accumulating) unless already there. */
#define PREPARE(t)                                                                                                \
    do {                                                                                                          \
        const uint32_t kk_ = (uint32_t)((t) % nk), blk_ = (uint32_t)((t) / nk);                                   \
        const uint32_t bi_ = blk_ / nbn, bj_ = blk_ % nbn;                                                        \
        const int32_t mr_ = (int32_t)extent(p.M, p.mb, bi_), nr_ = (int32_t)extent(p.N, p.nb, bj_);              \
        const int32_t kr_ = (int32_t)extent(p.K, p.kc, kk_);                                                      \
        const int64_t ak_ = (int64_t)bi_ * nk + kk_, bk_ = (int64_t)kk_ * nbn + bj_;                              \
        if (a_key[a_idx] != ak_) {                                                                                \
            a_idx ^= 1;                                                                                           \
            const int32_t off_[2] = {(int32_t)(bi_ * p.mb), (int32_t)(kk_ * p.kc)}, real_[2] = {mr_, kr_};        \
            db_view(&t_ddr, &s_ddr, a, off_, real_);                                                              \
            db_tsr(&t_spm, &s_spm, in, A[a_idx].addr, real_, 2);                                                  \
            A[a_idx].tok = op_loadVar_async(&ld, &t_ddr, &t_spm, NULL, 0);                                        \
            a_key[a_idx] = ak_;                                                                                   \
            if (!A[a_idx].tok) ok = 0;                                                                            \
        }                                                                                                         \
        if (ok && b_key[b_idx] != bk_) {                                                                          \
            b_idx ^= 1;                                                                                           \
            const int32_t off_[2] = {(int32_t)(kk_ * p.kc), (int32_t)(bj_ * p.nb)}, real_[2] = {kr_, nr_};        \
            db_view(&t_ddr, &s_ddr, b, off_, real_);                                                              \
            db_tsr(&t_spm, &s_spm, in, B[b_idx].addr, real_, 2);                                                  \
            B[b_idx].tok = op_loadVar_async(&ld, &t_ddr, &t_spm, NULL, 0);                                        \
            b_key[b_idx] = bk_;                                                                                   \
            if (!B[b_idx].tok) ok = 0;                                                                            \
        }                                                                                                         \
        if (ok && param->accumulate && kk_ == 0) {                                                                \
            db_buf *ab_ = &acc[blk_ % 2];                                                                         \
            const int32_t off_[2] = {(int32_t)(bi_ * p.mb), (int32_t)(bj_ * p.nb)}, real_[2] = {mr_, nr_};        \
            db_view(&t_ddr, &s_ddr, c, off_, real_);                                                              \
            db_tsr(&t_spm, &s_spm, acc_fmt, ab_->addr, real_, 2);                                                 \
            const tx8_token dep_ = ab_->tok; /* the store of block blk_-2 reads this buffer */                   \
            ab_->tok = op_loadVar_async(&ld, &t_ddr, &t_spm, &dep_, dep_ ? 1u : 0u);                              \
            if (!ab_->tok) ok = 0;                                                                                \
        }                                                                                                         \
    } while (0)

    if (ok) PREPARE(0);
    db_wait(&biasb);
    for (uint64_t s = 0; ok && s < nsteps; ++s) {
        a_cur = a_idx, b_cur = b_idx;
        if (s + 1 < nsteps) PREPARE(s + 1);
        if (!ok) break;
        const uint32_t kk = (uint32_t)(s % nk), blk = (uint32_t)(s / nk);
        const uint32_t bi = blk / nbn, bj = blk % nbn;
        const int32_t mr = (int32_t)extent(p.M, p.mb, bi), nr = (int32_t)extent(p.N, p.nb, bj);
        const int32_t kr = (int32_t)extent(p.K, p.kc, kk);
        const int last = kk + 1 == nk;
        db_buf *ab = &acc[p.convert ? 0 : blk % 2];
        db_wait(&A[a_cur]), db_wait(&B[b_cur]); /* RAW: the panels are in SPM */
        if (kk == 0) db_wait(ab);               /* WAR on the accumulator (store j-2), or RAW (c's block) */
        const int32_t as[2] = {mr, kr}, bs[2] = {kr, nr}, cs[2] = {mr, nr}, vs[1] = {nr};
        L_SHAPE sa, sb, sc, sv;
        TSR ta, tb, tc, tv;
        db_tsr(&ta, &sa, in, A[a_cur].addr, as, 2);
        db_tsr(&tb, &sb, in, B[b_cur].addr, bs, 2);
        db_tsr(&tc, &sc, acc_fmt, ab->addr, cs, 2);
        db_tsr(&tv, &sv, acc_fmt, biasb.addr + 4ull * bj * p.nb, vs, 1);
        GEMM_PARAM gp = {kk > 0 || param->accumulate ? 1u : 0u, last ? param->relu_en : 0u};
        if (op_gemm(&gp, &ta, &tb, last && p.has_bias ? &tv : NULL, &tc) == TX8_CYCLES_INVALID) {
            ok = 0;
            break;
        }
        if (!last) continue;
        const int32_t off[2] = {(int32_t)(bi * p.mb), (int32_t)(bj * p.nb)};
        db_view(&t_ddr, &s_ddr, c, off, cs);
        if (p.convert) {
            db_buf *sg = &stg[blk % 2];
            db_wait(sg); /* WAR: the store of block blk-2 has read it */
            CT_Param ct;
            CGRATensor_ConvertOp_V_V_convert(&ct, ab->addr, sg->addr, (uint32_t)((uint64_t)mr * nr), acc_fmt,
                                             c->format, RND_NEAREST_EVEN);
            if (TsmExecute(&ct) == TX8_CYCLES_INVALID) {
                ok = 0;
                break;
            }
            db_tsr(&t_spm, &s_spm, c->format, sg->addr, cs, 2);
            sg->tok = op_dma_store_async(&st, &t_spm, &t_ddr, NULL, 0);
            ok = sg->tok != 0;
        } else {
            /* when accumulating, c's block blk+1 may have been loaded already (PREPARE above): its DDR bounding
             * range can meet this block's, so the store follows it */
            const tx8_token dep = param->accumulate ? acc[(blk + 1) % 2].tok : 0;
            db_tsr(&t_spm, &s_spm, acc_fmt, ab->addr, cs, 2);
            ab->tok = op_dma_store_async(&st, &t_spm, &t_ddr, &dep, dep ? 1u : 0u);
            ok = ab->tok != 0;
        }
    }
#undef PREPARE
    db_wait(&biasb);
    for (int i = 0; i < 2; ++i) db_wait(&A[i]), db_wait(&B[i]), db_wait(&acc[i]), db_wait(&stg[i]);
    return ok ? tx8_hal_cycles() - t_start : TX8_CYCLES_INVALID;
}

/* Chunked issue for the elementwise ops (their checks are plan/check_eltwise.c); see eltwise_common.h. */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/tsm.h"

#include <string.h>

uint64_t eltwise_elems(LAYOUT_MODE layout, const TSR *t) {
    tx8_layout l;
    if (tx8_layout_init(&l, layout, t->format, t->shape->shape_real, t->shape->dim,
                        tx8_hw_batch_align_bytes(tx8_hal_config())) != 0)
        return 0;
    return l.total_bytes / l.elem_bytes;
}

uint64_t eltwise_issue_chunks(eltwise_chunk_fn fill, const void *ctx, uint64_t elems) {
    uint64_t total = 0;
    for (uint64_t done = 0; done < elems && total != TX8_CYCLES_INVALID;) {
        const uint32_t n = elems - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(elems - done);
        CT_Param p;
        fill(&p, ctx, done, n);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += n;
    }
    return total;
}

/* n elements from element offsets s (source image) and d (destination image), ELTWISE_MAX_ELEMS at a time, added to
 * total (which stays TX8_CYCLES_INVALID once an instruction failed). */
static uint64_t issue_stretch(eltwise_pair_fn fill, const void *ctx, uint64_t s, uint64_t d, uint64_t n,
                              uint64_t total) {
    for (uint64_t done = 0; done < n && total != TX8_CYCLES_INVALID;) {
        const uint32_t m = n - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(n - done);
        CT_Param p;
        fill(&p, ctx, s + done, d + done, m);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += m;
    }
    return total;
}

/* Whether every element sits at the same element offset within its batch in both layouts: one [HW][W] plane of
 * the same width (a split layout with one Cx block and no C0 part is such a plane), the same blocks, or HW == 1
 * (every form then runs along C). */
static int same_positions(const tx8_layout *x, const tx8_layout *y) {
    if (x->hw == 1) return 1;
    const uint32_t px = x->cx + (x->c0_aligned ? 1u : 0u), py = y->cx + (y->c0_aligned ? 1u : 0u);
    if (px == 1 && py == 1) return (x->cx ? x->unit : x->c0_aligned) == (y->cx ? y->unit : y->c0_aligned);
    return x->c_split == y->c_split && x->cx == y->cx && x->c0_aligned == y->c0_aligned && x->unit == y->unit;
}

uint64_t eltwise_issue_pairs(eltwise_pair_fn fill, const void *ctx, const tx8_layout *ls, const tx8_layout *ld) {
    const uint64_t ss = ls->batch_stride_bytes / ls->elem_bytes, ds = ld->batch_stride_bytes / ld->elem_bytes;
    uint64_t total = 0;
    if (same_positions(ls, ld)) {
        if (ss == ds && ls->batch_elems == ld->batch_elems) /* one image: padding against padding */
            return issue_stretch(fill, ctx, 0, 0, (uint64_t)ls->n * ss, total);
        const uint64_t len = ls->batch_elems < ld->batch_elems ? ls->batch_elems : ld->batch_elems;
        for (uint32_t b = 0; b < ls->n && total != TX8_CYCLES_INVALID; ++b)
            total = issue_stretch(fill, ctx, b * ss, b * ds, len, total);
        return total;
    }
    /* Channel runs no block boundary of either image cuts: the split units (64, 128) are multiples of each other. */
    uint32_t step = ls->c;
    if (ls->c_split && ls->unit < step) step = ls->unit;
    if (ld->c_split && ld->unit < step) step = ld->unit;
    for (uint32_t b = 0; b < ls->n; ++b)
        for (uint32_t h = 0; h < ls->hw; ++h)
            for (uint32_t c = 0; c < ls->c && total != TX8_CYCLES_INVALID; c += step)
                total = issue_stretch(fill, ctx, tx8_layout_offset(ls, b, h, c) / ls->elem_bytes,
                                      tx8_layout_offset(ld, b, h, c) / ld->elem_bytes,
                                      ls->c - c < step ? ls->c - c : step, total);
    return total;
}

typedef struct convert_chunks {
    uint64_t src, dst;
    Data_Format from, to;
    RND_MODE rnd;
} convert_chunks;

static void fill_convert(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const convert_chunks *c = ctx;
    CGRATensor_ConvertOp_V_V_convert(p, c->src + offset * tx8_format_bytes(c->from),
                                     c->dst + offset * tx8_format_bytes(c->to), n, c->from, c->to, c->rnd);
}

uint64_t eltwise_issue_convert(uint64_t src, Data_Format from, uint64_t dst, Data_Format to, uint64_t elems,
                               RND_MODE rnd) {
    const convert_chunks c = {src, dst, from, to, rnd};
    return eltwise_issue_chunks(fill_convert, &c, elems);
}

typedef struct scalar_chunks {
    TsmArithVS f;
    const TSR *in, *out;
    uint32_t bits;
    RND_MODE rnd;
} scalar_chunks;

static void fill_scalar(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const scalar_chunks *c = ctx;
    const uint64_t at = offset * tx8_format_bytes(c->in->format);
    c->f(p, c->in->addr + at, c->bits, c->out->addr + at, n, c->rnd, c->in->format);
}

uint64_t eltwise_issue_scalar(TsmArithVS f, const TSR *in, float scalar, const TSR *out, uint64_t elems, RND_MODE rnd) {
    scalar_chunks c = {f, in, out, 0, rnd};
    memcpy(&c.bits, &scalar, sizeof c.bits);
    return eltwise_issue_chunks(fill_scalar, &c, elems);
}

uint64_t eltwise_issue_scalar_chain(const eltwise_scalar_step *steps, int count, const TSR *in, const TSR *out,
                                    uint64_t elems, RND_MODE rnd) {
    uint64_t total = 0;
    for (int i = 0; i < count && total != TX8_CYCLES_INVALID; ++i)
        total = ADD_VALID_CYCLE(total,
                                eltwise_issue_scalar(steps[i].f, i ? out : in, steps[i].scalar, out, elems, rnd));
    return total;
}

typedef struct unary_chunks {
    eltwise_unary_fn f;
    const TSR *in, *out;
    RND_MODE rnd;
} unary_chunks;

static void fill_unary(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const unary_chunks *c = ctx;
    const uint64_t at = offset * tx8_format_bytes(c->in->format);
    c->f(p, c->in->addr + at, c->out->addr + at, n, c->rnd, c->in->format);
}

uint64_t eltwise_issue_unary(eltwise_unary_fn f, const TSR *in, const TSR *out, uint64_t elems, RND_MODE rnd) {
    const unary_chunks c = {f, in, out, rnd};
    return eltwise_issue_chunks(fill_unary, &c, elems);
}

uint64_t eltwise_unary(eltwise_unary_check_fn check, eltwise_unary_fn f, const ELTWISE_PARAM *param, TSR *in,
                       TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (check(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    return eltwise_issue_unary(f, in, out, eltwise_elems(param->layout, in), param->rnd);
}

/* ---- binary ops with numpy broadcasting ---- */

static int same_shape(const TSR *x, const TSR *y) {
    if (x->shape->dim != y->shape->dim) return 0;
    for (int32_t d = 0; d < x->shape->dim; ++d)
        if (x->shape->shape_real[d] != y->shape->shape_real[d]) return 0;
    return 1;
}

/* The rounding direction of -x: rounding -(b - a) toward +inf is rounding (a - b) toward -inf. */
static RND_MODE mirrored(RND_MODE r) { return r == RND_POS_INF ? RND_NEG_INF : r == RND_NEG_INF ? RND_POS_INF : r; }

/* The compare that gives the same mask with its operands exchanged: a < b is b > a. */
static CT_OPCODE mirrored_cmp(CT_OPCODE op) {
    switch (op) {
    case CT_OP_CMP_LT: return CT_OP_CMP_GT;
    case CT_OP_CMP_LE: return CT_OP_CMP_GE;
    case CT_OP_CMP_GT: return CT_OP_CMP_LT;
    case CT_OP_CMP_GE: return CT_OP_CMP_LE;
    default: return op; /* EQ, NE */
    }
}

/* One instruction over n elements: dst = full op unit, the unit u elements long (u == n: V_V). `swapped`: the unit
 * is the left operand. fmt: the sources' format (out's too, but for a compare's int8 mask). */
static uint64_t issue_run(const eltwise_binary_kind *k, uint64_t full, uint64_t unit, uint64_t dst, uint64_t n,
                          uint64_t u, int swapped, RND_MODE rnd, Data_Format fmt) {
    CT_Param p;
    if (k->contract->cmp) { /* a compare: with the unit on the left, the mirrored compare of full against it */
        const CT_OPCODE op = (CT_OPCODE)k->contract->cmp;
        if (u == n)
            CGRATensor_RelationOp_V_V_cmp_to(&p, op, swapped ? unit : full, swapped ? full : unit, dst, (uint32_t)n,
                                             fmt, Fmt_INT8);
        else
            CGRATensor_RelationOp_V_VuV_cmp(&p, swapped ? mirrored_cmp(op) : op, full, dst, unit, (uint32_t)n,
                                            (uint32_t)u, fmt, Fmt_INT8);
        return TsmExecute(&p);
    }
    if (u == n) {
        k->vv(&p, swapped ? unit : full, swapped ? full : unit, dst, (uint32_t)n, rnd, fmt);
        return TsmExecute(&p);
    }
    if (!swapped || k->contract->commutative) {
        k->vuv(&p, full, dst, unit, rnd, (uint32_t)n, (uint32_t)u, fmt);
        return TsmExecute(&p);
    }
    /* a - b with a the unit: -(b - a), rounded the mirrored way, then negated (exactly). */
    k->vuv(&p, full, dst, unit, mirrored(rnd), (uint32_t)n, (uint32_t)u, fmt);
    uint64_t cycles = TsmExecute(&p);
    CGRATensor_ArithOp_V_V_neg(&p, dst, dst, (uint32_t)n, rnd, fmt);
    return ADD_VALID_CYCLE(cycles, TsmExecute(&p));
}

static uint64_t issue_broadcast(const eltwise_binary_kind *k, const TSR *a, const TSR *b, const TSR *out,
                                const tx8_bcast_run *runs, int n, RND_MODE rnd) {
    const uint64_t eb = tx8_format_bytes(a->format), out_eb = tx8_format_bytes(out->format);
    /* Innermost run full in both and the next broadcasting one operand: one V_VuV over both runs. */
    const int two_level = n >= 2 && runs[n - 1].fa && runs[n - 1].fb && runs[n - 2].fa != runs[n - 2].fb &&
                          runs[n - 2].size * runs[n - 1].size <= ELTWISE_MAX_ELEMS;
    const int loops = two_level ? n - 2 : n - 1;
    const tx8_bcast_run *inner = &runs[n - 1], *next = two_level ? &runs[n - 2] : inner;
    uint64_t idx[ELTWISE_MAX_RUNS] = {0}, total = 0;
    for (;;) {
        uint64_t oa = 0, ob = 0, oo = 0;
        for (int i = 0; i < loops; ++i) oa += idx[i] * runs[i].sa, ob += idx[i] * runs[i].sb, oo += idx[i] * runs[i].so;
        const uint64_t len = two_level ? next->size * inner->size : inner->size;
        const int a_full = next->fa; /* which operand is full over the instruction's elements */
        const uint64_t unit_len = two_level ? inner->size : (inner->fa && inner->fb ? len : 1);
        const uint64_t full = (a_full ? a->addr + oa * eb : b->addr + ob * eb);
        const uint64_t unit = (a_full ? b->addr + ob * eb : a->addr + oa * eb);
        total = ADD_VALID_CYCLE(total, issue_run(k, full, unit, out->addr + oo * out_eb, len, unit_len, !a_full, rnd,
                                                 a->format));
        if (total == TX8_CYCLES_INVALID) return total;
        int i = loops - 1;
        while (i >= 0 && ++idx[i] == runs[i].size) idx[i--] = 0;
        if (i < 0) return total;
    }
}

typedef struct kind_chunks {
    const eltwise_binary_kind *k;
    const TSR *a, *b, *out;
    RND_MODE rnd;
} kind_chunks;

static void fill_kind(CT_Param *p, const void *ctx, uint64_t s, uint64_t d, uint32_t n) {
    const kind_chunks *c = ctx;
    const Data_Format sf = c->a->format;
    const uint64_t as = s * tx8_format_bytes(sf), at = d * tx8_format_bytes(c->out->format);
    if (!c->k->contract->cmp)
        c->k->vv(p, c->a->addr + as, c->b->addr + as, c->out->addr + at, n, c->rnd, sf);
    else
        CGRATensor_RelationOp_V_V_cmp_to(p, (CT_OPCODE)c->k->contract->cmp, c->a->addr + as, c->b->addr + as,
                                         c->out->addr + at, n, sf, Fmt_INT8);
}

/* Equal shapes, checked: one V_V per chunk over the image, or over the stretches a's and out's images share when
 * their element sizes differ (a compare's int8 mask). */
static uint64_t issue_same_shape(const eltwise_binary_kind *k, LAYOUT_MODE layout, RND_MODE rnd, const TSR *a,
                                 const TSR *b, const TSR *out) {
    const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
    tx8_layout l[3];
    const TSR *const t[3] = {a, b, out};
    for (int i = 0; i < 3; ++i)
        tx8_layout_init(&l[i], layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim, align);
    const kind_chunks c = {k, a, b, out, rnd};
    return eltwise_issue_pairs(fill_kind, &c, &l[0], &l[2]);
}

uint64_t eltwise_binary_issue(const eltwise_binary_kind *k, LAYOUT_MODE layout, RND_MODE rnd, const TSR *a,
                              const TSR *b, const TSR *out) {
    if (same_shape(a, out) && same_shape(b, out)) return issue_same_shape(k, layout, rnd, a, b, out);
    tx8_bcast_run runs[ELTWISE_MAX_RUNS];
    const int n = tx8_plan_broadcast(a, b, out, runs);
    if (n == 0) /* out has one element and so do a and b */
        return issue_same_shape(k, layout, rnd, a, b, out);
    return issue_broadcast(k, a, b, out, runs, n, rnd);
}

uint64_t eltwise_binary(eltwise_binary_check_fn check, const eltwise_binary_kind *k, const ELTWISE_PARAM *param,
                        TSR *a, TSR *b, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (check(tx8_hal_config(), param, a, b, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    return eltwise_binary_issue(k, param->layout, param->rnd, a, b, out);
}

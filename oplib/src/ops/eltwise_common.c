/* Validation and chunked issue for the elementwise ops; see eltwise_common.h. */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/tsm.h"

#include "tsr_checks.h"

#include <string.h>

static int is_eltwise_format(Data_Format f) { return f == Fmt_FP32 || f == Fmt_FP16 || f == Fmt_BF16; }

int eltwise_prepare(const char *op, const ELTWISE_PARAM *param, TSR *const *t, const char *const *names, int count,
                    uint64_t *elems) {
    const tx8_hw_config *hw = tx8_hal_config();
    if (!param) return tx8_hal_fault("%s: param is NULL", op), -1;
    for (int i = 0; i < count; ++i) {
        if (!t[i]) return tx8_hal_fault("%s: %s is NULL", op, names[i]), -1;
        if (!t[i]->shape) return tx8_hal_fault("%s: %s->shape is NULL", op, names[i]), -1;
        const int32_t dim = t[i]->shape->dim;
        if (dim < 2 || dim > 4) return tx8_hal_fault("%s: %s->shape->dim = %d, must be 2..4", op, names[i], dim), -1;
        if (!is_eltwise_format(t[i]->format))
            return tx8_hal_fault("%s: %s->format = %s, must be fp32, fp16 or bf16", op, names[i],
                                 tx8_format_name(t[i]->format)), -1;
    }
    for (int i = 1; i < count; ++i) {
        if (t[i]->format != t[0]->format)
            return tx8_hal_fault("%s: %s->format = %s, %s->format = %s; they must match", op, names[i],
                                 tx8_format_name(t[i]->format), names[0], tx8_format_name(t[0]->format)), -1;
        if (t[i]->shape->dim != t[0]->shape->dim)
            return tx8_hal_fault("%s: %s->shape->dim = %d, %s->shape->dim = %d; they must match", op, names[i],
                                 t[i]->shape->dim, names[0], t[0]->shape->dim), -1;
        for (int32_t d = 0; d < t[0]->shape->dim; ++d)
            if (t[i]->shape->shape_real[d] != t[0]->shape->shape_real[d])
                return tx8_hal_fault("%s: %s->shape->shape_real[%d] = %d, %s->shape->shape_real[%d] = %d; shapes "
                                     "must match", op, names[i], d, t[i]->shape->shape_real[d], names[0], d,
                                     t[0]->shape->shape_real[d]), -1;
    }
    if ((unsigned)param->layout >= LAYOUT_COUNT)
        return tx8_hal_fault("%s: param->layout = %d is not a LAYOUT_MODE", op, (int)param->layout), -1;
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_hal_fault("%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd), -1;
    tx8_layout l;
    if (tx8_layout_init(&l, param->layout, t[0]->format, t[0]->shape->shape_real, t[0]->shape->dim,
                        tx8_hw_batch_align_bytes(hw)) != 0)
        return tx8_hal_fault("%s: %s->shape_real is not valid in layout %s (extents must be > 0; Tensor and Cx "
                             "need N == 1)", op, names[0], tx8_layout_name(param->layout)), -1;
    *elems = l.total_bytes / l.elem_bytes;
    return 0;
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

typedef struct binary_chunks {
    TsmArithVV f;
    const TSR *a, *b, *out;
    RND_MODE rnd;
} binary_chunks;

static void fill_binary(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const binary_chunks *c = ctx;
    const uint64_t at = offset * tx8_format_bytes(c->a->format);
    c->f(p, c->a->addr + at, c->b->addr + at, c->out->addr + at, n, c->rnd, c->a->format);
}

uint64_t eltwise_issue_binary(TsmArithVV f, const TSR *a, const TSR *b, const TSR *out, uint64_t elems, RND_MODE rnd) {
    const binary_chunks c = {f, a, b, out, rnd};
    return eltwise_issue_chunks(fill_binary, &c, elems);
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

uint64_t eltwise_unary(const char *op, eltwise_unary_fn f, const ELTWISE_PARAM *param, TSR *in, TSR *out) {
    TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    uint64_t elems;
    if (eltwise_prepare(op, param, t, names, 2, &elems) != 0) return TX8_CYCLES_INVALID;
    return eltwise_issue_unary(f, in, out, elems, param->rnd);
}

int eltwise_prepare_unary(const char *op, LAYOUT_MODE layout, RND_MODE rnd, TSR *in, TSR *out, uint64_t *elems) {
    TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    const ELTWISE_PARAM common = {layout, rnd};
    return eltwise_prepare(op, &common, t, names, 2, elems);
}

/* ---- binary ops with numpy broadcasting ---- */

enum { MAX_RUNS = 4 };

/* Consecutive dims of out (extent > 1) in which a and b broadcast alike: `size` elements; the strides (elements) of
 * the run's innermost dim in a, b and out, 0 where the operand broadcasts. */
typedef struct bcast_run {
    uint64_t size, sa, sb, so;
    int fa, fb; /* a / b full (not broadcast) over the run */
} bcast_run;

static int same_shape(const TSR *x, const TSR *y) {
    if (x->shape->dim != y->shape->dim) return 0;
    for (int32_t d = 0; d < x->shape->dim; ++d)
        if (x->shape->shape_real[d] != y->shape->shape_real[d]) return 0;
    return 1;
}

/* The rounding direction of -x: rounding -(b - a) toward +inf is rounding (a - b) toward -inf. */
static RND_MODE mirrored(RND_MODE r) { return r == RND_POS_INF ? RND_NEG_INF : r == RND_NEG_INF ? RND_POS_INF : r; }

/* Checks a, b and out for broadcasting and merges out's dims into runs; 0 on success, -1 after a fault. */
static int plan_broadcast(const eltwise_binary_kind *k, const ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out,
                          bcast_run *runs, int *count) {
    const char *op = k->name;
    const tx8_hw_config *hw = tx8_hal_config();
    if ((unsigned)param->layout >= LAYOUT_COUNT)
        return tx8_hal_fault("%s: param->layout = %d is not a LAYOUT_MODE", op, (int)param->layout), -1;
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_hal_fault("%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd), -1;
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return tx8_hal_fault("%s: a and b broadcast to out, which needs a compact layout (Tensor or NTensor), not %s",
                             op, tx8_layout_name(param->layout)), -1;
    tx8_layout l;
    if (tx8_layout_init(&l, param->layout, out->format, out->shape->shape_real, out->shape->dim,
                        tx8_hw_batch_align_bytes(hw)) != 0)
        return tx8_hal_fault("%s: out->shape_real is not valid in layout %s (extents must be > 0; Tensor needs N == 1)",
                             op, tx8_layout_name(param->layout)), -1;
    const int32_t dim = out->shape->dim;
    const int32_t *o = out->shape->shape_real, *ea = a->shape->shape_real, *eb = b->shape->shape_real;
    for (int32_t d = 0; d < dim; ++d) {
        if (ea[d] != o[d] && ea[d] != 1)
            return tx8_hal_fault("%s: a->shape->shape_real[%d] = %d, out->shape->shape_real[%d] = %d; must be equal "
                                 "or 1 (broadcast)", op, d, ea[d], d, o[d]), -1;
        if (eb[d] != o[d] && eb[d] != 1)
            return tx8_hal_fault("%s: b->shape->shape_real[%d] = %d, out->shape->shape_real[%d] = %d; must be equal "
                                 "or 1 (broadcast)", op, d, eb[d], d, o[d]), -1;
        if (o[d] > 1 && ea[d] == 1 && eb[d] == 1)
            return tx8_hal_fault("%s: out->shape->shape_real[%d] = %d, but a and b both have 1 there", op, d, o[d]),
                   -1;
    }
    /* Row-major strides (elements), then runs from the outermost dim in. */
    uint64_t sa = 1, sb = 1, so = 1, stride_a[4], stride_b[4], stride_o[4];
    for (int32_t d = dim - 1; d >= 0; --d) {
        stride_a[d] = sa, stride_b[d] = sb, stride_o[d] = so;
        sa *= (uint64_t)ea[d], sb *= (uint64_t)eb[d], so *= (uint64_t)o[d];
    }
    int n = 0;
    for (int32_t d = 0; d < dim; ++d) {
        if (o[d] == 1) continue;
        const int fa = ea[d] == o[d], fb = eb[d] == o[d];
        if (n == 0 || runs[n - 1].fa != fa || runs[n - 1].fb != fb) runs[n++] = (bcast_run){1, 0, 0, 0, fa, fb};
        bcast_run *r = &runs[n - 1];
        r->size *= (uint64_t)o[d];
        r->sa = fa ? stride_a[d] : 0, r->sb = fb ? stride_b[d] : 0, r->so = stride_o[d];
    }
    for (int i = 0; i < n; ++i) {
        if (runs[i].size > ELTWISE_MAX_ELEMS / 4)
            return tx8_hal_fault("%s: a run of %llu elements is too long for one instruction", op,
                                 (unsigned long long)runs[i].size), -1;
        if (!runs[i].fa && !k->commutative && !k->is_sub)
            return tx8_hal_fault("%s: a broadcasts over %llu elements where b does not: not supported (the op does "
                                 "not commute: only b, the divisor or exponent, may broadcast alone)", op,
                                 (unsigned long long)runs[i].size), -1;
    }
    const uint64_t out_bytes = tx8_tsr_compact_bytes(out);
    for (int i = 0; i < 2; ++i) {
        const TSR *x = i ? b : a;
        if (!same_shape(x, out) && ranges_overlap(x->addr, tx8_tsr_compact_bytes(x), out->addr, out_bytes))
            return tx8_hal_fault("%s: out overlaps %s, which broadcasts", op, i ? "b" : "a"), -1;
    }
    /* Several instructions run: check what the engine would only see at the failing one, so a fault writes nothing. */
    static const char *const names[3] = {"a", "b", "out"};
    const TSR *const all[3] = {a, b, out};
    for (int i = 0; i < 3; ++i)
        if (tx8_check_in_spm(op, names[i], all[i]->addr, tx8_tsr_compact_bytes(all[i])) != 0) return -1;
    *count = n;
    return 0;
}

/* One instruction over n elements: dst = full op unit, the unit u elements long (u == n: V_V). `swapped`: the unit
 * is the left operand. */
static uint64_t issue_run(const eltwise_binary_kind *k, uint64_t full, uint64_t unit, uint64_t dst, uint64_t n,
                          uint64_t u, int swapped, RND_MODE rnd, Data_Format fmt) {
    CT_Param p;
    if (u == n) {
        k->vv(&p, swapped ? unit : full, swapped ? full : unit, dst, (uint32_t)n, rnd, fmt);
        return TsmExecute(&p);
    }
    if (!swapped || k->commutative) {
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
                                const bcast_run *runs, int n, RND_MODE rnd) {
    const uint64_t eb = tx8_format_bytes(out->format);
    /* Innermost run full in both and the next broadcasting one operand: one V_VuV over both runs. */
    const int two_level = n >= 2 && runs[n - 1].fa && runs[n - 1].fb && runs[n - 2].fa != runs[n - 2].fb &&
                          runs[n - 2].size * runs[n - 1].size <= ELTWISE_MAX_ELEMS;
    const int loops = two_level ? n - 2 : n - 1;
    const bcast_run *inner = &runs[n - 1], *next = two_level ? &runs[n - 2] : inner;
    uint64_t idx[MAX_RUNS] = {0}, total = 0;
    for (;;) {
        uint64_t oa = 0, ob = 0, oo = 0;
        for (int i = 0; i < loops; ++i) oa += idx[i] * runs[i].sa, ob += idx[i] * runs[i].sb, oo += idx[i] * runs[i].so;
        const uint64_t len = two_level ? next->size * inner->size : inner->size;
        const int a_full = next->fa; /* which operand is full over the instruction's elements */
        const uint64_t unit_len = two_level ? inner->size : (inner->fa && inner->fb ? len : 1);
        const uint64_t full = (a_full ? a->addr + oa * eb : b->addr + ob * eb);
        const uint64_t unit = (a_full ? b->addr + ob * eb : a->addr + oa * eb);
        total = ADD_VALID_CYCLE(total, issue_run(k, full, unit, out->addr + oo * eb, len, unit_len, !a_full, rnd,
                                                 out->format));
        if (total == TX8_CYCLES_INVALID) return total;
        int i = loops - 1;
        while (i >= 0 && ++idx[i] == runs[i].size) idx[i--] = 0;
        if (i < 0) return total;
    }
}

uint64_t eltwise_binary(const eltwise_binary_kind *k, const ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    TSR *const t[3] = {a, b, out};
    static const char *const names[3] = {"a", "b", "out"};
    const char *op = k->name;
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    for (int i = 0; i < 3; ++i) {
        if (!t[i]) return tx8_hal_fault("%s: %s is NULL", op, names[i]), TX8_CYCLES_INVALID;
        if (!t[i]->shape) return tx8_hal_fault("%s: %s->shape is NULL", op, names[i]), TX8_CYCLES_INVALID;
    }
    uint64_t elems;
    if ((same_shape(a, out) && same_shape(b, out)) || a->shape->dim != out->shape->dim ||
        b->shape->dim != out->shape->dim || a->format != out->format || b->format != out->format ||
        !is_eltwise_format(out->format) || out->shape->dim < 2 || out->shape->dim > 4) {
        /* equal shapes, or arguments eltwise_prepare names the fault of */
        if (eltwise_prepare(op, param, t, names, 3, &elems) != 0) return TX8_CYCLES_INVALID;
        return eltwise_issue_binary(k->vv, a, b, out, elems, param->rnd);
    }
    bcast_run runs[MAX_RUNS];
    int n = 0;
    if (plan_broadcast(k, param, a, b, out, runs, &n) != 0) return TX8_CYCLES_INVALID;
    if (n == 0) { /* out has one element and so do a and b */
        if (eltwise_prepare(op, param, t, names, 3, &elems) != 0) return TX8_CYCLES_INVALID;
        return eltwise_issue_binary(k->vv, a, b, out, elems, param->rnd);
    }
    return issue_broadcast(k, a, b, out, runs, n, param->rnd);
}

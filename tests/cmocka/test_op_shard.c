/*
 * Every OpLib op family on a shard of its output box, on any of the 16 tiles (16 host threads on the cmodel, 16
 * harts under QEMU), bit-identical to the same op run once by one tile on the whole tensor (shard_common.h has the
 * driver). Each case splits the output box unevenly (some tiles get 1-element or empty parts) along the dims the
 * op's sharding rule allows, and the tile loads just the input boxes its shard needs:
 *   eltwise binary   any output dim; a broadcast operand's box is [0, 1) along its broadcast dims
 *   unary, cast      any dim
 *   softmax          the rows (never the softmax dim)
 *   reduce           the kept dims A and B of [A][R][B] (never R: that would change the summation)
 *   pool, conv       output rows / columns: the input window with its halo, the pads only where the shard meets
 *                    the image border (top pad for a shard starting at output row 0, the whole bottom pad for the
 *                    last one, otherwise just what its windows reach past the image); conv also the output
 *                    channels, with the weight's and bias's channel shards
 *   gemm             M and N (a 4x4 grid): a's rows, b's and the bias's columns
 *   batchnorm        any dim; C with the channel shards of the four vectors
 *   permute          output dims, read from the input dims they come from
 *   concat           any dim, the concat axis too: each input's part of the shard, concatenated
 *   slice            output dims: the input range the shard's (strided, reversed, repeated) indices read
 *   pad              output dims: the input's part of the shard with the local pads; see pad_compute for a shard
 *                    wholly inside a constant pad
 * No case splits a reduced axis, so every output must be the same bits (memcmp).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shard_common.h"

static sh_ddr g_ddr; /* reset per test case: each has a fresh chip */
static tx8_rng g_rng;

static void begin(uint64_t salt) {
    g_ddr.next = 0;
    tx8_rng_seed(&g_rng, tx8_test_seed() ^ salt);
}

static uint64_t put_input(Data_Format f, int32_t dim, const int32_t *shape, double lo, double hi) {
    const size_t n = (size_t)sh_elems(dim, shape);
    const uint64_t a = sh_ddr_alloc(&g_ddr, n * tx8_format_bytes(f));
    sh_put_random(&g_rng, a, f, n, lo, hi);
    return a;
}

static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

static void set_case(sh_case *c, const char *name, Data_Format f, int32_t dim, const int32_t *whole, int32_t s0,
                     int32_t s1, sh_compute_fn fn, const void *ctx) {
    memset(c, 0, sizeof *c);
    c->name = name, c->out_fmt = f, c->dim = dim, c->split[0] = s0, c->split[1] = s1, c->compute = fn, c->ctx = ctx;
    for (int32_t k = 0; k < dim; ++k) c->whole[k] = whole[k];
}

/* ================================ eltwise binary with broadcast ================================ */
typedef struct bin_ctx {
    int mul; /* 0: op_add, 1: op_mul */
    Data_Format f;
    int32_t a_shape[4], b_shape[4];
    uint64_t a, b;
} bin_ctx;

/* The box of a (numpy-broadcast) operand of shape `shape` that output box ob reads. */
static void bcast_box(const int32_t *shape, int32_t dim, const tx8_box *ob, int32_t *start, int32_t *size) {
    for (int32_t k = 0; k < dim; ++k) {
        start[k] = shape[k] == 1 ? 0 : ob->start[k];
        size[k] = shape[k] == 1 ? 1 : ob->size[k];
    }
}

static int bin_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const bin_ctx *x = (const bin_ctx *)c->ctx;
    int32_t s[4], n[4];
    sh_tsr a, b, o;
    bcast_box(x->a_shape, 4, ob, s, n);
    if (sh_load(r, &a, x->f, x->a, 4, x->a_shape, s, n)) return -1;
    bcast_box(x->b_shape, 4, ob, s, n);
    if (sh_load(r, &b, x->f, x->b, 4, x->b_shape, s, n)) return -1;
    if (sh_spm(r, &o, x->f, 4, c->whole, ob->start, ob->size)) return -1;
    ELTWISE_PARAM p = {LAYOUT_NTENSOR, RND_NEAREST_EVEN};
    if (x->mul) SH_DO(r, "op_mul", op_mul(&p, &a.t, &b.t, &o.t));
    else SH_DO(r, "op_add", op_add(&p, &a.t, &b.t, &o.t));
    return sh_store(r, &o, dst);
}

static void eltwise_binary_broadcast(void **state) {
    (void)state;
    begin(0xB1);
    sh_case c;
    /* fp16 add, b [1,H,1,C] (a per-(h, c) bias), 4x4 over W and C */
    bin_ctx add = {0, Fmt_FP16, {2, 6, 9, 20}, {1, 6, 1, 20}, 0, 0};
    add.a = put_input(Fmt_FP16, 4, add.a_shape, -4, 4), add.b = put_input(Fmt_FP16, 4, add.b_shape, -4, 4);
    set_case(&c, "op_add fp16 [2,6,9,20] + [1,6,1,20], W x C", Fmt_FP16, 4, add.a_shape, 2, 3, bin_compute, &add);
    sh_run_case(&c, &g_ddr);
    /* fp32 mul, the broadcast operand on the left: a [2,1,9,1] * b [2,7,9,12], 4x4 over H and C */
    bin_ctx mul = {1, Fmt_FP32, {2, 1, 9, 1}, {2, 7, 9, 12}, 0, 0};
    mul.a = put_input(Fmt_FP32, 4, mul.a_shape, -3, 3), mul.b = put_input(Fmt_FP32, 4, mul.b_shape, -3, 3);
    set_case(&c, "op_mul fp32 [2,1,9,1] * [2,7,9,12], H x C", Fmt_FP32, 4, mul.b_shape, 1, 3, bin_compute, &mul);
    sh_run_case(&c, &g_ddr);
}

/* ================================ unary ================================ */
typedef struct unary_ctx {
    int kind; /* 0 op_exp, 1 op_unary GELU_ERF, 2 op_relu */
    Data_Format f;
    int32_t dim, shape[4];
    uint64_t in;
} unary_ctx;

static int unary_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const unary_ctx *x = (const unary_ctx *)c->ctx;
    sh_tsr in, o;
    if (sh_load(r, &in, x->f, x->in, x->dim, x->shape, ob->start, ob->size)) return -1;
    if (sh_spm(r, &o, x->f, x->dim, c->whole, ob->start, ob->size)) return -1;
    ELTWISE_PARAM p = {LAYOUT_NTENSOR, RND_NEAREST_EVEN};
    UNARY_PARAM u = {LAYOUT_NTENSOR, RND_NEAREST_EVEN, UNARY_GELU_ERF, 0.f, 0.f};
    if (x->kind == 0) SH_DO(r, "op_exp", op_exp(&p, &in.t, &o.t));
    else if (x->kind == 1) SH_DO(r, "op_unary", op_unary(&u, &in.t, &o.t));
    else SH_DO(r, "op_relu", op_relu(&p, &in.t, &o.t));
    return sh_store(r, &o, dst);
}

static void unary_ops(void **state) {
    (void)state;
    begin(0x0E);
    sh_case c;
    unary_ctx e = {0, Fmt_FP32, 3, {3, 50, 7}, 0};
    e.in = put_input(e.f, e.dim, e.shape, -6, 6);
    set_case(&c, "op_exp fp32 [3,50,7], dim 1", e.f, e.dim, e.shape, 1, -1, unary_compute, &e);
    sh_run_case(&c, &g_ddr);
    unary_ctx g = {1, Fmt_BF16, 2, {45, 13}, 0};
    g.in = put_input(g.f, g.dim, g.shape, -4, 4);
    set_case(&c, "op_unary GELU_ERF bf16 [45,13], dim 0", g.f, g.dim, g.shape, 0, -1, unary_compute, &g);
    sh_run_case(&c, &g_ddr);
    unary_ctx rl = {2, Fmt_FP16, 4, {2, 9, 5, 11}, 0};
    rl.in = put_input(rl.f, rl.dim, rl.shape, -2, 2);
    set_case(&c, "op_relu fp16 [2,9,5,11], H x C", rl.f, rl.dim, rl.shape, 1, 3, unary_compute, &rl);
    sh_run_case(&c, &g_ddr);
}

/* ================================ cast ================================ */
typedef struct cast_ctx {
    Data_Format from, to;
    int32_t dim, shape[4];
    uint64_t in;
} cast_ctx;

static int cast_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const cast_ctx *x = (const cast_ctx *)c->ctx;
    sh_tsr in, o;
    if (sh_load(r, &in, x->from, x->in, x->dim, x->shape, ob->start, ob->size)) return -1;
    if (sh_spm(r, &o, x->to, x->dim, c->whole, ob->start, ob->size)) return -1;
    CAST_PARAM p = {LAYOUT_NTENSOR, 0};
    SH_DO(r, "op_cast", op_cast(&p, &in.t, &o.t));
    return sh_store(r, &o, dst);
}

static void cast_ops(void **state) {
    (void)state;
    begin(0xCA);
    sh_case c;
    cast_ctx h = {Fmt_FP32, Fmt_FP16, 3, {5, 37, 3}, 0};
    h.in = put_input(h.from, h.dim, h.shape, -70000, 70000); /* past fp16's range too: saturation to inf */
    set_case(&c, "op_cast fp32 -> fp16 [5,37,3], dim 1", h.to, h.dim, h.shape, 1, -1, cast_compute, &h);
    sh_run_case(&c, &g_ddr);
    cast_ctx i8 = {Fmt_BF16, Fmt_INT8, 2, {22, 17}, 0};
    i8.in = put_input(i8.from, i8.dim, i8.shape, -200, 200);
    set_case(&c, "op_cast bf16 -> int8 [22,17], 4x4", i8.to, i8.dim, i8.shape, 0, 1, cast_compute, &i8);
    sh_run_case(&c, &g_ddr);
}

/* ================================ softmax ================================ */
typedef struct softmax_ctx {
    Data_Format f;
    int32_t dim, shape[4];
    uint64_t in;
} softmax_ctx;

static int softmax_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const softmax_ctx *x = (const softmax_ctx *)c->ctx;
    sh_tsr in, o, imm;
    if (sh_load(r, &in, x->f, x->in, x->dim, x->shape, ob->start, ob->size)) return -1;
    if (sh_spm(r, &o, x->f, x->dim, c->whole, ob->start, ob->size)) return -1;
    SOFTMAX_PARAM p = {LAYOUT_NTENSOR};
    const int32_t imm_bytes[1] = {(int32_t)op_softmax_imm_size(tx8_hal_config(), &p, &in.t)};
    if (sh_spm(r, &imm, Fmt_INT8, 1, imm_bytes, NULL, NULL)) return -1;
    SH_DO(r, "op_softmax", op_softmax(&p, &in.t, &imm.t, &o.t));
    return sh_store(r, &o, dst);
}

static void softmax_rows(void **state) {
    (void)state;
    begin(0x50);
    sh_case c;
    /* 16 parts of 40 rows: 1-row shards take op_softmax's R == 1 path, the others R > 1 */
    softmax_ctx a = {Fmt_FP32, 2, {40, 29}, 0};
    a.in = put_input(a.f, a.dim, a.shape, -8, 8);
    set_case(&c, "op_softmax fp32 [40,29], rows", a.f, a.dim, a.shape, 0, -1, softmax_compute, &a);
    sh_run_case(&c, &g_ddr);
    softmax_ctx b = {Fmt_BF16, 3, {6, 21, 19}, 0};
    b.in = put_input(b.f, b.dim, b.shape, -8, 8);
    set_case(&c, "op_softmax bf16 [6,21,19], dims 0 x 1", b.f, b.dim, b.shape, 0, 1, softmax_compute, &b);
    sh_run_case(&c, &g_ddr);
}

/* ================================ reduce ================================ */
typedef struct reduce_ctx {
    REDUCE_KIND kind;
    Data_Format f;
    int32_t shape[3]; /* [A][R][B] */
    uint64_t in;
} reduce_ctx;

static int reduce_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const reduce_ctx *x = (const reduce_ctx *)c->ctx;
    const int32_t s[3] = {ob->start[0], 0, ob->start[2]}, n[3] = {ob->size[0], x->shape[1], ob->size[2]};
    sh_tsr in, o;
    if (sh_load(r, &in, x->f, x->in, 3, x->shape, s, n)) return -1;
    if (sh_spm(r, &o, x->f, 3, c->whole, ob->start, ob->size)) return -1;
    REDUCE_PARAM p = {x->kind, RND_NEAREST_EVEN};
    SH_DO(r, "op_reduce", op_reduce(&p, &in.t, &o.t));
    return sh_store(r, &o, dst);
}

static void reduce_kept_dims(void **state) {
    (void)state;
    begin(0x4E);
    sh_case c;
    /* sum over R of [13][17][10], 4x4 over A and B: B parts of 1 take the inner-reduction path */
    reduce_ctx s = {REDUCE_SUM, Fmt_FP32, {13, 17, 10}, 0};
    s.in = put_input(s.f, 3, s.shape, -5, 5);
    const int32_t so[3] = {13, 1, 10};
    set_case(&c, "op_reduce SUM fp32 [13,17,10] -> [13,1,10], A x B", s.f, 3, so, 0, 2, reduce_compute, &s);
    sh_run_case(&c, &g_ddr);
    reduce_ctx m = {REDUCE_MEAN, Fmt_FP16, {40, 23, 1}, 0};
    m.in = put_input(m.f, 3, m.shape, -5, 5);
    const int32_t mo[3] = {40, 1, 1};
    set_case(&c, "op_reduce MEAN fp16 [40,23,1] -> [40,1,1], A", m.f, 3, mo, 0, -1, reduce_compute, &m);
    sh_run_case(&c, &g_ddr);
    reduce_ctx x = {REDUCE_MAX, Fmt_BF16, {3, 11, 44}, 0};
    x.in = put_input(x.f, 3, x.shape, -5, 5);
    const int32_t xo[3] = {3, 1, 44};
    set_case(&c, "op_reduce MAX bf16 [3,11,44] -> [3,1,44], B", x.f, 3, xo, 2, -1, reduce_compute, &x);
    sh_run_case(&c, &g_ddr);
}

/* ================================ windows: pool and conv ================================ */
/* Output positions [o0, o0 + n) of an extent-O output along one spatial axis (input extent H, stride S, dilated
 * kernel span `span`, pads p0 / p1 of the whole op): the input range [*i0, *i0 + *len) the shard loads and the
 * pads it runs with. The windows of the shard read input [o0*S - p0, (o0+n-1)*S - p0 + span); what of it lies
 * outside the image is the shard's padding. The last shard keeps the whole bottom pad and loads to the image's
 * end, and the first one starts at input 0 with the whole top pad, so the whole output (o0 = 0, n = O) is the op
 * with its own pads on the whole input, and any shard's output extent comes out as n. */
static void window(int32_t o0, int32_t n, int32_t O, int32_t S, int32_t span, int32_t p0, int32_t p1, int32_t H,
                   int32_t *i0, int32_t *len, int32_t *pad0, int32_t *pad1) {
    const int32_t lo = o0 * S - p0, hi = (o0 + n - 1) * S - p0 + span;
    int32_t i1;
    *i0 = max_i32(0, lo), *pad0 = max_i32(0, -lo);
    if (o0 + n == O) i1 = H, *pad1 = p1;
    else i1 = min_i32(H, hi), *pad1 = max_i32(0, hi - H);
    *len = i1 - *i0;
}

typedef struct pool_ctx {
    int max;
    Data_Format f;
    POOL_PARAM p;
    int32_t shape[4]; /* [N][H][W][C] */
    uint64_t in;
} pool_ctx;

static int32_t pool_out(int32_t in, uint32_t k, uint32_t s, uint32_t d, int32_t p0, int32_t p1) {
    return (in + p0 + p1 - (int32_t)((k - 1) * d + 1)) / (int32_t)s + 1;
}

static int pool_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const pool_ctx *x = (const pool_ctx *)c->ctx;
    POOL_PARAM p = x->p;
    int32_t s[4] = {ob->start[0], 0, 0, ob->start[3]}, n[4] = {ob->size[0], 0, 0, ob->size[3]};
    window(ob->start[1], ob->size[1], c->whole[1], (int32_t)p.stride_h, (int32_t)((p.kernel_h - 1) * p.dilation_h + 1),
           x->p.pad_top, x->p.pad_bottom, x->shape[1], &s[1], &n[1], &p.pad_top, &p.pad_bottom);
    window(ob->start[2], ob->size[2], c->whole[2], (int32_t)p.stride_w, (int32_t)((p.kernel_w - 1) * p.dilation_w + 1),
           x->p.pad_left, x->p.pad_right, x->shape[2], &s[2], &n[2], &p.pad_left, &p.pad_right);
    sh_tsr in, o;
    if (sh_load(r, &in, x->f, x->in, 4, x->shape, s, n)) return -1;
    if (sh_spm(r, &o, x->f, 4, c->whole, ob->start, ob->size)) return -1;
    if (x->max) SH_DO(r, "op_maxpool", op_maxpool(&p, &in.t, &o.t));
    else SH_DO(r, "op_avgpool", op_avgpool(&p, &in.t, &o.t));
    return sh_store(r, &o, dst);
}

static void pool_case(sh_case *c, pool_ctx *x, const char *name, int32_t s0, int32_t s1) {
    x->in = put_input(x->f, 4, x->shape, -5, 5);
    const POOL_PARAM *p = &x->p;
    const int32_t out[4] = {x->shape[0],
                            pool_out(x->shape[1], p->kernel_h, p->stride_h, p->dilation_h, p->pad_top, p->pad_bottom),
                            pool_out(x->shape[2], p->kernel_w, p->stride_w, p->dilation_w, p->pad_left, p->pad_right),
                            x->shape[3]};
    set_case(c, name, x->f, 4, out, s0, s1, pool_compute, x);
    sh_run_case(c, &g_ddr);
}

static void pool_windows(void **state) {
    (void)state;
    begin(0x9001);
    sh_case c;
    /* maxpool 3x3 stride 2, pads top 1 bottom 2 left 1 right 1: out [1,19,5,12], 4x4 over OH and C */
    pool_ctx mx = {1, Fmt_FP32, {LAYOUT_NTENSOR, 3, 3, 2, 2, 1, 1, 1, 1, 2, 1, 0}, {1, 37, 9, 12}, 0};
    pool_case(&c, &mx, "op_maxpool fp32 3x3/2 pads 1,1,2,1 [1,37,9,12], OH x C", 1, 3);
    /* avgpool 3x3 stride 1 pad 1, count_include_pad: out [2,20,7,5], 16 parts of OH */
    pool_ctx av = {0, Fmt_FP16, {LAYOUT_NTENSOR, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 20, 7, 5}, 0};
    pool_case(&c, &av, "op_avgpool fp16 3x3/1 pad 1 count_include_pad [2,20,7,5], OH", 1, -1);
    /* avgpool 3x3 stride 2 pad 1, padding not counted: out [1,9,10,3], 4x4 over OH and OW */
    pool_ctx aw = {0, Fmt_FP32, {LAYOUT_NTENSOR, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0}, {1, 18, 19, 3}, 0};
    pool_case(&c, &aw, "op_avgpool fp32 3x3/2 pad 1 [1,18,19,3], OH x OW", 1, 2);
    /* maxpool 2x2 stride 2, no pad, an odd input (its last row is never read): out [2,17,3,6], 16 parts of OH */
    pool_ctx m2 = {1, Fmt_BF16, {LAYOUT_NTENSOR, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 0}, {2, 35, 7, 6}, 0};
    pool_case(&c, &m2, "op_maxpool bf16 2x2/2 [2,35,7,6], OH", 1, -1);
}

typedef struct conv_ctx {
    Data_Format f;
    CONV_PARAM p;
    int32_t shape[4];  /* [N][H][W][C] */
    int32_t wshape[4]; /* [KH][KW][C][O] */
    uint64_t in, w, bias;
} conv_ctx;

static int conv_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const conv_ctx *x = (const conv_ctx *)c->ctx;
    CONV_PARAM p = x->p;
    const int32_t span_h = (int32_t)((uint32_t)(x->wshape[0] - 1) * p.dilation_h + 1);
    const int32_t span_w = (int32_t)((uint32_t)(x->wshape[1] - 1) * p.dilation_w + 1);
    int32_t s[4] = {ob->start[0], 0, 0, 0}, n[4] = {ob->size[0], 0, 0, x->shape[3]};
    window(ob->start[1], ob->size[1], c->whole[1], (int32_t)p.stride_h, span_h, x->p.pad_top, x->p.pad_bottom,
           x->shape[1], &s[1], &n[1], &p.pad_top, &p.pad_bottom);
    window(ob->start[2], ob->size[2], c->whole[2], (int32_t)p.stride_w, span_w, x->p.pad_left, x->p.pad_right,
           x->shape[2], &s[2], &n[2], &p.pad_left, &p.pad_right);
    const int32_t ws[4] = {0, 0, 0, ob->start[3]}, wn[4] = {x->wshape[0], x->wshape[1], x->wshape[2], ob->size[3]};
    const int32_t bwhole[1] = {x->wshape[3]}, bs[1] = {ob->start[3]}, bn[1] = {ob->size[3]};
    sh_tsr in, w, b, o;
    if (sh_load(r, &in, x->f, x->in, 4, x->shape, s, n)) return -1;
    if (sh_load(r, &w, x->f, x->w, 4, x->wshape, ws, wn)) return -1;
    if (sh_load(r, &b, Fmt_FP32, x->bias, 1, bwhole, bs, bn)) return -1;
    if (sh_spm(r, &o, Fmt_FP32, 4, c->whole, ob->start, ob->size)) return -1;
    SH_DO(r, "op_conv", op_conv(&p, &in.t, &w.t, &b.t, &o.t));
    return sh_store(r, &o, dst);
}

static void conv_case(sh_case *c, conv_ctx *x, const char *name, int32_t s0, int32_t s1) {
    const int32_t bshape[1] = {x->wshape[3]};
    x->in = put_input(x->f, 4, x->shape, -2, 2);
    x->w = put_input(x->f, 4, x->wshape, -1, 1);
    x->bias = put_input(Fmt_FP32, 1, bshape, -1, 1);
    const CONV_PARAM *p = &x->p;
    const int32_t out[4] = {
        x->shape[0],
        pool_out(x->shape[1], (uint32_t)x->wshape[0], p->stride_h, p->dilation_h, p->pad_top, p->pad_bottom),
        pool_out(x->shape[2], (uint32_t)x->wshape[1], p->stride_w, p->dilation_w, p->pad_left, p->pad_right),
        x->wshape[3]};
    set_case(c, name, Fmt_FP32, 4, out, s0, s1, conv_compute, x);
    sh_run_case(c, &g_ddr);
}

static void conv_output_rows(void **state) {
    (void)state;
    begin(0xC0);
    sh_case c;
    /* 3x3 stride 1 pad 1: out [1,20,6,12], 16 parts of the output rows */
    conv_ctx s1 = {Fmt_FP32, {LAYOUT_NTENSOR, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, {1, 20, 6, 8}, {3, 3, 8, 12}, 0, 0, 0};
    conv_case(&c, &s1, "op_conv fp32 3x3/1 pad 1 [1,20,6,8] -> 12, OH", 1, -1);
    /* 3x3 stride 2 pad 1 with relu, fp16 inputs: out [2,17,4,6], 16 parts of the output rows */
    conv_ctx s2 = {Fmt_FP16, {LAYOUT_NTENSOR, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 1}, {2, 33, 7, 5}, {3, 3, 5, 6}, 0, 0, 0};
    conv_case(&c, &s2, "op_conv fp16 3x3/2 pad 1 relu [2,33,7,5] -> 6, OH", 1, -1);
    /* 3x3 stride 2 pad 1, bf16: out [1,10,10,4], 4x4 over output rows and columns */
    conv_ctx s3 = {Fmt_BF16, {LAYOUT_NTENSOR, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0}, {1, 20, 19, 3}, {3, 3, 3, 4}, 0, 0, 0};
    conv_case(&c, &s3, "op_conv bf16 3x3/2 pad 1 [1,20,19,3] -> 4, OH x OW", 1, 2);
}

static void conv_output_channels(void **state) {
    (void)state;
    begin(0xC1);
    sh_case c;
    /* 3x3 stride 1 pad 1: out [1,10,6,40], 16 parts of the output channels (weight [3,3,8,Ot], bias [Ot]) */
    conv_ctx o1 = {Fmt_FP32, {LAYOUT_NTENSOR, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, {1, 10, 6, 8}, {3, 3, 8, 40}, 0, 0, 0};
    conv_case(&c, &o1, "op_conv fp32 3x3/1 pad 1 [1,10,6,8] -> 40, O", 3, -1);
    /* 3x3 stride 2 pad 1, fp16: out [2,9,5,24], 4x4 over output rows and channels */
    conv_ctx o2 = {Fmt_FP16, {LAYOUT_NTENSOR, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0}, {2, 17, 9, 6}, {3, 3, 6, 24}, 0, 0, 0};
    conv_case(&c, &o2, "op_conv fp16 3x3/2 pad 1 [2,17,9,6] -> 24, OH x O", 1, 3);
}

/* ================================ gemm ================================ */
typedef struct gemm_ctx {
    Data_Format f;
    int32_t M, K, N;
    uint32_t relu;
    uint64_t a, b, bias;
} gemm_ctx;

static int gemm_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const gemm_ctx *x = (const gemm_ctx *)c->ctx;
    const int32_t ash[2] = {x->M, x->K}, as[2] = {ob->start[0], 0}, an[2] = {ob->size[0], x->K};
    const int32_t bsh[2] = {x->K, x->N}, bs[2] = {0, ob->start[1]}, bn[2] = {x->K, ob->size[1]};
    const int32_t vsh[1] = {x->N}, vs[1] = {ob->start[1]}, vn[1] = {ob->size[1]};
    sh_tsr a, b, v, o;
    if (sh_load(r, &a, x->f, x->a, 2, ash, as, an)) return -1;
    if (sh_load(r, &b, x->f, x->b, 2, bsh, bs, bn)) return -1;
    if (sh_load(r, &v, Fmt_FP32, x->bias, 1, vsh, vs, vn)) return -1;
    if (sh_spm(r, &o, Fmt_FP32, 2, c->whole, ob->start, ob->size)) return -1;
    GEMM_PARAM p = {0, x->relu};
    SH_DO(r, "op_gemm", op_gemm(&p, &a.t, &b.t, &v.t, &o.t));
    return sh_store(r, &o, dst);
}

static void gemm_case(sh_case *c, gemm_ctx *x, const char *name) {
    const int32_t ash[2] = {x->M, x->K}, bsh[2] = {x->K, x->N}, vsh[1] = {x->N}, out[2] = {x->M, x->N};
    x->a = put_input(x->f, 2, ash, -1, 1);
    x->b = put_input(x->f, 2, bsh, -1, 1);
    x->bias = put_input(Fmt_FP32, 1, vsh, -1, 1);
    set_case(c, name, Fmt_FP32, 2, out, 0, 1, gemm_compute, x);
    sh_run_case(c, &g_ddr);
}

static void gemm_grid(void **state) {
    (void)state;
    begin(0x6E);
    sh_case c;
    gemm_ctx f = {Fmt_FP32, 29, 37, 45, 0, 0, 0, 0};
    gemm_case(&c, &f, "op_gemm fp32 [29,37] x [37,45] + bias, M x N");
    gemm_ctx b = {Fmt_BF16, 23, 70, 19, 1, 0, 0, 0};
    gemm_case(&c, &b, "op_gemm bf16 [23,70] x [70,19] + bias, relu, M x N");
}

/* ================================ batchnorm ================================ */
typedef struct bn_ctx {
    Data_Format f;
    int32_t shape[4];
    uint64_t in, vec[4];
} bn_ctx;

static int bn_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const bn_ctx *x = (const bn_ctx *)c->ctx;
    const int32_t vsh[1] = {x->shape[3]}, vs[1] = {ob->start[3]}, vn[1] = {ob->size[3]};
    sh_tsr in, v[4], imm, o;
    if (sh_load(r, &in, x->f, x->in, 4, x->shape, ob->start, ob->size)) return -1;
    for (int k = 0; k < 4; ++k)
        if (sh_load(r, &v[k], Fmt_FP32, x->vec[k], 1, vsh, vs, vn)) return -1;
    BATCHNORM_INFER_PARAM p = {LAYOUT_NTENSOR, 1e-6f};
    const int32_t imm_bytes[1] = {(int32_t)op_batchnorm_inference_imm_size(tx8_hal_config(), &p, &in.t)};
    if (sh_spm(r, &imm, Fmt_INT8, 1, imm_bytes, NULL, NULL)) return -1;
    if (sh_spm(r, &o, x->f, 4, c->whole, ob->start, ob->size)) return -1;
    SH_DO(r, "op_batchnorm_inference",
          op_batchnorm_inference(&p, &in.t, &v[0].t, &v[1].t, &v[2].t, &v[3].t, &imm.t, &o.t));
    return sh_store(r, &o, dst);
}

static void bn_case(sh_case *c, bn_ctx *x, const char *name, int32_t s0, int32_t s1) {
    const int32_t vsh[1] = {x->shape[3]};
    x->in = put_input(x->f, 4, x->shape, -4, 4);
    for (int k = 0; k < 4; ++k) x->vec[k] = k == 3 ? put_input(Fmt_FP32, 1, vsh, 0.05, 3) : put_input(Fmt_FP32, 1, vsh, -2, 2);
    set_case(c, name, x->f, 4, x->shape, s0, s1, bn_compute, x);
    sh_run_case(c, &g_ddr);
}

static void batchnorm_shards(void **state) {
    (void)state;
    begin(0xB7);
    sh_case c;
    bn_ctx h = {Fmt_FP32, {2, 23, 5, 12}, 0, {0}};
    bn_case(&c, &h, "op_batchnorm_inference fp32 [2,23,5,12], H", 1, -1);
    bn_ctx wc = {Fmt_BF16, {2, 6, 9, 40}, 0, {0}};
    bn_case(&c, &wc, "op_batchnorm_inference bf16 [2,6,9,40], W x C", 2, 3);
    bn_ctx n = {Fmt_FP16, {19, 2, 3, 10}, 0, {0}};
    bn_case(&c, &n, "op_batchnorm_inference fp16 [19,2,3,10], N", 0, -1);
}

/* ================================ permute ================================ */
typedef struct perm_ctx {
    Data_Format f;
    int32_t dim, shape[4], perm[4];
    uint64_t in;
} perm_ctx;

static int perm_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const perm_ctx *x = (const perm_ctx *)c->ctx;
    int32_t s[4], n[4];
    for (int32_t k = 0; k < x->dim; ++k) s[x->perm[k]] = ob->start[k], n[x->perm[k]] = ob->size[k];
    sh_tsr in, o;
    if (sh_load(r, &in, x->f, x->in, x->dim, x->shape, s, n)) return -1;
    if (sh_spm(r, &o, x->f, x->dim, c->whole, ob->start, ob->size)) return -1;
    PERMUTE_PARAM p;
    memset(&p, 0, sizeof p);
    for (int32_t k = 0; k < x->dim; ++k) p.perm[k] = x->perm[k];
    SH_DO(r, "op_permute", op_permute(&p, &in.t, &o.t));
    return sh_store(r, &o, dst);
}

static void perm_case(sh_case *c, perm_ctx *x, const char *name, int32_t s0, int32_t s1) {
    int32_t out[4];
    for (int32_t k = 0; k < x->dim; ++k) out[k] = x->shape[x->perm[k]];
    x->in = put_input(x->f, x->dim, x->shape, -9, 9);
    set_case(c, name, x->f, x->dim, out, s0, s1, perm_compute, x);
    sh_run_case(c, &g_ddr);
}

static void permute_output_dims(void **state) {
    (void)state;
    begin(0x9E);
    sh_case c;
    perm_ctx nchw = {Fmt_FP32, 4, {2, 7, 9, 12}, {0, 3, 1, 2}, 0};
    perm_case(&c, &nchw, "op_permute fp32 [2,7,9,12] {0,3,1,2} -> [2,12,7,9], out dims 1 x 3", 1, 3);
    perm_ctx t2 = {Fmt_FP16, 2, {37, 23}, {1, 0}, 0};
    perm_case(&c, &t2, "op_permute fp16 transpose [37,23] -> [23,37], out dim 1", 1, -1);
    perm_ctx p3 = {Fmt_BF16, 3, {5, 18, 6}, {2, 0, 1}, 0};
    perm_case(&c, &p3, "op_permute bf16 [5,18,6] {2,0,1} -> [6,5,18], out dims 1 x 2", 1, 2);
}

/* ================================ concat ================================ */
enum { CAT_MAX = 4 };
typedef struct cat_ctx {
    Data_Format f;
    int32_t dim, axis, count;
    int32_t shape[CAT_MAX][4];
    uint64_t in[CAT_MAX];
} cat_ctx;

static int cat_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const cat_ctx *x = (const cat_ctx *)c->ctx;
    const int32_t ax = x->axis, o0 = ob->start[ax], o1 = o0 + ob->size[ax];
    sh_tsr parts[CAT_MAX], o;
    TSR *ptrs[CAT_MAX];
    uint32_t count = 0;
    for (int32_t i = 0, off = 0; i < x->count; off += x->shape[i][ax], ++i) {
        const int32_t lo = max_i32(o0, off), hi = min_i32(o1, off + x->shape[i][ax]);
        if (hi <= lo) continue; /* input i has nothing in this shard */
        int32_t s[4], n[4];
        for (int32_t k = 0; k < x->dim; ++k) s[k] = ob->start[k], n[k] = ob->size[k];
        s[ax] = lo - off, n[ax] = hi - lo;
        if (sh_load(r, &parts[count], x->f, x->in[i], x->dim, x->shape[i], s, n)) return -1;
        ptrs[count] = &parts[count].t;
        ++count;
    }
    if (sh_spm(r, &o, x->f, x->dim, c->whole, ob->start, ob->size)) return -1;
    CONCAT_PARAM p = {(uint32_t)ax, count};
    SH_DO(r, "op_concat", op_concat(&p, ptrs, &o.t));
    return sh_store(r, &o, dst);
}

static void cat_case(sh_case *c, cat_ctx *x, const char *name, int32_t s0, int32_t s1) {
    int32_t out[4];
    for (int32_t k = 0; k < x->dim; ++k) out[k] = x->shape[0][k];
    out[x->axis] = 0;
    for (int32_t i = 0; i < x->count; ++i) {
        x->in[i] = put_input(x->f, x->dim, x->shape[i], -9, 9);
        out[x->axis] += x->shape[i][x->axis];
    }
    set_case(c, name, x->f, x->dim, out, s0, s1, cat_compute, x);
    sh_run_case(c, &g_ddr);
}

static void concat_shards(void **state) {
    (void)state;
    begin(0xCC);
    sh_case c;
    /* along axis 2 (widths 3, 1, 7, 4), 4x4 over dim 1 and the concat axis: shards take parts of 1..3 inputs */
    cat_ctx a = {Fmt_FP32, 4, 2, 4, {{2, 5, 3, 6}, {2, 5, 1, 6}, {2, 5, 7, 6}, {2, 5, 4, 6}}, {0}};
    cat_case(&c, &a, "op_concat fp32 axis 2 of [2,5,{3,1,7,4},6], dim 1 x axis", 1, 2);
    /* along axis 0 (extents 9, 2, 14), 16 parts of the concat axis */
    cat_ctx b = {Fmt_FP16, 2, 0, 3, {{9, 13}, {2, 13}, {14, 13}}, {0}};
    cat_case(&c, &b, "op_concat fp16 axis 0 of [{9,2,14},13], axis", 0, -1);
    /* along axis 1, 16 parts of the other dim */
    cat_ctx d = {Fmt_BF16, 3, 1, 2, {{33, 4, 3}, {33, 5, 3}}, {0}};
    cat_case(&c, &d, "op_concat bf16 axis 1 of [33,{4,5},3], dim 0", 0, -1);
}

/* ================================ slice ================================ */
typedef struct slice_ctx {
    Data_Format f;
    int32_t dim, shape[4], out[4];
    SLICE_PARAM p;
    uint64_t in;
} slice_ctx;

static int slice_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const slice_ctx *x = (const slice_ctx *)c->ctx;
    SLICE_PARAM p = x->p;
    int32_t s[4], n[4];
    for (int32_t k = 0; k < x->dim; ++k) {
        /* the shard's output indices read input first .. last (in index order: first > last for a negative step) */
        const int32_t first = x->p.start[k] + ob->start[k] * x->p.step[k];
        const int32_t last = x->p.start[k] + (ob->start[k] + ob->size[k] - 1) * x->p.step[k];
        s[k] = min_i32(first, last), n[k] = max_i32(first, last) - s[k] + 1;
        p.start[k] = first - s[k];
    }
    sh_tsr in, o;
    if (sh_load(r, &in, x->f, x->in, x->dim, x->shape, s, n)) return -1;
    if (sh_spm(r, &o, x->f, x->dim, c->whole, ob->start, ob->size)) return -1;
    SH_DO(r, "op_slice", op_slice(&p, &in.t, &o.t));
    return sh_store(r, &o, dst);
}

static void slice_shards(void **state) {
    (void)state;
    begin(0x51);
    sh_case c;
    sh_case c2;
    /* out[i,j,k] = in[2 + i, 27 - 2j, 1]: a window, a reversed stride and a repeated element, 4x4 over dims 0, 1 */
    slice_ctx a = {Fmt_FP16, 3, {20, 30, 4}, {15, 13, 3}, {{2, 27, 1}, {1, -2, 0}}, 0};
    a.in = put_input(a.f, a.dim, a.shape, -9, 9);
    set_case(&c, "op_slice fp16 [20,30,4] start {2,27,1} step {1,-2,0} -> [15,13,3], dims 0 x 1", a.f, a.dim, a.out,
             0, 1, slice_compute, &a);
    sh_run_case(&c, &g_ddr);
    /* out[i,j] = in[1 + 3i, j + 2]: stride 3, 16 parts of dim 0 */
    slice_ctx b = {Fmt_FP32, 2, {70, 9}, {23, 5}, {{1, 2}, {3, 1}}, 0};
    b.in = put_input(b.f, b.dim, b.shape, -9, 9);
    set_case(&c2, "op_slice fp32 [70,9] start {1,2} step {3,1} -> [23,5], dim 0", b.f, b.dim, b.out, 0, -1,
             slice_compute, &b);
    sh_run_case(&c2, &g_ddr);
}

/* ================================ pad ================================ */
typedef struct pad_ctx {
    Data_Format f;
    int32_t dim, shape[4];
    PAD_PARAM p;
    uint64_t in;
} pad_ctx;

/* Along each dim the shard [o0, o0 + n) of the output meets in's interior [b, b + S) in [lo, hi): it loads that
 * part of in and pads it with lo - o0 before and o0 + n - hi after. PAD_EDGE pads with in's first / last
 * element, which the shard then holds, since lo - o0 > 0 means lo = b (in's index 0), and likewise at the end;
 * a shard wholly inside an edge pad loads just that first / last element and pads it n - 1 times.
 * PAD_REFLECT needs the elements the mirror reaches, which a shard may not hold: its cases split only dims without
 * pads (a reflect pad along a split dim would be op_slice with a negative step, not op_pad).
 * PAD_CONSTANT: a shard wholly inside the pad has no part of in, and op_pad takes no empty tensor (extents >= 1).
 * The tile then pads a 1-element-thick part of in (in's first element along that dim, n + 1 thick with the pad)
 * and op_slice cuts the n pad elements out of it. */
static int pad_compute(const sh_case *c, const tx8_box *ob, uint64_t dst, sh_run *r) {
    const pad_ctx *x = (const pad_ctx *)c->ctx;
    PAD_PARAM p = x->p;
    int32_t s[4], n[4], tmp[4], cut[4], need_cut = 0;
    for (int32_t k = 0; k < x->dim; ++k) {
        const int32_t o0 = ob->start[k], o1 = o0 + ob->size[k], b = x->p.begin[k], S = x->shape[k];
        const int32_t lo = max_i32(o0, b), hi = min_i32(o1, b + S);
        tmp[k] = ob->size[k], cut[k] = 0;
        if (x->p.mode == PAD_REFLECT && (o0 != 0 || o1 != c->whole[k]) && (b || x->p.end[k]))
            return r->failed = "pad_compute: a PAD_REFLECT case splits a padded dim", -1;
        if (hi > lo) {
            s[k] = lo - b, n[k] = hi - lo, p.begin[k] = lo - o0, p.end[k] = o1 - hi;
        } else if (x->p.mode == PAD_EDGE) {
            s[k] = o1 <= b ? 0 : S - 1, n[k] = 1;
            p.begin[k] = o1 <= b ? ob->size[k] - 1 : 0, p.end[k] = o1 <= b ? 0 : ob->size[k] - 1;
        } else { /* PAD_CONSTANT, wholly inside the pad */
            s[k] = 0, n[k] = 1, p.begin[k] = ob->size[k], p.end[k] = 0, tmp[k] = ob->size[k] + 1, need_cut = 1;
        }
    }
    sh_tsr in, o, t;
    if (sh_load(r, &in, x->f, x->in, x->dim, x->shape, s, n)) return -1;
    if (sh_spm(r, &o, x->f, x->dim, c->whole, ob->start, ob->size)) return -1;
    if (!need_cut) {
        SH_DO(r, "op_pad", op_pad(&p, &in.t, &o.t));
    } else {
        if (sh_spm(r, &t, x->f, x->dim, tmp, NULL, NULL)) return -1;
        SH_DO(r, "op_pad", op_pad(&p, &in.t, &t.t));
        SLICE_PARAM sl;
        memset(&sl, 0, sizeof sl);
        for (int32_t k = 0; k < x->dim; ++k) sl.start[k] = cut[k], sl.step[k] = 1;
        SH_DO(r, "op_slice", op_slice(&sl, &t.t, &o.t));
    }
    return sh_store(r, &o, dst);
}

static void pad_case(sh_case *c, pad_ctx *x, const char *name, int32_t s0, int32_t s1) {
    int32_t out[4];
    for (int32_t k = 0; k < x->dim; ++k) out[k] = x->shape[k] + x->p.begin[k] + x->p.end[k];
    x->in = put_input(x->f, x->dim, x->shape, -9, 9);
    set_case(c, name, x->f, x->dim, out, s0, s1, pad_compute, x);
    sh_run_case(c, &g_ddr);
}

static void pad_shards(void **state) {
    (void)state;
    begin(0x9AD);
    sh_case c;
    /* edge pads on H (3, 2) and W (1, 2): out [2,16,8,3], 4x4 over both padded dims, corner shards in the pad */
    pad_ctx e = {Fmt_FP32, 4, {2, 11, 5, 3}, {PAD_EDGE, {0, 3, 1, 0}, {0, 2, 2, 0}, 0.f}, 0};
    pad_case(&c, &e, "op_pad EDGE fp32 [2,11,5,3] H 3+2 W 1+2 -> [2,16,8,3], H x W", 1, 2);
    /* constant 1.5 pads on dim 0 (4, 5) and dim 1 (1, 0): out [28,8], 16 parts of dim 0, some wholly in the pad */
    pad_ctx k = {Fmt_BF16, 2, {19, 7}, {PAD_CONSTANT, {4, 1}, {5, 0}, 1.5f}, 0};
    pad_case(&c, &k, "op_pad CONSTANT bf16 [19,7] 4+5, 1+0 -> [28,8], dim 0", 0, -1);
    /* reflect pads on dims 1 (2, 3) and 2 (2, 1): out [12,15,9], 16 parts of the unpadded dim 0 */
    pad_ctx rf = {Fmt_FP16, 3, {12, 10, 6}, {PAD_REFLECT, {0, 2, 2}, {0, 3, 1}, 0.f}, 0};
    pad_case(&c, &rf, "op_pad REFLECT fp16 [12,10,6] 2+3, 2+1 -> [12,15,9], dim 0", 0, -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(eltwise_binary_broadcast, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(unary_ops, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cast_ops, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(softmax_rows, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(reduce_kept_dims, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(pool_windows, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(conv_output_rows, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(conv_output_channels, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(gemm_grid, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(batchnorm_shards, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(permute_output_dims, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(concat_shards, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(slice_shards, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(pad_shards, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

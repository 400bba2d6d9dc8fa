/*
 * op_conv against a naive double-precision reference: fixed cases (by hand, 1x1, 3x3 pad 1, stride 2, dilation 2,
 * groups, depthwise, bias, relu, 1-D, asymmetric pads, accumulate) in every input format, seeded random cases,
 * tiling past TSM_NE_CONV_MAX_M/N/K (bit-identical to one big NE instruction, cycles = sum of the tiles), cycles
 * never below MACs / configured rate, and bad input (the fault names op and argument; nothing is written).
 *
 * Tolerance: the inputs are exact in their format (the test quantizes them first), so the double reference's sum
 * of exact products differs from the NE result only by fp32 accumulation: |got - ref| <= (K+2) * 2^-24 * sum|terms|
 * for every float format (K terms + bias + product roundings), and 0 for int8 (exact int32; no wrap at these sizes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

#define SENTINEL 0xA5u
#define GUARD 256u

typedef struct conv_spec {
    Data_Format fmt;
    int one_d;                      /* rank-3 tensors [N,W,C], H = KH = 1 */
    uint32_t n, h, w, c, kh, kw, o; /* in [n,h,w,c], weight [kh,kw,c/group,o] */
    uint32_t group, sh, sw, dh, dw;
    int32_t pt, pl, pb, pr;
    uint32_t bias, relu, accumulate;
} conv_spec;

typedef struct conv_bufs {
    uint32_t oh, ow, cg, og, k;              /* derived */
    size_t n_in, n_w, n_out;                 /* elements */
    uint64_t in, wt, bias, out, out_bytes;   /* SPM addresses */
    L_SHAPE s_in, s_w, s_bias, s_out;
    TSR t_in, t_w, t_bias, t_out;
} conv_bufs;

static Data_Format out_fmt_of(Data_Format f) { return f == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32; }
static uint64_t up256(uint64_t x) { return (x + 255) / 256 * 256; }

static uint64_t rate_of(Data_Format f) {
    const tx8_hw_config *c = tx8_hal_config();
    return f == Fmt_FP32 ? c->ne_macs_per_cycle_fp32 : f == Fmt_TF32 ? c->ne_macs_per_cycle_tf32
         : f == Fmt_BF16 ? c->ne_macs_per_cycle_bf16 : f == Fmt_FP16 ? c->ne_macs_per_cycle_fp16
         : c->ne_macs_per_cycle_int8;
}

/* One NE conv instruction's cycles (cm_cycles.h, written out again): groups x the im2col GEMM's padded steps. */
static uint64_t instr_cycles(Data_Format f, uint64_t groups, uint64_t m, uint64_t k, uint64_t n) {
    const uint64_t steps = groups * ((m + 7) / 8) * ((k + 15) / 16) * ((n + 7) / 8), r = rate_of(f);
    return tx8_hal_config()->ne_startup_cycles + (steps * 1024 + r - 1) / r;
}

static void lshape(L_SHAPE *s, const int32_t *v, int32_t dim) { assert_int_equal(tx8_lshape_init(s, v, dim), 0); }

/* Derives the output extent, places in | weight | bias | out (with guards) in SPM and builds the TSRs. */
static void setup_bufs(const conv_spec *cs, conv_bufs *b) {
    memset(b, 0, sizeof *b);
    b->oh = (cs->h + cs->pt + cs->pb - cs->dh * (cs->kh - 1) - 1) / cs->sh + 1;
    b->ow = (cs->w + cs->pl + cs->pr - cs->dw * (cs->kw - 1) - 1) / cs->sw + 1;
    b->cg = cs->c / cs->group, b->og = cs->o / cs->group, b->k = cs->kh * cs->kw * b->cg;
    b->n_in = (size_t)cs->n * cs->h * cs->w * cs->c;
    b->n_w = (size_t)cs->kh * cs->kw * b->cg * cs->o;
    b->n_out = (size_t)cs->n * b->oh * b->ow * cs->o;
    const uint32_t eb = tx8_format_bytes(cs->fmt);
    b->in = GUARD;
    b->wt = b->in + up256(b->n_in * eb) + GUARD;
    b->bias = b->wt + up256(b->n_w * eb) + GUARD;
    b->out = b->bias + up256(cs->o * 4ull) + GUARD;
    b->out_bytes = b->n_out * 4;
    assert_true(b->out + b->out_bytes + GUARD <= tx8_hal_config()->spm_bytes);
    const Data_Format of = out_fmt_of(cs->fmt);
    if (cs->one_d) {
        const int32_t si[3] = {(int32_t)cs->n, (int32_t)cs->w, (int32_t)cs->c};
        const int32_t sw[3] = {(int32_t)cs->kw, (int32_t)b->cg, (int32_t)cs->o};
        const int32_t so[3] = {(int32_t)cs->n, (int32_t)b->ow, (int32_t)cs->o};
        lshape(&b->s_in, si, 3), lshape(&b->s_w, sw, 3), lshape(&b->s_out, so, 3);
    } else {
        const int32_t si[4] = {(int32_t)cs->n, (int32_t)cs->h, (int32_t)cs->w, (int32_t)cs->c};
        const int32_t sw[4] = {(int32_t)cs->kh, (int32_t)cs->kw, (int32_t)b->cg, (int32_t)cs->o};
        const int32_t so[4] = {(int32_t)cs->n, (int32_t)b->oh, (int32_t)b->ow, (int32_t)cs->o};
        lshape(&b->s_in, si, 4), lshape(&b->s_w, sw, 4), lshape(&b->s_out, so, 4);
    }
    const int32_t sb[1] = {(int32_t)cs->o};
    lshape(&b->s_bias, sb, 1);
    b->t_in = (TSR){cs->fmt, b->in, &b->s_in};
    b->t_w = (TSR){cs->fmt, b->wt, &b->s_w};
    b->t_bias = (TSR){of, b->bias, &b->s_bias};
    b->t_out = (TSR){of, b->out, &b->s_out};
}

static CONV_PARAM param_of(const conv_spec *cs) {
    CONV_PARAM p;
    memset(&p, 0, sizeof p);
    p.layout = cs->n == 1 ? LAYOUT_TENSOR : LAYOUT_NTENSOR;
    p.stride_h = cs->sh, p.stride_w = cs->sw, p.dilation_h = cs->dh, p.dilation_w = cs->dw;
    p.pad_top = cs->pt, p.pad_left = cs->pl, p.pad_bottom = cs->pb, p.pad_right = cs->pr;
    p.group = cs->group, p.accumulate = cs->accumulate, p.relu_en = cs->relu;
    return p;
}

static void fill_spm(uint64_t addr, uint64_t bytes, uint8_t v) {
    uint8_t *buf = malloc(bytes);
    memset(buf, v, bytes);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, buf, bytes), 0);
    free(buf);
}

static void assert_spm_is(uint64_t addr, uint64_t bytes, uint8_t v, const char *what) {
    uint8_t *buf = malloc(bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, buf, bytes), 0);
    for (uint64_t i = 0; i < bytes; ++i)
        if (buf[i] != v) {
            print_error("%s: byte %llu was overwritten\n", what, (unsigned long long)i);
            fail();
        }
    free(buf);
}

static void random_values(tx8_rng *r, Data_Format f, double *v, size_t n, double lo, double hi) {
    for (size_t i = 0; i < n; ++i)
        v[i] = f == Fmt_INT8 ? tx8_rng_int(r, -128, 127)
             : f == Fmt_INT32 ? tx8_rng_int(r, -100000, 100000) : tx8_rng_uniform(r, lo, hi);
    tx8_test_quantize(f, v, n);
}

/* The naive reference for out element i = (n, y, x, o), in double; *mag = sum of |terms| (for the bound). */
static double ref_elem(const conv_spec *cs, const conv_bufs *b, const double *in, const double *w, const double *bias,
                       const double *out0, size_t i, double *mag) {
    const uint32_t o = (uint32_t)(i % cs->o), x = (uint32_t)(i / cs->o % b->ow);
    const uint32_t y = (uint32_t)(i / cs->o / b->ow % b->oh), n = (uint32_t)(i / cs->o / b->ow / b->oh);
    const uint32_t grp = o / b->og;
    double acc = cs->accumulate ? out0[i] : 0.0;
    *mag = fabs(acc);
    for (uint32_t kh = 0; kh < cs->kh; ++kh)
        for (uint32_t kw = 0; kw < cs->kw; ++kw) {
            const int64_t ih = (int64_t)y * cs->sh - cs->pt + (int64_t)kh * cs->dh;
            const int64_t iw = (int64_t)x * cs->sw - cs->pl + (int64_t)kw * cs->dw;
            if (ih < 0 || ih >= cs->h || iw < 0 || iw >= cs->w) continue; /* zero padding */
            for (uint32_t c = 0; c < b->cg; ++c) {
                const double t = in[(((size_t)n * cs->h + ih) * cs->w + iw) * cs->c + grp * b->cg + c] *
                                 w[(((size_t)kh * cs->kw + kw) * b->cg + c) * cs->o + o];
                acc += t;
                *mag += fabs(t);
            }
        }
    if (cs->bias) acc += bias[o], *mag += fabs(bias[o]);
    if (cs->relu && acc < 0) acc = 0;
    return acc;
}

/* Real multiply-accumulates: every output element sums k = KH*KW*C/group terms. */
static uint64_t macs_of(const conv_bufs *b) { return (uint64_t)b->n_out * b->k; }

static int g_cases;

/* Stores random inputs, runs op_conv, checks faults, guards, cycles (>= MAC bound; == one instruction's formula
 * when the problem fits one instruction) and the outputs (all, or `samples` random ones when > 0) against the
 * reference. Returns the cycles. */
static uint64_t run_case(tx8_rng *r, const conv_spec *cs, size_t samples) {
    conv_bufs b;
    setup_bufs(cs, &b);
    const Data_Format of = out_fmt_of(cs->fmt);
    double *in = malloc(sizeof(double) * b.n_in), *w = malloc(sizeof(double) * b.n_w);
    double *bias = malloc(sizeof(double) * cs->o), *out0 = malloc(sizeof(double) * b.n_out);
    double *got = malloc(sizeof(double) * b.n_out);
    random_values(r, cs->fmt, in, b.n_in, -2, 2);
    random_values(r, cs->fmt, w, b.n_w, -1, 1);
    random_values(r, of, bias, cs->o, -4, 4);
    random_values(r, of, out0, b.n_out, -4, 4);
    tx8_test_spm_store(b.in, cs->fmt, in, b.n_in);
    tx8_test_spm_store(b.wt, cs->fmt, w, b.n_w);
    tx8_test_spm_store(b.bias, of, bias, cs->o);
    fill_spm(b.out - GUARD, GUARD, SENTINEL);
    fill_spm(b.out + b.out_bytes, GUARD, SENTINEL);
    tx8_test_spm_store(b.out, of, out0, b.n_out);

    CONV_PARAM p = param_of(cs);
    const uint64_t cyc = op_conv(&p, &b.t_in, &b.t_w, cs->bias ? &b.t_bias : NULL, &b.t_out);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_spm_is(b.out - GUARD, GUARD, SENTINEL, "guard before out");
    assert_spm_is(b.out + b.out_bytes, GUARD, SENTINEL, "guard after out");

    const uint64_t rate = rate_of(cs->fmt);
    const uint64_t bound = tx8_hal_config()->ne_startup_cycles + (macs_of(&b) + rate - 1) / rate;
    if (cyc < bound) {
        print_error("cycles %llu below the MAC bound %llu\n", (unsigned long long)cyc, (unsigned long long)bound);
        fail();
    }
    const uint64_t m = (uint64_t)cs->n * b.oh * b.ow;
    if (m <= TSM_NE_CONV_MAX_M && b.og <= TSM_NE_CONV_MAX_N && b.k <= TSM_NE_CONV_MAX_K && cs->o <= TSM_NE_CONV_MAX_N)
        assert_int_equal(cyc, instr_cycles(cs->fmt, cs->group, m, b.k, b.og));

    tx8_test_spm_load(b.out, of, got, b.n_out);
    const size_t checks = samples ? samples : b.n_out;
    for (size_t s = 0; s < checks; ++s) {
        const size_t i = samples ? (size_t)(tx8_rng_next(r) % b.n_out) : s;
        double mag;
        const double want = ref_elem(cs, &b, in, w, bias, out0, i, &mag);
        const double tol = of == Fmt_INT32 ? 0.0 : (b.k + 2) * ldexp(1.0, -24) * mag + 1e-30;
        if (!(fabs(got[i] - want) <= tol)) {
            print_error("%s %s conv N%u H%u W%u C%u -> O%u k%ux%u s%u,%u d%u,%u p%d,%d,%d,%d g%u: out[%zu] = %.9g, "
                        "reference %.9g, tolerance %.3g\n", tx8_format_name(cs->fmt), cs->one_d ? "1-D" : "2-D",
                        cs->n, cs->h, cs->w, cs->c, cs->o, cs->kh, cs->kw, cs->sh, cs->sw, cs->dh, cs->dw, cs->pt,
                        cs->pl, cs->pb, cs->pr, cs->group, i, got[i], want, tol);
            fail();
        }
    }
    free(in), free(w), free(bias), free(out0), free(got);
    ++g_cases;
    return cyc;
}

/* ---- fixed cases ---- */

static void by_hand(void **state) {
    (void)state;
    /* 4x4 image 1..16, 3x3 kernel of ones, pad 1, stride 2, bias 100: sums of the 3x3 neighbourhoods at (0,0),
     * (0,2), (2,0), (2,2) */
    double in[16], w[9], bias = 100;
    for (int i = 0; i < 16; ++i) in[i] = i + 1;
    for (int i = 0; i < 9; ++i) w[i] = 1;
    const conv_spec cs = {Fmt_FP32, 0, 1, 4, 4, 1, 3, 3, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    conv_bufs b;
    setup_bufs(&cs, &b);
    assert_int_equal(b.oh, 2);
    tx8_test_spm_store(b.in, Fmt_FP32, in, 16);
    tx8_test_spm_store(b.wt, Fmt_FP32, w, 9);
    b.t_bias.addr = 0; /* address 0 is a real address, not "no bias" */
    tx8_test_spm_store(0, Fmt_FP32, &bias, 1);
    CONV_PARAM p = param_of(&cs);
    /* one instruction: M = 4 pixels -> 1 step, K = 9 -> 1, N = 1 -> 1: 1024 MACs at 656/cycle -> 2 cycles */
    assert_int_equal(op_conv(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out), 32 + 2);
    double got[4];
    tx8_test_spm_load(b.out, Fmt_FP32, got, 4);
    /* (0,0): 1+2+5+6; (0,2): 2+3+4+6+7+8; (2,0): 5+6+9+10+13+14; (2,2): 6+7+8+10+11+12+14+15+16 */
    const double want[4] = {114, 130, 157, 199};
    assert_memory_equal(got, want, sizeof got);
}

static const Data_Format k_formats[5] = {Fmt_FP32, Fmt_TF32, Fmt_BF16, Fmt_FP16, Fmt_INT8};

static void fixed_cases_all_formats(void **state) {
    (void)state;
    /* fmt (set per run), 1-D, n h w c kh kw o, group sh sw dh dw, pt pl pb pr, bias relu accumulate */
    static const struct { const char *name; conv_spec cs; } cases[] = {
        {"1x1", {Fmt_FP32, 0, 2, 3, 4, 5, 1, 1, 6, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}},
        {"3x3 pad 1", {Fmt_FP32, 0, 1, 6, 7, 3, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}},
        {"stride 2", {Fmt_FP32, 0, 1, 7, 8, 3, 3, 3, 4, 1, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0}},
        {"dilation 2", {Fmt_FP32, 0, 1, 8, 8, 2, 3, 3, 3, 1, 1, 1, 2, 2, 2, 2, 2, 2, 0, 0, 0}},
        {"groups 2", {Fmt_FP32, 0, 1, 5, 5, 6, 3, 3, 4, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}},
        {"depthwise", {Fmt_FP32, 0, 2, 5, 6, 5, 3, 3, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}},
        {"depthwise x2", {Fmt_FP32, 0, 1, 6, 6, 4, 3, 3, 8, 4, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0}},
        {"bias", {Fmt_FP32, 0, 1, 4, 4, 3, 3, 3, 5, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0}},
        {"relu", {Fmt_FP32, 0, 1, 4, 5, 3, 3, 3, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0}},
        {"bias relu", {Fmt_FP32, 0, 2, 4, 4, 4, 2, 2, 3, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0}},
        {"1-D", {Fmt_FP32, 1, 2, 1, 9, 3, 1, 3, 4, 1, 1, 2, 1, 1, 0, 1, 0, 2, 1, 0, 0}},
        {"1-D dilated depthwise", {Fmt_FP32, 1, 1, 1, 12, 4, 1, 3, 4, 4, 1, 1, 1, 3, 0, 3, 0, 3, 0, 1, 0}},
        {"asymmetric pads", {Fmt_FP32, 0, 1, 5, 6, 2, 3, 2, 3, 1, 1, 2, 1, 1, 0, 1, 2, 0, 1, 0, 0}},
        {"kernel 5x5 stride 3", {Fmt_FP32, 0, 1, 11, 10, 2, 5, 5, 3, 1, 3, 3, 1, 1, 2, 2, 2, 2, 0, 0, 0}},
        {"accumulate", {Fmt_FP32, 0, 1, 4, 4, 3, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
    };
    tx8_rng r;
    tx8_rng_seed(&r, 5);
    int n = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int f = 0; f < 5; ++f) {
            conv_spec cs = cases[i].cs;
            cs.fmt = k_formats[f];
            run_case(&r, &cs, 0);
            ++n;
        }
    printf("[ op_conv ] %d fixed cases (%zu shapes x 5 formats) within the fp32-accumulation bound\n", n,
           sizeof cases / sizeof cases[0]);
}

static void random_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xC0Eu);
    int n = 0;
    for (int t = 0; t < 60; ++t) {
        conv_spec cs;
        memset(&cs, 0, sizeof cs);
        cs.fmt = k_formats[t % 5];
        cs.one_d = t % 4 == 3;
        cs.n = (uint32_t)tx8_rng_int(&r, 1, 2);
        cs.group = (uint32_t)(t % 3 == 2 ? tx8_rng_int(&r, 2, 4) : 1);
        const int depthwise = t % 6 == 5;
        cs.c = depthwise ? cs.group : cs.group * (uint32_t)tx8_rng_int(&r, 1, 6);
        cs.o = cs.group * (uint32_t)tx8_rng_int(&r, 1, depthwise ? 2 : 6);
        cs.kh = cs.one_d ? 1 : (uint32_t)tx8_rng_int(&r, 1, 3);
        cs.kw = (uint32_t)tx8_rng_int(&r, 1, 3);
        cs.sh = cs.one_d ? 1 : (uint32_t)tx8_rng_int(&r, 1, 2), cs.sw = (uint32_t)tx8_rng_int(&r, 1, 3);
        cs.dh = cs.one_d ? 1 : (uint32_t)tx8_rng_int(&r, 1, 2), cs.dw = (uint32_t)tx8_rng_int(&r, 1, 2);
        cs.pt = cs.one_d ? 0 : tx8_rng_int(&r, 0, 2), cs.pb = cs.one_d ? 0 : tx8_rng_int(&r, 0, 2);
        cs.pl = tx8_rng_int(&r, 0, 2), cs.pr = tx8_rng_int(&r, 0, 2);
        cs.h = cs.one_d ? 1 : (uint32_t)tx8_rng_int(&r, 1, 8), cs.w = (uint32_t)tx8_rng_int(&r, 1, cs.one_d ? 16 : 8);
        /* the dilated kernel must fit the padded input */
        while (cs.h + cs.pt + cs.pb < cs.dh * (cs.kh - 1) + 1) ++cs.h;
        while (cs.w + cs.pl + cs.pr < cs.dw * (cs.kw - 1) + 1) ++cs.w;
        cs.bias = (uint32_t)tx8_rng_int(&r, 0, 1), cs.relu = (uint32_t)tx8_rng_int(&r, 0, 1);
        cs.accumulate = (uint32_t)(tx8_rng_int(&r, 0, 3) == 0);
        run_case(&r, &cs, 0);
        ++n;
    }
    printf("[ op_conv ] %d random cases within the fp32-accumulation bound\n", n);
}

/* ---- tiling: op_conv vs one big NE instruction, bit for bit ---- */

/* Runs cs through op_conv, then the same problem as one NE instruction into a second buffer; asserts equal bytes
 * and returns op_conv's cycles (*one_cycles: the single instruction's). Outputs are checked against the reference
 * on `samples` random elements (0: all). */
static uint64_t tiled_vs_one(tx8_rng *r, const conv_spec *cs, size_t samples, uint64_t *one_cycles) {
    const uint64_t cyc = run_case(r, cs, samples);
    conv_bufs b;
    setup_bufs(cs, &b);
    const uint64_t out2 = b.out + up256(b.out_bytes) + GUARD;
    assert_true(out2 + b.out_bytes <= tx8_hal_config()->spm_bytes);
    Ncc_NE_GR_Conv_Regs g;
    memset(&g, 0, sizeof g);
    g.batch = cs->n, g.in_h = cs->h, g.in_w = cs->w, g.in_c = cs->c;
    g.out_h = b.oh, g.out_w = b.ow, g.out_c = cs->o, g.groups = cs->group;
    g.kernel_h = cs->kh, g.kernel_w = cs->kw, g.stride_h = cs->sh, g.stride_w = cs->sw;
    g.dilation_h = cs->dh, g.dilation_w = cs->dw, g.pad_top = cs->pt, g.pad_left = cs->pl;
    TsmNe_conv_compact_pitches(&g);
    assert_int_equal(cs->accumulate, 0); /* the second buffer has no starting value to accumulate onto */
    TsmNeInstr p;
    const Data_Format of = out_fmt_of(cs->fmt);
    TsmNe_conv(&p, b.in, b.wt, b.bias, out2, &g, cs->fmt, of, 0, cs->bias, cs->relu);
    *one_cycles = TsmExecute(&p);
    assert_true(*one_cycles != TX8_CYCLES_INVALID);
    uint8_t *x = malloc(b.out_bytes), *y = malloc(b.out_bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, b.out, x, b.out_bytes), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, out2, y, b.out_bytes), 0);
    assert_memory_equal(x, y, b.out_bytes);
    free(x), free(y);
    assert_true(cyc >= *one_cycles); /* tiles only add startups and step padding */
    return cyc;
}

static void tiling_is_bit_exact(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 17);
    uint64_t one, cyc;
    /* fmt 1-D n h w c kh kw o group sh sw dh dw pt pl pb pr bias relu acc */
    /* M: output rows (130x130 stride 2 -> 65x65 = 4225 pixels > 4096) */
    const conv_spec rows = {Fmt_FP32, 0, 1, 130, 130, 2, 3, 3, 3, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0};
    cyc = tiled_vs_one(&r, &rows, 256, &one);
    /* 63 rows (4095 pixels) + 2 rows (130 pixels); K = 18, N = 3 */
    assert_int_equal(cyc, instr_cycles(Fmt_FP32, 1, 63 * 65, 18, 3) + instr_cycles(Fmt_FP32, 1, 2 * 65, 18, 3));
    /* M: output columns of one row (1-D, W = 8400, stride 2, dilation 2 -> 4199 columns) and two images */
    const conv_spec cols = {Fmt_BF16, 1, 2, 1, 8400, 1, 1, 3, 2, 1, 1, 2, 1, 2, 0, 1, 0, 1, 1, 0, 0};
    tiled_vs_one(&r, &cols, 256, &one);
    /* M: whole images (3 x 40x40: two per instruction) */
    const conv_spec imgs = {Fmt_FP16, 0, 3, 40, 40, 2, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0};
    cyc = tiled_vs_one(&r, &imgs, 256, &one);
    assert_int_equal(cyc, instr_cycles(Fmt_FP16, 1, 3200, 18, 2) + instr_cycles(Fmt_FP16, 1, 1600, 18, 2));
    /* K: kernel rows (3x3 dilation 2 over 500 channels = 4500 terms: rows {0,1} then {2}) */
    const conv_spec krows = {Fmt_FP32, 0, 1, 4, 4, 500, 3, 3, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 0};
    cyc = tiled_vs_one(&r, &krows, 0, &one);
    assert_int_equal(cyc, instr_cycles(Fmt_FP32, 1, 16, 3000, 2) + instr_cycles(Fmt_FP32, 1, 16, 1500, 2));
    /* K: kernel columns of one row (1x3 dilation 2 over 2000 channels: columns {0,1} then {2}), int8 */
    const conv_spec kcols = {Fmt_INT8, 1, 1, 1, 8, 2000, 1, 3, 2, 1, 1, 1, 1, 2, 0, 0, 0, 0, 1, 0, 0};
    tiled_vs_one(&r, &kcols, 0, &one);
    /* K: channel runs of one tap (2 groups of 4200 channels, 1x2 kernel): one group per instruction */
    const conv_spec kch = {Fmt_FP16, 0, 1, 2, 2, 8400, 1, 2, 4, 2, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 0};
    cyc = tiled_vs_one(&r, &kch, 0, &one);
    /* per group: taps 0 and 1, channels 4096 + 104 each: 8 instructions of M = 4 pixels, N = 2 */
    assert_int_equal(cyc, 4 * (instr_cycles(Fmt_FP16, 1, 4, 4096, 2) + instr_cycles(Fmt_FP16, 1, 4, 104, 2)));
    /* N: 4100 output channels (4096 + 4) */
    const conv_spec ochan = {Fmt_FP32, 0, 1, 2, 2, 3, 1, 1, 4100, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0};
    cyc = tiled_vs_one(&r, &ochan, 0, &one);
    assert_int_equal(cyc, instr_cycles(Fmt_FP32, 1, 4, 3, 4096) + instr_cycles(Fmt_FP32, 1, 4, 3, 4));
    /* N: 2 groups of 4100 output channels each */
    const conv_spec gch = {Fmt_TF32, 0, 1, 1, 2, 2, 1, 1, 8200, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0};
    tiled_vs_one(&r, &gch, 0, &one);
    /* N: depthwise over 5000 channels: 4096 groups, then 904 */
    const conv_spec dw = {Fmt_BF16, 0, 1, 3, 3, 5000, 3, 3, 5000, 5000, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    cyc = tiled_vs_one(&r, &dw, 512, &one);
    assert_int_equal(cyc, instr_cycles(Fmt_BF16, 4096, 9, 9, 1) + instr_cycles(Fmt_BF16, 904, 9, 9, 1));
}

/* A ResNet-style layer, 1x28x28x32 3x3 pad 1 -> 32 (bias, relu), in fp32 and bf16: one instruction, cycles against
 * the MAC bound (printed), 200 sampled outputs against the reference. (The 56x56x64 layer's cycles are checked
 * without executing it in test_ne_conv: 230M MACs would take seconds under QEMU.) */
static void resnet_layer_cycles(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 56);
    const Data_Format fmts[2] = {Fmt_FP32, Fmt_BF16};
    for (int f = 0; f < 2; ++f) {
        const conv_spec cs = {fmts[f], 0, 1, 28, 28, 32, 3, 3, 32, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
        const uint64_t cyc = run_case(&r, &cs, 200);
        const uint64_t macs = 28ull * 28 * 32 * 32 * 9, rate = rate_of(fmts[f]);
        /* 98 x 18 x 4 PE steps, all full: the only overhead is the startup */
        assert_int_equal(cyc, instr_cycles(fmts[f], 1, 784, 288, 32));
        assert_int_equal(cyc, tx8_hal_config()->ne_startup_cycles + (macs + rate - 1) / rate);
        printf("[ op_conv ] 1x28x28x32 3x3 -> 32 %s: %llu cycles, MAC bound %llu (%.4f of peak)\n",
               tx8_format_name(fmts[f]), (unsigned long long)cyc, (unsigned long long)((macs + rate - 1) / rate),
               (double)macs / rate / cyc);
    }
}

/* ---- bad input: the fault names op_conv and the argument; nothing is written, no cycles pass ---- */

static void expect_fault(CONV_PARAM *p, TSR *in, TSR *w, TSR *bias, TSR *out, const conv_bufs *b,
                         const char *needle) {
    fill_spm(b->out, b->out_bytes, SENTINEL);
    const uint64_t cyc0 = tx8_hal_cycles();
    assert_true(op_conv(p, in, w, bias, out) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault(needle);
    assert_spm_is(b->out, b->out_bytes, SENTINEL, needle);
    assert_int_equal(tx8_hal_cycles(), cyc0);
}

static void faults_name_the_argument(void **state) {
    (void)state;
    /* valid: 1x4x4x4 -> 3x3 pad 0 -> 1x2x2x4, group 2 */
    const conv_spec cs = {Fmt_FP32, 0, 1, 4, 4, 4, 3, 3, 4, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0};
    conv_bufs b;
    setup_bufs(&cs, &b);
    const CONV_PARAM ok = param_of(&cs);
    CONV_PARAM p;
    TSR x;
    L_SHAPE s;
    const uint64_t spm = tx8_hal_config()->spm_bytes;

    p = ok;
    {
        const int32_t v[4] = {1, 3, 3, 4};
        lshape(&s, v, 4);
        x = b.t_out, x.shape = &s;
        expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &x, &b,
                     "op_conv: out shape [1,3,3,4], expected [N,OH,OW,O] = [1,2,2,4]");
    }
    p = ok, p.group = 3;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: group 3 does not divide C = 4 and O = 4");
    p = ok, p.group = 0;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: param group = 0");
    p = ok, p.pad_left = -1;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b,
                 "op_conv: param pads (top 0, left -1, bottom 0, right 0) must be >= 0");
    p = ok, p.stride_w = 0;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: param stride_h = 1, stride_w = 0");
    p = ok, p.dilation_h = 0;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: param dilation_h = 0");
    p = ok, p.dilation_h = 2;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b,
                 "op_conv: dilated kernel height 5 is larger than the padded input height 4");
    p = ok, p.relu_en = 2;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: param accumulate = 0 / relu_en = 2");
    p = ok, p.layout = LAYOUT_NCX;
    expect_fault(&p, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: param->layout = NCx, supported Tensor");
    p = ok;
    x = b.t_in, x.addr = spm - 64;
    expect_fault(&p, &x, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: in [0x2fffc0, +256 bytes) is outside SPM");
    x = b.t_w, x.addr = spm;
    expect_fault(&p, &b.t_in, &x, &b.t_bias, &b.t_out, &b, "op_conv: weight [0x300000, +288 bytes) is outside SPM");
    x = b.t_in, x.addr = b.out + 8;
    expect_fault(&p, &x, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: out overlaps in");
    x = b.t_bias, x.addr = b.out;
    expect_fault(&p, &b.t_in, &b.t_w, &x, &b.t_out, &b, "op_conv: out overlaps bias");
    x = b.t_w, x.format = Fmt_BF16;
    expect_fault(&p, &b.t_in, &x, &b.t_bias, &b.t_out, &b,
                 "op_conv: weight->format = bf16 differs from in->format = fp32");
    x = b.t_in, x.format = Fmt_INT32;
    expect_fault(&p, &x, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: in->format = int32, supported fp32, tf32");
    {
        TSR i8 = b.t_in, w8 = b.t_w;
        i8.format = w8.format = Fmt_INT8;
        expect_fault(&p, &i8, &w8, NULL, &b.t_out, &b, "op_conv: out->format = fp32, expected int32 for int8 inputs");
    }
    x = b.t_bias, x.format = Fmt_INT32;
    expect_fault(&p, &b.t_in, &b.t_w, &x, &b.t_out, &b, "op_conv: bias->format = int32, expected fp32");
    {
        const int32_t v[1] = {3};
        lshape(&s, v, 1);
        x = b.t_bias, x.shape = &s;
        expect_fault(&p, &b.t_in, &b.t_w, &x, &b.t_out, &b, "op_conv: bias must have shape [4] or [1,4]");
    }
    {
        const int32_t v[4] = {3, 3, 4, 4}; /* C/group is 2 */
        lshape(&s, v, 4);
        x = b.t_w, x.shape = &s;
        expect_fault(&p, &b.t_in, &x, &b.t_bias, &b.t_out, &b,
                     "op_conv: weight channels (dim 2) = 4, expected C/group = 2");
    }
    {
        const int32_t v[3] = {3, 2, 4};
        lshape(&s, v, 3);
        x = b.t_w, x.shape = &s;
        expect_fault(&p, &b.t_in, &x, &b.t_bias, &b.t_out, &b, "op_conv: weight->shape->dim = 3, expected 4");
    }
    {
        const int32_t v[2] = {16, 4};
        lshape(&s, v, 2);
        x = b.t_in, x.shape = &s;
        expect_fault(&p, &x, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: in->shape->dim = 2, expected 4");
    }
    {
        const int32_t v[4] = {2, 4, 4, 4}; /* N = 2 in layout Tensor */
        lshape(&s, v, 4);
        x = b.t_in, x.shape = &s;
        expect_fault(&p, &x, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: layout Tensor needs N == 1");
    }
    {
        L_SHAPE bad = *b.t_in.shape;
        bad.shape_real[2] = 0;
        x = b.t_in, x.shape = &bad;
        expect_fault(&p, &x, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: in->shape->shape_real[2] = 0, must be > 0");
    }
    expect_fault(&p, &b.t_in, NULL, &b.t_bias, &b.t_out, &b, "op_conv: weight (or its shape) is NULL");
    expect_fault(NULL, &b.t_in, &b.t_w, &b.t_bias, &b.t_out, &b, "op_conv: param is NULL");
    {
        /* 1-D tensors with a vertical pad */
        L_SHAPE si, sw, so;
        const int32_t vi[3] = {1, 4, 4}, vw[3] = {3, 2, 4}, vo[3] = {1, 2, 4};
        lshape(&si, vi, 3), lshape(&sw, vw, 3), lshape(&so, vo, 3);
        TSR i1 = {Fmt_FP32, b.in, &si}, w1 = {Fmt_FP32, b.wt, &sw}, o1 = {Fmt_FP32, b.out, &so};
        p = ok, p.pad_top = 1;
        expect_fault(&p, &i1, &w1, NULL, &o1, &b, "op_conv: 1-D conv (rank-3 tensors) needs stride_h 1");
        p = ok; /* and the same 1-D call without it is fine */
        assert_true(op_conv(&p, &i1, &w1, NULL, &o1) != TX8_CYCLES_INVALID);
        assert_int_equal(tx8_test_faults()->count, 0);
    }
    {
        /* out partly outside SPM: caught before the first tile writes anything */
        L_SHAPE big;
        const int32_t vi[4] = {1, 300, 300, 4}, vo[4] = {1, 298, 298, 4};
        lshape(&s, vi, 4), lshape(&big, vo, 4);
        TSR i2 = {Fmt_FP32, 0, &s}, o2 = {Fmt_FP32, 2000000, &big};
        p = ok;
        expect_fault(&p, &i2, &b.t_w, NULL, &o2, &b, "op_conv: out [0x1e8480, +1420864 bytes) is outside SPM");
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(by_hand, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_cases_all_formats, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(tiling_is_bit_exact, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(resnet_layer_cycles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_name_the_argument, tx8_test_setup, tx8_test_teardown),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ op_conv ] cases checked against the reference: %d\n", g_cases);
    return rc;
}

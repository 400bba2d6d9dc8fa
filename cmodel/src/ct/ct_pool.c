/*
 * CT pooling (POOL_2D): window max / average over [outer_num][in_h][in_w][C] images into
 * [outer_num][out_h][out_w][C], channels innermost. Semantics and numerics: tx8/isa.h (Ncc_CT_GR_Pool_Regs).
 *
 * Per output pixel the channels go in CT_BLOCK chunks; each tap inside the input is one contiguous run of
 * channels, loaded and folded into the accumulator in kh-major, kw order (the documented summation order).
 * Taps outside the input are skipped, never read: that is what makes padding (and a ceil_mode overhang) safe.
 */
#include "numerics/cm_bits.h"

#include "ct_internal.h"

static void fold_max(double *acc, const double *x, size_t n) {
    for (size_t k = 0; k < n; ++k) acc[k] = (acc[k] > x[k] || acc[k] != acc[k]) ? acc[k] : x[k];
}

static void fold_sum(double *acc, const double *x, size_t n) {
    for (size_t k = 0; k < n; ++k) acc[k] += x[k];
}

/* How many of the taps start + k*dil (k < kernel) lie in [lo, hi). */
static uint64_t taps_in(int64_t start, uint32_t kernel, uint32_t dil, int64_t lo, int64_t hi) {
    uint64_t n = 0;
    for (uint32_t k = 0; k < kernel; ++k) {
        const int64_t x = start + (int64_t)k * dil;
        n += x >= lo && x < hi;
    }
    return n;
}

void ct_pool_run(const ct_job *j) {
    const Ncc_CT_GR_Pool_Regs *g = &j->p->param.pool;
    const uint64_t C = j->p->param.src_elem_num, images = j->p->param.outer_num;
    const int avg = j->op == CT_OP_POOL_AVG;
    const double init = avg ? 0.0 : cm_bits_to_double(0xFFF0000000000000ull); /* max of no tap: -inf */
    /* the region whose taps the AVG divisor counts */
    const int64_t cnt_top = g->count_include_pad ? -(int64_t)g->pad_top : 0;
    const int64_t cnt_left = g->count_include_pad ? -(int64_t)g->pad_left : 0;
    const int64_t cnt_bottom = (int64_t)g->in_h + (g->count_include_pad ? g->pad_bottom : 0);
    const int64_t cnt_right = (int64_t)g->in_w + (g->count_include_pad ? g->pad_right : 0);
    double acc[CT_BLOCK], x[CT_BLOCK];

    for (uint64_t b = 0; b < images; ++b) {
        const uint8_t *img = j->src0 + b * g->in_h * g->in_w * C * j->sb;
        uint8_t *out = j->dst + b * g->out_h * g->out_w * C * j->db;
        for (uint32_t oh = 0; oh < g->out_h; ++oh) {
            const int64_t h0 = (int64_t)oh * g->stride_h - g->pad_top;
            const uint64_t cnt_h = taps_in(h0, g->kernel_h, g->dilation_h, cnt_top, cnt_bottom);
            for (uint32_t ow = 0; ow < g->out_w; ++ow) {
                const int64_t w0 = (int64_t)ow * g->stride_w - g->pad_left;
                const double count = (double)(cnt_h * taps_in(w0, g->kernel_w, g->dilation_w, cnt_left, cnt_right));
                uint8_t *o = out + ((uint64_t)oh * g->out_w + ow) * C * j->db;
                for (uint64_t c0 = 0; c0 < C; c0 += CT_BLOCK) {
                    const size_t m = (size_t)(C - c0 < CT_BLOCK ? C - c0 : CT_BLOCK);
                    for (size_t k = 0; k < m; ++k) acc[k] = init;
                    for (uint32_t kh = 0; kh < g->kernel_h; ++kh) {
                        const int64_t ih = h0 + (int64_t)kh * g->dilation_h;
                        if (ih < 0 || ih >= (int64_t)g->in_h) continue;
                        for (uint32_t kw = 0; kw < g->kernel_w; ++kw) {
                            const int64_t iw = w0 + (int64_t)kw * g->dilation_w;
                            if (iw < 0 || iw >= (int64_t)g->in_w) continue;
                            const uint64_t at = ((uint64_t)ih * g->in_w + (uint64_t)iw) * C + c0;
                            ct_load_block(img + at * j->sb, j->sf, x, m);
                            if (avg) fold_sum(acc, x, m);
                            else fold_max(acc, x, m);
                        }
                    }
                    if (avg)
                        for (size_t k = 0; k < m; ++k) acc[k] /= count; /* count 0: 0/0 = NaN */
                    ct_store_block(o + c0 * j->db, j->df, j->rnd, acc, m);
                }
            }
        }
    }
}

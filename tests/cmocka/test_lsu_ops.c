/* LSU ops: op_loadVar / op_loadConst / op_dma_store / op_store_var_ncx slices in every layout (against host
 * arrays and tx8_layout images), op_reshape between layouts (element by element with tx8_layout_offset),
 * op_gatherScatter, instruction counts via cycles, and faults that leave the destination untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

static uint64_t dma_cycles(uint64_t runs, uint64_t run_bytes) {
    const tx8_hw_config *c = tx8_hal_config();
    const uint64_t rate = c->lsu_bytes_per_cycle < c->ddr_bytes_per_cycle ? c->lsu_bytes_per_cycle : c->ddr_bytes_per_cycle;
    return c->ddr_latency_cycles + (runs * ((run_bytes + 63) / 64 * 64) + rate - 1) / rate;
}

static void rand_bytes(tx8_rng *r, uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)tx8_rng_next(r);
}

/* Row-major index helpers over up to 6 dims. */
static size_t count(const int32_t *s, int dim) {
    size_t n = 1;
    for (int i = 0; i < dim; ++i) n *= (size_t)s[i];
    return n;
}
static void unravel(size_t idx, const int32_t *s, int dim, int32_t *out) {
    for (int i = dim - 1; i >= 0; --i) out[i] = (int32_t)(idx % (size_t)s[i]), idx /= (size_t)s[i];
}
static size_t ravel(const int32_t *ix, const int32_t *s, int dim) {
    size_t o = 0;
    for (int i = 0; i < dim; ++i) o = o * (size_t)s[i] + (size_t)ix[i];
    return o;
}

static void random_slice(tx8_rng *r, L_SHAPE *s, int dim, int max_extent, int keep_last) {
    memset(s, 0, sizeof *s);
    s->dim = dim;
    for (int i = 0; i < dim; ++i) {
        s->shape_whole[i] = tx8_rng_int(r, 1, max_extent);
        s->shape_start[i] = tx8_rng_int(r, 0, s->shape_whole[i] - 1);
        s->shape_real[i] = tx8_rng_int(r, 1, s->shape_whole[i] - s->shape_start[i]);
        if (tx8_rng_int(r, 0, 3) == 0 || (keep_last && i == dim - 1)) /* whole dims make merges happen */
            s->shape_start[i] = 0, s->shape_real[i] = s->shape_whole[i];
        s->shape_slice[i] = s->shape_real[i];
    }
}

static int g_cases;

/* Compact (Tensor / NTensor) slices: load must equal the host extraction, store must write exactly the slice. */
static void compact_slices_round_trip(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x10ADu);
    const Data_Format fmts[4] = {Fmt_FP32, Fmt_FP16, Fmt_INT8, Fmt_BF16};
    int n = 0;
    for (int t = 0; t < 60; ++t) {
        const int dim = tx8_rng_int(&r, 1, 6);
        L_SHAPE s;
        random_slice(&r, &s, dim, dim > 4 ? 5 : 12, 0);
        const Data_Format f = fmts[t % 4];
        const uint32_t eb = tx8_format_bytes(f);
        const size_t wn = count(s.shape_whole, dim), sn = count(s.shape_real, dim);
        uint8_t *whole = malloc(wn * eb), *slice = malloc(sn * eb), *got = malloc(sn * eb), *back = malloc(wn * eb);
        rand_bytes(&r, whole, wn * eb);
        const uint64_t ddr = ((uint64_t)tx8_rng_int(&r, 0, 1 << 20) << 8) + (uint64_t)tx8_rng_int(&r, 0, 255);
        const uint64_t spm = (uint64_t)tx8_rng_int(&r, 0, 1 << 20);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, ddr, whole, wn * eb), 0);
        for (size_t i = 0; i < sn; ++i) {
            int32_t ix[MAX_SHAPE_DIM];
            unravel(i, s.shape_real, dim, ix);
            for (int d = 0; d < dim; ++d) ix[d] += s.shape_start[d];
            memcpy(slice + i * eb, whole + ravel(ix, s.shape_whole, dim) * eb, eb);
        }
        TSR td = {f, ddr, &s}, ts = {f, spm, &s};
        LOAD_PARAM lp = {t % 2 ? LAYOUT_NTENSOR : LAYOUT_TENSOR};
        const uint64_t cyc = op_loadVar(&lp, &td, &ts);
        assert_int_equal(tx8_test_faults()->count, 0);
        assert_true(cyc != TX8_CYCLES_INVALID && cyc >= dma_cycles(1, 1));
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, spm, got, sn * eb), 0);
        assert_memory_equal(got, slice, sn * eb);
        /* store fresh data into the slice; the rest of the DDR tensor must stay */
        rand_bytes(&r, got, sn * eb);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, spm, got, sn * eb), 0);
        STORE_PARAM sp = {lp.layout};
        assert_true(op_dma_store(&sp, &ts, &td) != TX8_CYCLES_INVALID);
        for (size_t i = 0; i < sn; ++i) {
            int32_t ix[MAX_SHAPE_DIM];
            unravel(i, s.shape_real, dim, ix);
            for (int d = 0; d < dim; ++d) ix[d] += s.shape_start[d];
            memcpy(whole + ravel(ix, s.shape_whole, dim) * eb, got + i * eb, eb);
        }
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, ddr, back, wn * eb), 0);
        assert_memory_equal(back, whole, wn * eb);
        free(whole), free(slice), free(got), free(back);
        ++n;
    }
    g_cases += n;
    printf("[ lsu ops ] %d random compact load/store slices (dim 1..6)\n", n);
}

static void contiguous_slice_is_one_instruction(void **state) {
    (void)state;
    /* NTensor 6x5x4x3 fp32, slice N = [2, 5): one run of 3*60*4 = 720 bytes */
    L_SHAPE s = {{6, 5, 4, 3}, {2, 0, 0, 0}, {3, 5, 4, 3}, {3, 5, 4, 3}, 4};
    TSR td = {Fmt_FP32, 0x10000, &s}, ts = {Fmt_FP32, 0x0, &s};
    LOAD_PARAM lp = {LAYOUT_NTENSOR};
    assert_int_equal(op_loadVar(&lp, &td, &ts), dma_cycles(1, 720));
    /* a W slice of width 2: rows of 2*3*4 = 24 bytes, H*N = 3*5 runs in one box */
    L_SHAPE s2 = {{6, 5, 4, 3}, {2, 0, 1, 0}, {3, 5, 2, 3}, {3, 5, 2, 3}, 4};
    td.shape = ts.shape = &s2;
    assert_int_equal(op_loadVar(&lp, &td, &ts), dma_cycles(15, 24));
    /* slicing N, H and W (C whole): W folds into the run (2*3*4 = 24 B), N x H is one box of 3 x 2 runs */
    L_SHAPE s3 = {{6, 5, 4, 3}, {1, 1, 1, 0}, {3, 2, 2, 3}, {3, 2, 2, 3}, 4};
    td.shape = ts.shape = &s3;
    assert_int_equal(op_loadVar(&lp, &td, &ts), dma_cycles(6, 24));
    /* slicing all four: runs of 2 channels (8 B) under 3 outer dims -> 3 boxes of 2 x 2 runs */
    L_SHAPE s4 = {{6, 5, 4, 3}, {1, 1, 1, 1}, {3, 2, 2, 2}, {3, 2, 2, 2}, 4};
    td.shape = ts.shape = &s4;
    assert_int_equal(op_loadVar(&lp, &td, &ts), 3 * dma_cycles(2 * 2, 8));
    /* loadConst takes the whole tensor whatever start/real say */
    assert_int_equal(op_loadConst(&lp, &td, &ts), dma_cycles(1, 6 * 5 * 4 * 3 * 4));
}

/* Cx / NCx slices over N and the spatial dims: the SPM image must equal tx8_layout_pack of the host slice
 * (rows carry their zero channel padding from DDR; the SPM buffer was zeroed, so batch tails are zero too). */
static void cx_slices_round_trip(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xC0Cu);
    const Data_Format fmts[4] = {Fmt_FP16, Fmt_FP32, Fmt_INT8, Fmt_BF16};
    const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
    int n = 0;
    for (int t = 0; t < 40; ++t) {
        const int dim = tx8_rng_int(&r, 2, 4);
        const LAYOUT_MODE mode = t % 3 ? LAYOUT_NCX : LAYOUT_CX;
        const Data_Format f = fmts[t % 4];
        const uint32_t eb = tx8_format_bytes(f);
        L_SHAPE s;
        random_slice(&r, &s, dim, 6, 1);
        const int32_t cs[4] = {3, 31, 64, 100};
        s.shape_whole[dim - 1] = s.shape_real[dim - 1] = s.shape_slice[dim - 1] =
            t % 5 == 4 ? tx8_rng_int(&r, 1, 300) : cs[t % 4] + (f == Fmt_INT8 ? cs[t % 4] : 0);
        if (mode == LAYOUT_CX) s.shape_whole[0] = s.shape_real[0] = 1, s.shape_start[0] = 0;
        tx8_layout lw, ls;
        assert_int_equal(tx8_layout_init(&lw, mode, f, s.shape_whole, dim, align), 0);
        assert_int_equal(tx8_layout_init(&ls, mode, f, s.shape_real, dim, align), 0);
        const size_t wn = count(s.shape_whole, dim), sn = count(s.shape_real, dim);
        uint8_t *cw = malloc(wn * eb), *csl = malloc(sn * eb), *cback = malloc(sn * eb);
        uint8_t *iw = malloc(lw.total_bytes), *is = malloc(ls.total_bytes), *got = malloc(ls.total_bytes);
        uint8_t *dback = malloc(lw.total_bytes);
        rand_bytes(&r, cw, wn * eb);
        for (size_t i = 0; i < sn; ++i) {
            int32_t ix[MAX_SHAPE_DIM];
            unravel(i, s.shape_real, dim, ix);
            for (int d = 0; d < dim; ++d) ix[d] += s.shape_start[d];
            memcpy(csl + i * eb, cw + ravel(ix, s.shape_whole, dim) * eb, eb);
        }
        tx8_layout_pack(&lw, cw, iw);
        tx8_layout_pack(&ls, csl, is);
        const uint64_t ddr = 0x100000000ull + ((uint64_t)t << 20), spm = 0x1000;
        memset(got, 0, ls.total_bytes);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, spm, got, ls.total_bytes), 0);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, ddr, iw, lw.total_bytes), 0);
        TSR td = {f, ddr, &s}, ts = {f, spm, &s};
        LOAD_PARAM lp = {mode};
        assert_true(op_loadVar(&lp, &td, &ts) != TX8_CYCLES_INVALID);
        assert_int_equal(tx8_test_faults()->count, 0);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, spm, got, ls.total_bytes), 0);
        assert_memory_equal(got, is, ls.total_bytes);
        tx8_layout_unpack(&ls, got, cback);
        assert_memory_equal(cback, csl, sn * eb);

        /* store back into a zeroed DDR tensor: exactly the slice's rows appear, the rest stays zero */
        const uint64_t ddr2 = ddr + 0x80000;
        memset(dback, 0, lw.total_bytes);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, ddr2, dback, lw.total_bytes), 0);
        TSR td2 = {f, ddr2, &s};
        STORE_PARAM sp = {mode};
        const uint64_t c = mode == LAYOUT_NCX && t % 2 ? op_store_var_ncx(NULL, &ts, &td2) : op_dma_store(&sp, &ts, &td2);
        assert_true(c != TX8_CYCLES_INVALID);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, ddr2, dback, lw.total_bytes), 0);
        uint8_t *expect = calloc(wn, eb), *gotc = malloc(wn * eb);
        for (size_t i = 0; i < sn; ++i) {
            int32_t ix[MAX_SHAPE_DIM];
            unravel(i, s.shape_real, dim, ix);
            for (int d = 0; d < dim; ++d) ix[d] += s.shape_start[d];
            memcpy(expect + ravel(ix, s.shape_whole, dim) * eb, csl + i * eb, eb);
        }
        tx8_layout_unpack(&lw, dback, gotc);
        assert_memory_equal(gotc, expect, wn * eb);
        free(cw), free(csl), free(cback), free(iw), free(is), free(got), free(dback), free(expect), free(gotc);
        ++n;
    }
    g_cases += n;
    printf("[ lsu ops ] %d random Cx/NCx load/store slices\n", n);
}

static void ncx_seed_example_takes_two_boxes(void **state) {
    (void)state;
    /* fp16 2x1x2x131 NCx (seed): batch 264 elements = 528 B, stride 768 B; the whole tensor moves as the Cx part
     * (2 blocks x 2 rows x 128 B per batch: runs of 512 B, 2 batches) plus the C0 part (2 rows x 8 B) */
    L_SHAPE s = {{2, 1, 2, 131}, {0, 0, 0, 0}, {2, 1, 2, 131}, {2, 1, 2, 131}, 4};
    TSR td = {Fmt_FP16, 0x0, &s}, ts = {Fmt_FP16, 0x0, &s};
    LOAD_PARAM lp = {LAYOUT_NCX};
    assert_int_equal(op_loadVar(&lp, &td, &ts), dma_cycles(2, 512) + dma_cycles(2, 16));
}

/* ---- op_reshape ---- */
static void reshape_between_layouts(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x5E5Au);
    const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
    const Data_Format fmts[4] = {Fmt_FP16, Fmt_FP32, Fmt_INT8, Fmt_BF16};
    const LAYOUT_MODE pairs[4][2] = {{LAYOUT_NTENSOR, LAYOUT_NCX}, {LAYOUT_NCX, LAYOUT_NTENSOR},
                                     {LAYOUT_TENSOR, LAYOUT_CX}, {LAYOUT_CX, LAYOUT_TENSOR}};
    int n = 0;
    for (int t = 0; t < 40; ++t) {
        const int dim = tx8_rng_int(&r, 2, 4);
        const Data_Format f = fmts[t % 4];
        const uint32_t eb = tx8_format_bytes(f);
        const LAYOUT_MODE mi = pairs[(t / 4) % 4][0], mo = pairs[(t / 4) % 4][1];
        L_SHAPE s;
        memset(&s, 0, sizeof s);
        s.dim = dim;
        for (int d = 0; d < dim; ++d) s.shape_real[d] = s.shape_whole[d] = tx8_rng_int(&r, 1, 5);
        const int32_t cs[5] = {1, 32, 64, 131, 200};
        s.shape_real[dim - 1] = s.shape_whole[dim - 1] = t % 7 == 6 ? tx8_rng_int(&r, 1, 300) : cs[t % 5];
        if (mi == LAYOUT_TENSOR || mi == LAYOUT_CX) s.shape_real[0] = s.shape_whole[0] = 1;
        tx8_layout li, lo;
        assert_int_equal(tx8_layout_init(&li, mi, f, s.shape_real, dim, align), 0);
        assert_int_equal(tx8_layout_init(&lo, mo, f, s.shape_real, dim, align), 0);
        uint8_t *img = malloc(li.total_bytes), *got = malloc(lo.total_bytes), *marker = malloc(lo.total_bytes);
        rand_bytes(&r, img, li.total_bytes);
        for (uint64_t i = 0; i < lo.total_bytes; ++i) marker[i] = (uint8_t)(0x3C ^ i);
        const uint64_t in = 0x1000, out = 0x180000;
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, in, img, li.total_bytes), 0);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, out, marker, lo.total_bytes), 0);
        TSR ti = {f, in, &s}, to = {f, out, &s};
        RESHAPE_PARAM rp = {mi, mo};
        const uint64_t cyc = op_reshape(&rp, &ti, &to);
        assert_int_equal(tx8_test_faults()->count, 0);
        /* at most two TDMA instructions moving the N*HW*C elements: at best at the full rate, at worst one
         * element (run) per cycle */
        const tx8_hw_config *c = tx8_hal_config();
        const uint64_t elems = (uint64_t)li.n * li.hw * li.c, bytes = elems * eb;
        assert_true(cyc >= c->tdma_startup_cycles + (bytes + 255) / 256 &&
                    cyc <= 2 * c->tdma_startup_cycles + elems);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, out, got, lo.total_bytes), 0);
        /* every element, and every non-element byte of out keeps the marker */
        uint8_t *is_elem = calloc(lo.total_bytes, 1);
        for (uint32_t b = 0; b < li.n; ++b)
            for (uint32_t h = 0; h < li.hw; ++h)
                for (uint32_t ch = 0; ch < li.c; ++ch) {
                    const uint64_t oo = tx8_layout_offset(&lo, b, h, ch), io = tx8_layout_offset(&li, b, h, ch);
                    if (memcmp(got + oo, img + io, eb) != 0) {
                        print_error("%s %s->%s dim %d C %u: element (%u,%u,%u) differs\n", tx8_format_name(f),
                                    tx8_layout_name(mi), tx8_layout_name(mo), dim, li.c, b, h, ch);
                        fail();
                    }
                    memset(is_elem + oo, 1, eb);
                }
        for (uint64_t i = 0; i < lo.total_bytes; ++i)
            if (!is_elem[i]) assert_int_equal(got[i], marker[i]);
        free(img), free(got), free(marker), free(is_elem);
        ++n;
    }
    g_cases += n;
    printf("[ lsu ops ] %d random reshapes (NTensor<->NCx, Tensor<->Cx)\n", n);
}

/* ---- op_gatherScatter ---- */
static void gather_scatter_spreads_fp16_into_fp32_slots(void **state) {
    (void)state;
    uint16_t h[100], back[200];
    for (int i = 0; i < 100; ++i) h[i] = (uint16_t)(0x3C00 + i);
    memset(back, 0xEE, sizeof back);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 0x100, h, sizeof h), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 0x1000, back, sizeof back), 0);
    /* 100 blocks of 2 bytes: tight -> every 4 bytes; 100 runs of one cycle each: 16 + 100 */
    assert_int_equal(op_gatherScatter(0x100, 0x1000, 2, 100, 2, 4), 116);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x1000, back, sizeof back), 0);
    for (int i = 0; i < 100; ++i) {
        assert_int_equal(back[2 * i], h[i]);
        assert_int_equal(back[2 * i + 1], 0xEEEE);
    }
    /* and gather back with 1000-byte blocks at different strides */
    uint8_t big[3000], got[3000];
    for (int i = 0; i < 3000; ++i) big[i] = (uint8_t)(i * 13);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 0x10000, big, sizeof big), 0);
    assert_int_equal(op_gatherScatter(0x10000, 0x20000, 1000, 3, 1000, 1024), 16 + 12);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x20000 + 1024 * i, got, 1000), 0);
        assert_memory_equal(got, big + 1000 * i, 1000);
    }
}

/* ---- faults ---- */
static void faults_leave_destination_alone(void **state) {
    (void)state;
    uint8_t before[256], after[256];
    for (int i = 0; i < 256; ++i) before[i] = (uint8_t)(i ^ 0x77);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 0x0, before, 256), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, 0x0, before, 256), 0);
    const uint64_t cyc = tx8_hal_cycles();
    L_SHAPE s = {{2, 3, 40}, {0, 0, 8}, {2, 3, 8}, {2, 3, 8}, 3};
    TSR td = {Fmt_FP16, 0x0, &s}, ts = {Fmt_FP16, 0x0, &s};
    LOAD_PARAM ncx = {LAYOUT_NCX};
    STORE_PARAM sncx = {LAYOUT_NCX};
    assert_true(op_loadVar(&ncx, &td, &ts) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_loadVar: ddr_src C slice [8, +8) of 40: Cx/NCx slices must keep the whole C");
    assert_true(op_store_var_ncx(&sncx, &ts, &td) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_store_var_ncx: ddr_dst C slice");
    L_SHAPE ok = {{2, 3, 40}, {0, 0, 0}, {2, 3, 40}, {2, 3, 40}, 3};
    td.shape = ts.shape = &ok;
    LOAD_PARAM nt = {LAYOUT_NTENSOR};
    td.addr = tx8_hal_config()->ddr_bytes - 100;
    assert_true(op_loadVar(&nt, &td, &ts) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_loadVar: ddr_src = ");
    td.addr = 0, ts.addr = tx8_hal_config()->spm_bytes - 100;
    assert_true(op_loadVar(&nt, &td, &ts) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_loadVar: spm_dst = ");
    ts.addr = 0, ts.format = Fmt_FP32;
    STORE_PARAM snt = {LAYOUT_NTENSOR};
    assert_true(op_dma_store(&snt, &ts, &td) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_dma_store: spm_src format fp32 differs from ddr_dst format fp16");
    ts.format = Fmt_FP16;
    L_SHAPE bad = {{2, 3, 40}, {1, 0, 0}, {2, 3, 40}, {2, 3, 40}, 3};
    td.shape = ts.shape = &bad;
    assert_true(op_loadVar(&nt, &td, &ts) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_loadVar: ddr_src dim 0: slice [1, +2) is not inside [0, 2)");
    L_SHAPE other = ok;
    other.shape_real[1] = 2;
    td.shape = &ok, ts.shape = &other;
    assert_true(op_loadVar(&nt, &td, &ts) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_loadVar: spm_dst shape_real differs");
    LOAD_PARAM badl = {(LAYOUT_MODE)9};
    assert_true(op_loadVar(&badl, &td, &ts) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_loadVar: layout = 9");
    assert_true(op_gatherScatter(0, 0x100, 4, 0, 4, 4) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gatherScatter: block_num = 0");
    assert_true(op_gatherScatter(0, 0x100, 0, 4, 4, 4) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gatherScatter: block_bytes = 0");
    assert_true(op_gatherScatter(0, 0x40, 16, 8, 32, 16) == TX8_CYCLES_INVALID); /* src [0,240) dst [64,192) */
    tx8_test_expect_fault("TDMA: src [0x0, 0xf0) and dst [0x40, 0xc0) overlap");
    L_SHAPE rs = {{1, 4, 8}, {0}, {1, 4, 8}, {1, 4, 8}, 3};
    TSR a = {Fmt_FP32, 0x0, &rs}, b = {Fmt_FP32, 0x40, &rs};
    RESHAPE_PARAM rp = {LAYOUT_TENSOR, LAYOUT_CX};
    assert_true(op_reshape(&rp, &a, &b) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_reshape: in and out overlap");
    RESHAPE_PARAM rp2 = {LAYOUT_TENSOR, LAYOUT_NCX};
    L_SHAPE rs2 = {{2, 4, 8}, {0}, {2, 4, 8}, {2, 4, 8}, 3};
    a.shape = b.shape = &rs2, b.addr = 0x1000;
    assert_true(op_reshape(&rp2, &a, &b) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_reshape: in shape is not valid in in_layout");
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x0, after, 256), 0);
    assert_memory_equal(before, after, 256);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, 0x0, after, 256), 0);
    assert_memory_equal(before, after, 256);
    assert_int_equal(tx8_hal_cycles(), cyc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(compact_slices_round_trip, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(contiguous_slice_is_one_instruction, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cx_slices_round_trip, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(ncx_seed_example_takes_two_boxes, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(reshape_between_layouts, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(gather_scatter_spreads_fp16_into_fp32_slots, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_leave_destination_alone, tx8_test_setup, tx8_test_teardown),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ lsu ops ] random cases in total: %d\n", g_cases);
    return rc;
}

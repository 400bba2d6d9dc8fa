/*
 * The double-buffered DDR -> DDR forms op_batchnorm_inference_db, op_gemm_db and op_conv_db (tx8/ops.h) against
 * the plain ops run on the whole shard in SPM: bit-identical results (the same arithmetic per element; gemm's K
 * chunks accumulate in fp32 in ascending k), over shapes whose slices are uneven, workspaces that force many slices,
 * shard views (a box with shape_start != 0; nothing outside the box is written), and bad inputs (a fault naming the
 * op and the sizes; nothing written).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

/* ---- tensors: compact element arrays on the host, images in DDR / SPM ---- */

static int compact(LAYOUT_MODE l) { return l == LAYOUT_TENSOR || l == LAYOUT_NTENSOR; }

static uint64_t count_of(const int32_t *shape, int32_t dim) {
    uint64_t n = 1;
    for (int32_t i = 0; i < dim; ++i) n *= (uint64_t)shape[i];
    return n;
}

/* Bytes of the image of `shape` in layout l (compact: elements x size). */
static uint64_t image_bytes(LAYOUT_MODE l, Data_Format f, const int32_t *shape, int32_t dim) {
    if (compact(l)) return count_of(shape, dim) * tx8_format_bytes(f);
    tx8_layout lay;
    assert_int_equal(tx8_layout_init(&lay, l, f, shape, dim, tx8_hw_batch_align_bytes(tx8_hal_config())), 0);
    return lay.total_bytes;
}

/* Writes compact element bytes as the layout image at (region, addr). */
static void put_image(tx8_mem_region r, uint64_t addr, LAYOUT_MODE l, Data_Format f, const int32_t *shape,
                      int32_t dim, const uint8_t *elems) {
    const uint64_t bytes = image_bytes(l, f, shape, dim);
    if (compact(l)) {
        assert_int_equal(tx8_hal_mem_write(r, addr, elems, bytes), 0);
        return;
    }
    tx8_layout lay;
    assert_int_equal(tx8_layout_init(&lay, l, f, shape, dim, tx8_hw_batch_align_bytes(tx8_hal_config())), 0);
    uint8_t *image = calloc(1, bytes + 1);
    tx8_layout_pack(&lay, elems, image);
    assert_int_equal(tx8_hal_mem_write(r, addr, image, bytes), 0);
    free(image);
}

static void get_image(tx8_mem_region r, uint64_t addr, LAYOUT_MODE l, Data_Format f, const int32_t *shape,
                      int32_t dim, uint8_t *elems) {
    const uint64_t bytes = image_bytes(l, f, shape, dim);
    if (compact(l)) {
        assert_int_equal(tx8_hal_mem_read(r, addr, elems, bytes), 0);
        return;
    }
    tx8_layout lay;
    assert_int_equal(tx8_layout_init(&lay, l, f, shape, dim, tx8_hw_batch_align_bytes(tx8_hal_config())), 0);
    uint8_t *image = malloc(bytes + 1);
    assert_int_equal(tx8_hal_mem_read(r, addr, image, bytes), 0);
    tx8_layout_unpack(&lay, image, elems);
    free(image);
}

/* n random elements of f, values in [lo, hi] (integers for int8 / int32). */
static uint8_t *random_elems(tx8_rng *r, Data_Format f, uint64_t n, double lo, double hi) {
    const uint32_t eb = tx8_format_bytes(f);
    uint8_t *e = malloc(n * eb + 1);
    for (uint64_t i = 0; i < n; ++i) {
        const double v = (f == Fmt_INT8 || f == Fmt_INT32) ? (double)tx8_rng_int(r, (int32_t)lo, (int32_t)hi)
                                                           : tx8_rng_uniform(r, lo, hi);
        cm_store_element(e + i * eb, f, v, RND_NEAREST_EVEN);
    }
    return e;
}

/* Copies box [start, +real) of a compact tensor `whole` (dim <= 4) into / out of a compact box array. */
static void box_copy(uint8_t *whole_e, uint8_t *box_e, uint32_t eb, const int32_t *whole, const int32_t *start,
                     const int32_t *real, int32_t dim, int to_box) {
    int32_t w[4] = {1, 1, 1, 1}, s[4] = {0, 0, 0, 0}, q[4] = {1, 1, 1, 1};
    for (int32_t i = 0; i < dim; ++i) w[4 - dim + i] = whole[i], s[4 - dim + i] = start[i], q[4 - dim + i] = real[i];
    uint64_t k = 0;
    for (int32_t a = 0; a < q[0]; ++a)
        for (int32_t b = 0; b < q[1]; ++b)
            for (int32_t c = 0; c < q[2]; ++c) {
                const uint64_t row = ((((uint64_t)(s[0] + a) * w[1] + s[1] + b) * w[2] + s[2] + c) * w[3] + s[3]);
                uint8_t *wp = whole_e + row * eb, *bp = box_e + k * eb;
                if (to_box) memcpy(bp, wp, (size_t)q[3] * eb);
                else memcpy(wp, bp, (size_t)q[3] * eb);
                k += (uint64_t)q[3];
            }
}

static void expect_equal_elems(const uint8_t *got, const uint8_t *want, uint64_t n, Data_Format f, const char *what) {
    const uint32_t eb = tx8_format_bytes(f);
    for (uint64_t i = 0; i < n; ++i)
        if (memcmp(got + i * eb, want + i * eb, eb)) {
            print_error("%s: element %llu = %.9g, want %.9g (not bit-identical)\n", what, (unsigned long long)i,
                        cm_load_element(got + i * eb, f), cm_load_element(want + i * eb, f));
            fail();
        }
}

static void expect_no_fault(void) {
    if (tx8_test_faults()->count) {
        print_error("unexpected fault: %s\n", tx8_test_faults()->last);
        fail();
    }
}

typedef struct dview {
    L_SHAPE s;
    TSR t;
} dview;

/* A TSR over the whole tensor `whole` at addr with the box [start, +real) (start NULL: the whole tensor). */
static void view_init(dview *v, Data_Format f, uint64_t addr, const int32_t *whole, int32_t dim, const int32_t *start,
                      const int32_t *real) {
    assert_int_equal(tx8_lshape_init(&v->s, whole, dim), 0);
    if (start)
        for (int32_t i = 0; i < dim; ++i)
            v->s.shape_start[i] = start[i], v->s.shape_slice[i] = v->s.shape_real[i] = real[i];
    v->t.format = f, v->t.addr = addr, v->t.shape = &v->s;
}

#define DDR_IN 0x0ull
#define DDR_OUT 0x4000000ull /* 64 MiB */
#define DDR_AUX 0x8000000ull /* 128 MiB: vectors, weights, bias */

/* ---- op_batchnorm_inference_db ---- */

typedef struct bn_case {
    LAYOUT_MODE layout;
    Data_Format fmt;
    int32_t dim;
    int32_t whole[4];
    int32_t start[4], real[4]; /* the box; real[0] == 0: the whole tensor */
    uint64_t ws_base, ws_bytes;
    uint32_t folded; /* op_batchnorm_inference_folded */
} bn_case;

static void run_bn_case(tx8_rng *r, const bn_case *c) {
    const int32_t dim = c->dim;
    int32_t start[4] = {0, 0, 0, 0}, real[4];
    for (int32_t i = 0; i < dim; ++i) real[i] = c->real[0] ? c->real[i] : c->whole[i];
    if (c->real[0])
        for (int32_t i = 0; i < dim; ++i) start[i] = c->start[i];
    const uint32_t eb = tx8_format_bytes(c->fmt);
    const int32_t C = c->whole[dim - 1];
    const uint64_t n_whole = count_of(c->whole, dim), n_box = count_of(real, dim);
    uint8_t *x = random_elems(r, c->fmt, n_whole, -4, 4), *old = random_elems(r, c->fmt, n_whole, -9, 9);
    /* per-channel vectors: compact C floats, or the Cx [1, C] image (zero padding lanes) */
    const int32_t vshape[2] = {1, C};
    const LAYOUT_MODE vlay = compact(c->layout) ? LAYOUT_TENSOR : LAYOUT_CX;
    const uint64_t vbytes = image_bytes(vlay, Fmt_FP32, vshape, 2);
    uint8_t *v[4];
    v[0] = random_elems(r, Fmt_FP32, C, -2, 2), v[1] = random_elems(r, Fmt_FP32, C, -1, 1);
    v[2] = random_elems(r, Fmt_FP32, C, -1, 1), v[3] = random_elems(r, Fmt_FP32, C, 0.1, 3);
    put_image(TX8_MEM_DDR, DDR_IN, c->layout, c->fmt, c->whole, dim, x);
    put_image(TX8_MEM_DDR, DDR_OUT, c->layout, c->fmt, c->whole, dim, old);
    dview vd[4];
    for (int k = 0; k < 4; ++k) {
        put_image(TX8_MEM_DDR, DDR_AUX + k * 0x10000ull, vlay, Fmt_FP32, vshape, 2, v[k]);
        view_init(&vd[k], Fmt_FP32, DDR_AUX + k * 0x10000ull, vshape, 2, NULL, NULL);
    }
    dview in, out;
    view_init(&in, c->fmt, DDR_IN, c->whole, dim, start, real);
    view_init(&out, c->fmt, DDR_OUT, c->whole, dim, start, real);
    BATCHNORM_DB_PARAM p = {c->layout, 1e-5f, c->folded};
    const uint64_t cyc = op_batchnorm_inference_db(&p, &in.t, &vd[0].t, &vd[1].t, &vd[2].t, &vd[3].t, &out.t,
                                                   c->ws_base, c->ws_bytes);
    expect_no_fault();
    assert_true(cyc != TX8_CYCLES_INVALID && cyc > 0);

    /* the reference: op_batchnorm_inference (or _folded) on the box in SPM */
    BATCHNORM_INFER_PARAM bp = {c->layout, 1e-5f};
    uint8_t *xb = malloc(n_box * eb + 1), *want = malloc(n_whole * eb + 1), *got = malloc(n_whole * eb + 1);
    box_copy(x, xb, eb, c->whole, start, real, dim, 1);
    const uint64_t box_bytes = (image_bytes(c->layout, c->fmt, real, dim) + 255) / 256 * 256;
    const uint64_t s_in = 0, s_out = box_bytes, s_vec = 2 * box_bytes;
    uint64_t s_imm = s_vec + 4 * 0x1000ull;
    L_SHAPE ls_in, ls_out, ls_v[4], ls_imm;
    TSR t_in = {c->fmt, s_in, &ls_in}, t_out = {c->fmt, s_out, &ls_out}, t_v[4], t_imm;
    assert_int_equal(tx8_lshape_init(&ls_in, real, dim), 0);
    assert_int_equal(tx8_lshape_init(&ls_out, real, dim), 0);
    const int32_t vbox[2] = {1, real[dim - 1]};
    for (int k = 0; k < 4; ++k) {
        uint8_t *img = calloc(1, vbytes + 1);
        if (compact(c->layout))
            memcpy(img, v[k] + 4ull * start[dim - 1], 4ull * real[dim - 1]);
        else
            assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, DDR_AUX + k * 0x10000ull, img, vbytes), 0);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, s_vec + k * 0x1000ull, img, vbytes), 0);
        free(img);
        assert_int_equal(tx8_lshape_init(&ls_v[k], vbox, 2), 0);
        t_v[k] = (TSR){Fmt_FP32, s_vec + k * 0x1000ull, &ls_v[k]};
    }
    const int32_t imm_n[1] = {(int32_t)(c->folded ? op_batchnorm_inference_folded_imm_size(tx8_hal_config(), &bp, &t_in)
                                                  : op_batchnorm_inference_imm_size(tx8_hal_config(), &bp, &t_in))};
    assert_int_equal(tx8_lshape_init(&ls_imm, imm_n, 1), 0);
    t_imm = (TSR){Fmt_INT8, s_imm, &ls_imm};
    assert_true(s_imm + (uint64_t)imm_n[0] <= tx8_hal_config()->spm_bytes);
    put_image(TX8_MEM_SPM, s_in, c->layout, c->fmt, real, dim, xb);
    if (c->folded)
        assert_true(op_batchnorm_inference_folded(&bp, &t_in, &t_v[0], &t_v[1], &t_v[2], &t_v[3], &t_imm, &t_out) !=
                    TX8_CYCLES_INVALID);
    else
        assert_true(op_batchnorm_inference(&bp, &t_in, &t_v[0], &t_v[1], &t_v[2], &t_v[3], &t_imm, &t_out) !=
                    TX8_CYCLES_INVALID);
    get_image(TX8_MEM_SPM, s_out, c->layout, c->fmt, real, dim, xb);
    memcpy(want, old, n_whole * eb);
    box_copy(want, xb, eb, c->whole, start, real, dim, 0); /* the box changes, the rest keeps its old values */
    get_image(TX8_MEM_DDR, DDR_OUT, c->layout, c->fmt, c->whole, dim, got);
    char what[160];
    snprintf(what, sizeof what, "batchnorm_db%s %s %s [%d,%d,%d,%d] dim %d", c->folded ? " folded" : "",
             tx8_layout_name(c->layout), tx8_format_name(c->fmt), c->whole[0], c->whole[1], c->whole[2], c->whole[3],
             dim);
    expect_equal_elems(got, want, n_whole, c->fmt, what);
    free(x), free(old), free(xb), free(want), free(got);
    for (int k = 0; k < 4; ++k) free(v[k]);
}

static void batchnorm_db_matches_plain_op(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xB4u);
    const uint64_t W0 = 0x100000, BIG = 0x180000; /* workspace at 1 MiB: 1.5 MiB, or small ones forcing slices */
    const bn_case cases[] = {
        /* NTensor: whole batches per slice (uneven: 7 batches), then rows of a batch (11 rows) */
        {LAYOUT_NTENSOR, Fmt_FP32, 4, {7, 5, 6, 13}, {0}, {0}, W0, BIG, 0},
        {LAYOUT_NTENSOR, Fmt_FP32, 4, {7, 5, 6, 13}, {0}, {0}, W0, 0x2000, 0},
        {LAYOUT_NTENSOR, Fmt_FP16, 4, {3, 11, 9, 21}, {0}, {0}, W0, 0x3000, 0},
        {LAYOUT_NTENSOR, Fmt_BF16, 4, {3, 11, 9, 21}, {0}, {0}, W0 + 0x40, 0x3000, 0}, /* unaligned base */
        {LAYOUT_NTENSOR, Fmt_BF16, 3, {5, 17, 40}, {0}, {0}, W0, 0x2400, 0},
        {LAYOUT_NTENSOR, Fmt_FP16, 2, {37, 70}, {0}, {0}, W0, 0x1800, 0},
        {LAYOUT_TENSOR, Fmt_FP32, 4, {1, 13, 5, 9}, {0}, {0}, W0, 0x1400, 0},
        /* NCx: C > 64 (Cx blocks + C0), C <= 32, Cx (N == 1) */
        {LAYOUT_NCX, Fmt_FP16, 4, {3, 9, 6, 129}, {0}, {0}, W0, BIG, 0},
        {LAYOUT_NCX, Fmt_FP16, 4, {3, 9, 6, 129}, {0}, {0}, W0, 0x9000, 0},
        {LAYOUT_NCX, Fmt_FP32, 4, {2, 7, 5, 20}, {0}, {0}, W0, 0x2000, 0},
        {LAYOUT_NCX, Fmt_BF16, 4, {2, 7, 5, 70}, {0}, {0}, W0, 0x6000, 0},
        {LAYOUT_CX, Fmt_FP16, 4, {1, 10, 3, 100}, {0}, {0}, W0, 0x5000, 0},
        /* shard views: a box with shape_start != 0 (NTensor: any box, channels too; NCx: C whole) */
        {LAYOUT_NTENSOR, Fmt_FP16, 4, {4, 9, 7, 12}, {1, 2, 1, 3}, {2, 6, 5, 7}, W0, 0x1000, 0},
        {LAYOUT_NTENSOR, Fmt_FP32, 4, {4, 9, 7, 12}, {2, 0, 0, 0}, {2, 9, 7, 12}, W0, BIG, 0},
        {LAYOUT_NCX, Fmt_FP16, 4, {4, 9, 7, 129}, {1, 3, 2, 0}, {3, 5, 4, 129}, W0, 0x7000, 0},
        /* folded: op_batchnorm_inference_folded in place */
        {LAYOUT_NTENSOR, Fmt_FP32, 4, {7, 5, 6, 13}, {0}, {0}, W0, 0x1800, 1},
        {LAYOUT_NTENSOR, Fmt_BF16, 4, {3, 11, 9, 21}, {0}, {0}, W0 + 0x40, 0x1400, 1},
        {LAYOUT_NTENSOR, Fmt_FP16, 2, {37, 70}, {0}, {0}, W0, 0x1800, 1},
        {LAYOUT_NCX, Fmt_FP16, 4, {3, 9, 6, 129}, {0}, {0}, W0, 0x3000, 1},
        {LAYOUT_CX, Fmt_BF16, 3, {1, 10, 40}, {0}, {0}, W0, 0x1000, 1},
        {LAYOUT_NTENSOR, Fmt_FP16, 4, {4, 9, 7, 12}, {1, 2, 1, 3}, {2, 6, 5, 7}, W0, 0x1000, 1},
        {LAYOUT_NCX, Fmt_BF16, 4, {4, 9, 7, 129}, {1, 3, 2, 0}, {3, 5, 4, 129}, W0, 0x3000, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) run_bn_case(&r, &cases[i]);
    printf("[ op_batchnorm_inference_db ] %zu cases bit-identical to op_batchnorm_inference(_folded)\n",
           sizeof cases / sizeof cases[0]);
}

/* The demo's layout (tests/bench/demo_batchnorm.c: fp16 NCx [N,56,56,129], Cx [1,129] fp32 vectors in DDR) with
 * two of its eight batches, against the demo's own loop (op_loadVar / op_batchnorm_inference / op_store_var_ncx per
 * [1,28,56,129] slice). */
static void batchnorm_db_demo_tensor(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xDE30u);
    enum { N = 2, H = 56, W = 56, C = 129, HS = 28 };
    const int32_t shape[4] = {N, H, W, C}, vshape[2] = {1, C};
    const uint64_t n = (uint64_t)N * H * W * C;
    uint8_t *x = random_elems(&r, Fmt_FP16, n, -4, 4), *v[4];
    v[0] = random_elems(&r, Fmt_FP32, C, -2, 2), v[1] = random_elems(&r, Fmt_FP32, C, -1, 1);
    v[2] = random_elems(&r, Fmt_FP32, C, -1, 1), v[3] = random_elems(&r, Fmt_FP32, C, 0.1, 3);
    const uint64_t img = image_bytes(LAYOUT_NCX, Fmt_FP16, shape, 4);
    const uint64_t out1 = DDR_OUT, out2 = DDR_OUT + (img + 4095) / 4096 * 4096;
    put_image(TX8_MEM_DDR, DDR_IN, LAYOUT_NCX, Fmt_FP16, shape, 4, x);
    dview vd[4], in, o1, o2;
    for (int k = 0; k < 4; ++k) {
        put_image(TX8_MEM_DDR, DDR_AUX + k * 0x1000ull, LAYOUT_CX, Fmt_FP32, vshape, 2, v[k]);
        view_init(&vd[k], Fmt_FP32, DDR_AUX + k * 0x1000ull, vshape, 2, NULL, NULL);
    }
    view_init(&in, Fmt_FP16, DDR_IN, shape, 4, NULL, NULL);
    view_init(&o1, Fmt_FP16, out1, shape, 4, NULL, NULL);
    view_init(&o2, Fmt_FP16, out2, shape, 4, NULL, NULL);
    /* the double-buffered op with the whole SPM as its workspace */
    BATCHNORM_DB_PARAM p = {LAYOUT_NCX, 1e-6f, 0};
    const uint64_t c0 = tx8_hal_cycles();
    const uint64_t cyc = op_batchnorm_inference_db(&p, &in.t, &vd[0].t, &vd[1].t, &vd[2].t, &vd[3].t, &o1.t, 0,
                                                   tx8_hal_config()->spm_bytes);
    expect_no_fault();
    assert_int_equal(cyc, tx8_hal_cycles() - c0);
    /* the demo's loop */
    const int32_t sshape[4] = {1, HS, W, C};
    const uint64_t simg = (image_bytes(LAYOUT_NCX, Fmt_FP16, sshape, 4) + 255) / 256 * 256;
    L_SHAPE ls_in, ls_out, ls_v[4], ls_imm;
    TSR t_in = {Fmt_FP16, 0, &ls_in}, t_out = {Fmt_FP16, simg, &ls_out}, t_v[4], t_imm;
    assert_int_equal(tx8_lshape_init(&ls_in, sshape, 4), 0);
    assert_int_equal(tx8_lshape_init(&ls_out, sshape, 4), 0);
    LOAD_PARAM ld = {LAYOUT_NCX};
    BATCHNORM_INFER_PARAM bp = {LAYOUT_NCX, 1e-6f};
    for (int k = 0; k < 4; ++k) {
        assert_int_equal(tx8_lshape_init(&ls_v[k], vshape, 2), 0);
        t_v[k] = (TSR){Fmt_FP32, 2 * simg + k * 0x400ull, &ls_v[k]};
        assert_true(op_loadConst(&ld, &vd[k].t, &t_v[k]) != TX8_CYCLES_INVALID);
    }
    const int32_t imm_n[1] = {(int32_t)op_batchnorm_inference_imm_size(tx8_hal_config(), &bp, &t_in)};
    assert_int_equal(tx8_lshape_init(&ls_imm, imm_n, 1), 0);
    t_imm = (TSR){Fmt_INT8, 2 * simg + 0x1000, &ls_imm};
    for (int32_t b = 0; b < N; ++b)
        for (int32_t h = 0; h < H; h += HS) {
            const int32_t st[4] = {b, h, 0, 0};
            dview si, so;
            view_init(&si, Fmt_FP16, DDR_IN, shape, 4, st, sshape);
            view_init(&so, Fmt_FP16, out2, shape, 4, st, sshape);
            assert_true(op_loadVar(&ld, &si.t, &t_in) != TX8_CYCLES_INVALID);
            assert_true(op_batchnorm_inference(&bp, &t_in, &t_v[0], &t_v[1], &t_v[2], &t_v[3], &t_imm, &t_out) !=
                        TX8_CYCLES_INVALID);
            assert_true(op_store_var_ncx(NULL, &t_out, &so.t) != TX8_CYCLES_INVALID);
        }
    uint8_t *a = malloc(img), *b = malloc(img);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, out1, a, img), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, out2, b, img), 0);
    /* whole images, channel padding lanes included (the batch-alignment tails are never written) */
    uint8_t *ea = malloc(n * 2), *eb = malloc(n * 2);
    get_image(TX8_MEM_DDR, out1, LAYOUT_NCX, Fmt_FP16, shape, 4, ea);
    get_image(TX8_MEM_DDR, out2, LAYOUT_NCX, Fmt_FP16, shape, 4, eb);
    expect_equal_elems(ea, eb, n, Fmt_FP16, "batchnorm_db demo tensor");
    assert_memory_equal(a, b, img);
    printf("[ op_batchnorm_inference_db ] fp16 NCx [%d,%d,%d,%d]: %llu cycles, bit-identical to the demo's loop\n", N,
           H, W, C, (unsigned long long)cyc);
    free(a), free(b), free(ea), free(eb), free(x);
    for (int k = 0; k < 4; ++k) free(v[k]);
}

/* ---- op_gemm_db ---- */

typedef struct gemm_case {
    Data_Format in, out;
    int32_t M, N, K;                   /* whole a [M,K], b [K,N], c [M,N] */
    int32_t m0, n0, k0, mr, nr, kr;    /* the box (mr == 0: whole) */
    uint32_t bias, relu, accumulate;
    uint32_t max_m, max_n, max_k;
    uint64_t ws_base, ws_bytes;
} gemm_case;

static void run_gemm_case(tx8_rng *r, const gemm_case *c) {
    const Data_Format acc = c->in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    const int32_t m0 = c->mr ? c->m0 : 0, n0 = c->mr ? c->n0 : 0, k0 = c->mr ? c->k0 : 0;
    const int32_t mr = c->mr ? c->mr : c->M, nr = c->mr ? c->nr : c->N, kr = c->mr ? c->kr : c->K;
    const uint32_t eb = tx8_format_bytes(c->in), ob = tx8_format_bytes(c->out);
    const int is_int = c->in == Fmt_INT8;
    uint8_t *A = random_elems(r, c->in, (uint64_t)c->M * c->K, is_int ? -128 : -1, is_int ? 127 : 1);
    uint8_t *B = random_elems(r, c->in, (uint64_t)c->K * c->N, is_int ? -128 : -1, is_int ? 127 : 1);
    uint8_t *Cold = random_elems(r, c->out, (uint64_t)c->M * c->N, is_int ? -99 : -1, is_int ? 99 : 1);
    uint8_t *bias = random_elems(r, acc, (uint64_t)c->N, is_int ? -999 : -1, is_int ? 999 : 1);
    const int32_t as[2] = {c->M, c->K}, bs[2] = {c->K, c->N}, cs[2] = {c->M, c->N}, vs[1] = {c->N};
    const uint64_t a_ddr = DDR_IN, b_ddr = DDR_IN + 0x1000000, c_ddr = DDR_OUT, v_ddr = DDR_AUX;
    put_image(TX8_MEM_DDR, a_ddr, LAYOUT_TENSOR, c->in, as, 2, A);
    put_image(TX8_MEM_DDR, b_ddr, LAYOUT_TENSOR, c->in, bs, 2, B);
    put_image(TX8_MEM_DDR, c_ddr, LAYOUT_TENSOR, c->out, cs, 2, Cold);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, v_ddr, bias, 4ull * c->N), 0);
    dview a, b, cc, bv;
    const int32_t a_st[2] = {m0, k0}, a_re[2] = {mr, kr}, b_st[2] = {k0, n0}, b_re[2] = {kr, nr};
    const int32_t c_st[2] = {m0, n0}, c_re[2] = {mr, nr}, v_st[1] = {n0}, v_re[1] = {nr};
    view_init(&a, c->in, a_ddr, as, 2, a_st, a_re);
    view_init(&b, c->in, b_ddr, bs, 2, b_st, b_re);
    view_init(&cc, c->out, c_ddr, cs, 2, c_st, c_re);
    view_init(&bv, acc, v_ddr, vs, 1, v_st, v_re);
    GEMM_DB_PARAM p = {c->accumulate, c->relu, c->max_m, c->max_n, c->max_k};
    const uint64_t cyc = op_gemm_db(&p, &a.t, &b.t, c->bias ? &bv.t : NULL, &cc.t, c->ws_base, c->ws_bytes);
    expect_no_fault();
    assert_true(cyc != TX8_CYCLES_INVALID && cyc > 0);

    /* the reference: op_gemm on the box in SPM, then one CT convert */
    uint8_t *Ab = malloc((uint64_t)mr * kr * eb + 1), *Bb = malloc((uint64_t)kr * nr * eb + 1);
    uint8_t *Cb = malloc((uint64_t)mr * nr * 4 + 1), *want = malloc((uint64_t)c->M * c->N * ob + 1);
    uint8_t *got = malloc((uint64_t)c->M * c->N * ob + 1);
    box_copy(A, Ab, eb, as, a_st, a_re, 2, 1);
    box_copy(B, Bb, eb, bs, b_st, b_re, 2, 1);
    const uint64_t sa = 0, sb = (sa + (uint64_t)mr * kr * eb + 255) / 256 * 256;
    const uint64_t sc = (sb + (uint64_t)kr * nr * eb + 255) / 256 * 256, sv = (sc + (uint64_t)mr * nr * 4 + 255) / 256 * 256;
    const uint64_t so = (sv + 4ull * nr + 255) / 256 * 256;
    assert_true(so + (uint64_t)mr * nr * 4 <= tx8_hal_config()->spm_bytes);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, sa, Ab, (uint64_t)mr * kr * eb), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, sb, Bb, (uint64_t)kr * nr * eb), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, sv, bias + 4ull * n0, 4ull * nr), 0);
    if (c->accumulate) {
        box_copy(Cold, Cb, 4, cs, c_st, c_re, 2, 1);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, sc, Cb, (uint64_t)mr * nr * 4), 0);
    }
    L_SHAPE la, lb, lc, lv;
    const int32_t ab2[2] = {mr, kr}, bb2[2] = {kr, nr}, cb2[2] = {mr, nr}, vb1[1] = {nr};
    assert_int_equal(tx8_lshape_init(&la, ab2, 2), 0);
    assert_int_equal(tx8_lshape_init(&lb, bb2, 2), 0);
    assert_int_equal(tx8_lshape_init(&lc, cb2, 2), 0);
    assert_int_equal(tx8_lshape_init(&lv, vb1, 1), 0);
    TSR ta = {c->in, sa, &la}, tb = {c->in, sb, &lb}, tc = {acc, sc, &lc}, tv = {acc, sv, &lv};
    GEMM_PARAM gp = {c->accumulate, c->relu};
    assert_true(op_gemm(&gp, &ta, &tb, c->bias ? &tv : NULL, &tc) != TX8_CYCLES_INVALID);
    uint64_t res = sc;
    if (c->out != acc) {
        CT_Param ct;
        CGRATensor_ConvertOp_V_V_convert(&ct, sc, so, (uint32_t)((uint64_t)mr * nr), acc, c->out, RND_NEAREST_EVEN);
        assert_true(TsmExecute(&ct) != TX8_CYCLES_INVALID);
        res = so;
    }
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, res, Cb, (uint64_t)mr * nr * ob), 0);
    memcpy(want, Cold, (uint64_t)c->M * c->N * ob);
    box_copy(want, Cb, ob, cs, c_st, c_re, 2, 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, c_ddr, got, (uint64_t)c->M * c->N * ob), 0);
    char what[160];
    snprintf(what, sizeof what, "gemm_db %s->%s %dx%dx%d box [%d,%d,%d]+[%d,%d,%d]", tx8_format_name(c->in),
             tx8_format_name(c->out), c->M, c->N, c->K, m0, n0, k0, mr, nr, kr);
    expect_equal_elems(got, want, (uint64_t)c->M * c->N, c->out, what);
    free(A), free(B), free(Cold), free(bias), free(Ab), free(Bb), free(Cb), free(want), free(got);
}

static void gemm_db_matches_plain_op(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x6DBu);
    const uint64_t W0 = 0x100000, BIG = 0x100000;
    const gemm_case cases[] = {
        /* one block, K whole */
        {Fmt_FP32, Fmt_FP32, 20, 24, 30, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, W0, BIG},
        /* uneven blocks and K chunks by the bounds: 3 x 4 blocks, 5 K chunks */
        {Fmt_FP32, Fmt_FP32, 37, 29, 100, 0, 0, 0, 0, 0, 0, 1, 1, 0, 16, 8, 24, W0, BIG},
        {Fmt_BF16, Fmt_FP32, 37, 29, 100, 0, 0, 0, 0, 0, 0, 0, 0, 1, 13, 10, 33, W0, BIG},
        {Fmt_BF16, Fmt_BF16, 45, 31, 77, 0, 0, 0, 0, 0, 0, 1, 0, 0, 16, 16, 20, W0, BIG},
        {Fmt_FP16, Fmt_FP16, 33, 40, 65, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, W0, 0x2000}, /* the workspace cuts */
        {Fmt_FP16, Fmt_FP32, 33, 40, 300, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, W0, 0x3000},
        {Fmt_TF32, Fmt_FP32, 19, 23, 70, 0, 0, 0, 0, 0, 0, 0, 1, 0, 7, 9, 16, W0, BIG},
        {Fmt_INT8, Fmt_INT32, 30, 50, 90, 0, 0, 0, 0, 0, 0, 1, 1, 1, 8, 16, 32, W0, BIG},
        {Fmt_INT8, Fmt_INT8, 30, 50, 90, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, W0 + 0x10, 0x1800},
        /* one K chunk: the A panel stays for a whole block row */
        {Fmt_BF16, Fmt_FP32, 9, 70, 40, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 8, 0, W0, BIG},
        /* shard views: rows, columns and a K range of the whole tensors */
        {Fmt_FP32, Fmt_FP32, 40, 30, 50, 5, 7, 0, 20, 13, 50, 1, 1, 0, 6, 5, 16, W0, BIG},
        {Fmt_BF16, Fmt_BF16, 40, 30, 50, 11, 3, 10, 17, 21, 30, 1, 0, 0, 0, 0, 0, W0, 0x1400},
        {Fmt_FP32, Fmt_FP32, 40, 30, 50, 0, 10, 25, 40, 20, 25, 0, 0, 1, 16, 16, 8, W0, BIG}, /* K split: c += */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) run_gemm_case(&r, &cases[i]);
    printf("[ op_gemm_db ] %zu cases bit-identical to op_gemm\n", sizeof cases / sizeof cases[0]);
}

/* ---- op_conv_db ---- */

typedef struct conv_case {
    Data_Format in, out;
    int one_d;
    int32_t n, h, w, c, kh, kw, o;
    uint32_t group, sh, sw, dh, dw;
    int32_t pt, pl, pb, pr;
    uint32_t bias, relu, accumulate, max_rows;
    int32_t box_start[4], box_real[4]; /* out box as (n, y, x, o); box_real[0] == 0: the whole output */
    uint64_t ws_base, ws_bytes;
} conv_case;

static void to_rank(int one_d, const int32_t *v4, int32_t *v) {
    if (one_d) v[0] = v4[0], v[1] = v4[2], v[2] = v4[3];
    else memcpy(v, v4, 4 * sizeof *v);
}

static void run_conv_case(tx8_rng *r, const conv_case *c) {
    const Data_Format acc = c->in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    const int32_t oh = (c->h + c->pt + c->pb - (int32_t)c->dh * (c->kh - 1) - 1) / (int32_t)c->sh + 1;
    const int32_t ow = (c->w + c->pl + c->pr - (int32_t)c->dw * (c->kw - 1) - 1) / (int32_t)c->sw + 1;
    const int32_t dim = c->one_d ? 3 : 4;
    const int32_t in4[4] = {c->n, c->h, c->w, c->c}, w4[4] = {c->kh, c->kw, c->c / (int32_t)c->group, c->o};
    const int32_t out4[4] = {c->n, oh, ow, c->o};
    int32_t ins[4], ws[4], outs[4], bst[4], bre[4];
    to_rank(c->one_d, in4, ins), to_rank(c->one_d, out4, outs);
    if (c->one_d) ws[0] = w4[1], ws[1] = w4[2], ws[2] = w4[3]; /* [KW, C/group, O] */
    else memcpy(ws, w4, sizeof w4);
    int32_t b4s[4] = {0, 0, 0, 0}, b4r[4];
    memcpy(b4r, out4, sizeof b4r);
    if (c->box_real[0]) memcpy(b4s, c->box_start, sizeof b4s), memcpy(b4r, c->box_real, sizeof b4r);
    to_rank(c->one_d, b4s, bst), to_rank(c->one_d, b4r, bre);
    const uint32_t eb = tx8_format_bytes(c->in), ob = tx8_format_bytes(c->out);
    const int is_int = c->in == Fmt_INT8;
    const uint64_t n_in = count_of(ins, dim), n_w = count_of(ws, dim), n_out = count_of(outs, dim);
    uint8_t *X = random_elems(r, c->in, n_in, is_int ? -128 : -1, is_int ? 127 : 1);
    uint8_t *Wt = random_elems(r, c->in, n_w, is_int ? -128 : -1, is_int ? 127 : 1);
    uint8_t *old = random_elems(r, c->out, n_out, is_int ? -99 : -1, is_int ? 99 : 1);
    uint8_t *bias = random_elems(r, acc, (uint64_t)c->o, is_int ? -999 : -1, is_int ? 999 : 1);
    const uint64_t x_ddr = DDR_IN, w_ddr = DDR_AUX, v_ddr = DDR_AUX + 0x1000000, o_ddr = DDR_OUT;
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, x_ddr, X, n_in * eb), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, w_ddr, Wt, n_w * eb), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, v_ddr, bias, 4ull * c->o), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, o_ddr, old, n_out * ob), 0);
    dview x, w, v, o;
    const int32_t vs[1] = {c->o};
    view_init(&x, c->in, x_ddr, ins, dim, NULL, NULL);
    view_init(&w, c->in, w_ddr, ws, dim, NULL, NULL);
    view_init(&v, acc, v_ddr, vs, 1, NULL, NULL);
    view_init(&o, c->out, o_ddr, outs, dim, bst, bre);
    CONV_DB_PARAM p = {{LAYOUT_NTENSOR, c->sh, c->sw, c->dh, c->dw, c->pt, c->pl, c->pb, c->pr, c->group,
                        c->accumulate, c->relu},
                       c->max_rows};
    const uint64_t cyc = op_conv_db(&p, &x.t, &w.t, c->bias ? &v.t : NULL, &o.t, c->ws_base, c->ws_bytes);
    expect_no_fault();
    assert_true(cyc != TX8_CYCLES_INVALID && cyc > 0);

    /* the reference: op_conv on the whole tensors in SPM (accumulating into the old output), convert, the box */
    const uint64_t sx = 0, sw_ = (n_in * eb + 255) / 256 * 256, sv = sw_ + (n_w * eb + 255) / 256 * 256;
    const uint64_t so = sv + (4ull * c->o + 255) / 256 * 256, sc = so + (n_out * 4 + 255) / 256 * 256;
    assert_true(sc + n_out * ob <= tx8_hal_config()->spm_bytes);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, sx, X, n_in * eb), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, sw_, Wt, n_w * eb), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, sv, bias, 4ull * c->o), 0);
    if (c->accumulate) assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, so, old, n_out * 4), 0);
    L_SHAPE lx, lw, lv, lo;
    assert_int_equal(tx8_lshape_init(&lx, ins, dim), 0);
    assert_int_equal(tx8_lshape_init(&lw, ws, dim), 0);
    assert_int_equal(tx8_lshape_init(&lv, vs, 1), 0);
    assert_int_equal(tx8_lshape_init(&lo, outs, dim), 0);
    TSR tx = {c->in, sx, &lx}, tw = {c->in, sw_, &lw}, tv = {acc, sv, &lv}, to = {acc, so, &lo};
    assert_true(op_conv(&p.conv, &tx, &tw, c->bias ? &tv : NULL, &to) != TX8_CYCLES_INVALID);
    uint64_t res = so;
    if (c->out != acc) {
        CT_Param ct;
        CGRATensor_ConvertOp_V_V_convert(&ct, so, sc, (uint32_t)n_out, acc, c->out, RND_NEAREST_EVEN);
        assert_true(TsmExecute(&ct) != TX8_CYCLES_INVALID);
        res = sc;
    }
    uint8_t *ref = malloc(n_out * ob + 1), *boxv = malloc(n_out * ob + 1), *want = malloc(n_out * ob + 1);
    uint8_t *got = malloc(n_out * ob + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, res, ref, n_out * ob), 0);
    box_copy(ref, boxv, ob, outs, bst, bre, dim, 1);
    memcpy(want, old, n_out * ob);
    box_copy(want, boxv, ob, outs, bst, bre, dim, 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, o_ddr, got, n_out * ob), 0);
    char what[200];
    snprintf(what, sizeof what,
             "conv_db %s->%s in [%d,%d,%d,%d] k %dx%d o %d g %u s %u,%u d %u,%u pads %d,%d,%d,%d box [%d,%d,%d,%d]+"
             "[%d,%d,%d,%d]",
             tx8_format_name(c->in), tx8_format_name(c->out), c->n, c->h, c->w, c->c, c->kh, c->kw, c->o, c->group,
             c->sh, c->sw, c->dh, c->dw, c->pt, c->pl, c->pb, c->pr, b4s[0], b4s[1], b4s[2], b4s[3], b4r[0], b4r[1],
             b4r[2], b4r[3]);
    expect_equal_elems(got, want, n_out, c->out, what);
    free(X), free(Wt), free(old), free(bias), free(ref), free(boxv), free(want), free(got);
}

static void conv_db_matches_plain_op(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xC0Du);
    const uint64_t W0 = 0x100000, BIG = 0x100000;
    const conv_case cases[] = {
        /* whole images per slice */
        {Fmt_FP32, Fmt_FP32, 0, 3, 8, 8, 5, 3, 3, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, {0}, {0}, W0, BIG},
        /* row bands with halo: 3x3 pad 1, uneven bands by max_rows, and by the workspace */
        {Fmt_FP32, Fmt_FP32, 0, 2, 13, 9, 5, 3, 3, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 4, {0}, {0}, W0, BIG},
        {Fmt_BF16, Fmt_FP32, 0, 2, 17, 11, 8, 3, 3, 16, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, {0}, {0}, W0, 0x4000},
        {Fmt_FP16, Fmt_FP16, 0, 1, 19, 10, 6, 5, 3, 7, 1, 2, 1, 1, 1, 2, 1, 1, 0, 1, 0, 0, 3, {0}, {0}, W0, BIG},
        /* stride 2, dilation 2, asymmetric pads, groups, depthwise */
        {Fmt_BF16, Fmt_BF16, 0, 2, 15, 12, 8, 3, 3, 12, 1, 2, 2, 1, 1, 0, 1, 2, 1, 1, 1, 0, 2, {0}, {0}, W0, BIG},
        {Fmt_FP32, Fmt_FP32, 0, 1, 16, 9, 4, 3, 3, 8, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 0, 0, 3, {0}, {0}, W0, BIG},
        {Fmt_FP16, Fmt_FP32, 0, 2, 12, 10, 8, 3, 3, 12, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 5, {0}, {0}, W0, BIG},
        {Fmt_FP32, Fmt_FP32, 0, 1, 14, 7, 6, 3, 3, 6, 6, 2, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 2, {0}, {0}, W0, BIG},
        {Fmt_INT8, Fmt_INT32, 0, 2, 11, 9, 7, 3, 2, 5, 1, 1, 2, 1, 1, 1, 0, 1, 1, 1, 1, 0, 3, {0}, {0}, W0, BIG},
        {Fmt_INT8, Fmt_INT8, 0, 1, 11, 9, 7, 3, 3, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, {0}, {0}, W0, 0xA00},
        {Fmt_TF32, Fmt_FP32, 0, 1, 9, 9, 3, 1, 1, 4, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 2, {0}, {0}, W0, BIG},
        /* accumulate: out += conv */
        {Fmt_FP32, Fmt_FP32, 0, 2, 10, 6, 3, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, {0}, {0}, W0, BIG},
        /* weight columns beyond half the workspace: passes over parts of the output channels (whole groups) */
        {Fmt_FP32, Fmt_FP32, 0, 2, 9, 7, 16, 3, 3, 24, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, {0}, {0}, W0, 0x4000},
        {Fmt_BF16, Fmt_BF16, 0, 1, 8, 6, 16, 3, 3, 32, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, {0}, {0}, W0, 0x1000},
        /* 1-D */
        {Fmt_BF16, Fmt_FP32, 1, 3, 1, 40, 6, 1, 5, 5, 1, 1, 2, 1, 1, 0, 2, 0, 1, 1, 0, 0, 0, {0}, {0}, W0, 0x1000},
        /* shard views: rows, columns, images and output channels (whole groups) */
        {Fmt_FP32, Fmt_FP32, 0, 3, 14, 12, 5, 3, 3, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 3,
         {1, 4, 3, 2}, {2, 7, 6, 5}, W0, BIG},
        {Fmt_BF16, Fmt_BF16, 0, 2, 13, 11, 8, 3, 3, 12, 4, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2,
         {1, 2, 0, 6}, {1, 4, 11, 6}, W0, BIG},
        {Fmt_FP16, Fmt_FP32, 0, 1, 20, 8, 4, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0,
         {0, 5, 0, 0}, {1, 9, 8, 4}, W0, 0xA00},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) run_conv_case(&r, &cases[i]);
    printf("[ op_conv_db ] %zu cases bit-identical to op_conv\n", sizeof cases / sizeof cases[0]);
}

/* ---- shards on several tiles: each tile streams its part of the output box through its own SPM ---- */

enum { MT_TILES = 4 };
#define MT_BN_OUT (DDR_OUT)
#define MT_GEMM_OUT (DDR_OUT + 0x100000)
#define MT_CONV_OUT (DDR_OUT + 0x200000)
#define MT_REF 0x1000000ull /* the single-tile results, at the same offsets past this */

/* Tile t's shard of each op (t < 0: the whole tensors, as one tile) into outputs at DDR offset `ref`. */
static int run_shards(int32_t t, uint64_t ref) {
    const int whole = t < 0;
    /* batchnorm (folded): fp16 NTensor [4,12,10,24], one batch per tile */
    const int32_t bs[4] = {4, 12, 10, 24}, vs[2] = {1, 24};
    const int32_t b_st[4] = {whole ? 0 : t, 0, 0, 0}, b_re[4] = {whole ? 4 : 1, 12, 10, 24};
    dview bi, bo, v[4];
    view_init(&bi, Fmt_FP16, DDR_IN, bs, 4, b_st, b_re);
    view_init(&bo, Fmt_FP16, MT_BN_OUT + ref, bs, 4, b_st, b_re);
    for (int k = 0; k < 4; ++k) view_init(&v[k], Fmt_FP32, DDR_AUX + k * 0x100ull, vs, 2, NULL, NULL);
    BATCHNORM_DB_PARAM bp = {LAYOUT_NTENSOR, 1e-5f, 1};
    if (op_batchnorm_inference_db(&bp, &bi.t, &v[0].t, &v[1].t, &v[2].t, &v[3].t, &bo.t, 0x1000, 0x3000) ==
        TX8_CYCLES_INVALID)
        return -1;
    /* gemm: bf16 [64,80] x [80,48] -> bf16 [64,48], 16 rows per tile */
    const int32_t as[2] = {64, 80}, gs[2] = {80, 48}, cs[2] = {64, 48};
    const int32_t a_st[2] = {whole ? 0 : 16 * t, 0}, a_re[2] = {whole ? 64 : 16, 80};
    const int32_t c_st[2] = {a_st[0], 0}, c_re[2] = {a_re[0], 48};
    dview a, b, c;
    view_init(&a, Fmt_BF16, DDR_IN + 0x100000, as, 2, a_st, a_re);
    view_init(&b, Fmt_BF16, DDR_IN + 0x200000, gs, 2, NULL, NULL);
    view_init(&c, Fmt_BF16, MT_GEMM_OUT + ref, cs, 2, c_st, c_re);
    GEMM_DB_PARAM gp = {0, 1, 8, 16, 32};
    if (op_gemm_db(&gp, &a.t, &b.t, NULL, &c.t, 0x8000, 0x8000) == TX8_CYCLES_INVALID) return -1;
    /* conv: fp32 [1,24,10,8] 3x3 pad 1 -> [1,24,10,12], 6 output rows per tile */
    const int32_t xs[4] = {1, 24, 10, 8}, ws[4] = {3, 3, 8, 12}, os[4] = {1, 24, 10, 12};
    const int32_t o_st[4] = {0, whole ? 0 : 6 * t, 0, 0}, o_re[4] = {1, whole ? 24 : 6, 10, 12};
    dview x, w, o;
    view_init(&x, Fmt_FP32, DDR_IN + 0x300000, xs, 4, NULL, NULL);
    view_init(&w, Fmt_FP32, DDR_AUX + 0x10000, ws, 4, NULL, NULL);
    view_init(&o, Fmt_FP32, MT_CONV_OUT + ref, os, 4, o_st, o_re);
    CONV_DB_PARAM cp = {{LAYOUT_NTENSOR, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1}, 2};
    if (op_conv_db(&cp, &x.t, &w.t, NULL, &o.t, 0x10000, 0x10000) == TX8_CYCLES_INVALID) return -1;
    return 0;
}

static int g_mt_status[MT_TILES];

static void mt_tile_main(void *arg) {
    (void)arg;
    const uint32_t t = tx8_hal_tile_id();
    g_mt_status[t] = run_shards((int32_t)t, 0);
    tx8_hal_barrier();
}

static void shards_on_tiles_match_one_tile(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x711Eu);
    const int32_t bs[4] = {4, 12, 10, 24}, vs[2] = {1, 24};
    uint8_t *e = random_elems(&r, Fmt_FP16, count_of(bs, 4), -3, 3);
    put_image(TX8_MEM_DDR, DDR_IN, LAYOUT_NTENSOR, Fmt_FP16, bs, 4, e);
    free(e);
    for (int k = 0; k < 4; ++k) {
        e = random_elems(&r, Fmt_FP32, 24, k == 3 ? 0.1 : -2, 2);
        put_image(TX8_MEM_DDR, DDR_AUX + k * 0x100ull, LAYOUT_TENSOR, Fmt_FP32, vs, 2, e);
        free(e);
    }
    const struct { uint64_t addr; Data_Format f; uint64_t n; } ins[] = {
        {DDR_IN + 0x100000, Fmt_BF16, 64 * 80}, {DDR_IN + 0x200000, Fmt_BF16, 80 * 48},
        {DDR_IN + 0x300000, Fmt_FP32, 24 * 10 * 8}, {DDR_AUX + 0x10000, Fmt_FP32, 3 * 3 * 8 * 12}};
    for (int i = 0; i < 4; ++i) {
        e = random_elems(&r, ins[i].f, ins[i].n, -1, 1);
        assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, ins[i].addr, e, ins[i].n * tx8_format_bytes(ins[i].f)), 0);
        free(e);
    }
    assert_int_equal(run_shards(-1, MT_REF), 0); /* one tile, the whole tensors */
    expect_no_fault();
    assert_int_equal(tx8_hal_run_tiles(MT_TILES, mt_tile_main, NULL), 0);
    expect_no_fault();
    for (int t = 0; t < MT_TILES; ++t) assert_int_equal(g_mt_status[t], 0);
    const struct { uint64_t off, bytes; } outs[] = {
        {MT_BN_OUT, 4 * 12 * 10 * 24 * 2}, {MT_GEMM_OUT, 64 * 48 * 2}, {MT_CONV_OUT, 24 * 10 * 12 * 4}};
    for (int i = 0; i < 3; ++i) {
        uint8_t *p = malloc(outs[i].bytes), *q = malloc(outs[i].bytes);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, outs[i].off, p, outs[i].bytes), 0);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, outs[i].off + MT_REF, q, outs[i].bytes), 0);
        assert_memory_equal(p, q, outs[i].bytes);
        free(p), free(q);
    }
    printf("[ db ops ] batchnorm (folded), gemm and conv sharded over %d tiles: bit-identical to one tile\n",
           MT_TILES);
}

/* ---- the asynchronous DMA moves: the same bytes as the synchronous ones ---- */

static void async_moves_match_sync(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xA5Cu);
    const int32_t shape[4] = {3, 7, 5, 131}, start[4] = {1, 2, 0, 0}, real[4] = {2, 4, 5, 131};
    uint8_t *x = random_elems(&r, Fmt_FP16, count_of(shape, 4), -3, 3);
    put_image(TX8_MEM_DDR, DDR_IN, LAYOUT_NCX, Fmt_FP16, shape, 4, x);
    dview src, d1, d2, whole;
    view_init(&src, Fmt_FP16, DDR_IN, shape, 4, start, real);
    view_init(&d1, Fmt_FP16, DDR_OUT, shape, 4, start, real);
    view_init(&d2, Fmt_FP16, DDR_OUT + 0x100000, shape, 4, start, real);
    view_init(&whole, Fmt_FP16, DDR_IN, shape, 4, NULL, NULL);
    const uint64_t bytes = image_bytes(LAYOUT_NCX, Fmt_FP16, real, 4), wbytes = image_bytes(LAYOUT_NCX, Fmt_FP16, shape, 4);
    L_SHAPE la, lb, lc;
    assert_int_equal(tx8_lshape_init(&la, real, 4), 0);
    assert_int_equal(tx8_lshape_init(&lb, real, 4), 0);
    assert_int_equal(tx8_lshape_init(&lc, shape, 4), 0);
    TSR a = {Fmt_FP16, 0x0, &la}, b = {Fmt_FP16, 0x40000, &lb}, c = {Fmt_FP16, 0x80000, &lc};
    LOAD_PARAM ld = {LAYOUT_NCX};
    STORE_PARAM st = {LAYOUT_NCX};
    const tx8_token t1 = op_loadVar_async(&ld, &src.t, &a, NULL, 0);
    const tx8_token t2 = op_loadConst_async(&ld, &whole.t, &c, NULL, 0);
    assert_true(t1 != 0 && t2 != 0);
    assert_true(op_loadVar(&ld, &src.t, &b) != TX8_CYCLES_INVALID);
    tx8_hal_wait(t1);
    const tx8_token t3 = op_dma_store_async(&st, &a, &d1.t, &t2, 1); /* deps are honoured: after the whole load */
    assert_true(t3 != 0);
    assert_true(op_dma_store(&st, &b, &d2.t) != TX8_CYCLES_INVALID);
    tx8_hal_wait(t3);
    expect_no_fault();
    uint8_t *p = malloc(wbytes), *q = malloc(wbytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x0, p, bytes), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x40000, q, bytes), 0);
    assert_memory_equal(p, q, bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x80000, p, wbytes), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, DDR_IN, q, wbytes), 0);
    assert_memory_equal(p, q, wbytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, DDR_OUT, p, wbytes), 0);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, DDR_OUT + 0x100000, q, wbytes), 0);
    assert_memory_equal(p, q, wbytes);
    /* faults: nothing issued, token 0 */
    assert_true(op_loadVar_async(NULL, &src.t, &a, NULL, 0) == 0);
    tx8_test_expect_fault("op_loadVar_async: param is NULL");
    assert_true(op_dma_store_async(&st, &a, &d1.t, NULL, 1) == 0);
    tx8_test_expect_fault("op_dma_store_async: deps is NULL with ndeps = 1");
    TSR bad = a;
    bad.format = Fmt_BF16;
    assert_true(op_loadVar_async(&ld, &src.t, &bad, NULL, 0) == 0);
    tx8_test_expect_fault("op_loadVar_async: spm_dst format bf16 differs from ddr_src format fp16");
    free(p), free(q), free(x);
}

/* ---- bad inputs: one fault naming the op and the sizes; nothing written ---- */

static void expect_ddr_unchanged(uint64_t addr, const uint8_t *before, uint64_t n) {
    uint8_t *now = malloc(n);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, addr, now, n), 0);
    assert_memory_equal(before, now, n);
    free(now);
}

static void faults_name_the_op_and_sizes(void **state) {
    (void)state;
    uint8_t pattern[4096];
    for (int i = 0; i < 4096; ++i) pattern[i] = (uint8_t)(i * 7 + 3);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, DDR_OUT, pattern, sizeof pattern), 0);

    /* batchnorm */
    const int32_t bs[4] = {2, 4, 4, 8}, vs[2] = {1, 8};
    dview in, out, v[4];
    view_init(&in, Fmt_FP32, DDR_IN, bs, 4, NULL, NULL);
    view_init(&out, Fmt_FP32, DDR_OUT, bs, 4, NULL, NULL);
    for (int k = 0; k < 4; ++k) view_init(&v[k], Fmt_FP32, DDR_AUX + k * 0x100ull, vs, 2, NULL, NULL);
    BATCHNORM_DB_PARAM bp = {LAYOUT_NTENSOR, 1e-5f, 0};
    assert_true(op_batchnorm_inference_db(&bp, &in.t, &v[0].t, &v[1].t, &v[2].t, &v[3].t, &out.t, 0x1000, 512) ==
                TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_db: workspace of 512 bytes at 0x1000 is too small");
    assert_true(op_batchnorm_inference_db(&bp, &in.t, &v[0].t, &v[1].t, &v[2].t, &v[3].t, &out.t,
                                          tx8_hal_config()->spm_bytes - 0x100, 0x1000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_db: workspace [0x");
    dview same;
    view_init(&same, Fmt_FP32, DDR_IN + 64, bs, 4, NULL, NULL);
    assert_true(op_batchnorm_inference_db(&bp, &in.t, &v[0].t, &v[1].t, &v[2].t, &v[3].t, &same.t, 0, 0x10000) ==
                TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_db: out [0x40, +1024 bytes) overlaps in [0x0, +1024 bytes)");
    const int32_t bad_v[2] = {1, 7};
    dview vb;
    view_init(&vb, Fmt_FP32, DDR_AUX, bad_v, 2, NULL, NULL);
    assert_true(op_batchnorm_inference_db(&bp, &in.t, &vb.t, &v[1].t, &v[2].t, &v[3].t, &out.t, 0, 0x10000) ==
                TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_db: scale must be a 1x..x8 per-channel vector");
    const int32_t st[4] = {0, 1, 0, 0}, re[4] = {2, 4, 4, 8};
    dview badbox;
    view_init(&badbox, Fmt_FP32, DDR_IN, bs, 4, st, re);
    assert_true(op_batchnorm_inference_db(&bp, &badbox.t, &v[0].t, &v[1].t, &v[2].t, &v[3].t, &out.t, 0, 0x10000) ==
                TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_db: in dim 1: box [1, +4) is not inside [0, 4)");
    bp.layout = LAYOUT_NCX;
    const int32_t cst[4] = {0, 0, 0, 1}, cre[4] = {2, 4, 4, 7};
    dview cbox, cout;
    view_init(&cbox, Fmt_FP32, DDR_IN, bs, 4, cst, cre);
    view_init(&cout, Fmt_FP32, DDR_OUT, bs, 4, cst, cre);
    assert_true(op_batchnorm_inference_db(&bp, &cbox.t, &v[0].t, &v[1].t, &v[2].t, &v[3].t, &cout.t, 0, 0x10000) ==
                TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_batchnorm_inference_db: layout NCx: the box must keep the whole C");

    /* gemm */
    const int32_t as[2] = {16, 32}, bsh[2] = {32, 24}, cs[2] = {16, 24};
    dview a, b, c, c8;
    view_init(&a, Fmt_BF16, DDR_IN, as, 2, NULL, NULL);
    view_init(&b, Fmt_BF16, DDR_IN + 0x10000, bsh, 2, NULL, NULL);
    view_init(&c, Fmt_FP32, DDR_OUT, cs, 2, NULL, NULL);
    view_init(&c8, Fmt_BF16, DDR_OUT, cs, 2, NULL, NULL);
    GEMM_DB_PARAM gp = {0, 0, 0, 0, 0};
    assert_true(op_gemm_db(&gp, &a.t, &b.t, NULL, &c.t, 0x2000, 1000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm_db: workspace of 1000 bytes at 0x2000 is too small: the smallest blocks");
    gp.accumulate = 1;
    assert_true(op_gemm_db(&gp, &a.t, &b.t, NULL, &c8.t, 0, 0x10000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm_db: param accumulate needs c in the accumulator's format fp32, c is bf16");
    gp.accumulate = 0;
    assert_true(op_gemm_db(&gp, &a.t, &a.t, NULL, &c.t, 0, 0x10000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm_db: boxes a [16,32] x b [16,32] -> c [16,24] do not match");
    dview cf;
    view_init(&cf, Fmt_FP16, DDR_OUT, cs, 2, NULL, NULL);
    assert_true(op_gemm_db(&gp, &a.t, &b.t, NULL, &cf.t, 0, 0x10000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm_db: c format fp16, expected fp32 (the accumulator) or bf16 (a's)");
    dview cov;
    view_init(&cov, Fmt_FP32, DDR_IN + 0x10000 + 100, cs, 2, NULL, NULL);
    assert_true(op_gemm_db(&gp, &a.t, &b.t, NULL, &cov.t, 0, 0x10000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm_db: c [0x10064, +1536 bytes) overlaps b [0x10000, +1536 bytes) in DDR");

    /* conv */
    const int32_t xs[4] = {1, 8, 8, 4}, wsh[4] = {3, 3, 2, 6}, os[4] = {1, 8, 8, 6};
    dview x, w, o;
    view_init(&x, Fmt_FP32, DDR_IN, xs, 4, NULL, NULL);
    view_init(&w, Fmt_FP32, DDR_AUX, wsh, 4, NULL, NULL);
    view_init(&o, Fmt_FP32, DDR_OUT, os, 4, NULL, NULL);
    CONV_DB_PARAM cp = {{LAYOUT_NTENSOR, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0}, 0};
    assert_true(op_conv_db(&cp, &x.t, &w.t, NULL, &o.t, 0x3000, 1024) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_conv_db: workspace of 1024 bytes at 0x3000 is too small: the smallest slice");
    const int32_t ost[4] = {0, 0, 0, 1}, ore[4] = {1, 8, 8, 3};
    dview ob;
    view_init(&ob, Fmt_FP32, DDR_OUT, os, 4, ost, ore);
    assert_true(op_conv_db(&cp, &x.t, &w.t, NULL, &ob.t, 0, 0x10000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_conv_db: out's channel box [1, +3) must cover whole groups of 3 channels");
    const int32_t bad_os[4] = {1, 7, 8, 6};
    dview obad;
    view_init(&obad, Fmt_FP32, DDR_OUT, bad_os, 4, NULL, NULL);
    assert_true(op_conv_db(&cp, &x.t, &w.t, NULL, &obad.t, 0, 0x10000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_conv_db: out shape_whole [1,7,8,6] (rank 3: no OH), expected [N,OH,OW,O] = [1,8,8,6]");
    CONV_DB_PARAM cpad = {{LAYOUT_NTENSOR, 1, 1, 1, 1, 4, 0, 4, 0, 2, 0, 0}, 1};
    const int32_t os2[4] = {1, 14, 6, 6};
    dview o2;
    view_init(&o2, Fmt_FP32, DDR_OUT, os2, 4, NULL, NULL);
    assert_true(op_conv_db(&cpad, &x.t, &w.t, NULL, &o2.t, 0, 0x10000) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_conv_db: output rows [0, +1) read only padding");
    expect_ddr_unchanged(DDR_OUT, pattern, sizeof pattern);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(batchnorm_db_matches_plain_op, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(batchnorm_db_demo_tensor, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(gemm_db_matches_plain_op, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(conv_db_matches_plain_op, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(shards_on_tiles_match_one_tile, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(async_moves_match_sync, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_name_the_op_and_sizes, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * An op sharded over all 16 tiles (16 host threads on the cmodel, 16 harts under QEMU), with barriers between
 * the phases:
 *   phase 1  op_batchnorm_inference sharded on C, as BatchNorm's tileShardingSplit allows (C only): tile t loads
 *            channels [8t, 8t + 8) of x and of the four per-channel vectors, normalises them, stores its slice of y;
 *   barrier
 *   phase 2  tile t applies op_relu to the slice that tile (t + 1) % 16 wrote, so its input is another tile's
 *            output: the result is right only if the barrier really orders the phases;
 *   barrier
 * Tile 0 then checks z (and y) against the same two ops run by one tile on the whole tensor, bit for bit (the
 * normalisation is per channel, so sharding must not change a single bit), against a double reference within
 * the fp16 bound, and that all tiles left the last barrier at the same simulated time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8_test.h"

enum { TILES = 16, N = 2, H = 4, W = 6, CS = 8, C = TILES * CS };
#define ELEMS ((size_t)N * H * W * C)
#define IO_BYTES (ELEMS * 2) /* fp16, NTensor (compact) */

/* DDR map (bank-aligned regions). */
enum { DDR_X = 0, DDR_Y = 0x10000, DDR_Z = 0x20000, DDR_VEC = 0x30000, DDR_REF_Y = 0x40000, DDR_REF_Z = 0x50000 };
#define DDR_VEC_STRIDE 0x1000u

typedef struct tile_log {
    uint64_t cycles_after;
    int32_t relu_source; /* whose slice this tile's relu read */
} tile_log;

static void tsr(TSR *t, L_SHAPE *s, Data_Format f, uint64_t addr, const int32_t *shape, int32_t dim) {
    tx8_lshape_init(s, shape, dim);
    t->format = f, t->addr = addr, t->shape = s;
}

/* A DDR tensor of whole shape `whole` viewed as its channel slice [c0, c0 + cs) (channels are the last dim). */
static void ddr_channel_slice(TSR *t, L_SHAPE *s, Data_Format f, uint64_t addr, const int32_t *whole, int32_t dim,
                              int32_t c0, int32_t cs) {
    tsr(t, s, f, addr, whole, dim);
    s->shape_start[dim - 1] = c0;
    s->shape_slice[dim - 1] = s->shape_real[dim - 1] = cs;
}

/* Normalises channels [c0, c0 + cs) of x into y, then relu of y's channels [r0, r0 + cs) into z, on the calling
 * tile, with a barrier between (when called by one tile alone on the whole tensor, both ranges are everything). */
static void bn_then_relu(int32_t c0, int32_t r0, int32_t cs, uint64_t y_ddr, uint64_t z_ddr) {
    const int32_t whole[4] = {N, H, W, C}, part[4] = {N, H, W, cs}, vwhole[1] = {C}, vpart[1] = {cs};
    const uint64_t part_bytes = (uint64_t)N * H * W * cs * 2;
    const uint64_t spm_x = 0, spm_y = part_bytes, spm_vec = 2 * part_bytes, spm_imm = spm_vec + 4 * 4 * C;
    LOAD_PARAM ld = {LAYOUT_NTENSOR};
    STORE_PARAM st = {LAYOUT_NTENSOR};
    BATCHNORM_INFER_PARAM bn = {LAYOUT_NTENSOR, 1e-6f};
    ELTWISE_PARAM el = {LAYOUT_NTENSOR, RND_NEAREST_EVEN};
    L_SHAPE s_xd, s_x, s_y, s_yd, s_vd[4], s_v[4], s_imm;
    TSR xd, x, y, yd, vd[4], v[4], imm;

    ddr_channel_slice(&xd, &s_xd, Fmt_FP16, DDR_X, whole, 4, c0, cs);
    tsr(&x, &s_x, Fmt_FP16, spm_x, part, 4);
    tsr(&y, &s_y, Fmt_FP16, spm_y, part, 4);
    op_loadVar(&ld, &xd, &x);
    for (int k = 0; k < 4; ++k) {
        ddr_channel_slice(&vd[k], &s_vd[k], Fmt_FP32, DDR_VEC + k * DDR_VEC_STRIDE, vwhole, 1, c0, cs);
        tsr(&v[k], &s_v[k], Fmt_FP32, spm_vec + 4ull * C * k, vpart, 1);
        op_loadVar(&ld, &vd[k], &v[k]);
    }
    const int32_t imm_bytes[1] = {(int32_t)op_batchnorm_inference_imm_size(tx8_hal_config(), &bn, &x)};
    tsr(&imm, &s_imm, Fmt_INT8, spm_imm, imm_bytes, 1);
    op_batchnorm_inference(&bn, &x, &v[0], &v[1], &v[2], &v[3], &imm, &y);
    ddr_channel_slice(&yd, &s_yd, Fmt_FP16, y_ddr, whole, 4, c0, cs);
    op_dma_store(&st, &y, &yd);

    tx8_hal_barrier(); /* every slice of y is in DDR before anyone reads a neighbour's */

    ddr_channel_slice(&yd, &s_yd, Fmt_FP16, y_ddr, whole, 4, r0, cs);
    op_loadVar(&ld, &yd, &x);
    op_relu(&el, &x, &y);
    L_SHAPE s_zd;
    TSR zd;
    ddr_channel_slice(&zd, &s_zd, Fmt_FP16, z_ddr, whole, 4, r0, cs);
    op_dma_store(&st, &y, &zd);
    tx8_hal_barrier();
}

static void tile_main(void *arg) {
    tile_log *log = (tile_log *)arg;
    const int32_t t = (int32_t)tx8_hal_tile_id(), source = (t + 1) % TILES;
    bn_then_relu(t * CS, source * CS, CS, DDR_Y, DDR_Z);
    log[t].cycles_after = tx8_hal_cycles();
    log[t].relu_source = source;
}

static void put_fp(uint64_t addr, Data_Format f, const double *vals, size_t n) {
    const uint32_t eb = tx8_format_bytes(f);
    uint8_t *buf = malloc(n * eb);
    for (size_t i = 0; i < n; ++i) cm_store_element(buf + i * eb, f, vals[i], RND_NEAREST_EVEN);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_DDR, addr, buf, n * eb), 0);
    free(buf);
}

static uint8_t *get_bytes(uint64_t addr, size_t bytes) {
    uint8_t *buf = malloc(bytes);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_DDR, addr, buf, bytes), 0);
    return buf;
}

static void batchnorm_sharded_over_16_tiles(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() ^ 0x16);
    double *x = malloc(ELEMS * sizeof(double)), vec[4][C];
    for (size_t i = 0; i < ELEMS; ++i) x[i] = tx8_rng_uniform(&rng, -4.0, 4.0);
    tx8_test_quantize(Fmt_FP16, x, ELEMS);
    for (int k = 0; k < 4; ++k) {
        for (int c = 0; c < C; ++c) vec[k][c] = k == 3 ? tx8_rng_uniform(&rng, 0.05, 3.0) : tx8_rng_uniform(&rng, -2, 2);
        tx8_test_quantize(Fmt_FP32, vec[k], C);
        put_fp(DDR_VEC + k * DDR_VEC_STRIDE, Fmt_FP32, vec[k], C);
    }
    put_fp(DDR_X, Fmt_FP16, x, ELEMS);

    tile_log log[TILES];
    memset(log, 0, sizeof log);
    assert_int_equal(tx8_hal_run_tiles(TILES, tile_main, log), 0);
    assert_int_equal(tx8_test_faults()->count, 0);
    for (int t = 0; t < TILES; ++t) {
        assert_int_equal(log[t].relu_source, (t + 1) % TILES);
        assert_int_equal(log[t].cycles_after, log[0].cycles_after); /* the last barrier synchronised time */
    }
    const uint64_t sharded_cycles = log[0].cycles_after;

    /* The same ops by tile 0 alone on the whole tensor (a one-tile program: the barriers return at once). */
    const uint64_t before = tx8_hal_cycles();
    bn_then_relu(0, 0, C, DDR_REF_Y, DDR_REF_Z);
    assert_int_equal(tx8_test_faults()->count, 0);
    const uint64_t single_cycles = tx8_hal_cycles() - before;
    printf("[ multi-tile ] batchnorm + relu on %dx%dx%dx%d fp16: %llu cycles on 16 tiles, %llu on one\n", N, H, W, C,
           (unsigned long long)sharded_cycles, (unsigned long long)single_cycles);
    /* This tensor is tiny: 16 tiles pay DMA latency and barriers for a few bytes each, so the sharded run need not
     * be faster. What must hold is the shared DDR: all tiles together moved x, y twice and z through it. */
    const uint64_t ddr_bytes = 4 * IO_BYTES;
    assert_true(sharded_cycles >= ddr_bytes / tx8_hal_config()->ddr_bytes_per_cycle);

    uint8_t *y = get_bytes(DDR_Y, IO_BYTES), *z = get_bytes(DDR_Z, IO_BYTES);
    uint8_t *ry = get_bytes(DDR_REF_Y, IO_BYTES), *rz = get_bytes(DDR_REF_Z, IO_BYTES);
    assert_memory_equal(y, ry, IO_BYTES);
    assert_memory_equal(z, rz, IO_BYTES);

    size_t positive = 0;
    for (size_t i = 0; i < ELEMS; ++i) {
        const int c = (int)(i % C);
        const double rstd = 1.0 / sqrt((double)(float)(vec[3][c] + (double)1e-6f));
        const double norm = vec[0][c] * (x[i] - vec[2][c]) * rstd, want = fmax(norm + vec[1][c], 0.0);
        const double got = cm_load_element(z + 2 * i, Fmt_FP16);
        const double tol = 8 * tx8_test_eps(Fmt_FP32) * (fabs(norm) + fabs(vec[1][c])) +
                           tx8_test_eps(Fmt_FP16) * fabs(want) + 1e-7;
        if (!(fabs(got - want) <= tol)) {
            print_error("z[%zu] (channel %d): got %.9g want %.9g tol %.3g\n", i, c, got, want, tol);
            fail();
        }
        positive += got > 0;
    }
    assert_true(positive > ELEMS / 4 && positive < ELEMS); /* relu really cut something, and not everything */
    free(x), free(y), free(z), free(ry), free(rz);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(batchnorm_sharded_over_16_tiles, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Demo: op_batchnorm_inference on an 8x56x56x129 fp16 NCx tensor in DDR, one tile, on either backend (the same
 * source is the host program on the cmodel and RISC-V firmware under QEMU; both print the same checksum and cycles).
 *
 * This is the seed's main.c loop written by hand: the tensor is too big for SPM, so it is split in time
 * (N and H slices); each slice is loaded (op_loadVar), normalised (op_batchnorm_inference) and stored
 * (op_store_var_ncx). The per-channel vectors are constants loaded once (op_loadConst).
 *
 * Prints an output checksum (FNV-1a over the compact fp16 output), the simulated cycles with the per-engine split,
 * the achieved DDR bytes per cycle, and the largest deviation from a double-precision reference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/cm_numerics.h"
#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"

enum { N = 8, H = 56, W = 56, C = 129, H_SLICE = 28 };

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

static uint32_t lcg_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}
static float lcg_uniform(uint64_t *s, float lo, float hi) { return lo + (hi - lo) * (lcg_next(s) / 2147483648.0f); }

static void tsr_init(TSR *t, L_SHAPE *s, Data_Format f, uint64_t addr, const int32_t *shape, int32_t dim) {
    tx8_lshape_init(s, shape, dim);
    t->format = f, t->addr = addr, t->shape = s;
}

static int write_ddr_image(uint64_t addr, const tx8_layout *l, const void *compact) {
    uint8_t *image = malloc(l->total_bytes);
    tx8_layout_pack(l, compact, image);
    int rc = tx8_hal_mem_write(TX8_MEM_DDR, addr, image, l->total_bytes);
    free(image);
    return rc;
}

/* The parallel form: every tile streams its shard (one image's half: N x 2 shards for 16 tiles) through
 * op_batchnorm_inference_db, loads of the next slice and stores of the last overlapping the compute. */
typedef struct shard_job {
    TSR in, out, vec[4];
    L_SHAPE s_in, s_out;
    uint32_t folded;
    uint64_t failed;
} shard_job;

static void shard_tile(void *arg) {
    shard_job *j = (shard_job *)arg;
    const int32_t t = (int32_t)tx8_hal_tile_id(), tiles = (int32_t)tx8_hal_tile_count();
    const int32_t per_image = tiles / N, rows = H / per_image;
    L_SHAPE si = j->s_in, so = j->s_out;
    TSR in = j->in, out = j->out;
    in.shape = &si, out.shape = &so;
    const int32_t start[4] = {t / per_image, (t % per_image) * rows, 0, 0}, real[4] = {1, rows, W, C};
    memcpy(si.shape_start, start, sizeof start), memcpy(si.shape_real, real, sizeof real);
    memcpy(si.shape_slice, real, sizeof real);
    so = si;
    BATCHNORM_DB_PARAM p = {LAYOUT_NCX, 1e-6f, j->folded};
    if (op_batchnorm_inference_db(&p, &in, &j->vec[0], &j->vec[1], &j->vec[2], &j->vec[3], &out, 0,
                                  tx8_hal_config()->spm_bytes) == TX8_CYCLES_INVALID)
        j->failed = 1;
    tx8_hal_barrier();
}

static int demo(uint32_t tiles, uint32_t folded) {
    tx8_hw_config cfg = tx8_hw_config_default();
    tx8_hal *hal = tx8_hal_open(&cfg);
    if (!hal) return 1;
    const uint64_t core_start = tx8_hal_core_cycles();
    const uint32_t align = tx8_hw_batch_align_bytes(&cfg), bank = cfg.ddr_bank_bytes;

    /* ---- host: inputs in device layout in DDR ---- */
    const int32_t shape[4] = {N, H, W, C}, vshape[2] = {1, C};
    tx8_layout io, vec;
    tx8_layout_init(&io, LAYOUT_NCX, Fmt_FP16, shape, 4, align);
    tx8_layout_init(&vec, LAYOUT_CX, Fmt_FP32, vshape, 2, align);
    const size_t elems = (size_t)N * H * W * C;
    uint16_t *x = malloc(elems * 2), *y = malloc(elems * 2);
    float v[4][C]; /* scale, shift, mean, var */
    uint64_t seed = 2026;
    for (size_t i = 0; i < elems; ++i) x[i] = cm_fp32_to_fp16(lcg_uniform(&seed, -4.0f, 4.0f));
    for (int c = 0; c < C; ++c) {
        v[0][c] = lcg_uniform(&seed, -2.0f, 2.0f), v[1][c] = lcg_uniform(&seed, -1.0f, 1.0f);
        v[2][c] = lcg_uniform(&seed, -1.0f, 1.0f), v[3][c] = lcg_uniform(&seed, 0.1f, 3.0f);
    }
    const uint64_t in_ddr = 0, out_ddr = round_up(io.total_bytes, bank), vec_ddr = 2 * out_ddr;
    const uint64_t vec_stride = round_up(vec.total_bytes, bank);
    int rc = write_ddr_image(in_ddr, &io, x);
    for (int k = 0; k < 4; ++k) rc |= write_ddr_image(vec_ddr + k * vec_stride, &vec, v[k]);
    if (rc) return 1;

    /* ---- device: SPM plan for one [1, H_SLICE, W, C] slice ---- */
    const int32_t sshape[4] = {1, H_SLICE, W, C};
    tx8_layout slice;
    tx8_layout_init(&slice, LAYOUT_NCX, Fmt_FP16, sshape, 4, align);
    BATCHNORM_INFER_PARAM bn = {LAYOUT_NCX, 1e-6f};
    LOAD_PARAM ld = {LAYOUT_NCX};
    L_SHAPE s_in_ddr, s_out_ddr, s_in, s_out, s_vd[4], s_vs[4], s_imm;
    TSR in_ddr_t, out_ddr_t, in, out, vd[4], vs[4], imm;
    tsr_init(&in_ddr_t, &s_in_ddr, Fmt_FP16, in_ddr, shape, 4);
    tsr_init(&out_ddr_t, &s_out_ddr, Fmt_FP16, out_ddr, shape, 4);
    tsr_init(&in, &s_in, Fmt_FP16, 0, sshape, 4);
    tsr_init(&out, &s_out, Fmt_FP16, round_up(slice.total_bytes, align), sshape, 4);
    uint64_t spm = 2 * round_up(slice.total_bytes, align);
    for (int k = 0; k < 4; ++k, spm += round_up(vec.total_bytes, align)) {
        tsr_init(&vd[k], &s_vd[k], Fmt_FP32, vec_ddr + k * vec_stride, vshape, 2);
        tsr_init(&vs[k], &s_vs[k], Fmt_FP32, spm, vshape, 2);
    }
    const int32_t imm_bytes[1] = {(int32_t)op_batchnorm_inference_imm_size(tx8_hal_config(), &bn, &in)};
    tsr_init(&imm, &s_imm, Fmt_INT8, spm, imm_bytes, 1);
    if (spm + (uint64_t)imm_bytes[0] > cfg.spm_bytes) {
        fprintf(stderr, "demo: slice plan needs %llu bytes of SPM, the tile has %llu\n",
                (unsigned long long)(spm + imm_bytes[0]), (unsigned long long)cfg.spm_bytes);
        return 1;
    }

    /* ---- the seed's main.c: constants once, then load -> compute -> store per slice ---- */
    uint64_t cycles = 0;
    const uint64_t core_ops = tx8_hal_core_cycles();
    uint64_t core_bn = 0; /* kernel-core clock inside op_batchnorm_inference alone */
    int slices = 0;
    if (tiles > 1) { /* ---- or every tile streams its shard ---- */
        shard_job job;
        memset(&job, 0, sizeof job);
        job.in = in_ddr_t, job.out = out_ddr_t, job.s_in = s_in_ddr, job.s_out = s_out_ddr, job.folded = folded;
        for (int k = 0; k < 4; ++k) job.vec[k] = vd[k];
        const uint64_t t0 = tx8_hal_cycles();
        if (tx8_hal_run_tiles(tiles, shard_tile, &job) != 0 || job.failed) return 1;
        cycles = tx8_hal_cycles() - t0 - cfg.barrier_cycles;
        slices = (int)tiles;
    }
    for (int k = 0; tiles == 1 && k < 4; ++k) cycles += op_loadConst(&ld, &vd[k], &vs[k]);
    for (int32_t n = 0; tiles == 1 && n < N; ++n)
        for (int32_t h = 0; h < H; h += H_SLICE, ++slices) {
            const int32_t start[4] = {n, h, 0, 0}, real[4] = {1, H_SLICE, W, C};
            memcpy(s_in_ddr.shape_start, start, sizeof start), memcpy(s_in_ddr.shape_real, real, sizeof real);
            memcpy(s_in_ddr.shape_slice, real, sizeof real);
            s_out_ddr = s_in_ddr;
            cycles += op_loadVar(&ld, &in_ddr_t, &in);
            const uint64_t t0 = tx8_hal_core_cycles();
            cycles += op_batchnorm_inference(&bn, &in, &vs[0], &vs[1], &vs[2], &vs[3], &imm, &out);
            core_bn += tx8_hal_core_cycles() - t0;
            cycles += op_store_var_ncx(NULL, &out, &out_ddr_t);
        }
    const uint64_t core_ops_end = tx8_hal_core_cycles();
    if (tiles == 1 && cycles != tx8_hal_cycles()) { /* an op failed (a fault would have exited already) */
        fprintf(stderr, "demo: cycle accounting mismatch\n");
        return 1;
    }

    /* ---- host: read back, checksum, compare with a double reference ---- */
    uint8_t *image = malloc(io.total_bytes);
    tx8_hal_mem_read(TX8_MEM_DDR, out_ddr, image, io.total_bytes);
    tx8_layout_unpack(&io, image, y);
    uint64_t fnv = 1469598103934665603ull;
    double max_err = 0;
    size_t beyond = 0; /* elements outside the bound: fp32 pipeline error + half an fp16 ulp */
    for (size_t i = 0; i < elems; ++i) {
        fnv = (fnv ^ (y[i] & 0xFF)) * 1099511628211ull;
        fnv = (fnv ^ (y[i] >> 8)) * 1099511628211ull;
        const int c = (int)(i % C);
        const double norm = v[0][c] * (cm_fp16_to_fp32(x[i]) - (double)v[2][c]) / sqrt((double)v[3][c] + 1e-6);
        const double want = norm + v[1][c], err = fabs(cm_fp16_to_fp32(y[i]) - want);
        const double bound = 8 * 0x1p-24 * (fabs(norm) + fabs(v[1][c])) + 0x1p-11 * fabs(want) + 0x1p-25;
        if (err > max_err) max_err = err;
        beyond += err > bound;
    }

    const uint64_t ddr_bytes = 2 * io.total_bytes + 4 * vec.total_bytes;
    const uint64_t rd = tx8_hal_engine_cycles(hal, 0, I_RDMA), wr = tx8_hal_engine_cycles(hal, 0, I_WDMA),
                   ct = tx8_hal_engine_cycles(hal, 0, I_CGRA), td = tx8_hal_engine_cycles(hal, 0, I_TDMA);
    /* engine cycles are tile 0's; with several tiles each streamed its own shard */
    const double ddr_bound = (double)ddr_bytes / cfg.ddr_bytes_per_cycle;
    if (tiles == 1)
        printf("op_batchnorm_inference %dx%dx%dx%d fp16 NCx (1 tile, %d slices of 1x%dx%dx%d)\n", N, H, W, C, slices,
               H_SLICE, W, C);
    else
        printf("op_batchnorm_inference%s_db %dx%dx%dx%d fp16 NCx (%u tiles, a shard of 1x%dx%dx%d each, "
               "double-buffered)\n", folded ? "_folded" : "", N, H, W, C, tiles, H / (int)(tiles / N), W, C);
    printf("  output checksum   %016llx (FNV-1a 64 of the compact fp16 output)\n", (unsigned long long)fnv);
    printf("  simulated cycles  %llu = %.1f us at %u MHz (RDMA %llu, WDMA %llu, CT %llu, TDMA %llu)\n",
           (unsigned long long)cycles, cycles / (double)cfg.clock_mhz, cfg.clock_mhz, (unsigned long long)rd,
           (unsigned long long)wr, (unsigned long long)ct, (unsigned long long)td);
    printf("  DDR traffic       %llu bytes -> %.1f bytes/cycle achieved (DDR peak %u; roofline ratio %.3f)\n",
           (unsigned long long)ddr_bytes, (double)ddr_bytes / cycles, cfg.ddr_bytes_per_cycle, ddr_bound / cycles);
    printf("  accuracy          max |error| %.3g vs a double reference; %zu of %zu elements beyond the fp16 bound\n",
           max_err, beyond, elems);
    /* mcycle on RISC-V (guest instructions under QEMU -icount shift=0), nanoseconds on the host */
    printf("  kernel core       %llu in op_batchnorm_inference, %llu in the load/compute/store loop, %llu in all\n",
           (unsigned long long)core_bn, (unsigned long long)(core_ops_end - core_ops),
           (unsigned long long)(tx8_hal_core_cycles() - core_start));
    free(image), free(x), free(y);
    tx8_hal_close(hal);
    return beyond == 0 ? 0 : 2;
}

#if defined(__riscv)
#ifndef TX8_DEMO_TILES
#define TX8_DEMO_TILES 1
#endif
int main(void) { return demo(TX8_DEMO_TILES, 0); } /* bare-metal firmware has no command line */
#else
int main(int argc, char **argv) {
    uint32_t tiles = 1, folded = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--tiles") && i + 1 < argc) tiles = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--folded")) folded = 1;
        else {
            fprintf(stderr, "usage: %s [--tiles 1|8|16] [--folded]\n", argv[0]);
            return 2;
        }
    }
    if ((tiles != 1 && tiles != N && tiles != 2 * N) || (tiles == 1 && folded)) {
        fprintf(stderr, "demo: --tiles 1, %d or %d (a shard of whole images or of image halves per tile); "
                        "--folded needs more than one tile\n", N, 2 * N);
        return 2;
    }
    return demo(tiles, folded);
}
#endif

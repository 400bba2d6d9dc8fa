/* op_gemm: TSR validation, bit-exact results vs the documented float loop over all formats, batched operands with
 * broadcast batch dims, tiling beyond TSM_NE_GEMM_MAX_* (bit-identical to one big instruction, cycles = sum of the
 * tiles), and faults. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

static uint64_t ne_cycles(Data_Format fmt, uint64_t m, uint64_t n, uint64_t k) {
    const tx8_hw_config *c = tx8_hal_config();
    const uint64_t rate = fmt == Fmt_FP32 ? c->ne_macs_per_cycle_fp32
                        : fmt == Fmt_INT8 ? c->ne_macs_per_cycle_int8 : c->ne_macs_per_cycle_bf16;
    const uint64_t steps = ((m + 7) / 8) * ((k + 15) / 16) * ((n + 7) / 8);
    return c->ne_startup_cycles + (steps * 1024 + rate - 1) / rate;
}

static void lshape2(L_SHAPE *s, int32_t r, int32_t c) {
    const int32_t sh[2] = {r, c};
    assert_int_equal(tx8_lshape_init(s, sh, 2), 0);
}

static void store(uint64_t addr, Data_Format f, const double *v, size_t n) { tx8_test_spm_store(addr, f, v, n); }

static void random_op_gemm(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x6E6Du);
    const Data_Format fmts[5] = {Fmt_FP32, Fmt_TF32, Fmt_BF16, Fmt_FP16, Fmt_INT8};
    int n_cases = 0;
    for (int t = 0; t < 40; ++t) {
        const Data_Format f = fmts[t % 5], of = f == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
        const int32_t M = tx8_rng_int(&r, 1, 33), N = tx8_rng_int(&r, 1, 33), K = tx8_rng_int(&r, 1, 70);
        const int has_bias = t % 2, relu = (t / 2) % 2, acc = (t / 4) % 2;
        double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N);
        double *O = malloc(sizeof(double) * M * N), *bias = malloc(sizeof(double) * N);
        double *got = malloc(sizeof(double) * M * N);
        for (int i = 0; i < M * K; ++i) A[i] = f == Fmt_INT8 ? tx8_rng_int(&r, -128, 127) : tx8_rng_uniform(&r, -1, 1);
        for (int i = 0; i < K * N; ++i) B[i] = f == Fmt_INT8 ? tx8_rng_int(&r, -128, 127) : tx8_rng_uniform(&r, -1, 1);
        for (int i = 0; i < M * N; ++i) O[i] = f == Fmt_INT8 ? tx8_rng_int(&r, -999, 999) : tx8_rng_uniform(&r, -1, 1);
        for (int i = 0; i < N; ++i) bias[i] = f == Fmt_INT8 ? tx8_rng_int(&r, -999, 999) : tx8_rng_uniform(&r, -1, 1);
        tx8_test_quantize(f, A, (size_t)M * K);
        tx8_test_quantize(f, B, (size_t)K * N);
        tx8_test_quantize(of, O, (size_t)M * N);
        tx8_test_quantize(of, bias, N);
        L_SHAPE sa, sb, so, sbias;
        lshape2(&sa, M, K), lshape2(&sb, K, N), lshape2(&so, M, N);
        const int32_t bn[1] = {N};
        assert_int_equal(tx8_lshape_init(&sbias, bn, 1), 0);
        TSR a = {f, 0x1000, &sa}, b = {f, 0x40000, &sb}, o = {of, 0x80000, &so}, tb = {of, 0xC0000, &sbias};
        store(a.addr, f, A, (size_t)M * K);
        store(b.addr, f, B, (size_t)K * N);
        store(o.addr, of, O, (size_t)M * N);
        store(tb.addr, of, bias, N);
        GEMM_PARAM p = {(uint32_t)acc, (uint32_t)relu};
        assert_int_equal(op_gemm(&p, &a, &b, has_bias ? &tb : NULL, &o), ne_cycles(f, M, N, K));
        assert_int_equal(tx8_test_faults()->count, 0);
        tx8_test_spm_load(o.addr, of, got, (size_t)M * N);
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                double want;
                if (f == Fmt_INT8) {
                    int64_t s = acc ? (int64_t)O[i * N + j] : 0;
                    for (int k = 0; k < K; ++k) s += (int64_t)A[i * K + k] * (int64_t)B[k * N + j];
                    if (has_bias) s += (int64_t)bias[j];
                    want = (double)(relu && s < 0 ? 0 : s); /* no wrap at these sizes */
                } else {
                    float s = acc ? (float)O[i * N + j] : 0.0f;
                    for (int k = 0; k < K; ++k) s = s + (float)A[i * K + k] * (float)B[k * N + j];
                    if (has_bias) s = s + (float)bias[j];
                    want = relu && s < 0.0f ? 0.0 : s;
                }
                if (got[i * N + j] != want) {
                    print_error("%s %dx%dx%d out[%d][%d] = %.9g, want %.9g\n", tx8_format_name(f), M, N, K, i, j,
                                got[i * N + j], want);
                    fail();
                }
            }
        free(A), free(B), free(O), free(bias), free(got);
        ++n_cases;
    }
    printf("[ op_gemm ] %d random cases, bit-exact\n", n_cases);
}

/* Batched: a [..., M, K] x b [..., K, N] -> out [..., M, N], 3 to 6 dims, each batch dim of a and b out's or 1 at
 * random; every matrix is the float loop of its batch index (a broadcast dim reads index 0), the cycles one NE
 * instruction per matrix. */
static void random_batched_op_gemm(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0xB6E6u);
    int n_cases = 0;
    for (int t = 0; t < 24; ++t) {
        const Data_Format f = t % 3 == 0 ? Fmt_FP32 : t % 3 == 1 ? Fmt_BF16 : Fmt_INT8;
        const Data_Format of = f == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
        const int32_t d = tx8_rng_int(&r, 3, MAX_SHAPE_DIM);
        const int32_t M = tx8_rng_int(&r, 1, 9), N = tx8_rng_int(&r, 1, 9), K = tx8_rng_int(&r, 1, 20);
        const int acc = t % 2;
        int32_t os[MAX_SHAPE_DIM], as[MAX_SHAPE_DIM], bs[MAX_SHAPE_DIM];
        int64_t batches = 1, a_mats = 1, b_mats = 1;
        for (int32_t i = 0; i + 2 < d; ++i) {
            os[i] = tx8_rng_int(&r, 1, 3);
            as[i] = tx8_rng_int(&r, 0, 2) == 0 ? 1 : os[i];
            bs[i] = tx8_rng_int(&r, 0, 2) == 0 ? 1 : os[i];
            batches *= os[i], a_mats *= as[i], b_mats *= bs[i];
        }
        as[d - 2] = M, as[d - 1] = K, bs[d - 2] = K, bs[d - 1] = N, os[d - 2] = M, os[d - 1] = N;
        const size_t na = (size_t)(a_mats * M * K), nb = (size_t)(b_mats * K * N), no = (size_t)(batches * M * N);
        double *A = malloc(sizeof(double) * na), *B = malloc(sizeof(double) * nb);
        double *O = malloc(sizeof(double) * no), *got = malloc(sizeof(double) * no);
        for (size_t i = 0; i < na; ++i) A[i] = f == Fmt_INT8 ? tx8_rng_int(&r, -128, 127) : tx8_rng_uniform(&r, -1, 1);
        for (size_t i = 0; i < nb; ++i) B[i] = f == Fmt_INT8 ? tx8_rng_int(&r, -128, 127) : tx8_rng_uniform(&r, -1, 1);
        for (size_t i = 0; i < no; ++i) O[i] = f == Fmt_INT8 ? tx8_rng_int(&r, -999, 999) : tx8_rng_uniform(&r, -1, 1);
        tx8_test_quantize(f, A, na);
        tx8_test_quantize(f, B, nb);
        tx8_test_quantize(of, O, no);
        L_SHAPE sa, sb, so;
        assert_int_equal(tx8_lshape_init(&sa, as, d), 0);
        assert_int_equal(tx8_lshape_init(&sb, bs, d), 0);
        assert_int_equal(tx8_lshape_init(&so, os, d), 0);
        TSR a = {f, 0x1000, &sa}, b = {f, 0x40000, &sb}, o = {of, 0x80000, &so};
        store(a.addr, f, A, na);
        store(b.addr, f, B, nb);
        store(o.addr, of, O, no);
        GEMM_PARAM p = {(uint32_t)acc, 0};
        assert_int_equal(op_gemm(&p, &a, &b, NULL, &o), (uint64_t)batches * ne_cycles(f, M, N, K));
        assert_int_equal(tx8_test_faults()->count, 0);
        tx8_test_spm_load(o.addr, of, got, no);
        for (int64_t m = 0; m < batches; ++m) {
            /* m's batch index, and the matrices of a and b it reads */
            int64_t ia = 0, ib = 0, sa_ = 1, sb_ = 1, rest = m;
            for (int32_t i = d - 3; i >= 0; --i) {
                const int64_t at = rest % os[i];
                rest /= os[i];
                ia += (as[i] == 1 ? 0 : at) * sa_, sa_ *= as[i];
                ib += (bs[i] == 1 ? 0 : at) * sb_, sb_ *= bs[i];
            }
            const double *Am = A + ia * M * K, *Bm = B + ib * K * N, *Om = O + m * M * N, *G = got + m * M * N;
            for (int i = 0; i < M; ++i)
                for (int j = 0; j < N; ++j) {
                    double want;
                    if (f == Fmt_INT8) {
                        int64_t s = acc ? (int64_t)Om[i * N + j] : 0;
                        for (int k = 0; k < K; ++k) s += (int64_t)Am[i * K + k] * (int64_t)Bm[k * N + j];
                        want = (double)s;
                    } else {
                        float s = acc ? (float)Om[i * N + j] : 0.0f;
                        for (int k = 0; k < K; ++k) s = s + (float)Am[i * K + k] * (float)Bm[k * N + j];
                        want = s;
                    }
                    if (G[i * N + j] != want) {
                        print_error("%s dim %d matrix %lld out[%d][%d] = %.9g, want %.9g\n", tx8_format_name(f), d,
                                    (long long)m, i, j, G[i * N + j], want);
                        fail();
                    }
                }
        }
        free(A), free(B), free(O), free(got);
        ++n_cases;
    }
    printf("[ op_gemm ] %d random batched cases, bit-exact\n", n_cases);
}

/* K and N beyond one instruction: op_gemm's tiles must give the same bits as one big NE instruction. */
static void tiling_is_bit_exact_and_sums_cycles(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 11);
    const struct { int32_t m, n, k; } shapes[] = {{3, 5, TSM_NE_GEMM_MAX_K + 904}, {2, TSM_NE_GEMM_MAX_N + 100, 3}};
    for (int s = 0; s < 2; ++s) {
        const int32_t M = shapes[s].m, N = shapes[s].n, K = shapes[s].k;
        double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N), *bias = malloc(sizeof(double) * N);
        for (int i = 0; i < M * K; ++i) A[i] = tx8_rng_uniform(&r, -1, 1);
        for (int i = 0; i < K * N; ++i) B[i] = tx8_rng_uniform(&r, -1, 1);
        for (int i = 0; i < N; ++i) bias[i] = tx8_rng_uniform(&r, -1, 1);
        L_SHAPE sa, sb, so, sbias;
        lshape2(&sa, M, K), lshape2(&sb, K, N), lshape2(&so, M, N), lshape2(&sbias, 1, N);
        TSR a = {Fmt_FP32, 0x0, &sa}, b = {Fmt_FP32, 0x20000, &sb}, o = {Fmt_FP32, 0x200000, &so};
        TSR tb = {Fmt_FP32, 0x280000, &sbias};
        store(a.addr, Fmt_FP32, A, (size_t)M * K);
        store(b.addr, Fmt_FP32, B, (size_t)K * N);
        store(tb.addr, Fmt_FP32, bias, N);
        GEMM_PARAM p = {0, 1};
        const uint64_t cyc = op_gemm(&p, &a, &b, &tb, &o);
        uint64_t want = 0;
        if (s == 0)
            want = ne_cycles(Fmt_FP32, M, N, TSM_NE_GEMM_MAX_K) + ne_cycles(Fmt_FP32, M, N, K - TSM_NE_GEMM_MAX_K);
        else
            want = ne_cycles(Fmt_FP32, M, TSM_NE_GEMM_MAX_N, K) + ne_cycles(Fmt_FP32, M, N - TSM_NE_GEMM_MAX_N, K);
        assert_int_equal(cyc, want);
        /* the same product as one instruction into another buffer */
        TsmNeInstr one;
        TsmNe_gemm(&one, a.addr, b.addr, tb.addr, 0x2A0000, (uint32_t)M, (uint32_t)N, (uint32_t)K, (uint32_t)K,
                   (uint32_t)N, (uint32_t)N, Fmt_FP32, Fmt_FP32, 0, 1, 1);
        assert_int_equal(TsmExecute(&one), ne_cycles(Fmt_FP32, M, N, K));
        uint8_t *x = malloc((size_t)M * N * 4), *y = malloc((size_t)M * N * 4);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, o.addr, x, (size_t)M * N * 4), 0);
        assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x2A0000, y, (size_t)M * N * 4), 0);
        assert_memory_equal(x, y, (size_t)M * N * 4);
        free(A), free(B), free(bias), free(x), free(y);
    }
}

static void faults_name_the_argument(void **state) {
    (void)state;
    L_SHAPE s23, s34, s24, s33, s4, s3d;
    lshape2(&s23, 2, 3), lshape2(&s34, 3, 4), lshape2(&s24, 2, 4), lshape2(&s33, 3, 3);
    const int32_t four[1] = {4}, three[3] = {2, 3, 4};
    tx8_lshape_init(&s4, four, 1);
    tx8_lshape_init(&s3d, three, 3);
    TSR a = {Fmt_FP32, 0x0, &s23}, b = {Fmt_FP32, 0x100, &s34}, o = {Fmt_FP32, 0x200, &s24}, bias = {Fmt_FP32, 0x300, &s4};
    GEMM_PARAM p = {0, 0};
    uint8_t before[64], after[64];
    for (int i = 0; i < 64; ++i) before[i] = (uint8_t)(i + 9);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 0x200, before, 64), 0);
    TSR x;
    x = b, x.shape = &s33;
    assert_true(op_gemm(&p, &a, &x, NULL, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: shapes a [2,3] x b [3,3] -> out [2,4] do not match");
    x = a, x.shape = &s3d;
    assert_true(op_gemm(&p, &x, &b, NULL, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: a, b and out must have the same number of dims (3, 2, 2)");
    /* batch dims: a [2,2,3] x b [3,3,4] -> out [2,2,4]: b's 3 is neither out's 2 nor 1 */
    const int32_t a3[3] = {2, 2, 3}, b3[3] = {3, 3, 4}, o3[3] = {2, 2, 4};
    L_SHAPE sa3, sb3, so3;
    tx8_lshape_init(&sa3, a3, 3), tx8_lshape_init(&sb3, b3, 3), tx8_lshape_init(&so3, o3, 3);
    TSR xa = {Fmt_FP32, 0x0, &sa3}, xb = {Fmt_FP32, 0x100, &sb3}, xo = {Fmt_FP32, 0x200, &so3};
    assert_true(op_gemm(&p, &xa, &xb, NULL, &xo) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: batch dim 0 of a (2) and b (3) must each be out's (2) or 1");
    x = b, x.format = Fmt_BF16;
    assert_true(op_gemm(&p, &a, &x, NULL, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: b format bf16 differs from a format fp32");
    TSR ai = a, bi = b;
    ai.format = bi.format = Fmt_INT8;
    assert_true(op_gemm(&p, &ai, &bi, NULL, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: out format fp32, expected int32 for int8 inputs");
    x = bias, x.shape = &s23;
    assert_true(op_gemm(&p, &a, &b, &x, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: bias must have shape [4] or [1,4]");
    x = a, x.format = Fmt_INT32;
    assert_true(op_gemm(&p, &x, &b, NULL, &o) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: a format int32 is not");
    x = o, x.addr = 0x10; /* out overlaps a: the NE rejects it */
    assert_true(op_gemm(&p, &a, &b, NULL, &x) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("overlaps a");
    assert_true(op_gemm(&p, &a, &b, NULL, NULL) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault("op_gemm: out or its shape is NULL");
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x200, after, 64), 0);
    assert_memory_equal(before, after, 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(random_op_gemm, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_batched_op_gemm, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(tiling_is_bit_exact_and_sums_cycles, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_name_the_argument, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

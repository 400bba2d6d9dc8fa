/* NE engine (I_NEUR gemm) through the HAL: numerics (bit-exact vs a float loop with the documented order,
 * within a K-derived bound of a double reference), int8 wrap-around, tf32 rounding, cycles, and faults. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/ne.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

#define SPM_A 0x001000u
#define SPM_B 0x100000u
#define SPM_O 0x200000u
#define SPM_BIAS 0x2F0000u

typedef struct gemm_case {
    Data_Format fmt;
    uint32_t m, n, k, lda, ldb, ldc;
    uint32_t accumulate, bias_en, relu_en;
    uint64_t a, b, o, bias;
} gemm_case;

static Data_Format out_fmt_of(Data_Format in) { return in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32; }

/* The cycle formula of cm_cycles.h, written out again from the hardware numbers. */
static uint64_t expected_cycles(Data_Format fmt, uint32_t m, uint32_t n, uint32_t k) {
    const tx8_hw_config *c = tx8_hal_config();
    uint64_t rate = fmt == Fmt_FP32 ? c->ne_macs_per_cycle_fp32
                  : fmt == Fmt_TF32 ? c->ne_macs_per_cycle_tf32
                  : fmt == Fmt_BF16 ? c->ne_macs_per_cycle_bf16
                  : fmt == Fmt_FP16 ? c->ne_macs_per_cycle_fp16 : c->ne_macs_per_cycle_int8;
    uint64_t steps = (uint64_t)((m + 7) / 8) * ((k + 15) / 16) * ((n + 7) / 8);
    return c->ne_startup_cycles + (steps * 8 * 16 * 8 + rate - 1) / rate;
}

static void write_raw(uint64_t addr, const void *p, size_t bytes) {
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, p, bytes), 0);
}
static void read_raw(uint64_t addr, void *p, size_t bytes) {
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, p, bytes), 0);
}

static uint64_t run(const gemm_case *g) {
    TsmNeInstr p;
    TsmNe_gemm(&p, g->a, g->b, g->bias, g->o, g->m, g->n, g->k, g->lda, g->ldb, g->ldc, g->fmt, out_fmt_of(g->fmt),
               g->accumulate, g->bias_en, g->relu_en);
    return TsmExecute(&p);
}

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* Stores a matrix (rows x cols, pitch ld) of raw element values; for tf32 the fp32 bits are stored unrounded so
 * the engine's read-rounding is exercised. vals are doubles already exact in the storage format. */
static void store_matrix(uint64_t addr, Data_Format fmt, const double *vals, uint32_t rows, uint32_t cols, uint32_t ld) {
    const Data_Format sf = fmt == Fmt_TF32 ? Fmt_FP32 : fmt;
    const uint32_t eb = tx8_format_bytes(sf);
    uint8_t *buf = calloc((size_t)rows * ld * eb + 1, 1);
    read_raw(addr, buf, (size_t)((rows - 1) * ld + cols) * eb); /* keep the gaps' bytes */
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c)
            cm_store_element(buf + ((size_t)r * ld + c) * eb, sf, vals[(size_t)r * cols + c], RND_NEAREST_EVEN);
    write_raw(addr, buf, (size_t)((rows - 1) * ld + cols) * eb);
    free(buf);
}

/* Float value the engine computes with for an element (tf32: rounded on read). */
static float operand(Data_Format fmt, double v) {
    return fmt == Fmt_TF32 ? cm_fp32_to_tf32((float)v) : (float)v;
}

static int g_cases; /* random cases run in this program */

/* Random values exact in the storage format: small integers (exact everywhere) or uniform reals. */
static void fill(tx8_rng *r, Data_Format fmt, double *v, size_t n, int ints) {
    for (size_t i = 0; i < n; ++i) {
        if (fmt == Fmt_INT8)
            v[i] = tx8_rng_int(r, -128, 127);
        else if (ints)
            v[i] = tx8_rng_int(r, -8, 8);
        else
            v[i] = tx8_rng_uniform(r, -2.0, 2.0);
    }
    tx8_test_quantize(fmt == Fmt_TF32 ? Fmt_FP32 : fmt, v, n);
}

/* Runs one case with random data and checks: cycles, bit-exact vs the documented float loop (or exact int32),
 * within (K+2)*eps32*sum|terms| of a double reference, and untouched bytes in out's row gaps. */
static void check_case(tx8_rng *r, const gemm_case *g, int ints) {
    const uint32_t m = g->m, n = g->n, k = g->k;
    double *A = malloc(sizeof(double) * m * k), *B = malloc(sizeof(double) * k * n);
    double *O = malloc(sizeof(double) * m * n), *bias = malloc(sizeof(double) * n);
    fill(r, g->fmt, A, (size_t)m * k, ints);
    fill(r, g->fmt, B, (size_t)k * n, ints);
    const Data_Format of = out_fmt_of(g->fmt);
    for (size_t i = 0; i < (size_t)m * n; ++i)
        O[i] = of == Fmt_INT32 ? tx8_rng_int(r, -100000, 100000) : (ints ? tx8_rng_int(r, -8, 8) : tx8_rng_uniform(r, -4, 4));
    for (uint32_t j = 0; j < n; ++j)
        bias[j] = of == Fmt_INT32 ? tx8_rng_int(r, -100000, 100000) : (ints ? tx8_rng_int(r, -8, 8) : tx8_rng_uniform(r, -4, 4));
    tx8_test_quantize(of, O, (size_t)m * n);
    tx8_test_quantize(of, bias, n);
    /* out region: fill the whole extent (gaps too) with a marker, then the elements */
    const size_t o_bytes = ((size_t)(m - 1) * g->ldc + n) * 4;
    uint8_t *marker = malloc(o_bytes);
    for (size_t i = 0; i < o_bytes; ++i) marker[i] = (uint8_t)(0xA5 ^ i);
    write_raw(g->o, marker, o_bytes);
    store_matrix(g->a, g->fmt, A, m, k, g->lda);
    store_matrix(g->b, g->fmt, B, k, n, g->ldb);
    store_matrix(g->o, of, O, m, n, g->ldc);
    if (g->bias_en) store_matrix(g->bias, of, bias, 1, n, n);

    const uint64_t cyc = run(g);
    assert_int_equal(tx8_test_faults()->count, 0);
    assert_int_equal(cyc, expected_cycles(g->fmt, m, n, k));

    uint8_t *got = malloc(o_bytes);
    read_raw(g->o, got, o_bytes);
    for (uint32_t i = 0; i < m; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
            uint32_t gu;
            memcpy(&gu, got + ((size_t)i * g->ldc + j) * 4, 4);
            if (of == Fmt_INT32) {
                uint32_t acc = g->accumulate ? (uint32_t)(int32_t)O[(size_t)i * n + j] : 0u;
                for (uint32_t p = 0; p < k; ++p)
                    acc += (uint32_t)((int32_t)A[(size_t)i * k + p] * (int32_t)B[(size_t)p * n + j]);
                if (g->bias_en) acc += (uint32_t)(int32_t)bias[j];
                if (g->relu_en && (int32_t)acc < 0) acc = 0;
                if (gu != acc) {
                    print_error("int8 %ux%ux%u out[%u][%u] = %d, want %d\n", m, n, k, i, j, (int32_t)gu, (int32_t)acc);
                    fail();
                }
                continue;
            }
            /* bit-exact float loop in the documented order */
            float acc = g->accumulate ? (float)O[(size_t)i * n + j] : 0.0f;
            double ref = g->accumulate ? O[(size_t)i * n + j] : 0.0, mag = fabs(ref);
            for (uint32_t p = 0; p < k; ++p) {
                const float a = operand(g->fmt, A[(size_t)i * k + p]), b = operand(g->fmt, B[(size_t)p * n + j]);
                const float prod = a * b;
                acc = acc + prod;
                ref += (double)a * (double)b;
                mag += fabs((double)a * (double)b);
            }
            if (g->bias_en) {
                acc = acc + (float)bias[j];
                ref += bias[j];
                mag += fabs(bias[j]);
            }
            if (g->relu_en) {
                if (acc < 0.0f) acc = 0.0f;
                if (ref < 0.0) ref = 0.0;
            }
            if (gu != u32_of(acc)) {
                print_error("%s %ux%ux%u acc=%u bias=%u relu=%u out[%u][%u] = %.9g, float loop %.9g\n",
                            tx8_format_name(g->fmt), m, n, k, g->accumulate, g->bias_en, g->relu_en, i, j,
                            f32_of(gu), acc);
                fail();
            }
            const double tol = (k + 2) * ldexp(1.0, -24) * mag + 1e-30;
            if (fabs(f32_of(gu) - ref) > tol) {
                print_error("%s out[%u][%u] = %.9g, double ref %.9g, bound %.3g\n", tx8_format_name(g->fmt), i, j,
                            f32_of(gu), ref, tol);
                fail();
            }
        }
        /* bytes between rows (ldc > n) untouched */
        if (i + 1 < m)
            for (size_t b = ((size_t)i * g->ldc + n) * 4; b < (size_t)(i + 1) * g->ldc * 4; ++b)
                assert_int_equal(got[b], (uint8_t)(0xA5 ^ b));
    }
    free(A), free(B), free(O), free(bias), free(marker), free(got);
}

static gemm_case simple(Data_Format fmt, uint32_t m, uint32_t n, uint32_t k) {
    gemm_case g = {fmt, m, n, k, k, n, n, 0, 0, 0, SPM_A, SPM_B, SPM_O, SPM_BIAS};
    return g;
}

static void fixed_fp32_by_hand(void **state) {
    (void)state;
    /* [1 2 3; 4 5 6] x [1 0; 0 1; 1 1] + [10, 20] = [14 25; 20 31] */
    const float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {1, 0, 0, 1, 1, 1}, bias[2] = {10, 20};
    write_raw(SPM_A, A, sizeof A);
    write_raw(SPM_B, B, sizeof B);
    write_raw(SPM_BIAS, bias, sizeof bias);
    gemm_case g = simple(Fmt_FP32, 2, 2, 3);
    g.bias_en = 1;
    assert_int_equal(run(&g), 32 + 2); /* 1 step = 1024 MACs at 656/cycle -> 2 cycles */
    float O[4];
    read_raw(SPM_O, O, sizeof O);
    assert_true(O[0] == 14 && O[1] == 25 && O[2] == 20 && O[3] == 31);
    /* accumulate + relu: out = relu(out - 2*[..]) with B negated */
    const float Bn[6] = {-1, 0, 0, -1, -1, -1};
    write_raw(SPM_B, Bn, sizeof Bn);
    g.bias_en = 0, g.accumulate = 1, g.relu_en = 1;
    run(&g); /* [14-4 25-5; 20-10 31-11] = [10 20; 10 20] */
    read_raw(SPM_O, O, sizeof O);
    assert_true(O[0] == 10 && O[1] == 20 && O[2] == 10 && O[3] == 20);
    run(&g); /* [6 15; 0 9] */
    run(&g); /* [2 10; -10 -2] -> relu [2 10; 0 0] */
    read_raw(SPM_O, O, sizeof O);
    assert_true(O[0] == 2 && O[1] == 10 && O[2] == 0 && O[3] == 0);
}

static void fp32_accumulation_order_is_ascending_k(void **state) {
    (void)state;
    /* ((0 + 1e8) + 1) - 1e8 = 0 in fp32, while any other order of the last two gives 1 */
    const float A[3] = {1e8f, 1.0f, -1e8f}, B[3] = {1, 1, 1};
    write_raw(SPM_A, A, sizeof A);
    write_raw(SPM_B, B, sizeof B);
    gemm_case g = simple(Fmt_FP32, 1, 1, 3);
    run(&g);
    float o;
    read_raw(SPM_O, &o, 4);
    assert_true(o == 0.0f);
    /* accumulate starts from out: out = 1e8, then + 1 + 1 + 1 stays 1e8 (each +1 is lost) */
    const float A2[3] = {1, 1, 1}, o0 = 1e8f;
    write_raw(SPM_A, A2, sizeof A2);
    write_raw(SPM_O, &o0, 4);
    g.accumulate = 1;
    run(&g);
    read_raw(SPM_O, &o, 4);
    assert_true(o == 1e8f);
}

static void tf32_operands_are_rounded_on_read(void **state) {
    (void)state;
    /* k = 1, b = 1: out = tf32(a). Ties (low 13 bits 0x1000) round to even, above-half rounds up. */
    const uint32_t a_bits[6] = {0x3F801000u, 0x3F803000u, 0x3F801001u, 0x3F800FFFu, 0x7F7FFFFFu, 0xBF9FFFFFu};
    const uint32_t want[6] = {0x3F800000u, 0x3F804000u, 0x3F802000u, 0x3F800000u, 0x7F800000u, 0xBFA00000u};
    const float one = 1.0f;
    write_raw(SPM_A, a_bits, sizeof a_bits);
    write_raw(SPM_B, &one, 4);
    gemm_case g = simple(Fmt_TF32, 6, 1, 1);
    g.lda = 1;
    run(&g);
    uint32_t got[6];
    read_raw(SPM_O, got, sizeof got);
    for (int i = 0; i < 6; ++i) {
        assert_int_equal(got[i], want[i]);
        assert_int_equal(got[i], u32_of(cm_fp32_to_tf32(f32_of(a_bits[i]))));
    }
}

static void int8_wraps_modulo_2_32(void **state) {
    (void)state;
    /* 1 x K x 1 with 127*127 = 16129 per product: K = 140000 passes INT32_MAX and wraps */
    const uint32_t K = 140000;
    int8_t *a = malloc(K);
    memset(a, 127, K);
    write_raw(SPM_A, a, K);
    write_raw(SPM_B, a, K);
    gemm_case g = simple(Fmt_INT8, 1, 1, K);
    g.ldb = 1;
    assert_int_equal(run(&g), expected_cycles(Fmt_INT8, 1, 1, K));
    uint32_t got;
    read_raw(SPM_O, &got, 4);
    assert_int_equal(got, (uint32_t)(16129ull * K));
    assert_true((int32_t)got < 0); /* it did wrap */
    free(a);
}

static void cycles_match_formula(void **state) {
    (void)state;
    /* hand-computed: 512^3 fp32: 64*32*64 steps * 1024 / 656 -> 32 + 204601 */
    const tx8_hw_config *c = tx8_hal_config();
    assert_int_equal(expected_cycles(Fmt_FP32, 512, 512, 512), 32 + (131072ull * 1024 + 655) / 656);
    assert_int_equal(expected_cycles(Fmt_BF16, 512, 512, 512), 32 + 32768);
    assert_int_equal(c->ne_startup_cycles, 32);
    const struct { Data_Format f; uint32_t m, n, k; uint64_t want; } t[] = {
        {Fmt_FP32, 1, 1, 1, 34},   /* one padded step: ceil(1024/656) = 2 */
        {Fmt_BF16, 8, 8, 16, 33},  /* one full step: 1024/4096 -> 1 */
        {Fmt_INT8, 9, 17, 33, 32 + 3}, /* 2*3*3 = 18 steps = 18432 MACs / 8192 -> 3 */
        {Fmt_FP16, 64, 64, 64, 32 + 64}, /* 8*4*8 = 256 steps -> 262144 / 4096 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; ++i) {
        gemm_case g = simple(t[i].f, t[i].m, t[i].n, t[i].k);
        assert_int_equal(run(&g), t[i].want);
        assert_int_equal(t[i].want, expected_cycles(t[i].f, t[i].m, t[i].n, t[i].k));
    }
}

static void random_cases_all_formats(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x4E45u);
    const Data_Format fmts[5] = {Fmt_FP32, Fmt_TF32, Fmt_BF16, Fmt_FP16, Fmt_INT8};
    int n_cases = 0;
    for (int t = 0; t < 150; ++t) {
        gemm_case g;
        g.fmt = fmts[t % 5];
        const int big = t % 10 == 9; /* cross the engine's 64/128 blocking */
        g.m = (uint32_t)tx8_rng_int(&r, 1, big ? 140 : 20);
        g.n = (uint32_t)tx8_rng_int(&r, 1, big ? 140 : 20);
        g.k = (uint32_t)tx8_rng_int(&r, 1, big ? 300 : 40);
        if (t < 5) g.m = g.n = g.k = 1;
        g.lda = g.k + (uint32_t)tx8_rng_int(&r, 0, 3);
        g.ldb = g.n + (uint32_t)tx8_rng_int(&r, 0, 3);
        g.ldc = g.n + (uint32_t)tx8_rng_int(&r, 0, 3);
        g.accumulate = (uint32_t)tx8_rng_int(&r, 0, 1);
        g.bias_en = (uint32_t)tx8_rng_int(&r, 0, 1);
        g.relu_en = (uint32_t)tx8_rng_int(&r, 0, 1);
        g.a = SPM_A + (uint32_t)tx8_rng_int(&r, 0, 7); /* unaligned addresses are legal */
        g.b = SPM_B + (uint32_t)tx8_rng_int(&r, 0, 7);
        g.o = SPM_O + (uint32_t)tx8_rng_int(&r, 0, 7);
        g.bias = SPM_BIAS + (uint32_t)tx8_rng_int(&r, 0, 7);
        check_case(&r, &g, t % 3 == 0);
        ++n_cases;
    }
    g_cases += n_cases;
    printf("[ ne ] %d random gemm cases (fp32/tf32/bf16/fp16/int8), bit-exact\n", n_cases);
}

static void blocking_boundaries(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 7);
    /* shapes at and around the engine's MR/NR/MB/KB/NB edges */
    const uint32_t dims[][3] = {{64, 128, 128}, {65, 129, 129}, {4, 8, 1}, {3, 7, 257}, {128, 8, 256}, {1, 300, 3}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; ++i)
        for (int f = 0; f < 2; ++f) {
            gemm_case g = simple(f ? Fmt_BF16 : Fmt_FP32, dims[i][0], dims[i][1], dims[i][2]);
            g.accumulate = 1, g.bias_en = 1, g.relu_en = (uint32_t)f;
            check_case(&r, &g, 0);
        }
}

/* ---- faults: message names the field, memory and the cycle counter are untouched ---- */

/* relu maps -0 to +0 (the same rule as CT relu), so a fused gemm+relu equals gemm then CT relu bit for bit. */
static void relu_turns_negative_zero_positive(void **state) {
    (void)state;
    const float a = 0.0f, b = -1.0f, o = -0.0f; /* accumulate: -0 + (0 * -1 = -0) = -0 before relu */
    write_raw(SPM_A, &a, 4), write_raw(SPM_B, &b, 4), write_raw(SPM_O, &o, 4);
    TsmNeInstr p;
    TsmNe_gemm(&p, SPM_A, SPM_B, 0, SPM_O, 1, 1, 1, 1, 1, 1, Fmt_FP32, Fmt_FP32, 1, 0, 1);
    assert_true(TsmExecute(&p) != TX8_CYCLES_INVALID);
    uint32_t bits;
    read_raw(SPM_O, &bits, 4);
    assert_int_equal(bits, 0x00000000u);
}

static void expect_rejected(const gemm_case *g, Data_Format out_fmt, uint32_t opcode, const char *needle) {
    uint8_t before[64], after[64];
    for (int i = 0; i < 64; ++i) before[i] = (uint8_t)(i * 7 + 1);
    write_raw(SPM_O, before, sizeof before);
    const uint64_t cyc0 = tx8_hal_cycles();
    TsmNeInstr p;
    TsmNe_gemm(&p, g->a, g->b, g->bias, g->o, g->m, g->n, g->k, g->lda, g->ldb, g->ldc, g->fmt, out_fmt,
               g->accumulate, g->bias_en, g->relu_en);
    p.ctrl.opcode = opcode;
    assert_true(TsmExecute(&p) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault(needle);
    read_raw(SPM_O, after, sizeof after);
    assert_memory_equal(before, after, sizeof before);
    assert_int_equal(tx8_hal_cycles(), cyc0);
}

static void faults_name_the_field(void **state) {
    (void)state;
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    gemm_case g = simple(Fmt_FP32, 4, 4, 8);
    gemm_case x;
    x = g, x.lda = 3;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "NE gemm: lda = 3 is less than k = 8");
    x = g, x.ldb = 2;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "ldb = 2 is less than n = 4");
    x = g, x.ldc = 3;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "ldc = 3 is less than n = 4");
    x = g, x.m = 0;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "m = 0");
    x = g, x.n = 0, x.ldb = x.ldc = 4;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "n = 0");
    x = g, x.k = 0;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "k = 0");
    x = g, x.fmt = Fmt_INT8;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "out_fmt = fp32 (3) but in_fmt int8 needs out_fmt int32");
    expect_rejected(&g, Fmt_INT32, NE_OP_GEMM, "in_fmt fp32 needs out_fmt fp32");
    x = g, x.fmt = Fmt_INT32;
    expect_rejected(&x, Fmt_INT32, NE_OP_GEMM, "in_fmt = 5");
    expect_rejected(&g, Fmt_FP32, 9, "opcode = 9");
    x = g, x.accumulate = 2;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "accumulate = 2");
    x = g, x.a = spm - 100; /* a needs 128 bytes */
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "a_addr = ");
    x = g, x.b = spm;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "b_addr = ");
    x = g, x.bias_en = 1, x.bias = spm - 15;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "bias_addr = ");
    x = g, x.m = 1000000, x.lda = 8; /* out extent 16 MB */
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "outside SPM");
    x = g, x.lda = 0xFFFFFFFFu, x.m = 0xFFFFFFFFu; /* extent overflows 64 bits in bytes */
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "a_addr = ");
    x = g, x.a = SPM_O + 32;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "out [0x200000, +64) overlaps a");
    x = g, x.b = SPM_O - 16;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "overlaps b");
    x = g, x.bias_en = 1, x.bias = SPM_O + 60;
    expect_rejected(&x, Fmt_FP32, NE_OP_GEMM, "overlaps bias");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fixed_fp32_by_hand, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fp32_accumulation_order_is_ascending_k, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(tf32_operands_are_rounded_on_read, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(int8_wraps_modulo_2_32, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cycles_match_formula, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_cases_all_formats, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(blocking_boundaries, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(relu_turns_negative_zero_positive, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_name_the_field, tx8_test_setup, tx8_test_teardown),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ ne ] random cases in total: %d\n", g_cases);
    return rc;
}

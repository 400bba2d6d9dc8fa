/* LSU TDMA engine through the HAL: 4D strided SPM->SPM copies against a host model (transposes, gathers,
 * scatters), cycles, and faults (overlap, zero fields, ranges) that leave dst untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/lsu.h"
#include "tx8/tsm.h"
#include "tx8_test.h"

typedef struct td {
    uint64_t src, dst;
    uint32_t eb, shape[4], ss[4], ds[4];
} td;

/* cm_cycles.h: one run per innermost row when it is contiguous in dst and contiguous or broadcast in src, else
 * one run per element; each run takes whole cycles. */
static uint64_t expected_cycles(const td *t) {
    const tx8_hw_config *c = tx8_hal_config();
    const int rows = t->ds[0] == t->eb && (t->ss[0] == t->eb || t->ss[0] == 0);
    const uint64_t run = rows ? (uint64_t)t->eb * t->shape[0] : t->eb;
    const uint64_t runs = (uint64_t)(rows ? 1 : t->shape[0]) * t->shape[1] * t->shape[2] * t->shape[3];
    return c->tdma_startup_cycles + runs * ((run + c->tdma_bytes_per_cycle - 1) / c->tdma_bytes_per_cycle);
}

static uint64_t issue(const td *t, TD_OPCODE op) {
    TD_Param p;
    LSU_TDMA_box(&p, op, t->src, t->dst, t->eb, t->shape, t->ss, t->ds);
    return TsmExecute(&p);
}

static uint64_t extent(const uint32_t *shape, const uint32_t *stride, uint32_t eb) {
    uint64_t e = eb;
    for (int d = 0; d < 4; ++d) e += (uint64_t)(shape[d] - 1) * stride[d];
    return e;
}

/* Random source bytes, marker-filled destination; after the copy every element must match the model and every
 * other destination byte keep the marker. */
static void check(tx8_rng *r, const td *t, TD_OPCODE op) {
    const uint64_t se = extent(t->shape, t->ss, t->eb), de = extent(t->shape, t->ds, t->eb);
    uint8_t *src = malloc(se), *model = malloc(de), *got = malloc(de);
    for (uint64_t i = 0; i < se; ++i) src[i] = (uint8_t)tx8_rng_next(r);
    for (uint64_t i = 0; i < de; ++i) model[i] = (uint8_t)(0xC3 ^ i);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, t->src, src, se), 0);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, t->dst, model, de), 0);
    for (uint32_t i3 = 0; i3 < t->shape[3]; ++i3)
        for (uint32_t i2 = 0; i2 < t->shape[2]; ++i2)
            for (uint32_t i1 = 0; i1 < t->shape[1]; ++i1)
                for (uint32_t i0 = 0; i0 < t->shape[0]; ++i0)
                    memcpy(model + (uint64_t)i3 * t->ds[3] + (uint64_t)i2 * t->ds[2] + (uint64_t)i1 * t->ds[1] +
                               (uint64_t)i0 * t->ds[0],
                           src + (uint64_t)i3 * t->ss[3] + (uint64_t)i2 * t->ss[2] + (uint64_t)i1 * t->ss[1] +
                               (uint64_t)i0 * t->ss[0],
                           t->eb);
    assert_int_equal(issue(t, op), expected_cycles(t));
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, t->dst, got, de), 0);
    assert_memory_equal(got, model, de);
    assert_int_equal(tx8_test_faults()->count, 0);
    free(src), free(model), free(got);
}

static void transpose_by_hand(void **state) {
    (void)state;
    /* a 5x3 uint16 matrix transposed into 3x5: dim0 walks columns of src (stride 2) = rows of dst (stride 10) */
    uint16_t m[15], t[15];
    for (int i = 0; i < 15; ++i) m[i] = (uint16_t)(100 + i);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, 0x100, m, sizeof m), 0);
    const td x = {0x100, 0x400, 2, {5, 3, 1, 1}, {6, 2, 0, 0}, {2, 10, 0, 0}};
    assert_int_equal(issue(&x, TD_OP_RESHAPE), 16 + 15); /* a strided gather: one element per cycle */
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, 0x400, t, sizeof t), 0);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 3; ++c) assert_int_equal(t[c * 5 + r], m[r * 3 + c]);
}

static void fixed_cases(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, 3);
    const td cases[] = {
        {0x0, 0x10000, 2, {300, 1, 1, 1}, {2, 0, 0, 0}, {4, 0, 0, 0}},            /* fp16 -> fp32 slots spread */
        {0x20000, 0x0, 4, {64, 10, 3, 2}, {4, 256, 2560, 7680}, {4, 256, 2560, 7680}}, /* contiguous 4D */
        {0x30000, 0x40000, 4, {4, 5, 6, 7}, {840, 168, 28, 4}, {4, 16, 80, 480}}, /* full reverse permutation */
        {0x50000, 0x60000, 96, {9, 1, 1, 1}, {200, 0, 0, 0}, {96, 0, 0, 0}},     /* big blocks gathered */
        {0x70000, 0x80000, 1, {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}},          /* one byte */
        {0x90000, 0xA0000, 4, {8, 4, 1, 1}, {4, 32, 0, 0}, {4, 0, 0, 0}},          /* dst stride 0: last row wins */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        check(&r, &cases[i], i % 2 ? TD_OP_RESHAPE : TD_OP_GATHER_SCATTER);
    assert_int_equal(expected_cycles(&cases[1]), 16 + 60); /* 4*64*10*3*2 = 15360 B / 256 */
}

static void random_permutations(void **state) {
    (void)state;
    tx8_rng r;
    tx8_rng_seed(&r, tx8_test_seed() ^ 0x7D3Au);
    const uint32_t ebs[5] = {1, 2, 4, 6, 8};
    int n = 0;
    for (int t = 0; t < 60; ++t) {
        td x;
        x.eb = ebs[tx8_rng_int(&r, 0, 4)];
        for (int d = 0; d < 4; ++d) x.shape[d] = (uint32_t)tx8_rng_int(&r, 1, t % 4 ? 6 : 12);
        /* src: a compact box with gaps in a random dimension order; dst: compact in natural order + gaps */
        int perm[4] = {0, 1, 2, 3};
        for (int i = 3; i > 0; --i) {
            int j = tx8_rng_int(&r, 0, i), s = perm[i];
            perm[i] = perm[j], perm[j] = s;
        }
        uint64_t s = x.eb;
        for (int i = 0; i < 4; ++i) {
            x.ss[perm[i]] = (uint32_t)s;
            s = s * x.shape[perm[i]] + (uint64_t)tx8_rng_int(&r, 0, 3) * x.eb;
        }
        uint64_t d = x.eb;
        for (int i = 0; i < 4; ++i) {
            x.ds[i] = (uint32_t)d;
            d = d * x.shape[i] + (uint64_t)tx8_rng_int(&r, 0, 2);
        }
        x.src = (uint64_t)tx8_rng_int(&r, 0, 1 << 20);
        x.dst = (uint64_t)tx8_rng_int(&r, 0x180000, 0x200000);
        check(&r, &x, t % 2 ? TD_OP_RESHAPE : TD_OP_GATHER_SCATTER);
        ++n;
    }
    printf("[ tdma ] %d random 4D permuted copies\n", n);
}

static void expect_rejected(const td *t, uint32_t opcode, const char *needle) {
    uint8_t before[64], after[64];
    for (int i = 0; i < 64; ++i) before[i] = (uint8_t)(5 * i + 2);
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    const uint64_t at = t->dst + 64 <= spm ? t->dst : spm - 64;
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, at, before, 64), 0);
    const uint64_t cyc = tx8_hal_cycles();
    TD_Param p;
    LSU_TDMA_box(&p, TD_OP_RESHAPE, t->src, t->dst, t->eb, t->shape, t->ss, t->ds);
    p.ctrl.opcode = opcode;
    assert_true(TsmExecute(&p) == TX8_CYCLES_INVALID);
    tx8_test_expect_fault(needle);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, at, after, 64), 0);
    assert_memory_equal(before, after, 64);
    assert_int_equal(tx8_hal_cycles(), cyc);
}

static void faults_leave_dst_alone(void **state) {
    (void)state;
    const uint64_t spm = tx8_hal_config()->spm_bytes;
    const td ok = {0x1000, 0x2000, 4, {16, 4, 1, 1}, {4, 64, 0, 0}, {4, 64, 0, 0}}; /* 256 bytes each */
    td x;
    x = ok, x.dst = 0x1000 + 255; /* last src byte is the first dst byte */
    expect_rejected(&x, TD_OP_RESHAPE, "TDMA: src [0x1000, 0x1100) and dst [0x10ff, 0x11ff) overlap");
    x = ok, x.dst = 0x1000 - 200;
    expect_rejected(&x, TD_OP_RESHAPE, "overlap");
    x = ok, x.ds[1] = 0, x.dst = 0x1000 + 256; /* adjacent, not overlapping: must pass */
    assert_int_equal(issue(&x, TD_OP_RESHAPE), 16 + 4); /* 4 contiguous 64-byte rows, a cycle each */
    x = ok, x.shape[2] = 0;
    expect_rejected(&x, TD_OP_RESHAPE, "TDMA: shape[2] = 0");
    x = ok, x.eb = 0;
    expect_rejected(&x, TD_OP_RESHAPE, "TDMA: elem_bytes = 0");
    x = ok, x.dst = spm - 255;
    expect_rejected(&x, TD_OP_RESHAPE, "TDMA: dst_addr = ");
    x = ok, x.src = spm - 100;
    expect_rejected(&x, TD_OP_RESHAPE, "TDMA: src_addr = ");
    x = ok, x.shape[3] = 0xFFFFFFFFu, x.ss[3] = 0xFFFFFFFFu;
    expect_rejected(&x, TD_OP_RESHAPE, "outside SPM");
    expect_rejected(&ok, 7, "TDMA: opcode = 7");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(transpose_by_hand, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(fixed_cases, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(random_permutations, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(faults_leave_dst_alone, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

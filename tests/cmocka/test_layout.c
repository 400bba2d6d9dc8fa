/* Layout address maths (tx8/layout.h), including the seed's worked NCx example. */
#include <stdlib.h>
#include <string.h>

#include "tx8/layout.h"
#include "tx8_test.h"

static void seed_worked_example_fp16_2x1x2x131_ncx(void **state) {
    (void)state;
    const int32_t shape[4] = {2, 1, 2, 131};
    tx8_layout l;
    assert_int_equal(tx8_layout_init(&l, LAYOUT_NCX, Fmt_FP16, shape, 4, 256), 0);
    assert_int_equal(l.cx, 2);
    assert_int_equal(l.c0, 3);
    assert_int_equal(l.c0_aligned, 4);
    /* batch 0 ends at byte 0x210 == bit 0x1080; batch 1 starts at byte 0x300 == bit 0x1800 (seed's numbers). */
    assert_int_equal(l.batch_elems * l.elem_bytes, 0x210);
    assert_int_equal(l.batch_elems * l.elem_bytes * 8, 0x1080);
    assert_int_equal(tx8_layout_offset(&l, 1, 0, 0), 0x300);
    assert_int_equal(tx8_layout_offset(&l, 1, 0, 0) * 8, 0x1800);
    /* last element of batch 0: c = 130 (C0 part, index 2), hw = 1 */
    assert_int_equal(tx8_layout_offset(&l, 0, 1, 130), (2 * 2 * 64 + 1 * 4 + 2) * 2);
    /* Cx block 1, hw 1, lane 5 */
    assert_int_equal(tx8_layout_offset(&l, 0, 1, 64 + 5), ((1 * 2 + 1) * 64 + 5) * 2);
}

static void channel_alignment_rules(void **state) {
    (void)state;
    assert_int_equal(tx8_layout_align_channels(Fmt_FP16, 1), 4);
    assert_int_equal(tx8_layout_align_channels(Fmt_FP16, 5), 8);
    assert_int_equal(tx8_layout_align_channels(Fmt_FP32, 30), 32);
    assert_int_equal(tx8_layout_align_channels(Fmt_FP32, 32), 32);
    assert_int_equal(tx8_layout_align_channels(Fmt_FP32, 33), 64);
    assert_int_equal(tx8_layout_align_channels(Fmt_INT8, 33), 64);
    assert_int_equal(tx8_layout_align_channels(Fmt_INT8, 65), 128);
}

static void cx_forms_by_channel_count(void **state) {
    (void)state;
    struct { int32_t c; uint32_t cx, c0a, split; } cases[] = {
        {1, 0, 4, 0}, {30, 0, 32, 0}, {32, 0, 32, 0}, {33, 1, 0, 1}, {64, 1, 0, 1},
        {129, 2, 4, 1}, {131, 2, 4, 1}, {160, 2, 32, 1}, {191, 3, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const int32_t shape[4] = {3, 5, 7, cases[i].c};
        tx8_layout l;
        assert_int_equal(tx8_layout_init(&l, LAYOUT_NCX, Fmt_FP32, shape, 4, 256), 0);
        assert_int_equal(l.cx, cases[i].cx);
        assert_int_equal(l.c0_aligned, cases[i].c0a);
        assert_int_equal(l.c_split, cases[i].split);
        assert_int_equal(l.batch_stride_bytes % 256, 0);
        assert_true(l.batch_stride_bytes >= l.batch_elems * 4);
        assert_int_equal(l.batch_elems, 35ull * (cases[i].cx * 64 + (cases[i].split ? cases[i].c0a : cases[i].c0a)));
    }
}

static void compact_layouts_are_dense(void **state) {
    (void)state;
    const int32_t shape[3] = {4, 9, 13};
    tx8_layout l;
    assert_int_equal(tx8_layout_init(&l, LAYOUT_NTENSOR, Fmt_BF16, shape, 3, 256), 0);
    assert_int_equal(l.total_bytes, 4 * 9 * 13 * 2);
    assert_int_equal(tx8_layout_offset(&l, 3, 8, 12), (4 * 9 * 13 - 1) * 2);
    const int32_t one[2] = {1, 7};
    assert_int_equal(tx8_layout_init(&l, LAYOUT_TENSOR, Fmt_FP32, one, 2, 256), 0);
    assert_int_equal(l.total_bytes, 28);
}

static void rejects_bad_descriptions(void **state) {
    (void)state;
    tx8_layout l;
    const int32_t n2[4] = {2, 3, 3, 8};
    assert_int_equal(tx8_layout_init(&l, LAYOUT_TENSOR, Fmt_FP32, n2, 4, 256), -1); /* Tensor needs N == 1 */
    assert_int_equal(tx8_layout_init(&l, LAYOUT_CX, Fmt_FP32, n2, 4, 256), -1);
    assert_int_equal(tx8_layout_init(&l, LAYOUT_NCX, Fmt_FP32, n2, 5, 256), -1);    /* dim 5 */
    assert_int_equal(tx8_layout_init(&l, LAYOUT_NCX, Fmt_FP32, n2, 1, 256), -1);    /* dim 1 */
    const int32_t zero[3] = {2, 0, 8};
    assert_int_equal(tx8_layout_init(&l, LAYOUT_NCX, Fmt_FP32, zero, 3, 256), -1);
    assert_int_equal(tx8_layout_init(&l, LAYOUT_NCX, (Data_Format)42, n2, 4, 256), -1);
}

/* pack/unpack round trip: every element lands at a distinct in-bounds offset and comes back; padding is zero. */
static void pack_unpack_round_trip_random(void **state) {
    (void)state;
    tx8_rng rng;
    tx8_rng_seed(&rng, tx8_test_seed() ^ 0x1a);
    const Data_Format fmts[] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_INT8};
    for (int iter = 0; iter < 40; ++iter) {
        int32_t dim = tx8_rng_int(&rng, 2, 4), shape[4];
        LAYOUT_MODE mode = (LAYOUT_MODE)tx8_rng_int(&rng, 0, 3);
        for (int i = 0; i < dim; ++i) shape[i] = tx8_rng_int(&rng, 1, i == dim - 1 ? 200 : 6);
        if (mode == LAYOUT_TENSOR || mode == LAYOUT_CX) shape[0] = 1;
        Data_Format fmt = fmts[tx8_rng_int(&rng, 0, 3)];
        tx8_layout l;
        assert_int_equal(tx8_layout_init(&l, mode, fmt, shape, dim, 256), 0);
        size_t n = (size_t)l.n * l.hw * l.c, eb = l.elem_bytes;
        uint8_t *src = malloc(n * eb), *img = malloc(l.total_bytes), *back = malloc(n * eb);
        for (size_t i = 0; i < n * eb; ++i) src[i] = (uint8_t)(1 + tx8_rng_next(&rng) % 255); /* never 0 */
        tx8_layout_pack(&l, src, img);
        tx8_layout_unpack(&l, img, back);
        assert_memory_equal(src, back, n * eb);
        size_t nonzero = 0;
        for (uint64_t i = 0; i < l.total_bytes; ++i) nonzero += img[i] != 0;
        assert_int_equal(nonzero, n * eb); /* nothing overlapped, padding stayed zero */
        free(src), free(img), free(back);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_worked_example_fp16_2x1x2x131_ncx),
        cmocka_unit_test(channel_alignment_rules),
        cmocka_unit_test(cx_forms_by_channel_count),
        cmocka_unit_test(compact_layouts_are_dense),
        cmocka_unit_test(rejects_bad_descriptions),
        cmocka_unit_test(pack_unpack_round_trip_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

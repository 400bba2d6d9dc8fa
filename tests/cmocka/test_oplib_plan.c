/*
 * OpLib's planning without a chip: op_softmax_imm_size and op_batchnorm_inference_imm_size (tx8/ops.h) called
 * with an explicit, non-default hardware config and no HAL opened (any HAL call would end the program with a
 * fault). The expected byte counts are worked out by hand from the imm plans documented in tx8/ops.h.
 */
#include "tx8/ops.h"
#include "tx8_test.h"

/* The defaults except a 4096-bit batch alignment: every part of imm starts on a 512-byte boundary (256 by
 * default). A small SPM too, to show the sizes do not depend on it. */
static tx8_hw_config align_4096(void) {
    tx8_hw_config hw = tx8_hw_config_default();
    hw.batch_align_bits = 4096;
    hw.spm_bytes = 32768;
    return hw;
}

static uint64_t softmax_imm(const tx8_hw_config *hw, Data_Format fmt, LAYOUT_MODE layout, const int32_t *shape,
                            int32_t dim) {
    L_SHAPE s;
    assert_int_equal(tx8_lshape_init(&s, shape, dim), 0);
    TSR in = {fmt, 0, &s};
    SOFTMAX_PARAM param = {layout};
    return op_softmax_imm_size(hw, &param, &in);
}

static uint64_t batchnorm_imm(const tx8_hw_config *hw, Data_Format fmt, LAYOUT_MODE layout, const int32_t *shape,
                              int32_t dim) {
    L_SHAPE s;
    assert_int_equal(tx8_lshape_init(&s, shape, dim), 0);
    TSR in = {fmt, 0, &s};
    BATCHNORM_INFER_PARAM param = {layout, 1e-6f};
    return op_batchnorm_inference_imm_size(hw, &param, &in);
}

/* imm = [work 4*R*L (fp16/bf16)] [bcast 4*R*L (R > 1)] [row 4*R], each rounded up to A = 512. */
static void softmax_imm_size_follows_the_config(void **state) {
    (void)state;
    const tx8_hw_config hw = align_4096(), def = tx8_hw_config_default();
    const int32_t s1x100[2] = {1, 100}, s3x5x7[3] = {3, 5, 7}, s2x300[2] = {2, 300}, s4x256[2] = {4, 256};
    /* fp32, R = 1: the row part only, 4 bytes -> 512 (256 with the default config) */
    assert_int_equal(softmax_imm(&hw, Fmt_FP32, LAYOUT_TENSOR, s1x100, 2), 512);
    assert_int_equal(softmax_imm(&def, Fmt_FP32, LAYOUT_TENSOR, s1x100, 2), 256);
    /* fp16, R = 15, L = 7: work 420 -> 512, bcast 420 -> 512, row 60 -> 512 (default: 512 + 512 + 256) */
    assert_int_equal(softmax_imm(&hw, Fmt_FP16, LAYOUT_NTENSOR, s3x5x7, 3), 1536);
    assert_int_equal(softmax_imm(&def, Fmt_FP16, LAYOUT_NTENSOR, s3x5x7, 3), 1280);
    /* bf16, R = 2, L = 300: work 2400 -> 2560, bcast 2400 -> 2560, row 8 -> 512 */
    assert_int_equal(softmax_imm(&hw, Fmt_BF16, LAYOUT_NTENSOR, s2x300, 2), 5632);
    /* fp32, R = 4, L = 256: no work part, bcast 4096, row 16 -> 512 */
    assert_int_equal(softmax_imm(&hw, Fmt_FP32, LAYOUT_NTENSOR, s4x256, 2), 4608);
}

/* imm = [work W (fp16/bf16)] [stage W/2 (fp16/bf16)] [rstd 4*Ca], each rounded up to A = 512; W = the fp32
 * image of in's shape in the layout (Cx/NCx batches on A), Ca = the layout's padded channel count. */
static void batchnorm_imm_size_follows_the_config(void **state) {
    (void)state;
    const tx8_hw_config hw = align_4096(), def = tx8_hw_config_default();
    const int32_t s1x4x8x8[4] = {1, 4, 8, 8}, s2x3x5x20[4] = {2, 3, 5, 20}, s1x2x2x131[4] = {1, 2, 2, 131};
    const int32_t s3x10[2] = {3, 10};
    /* fp32 Tensor, C = 8: rstd only, 32 bytes -> 512 (256 with the default config) */
    assert_int_equal(batchnorm_imm(&hw, Fmt_FP32, LAYOUT_TENSOR, s1x4x8x8, 4), 512);
    assert_int_equal(batchnorm_imm(&def, Fmt_FP32, LAYOUT_TENSOR, s1x4x8x8, 4), 256);
    /* fp16 NCx, N = 2, HW = 15, C = 20 -> Ca = 32 (no C split): a batch is 15*32*4 = 1920 bytes -> stride 2048,
     * W = 4096; work 4096, stage 2048, rstd 128 -> 512 (default: 4096 + 2048 + 256) */
    assert_int_equal(batchnorm_imm(&hw, Fmt_FP16, LAYOUT_NCX, s2x3x5x20, 4), 6656);
    assert_int_equal(batchnorm_imm(&def, Fmt_FP16, LAYOUT_NCX, s2x3x5x20, 4), 6400);
    /* bf16 Cx, HW = 4, C = 131 = 2*64 + 3 -> C0a = 4, Ca = 132: a batch is 4*132*4 = 2112 bytes -> 2560 = W;
     * work 2560, stage 1280 -> 1536, rstd 528 -> 1024 (default: 2304 + 1280 + 768) */
    assert_int_equal(batchnorm_imm(&hw, Fmt_BF16, LAYOUT_CX, s1x2x2x131, 4), 5120);
    assert_int_equal(batchnorm_imm(&def, Fmt_BF16, LAYOUT_CX, s1x2x2x131, 4), 4352);
    /* fp16 NTensor [3][10]: compact, W = 3*10*4 = 120; work 120 -> 512, stage 60 -> 512, rstd 40 -> 512 */
    assert_int_equal(batchnorm_imm(&hw, Fmt_FP16, LAYOUT_NTENSOR, s3x10, 2), 1536);
}

static void no_plan_gives_zero(void **state) {
    (void)state;
    const tx8_hw_config hw = align_4096();
    const int32_t s2x8[2] = {2, 8}, s1x2x3x4x5[5] = {1, 2, 3, 4, 5};
    L_SHAPE s;
    assert_int_equal(tx8_lshape_init(&s, s2x8, 2), 0);
    TSR in = {Fmt_FP32, 0, &s};
    SOFTMAX_PARAM sp = {LAYOUT_NTENSOR};
    BATCHNORM_INFER_PARAM bp = {LAYOUT_NTENSOR, 1e-6f};
    assert_int_equal(op_softmax_imm_size(NULL, &sp, &in), 0);
    assert_int_equal(op_softmax_imm_size(&hw, NULL, &in), 0);
    assert_int_equal(op_softmax_imm_size(&hw, &sp, NULL), 0);
    assert_int_equal(op_batchnorm_inference_imm_size(NULL, &bp, &in), 0);
    assert_int_equal(op_batchnorm_inference_imm_size(&hw, NULL, &in), 0);
    assert_int_equal(op_batchnorm_inference_imm_size(&hw, &bp, NULL), 0);
    assert_int_equal(softmax_imm(&hw, Fmt_FP32, LAYOUT_NTENSOR, s1x2x3x4x5, 5), 0); /* dim 5 */
    assert_int_equal(batchnorm_imm(&hw, Fmt_FP32, LAYOUT_TENSOR, s2x8, 2), 0);     /* Tensor needs N == 1 */
    assert_int_equal(batchnorm_imm(&hw, Fmt_FP32, LAYOUT_NCX, s1x2x3x4x5, 5), 0);  /* dim 5 */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(softmax_imm_size_follows_the_config),
        cmocka_unit_test(batchnorm_imm_size_follows_the_config),
        cmocka_unit_test(no_plan_gives_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

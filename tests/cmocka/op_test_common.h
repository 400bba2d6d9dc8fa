/*
 * Helpers shared by the CT op test programs (test_op_eltwise.c, test_op_activation.c, test_op_softmax.c,
 * test_op_pool.c): TSRs over
 * an L_SHAPE, packing compact values into a layout image in SPM and back, and per-format tolerance pieces.
 */
#ifndef TX8_OP_TEST_COMMON_H
#define TX8_OP_TEST_COMMON_H

#include "ct_test_common.h"
#include "tx8/layout.h"
#include "tx8/ops.h"

typedef struct tensor_buf {
    L_SHAPE shape;
    TSR tsr;
} tensor_buf;

static inline void make_tensor(tensor_buf *t, Data_Format fmt, uint64_t addr, const int32_t *shape, int32_t dim) {
    assert_int_equal(tx8_lshape_init(&t->shape, shape, dim), 0);
    t->tsr.format = fmt;
    t->tsr.addr = addr;
    t->tsr.shape = &t->shape;
}

static inline tx8_layout make_layout(LAYOUT_MODE mode, Data_Format fmt, const int32_t *shape, int32_t dim) {
    tx8_layout l;
    assert_int_equal(tx8_layout_init(&l, mode, fmt, shape, dim, tx8_hw_batch_align_bytes(tx8_hal_config())), 0);
    return l;
}

/* Packs n compact values (already representable in l->fmt) into l's image at SPM addr. */
static inline void put_tensor(const tx8_layout *l, uint64_t addr, const double *vals, size_t n) {
    uint8_t *compact = (uint8_t *)malloc(n * l->elem_bytes + 1), *image = (uint8_t *)malloc(l->total_bytes + 1);
    for (size_t i = 0; i < n; ++i) cm_store_element(compact + i * l->elem_bytes, l->fmt, vals[i], RND_NEAREST_EVEN);
    tx8_layout_pack(l, compact, image);
    assert_int_equal(tx8_hal_mem_write(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    free(compact), free(image);
}

/* Reads l's image at SPM addr back into n compact values. */
static inline void get_tensor(const tx8_layout *l, uint64_t addr, double *vals, size_t n) {
    uint8_t *compact = (uint8_t *)malloc(n * l->elem_bytes + 1), *image = (uint8_t *)malloc(l->total_bytes + 1);
    assert_int_equal(tx8_hal_mem_read(TX8_MEM_SPM, addr, image, l->total_bytes), 0);
    tx8_layout_unpack(l, image, compact);
    for (size_t i = 0; i < n; ++i) vals[i] = cm_load_element(compact + i * l->elem_bytes, l->fmt);
    free(compact), free(image);
}

/* Smallest positive subnormal of fmt: the absolute error floor where results underflow. */
static inline double fmt_min_subnormal(Data_Format f) {
    switch (f) {
    case Fmt_FP16: return ldexp(1.0, -24);
    case Fmt_BF16: return ldexp(1.0, -133);
    default: return ldexp(1.0, -149);
    }
}

#endif /* TX8_OP_TEST_COMMON_H */

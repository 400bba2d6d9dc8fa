/* Tensor descriptor helpers. */
#include "tx8/tensor.h"

#include <string.h>

int tx8_lshape_init(L_SHAPE *s, const int32_t *shape, int32_t dim) {
    memset(s, 0, sizeof(*s));
    if (dim < 1 || dim > MAX_SHAPE_DIM) return -1;
    s->dim = dim;
    for (int32_t i = 0; i < dim; ++i) {
        s->shape_whole[i] = s->shape_slice[i] = s->shape_real[i] = shape[i];
        s->shape_start[i] = 0;
    }
    return 0;
}

int tx8_lshape_box(L_SHAPE *s, const int32_t *whole, int32_t dim, const tx8_box *box) {
    if (tx8_lshape_init(s, whole, dim) != 0) return -1;
    for (int32_t i = 0; i < dim; ++i) {
        if (box->start[i] < 0 || box->size[i] < 0 || (int64_t)box->start[i] + box->size[i] > whole[i]) return -1;
        s->shape_start[i] = box->start[i];
        s->shape_slice[i] = s->shape_real[i] = box->size[i];
    }
    return 0;
}

const char *tx8_layout_name(LAYOUT_MODE m) {
    static const char *const names[LAYOUT_COUNT] = {"Tensor", "NTensor", "Cx", "NCx"};
    return (unsigned)m < LAYOUT_COUNT ? names[m] : "invalid";
}

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

const char *tx8_layout_name(LAYOUT_MODE m) {
    static const char *const names[LAYOUT_COUNT] = {"Tensor", "NTensor", "Cx", "NCx"};
    return (unsigned)m < LAYOUT_COUNT ? names[m] : "invalid";
}

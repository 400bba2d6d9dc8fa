/*
 * Tensor descriptors shared by generated code, the runtime and OpLib (seed names: TSR, L_SHAPE, G_SHAPE).
 */
#ifndef TX8_TENSOR_H
#define TX8_TENSOR_H

#include <stdint.h>

#include "tx8/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MAX_SHAPE_DIM 6

/* Memory layouts (seed §Tensor Layout). Tensor/NTensor: compact NHWC. Cx/NCx: channel-aligned, each batch starts
 * on a batch_align_bits boundary (see tx8/layout.h). Tensor and Cx are the batch == 1 forms. */
typedef enum LAYOUT_MODE {
    LAYOUT_TENSOR = 0,
    LAYOUT_NTENSOR = 1,
    LAYOUT_CX = 2,
    LAYOUT_NCX = 3,
    LAYOUT_COUNT
} LAYOUT_MODE;

/* The part of a tensor one tile holds in one step ("load shape"). Elements, not bytes. */
typedef struct L_SHAPE {
    int32_t shape_whole[MAX_SHAPE_DIM]; /* the whole shape */
    int32_t shape_start[MAX_SHAPE_DIM]; /* start index of the slice in each dimension */
    int32_t shape_slice[MAX_SHAPE_DIM]; /* planned slice length in each dimension */
    int32_t shape_real[MAX_SHAPE_DIM];  /* actual slice length (the last slice may be shorter); ops use this */
    int32_t dim;                        /* number of dimensions */
} L_SHAPE;

/* Global (DDR) view of a tensor while it is loaded slice by slice. */
typedef struct G_SHAPE {
    int32_t spatial_start[MAX_SHAPE_DIM]; /* [start, end] of this tile's spatial shard */
    int32_t spatial_end[MAX_SHAPE_DIM];
    int32_t dynamic_offset[MAX_SHAPE_DIM];
    int32_t shape[MAX_SHAPE_DIM];
    int32_t dim;
    int32_t done; /* set when the DMA load has covered the shard */
    int32_t batch_offset[MAX_SHAPE_DIM];
} G_SHAPE;

/* A tensor in SPM or DDR: element format, byte address, shape. The layout is the op's contract (its *_PARAM). */
typedef struct TSR {
    Data_Format format;
    uint64_t addr;
    L_SHAPE *shape;
} TSR;

/* Fills an L_SHAPE describing a whole (unsliced) tensor. Returns 0, or -1 when dim is out of [1, MAX_SHAPE_DIM]. */
int tx8_lshape_init(L_SHAPE *s, const int32_t *shape, int32_t dim);

/* A box of a tensor: elements [start[i], start[i] + size[i]) in each dimension (generated code keeps one per
 * temporal step in a table). */
typedef struct tx8_box {
    int32_t start[MAX_SHAPE_DIM];
    int32_t size[MAX_SHAPE_DIM];
} tx8_box;

/* Fills an L_SHAPE describing `box` of a tensor of shape `whole`: shape_whole = whole, shape_start = box->start,
 * shape_slice = shape_real = box->size (what op_loadVar / op_dma_store read). Returns 0, or -1 when dim is out of
 * [1, MAX_SHAPE_DIM] or the box leaves the tensor. */
int tx8_lshape_box(L_SHAPE *s, const int32_t *whole, int32_t dim, const tx8_box *box);

const char *tx8_layout_name(LAYOUT_MODE m);

#ifdef __cplusplus
}
#endif

#endif /* TX8_TENSOR_H */

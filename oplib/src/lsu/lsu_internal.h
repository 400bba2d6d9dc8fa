/* Shared data path of the LSU load/store ops: plan DMA boxes for a slice, then issue them. */
#ifndef TX8_LSU_INTERNAL_H
#define TX8_LSU_INTERNAL_H

#include <stdint.h>

#include "tx8/lsu.h"

/* Moves the slice ddr->shape (start/real inside shape_whole) between the DDR tensor `ddr` and the SPM buffer
 * `spm`, both in `layout`. to_spm: RDMA, else WDMA. `op` names the caller in faults; whole: use shape_whole
 * as the slice (op_loadConst). */
uint64_t tx8_lsu_move_slice(const char *op, LAYOUT_MODE layout, const TSR *ddr, const TSR *spm, int to_spm,
                            int whole);

#endif /* TX8_LSU_INTERNAL_H */

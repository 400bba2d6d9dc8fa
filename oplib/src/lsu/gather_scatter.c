/* op_gatherScatter: block_num blocks of block_bytes at strides, SPM -> SPM, as one TDMA instruction. */
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

uint64_t op_gatherScatter(uint64_t src_spm, uint64_t dst_spm, uint32_t block_bytes, uint32_t block_num,
                          uint32_t src_stride_bytes, uint32_t dst_stride_bytes) {
    if (block_bytes == 0) {
        tx8_hal_fault("op_gatherScatter: block_bytes = 0");
        return TX8_CYCLES_INVALID;
    }
    if (block_num == 0) {
        tx8_hal_fault("op_gatherScatter: block_num = 0");
        return TX8_CYCLES_INVALID;
    }
    /* one block = one TDMA "element"; the engine checks ranges and overlap before moving anything */
    const uint32_t shape[4] = {block_num, 1, 1, 1};
    const uint32_t src_stride[4] = {src_stride_bytes, 0, 0, 0};
    const uint32_t dst_stride[4] = {dst_stride_bytes, 0, 0, 0};
    TD_Param p;
    LSU_TDMA_box(&p, TD_OP_GATHER_SCATTER, src_spm, dst_spm, block_bytes, shape, src_stride, dst_stride);
    return TsmExecute(&p);
}

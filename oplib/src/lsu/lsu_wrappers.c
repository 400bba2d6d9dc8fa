/* LSU wrappers: fill DMA_Param / TD_Param, and the DTE wrapper DTE_Param (see tx8/lsu.h). */
#include <string.h>

#include "tx8/lsu.h"

static void dma_box(DMA_Param *p, uint32_t type, uint64_t ddr_addr, uint64_t spm_addr, uint32_t run_bytes,
                    uint32_t count1, uint64_t ddr_stride1, uint32_t spm_stride1, uint32_t count2,
                    uint64_t ddr_stride2, uint32_t spm_stride2) {
    memset(p, 0, sizeof(*p));
    p->inter_type = type;
    p->ctrl.opcode = DMA_OP_COPY;
    p->param.ddr_addr = ddr_addr;
    p->param.spm_addr = spm_addr;
    p->param.size[0] = run_bytes;
    p->param.size[1] = count1;
    p->param.size[2] = count2;
    p->param.ddr_stride[0] = ddr_stride1;
    p->param.ddr_stride[1] = ddr_stride2;
    p->param.spm_stride[0] = spm_stride1;
    p->param.spm_stride[1] = spm_stride2;
}

void LSU_RDMA_box(DMA_Param *p, uint64_t ddr_addr, uint64_t spm_addr, uint32_t run_bytes, uint32_t count1,
                  uint64_t ddr_stride1, uint32_t spm_stride1, uint32_t count2, uint64_t ddr_stride2,
                  uint32_t spm_stride2) {
    dma_box(p, I_RDMA, ddr_addr, spm_addr, run_bytes, count1, ddr_stride1, spm_stride1, count2, ddr_stride2,
            spm_stride2);
}

void LSU_WDMA_box(DMA_Param *p, uint64_t ddr_addr, uint64_t spm_addr, uint32_t run_bytes, uint32_t count1,
                  uint64_t ddr_stride1, uint32_t spm_stride1, uint32_t count2, uint64_t ddr_stride2,
                  uint32_t spm_stride2) {
    dma_box(p, I_WDMA, ddr_addr, spm_addr, run_bytes, count1, ddr_stride1, spm_stride1, count2, ddr_stride2,
            spm_stride2);
}

void LSU_TDMA_box(TD_Param *p, TD_OPCODE opcode, uint64_t src_spm, uint64_t dst_spm, uint32_t elem_bytes,
                  const uint32_t shape[4], const uint32_t src_stride[4], const uint32_t dst_stride[4]) {
    memset(p, 0, sizeof(*p));
    p->inter_type = I_TDMA;
    p->ctrl.opcode = (uint32_t)opcode;
    p->ctrl.elem_bytes = elem_bytes;
    p->param.src_addr = src_spm;
    p->param.dst_addr = dst_spm;
    for (int d = 0; d < 4; ++d) {
        p->param.shape[d] = shape[d];
        p->param.src_stride[d] = src_stride[d];
        p->param.dst_stride[d] = dst_stride[d];
    }
}

void TsmDte_copy(DTE_Param *p, DTE_SRC_MEM src_mem, uint64_t src_addr, uint64_t dst_addr, uint32_t run_bytes,
                 uint32_t count1, uint64_t src_stride1, uint32_t dst_stride1, uint32_t count2, uint64_t src_stride2,
                 uint32_t dst_stride2, uint32_t dst_x0, uint32_t dst_y0, uint32_t dst_x1, uint32_t dst_y1) {
    memset(p, 0, sizeof(*p));
    p->inter_type = I_DTE;
    p->ctrl.opcode = DTE_OP_COPY;
    p->ctrl.src_mem = (uint32_t)src_mem;
    p->param.src_addr = src_addr;
    p->param.dst_addr = dst_addr;
    p->param.size[0] = run_bytes;
    p->param.size[1] = count1;
    p->param.size[2] = count2;
    p->param.src_stride[0] = src_stride1;
    p->param.src_stride[1] = src_stride2;
    p->param.dst_stride[0] = dst_stride1;
    p->param.dst_stride[1] = dst_stride2;
    p->param.dst_x0 = dst_x0;
    p->param.dst_y0 = dst_y0;
    p->param.dst_x1 = dst_x1;
    p->param.dst_y1 = dst_y1;
}

/*
 * LSU RDMA (I_RDMA, DDR -> SPM) and WDMA (I_WDMA, SPM -> DDR): a box of size[2] x size[1] runs of size[0] bytes.
 * Run (i1, i2) starts at ddr_addr + i1*ddr_stride[0] + i2*ddr_stride[1] in DDR and at
 * spm_addr + i1*spm_stride[0] + i2*spm_stride[1] in SPM; runs are copied in order i2 outer, i1 inner, so when
 * destination runs overlap the later run wins (deterministic).
 *
 * The whole extent of both sides is checked before a byte moves. DDR is sparse and paged: every run goes through
 * cm_ddr_copy_in / cm_ddr_copy_out, which split at page boundaries; reading untouched DDR gives zeros.
 */
#include "cm_internal.h"
#include "tx8/cm_cycles.h"

cm_status cm_dma_execute(cm_chip *chip, uint32_t tile, const DMA_Param *p, cm_cost *cost, cm_error *err) {
    const int read = p->inter_type == I_RDMA;
    const char *instr = read ? "RDMA" : "WDMA";
    const Ncc_DMA_GR_Param_Regs *q = &p->param;
    if (p->inter_type != I_RDMA && p->inter_type != I_WDMA)
        return cm_fail(err, CM_ERR_FIELD, "DMA: inter_type = %u is neither I_RDMA nor I_WDMA", p->inter_type);
    if (p->ctrl.opcode != DMA_OP_COPY)
        return cm_fail(err, CM_ERR_FIELD, "%s: opcode = %u is not a DMA_OPCODE", instr, p->ctrl.opcode);
    for (int d = 0; d < 3; ++d)
        if (q->size[d] == 0) return cm_fail(err, CM_ERR_FIELD, "%s: size[%d] = 0", instr, d);

    const uint64_t ddr_ext = cm_box_extent(q->size[0], q->size[1], q->ddr_stride[0], q->size[2], q->ddr_stride[1]);
    const uint64_t spm_ext = cm_box_extent(q->size[0], q->size[1], q->spm_stride[0], q->size[2], q->spm_stride[1]);
    cm_status s = cm_ddr_check(chip, q->ddr_addr, ddr_ext, instr, "ddr_addr", err);
    if (s != CM_OK) return s;
    uint8_t *spm = cm_spm_span(chip, tile, q->spm_addr, spm_ext, instr, "spm_addr", err);
    if (!spm) return err ? err->code : CM_ERR_ADDRESS;

    for (uint32_t i2 = 0; i2 < q->size[2]; ++i2)
        for (uint32_t i1 = 0; i1 < q->size[1]; ++i1) {
            const uint64_t d = q->ddr_addr + i2 * q->ddr_stride[1] + i1 * q->ddr_stride[0];
            uint8_t *sp = spm + (uint64_t)i2 * q->spm_stride[1] + (uint64_t)i1 * q->spm_stride[0];
            if (read) {
                cm_ddr_copy_out(chip, d, sp, q->size[0]);
            } else {
                s = cm_ddr_copy_in(chip, d, sp, q->size[0], err);
                if (s != CM_OK) return s; /* host out of memory: the only mid-flight failure */
            }
        }
    /* The cost is cm_cycles_dma's formula split in two: the latency on the engine, then the (burst-rounded) bytes
     * through DDR and this tile's port, which other transfers in flight share. */
    cm_cost_init(cost, p->inter_type);
    cost->kind = CM_COST_DMA;
    cost->dma_write = !read;
    cost->fixed_cycles = chip->cfg.ddr_latency_cycles;
    cost->bytes = cm_dma_bytes(&chip->cfg, p);
    cm_cost_span(cost, CM_MEM_DDR, !read, q->ddr_addr, ddr_ext);
    cm_cost_span(cost, CM_MEM_SPM(tile), read, q->spm_addr, spm_ext);
    return CM_OK;
}

/*
 * LSU TDMA (I_TDMA): SPM -> SPM copy of a 4D box of elem_bytes-sized elements. Element (i0, i1, i2, i3) moves from
 * src_addr + sum(i_d * src_stride[d]) to dst_addr + sum(i_d * dst_stride[d]); dimension 0 is innermost and the
 * copy runs in that nested order, so overlapping destination elements (a zero dst stride) keep the last write.
 * gatherScatter (blocks at strides) and reshape (permuted strides) are the same data path; the opcode is only
 * checked and traced.
 *
 * src and dst extents ([addr, addr + last byte touched]) may not overlap: the hardware reads and writes
 * concurrently, so an overlapping copy would have no defined result.
 */
#include <string.h>

#include "cm_internal.h"
#include "tx8/cm_cycles.h"

/* sum((shape[d]-1) * stride[d]) + elem_bytes, or UINT64_MAX on overflow. */
static uint64_t extent(const uint32_t shape[4], const uint32_t stride[4], uint32_t elem_bytes) {
    uint64_t e = elem_bytes;
    for (int d = 0; d < 4; ++d) {
        const uint64_t x = (uint64_t)(shape[d] - 1) * stride[d]; /* < 2^64 */
        if (x > UINT64_MAX - e) return UINT64_MAX;
        e += x;
    }
    return e;
}

cm_status cm_tdma_execute(cm_chip *chip, uint32_t tile, const TD_Param *p, cm_cost *cost, cm_error *err) {
    const Ncc_TDMA_GR_Param_Regs *q = &p->param;
    const uint32_t eb = p->ctrl.elem_bytes;
    if (p->ctrl.opcode != TD_OP_GATHER_SCATTER && p->ctrl.opcode != TD_OP_RESHAPE)
        return cm_fail(err, CM_ERR_FIELD, "TDMA: opcode = %u is not a TD_OPCODE", p->ctrl.opcode);
    if (eb == 0) return cm_fail(err, CM_ERR_FIELD, "TDMA: elem_bytes = 0");
    for (int d = 0; d < 4; ++d)
        if (q->shape[d] == 0) return cm_fail(err, CM_ERR_FIELD, "TDMA: shape[%d] = 0", d);
    const uint64_t src_ext = extent(q->shape, q->src_stride, eb);
    const uint64_t dst_ext = extent(q->shape, q->dst_stride, eb);
    const uint8_t *src = cm_spm_span(chip, tile, q->src_addr, src_ext, "TDMA", "src_addr", err);
    if (!src) return err ? err->code : CM_ERR_ADDRESS;
    uint8_t *dst = cm_spm_span(chip, tile, q->dst_addr, dst_ext, "TDMA", "dst_addr", err);
    if (!dst) return err ? err->code : CM_ERR_ADDRESS;
    if (q->src_addr < q->dst_addr + dst_ext && q->dst_addr < q->src_addr + src_ext)
        return cm_fail(err, CM_ERR_FIELD, "TDMA: src [0x%llx, 0x%llx) and dst [0x%llx, 0x%llx) overlap",
                       (unsigned long long)q->src_addr, (unsigned long long)(q->src_addr + src_ext),
                       (unsigned long long)q->dst_addr, (unsigned long long)(q->dst_addr + dst_ext));

    /* Dimension 0 contiguous on both sides: one memcpy per row instead of one per element. */
    const int rows = q->src_stride[0] == eb && q->dst_stride[0] == eb;
    const uint64_t row_bytes = (uint64_t)eb * q->shape[0];
    for (uint32_t i3 = 0; i3 < q->shape[3]; ++i3)
        for (uint32_t i2 = 0; i2 < q->shape[2]; ++i2)
            for (uint32_t i1 = 0; i1 < q->shape[1]; ++i1) {
                const uint8_t *s = src + (uint64_t)i3 * q->src_stride[3] + (uint64_t)i2 * q->src_stride[2] +
                                   (uint64_t)i1 * q->src_stride[1];
                uint8_t *d = dst + (uint64_t)i3 * q->dst_stride[3] + (uint64_t)i2 * q->dst_stride[2] +
                             (uint64_t)i1 * q->dst_stride[1];
                if (rows) {
                    memcpy(d, s, (size_t)row_bytes);
                } else {
                    for (uint32_t i0 = 0; i0 < q->shape[0]; ++i0)
                        memcpy(d + (uint64_t)i0 * q->dst_stride[0], s + (uint64_t)i0 * q->src_stride[0], eb);
                }
            }
    cm_cost_init(cost, I_TDMA);
    cost->fixed_cycles = cm_cycles_tdma(&chip->cfg, p);
    cost->op = p->ctrl.opcode;
    cm_cost_span(cost, CM_MEM_SPM(tile), 0, q->src_addr, src_ext);
    cm_cost_span(cost, CM_MEM_SPM(tile), 1, q->dst_addr, dst_ext);
    return CM_OK;
}

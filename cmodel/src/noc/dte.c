/*
 * DTE (I_DTE): a box of size[2] x size[1] runs of size[0] bytes from the issuing tile's SPM or from DDR to the same
 * box of the SPM of every tile of a mesh rectangle (tx8/isa.h). Run (i1, i2) starts at src_addr + i1*src_stride[0]
 * + i2*src_stride[1] at the source and at dst_addr + i1*dst_stride[0] + i2*dst_stride[1] on each destination; runs
 * are copied i2 outer, i1 inner, destination tiles in row-major order, so overlapping destination runs end with the
 * later one (deterministic).
 *
 * Everything is checked before a byte moves: the fields, the rectangle inside the mesh, the source range (DDR or
 * the issuing tile's SPM), the destination range on every destination tile, and, when the issuing tile receives a
 * copy of its own SPM, that source and destination do not overlap. The data moves at once (functional model); the
 * time it takes is described in the cost (sched/cm_cost.h) and, for one instruction on an idle chip, by
 * cm_cycles_dte (tx8/cm_cycles.h).
 */
#include <string.h>

#include "noc/noc.h"
#include "tx8/cm_cycles.h"

#define INSTR "DTE"

static cm_status check_axis(const char *lo_name, uint32_t lo, const char *hi_name, uint32_t hi, const char *mesh_name,
                            uint32_t mesh, cm_error *err) {
    if (lo > hi)
        return cm_fail(err, CM_ERR_FIELD, INSTR ": %s = %u > %s = %u (the destination rectangle is empty)", lo_name,
                       lo, hi_name, hi);
    if (hi >= mesh)
        return cm_fail(err, CM_ERR_FIELD, INSTR ": %s = %u is outside the mesh (%s = %u)", hi_name, hi, mesh_name,
                       mesh);
    return CM_OK;
}

cm_status cm_dte_execute(cm_chip *chip, uint32_t tile, const DTE_Param *p, cm_cost *cost, cm_error *err) {
    const tx8_hw_config *cfg = &chip->cfg;
    const Ncc_DTE_GR_Param_Regs *q = &p->param;
    if (p->inter_type != I_DTE)
        return cm_fail(err, CM_ERR_FIELD, INSTR ": inter_type = %u is not I_DTE", p->inter_type);
    if (p->ctrl.opcode != DTE_OP_COPY)
        return cm_fail(err, CM_ERR_FIELD, INSTR ": opcode = %u is not a DTE_OPCODE", p->ctrl.opcode);
    if (p->ctrl.src_mem != DTE_SRC_SPM && p->ctrl.src_mem != DTE_SRC_DDR)
        return cm_fail(err, CM_ERR_FIELD, INSTR ": src_mem = %u is not a DTE_SRC_MEM", p->ctrl.src_mem);
    const int from_ddr = p->ctrl.src_mem == DTE_SRC_DDR;
    for (int d = 0; d < 3; ++d)
        if (q->size[d] == 0) return cm_fail(err, CM_ERR_FIELD, INSTR ": size[%d] = 0", d);
    const uint64_t runs = (uint64_t)q->size[1] * q->size[2], burst = cfg->ddr_burst_bytes;
    const uint64_t run_bytes = from_ddr ? (q->size[0] + burst - 1) / burst * burst : q->size[0];
    if (run_bytes > UINT64_MAX / runs) /* the cost's byte count (zero strides make a small extent) */
        return cm_fail(err, CM_ERR_FIELD, INSTR ": size[0] x size[1] x size[2] = %u x %u x %u bytes overflows",
                       q->size[0], q->size[1], q->size[2]);
    cm_status s = check_axis("dst_x0", q->dst_x0, "dst_x1", q->dst_x1, "mesh_x", cfg->mesh_x, err);
    if (s == CM_OK) s = check_axis("dst_y0", q->dst_y0, "dst_y1", q->dst_y1, "mesh_y", cfg->mesh_y, err);
    if (s != CM_OK) return s;

    const uint64_t src_ext = cm_box_extent(q->size[0], q->size[1], q->src_stride[0], q->size[2], q->src_stride[1]);
    const uint64_t dst_ext = cm_box_extent(q->size[0], q->size[1], q->dst_stride[0], q->size[2], q->dst_stride[1]);
    const uint8_t *src_spm = NULL;
    if (from_ddr) {
        s = cm_ddr_check(chip, q->src_addr, src_ext, INSTR, "src_addr", err);
        if (s != CM_OK) return s;
    } else {
        src_spm = cm_spm_span(chip, tile, q->src_addr, src_ext, INSTR, "src_addr", err);
        if (!src_spm) return err ? err->code : CM_ERR_ADDRESS;
    }
    /* Every SPM has spm_bytes, so one destination's check stands for all; cm_spm_span names the tile. */
    const uint32_t first = q->dst_y0 * cfg->mesh_x + q->dst_x0;
    if (!cm_spm_span(chip, first, q->dst_addr, dst_ext, INSTR, "dst_addr", err))
        return err ? err->code : CM_ERR_ADDRESS;
    const uint32_t sx = tile % cfg->mesh_x, sy = tile / cfg->mesh_x;
    const int self = sx >= q->dst_x0 && sx <= q->dst_x1 && sy >= q->dst_y0 && sy <= q->dst_y1;
    if (self && !from_ddr && q->src_addr < q->dst_addr + dst_ext && q->dst_addr < q->src_addr + src_ext)
        return cm_fail(err, CM_ERR_FIELD,
                       INSTR ": src_addr range [0x%llx, 0x%llx) overlaps dst_addr range [0x%llx, 0x%llx) on the "
                             "issuing tile %u, which is inside the destination rectangle",
                       (unsigned long long)q->src_addr, (unsigned long long)(q->src_addr + src_ext),
                       (unsigned long long)q->dst_addr, (unsigned long long)(q->dst_addr + dst_ext), tile);

    for (uint32_t y = q->dst_y0; y <= q->dst_y1; ++y)
        for (uint32_t x = q->dst_x0; x <= q->dst_x1; ++x) {
            uint8_t *dst = chip->spm[y * cfg->mesh_x + x] + q->dst_addr;
            for (uint32_t i2 = 0; i2 < q->size[2]; ++i2)
                for (uint32_t i1 = 0; i1 < q->size[1]; ++i1) {
                    const uint64_t so = (uint64_t)i2 * q->src_stride[1] + (uint64_t)i1 * q->src_stride[0];
                    uint8_t *d = dst + (uint64_t)i2 * q->dst_stride[1] + (uint64_t)i1 * q->dst_stride[0];
                    if (from_ddr)
                        cm_ddr_copy_out(chip, q->src_addr + so, d, q->size[0]);
                    else
                        memcpy(d, src_spm + so, q->size[0]);
                }
        }

    cm_cost_init(cost, I_DTE);
    cost->kind = CM_COST_DTE;
    cost->fixed_cycles = cm_dte_fixed_cycles(cfg, tile, p);
    cost->bytes = cm_dte_bytes(cfg, p);
    cost->from_ddr = (uint32_t)from_ddr;
    cost->src_tile = tile;
    cost->x0 = q->dst_x0, cost->y0 = q->dst_y0, cost->x1 = q->dst_x1, cost->y1 = q->dst_y1;
    cm_cost_span(cost, from_ddr ? CM_MEM_DDR : CM_MEM_SPM(tile), 0, q->src_addr, src_ext);
    if (self) cm_cost_span(cost, CM_MEM_SPM(tile), 1, q->dst_addr, dst_ext); /* remote destinations are not listed */
    return CM_OK;
}

/* op_dma_store / op_store_var_ncx (and op_dma_store_async): SPM slice -> DDR tensor with WDMA boxes (data path:
 * lsu_slice.c). */
#include "lsu_internal.h"

#include "tx8/hal.h"

uint64_t op_dma_store(STORE_PARAM *param, TSR *spm_src, TSR *ddr_dst) {
    if (!param) {
        tx8_hal_fault("op_dma_store: param is NULL");
        return TX8_CYCLES_INVALID;
    }
    return tx8_lsu_move_slice("op_dma_store", param->layout, ddr_dst, spm_src, 0, 0);
}

uint64_t op_store_var_ncx(STORE_PARAM *param, TSR *spm_src, TSR *ddr_dst) {
    (void)param; /* the layout is NCx by definition */
    return tx8_lsu_move_slice("op_store_var_ncx", LAYOUT_NCX, ddr_dst, spm_src, 0, 0);
}

tx8_token op_dma_store_async(STORE_PARAM *param, TSR *spm_src, TSR *ddr_dst, const tx8_token *deps, uint32_t ndeps) {
    if (!param) {
        tx8_hal_fault("op_dma_store_async: param is NULL");
        return 0;
    }
    return tx8_lsu_move_slice_async("op_dma_store_async", param->layout, ddr_dst, spm_src, 0, 0, deps, ndeps);
}

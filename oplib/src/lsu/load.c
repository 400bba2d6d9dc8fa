/* op_loadVar / op_loadConst (and their _async forms): DDR -> SPM slice loads with RDMA boxes (data path:
 * lsu_slice.c). */
#include "lsu_internal.h"

#include "tx8/hal.h"

uint64_t op_loadVar(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst) {
    if (!param) {
        tx8_hal_fault("op_loadVar: param is NULL");
        return TX8_CYCLES_INVALID;
    }
    return tx8_lsu_move_slice("op_loadVar", param->layout, ddr_src, spm_dst, 1, 0);
}

uint64_t op_loadConst(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst) {
    if (!param) {
        tx8_hal_fault("op_loadConst: param is NULL");
        return TX8_CYCLES_INVALID;
    }
    return tx8_lsu_move_slice("op_loadConst", param->layout, ddr_src, spm_dst, 1, 1);
}

tx8_token op_loadVar_async(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst, const tx8_token *deps, uint32_t ndeps) {
    if (!param) {
        tx8_hal_fault("op_loadVar_async: param is NULL");
        return 0;
    }
    return tx8_lsu_move_slice_async("op_loadVar_async", param->layout, ddr_src, spm_dst, 1, 0, deps, ndeps);
}

tx8_token op_loadConst_async(LOAD_PARAM *param, TSR *ddr_src, TSR *spm_dst, const tx8_token *deps, uint32_t ndeps) {
    if (!param) {
        tx8_hal_fault("op_loadConst_async: param is NULL");
        return 0;
    }
    return tx8_lsu_move_slice_async("op_loadConst_async", param->layout, ddr_src, spm_dst, 1, 1, deps, ndeps);
}

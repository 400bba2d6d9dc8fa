/*
 * op_gather_rows: an embedding lookup on the RDMA (contract in tx8/ops.h). The table stays in DDR; for each index the
 * kernel core reads the int32 from SPM, wraps a negative one (ONNX Gather) and issues one RDMA box that copies that
 * table row into its out row. Every index is read and checked before the first box, so a bad index faults with
 * nothing written. The indices are read in chunks of GR_CHUNK into a stack buffer (OpLib allocates nothing).
 */
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/check_internal.h"

#define GR_CHUNK 256u

/* Reads indices [k0, k0 + n) of index into buf (n <= GR_CHUNK); -1 after the HAL's fault. */
static int read_indices(const TSR *index, uint64_t k0, uint32_t n, int32_t *buf) {
    return tx8_hal_mem_read(TX8_MEM_SPM, index->addr + k0 * 4, buf, (uint64_t)n * 4) == 0 ? 0 : -1;
}

uint64_t op_gather_rows(GATHER_ROWS_PARAM *param, TSR *table, TSR *index, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_gather_rows(tx8_hal_config(), param, table, index, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const int64_t rows = table->shape->shape_real[0];
    const uint64_t row_bytes = (uint64_t)table->shape->shape_real[1] * tx8_format_bytes(table->format);
    const uint64_t count = (uint64_t)out->shape->shape_real[0]; /* the check: index's element count */
    int32_t buf[GR_CHUNK];

    /* pass 1: every index inside [-rows, rows) */
    for (uint64_t k0 = 0; k0 < count; k0 += GR_CHUNK) {
        const uint32_t n = count - k0 < GR_CHUNK ? (uint32_t)(count - k0) : GR_CHUNK;
        if (read_indices(index, k0, n, buf) != 0) return TX8_CYCLES_INVALID;
        for (uint32_t j = 0; j < n; ++j)
            if (buf[j] < -rows || buf[j] >= rows) {
                tx8_hal_fault("op_gather_rows: index[%llu] = %ld is outside [-%lld, %lld) (the table's rows)",
                              (unsigned long long)(k0 + j), (long)buf[j], (long long)rows, (long long)rows);
                return TX8_CYCLES_INVALID;
            }
    }
    /* pass 2: one RDMA box per index, table row -> out row k */
    uint64_t total = 0;
    DMA_Param p;
    for (uint64_t k0 = 0; k0 < count; k0 += GR_CHUNK) {
        const uint32_t n = count - k0 < GR_CHUNK ? (uint32_t)(count - k0) : GR_CHUNK;
        if (read_indices(index, k0, n, buf) != 0) return TX8_CYCLES_INVALID;
        for (uint32_t j = 0; j < n; ++j) {
            const uint64_t row = (uint64_t)(buf[j] < 0 ? buf[j] + rows : buf[j]);
            LSU_RDMA_box(&p, table->addr + row * row_bytes, out->addr + (k0 + j) * row_bytes, (uint32_t)row_bytes, 1,
                         0, 0, 1, 0, 0);
            total = ADD_VALID_CYCLE(total, TsmExecute(&p));
            if (total == TX8_CYCLES_INVALID) return total;
        }
    }
    return total;
}

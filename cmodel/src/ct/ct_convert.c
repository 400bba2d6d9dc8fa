/*
 * CT format conversion (V): dst[i] = src[i] read exactly in src_fmt, rounded once to dst_fmt with rnd.
 * Any of fp32/fp16/bf16/tf32/int8/int32 to any; integer results saturate (NaN -> 0), float overflow follows the
 * rounding mode (inf or the largest finite value), NaN becomes the canonical quiet NaN of dst_fmt.
 * In place only with equal element sizes (ct_execute checks): a block is read before it is written.
 */
#include "ct_internal.h"

void ct_convert_run(const ct_job *j) {
    const uint64_t n = j->p->param.src_elem_num;
    double x[CT_BLOCK];
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        ct_load_block(j->src0 + i * j->sb, j->sf, x, m);
        ct_store_block(j->dst + i * j->db, j->df, j->rnd, x, m);
    }
}

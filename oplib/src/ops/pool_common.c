/* Issue for the pooling ops (their checks: plan/check_ops.c); see pool_common.h. */
#include "pool_common.h"

#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/tsm.h"

static uint64_t issue_one(const pool_plan *pl, CT_OPCODE op, uint64_t src, uint64_t dst, uint32_t images,
                          uint32_t channels) {
    CT_Param ct;
    if (op == CT_OP_POOL_MAX) CGRATensor_PoolOp_T_max(&ct, src, dst, images, channels, &pl->geom, pl->in.fmt);
    else CGRATensor_PoolOp_T_avg(&ct, src, dst, images, channels, &pl->geom, RND_NEAREST_EVEN, pl->in.fmt);
    return TsmExecute(&ct);
}

uint64_t pool_issue(const pool_plan *pl, CT_OPCODE op, uint64_t in_addr, uint64_t out_addr) {
    const tx8_layout *li = &pl->in, *lo = &pl->out;
    const uint64_t eb = li->elem_bytes;
    /* NHWC batches that are exactly one image apart on both sides (always for compact layouts): one instruction */
    if (!li->c_split && li->batch_stride_bytes == (uint64_t)li->hw * li->c0_aligned * eb &&
        lo->batch_stride_bytes == (uint64_t)lo->hw * lo->c0_aligned * eb)
        return issue_one(pl, op, in_addr, out_addr, li->n, li->c0_aligned);
    uint64_t total = 0;
    for (uint32_t b = 0; b < li->n && total != TX8_CYCLES_INVALID; ++b) {
        const uint64_t s = in_addr + b * li->batch_stride_bytes, d = out_addr + b * lo->batch_stride_bytes;
        if (!li->c_split) { /* [HW][Ca]: one image of the aligned channel count */
            total = ADD_VALID_CYCLE(total, issue_one(pl, op, s, d, 1, li->c0_aligned));
            continue;
        }
        if (li->cx) /* [Cx][HW][U]: Cx consecutive images of U channels */
            total = ADD_VALID_CYCLE(total, issue_one(pl, op, s, d, li->cx, li->unit));
        if (li->c0_aligned && total != TX8_CYCLES_INVALID) /* then [HW][C0a] */
            total = ADD_VALID_CYCLE(total, issue_one(pl, op, s + (uint64_t)li->cx * li->hw * li->unit * eb,
                                                     d + (uint64_t)lo->cx * lo->hw * lo->unit * eb, 1,
                                                     li->c0_aligned));
    }
    return total;
}

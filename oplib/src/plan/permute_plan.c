/* op_permute's TDMA box dims (plan.h; the rules are in lsu/permute.c, which checks and issues them). */
#include "plan.h"

void tx8_plan_permute(const tx8_hw_config *hw, const int32_t *shape, int32_t dim, const int32_t *perm,
                      uint32_t elem_bytes, permute_plan *pl) {
    (void)hw;
    const int32_t *S = shape;
    /* the copy in output order, innermost first */
    uint64_t in_stride[MAX_SHAPE_DIM], s = elem_bytes;
    for (int32_t i = dim - 1; i >= 0; --i) in_stride[i] = s, s *= (uint64_t)S[i];
    permute_dim *d = pl->d;
    int nd = 0;
    uint64_t ds = elem_bytes;
    for (int32_t k = dim - 1; k >= 0; --k) {
        const int32_t j = perm[k];
        if (S[j] != 1) d[nd++] = (permute_dim){(uint64_t)S[j], in_stride[j], ds};
        ds *= (uint64_t)S[j];
    }
    /* merge an outer dim into its inner neighbour when it continues it on both sides */
    int n = 0;
    for (int i = 0; i < nd; ++i) {
        if (n && d[i].src_stride == d[n - 1].count * d[n - 1].src_stride &&
            d[i].dst_stride == d[n - 1].count * d[n - 1].dst_stride)
            d[n - 1].count *= d[i].count;
        else
            d[n++] = d[i];
    }
    nd = n;
    /* fold an innermost dim that is contiguous on both sides into the element */
    pl->elem_bytes = elem_bytes;
    if (nd && d[0].src_stride == elem_bytes && d[0].dst_stride == elem_bytes) {
        pl->elem_bytes *= d[0].count;
        for (int i = 1; i < nd; ++i) d[i - 1] = d[i];
        --nd;
    }
    pl->nd = nd;
    /* more than 4 dims: loop over those with the smallest counts (the outermost of equal ones) */
    for (int i = 0; i < nd; ++i) pl->in_instr[i] = 1;
    for (int left = nd - 4; left > 0; --left) {
        int pick = -1;
        for (int i = 0; i < nd; ++i)
            if (pl->in_instr[i] && (pick < 0 || d[i].count <= d[pick].count)) pick = i;
        pl->in_instr[pick] = 0;
    }
}

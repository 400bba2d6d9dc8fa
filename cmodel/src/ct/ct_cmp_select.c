/*
 * CT compare and select.
 *   CMP (V_V / V_S): dst[i] = (src0[i] cmp rhs) ? 1 : 0 in dst_fmt; rhs = src1[i] or the scalar. IEEE semantics:
 *                    every comparison with NaN is false except NE.
 *   SELECT (V_V):    dst[i] = src0[i] != 0 ? src1[i] : src2[i]; the mask is read as a number (-0 counts as 0,
 *                    NaN as non-zero); the chosen element is copied bit for bit (no rounding, NaN payloads and
 *                    tf32 containers are kept).
 */
#include <string.h>

#include "ct_internal.h"

static void compare(uint32_t op, const double *a, const double *b, double *r, size_t n) {
    size_t i;
    switch (op) {
    case CT_OP_CMP_EQ: for (i = 0; i < n; ++i) r[i] = a[i] == b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_NE: for (i = 0; i < n; ++i) r[i] = a[i] != b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_LT: for (i = 0; i < n; ++i) r[i] = a[i] < b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_LE: for (i = 0; i < n; ++i) r[i] = a[i] <= b[i] ? 1.0 : 0.0; break;
    case CT_OP_CMP_GT: for (i = 0; i < n; ++i) r[i] = a[i] > b[i] ? 1.0 : 0.0; break;
    default: for (i = 0; i < n; ++i) r[i] = a[i] >= b[i] ? 1.0 : 0.0; break;
    }
}

void ct_cmp_run(const ct_job *j) {
    const uint64_t n = j->p->param.src_elem_num;
    const int scalar = j->p->ctrl.format == CT_FMT_V_S;
    double a[CT_BLOCK], b[CT_BLOCK], r[CT_BLOCK];
    if (scalar) {
        const double s = ct_scalar_value(j->p->param.scalar, j->sf);
        for (uint32_t k = 0; k < CT_BLOCK; ++k) b[k] = s;
    }
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        ct_load_block(j->src0 + i * j->sb, j->sf, a, m);
        if (!scalar) ct_load_block(j->src1 + i * j->sb, j->sf, b, m);
        compare(j->op, a, b, r, m);
        ct_store_block(j->dst + i * j->db, j->df, j->rnd, r, m);
    }
}

void ct_select_run(const ct_job *j) {
    const uint64_t n = j->p->param.src_elem_num;
    const uint32_t eb = j->sb;
    double mask[CT_BLOCK];
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        ct_load_block(j->src0 + i * eb, j->sf, mask, m);
        for (size_t k = 0; k < m; ++k) {
            const uint64_t off = (i + k) * eb;
            /* memmove: dst may be exactly one of the sources (same element, read before written) */
            memmove(j->dst + off, (mask[k] != 0.0 ? j->src1 : j->src2) + off, eb);
        }
    }
}

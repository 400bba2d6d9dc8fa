/*
 * CT reductions of a row-major [outer_num][src_elem_num] view:
 *   REDUCE_INNER  dst[o] = reduce over i of src[o][i]        (outer_num results)
 *   REDUCE_OUTER  dst[i] = reduce over o of src[o][i]        (src_elem_num results)
 * sum accumulates in double in increasing index order and is rounded once; max/min propagate NaN (as in
 * ct_arith.c). dst may not overlap src (checked by ct_execute).
 */
#include "ct_internal.h"

/* Folds x[0..n) into a in index order: one loop per opcode. */
static double fold(uint32_t op, double a, const double *x, size_t n) {
    size_t k;
    switch (op) {
    case CT_OP_REDUCE_SUM: for (k = 0; k < n; ++k) a += x[k]; break;
    case CT_OP_REDUCE_MAX: for (k = 0; k < n; ++k) a = (a > x[k] || a != a) ? a : x[k]; break;
    default: for (k = 0; k < n; ++k) a = (a < x[k] || a != a) ? a : x[k]; break;
    }
    return a;
}

/* acc[k] = acc[k] op x[k]: one loop per opcode. */
static void combine_block(uint32_t op, double *acc, const double *x, size_t n) {
    size_t k;
    switch (op) {
    case CT_OP_REDUCE_SUM: for (k = 0; k < n; ++k) acc[k] += x[k]; break;
    case CT_OP_REDUCE_MAX: for (k = 0; k < n; ++k) acc[k] = (acc[k] > x[k] || acc[k] != acc[k]) ? acc[k] : x[k]; break;
    default: for (k = 0; k < n; ++k) acc[k] = (acc[k] < x[k] || acc[k] != acc[k]) ? acc[k] : x[k]; break;
    }
}

void ct_reduce_run(const ct_job *j) {
    const uint64_t inner = j->p->param.src_elem_num, outer = j->p->param.outer_num;
    double x[CT_BLOCK], acc[CT_BLOCK];
    if (j->p->ctrl.format == CT_FMT_REDUCE_INNER) {
        for (uint64_t o = 0; o < outer; o += CT_BLOCK) {
            const size_t rows = (size_t)(outer - o < CT_BLOCK ? outer - o : CT_BLOCK);
            for (size_t r = 0; r < rows; ++r) {
                const uint8_t *row = j->src0 + (o + r) * inner * j->sb;
                double a = 0.0;
                for (uint64_t i = 0; i < inner; i += CT_BLOCK) {
                    const size_t m = (size_t)(inner - i < CT_BLOCK ? inner - i : CT_BLOCK);
                    ct_load_block(row + i * j->sb, j->sf, x, m);
                    /* start from the first element: max/min have no neutral double */
                    a = i == 0 ? fold(j->op, x[0], x + 1, m - 1) : fold(j->op, a, x, m);
                }
                acc[r] = a;
            }
            ct_store_block(j->dst + o * j->db, j->df, j->rnd, acc, rows);
        }
        return;
    }
    /* REDUCE_OUTER: column blocks, each accumulated over all rows in row order. */
    for (uint64_t i = 0; i < inner; i += CT_BLOCK) {
        const size_t m = (size_t)(inner - i < CT_BLOCK ? inner - i : CT_BLOCK);
        ct_load_block(j->src0 + i * j->sb, j->sf, acc, m);
        for (uint64_t o = 1; o < outer; ++o) {
            ct_load_block(j->src0 + (o * inner + i) * j->sb, j->sf, x, m);
            combine_block(j->op, acc, x, m);
        }
        ct_store_block(j->dst + i * j->db, j->df, j->rnd, acc, m);
    }
}

/*
 * CT format conversion (V): dst[i] = src[i] read exactly in src_fmt, rounded once to dst_fmt with rnd.
 * Any of fp32/fp16/bf16/tf32/int8/int32/int64 to any; integer results saturate (NaN -> 0), float overflow follows
 * the rounding mode (inf or the largest finite value), NaN becomes the canonical quiet NaN of dst_fmt.
 * int64 never goes through a rounded double: int64 -> float rounds the integer itself once (cm_int64_to_format),
 * int64 -> int8/int32 saturates, float -> int64 rounds by rnd and saturates (cm_round_to_int64).
 * In place only with equal element sizes (ct_execute checks): a block is read before it is written.
 */
#include "ct_internal.h"
#include "tx8/cm_numerics.h"

static int64_t get64(const uint8_t *p) {
    uint64_t u = 0;
    for (int k = 7; k >= 0; --k) u = u << 8 | p[k];
    return (int64_t)u;
}

static void put_bits(uint8_t *p, uint64_t v, uint32_t bytes) {
    for (uint32_t k = 0; k < bytes; ++k) p[k] = (uint8_t)(v >> (8 * k));
}

/* One block of m elements with int64 on either side. */
static void convert_int64_block(const ct_job *j, const uint8_t *src, uint8_t *dst, size_t m) {
    int64_t v[CT_BLOCK];
    if (j->sf == Fmt_INT64) {
        for (size_t k = 0; k < m; ++k) v[k] = get64(src + 8 * k);
    } else {
        double x[CT_BLOCK];
        ct_load_block(src, j->sf, x, m);
        for (size_t k = 0; k < m; ++k) v[k] = cm_round_to_int64(x[k], j->rnd);
    }
    if (j->df == Fmt_INT64)
        for (size_t k = 0; k < m; ++k) put_bits(dst + 8 * k, (uint64_t)v[k], 8);
    else
        for (size_t k = 0; k < m; ++k) put_bits(dst + k * j->db, cm_int64_to_format(v[k], j->df, j->rnd), j->db);
}

void ct_convert_run(const ct_job *j) {
    const uint64_t n = j->p->param.src_elem_num;
    const int wide = j->sf == Fmt_INT64 || j->df == Fmt_INT64;
    double x[CT_BLOCK];
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        if (wide) {
            convert_int64_block(j, j->src0 + i * j->sb, j->dst + i * j->db, m);
            continue;
        }
        ct_load_block(j->src0 + i * j->sb, j->sf, x, m);
        ct_store_block(j->dst + i * j->db, j->df, j->rnd, x, m);
    }
}

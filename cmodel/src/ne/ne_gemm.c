/*
 * NE engine (I_NEUR, NE_OP_GEMM): out[M][N] (+)= A[M][K] x B[K][N] (+ bias[N]) (relu), row-major, leading
 * dimensions in elements (tx8/isa.h).
 *
 * Numerics (the definition every backend must reproduce bit for bit):
 *   float inputs (fp32 / tf32 / bf16 / fp16; out and bias fp32):
 *     - operands are read as float; tf32 operands are first rounded to tf32 (round to nearest even; NaN becomes
 *       the canonical quiet NaN 0x7FC00000), the same as cm_fp32_to_tf32;
 *     - acc = accumulate ? out[i][j] : +0.0f;  for k = 0, 1, …, K-1 ascending:  acc = acc + a[i][k] * b[k][j],
 *       the product rounded to float, then the sum rounded to float (no FMA; fp16/bf16/tf32 products are exact
 *       in float, fp32 products round once);
 *     - bias_en: acc = acc + bias[j] (one float add, after the k loop);
 *     - relu_en: acc <= 0 ? +0.0f : acc (last; NaN passes; the same rule as CT relu);
 *     - a NaN result is stored as the canonical quiet NaN 0x7FC00000 (CPUs differ in the NaN bits of 0*inf).
 *   int8 inputs (out and bias int32): the same steps in int32 with two's-complement wrap-around.
 * The loops are blocked (i-k-j order inside a register tile) but every output element still sees its products in
 * ascending k; partial sums between k blocks are parked in `out`, which is fp32/int32 and so holds them exactly.
 * Working buffers are fixed-size arrays on the stack (B panel 64 KiB + A panel 32 KiB; int8: 4 KiB); nothing
 * is allocated.
 *
 * Validation happens before any byte moves: opcode, formats, flags, m/n/k > 0, lda >= k, ldb >= n, ldc >= n,
 * every operand's extent inside SPM, and out not overlapping a, b or bias (in-place GEMM would make the result
 * depend on the blocking).
 */
#include "numerics/cm_bits.h"
#include <string.h>

#include "cm_internal.h"
#include "ne_internal.h"
#include "tx8/cm_cycles.h"
#include "tx8/cm_numerics.h"

#define INSTR "NE gemm"

typedef struct ne_operands {
    const uint8_t *a, *b, *bias;
    uint8_t *out;
    uint32_t m, n, k, lda, ldb, ldc;
    Data_Format in_fmt;
} ne_operands;

/* Bytes spanned by `rows` rows of `cols` elements at a pitch of `ld` elements; UINT64_MAX if it overflows. */
static uint64_t extent_bytes(uint32_t rows, uint32_t cols, uint32_t ld, uint32_t elem_bytes) {
    const uint64_t elems = (uint64_t)(rows - 1) * ld + cols; /* < 2^64 for 32-bit inputs */
    return elems > UINT64_MAX / elem_bytes ? UINT64_MAX : elems * elem_bytes;
}

static void gemm_float(const ne_operands *o, const Ncc_NE_GR_Ctl_Regs *ctl) {
    float bpanel[NE_KB * NE_NB]; /* [NE_NB/NE_NR][kc][NE_NR], zero-padded columns */
    float apanel[NE_MB * NE_KB]; /* [NE_MB/NE_MR][kc][NE_MR], zero-padded rows */
    const uint32_t eb = tx8_format_bytes(o->in_fmt);
    for (uint32_t j0 = 0; j0 < o->n; j0 += NE_NB) {
        const uint32_t nb = o->n - j0 < NE_NB ? o->n - j0 : NE_NB;
        const uint32_t nb_pad = (nb + NE_NR - 1) / NE_NR * NE_NR;
        for (uint32_t k0 = 0; k0 < o->k; k0 += NE_KB) {
            const uint32_t kc = o->k - k0 < NE_KB ? o->k - k0 : NE_KB;
            const int first = k0 == 0, last = k0 + kc == o->k;
            memset(bpanel, 0, sizeof(float) * kc * nb_pad);
            for (uint32_t p = 0; p < kc; ++p)
                for (uint32_t jt = 0; jt < nb_pad; jt += NE_NR) {
                    const uint32_t w = nb - jt < NE_NR ? nb - jt : NE_NR;
                    ne_read_floats(o->b + ((uint64_t)(k0 + p) * o->ldb + j0 + jt) * eb, o->in_fmt, w,
                                bpanel + (size_t)jt * kc + (size_t)p * NE_NR, 1);
                }
            for (uint32_t i0 = 0; i0 < o->m; i0 += NE_MB) {
                const uint32_t mb = o->m - i0 < NE_MB ? o->m - i0 : NE_MB;
                const uint32_t mb_pad = (mb + NE_MR - 1) / NE_MR * NE_MR;
                memset(apanel, 0, sizeof(float) * kc * mb_pad);
                for (uint32_t i = 0; i < mb; ++i)
                    ne_read_floats(o->a + ((uint64_t)(i0 + i) * o->lda + k0) * eb, o->in_fmt, kc,
                                apanel + (size_t)(i / NE_MR) * NE_MR * kc + i % NE_MR, NE_MR);
                for (uint32_t it = 0; it < mb_pad; it += NE_MR)
                    for (uint32_t jt = 0; jt < nb_pad; jt += NE_NR) {
                        const uint32_t h = mb - it < NE_MR ? mb - it : NE_MR, w = nb - jt < NE_NR ? nb - jt : NE_NR;
                        float c[NE_MR][NE_NR];
                        memset(c, 0, sizeof c);
                        uint8_t *orow = o->out + ((uint64_t)(i0 + it) * o->ldc + j0 + jt) * 4;
                        if (!first || ctl->accumulate)
                            for (uint32_t r = 0; r < h; ++r) memcpy(c[r], orow + (uint64_t)r * o->ldc * 4, 4 * w);
                        ne_micro_kernel(kc, apanel + (size_t)it * kc, bpanel + (size_t)jt * kc, c);
                        for (uint32_t r = 0; r < h; ++r) {
                            if (last) {
                                for (uint32_t j = 0; j < w; ++j) {
                                    float x = c[r][j];
                                    if (ctl->bias_en) x = x + cm_bits_to_float(ne_load_u32(o->bias + 4ull * (j0 + jt + j)));
                                    if (ctl->relu_en && x <= 0.0f) x = 0.0f; /* -0 -> +0, as CT relu */
                                    c[r][j] = ne_canonical(x);
                                }
                            }
                            memcpy(orow + (uint64_t)r * o->ldc * 4, c[r], 4 * w);
                        }
                    }
            }
        }
    }
}

/* int8 x int8 -> int32, wrapping (products fit in 16 bits; sums wrap modulo 2^32 via uint32 arithmetic). */
static void gemm_int8(const ne_operands *o, const Ncc_NE_GR_Ctl_Regs *ctl) {
    enum { JB = 1024 };
    uint32_t acc[JB];
    for (uint32_t i = 0; i < o->m; ++i)
        for (uint32_t j0 = 0; j0 < o->n; j0 += JB) {
            const uint32_t w = o->n - j0 < JB ? o->n - j0 : JB;
            uint8_t *orow = o->out + ((uint64_t)i * o->ldc + j0) * 4;
            if (ctl->accumulate)
                memcpy(acc, orow, 4 * (size_t)w);
            else
                memset(acc, 0, 4 * (size_t)w);
            const int8_t *arow = (const int8_t *)(o->a + (uint64_t)i * o->lda);
            for (uint32_t k = 0; k < o->k; ++k) {
                const int32_t a = arow[k];
                const int8_t *brow = (const int8_t *)(o->b + (uint64_t)k * o->ldb + j0);
                for (uint32_t j = 0; j < w; ++j) acc[j] += (uint32_t)(a * (int32_t)brow[j]);
            }
            for (uint32_t j = 0; j < w; ++j) {
                uint32_t x = acc[j];
                if (ctl->bias_en) x += ne_load_u32(o->bias + 4ull * (j0 + j));
                if (ctl->relu_en && (int32_t)x < 0) x = 0;
                acc[j] = x;
            }
            memcpy(orow, acc, 4 * (size_t)w);
        }
}

cm_status cm_ne_execute(cm_chip *chip, uint32_t tile, const TsmNeInstr *p, cm_cost *cost, cm_error *err) {
    const Ncc_NE_GR_Ctl_Regs *c = &p->ctrl;
    const Ncc_NE_GR_Param_Regs *q = &p->param;
    if (c->opcode != NE_OP_GEMM) return cm_fail(err, CM_ERR_FIELD, INSTR ": opcode = %u is not an NE_OPCODE", c->opcode);
    const cm_status ctl = ne_check_ctl(c, INSTR, err);
    if (ctl != CM_OK) return ctl;
    const Data_Format in = (Data_Format)c->in_fmt;
    if (q->m == 0) return cm_fail(err, CM_ERR_FIELD, INSTR ": m = 0");
    if (q->n == 0) return cm_fail(err, CM_ERR_FIELD, INSTR ": n = 0");
    if (q->k == 0) return cm_fail(err, CM_ERR_FIELD, INSTR ": k = 0");
    if (q->lda < q->k) return cm_fail(err, CM_ERR_FIELD, INSTR ": lda = %u is less than k = %u", q->lda, q->k);
    if (q->ldb < q->n) return cm_fail(err, CM_ERR_FIELD, INSTR ": ldb = %u is less than n = %u", q->ldb, q->n);
    if (q->ldc < q->n) return cm_fail(err, CM_ERR_FIELD, INSTR ": ldc = %u is less than n = %u", q->ldc, q->n);

    const uint32_t eb = tx8_format_bytes(in);
    const uint64_t a_bytes = extent_bytes(q->m, q->k, q->lda, eb);
    const uint64_t b_bytes = extent_bytes(q->k, q->n, q->ldb, eb);
    const uint64_t o_bytes = extent_bytes(q->m, q->n, q->ldc, 4);
    const uint64_t bias_bytes = c->bias_en ? 4ull * q->n : 0;
    ne_operands o;
    o.a = cm_spm_span(chip, tile, q->a_addr, a_bytes, INSTR, "a_addr", err);
    if (!o.a) return err ? err->code : CM_ERR_ADDRESS;
    o.b = cm_spm_span(chip, tile, q->b_addr, b_bytes, INSTR, "b_addr", err);
    if (!o.b) return err ? err->code : CM_ERR_ADDRESS;
    o.out = cm_spm_span(chip, tile, q->out_addr, o_bytes, INSTR, "out_addr", err);
    if (!o.out) return err ? err->code : CM_ERR_ADDRESS;
    o.bias = NULL;
    if (c->bias_en) {
        o.bias = cm_spm_span(chip, tile, q->bias_addr, bias_bytes, INSTR, "bias_addr", err);
        if (!o.bias) return err ? err->code : CM_ERR_ADDRESS;
    }
    if (ne_ranges_overlap(q->out_addr, o_bytes, q->a_addr, a_bytes))
        return cm_fail(err, CM_ERR_FIELD, INSTR ": out [0x%llx, +%llu) overlaps a [0x%llx, +%llu)",
                       (unsigned long long)q->out_addr, (unsigned long long)o_bytes, (unsigned long long)q->a_addr,
                       (unsigned long long)a_bytes);
    if (ne_ranges_overlap(q->out_addr, o_bytes, q->b_addr, b_bytes))
        return cm_fail(err, CM_ERR_FIELD, INSTR ": out [0x%llx, +%llu) overlaps b [0x%llx, +%llu)",
                       (unsigned long long)q->out_addr, (unsigned long long)o_bytes, (unsigned long long)q->b_addr,
                       (unsigned long long)b_bytes);
    if (c->bias_en && ne_ranges_overlap(q->out_addr, o_bytes, q->bias_addr, bias_bytes))
        return cm_fail(err, CM_ERR_FIELD, INSTR ": out [0x%llx, +%llu) overlaps bias [0x%llx, +%llu)",
                       (unsigned long long)q->out_addr, (unsigned long long)o_bytes,
                       (unsigned long long)q->bias_addr, (unsigned long long)bias_bytes);

    o.m = q->m, o.n = q->n, o.k = q->k, o.lda = q->lda, o.ldb = q->ldb, o.ldc = q->ldc, o.in_fmt = in;
    if (in == Fmt_INT8)
        gemm_int8(&o, c);
    else
        gemm_float(&o, c);
    cm_cost_init(cost, I_NEUR);
    cost->fixed_cycles = cm_cycles_ne(&chip->cfg, p);
    cost->op = NE_OP_GEMM;
    cost->macs = (uint64_t)q->m * q->k * q->n;
    cost->dims[0] = q->m, cost->dims[1] = q->k, cost->dims[2] = q->n, cost->dims[3] = c->in_fmt;
    cm_cost_span(cost, CM_MEM_SPM(tile), 0, q->a_addr, a_bytes);
    cm_cost_span(cost, CM_MEM_SPM(tile), 0, q->b_addr, b_bytes);
    cm_cost_span(cost, CM_MEM_SPM(tile), 0, q->bias_addr, bias_bytes);
    cm_cost_span(cost, CM_MEM_SPM(tile), 1, q->out_addr, o_bytes); /* read too when accumulating */
    return CM_OK;
}

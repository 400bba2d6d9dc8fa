/*
 * op_gemm on the NE: out[M][N] (+)= a[M][K] x b[K][N] (+ bias[N]) (relu), compact row-major SPM tensors.
 *
 * Shapes come from shape_real (the SPM tensors): a [M,K], b [K,N], out [M,N], bias [N] or [1,N]. The problem is
 * tiled so no NE instruction exceeds TSM_NE_GEMM_MAX_M/N/K (tx8/ne.h). K tiles after the first accumulate into
 * out; bias and relu ride on the last K tile. Because out is fp32/int32 and the engine adds products in ascending
 * k, the tiled result is bit-identical to one big instruction. Cycles: the sum of the instructions' cycles.
 */
#include "tx8/hal.h"
#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

static int shape2(const char *name, const TSR *t, uint32_t *rows, uint32_t *cols) {
    if (!t || !t->shape) {
        tx8_hal_fault("op_gemm: %s or its shape is NULL", name);
        return 0;
    }
    const L_SHAPE *s = t->shape;
    if (s->dim != 2 || s->shape_real[0] <= 0 || s->shape_real[1] <= 0) {
        tx8_hal_fault("op_gemm: %s must be 2D with positive extents (dim %d)", name, (int)s->dim);
        return 0;
    }
    *rows = (uint32_t)s->shape_real[0], *cols = (uint32_t)s->shape_real[1];
    return 1;
}

uint64_t op_gemm(GEMM_PARAM *param, TSR *a, TSR *b, TSR *bias, TSR *out) {
    uint32_t M, K, K2, N, M2, N2;
    if (!param) {
        tx8_hal_fault("op_gemm: param is NULL");
        return TX8_CYCLES_INVALID;
    }
    if (!shape2("a", a, &M, &K) || !shape2("b", b, &K2, &N) || !shape2("out", out, &M2, &N2))
        return TX8_CYCLES_INVALID;
    if (K2 != K || M2 != M || N2 != N) {
        tx8_hal_fault("op_gemm: shapes a [%u,%u] x b [%u,%u] -> out [%u,%u] do not match", M, K, K2, N, M2, N2);
        return TX8_CYCLES_INVALID;
    }
    const Data_Format in = a->format;
    if (in != Fmt_FP32 && in != Fmt_TF32 && in != Fmt_BF16 && in != Fmt_FP16 && in != Fmt_INT8) {
        tx8_hal_fault("op_gemm: a format %s is not fp32, tf32, bf16, fp16 or int8", tx8_format_name(in));
        return TX8_CYCLES_INVALID;
    }
    if (b->format != in) {
        tx8_hal_fault("op_gemm: b format %s differs from a format %s", tx8_format_name(b->format),
                      tx8_format_name(in));
        return TX8_CYCLES_INVALID;
    }
    const Data_Format of = in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    if (out->format != of) {
        tx8_hal_fault("op_gemm: out format %s, expected %s for %s inputs", tx8_format_name(out->format),
                      tx8_format_name(of), tx8_format_name(in));
        return TX8_CYCLES_INVALID;
    }
    if (bias) {
        const L_SHAPE *s = bias->shape;
        const int ok = s && ((s->dim == 1 && s->shape_real[0] == (int32_t)N) ||
                             (s->dim == 2 && s->shape_real[0] == 1 && s->shape_real[1] == (int32_t)N));
        if (!ok) {
            tx8_hal_fault("op_gemm: bias must have shape [%u] or [1,%u]", N, N);
            return TX8_CYCLES_INVALID;
        }
        if (bias->format != of) {
            tx8_hal_fault("op_gemm: bias format %s, expected %s", tx8_format_name(bias->format),
                          tx8_format_name(of));
            return TX8_CYCLES_INVALID;
        }
    }
    if (param->accumulate > 1 || param->relu_en > 1) {
        tx8_hal_fault("op_gemm: param accumulate = %u / relu_en = %u, expected 0 or 1", param->accumulate,
                      param->relu_en);
        return TX8_CYCLES_INVALID;
    }

    const uint64_t eb = tx8_format_bytes(in);
    uint64_t total = 0;
    for (uint32_t i0 = 0; i0 < M; i0 += TSM_NE_GEMM_MAX_M) {
        const uint32_t m = M - i0 < TSM_NE_GEMM_MAX_M ? M - i0 : TSM_NE_GEMM_MAX_M;
        for (uint32_t j0 = 0; j0 < N; j0 += TSM_NE_GEMM_MAX_N) {
            const uint32_t n = N - j0 < TSM_NE_GEMM_MAX_N ? N - j0 : TSM_NE_GEMM_MAX_N;
            for (uint32_t k0 = 0; k0 < K; k0 += TSM_NE_GEMM_MAX_K) {
                const uint32_t k = K - k0 < TSM_NE_GEMM_MAX_K ? K - k0 : TSM_NE_GEMM_MAX_K;
                const int last = k0 + k == K;
                TsmNeInstr p;
                TsmNe_gemm(&p, a->addr + ((uint64_t)i0 * K + k0) * eb, b->addr + ((uint64_t)k0 * N + j0) * eb,
                           bias ? bias->addr + (uint64_t)j0 * 4 : 0, out->addr + ((uint64_t)i0 * N + j0) * 4, m, n,
                           k, K, N, N, in, of, k0 ? 1u : param->accumulate, bias && last ? 1u : 0u,
                           last ? param->relu_en : 0u);
                total = ADD_VALID_CYCLE(total, TsmExecute(&p));
                if (total == TX8_CYCLES_INVALID) return total;
            }
        }
    }
    return total;
}

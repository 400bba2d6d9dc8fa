/*
 * op_gemm on the NE: out[M][N] (+)= a[M][K] x b[K][N] (+ bias[N]) (relu), compact row-major SPM tensors.
 *
 * Shapes come from shape_real (the SPM tensors): a [M,K], b [K,N], out [M,N], bias [N] or [1,N]. The problem is
 * tiled so no NE instruction exceeds TSM_NE_GEMM_MAX_M/N/K (tx8/ne.h). K tiles after the first accumulate into
 * out; bias and relu ride on the last K tile. Because out is fp32/int32 and the engine adds products in ascending
 * k, the tiled result is bit-identical to one big instruction. Cycles: the sum of the instructions' cycles.
 */
#include "tx8/check.h"
#include "tx8/hal.h"
#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

uint64_t op_gemm(GEMM_PARAM *param, TSR *a, TSR *b, TSR *bias, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_gemm(tx8_hal_config(), param, a, b, bias, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const uint32_t M = (uint32_t)a->shape->shape_real[0], K = (uint32_t)a->shape->shape_real[1];
    const uint32_t N = (uint32_t)b->shape->shape_real[1];
    const Data_Format in = a->format, of = in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;

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

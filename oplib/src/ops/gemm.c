/*
 * op_gemm on the NE: out[..., M][N] (+)= a[..., M][K] x b[..., K][N] (+ bias[N]) (relu), compact row-major SPM
 * tensors.
 *
 * Shapes come from shape_real (the SPM tensors): a [..., M,K], b [..., K,N], out [..., M,N], all with the same
 * number of dims; the leading dims are batch dims that broadcast as numpy's matmul (a's and b's each out's or 1),
 * bias [N] or [1,N] added to every matrix. Each matrix of out is its own problem, in row-major order of the batch
 * dims. A problem is tiled so no NE instruction exceeds TSM_NE_GEMM_MAX_M/N/K (tx8/ne.h). K tiles after the first
 * accumulate into out; bias and relu ride on the last K tile. Because out is fp32/int32 and the engine adds
 * products in ascending k, the tiled result is bit-identical to one big instruction. Cycles: the sum of the
 * instructions' cycles.
 */
#include "tx8/check.h"
#include "tx8/hal.h"
#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

/* One matrix: out[M][N] (+)= a[M][K] x b[K][N] at the given SPM addresses. */
static uint64_t gemm_matrix(const GEMM_PARAM *param, uint64_t a, uint64_t b, const TSR *bias, uint64_t out,
                            uint32_t M, uint32_t K, uint32_t N, Data_Format in, Data_Format of) {
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
                TsmNe_gemm(&p, a + ((uint64_t)i0 * K + k0) * eb, b + ((uint64_t)k0 * N + j0) * eb,
                           bias ? bias->addr + (uint64_t)j0 * 4 : 0, out + ((uint64_t)i0 * N + j0) * 4, m, n, k, K, N,
                           N, in, of, k0 ? 1u : param->accumulate, bias && last ? 1u : 0u,
                           last ? param->relu_en : 0u);
                total = ADD_VALID_CYCLE(total, TsmExecute(&p));
                if (total == TX8_CYCLES_INVALID) return total;
            }
        }
    }
    return total;
}

uint64_t op_gemm(GEMM_PARAM *param, TSR *a, TSR *b, TSR *bias, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_gemm(tx8_hal_config(), param, a, b, bias, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const int32_t d = out->shape->dim;
    const int32_t *as = a->shape->shape_real, *bs = b->shape->shape_real, *os = out->shape->shape_real;
    const uint32_t M = (uint32_t)as[d - 2], K = (uint32_t)as[d - 1], N = (uint32_t)bs[d - 1];
    const Data_Format in = a->format, of = in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    const uint64_t eb = tx8_format_bytes(in);
    const uint64_t a_bytes = (uint64_t)M * K * eb, b_bytes = (uint64_t)K * N * eb, o_bytes = (uint64_t)M * N * 4;
    uint64_t batches = 1;
    for (int32_t i = 0; i + 2 < d; ++i) batches *= (uint64_t)os[i];
    uint64_t total = 0;
    for (uint64_t o = 0; o < batches; ++o) {
        /* The matrix of a and of b that out's matrix o reads: o's batch index, 0 where an operand broadcasts. */
        uint64_t ia = 0, ib = 0, sa = 1, sb = 1, rest = o;
        for (int32_t i = d - 3; i >= 0; --i) {
            const uint64_t at = rest % (uint64_t)os[i];
            rest /= (uint64_t)os[i];
            ia += (as[i] == 1 ? 0 : at) * sa, sa *= (uint64_t)as[i];
            ib += (bs[i] == 1 ? 0 : at) * sb, sb *= (uint64_t)bs[i];
        }
        total = ADD_VALID_CYCLE(total, gemm_matrix(param, a->addr + ia * a_bytes, b->addr + ib * b_bytes, bias,
                                                   out->addr + o * o_bytes, M, K, N, in, of));
        if (total == TX8_CYCLES_INVALID) return total;
    }
    return total;
}

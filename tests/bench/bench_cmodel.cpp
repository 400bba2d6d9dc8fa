// Host speed of the cmodel against plain C loops and oneDNN doing the same maths on the same host, and the
// simulated cycles next to the bound the cycle model implies. Prints numbers; asserts nothing.
//
//   build/bin/tx8-bench-cmodel [--reps N]
//
// Cases: op_batchnorm_inference 8x56x56x129 fp16 NCx (compute in SPM, slice by slice, no DMA: the full DDR flow
// is the demo's), and op_gemm 512x512x512 fp32 and bf16 (one tile, operands in SPM).
#include <dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

extern "C" {
#include "tx8/cm_cycles.h"
#include "tx8/cm_numerics.h"
#include "tx8/hal_cmodel.h"
#include "tx8/layout.h"
#include "tx8/ops.h"
}

namespace {

double seconds_of(const std::function<void()> &fn, int reps) {
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        fn();
        auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    }
    return best;
}

uint64_t lcg(uint64_t &s) { return s = s * 6364136223846793005ull + 1442695040888963407ull; }
float frand(uint64_t &s, float lo, float hi) { return lo + (hi - lo) * (float)((lcg(s) >> 40) / 16777216.0); }

void spm_write(uint64_t addr, const void *p, size_t n) {
    if (tx8_hal_mem_write(TX8_MEM_SPM, addr, p, n) != 0) std::exit(1);
}

TSR make_tsr(L_SHAPE &s, Data_Format f, uint64_t addr, std::vector<int32_t> shape) {
    tx8_lshape_init(&s, shape.data(), (int32_t)shape.size());
    return TSR{f, addr, &s};
}

// ---- batchnorm ----

struct BnCase {
    int n = 8, h = 56, w = 56, c = 129, h_slice = 28;
};

// The cmodel is timed once per slice (16 slices); the plain-C and oneDNN references take the best of `reps`.
void bench_batchnorm(tx8_hal *hal, int reps) {
    const BnCase bc;
    const size_t elems = (size_t)bc.n * bc.h * bc.w * bc.c;
    uint64_t seed = 42;
    std::vector<uint16_t> x(elems);
    for (auto &v : x) v = cm_fp32_to_fp16(frand(seed, -4, 4));
    std::vector<float> scale(bc.c), shift(bc.c), mean(bc.c), var(bc.c);
    for (int i = 0; i < bc.c; ++i)
        scale[i] = frand(seed, -2, 2), shift[i] = frand(seed, -1, 1), mean[i] = frand(seed, -1, 1),
        var[i] = frand(seed, 0.1f, 3);

    // One slice [1, h_slice, w, c] in NCx; the per-channel vectors padded to the aligned channel count.
    const int32_t sshape[4] = {1, bc.h_slice, bc.w, bc.c};
    tx8_layout lay;
    tx8_layout_init(&lay, LAYOUT_NCX, Fmt_FP16, sshape, 4, 256);
    const uint32_t lanes = lay.cx * lay.unit + lay.c0_aligned;
    const uint64_t in_addr = 0, out_addr = (lay.total_bytes + 255) / 256 * 256, vec_addr = 2 * out_addr;
    const uint64_t imm_addr = vec_addr + 4 * ((lanes * 4 + 255) / 256 * 256);
    std::vector<float> padded(lanes, 1.0f);
    std::vector<float> *vecs[4] = {&scale, &shift, &mean, &var};
    for (int k = 0; k < 4; ++k) {
        std::copy(vecs[k]->begin(), vecs[k]->end(), padded.begin());
        spm_write(vec_addr + k * ((lanes * 4 + 255) / 256 * 256), padded.data(), lanes * 4);
    }
    BATCHNORM_INFER_PARAM param{LAYOUT_NCX, 1e-6f};
    L_SHAPE s_in, s_out, s_v, s_imm;
    TSR in = make_tsr(s_in, Fmt_FP16, in_addr, {1, bc.h_slice, bc.w, bc.c});
    TSR out = make_tsr(s_out, Fmt_FP16, out_addr, {1, bc.h_slice, bc.w, bc.c});
    const uint64_t imm_bytes = op_batchnorm_inference_imm_size(tx8_hal_config(), &param, &in);
    TSR imm = make_tsr(s_imm, Fmt_INT8, imm_addr, {(int32_t)imm_bytes});
    TSR v[4];
    for (int k = 0; k < 4; ++k) v[k] = make_tsr(s_v, Fmt_FP32, vec_addr + k * ((lanes * 4 + 255) / 256 * 256), {bc.c});
    std::vector<uint8_t> image(lay.total_bytes);
    const size_t slice_elems = (size_t)bc.h_slice * bc.w * bc.c;
    const int slices = bc.n * (bc.h / bc.h_slice);
    spm_write(in_addr, image.data(), image.size());

    uint64_t cycles = 0, ct = 0, tdma = 0;
    double host = 0;
    for (int s = 0; s < slices; ++s) { // the image write is outside the timed region
        tx8_layout_pack(&lay, x.data() + s * slice_elems, image.data());
        spm_write(in_addr, image.data(), image.size());
        uint64_t ct0 = tx8_hal_engine_cycles(hal, 0, I_CGRA), td0 = tx8_hal_engine_cycles(hal, 0, I_TDMA);
        uint64_t c = 0;
        host += seconds_of([&] { c = op_batchnorm_inference(&param, &in, &v[0], &v[1], &v[2], &v[3], &imm, &out); }, 1);
        cycles += c;
        ct += tx8_hal_engine_cycles(hal, 0, I_CGRA) - ct0;
        tdma += tx8_hal_engine_cycles(hal, 0, I_TDMA) - td0;
    }

    // Plain C: the same maths on compact NHWC fp16 (float arithmetic, _Float16 conversions).
    std::vector<uint16_t> y(elems);
    std::vector<float> a(bc.c), b(bc.c);
    for (int i = 0; i < bc.c; ++i) a[i] = scale[i] / std::sqrt(var[i] + 1e-6f), b[i] = shift[i] - mean[i] * a[i];
    double plain = seconds_of([&] {
        for (size_t i = 0; i < elems; i += bc.c)
            for (int ch = 0; ch < bc.c; ++ch) {
                _Float16 hx;
                std::memcpy(&hx, &x[i + ch], 2);
                _Float16 hy = (_Float16)((float)hx * a[ch] + b[ch]);
                std::memcpy(&y[i + ch], &hy, 2);
            }
    }, reps);

    // oneDNN batch normalization (inference, global stats, scale + shift), NHWC, f32 and bf16.
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    auto onednn_bn = [&](dnnl::memory::data_type dt) -> double {
        using tag = dnnl::memory::format_tag;
        dnnl::memory::desc md({bc.n, bc.c, bc.h, bc.w}, dt, tag::nhwc);
        dnnl::memory::desc pd({bc.c}, dnnl::memory::data_type::f32, tag::a);
        auto flags = dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale |
                     dnnl::normalization_flags::use_shift;
        try {
            dnnl::batch_normalization_forward::desc d(dnnl::prop_kind::forward_inference, md, 1e-6f, flags);
            dnnl::batch_normalization_forward::primitive_desc p(d, eng);
            dnnl::memory src(md, eng), dst(md, eng), sc(pd, eng, scale.data()), sh(pd, eng, shift.data()),
                mu(pd, eng, mean.data()), va(pd, eng, var.data());
            std::memset(src.get_data_handle(), 0, md.get_size());
            dnnl::batch_normalization_forward prim(p);
            return seconds_of([&] {
                prim.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, sc},
                                    {DNNL_ARG_SHIFT, sh}, {DNNL_ARG_MEAN, mu}, {DNNL_ARG_VARIANCE, va}});
                strm.wait();
            }, reps);
        } catch (const dnnl::error &) {
            return -1;
        }
    };
    const double dnnl_f32 = onednn_bn(dnnl::memory::data_type::f32);
    const double dnnl_bf16 = onednn_bn(dnnl::memory::data_type::bf16);
    const double dnnl_f16 = onednn_bn(dnnl::memory::data_type::f16);

    const tx8_hw_config *cfg = tx8_hal_config();
    const double ns = host * 1e9 / elems;
    std::printf("batchnorm 8x56x56x129 fp16 NCx (%d slices of 1x%dx56x129, compute only, operands in SPM)\n", slices,
                bc.h_slice);
    std::printf("  cmodel host      %8.2f ns/element   (%.3f s)\n", ns, host);
    std::printf("  plain C          %8.2f ns/element   cmodel/plain = %.1fx\n", plain * 1e9 / elems, host / plain);
    auto show = [&](const char *name, double t) {
        if (t < 0)
            std::printf("  oneDNN %-9s  unsupported on this host\n", name);
        else
            std::printf("  oneDNN %-9s %8.2f ns/element   cmodel/oneDNN = %.1fx\n", name, t * 1e9 / elems, host / t);
    };
    show("f32", dnnl_f32);
    show("bf16", dnnl_bf16);
    show("f16", dnnl_f16);
    const double ddr_bound = 2.0 * elems * 2 / std::min(cfg->ddr_bytes_per_cycle, cfg->lsu_bytes_per_cycle);
    std::printf("  simulated        %llu cycles (CT %llu, TDMA %llu); a DDR-bound plan needs >= %.0f cycles for the\n"
                "                   %zu bytes in + out at %u B/cycle -> this op is CT-bound (%.1fx the DDR bound)\n",
                (unsigned long long)cycles, (unsigned long long)ct, (unsigned long long)tdma, ddr_bound,
                elems * 4, cfg->ddr_bytes_per_cycle, cycles / ddr_bound);
}

// ---- gemm ----

void bench_gemm(Data_Format fmt, int reps) {
    const int M = 512, N = 512, K = 512;
    const uint32_t eb = tx8_format_bytes(fmt);
    uint64_t seed = 7;
    std::vector<float> af(M * K), bf(K * N);
    for (auto &v : af) v = frand(seed, -1, 1);
    for (auto &v : bf) v = frand(seed, -1, 1);
    std::vector<uint8_t> a(M * K * eb), b(K * N * eb);
    for (int i = 0; i < M * K; ++i) cm_store_element(&a[i * eb], fmt, af[i], RND_NEAREST_EVEN);
    for (int i = 0; i < K * N; ++i) cm_store_element(&b[i * eb], fmt, bf[i], RND_NEAREST_EVEN);
    const uint64_t a_addr = 0, b_addr = a.size(), c_addr = a.size() + b.size();
    spm_write(a_addr, a.data(), a.size());
    spm_write(b_addr, b.data(), b.size());
    L_SHAPE sa, sb, sc;
    TSR ta = make_tsr(sa, fmt, a_addr, {M, K}), tb = make_tsr(sb, fmt, b_addr, {K, N}),
        tc = make_tsr(sc, Fmt_FP32, c_addr, {M, N});
    GEMM_PARAM gp{0, 0};
    uint64_t cycles = 0;
    double host = seconds_of([&] { cycles = op_gemm(&gp, &ta, &tb, nullptr, &tc); }, reps);

    // Plain C: float i-k-j loops on operands already converted to float (the conversion is not timed).
    std::vector<float> aq(M * K), bq(K * N), c(M * N);
    for (int i = 0; i < M * K; ++i) aq[i] = (float)cm_load_element(&a[i * eb], fmt);
    for (int i = 0; i < K * N; ++i) bq[i] = (float)cm_load_element(&b[i * eb], fmt);
    double plain = seconds_of([&] {
        std::fill(c.begin(), c.end(), 0.0f);
        for (int i = 0; i < M; ++i)
            for (int k = 0; k < K; ++k) {
                const float av = aq[i * K + k];
                for (int j = 0; j < N; ++j) c[i * N + j] += av * bq[k * N + j];
            }
    }, reps);

    // oneDNN matmul with the same input type and f32 output.
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    double onednn = -1;
    try {
        using tag = dnnl::memory::format_tag;
        auto dt = fmt == Fmt_BF16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f32;
        dnnl::memory::desc amd({M, K}, dt, tag::ab), bmd({K, N}, dt, tag::ab),
            cmd({M, N}, dnnl::memory::data_type::f32, tag::ab);
        dnnl::matmul::primitive_desc p(dnnl::matmul::desc(amd, bmd, cmd), eng);
        dnnl::memory am(amd, eng, a.data()), bm(bmd, eng, b.data()), cm(cmd, eng, c.data());
        dnnl::matmul prim(p);
        onednn = seconds_of([&] {
            prim.execute(strm, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
            strm.wait();
        }, reps);
    } catch (const dnnl::error &) {
    }

    const double macs = (double)M * N * K;
    const tx8_hw_config *cfg = tx8_hal_config();
    const double ne_bound = macs / cm_ne_macs_per_cycle(cfg, fmt);
    std::printf("gemm 512x512x512 %s -> fp32 (one NE tile, operands in SPM)\n", tx8_format_name(fmt));
    std::printf("  cmodel host      %8.3f ns/MAC   (%.3f s)\n", host * 1e9 / macs, host);
    std::printf("  plain C          %8.3f ns/MAC   cmodel/plain = %.1fx\n", plain * 1e9 / macs, host / plain);
    if (onednn > 0)
        std::printf("  oneDNN matmul    %8.4f ns/MAC   cmodel/oneDNN = %.1fx\n", onednn * 1e9 / macs, host / onednn);
    else
        std::printf("  oneDNN matmul    unsupported on this host\n");
    std::printf("  simulated        %llu cycles; NE-bound at %u MAC/cycle: %.0f cycles (%.3fx)\n",
                (unsigned long long)cycles, cm_ne_macs_per_cycle(cfg, fmt), ne_bound, cycles / ne_bound);
}

} // namespace

int main(int argc, char **argv) {
    int reps = 3;
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    tx8_hw_config cfg = tx8_hw_config_default();
    tx8_hal *hal = tx8_hal_open(&cfg);
    if (!hal) return 1;
    bench_batchnorm(hal, reps);
    bench_gemm(Fmt_FP32, reps);
    bench_gemm(Fmt_BF16, reps);
    tx8_hal_close(hal);
    return 0;
}

/*
 * Cycle model of the TX8 engines: the cost of one instruction, as a formula over the hardware config.
 * The cmodel returns exactly these numbers; the compiler's cost model calls the same functions.
 *
 *   CT   cycles = ct_startup_cycles + ceil(E / lanes) * passes
 *        E      = elements produced-or-consumed by the instruction (VuV_LOOP: full_src_elem_num; REDUCE:
 *                 outer_num * src_elem_num; others: src_elem_num)
 *        lanes  = ct_datapath_bits / max(element bits of src_fmt, dst_fmt)     (fp32 64, fp16/bf16 128, int8 256;
 *                 int64 32, in CONVERT and SELECT only),
 *                 so the wider stream sets the rate: a CMP of fp32 writing an int8 mask, or a SELECT of fp32 data
 *                 by an int8 mask, costs what fp32 -> fp32 does (its int8 stream moves a quarter of the bytes);
 *                 int8 -> int8 compares run at 256 lanes; an fma of fp16/bf16 data with fp32 coefficients
 *                 (src_fmt fp32) runs at the fp32 rate: its multiply-add is done at fp32 width
 *        passes = ct_transcendental_passes for the ops that evaluate a transcendental function or divide by data:
 *                 div, rsqrt, sqrt, exp, reciprocal, sigmoid, tanh, gelu, silu, log, erf, gelu_erf, softplus,
 *                 softsign, elu, celu, selu, mish, sin, cos, tan, asin, acos, atan, sinh, cosh, asinh, acosh,
 *                 atanh, pow, mod, fmod (integer formats too); else 1 (add sub mul max min, fma (one fused
 *                 multiply-add pass of the datapath, its three inputs read in that pass), abs neg relu leaky_relu
 *                 thresholded_relu shrink, hard_swish (its x/6 is a multiply by a constant), floor ceil round sign,
 *                 cmp, select, convert)
 *   CT POOL_2D cycles = ct_startup_cycles + ceil(O * kernel_h * kernel_w / lanes)
 *                       (+ ceil(O / lanes) * ct_transcendental_passes for POOL_AVG: the division)
 *        O      = outer_num * src_elem_num * out_h * out_w (outputs); every window tap costs a lane, padding too
 *   NE   cycles = ne_startup_cycles + ceil(steps * ne_step_m*ne_step_k*ne_step_n / ne_macs_per_cycle_<in_fmt>)
 *        steps  = ceil(m / ne_step_m) * ceil(k / ne_step_k) * ceil(n / ne_step_n)     (padding costs: honest)
 *   NE conv: the same formula for the im2col GEMM of each group (a conv is never cheaper than that GEMM):
 *        steps  = groups * ceil(M / ne_step_m) * ceil(K / ne_step_k) * ceil(N / ne_step_n)
 *        M = batch*out_h*out_w, K = kernel_h*kernel_w*in_c/groups, N = out_c/groups   (zero-padding taps count)
 *   RDMA/WDMA cycles = ddr_latency_cycles + ceil(B / min(lsu_bytes_per_cycle, ddr_bytes_per_cycle))
 *        B      = size[1] * size[2] * roundup(size[0], ddr_burst_bytes)             (every run costs whole bursts)
 *   TDMA cycles = tdma_startup_cycles + runs * ceil(R / tdma_bytes_per_cycle)
 *        R, runs = elem_bytes * shape[0], shape[1]*shape[2]*shape[3] when the innermost dim is contiguous in dst
 *                  and contiguous (or a broadcast element, stride 0) in src; else elem_bytes, prod(shape)
 *                  (a strided gather moves one element per cycle: honest for transposes)
 *   DTE  cycles = dte_startup_cycles + hops * noc_hop_cycles (+ ddr_latency_cycles from DDR) + ceil(B / rate)
 *        hops   = the largest XY hop count from the issuing tile to a tile of the destination rectangle
 *                 (tx8/cm_noc.h; 0 when the issuing tile is the only destination)
 *        B      = size[1] * size[2] * size[0]; from DDR size[1] * size[2] * roundup(size[0], ddr_burst_bytes)
 *        rate   = noc_link_bytes_per_cycle; from DDR min(noc_link_bytes_per_cycle, ddr_bytes_per_cycle)
 *        A multicast costs what its farthest unicast does: the tree's links each carry the data once, in a
 *        pipeline (cut-through); the fixed part (startup + hops) comes before the first byte arrives.
 *
 * These are an instruction's cycles alone. When it runs is the scheduler's business (cmodel/README.md, "Time"):
 * engines run concurrently, each in issue order, and the bytes of DMA and DTE transfers in flight share DDR, the
 * tiles' ports and the NoC links, so a transfer is never faster than its formula here and slower under contention.
 */
#ifndef TX8_CM_CYCLES_H
#define TX8_CM_CYCLES_H

#include <stdint.h>

#include "tx8/hw_config.h"
#include "tx8/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

uint64_t cm_cycles_ct(const tx8_hw_config *cfg, const CT_Param *p);
uint64_t cm_cycles_ne(const tx8_hw_config *cfg, const TsmNeInstr *p); /* either opcode */
uint64_t cm_cycles_ne_conv(const tx8_hw_config *cfg, const TsmNeInstr *p);
uint64_t cm_cycles_dma(const tx8_hw_config *cfg, const DMA_Param *p);
/* B of the RDMA/WDMA formula: the bytes a DMA moves through DDR, every run rounded up to whole bursts. */
uint64_t cm_dma_bytes(const tx8_hw_config *cfg, const DMA_Param *p);
uint64_t cm_cycles_tdma(const tx8_hw_config *cfg, const TD_Param *p);
/* DTE issued by `tile` (fields as validated by the cmodel). The DTE formula in two parts, as the scheduler takes
 * them: the fixed cycles before the first byte flows (startup + hops (+ DDR latency)), and B, the bytes that flow
 * over each NoC link of the route (DDR bursts rounded up). cm_cycles_dte = fixed + ceil(B / rate). */
uint64_t cm_cycles_dte(const tx8_hw_config *cfg, uint32_t tile, const DTE_Param *p);
uint64_t cm_dte_fixed_cycles(const tx8_hw_config *cfg, uint32_t tile, const DTE_Param *p);
uint64_t cm_dte_bytes(const tx8_hw_config *cfg, const DTE_Param *p);

/* NE multiply-accumulates per cycle for an input format (0 for a format the NE does not take). */
uint32_t cm_ne_macs_per_cycle(const tx8_hw_config *cfg, Data_Format in_fmt);

#ifdef __cplusplus
}
#endif

#endif /* TX8_CM_CYCLES_H */

/* Cycle formulas of the engines; documented in tx8/cm_cycles.h. */
#include "tx8/cm_cycles.h"
#include "tx8/cm_noc.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint32_t element_bits(uint32_t fmt) { return fmt < Fmt_COUNT ? tx8_format_bytes((Data_Format)fmt) * 8u : 32u; }

/* The CT ops that evaluate a transcendental function or divide by data (the list in tx8/cm_cycles.h). */
static int is_multi_pass(uint32_t op) {
    switch (op) {
    case CT_OP_DIV: case CT_OP_RSQRT: case CT_OP_SQRT: case CT_OP_EXP: case CT_OP_RECIPROCAL:
    case CT_OP_SIGMOID: case CT_OP_TANH: case CT_OP_GELU: case CT_OP_SILU:
    case CT_OP_LOG: case CT_OP_ERF: case CT_OP_GELU_ERF: case CT_OP_SOFTPLUS: case CT_OP_SOFTSIGN:
    case CT_OP_ELU: case CT_OP_CELU: case CT_OP_SELU: case CT_OP_MISH:
    case CT_OP_SIN: case CT_OP_COS: case CT_OP_TAN: case CT_OP_ASIN: case CT_OP_ACOS: case CT_OP_ATAN:
    case CT_OP_SINH: case CT_OP_COSH: case CT_OP_ASINH: case CT_OP_ACOSH: case CT_OP_ATANH:
    case CT_OP_POW: case CT_OP_MOD: case CT_OP_FMOD: return 1;
    default: return 0;
    }
}

uint64_t cm_cycles_ct(const tx8_hw_config *cfg, const CT_Param *p) {
    uint64_t elems;
    switch (p->ctrl.format) {
    case CT_FMT_V_VuV_LOOP: elems = p->param.full_src_elem_num; break;
    case CT_FMT_REDUCE_INNER:
    case CT_FMT_REDUCE_OUTER: elems = (uint64_t)p->param.outer_num * p->param.src_elem_num; break;
    default: elems = p->param.src_elem_num; break;
    }
    uint32_t bits = element_bits(p->ctrl.src_fmt);
    if (element_bits(p->ctrl.dst_fmt) > bits) bits = element_bits(p->ctrl.dst_fmt);
    const uint64_t lanes = cfg->ct_datapath_bits / bits;
    if (p->ctrl.format == CT_FMT_POOL_2D) { /* every tap of every window, padding taps included; AVG divides */
        const Ncc_CT_GR_Pool_Regs *g = &p->param.pool;
        const uint64_t outputs = (uint64_t)p->param.outer_num * p->param.src_elem_num * g->out_h * g->out_w;
        const uint64_t taps = (uint64_t)g->kernel_h * g->kernel_w;
        const uint64_t divide =
            p->ctrl.opcode == CT_OP_POOL_AVG ? ceil_div(outputs, lanes) * cfg->ct_transcendental_passes : 0;
        return cfg->ct_startup_cycles + ceil_div(outputs * taps, lanes) + divide;
    }
    const uint64_t passes = is_multi_pass(p->ctrl.opcode) ? cfg->ct_transcendental_passes : 1;
    return cfg->ct_startup_cycles + ceil_div(elems, lanes) * passes;
}

uint32_t cm_ne_macs_per_cycle(const tx8_hw_config *cfg, Data_Format in_fmt) {
    switch (in_fmt) {
    case Fmt_FP32: return cfg->ne_macs_per_cycle_fp32;
    case Fmt_TF32: return cfg->ne_macs_per_cycle_tf32;
    case Fmt_BF16: return cfg->ne_macs_per_cycle_bf16;
    case Fmt_FP16: return cfg->ne_macs_per_cycle_fp16;
    case Fmt_INT8: return cfg->ne_macs_per_cycle_int8;
    default: return 0;
    }
}

uint64_t cm_cycles_ne_conv(const tx8_hw_config *cfg, const TsmNeInstr *p) {
    const Ncc_NE_GR_Conv_Regs *g = &p->conv;
    const uint64_t groups = g->groups ? g->groups : 1; /* invalid instructions are rejected before execution */
    const uint64_t m = (uint64_t)g->batch * g->out_h * g->out_w;
    const uint64_t k = (uint64_t)g->kernel_h * g->kernel_w * (g->in_c / groups);
    const uint64_t steps = groups * ceil_div(m, cfg->ne_step_m) * ceil_div(k, cfg->ne_step_k) *
                           ceil_div(g->out_c / groups, cfg->ne_step_n);
    uint32_t rate = cm_ne_macs_per_cycle(cfg, (Data_Format)p->ctrl.in_fmt);
    if (rate == 0) rate = 1;
    return cfg->ne_startup_cycles + ceil_div(steps * tx8_hw_ne_macs_per_step(cfg), rate);
}

uint64_t cm_cycles_ne(const tx8_hw_config *cfg, const TsmNeInstr *p) {
    if (p->ctrl.opcode == NE_OP_CONV) return cm_cycles_ne_conv(cfg, p);
    const uint64_t steps = ceil_div(p->param.m, cfg->ne_step_m) * ceil_div(p->param.k, cfg->ne_step_k) *
                           ceil_div(p->param.n, cfg->ne_step_n);
    uint32_t rate = cm_ne_macs_per_cycle(cfg, (Data_Format)p->ctrl.in_fmt);
    if (rate == 0) rate = 1; /* invalid formats are rejected before execution; keep the formula total */
    return cfg->ne_startup_cycles + ceil_div(steps * tx8_hw_ne_macs_per_step(cfg), rate);
}

uint64_t cm_dma_bytes(const tx8_hw_config *cfg, const DMA_Param *p) {
    const uint64_t runs = (uint64_t)p->param.size[1] * p->param.size[2];
    return runs * ceil_div(p->param.size[0], cfg->ddr_burst_bytes) * cfg->ddr_burst_bytes;
}

uint64_t cm_cycles_dma(const tx8_hw_config *cfg, const DMA_Param *p) {
    const uint64_t bytes = cm_dma_bytes(cfg, p);
    const uint32_t rate = cfg->lsu_bytes_per_cycle < cfg->ddr_bytes_per_cycle ? cfg->lsu_bytes_per_cycle
                                                                              : cfg->ddr_bytes_per_cycle;
    return cfg->ddr_latency_cycles + ceil_div(bytes, rate);
}

uint64_t cm_cycles_tdma(const tx8_hw_config *cfg, const TD_Param *p) {
    /* A run is the innermost dim when it is contiguous in dst and contiguous (or one broadcast element) in src;
     * otherwise every element is its own run. Each run takes whole cycles: a strided gather moves one element
     * per cycle, not tdma_bytes_per_cycle. */
    const uint32_t eb = p->ctrl.elem_bytes;
    const int contiguous = p->param.dst_stride[0] == eb && (p->param.src_stride[0] == eb || p->param.src_stride[0] == 0);
    const uint64_t run_bytes = contiguous ? (uint64_t)eb * p->param.shape[0] : eb;
    uint64_t runs = contiguous ? 1 : p->param.shape[0];
    for (int i = 1; i < 4; ++i) runs *= p->param.shape[i];
    return cfg->tdma_startup_cycles + runs * ceil_div(run_bytes, cfg->tdma_bytes_per_cycle);
}

uint64_t cm_dte_bytes(const tx8_hw_config *cfg, const DTE_Param *p) {
    const uint64_t runs = (uint64_t)p->param.size[1] * p->param.size[2];
    const uint64_t run = p->ctrl.src_mem == DTE_SRC_DDR
                             ? ceil_div(p->param.size[0], cfg->ddr_burst_bytes) * cfg->ddr_burst_bytes
                             : p->param.size[0];
    return runs * run;
}

uint64_t cm_dte_fixed_cycles(const tx8_hw_config *cfg, uint32_t tile, const DTE_Param *p) {
    const Ncc_DTE_GR_Param_Regs *q = &p->param;
    const uint64_t hops = cm_noc_rect_max_hops(cfg, tile, q->dst_x0, q->dst_y0, q->dst_x1, q->dst_y1);
    return cfg->dte_startup_cycles + hops * cfg->noc_hop_cycles +
           (p->ctrl.src_mem == DTE_SRC_DDR ? cfg->ddr_latency_cycles : 0);
}

uint64_t cm_cycles_dte(const tx8_hw_config *cfg, uint32_t tile, const DTE_Param *p) {
    uint32_t rate = cfg->noc_link_bytes_per_cycle;
    if (p->ctrl.src_mem == DTE_SRC_DDR && cfg->ddr_bytes_per_cycle < rate) rate = cfg->ddr_bytes_per_cycle;
    return cm_dte_fixed_cycles(cfg, tile, p) + ceil_div(cm_dte_bytes(cfg, p), rate);
}

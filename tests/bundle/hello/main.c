/*
 * A hand-written firmware bundle: the smallest program that uses what a generated main.c uses. It opens the HAL,
 * puts a constant into DDR (tx8_hal_mem_write) and an input file into DDR (tx8_hal_file_to_ddr: in.bin, 4 fp32
 * from the current directory; under QEMU the directory QEMU runs in), computes out = relu(in + bias) on tile 0
 * (op_loadVar -> op_add -> op_relu -> op_dma_store), writes out.bin and prints the simulated cycles.
 * tests/bundle builds it as a standalone bundle against the cmodel and the riscv SDK; both must write the same
 * out.bin and print the same cycles.
 */
#include <stdint.h>

#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"

enum { N = 4, BYTES = N * 4 };
enum { DDR_IN = 0, DDR_BIAS = 4096, DDR_OUT = 8192 };  /* DDR byte addresses */
enum { SPM_IN = 0, SPM_BIAS = 1024, SPM_OUT = 2048 };  /* SPM byte addresses of tile 0 */

static void tsr(TSR *t, L_SHAPE *s, uint64_t addr) {
    const int32_t shape[2] = {1, N};
    tx8_lshape_init(s, shape, 2);
    t->format = Fmt_FP32, t->addr = addr, t->shape = s;
}

int main(void) {
    tx8_hw_config cfg = tx8_hw_config_default();
    tx8_hal *hal = tx8_hal_open(&cfg);
    if (!hal) return 1;

    static const float bias[N] = {-0.5f, 1.0f, 0.5f, 10.0f};
    if (tx8_hal_mem_write(TX8_MEM_DDR, DDR_BIAS, bias, BYTES) != 0) return 1;
    if (tx8_hal_file_to_ddr("in.bin", DDR_IN, BYTES) != BYTES) {
        tx8_hal_printf("hello: in.bin must hold %d bytes (%d fp32)\n", BYTES, N);
        return 1;
    }

    L_SHAPE s_in_d, s_bias_d, s_out_d, s_in, s_bias, s_out;
    TSR in_d, bias_d, out_d, in, b, out;
    tsr(&in_d, &s_in_d, DDR_IN), tsr(&bias_d, &s_bias_d, DDR_BIAS), tsr(&out_d, &s_out_d, DDR_OUT);
    tsr(&in, &s_in, SPM_IN), tsr(&b, &s_bias, SPM_BIAS), tsr(&out, &s_out, SPM_OUT);
    LOAD_PARAM ld = {LAYOUT_TENSOR};
    STORE_PARAM st = {LAYOUT_TENSOR};
    ELTWISE_PARAM el = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    const uint64_t steps[5] = {op_loadVar(&ld, &in_d, &in), op_loadVar(&ld, &bias_d, &b), op_add(&el, &in, &b, &out),
                               op_relu(&el, &out, &out), op_dma_store(&st, &out, &out_d)};
    for (int k = 0; k < 5; ++k)
        if (steps[k] == TX8_CYCLES_INVALID) return 1;

    if (tx8_hal_ddr_to_file("out.bin", DDR_OUT, BYTES) != 0) return 1;
    tx8_hal_printf("tx8: cycles %llu\n", (unsigned long long)tx8_hal_cycles());
    tx8_hal_close(hal);
    return 0;
}

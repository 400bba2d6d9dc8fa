/*
 * Firmware that goes wrong on purpose, one way per image (FAILURE selects it at build time): each must end the
 * run within seconds with a clear message and a non-zero exit code, never hang. Checked by tests/qemu.
 *   missing_file   an input file that does not exist             -> exit 1, "cannot open input file"
 *   spm_overrun    an op reading outside SPM                     -> exit 3 (TX8_EXIT_FAULT), "tx8 fault: ... outside SPM"
 *   trap_in_op     a CPU exception inside an op (bad TSR shape)  -> exit 4 (TX8_EXIT_TRAP), "tx8 trap: hart 0: load access fault"
 *   trap_on_hart   the same on tile 5 of a 16-tile run           -> exit 4, "tx8 trap: hart 5"
 *   hang           never finishes                                -> the runner's timeout: exit 124
 * Images linked for more harts than QEMU starts are checked with the ordinary test images (exit 5).
 */
#include <stdio.h>

#include "tx8/hal_riscv.h"
#include "tx8/ops.h"
#include "tx8/riscv.h"

#define FAILURE_missing_file 1
#define FAILURE_spm_overrun 2
#define FAILURE_trap_in_op 3
#define FAILURE_trap_on_hart 4
#define FAILURE_hang 5
#define CAT(a, b) a##b
#define SELECTED(f) CAT(FAILURE_, f)

/* A TSR whose shape pointer points at unmapped memory (above the 512 MiB of RAM): the op's first look at the
 * shape is a load access fault. */
static void relu_with_bad_shape(void *arg) {
    (void)arg;
    if (tx8_hal_tile_id() != (SELECTED(FAILURE) == FAILURE_trap_on_hart ? 5u : 0u)) {
        tx8_hal_barrier();
        return;
    }
    ELTWISE_PARAM p = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    TSR in = {Fmt_FP32, 0, (L_SHAPE *)0xC0000000ul}, out = in;
    op_relu(&p, &in, &out);
    tx8_hal_barrier();
}

int main(void) {
    tx8_hw_config cfg = tx8_hw_config_default();
    if (!tx8_hal_open(&cfg)) return 1;
    switch (SELECTED(FAILURE)) {
    case FAILURE_missing_file:
        return tx8_hal_file_to_ddr("no-such-dir/input_0.bin", 0, 4096) < 0 ? 1 : 0;
    case FAILURE_spm_overrun: {
        const int32_t shape[2] = {1, 1024};
        L_SHAPE s;
        tx8_lshape_init(&s, shape, 2);
        TSR in = {Fmt_FP32, cfg.spm_bytes - 1024, &s}, out = {Fmt_FP32, 0, &s};
        ELTWISE_PARAM p = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
        op_relu(&p, &in, &out);
        return 0; /* not reached: the default fault handler stops the machine */
    }
    case FAILURE_trap_in_op:
        relu_with_bad_shape(NULL);
        return 0;
    case FAILURE_trap_on_hart:
        tx8_hal_run_tiles(16, relu_with_bad_shape, NULL);
        return 0;
    case FAILURE_hang:
        for (;;) __asm__ volatile("wfi");
    }
    return 0;
}

/*
 * Bare-metal services of TX8 kernel-core firmware on RISC-V (QEMU `virt`): one hart is one tile's kernel core.
 *
 * Start-up (src/start.S, src/boot.c): every hart enters _start; hart 0 alone clears .bss, sets up libc and runs
 * main(); the other harts wait in wfi until hart 0 hands them work with tx8_riscv_run_on_harts(). Waiting is
 * always wfi + CLINT software interrupts, never spinning. Before main() hart 0 checks that every hart the firmware
 * was linked for has started, and stops with TX8_EXIT_BOOT and a message if not.
 *
 * Console: stdio (printf) goes through semihosting and belongs to hart 0; tx8_riscv_uart_* write the NS16550 UART
 * directly and are safe from any hart and from the trap handler.
 */
#ifndef TX8_RISCV_H
#define TX8_RISCV_H

#include <stdarg.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of the firmware beyond main()'s own (TX8_EXIT_FAULT = 3 is the HAL's, see tx8/hal.h). */
#define TX8_EXIT_TRAP 4 /* a CPU exception (illegal instruction, access fault, ...): see the UART message */
#define TX8_EXIT_BOOT 5 /* fewer harts started than the firmware was linked for */

/* Harts a firmware can be linked for (one per tile of a 4x4 chip). */
#define TX8_RISCV_MAX_HARTS 16

uint32_t tx8_riscv_hart_id(void);
/* Harts this firmware was linked for (__tx8_harts); all of them are running once main() starts. */
uint32_t tx8_riscv_harts(void);

/* Runs fn(arg) on harts 0..n-1 at once, the caller (hart 0) included, and returns when all have returned.
 * Only hart 0 may call it, and not from inside fn. n must be 1..tx8_riscv_harts(). */
void tx8_riscv_run_on_harts(uint32_t n, void (*fn)(void *arg), void *arg);
/* All harts 0..n-1 wait here until each has arrived. */
void tx8_riscv_hart_barrier(uint32_t n);

/* Machine cycle counter. Under QEMU it follows host time, unless QEMU runs with -icount shift=0: then it is
 * the exact count of guest instructions retired, identical run to run. */
static inline uint64_t tx8_riscv_mcycle(void) {
    uint64_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

/* Raw UART output, any hart (serialised by a lock). Supports %s %c %d %u %x %lx %llx %lu %llu %p and widths. */
void tx8_riscv_uart_puts(const char *s);
void tx8_riscv_uart_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Stops the whole machine at once: QEMU exits with `code` (through the sifive_test finisher, no semihosting). */
void tx8_riscv_finish(int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* Lock for short critical sections shared by harts (amoswap; waits are a few instructions long). */
typedef struct tx8_riscv_lock {
    volatile uint32_t word;
} tx8_riscv_lock;
void tx8_riscv_lock_acquire(tx8_riscv_lock *l);
void tx8_riscv_lock_release(tx8_riscv_lock *l);

#ifdef __cplusplus
}
#endif

#endif /* TX8_RISCV_H */

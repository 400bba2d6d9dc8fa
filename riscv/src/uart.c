/* Raw UART console and the machine finisher: usable from any hart, before libc is up and from the trap handler. */
#include <stdio.h>

#include "tx8/riscv.h"
#include "virt.h"

static tx8_riscv_lock uart_lock;

static void uart_putc(char c) {
    volatile uint8_t *uart = (volatile uint8_t *)VIRT_UART0;
    while (!(uart[5] & 0x20)) {
    }
    uart[0] = (uint8_t)c;
}

void virt_uart_write_unlocked(const char *s) {
    for (; *s; ++s) {
        if (*s == '\n') uart_putc('\r');
        uart_putc(*s);
    }
}

void tx8_riscv_uart_puts(const char *s) {
    tx8_riscv_lock_acquire(&uart_lock);
    virt_uart_write_unlocked(s);
    tx8_riscv_lock_release(&uart_lock);
}

/* vsnprintf into a stack buffer: picolibc's string formatting is reentrant (no locks, no heap). */
void tx8_riscv_uart_printf(const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tx8_riscv_uart_puts(buf);
}

void tx8_riscv_finish(int code) {
    volatile uint32_t *finisher = (volatile uint32_t *)VIRT_TEST_FINISHER;
    *finisher = code == 0 ? 0x5555u : ((uint32_t)(code & 0xFFFF) << 16) | 0x3333u;
    for (;;) cpu_wfi(); /* QEMU has exited */
}

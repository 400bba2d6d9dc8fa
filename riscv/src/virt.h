/* Devices of QEMU's `virt` machine used by the firmware (addresses from QEMU's hw/riscv/virt.c memory map). */
#ifndef TX8_RISCV_VIRT_H
#define TX8_RISCV_VIRT_H

#include <stdint.h>

#define VIRT_TEST_FINISHER 0x100000ul   /* sifive_test: 0x5555 = pass, (code << 16) | 0x3333 = fail with code */
#define VIRT_CLINT 0x2000000ul          /* msip[hart] at +4*hart, mtimecmp[hart] at +0x4000+8*hart */
#define VIRT_CLINT_MTIME (VIRT_CLINT + 0xBFF8ul)
#define VIRT_MTIME_HZ 10000000ull       /* the CLINT timer runs at 10 MHz */
#define VIRT_UART0 0x10000000ul         /* NS16550A: THR at +0, LSR at +5 (bit 5: transmitter empty) */

#define MIP_MSIP (1ul << 3)
#define MIP_MTIP (1ul << 7)

static inline void virt_msip_set(uint32_t hart) { *(volatile uint32_t *)(VIRT_CLINT + 4ul * hart) = 1; }
static inline void virt_msip_clear(uint32_t hart) { *(volatile uint32_t *)(VIRT_CLINT + 4ul * hart) = 0; }
static inline uint64_t virt_mtime(void) { return *(volatile uint64_t *)VIRT_CLINT_MTIME; }
static inline void virt_mtimecmp_set(uint32_t hart, uint64_t t) {
    *(volatile uint64_t *)(VIRT_CLINT + 0x4000ul + 8ul * hart) = t;
}

static inline uint32_t csr_mhartid(void) {
    uint64_t h;
    __asm__ volatile("csrr %0, mhartid" : "=r"(h));
    return (uint32_t)h;
}
static inline void csr_mie_set(uint64_t bits) { __asm__ volatile("csrs mie, %0" ::"r"(bits)); }
static inline void csr_mie_clear(uint64_t bits) { __asm__ volatile("csrc mie, %0" ::"r"(bits)); }
static inline void cpu_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }

/* UART output without the console lock: for the trap handler, which must never wait (the trapping code may
 * hold the lock). */
void virt_uart_write_unlocked(const char *s);

#endif /* TX8_RISCV_VIRT_H */

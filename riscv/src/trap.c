/*
 * CPU exceptions: firmware never resumes after one. The handler runs on the hart's own trap stack (start.S),
 * prints one line on the UART without taking any lock, and stops the machine with TX8_EXIT_TRAP, so a trap
 * inside an op ends the run at once with the place it happened instead of hanging.
 */
#include <stdio.h>

#include "tx8/riscv.h"
#include "virt.h"

extern char __tx8_stacks_start[], __tx8_stacks_end[];
extern const uint64_t __tx8_stack_size_word;

static const char *cause_name(uint64_t mcause) {
    if (mcause >> 63) return "interrupt";
    switch (mcause) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store address misaligned";
    case 7: return "store access fault";
    case 8: case 9: case 11: return "environment call";
    case 12: return "instruction page fault";
    case 13: return "load page fault";
    case 15: return "store page fault";
    default: return "unknown cause";
    }
}

void tx8_riscv_trap(uint64_t mcause, uint64_t mepc, uint64_t mtval, uint64_t hart, uint64_t sp)
    __attribute__((noreturn));
void tx8_riscv_trap(uint64_t mcause, uint64_t mepc, uint64_t mtval, uint64_t hart, uint64_t sp) {
    /* The hart's stack is [top - size, top); an sp below it means the stack ran into the next hart's. */
    const uint64_t top = (uint64_t)__tx8_stacks_end - hart * __tx8_stack_size_word;
    const int overflow = sp < top - __tx8_stack_size_word && sp >= (uint64_t)__tx8_stacks_start - 4096;
    char line[256];
    snprintf(line, sizeof line,
             "\ntx8 trap: hart %llu: %s (mcause %llu) at mepc 0x%llx, mtval 0x%llx, sp 0x%llx%s\n",
             (unsigned long long)hart, cause_name(mcause), (unsigned long long)mcause, (unsigned long long)mepc,
             (unsigned long long)mtval, (unsigned long long)sp, overflow ? " (stack overflow)" : "");
    virt_uart_write_unlocked(line);
    tx8_riscv_finish(TX8_EXIT_TRAP);
}

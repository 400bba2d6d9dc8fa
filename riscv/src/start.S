/*
 * Entry of every hart (QEMU virt with -bios none starts all harts here with a0 = mhartid).
 * Sets up the hart's stack, trap stack (mscratch), trap vector and FPU, then enters C (boot.c). Harts beyond
 * the count the firmware was linked for park in wfi with interrupts disabled, forever.
 */
    .section .text.init.enter, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    csrr    a0, mhartid
    csrw    mie, zero
    la      t0, tx8_trap_entry
    csrw    mtvec, t0
    li      t0, 0x2000              /* mstatus.FS = Initial: the FPU is on */
    csrs    mstatus, t0
    csrw    fcsr, zero

    la      t0, __tx8_harts_word
    ld      t1, 0(t0)
    bgeu    a0, t1, .Lpark

    /* sp = __tx8_stacks_end - hart * stack_size; mscratch = this hart's trap stack top */
    la      t0, __tx8_stack_size_word
    ld      t2, 0(t0)
    mul     t3, a0, t2
    la      sp, __tx8_stacks_end
    sub     sp, sp, t3
    la      t0, __tx8_trap_stacks_end
    slli    t3, a0, 12              /* 4 KiB trap stack per hart (tx8.ld __tx8_trap_stack_size) */
    sub     t0, t0, t3
    csrw    mscratch, t0
    mv      fp, zero
    call    tx8_riscv_boot          /* never returns */
.Lpark:
    wfi
    j       .Lpark
    .size _start, . - _start

/*
 * Trap vector (direct mode, so 4-byte aligned). Firmware never returns from a trap: switch to the hart's trap
 * stack (the faulting sp may be the cause) and report.
 */
    .text
    .balign 4
    .globl tx8_trap_entry
    .type tx8_trap_entry, @function
tx8_trap_entry:
    csrrw   sp, mscratch, sp        /* sp = trap stack, mscratch = the faulting sp */
    csrr    a4, mscratch
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    csrr    a3, mhartid
    call    tx8_riscv_trap          /* never returns */
1:  wfi
    j       1b
    .size tx8_trap_entry, . - tx8_trap_entry

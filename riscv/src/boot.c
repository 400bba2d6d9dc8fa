/*
 * Multi-hart start-up and the hart pool.
 *
 * Hart 0 clears .bss, sets up its TLS and libc, releases the other harts, checks that all of them came up and
 * runs main(). The other harts set up their own TLS, report in, then serve tx8_riscv_run_on_harts() requests
 * until the machine stops. Every wait is `wfi` with only the machine software interrupt enabled (mie.MSIE,
 * mstatus.MIE stays 0, so no handler runs: wfi just returns), and every wake-up is a CLINT msip write. A waiter
 * clears its msip after waking and re-checks its condition, so a wake-up that arrives early is never lost.
 */
#include <picolibc.h> /* defines PICOLIBC_TLS, which picotls.h needs */
#include <picotls.h>
#include <stdlib.h>
#include <string.h>

#include "tx8/riscv.h"
#include "virt.h"

extern char __tx8_bss_start[], __tx8_bss_end[], __tx8_tls_blocks[];
extern const uint64_t __tx8_harts_word, __tx8_tls_stride_word;
extern void __libc_init_array(void);
extern int main(void);

/* Hart 0 clears .bss while the others may already run, so the release flag lives in .data (loaded by QEMU). */
static volatile uint32_t boot_released __attribute__((section(".data.tx8_boot"))) = 0;

static volatile uint32_t harts_up;       /* bit h: hart h has started and waits for work */
static struct {
    void (*fn)(void *);
    void *arg;
    uint32_t n;
} job;
static volatile uint32_t job_generation; /* bumped by hart 0 for each job */
static volatile uint32_t job_finished;   /* harts 1..n-1 that have finished the current job */
static volatile uint32_t barrier_arrived, barrier_generation;

uint32_t tx8_riscv_hart_id(void) { return csr_mhartid(); }
uint32_t tx8_riscv_harts(void) { return (uint32_t)__tx8_harts_word; }

static void wake(uint32_t hart) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    virt_msip_set(hart);
}

/* Sleeps until *word != value. */
static void wait_while_equal(volatile uint32_t *word, uint32_t value) {
    const uint32_t me = csr_mhartid();
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == value) {
        cpu_wfi();
        virt_msip_clear(me);
    }
}

static void init_tls(uint32_t hart) {
    void *block = __tx8_tls_blocks + (uint64_t)hart * __tx8_tls_stride_word;
    _init_tls(block);
    _set_tls(block);
}

/* Waits (wfi, timer as the deadline) until every linked hart has reported in; false on timeout. */
static int census(uint32_t harts) {
    const uint32_t all = (uint32_t)((1ull << harts) - 1) & ~1u;
    const uint64_t deadline = virt_mtime() + 2 * VIRT_MTIME_HZ;
    virt_mtimecmp_set(0, deadline);
    csr_mie_set(MIP_MTIP);
    while ((__atomic_load_n(&harts_up, __ATOMIC_ACQUIRE) & all) != all && virt_mtime() < deadline) {
        cpu_wfi();
        virt_msip_clear(0);
    }
    csr_mie_clear(MIP_MTIP);
    virt_mtimecmp_set(0, UINT64_MAX);
    return (harts_up & all) == all;
}

static void primary(void) {
    memset(__tx8_bss_start, 0, (size_t)(__tx8_bss_end - __tx8_bss_start));
    init_tls(0);
    __libc_init_array();
    const uint32_t harts = tx8_riscv_harts();
    csr_mie_set(MIP_MSIP);
    __atomic_store_n(&boot_released, 1u, __ATOMIC_RELEASE);
    for (uint32_t h = 1; h < harts; ++h) wake(h);
    if (harts > 1 && !census(harts)) {
        uint32_t up = 1;
        for (uint32_t h = 1; h < harts; ++h) up += (harts_up >> h) & 1u;
        tx8_riscv_uart_printf("tx8 boot: this firmware is linked for %u harts but only %u started within 2 s; "
                              "run QEMU with -smp %u (tx8-qemu-run --harts %u)\n",
                              harts, up, harts, harts);
        tx8_riscv_finish(TX8_EXIT_BOOT);
    }
    exit(main());
}

static void secondary(uint32_t hart) {
    csr_mie_set(MIP_MSIP);
    wait_while_equal(&boot_released, 0u);
    init_tls(hart);
    uint32_t seen = __atomic_load_n(&job_generation, __ATOMIC_ACQUIRE);
    __atomic_fetch_or(&harts_up, 1u << hart, __ATOMIC_RELEASE);
    wake(0);
    for (;;) {
        wait_while_equal(&job_generation, seen);
        seen = __atomic_load_n(&job_generation, __ATOMIC_ACQUIRE);
        if (hart >= job.n) continue;
        job.fn(job.arg);
        if (__atomic_add_fetch(&job_finished, 1u, __ATOMIC_ACQ_REL) == job.n - 1) wake(0);
    }
}

void tx8_riscv_boot(uint64_t hart) __attribute__((noreturn));
void tx8_riscv_boot(uint64_t hart) {
    if (hart == 0) primary();
    else secondary((uint32_t)hart);
    tx8_riscv_finish(0); /* not reached: exit() stops QEMU */
}

void tx8_riscv_run_on_harts(uint32_t n, void (*fn)(void *), void *arg) {
    if (csr_mhartid() != 0 || n == 0 || n > tx8_riscv_harts()) {
        tx8_riscv_uart_printf("tx8 riscv: run_on_harts(%u) from hart %u: needs hart 0 and 1..%u harts\n", n,
                              csr_mhartid(), tx8_riscv_harts());
        tx8_riscv_finish(TX8_EXIT_BOOT);
    }
    if (n == 1) {
        fn(arg);
        return;
    }
    job.fn = fn, job.arg = arg, job.n = n;
    __atomic_store_n(&job_finished, 0u, __ATOMIC_RELAXED);
    __atomic_add_fetch(&job_generation, 1u, __ATOMIC_RELEASE);
    for (uint32_t h = 1; h < n; ++h) wake(h);
    fn(arg);
    while (__atomic_load_n(&job_finished, __ATOMIC_ACQUIRE) != n - 1) {
        cpu_wfi();
        virt_msip_clear(0);
    }
}

/* Sense by generation: the last to arrive resets the count, bumps the generation and wakes the others. */
void tx8_riscv_hart_barrier(uint32_t n) {
    if (n <= 1) return;
    const uint32_t me = csr_mhartid();
    const uint32_t gen = __atomic_load_n(&barrier_generation, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&barrier_arrived, 1u, __ATOMIC_ACQ_REL) == n) {
        __atomic_store_n(&barrier_arrived, 0u, __ATOMIC_RELAXED);
        __atomic_store_n(&barrier_generation, gen + 1, __ATOMIC_RELEASE);
        for (uint32_t h = 0; h < n; ++h)
            if (h != me) wake(h);
    } else {
        wait_while_equal(&barrier_generation, gen);
    }
}

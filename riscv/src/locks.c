/*
 * Locks: tx8_riscv_lock for the firmware's own short critical sections, and picolibc's retargetable locking
 * (malloc, stdio, atexit) made real so that libc calls from several harts do not corrupt its state.
 * Critical sections are a few hundred instructions at most, so contenders retry instead of sleeping.
 */
#include <sys/lock.h>

#include "tx8/riscv.h"
#include "virt.h"

void tx8_riscv_lock_acquire(tx8_riscv_lock *l) {
    while (__atomic_exchange_n(&l->word, 1u, __ATOMIC_ACQUIRE) != 0u) {
        while (__atomic_load_n(&l->word, __ATOMIC_RELAXED) != 0u) {
        }
    }
}

void tx8_riscv_lock_release(tx8_riscv_lock *l) { __atomic_store_n(&l->word, 0u, __ATOMIC_RELEASE); }

/* ---- picolibc's _RETARGETABLE_LOCKING hooks ---- */
struct __lock {
    tx8_riscv_lock lock;
    volatile uint32_t owner; /* hart + 1 while held, 0 when free */
    uint32_t depth;
};

struct __lock __lock___libc_recursive_mutex;

/* Static locks only: libc's dynamic lock creation is not used by the parts we link (malloc, stdio). */
void __retarget_lock_init(_LOCK_T *lock) { *lock = &__lock___libc_recursive_mutex; }
void __retarget_lock_init_recursive(_LOCK_T *lock) { *lock = &__lock___libc_recursive_mutex; }
void __retarget_lock_close(_LOCK_T lock) { (void)lock; }
void __retarget_lock_close_recursive(_LOCK_T lock) { (void)lock; }

void __retarget_lock_acquire_recursive(_LOCK_T lock) {
    const uint32_t me = csr_mhartid() + 1;
    if (lock->owner == me) {
        lock->depth++;
        return;
    }
    tx8_riscv_lock_acquire(&lock->lock);
    lock->owner = me;
    lock->depth = 1;
}

int __retarget_lock_try_acquire_recursive(_LOCK_T lock) {
    const uint32_t me = csr_mhartid() + 1;
    if (lock->owner == me) {
        lock->depth++;
        return 1;
    }
    if (__atomic_exchange_n(&lock->lock.word, 1u, __ATOMIC_ACQUIRE) != 0u) return 0;
    lock->owner = me;
    lock->depth = 1;
    return 1;
}

void __retarget_lock_release_recursive(_LOCK_T lock) {
    if (--lock->depth == 0) {
        lock->owner = 0;
        tx8_riscv_lock_release(&lock->lock);
    }
}

void __retarget_lock_acquire(_LOCK_T lock) { __retarget_lock_acquire_recursive(lock); }
int __retarget_lock_try_acquire(_LOCK_T lock) { return __retarget_lock_try_acquire_recursive(lock); }
void __retarget_lock_release(_LOCK_T lock) { __retarget_lock_release_recursive(lock); }

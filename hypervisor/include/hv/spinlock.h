/* SPDX-License-Identifier: GPL-2.0 */
/* A test-and-set spinlock.  Waiters pause; they do not poll for events yet
 * (cells bring the event loop). */
#ifndef WARDEN_HV_SPINLOCK_H
#define WARDEN_HV_SPINLOCK_H

#include <asm/processor.h>

#include "types.h"

typedef struct {
	volatile u32 locked;
} spinlock_t;

static inline void spin_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (l->locked)
			cpu_relax();
}

/* Take the lock if it is free; true if taken. */
static inline bool spin_trylock(spinlock_t *l)
{
	return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif /* WARDEN_HV_SPINLOCK_H */

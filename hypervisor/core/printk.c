// SPDX-License-Identifier: GPL-2.0
/* printk: format into a stack buffer, then write to the debug console. */
#include <hv/arch.h>
#include <hv/format.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/spinlock.h>

static spinlock_t console_lock;

/* Append to the ring root can read (see warden_console_ring). */
static void ring_write(const char *text, size_t len)
{
	struct warden_console_ring *r = hv.ring;

	if (!r)
		return;
	for (; len; len--, text++) {
		r->data[r->head % WARDEN_CONSOLE_RING_SIZE] = *text;
		__atomic_store_n(&r->head, r->head + 1, __ATOMIC_RELEASE);
	}
}

void printk(const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = hv_vformat(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1; /* truncated: better than nothing */
	spin_lock(&console_lock);
	arch_console_write(buf, (size_t)n);
	ring_write(buf, (size_t)n);
	spin_unlock(&console_lock);
}

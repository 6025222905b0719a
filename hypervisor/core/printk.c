// SPDX-License-Identifier: GPL-2.0
/* printk: format into a stack buffer, then write to the debug console. */
#include <hv/arch.h>
#include <hv/format.h>
#include <hv/printk.h>

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
	arch_console_write(buf, (size_t)n);
}

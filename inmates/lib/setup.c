// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The C side of the entry: called by entry.S in 64-bit mode. */
#include <inmate.h>
#include "internal.h"

void inmate_start(void)
{
	idt_init();
	console_init();
	inmate_main();
}

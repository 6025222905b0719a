/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks the generic core calls in the architecture layer.  Each is
 * implemented once per architecture (hypervisor/arch/x86/); the core never
 * touches hardware directly.
 */
#ifndef WARDEN_HV_ARCH_H
#define WARDEN_HV_ARCH_H

#include <warden/abi.h>

#include "types.h"

/*
 * Prepare the debug console described by con (a struct from the system
 * config).  Returns 0, or -WARDEN_EINVAL for a console type the
 * architecture cannot drive; the console then stays silent.
 */
int arch_console_init(const struct warden_console *con);

/* Write len bytes to the debug console; "\n" becomes "\r\n".  Never fails:
 * output to a missing console is dropped. */
void arch_console_write(const char *text, size_t len);

#endif /* WARDEN_HV_ARCH_H */

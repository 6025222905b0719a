/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's console output.  printk() formats with hv_vformat()
 * and hands the text to arch_console_write() (the debug console of the
 * system config, COM2 in the test machine).
 */
#ifndef WARDEN_HV_PRINTK_H
#define WARDEN_HV_PRINTK_H

#include "types.h"

void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* WARDEN_HV_PRINTK_H */

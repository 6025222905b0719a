/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's error recording, for unit tests that link core code
 * which records a reason (core/units.c, core/ownership.c): the tests
 * check return values, not the record.  Include in one file per test.
 */
#ifndef WARDEN_TESTS_HV_STUBS_H
#define WARDEN_TESTS_HV_STUBS_H

#include <hv/hypervisor.h>

void hv_set_error(struct per_cpu *pc, int code, u32 rule, u32 item_kind,
		  u32 item_index, u64 v0, u64 v1)
{
	(void)pc;
	(void)code;
	(void)rule;
	(void)item_kind;
	(void)item_index;
	(void)v0;
	(void)v1;
}

#endif /* WARDEN_TESTS_HV_STUBS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device registers the hypervisor reads or writes on a guest's behalf,
 * with the width the guest used (1, 2, 4 or 8 bytes, naturally aligned:
 * struct mmio_access), so that the device sees the same access.
 */
#ifndef WARDEN_ASM_MMIO_RW_H
#define WARDEN_ASM_MMIO_RW_H

#include <hv/types.h>

static inline u64 mmio_read_sized(volatile u8 *p, unsigned int size)
{
	if (size == 1)
		return *p;
	if (size == 2)
		return *(volatile u16 *)p;
	if (size == 4)
		return *(volatile u32 *)p;
	return *(volatile u64 *)p;
}

static inline void mmio_write_sized(volatile u8 *p, unsigned int size, u64 v)
{
	if (size == 1)
		*p = (u8)v;
	else if (size == 2)
		*(volatile u16 *)p = (u16)v;
	else if (size == 4)
		*(volatile u32 *)p = (u32)v;
	else
		*(volatile u64 *)p = v;
}

#endif /* WARDEN_ASM_MMIO_RW_H */

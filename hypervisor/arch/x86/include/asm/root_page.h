/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page of root's device memory whose reads go to the device with no
 * exit and whose writes exit (root_page.c): for devices root keeps but
 * whose writes the hypervisor checks (the HPET, root's IOMMU, the ICH9's
 * chipset registers).  The page is mapped read-only in root's tables and
 * registered in root's MMIO registry with the caller's handler, which
 * performs or refuses each write.
 */
#ifndef WARDEN_ASM_ROOT_PAGE_H
#define WARDEN_ASM_ROOT_PAGE_H

#include <hv/mmio.h>

/* At enable: page (4 KiB aligned) read-only for root, its accesses to
 * handler.  0, or -WARDEN_ENOMEM (the pool is empty, or root's registry
 * full). */
int root_page_trap_writes(u64 page, mmio_handler_t handler, void *ctx);

/* A unit's map hook: root got [start, start + size) back; if it covers
 * page (0: none), make it read-only again (what names the page in the
 * warning printed if the pool has no page for it). */
void root_page_remap(u64 page, u64 start, u64 size, const char *what);

#endif /* WARDEN_ASM_ROOT_PAGE_H */

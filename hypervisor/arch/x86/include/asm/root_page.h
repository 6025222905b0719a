/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page of root's device memory whose reads go to the device with no
 * exit and whose writes exit (root_page.c): for devices root keeps but
 * whose writes the hypervisor checks (the HPET, root's IOMMU, the ICH9's
 * chipset registers).  The page is a READ_ONLY trap of root's
 * (hv/ownership.h: kept read-only whenever root's memory is mapped over
 * it) and a region of root's MMIO registry with the caller's handler,
 * which performs or refuses each write.
 */
#ifndef WARDEN_ASM_ROOT_PAGE_H
#define WARDEN_ASM_ROOT_PAGE_H

#include <hv/mmio.h>

/* At enable: page (4 KiB aligned) read-only for root, its accesses to
 * handler.  0, or -WARDEN_ENOMEM (the pool is empty, or root's registry
 * full). */
int root_page_trap_writes(u64 page, mmio_handler_t handler, void *ctx);

#endif /* WARDEN_ASM_ROOT_PAGE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two page-table formats of x86: the hypervisor's own (IA-32e paging,
 * SDM Vol. 3, 4.5) and EPT (SDM Vol. 3, 29.3.2).  Both plug into the
 * generic engine of hv/paging.h.
 */
#ifndef WARDEN_ASM_PGFORMAT_H
#define WARDEN_ASM_PGFORMAT_H

#include <hv/paging.h>

extern const struct paging_format x86_host_format;
extern const struct paging_format x86_ept_format;

/* EPT entry bits (SDM Vol. 3, Tables 29-1 to 29-6). */
#define EPT_READ (1ull << 0)
#define EPT_WRITE (1ull << 1)
#define EPT_EXEC (1ull << 2)
#define EPT_MEMTYPE_SHIFT 3
#define EPT_IGNORE_PAT (1ull << 6)
#define EPT_LARGE (1ull << 7)

/* IA-32e paging entry bits (SDM Vol. 3, Tables 4-15 to 4-20). */
#define PTE_PRESENT (1ull << 0)
#define PTE_WRITE (1ull << 1)
#define PTE_USER (1ull << 2)
#define PTE_PWT (1ull << 3)
#define PTE_PCD (1ull << 4)
#define PTE_LARGE (1ull << 7)
#define PTE_NX (1ull << 63)

#define PHYS_ADDR_MASK 0x000ffffffffff000ull

#endif /* WARDEN_ASM_PGFORMAT_H */

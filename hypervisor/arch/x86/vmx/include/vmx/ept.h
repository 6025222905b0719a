/* SPDX-License-Identifier: GPL-2.0 */
/* The EPT format (ept.c; also compiled into the unit tests). */
#ifndef WARDEN_VMX_EPT_H
#define WARDEN_VMX_EPT_H

#include <hv/paging.h>

extern const struct paging_format vmx_ept_format;

/* EPT entry bits (SDM Vol. 3, Tables 29-1 to 29-6). */
#define EPT_READ (1ull << 0)
#define EPT_WRITE (1ull << 1)
#define EPT_EXEC (1ull << 2)
#define EPT_MEMTYPE_SHIFT 3
#define EPT_IGNORE_PAT (1ull << 6)
#define EPT_LARGE (1ull << 7)

#endif /* WARDEN_VMX_EPT_H */

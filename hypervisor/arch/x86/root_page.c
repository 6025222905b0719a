// SPDX-License-Identifier: GPL-2.0
/* Root's write-trapped device pages (contracts in asm/root_page.h). */
#include <asm/root_page.h>
#include <hv/arch.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <warden/config.h>
#include <warden/hypercall.h>

static int read_only(u64 page)
{
	return arch_map_memory(&hv.root, page, page, PAGE_SIZE,
			       WARDEN_MEM_READ | WARDEN_MEM_IO,
			       WARDEN_MEMTYPE_UC);
}

int root_page_trap_writes(u64 page, mmio_handler_t handler, void *ctx)
{
	if (read_only(page) ||
	    mmio_register(&hv.root.mmio, page, PAGE_SIZE, handler, ctx))
		return -WARDEN_ENOMEM;
	return 0;
}

void root_page_remap(u64 page, u64 start, u64 size, const char *what)
{
	if (page && start < page + PAGE_SIZE && page < start + size &&
	    read_only(page))
		printk("WARNING: root's %s page could not be made read-only "
		       "again: the pool is empty\n",
		       what);
}

// SPDX-License-Identifier: GPL-2.0
/* Root's write-trapped device pages (contracts in asm/root_page.h). */
#include <asm/root_page.h>
#include <hv/hypervisor.h>
#include <hv/ownership.h>
#include <warden/config.h>
#include <warden/hypercall.h>

int root_page_trap_writes(u64 page, mmio_handler_t handler, void *ctx)
{
	const struct own_trap trap = {
		.start = page,
		.size = PAGE_SIZE,
		.flags = WARDEN_MEM_READ | WARDEN_MEM_IO,
		.mem_type = WARDEN_MEMTYPE_UC,
		.kind = OWN_TRAP_READ_ONLY,
	};

	if (ownership_trap(&hv.root, &trap) ||
	    mmio_register(&hv.root.mmio, page, PAGE_SIZE, handler, ctx))
		return -WARDEN_ENOMEM;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Cells: the generic part.  For now the authoritative check of a cell
 * config against the running system (WARDEN_HC_CONFIG_VALIDATE), which
 * "warden cell create" runs before Linux gives up any CPU; creating,
 * starting and destroying cells build on it (the cells issue).
 */
#include <config_check.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <warden/config.h>
#include <warden/hypercall.h>

/* Keep the first error the validator reports. */
static void keep_first(void *ctx, const struct warden_error *e)
{
	struct warden_error *first = ctx;

	if (!first->rule)
		*first = *e;
}

long cell_config_validate(struct per_cpu *pc, u64 config_gpa, u64 error_gpa)
{
	struct warden_error err = { 0 };
	struct warden_config_header h;
	unsigned long size, pages;
	unsigned int n;
	void *blob;

	/* The blob is copied in whole (the root could change it while it
	 * is checked); its header says how long it is, within the limit.
	 * A header that lies about the length is the validator's to report:
	 * it gets at most the bytes the limit allows. */
	if (arch_guest_copy(pc, config_gpa, &h, sizeof(h), false))
		return -WARDEN_EFAULT;
	size = h.total_size;
	if (size < sizeof(h))
		size = sizeof(h);
	if (size > CONFIG_CHECK_MAX_SIZE)
		size = CONFIG_CHECK_MAX_SIZE;
	pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	blob = page_alloc(&hv.pool, pages);
	if (!blob) {
		err.code = -WARDEN_ENOMEM;
		err.rule = WARDEN_RULE_NO_MEMORY;
		err.values[0] = pages;
		err.values[1] = hv.pool.pages - hv.pool.used;
		goto report;
	}
	if (arch_guest_copy(pc, config_gpa, blob, size, false)) {
		page_free(&hv.pool, blob, pages);
		return -WARDEN_EFAULT;
	}
	/* No cell exists yet besides root: the others list is empty. */
	n = config_check_cell(
		blob, size,
		(const u8 *)WARDEN_HV_BASE + hv.header->config_offset,
		hv.header->config_size, NULL, NULL, 0, keep_first, &err);
	page_free(&hv.pool, blob, pages);
	if (!n)
		return 0;
	if (!err.code)
		err.code = -WARDEN_EINVAL;
report:
	err.cpu = WARDEN_NO_CPU;
	printk("CPU %u: cell config refused: rule %u, item kind %u index %u\n",
	       pc->cpu_id, err.rule, err.item_kind, err.item_index);
	if (error_gpa &&
	    arch_guest_copy(pc, error_gpa, &err, sizeof(err), true))
		return -WARDEN_EFAULT;
	return err.code;
}

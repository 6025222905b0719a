// SPDX-License-Identifier: GPL-2.0
/*
 * Queued invalidation (VT-d 6.5.2) while the hypervisor owns the unit
 * (contracts in vtd_hw.h).  Register-based invalidation may not be used
 * while queued invalidation is on (6.5.2), and root's Linux keeps it on
 * for its interrupt remapping, so the hypervisor owns the one queue the
 * hardware reads: its own page.  Root keeps a queue of its own in its
 * memory and a shadow of the queue registers (vtd_root_regs.c); each
 * tail root writes is carried out here, on the hypervisor's queue.
 *
 * Root's head and tail at disable: the head register is read-only and
 * the hardware resets it to 0 whenever queued invalidation is turned off
 * (10.4.22), which it must be to change the queue's address (10.4.25).
 * So to give root its queue back with head = tail = T (where root's
 * Linux writes its next descriptor), the hypervisor makes the hardware
 * consume T harmless descriptors of root's queue: it saves root's
 * entries 0 .. T-1, writes global interrupt entry cache invalidations
 * (6.5.2.7: they only drop cached remapping entries) there and, last, a
 * wait descriptor whose status goes to the hypervisor's own page (a
 * queue whose last descriptor is not a wait cannot be turned off on
 * QEMU, which the next enable does), turns queued invalidation on at
 * root's address with tail 0, sets the tail to T, waits until the head
 * reaches it, and puts root's entries back.  Root's CPUs wait in
 * disable's rendezvous meanwhile.
 */
#include "vtd_hw.h"

#include <asm/processor.h>
#include <hv/arch.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/wait.h>
#include <warden/hypercall.h>

#define QI_ENTRIES 256u
#define QI_WAIT_MS 100
/* descriptors of root's gathered before they go to the hardware */
#define QI_BATCH 32

static int wait_head(struct vtd_unit *u, u32 index)
{
	struct hv_wait w;

	hv_wait_start(&w, QI_WAIT_MS);
	while ((u32)vtd_read64(u, VTD_IQH) >> VTD_IQT_SHIFT != index) {
		if (hv_wait_over(&w))
			return -WARDEN_ETIMEDOUT;
		cpu_relax();
	}
	return 0;
}

int vtd_qi_run(struct vtd_unit *u, const struct vtd_desc *d, unsigned int n)
{
	u64 status = pool_virt_to_phys(&hv.pool, (void *)u->status);
	struct hv_wait w;
	unsigned int i;
	u32 fsts;

	if (++u->seq == 0)
		u->seq = 1;
	for (i = 0; i <= n; i++) {
		u->queue[u->tail] = i < n ? d[i]
					  : vtd_desc_wait(status, u->seq);
		u->tail = (u->tail + 1) % QI_ENTRIES;
	}
	vtd_sync();
	vtd_write32(u, VTD_IQT, u->tail << VTD_IQT_SHIFT);
	hv_wait_start(&w, QI_WAIT_MS);
	while (__atomic_load_n(u->status, __ATOMIC_ACQUIRE) != u->seq) {
		fsts = vtd_read32(u, VTD_FSTS);
		if (fsts & (VTD_FSTS_IQE | VTD_FSTS_ICE | VTD_FSTS_ITE)) {
			/* 6.5.2.10: the unit stopped at the descriptor its
			 * head names; it is the hypervisor's own, so a bug */
			printk("IOMMU at 0x%llx: invalidation queue error, "
			       "fault status 0x%x, head 0x%llx\n",
			       (unsigned long long)u->base, fsts,
			       (unsigned long long)vtd_read64(u, VTD_IQH));
			return -WARDEN_EIO;
		}
		if (hv_wait_over(&w))
			return -WARDEN_ETIMEDOUT;
		cpu_relax();
	}
	return 0;
}

int vtd_qi_take(struct vtd_unit *u)
{
	int err;

	if (u->root.qi_on) {
		/* root's Linux waits for each of its submissions, so its
		 * queue is empty at rest: head equals tail */
		u->root.head = (u32)vtd_read64(u, VTD_IQT) >> VTD_IQT_SHIFT;
		if (wait_head(u, u->root.head))
			return -WARDEN_ETIMEDOUT;
		err = vtd_command(u, VTD_GCMD_QIE, false, VTD_GSTS_QIES, false);
		if (err)
			return err;
	}
	u->tail = 0;
	vtd_write64(u, VTD_IQT, 0);
	vtd_write64(u, VTD_IQA, pool_virt_to_phys(&hv.pool, u->queue));
	err = vtd_command(u, VTD_GCMD_QIE, true, VTD_GSTS_QIES, true);
	if (err && u->root.qi_on) {
		/* root's queue back, at head 0: what it submits next
		 * replays its old entries, which only invalidate */
		vtd_write64(u, VTD_IQA, u->root.iqa);
		vtd_write64(u, VTD_IQT, 0);
		vtd_command(u, VTD_GCMD_QIE, true, VTD_GSTS_QIES, true);
	}
	return err;
}

void vtd_qi_give_back(struct vtd_unit *u)
{
	u32 t = u->root.head, i;

	if (vtd_command(u, VTD_GCMD_QIE, false, VTD_GSTS_QIES, false))
		printk("IOMMU: queued invalidation did not stop\n");
	vtd_write64(u, VTD_IQT, 0);
	vtd_write64(u, VTD_IQA, u->root.iqa);
	if (!u->root.qi_on)
		return;
	for (i = 0; i < t; i++) {
		u->root.saved[i] = u->root.queue[i];
		u->root.queue[i] =
			i + 1 < t ? vtd_desc_iec_global()
				  : vtd_desc_wait(pool_virt_to_phys(
							  &hv.pool,
							  (void *)u->status),
						  0);
	}
	vtd_sync();
	if (vtd_command(u, VTD_GCMD_QIE, true, VTD_GSTS_QIES, true))
		printk("IOMMU: root's queued invalidation did not start\n");
	vtd_write32(u, VTD_IQT, t << VTD_IQT_SHIFT);
	if (wait_head(u, t))
		printk("IOMMU: root's queue head did not reach 0x%x\n",
		       t << VTD_IQT_SHIFT);
	for (i = 0; i < t; i++)
		u->root.queue[i] = u->root.saved[i];
	vtd_sync();
}

/* Root's status write of a wait descriptor: 4 bytes into root's memory
 * (checked by its own tables), as the unit would have written them. */
static void root_status(struct per_cpu *pc, const struct vtd_desc *d)
{
	u32 data = (u32)(d->lo >> 32);

	if (!(d->lo & VTD_WAIT_SW))
		return;
	if (arch_guest_copy(pc, d->hi & ~3ull, &data, sizeof(data), true))
		printk("CPU %u: root's invalidation wait descriptor writes "
		       "its status to 0x%llx, outside its memory: not "
		       "written\n",
		       pc->cpu_id, (unsigned long long)(d->hi & ~3ull));
}

void vtd_qi_root_tail(struct vtd_unit *u, struct per_cpu *pc, u64 value)
{
	u32 mask = u->root.entries - 1, tail = (u32)value >> VTD_IQT_SHIFT;
	struct vtd_desc batch[QI_BATCH], d;
	unsigned int n = 0;
	const char *why;

	if (!u->root.qi_on || (value & ~((u64)mask << VTD_IQT_SHIFT))) {
		printk("CPU %u: root's invalidation queue tail 0x%llx "
		       "refused: %s\n",
		       pc->cpu_id, (unsigned long long)value,
		       u->root.qi_on ? "beyond its queue"
				     : "its queued invalidation is off");
		return;
	}
	spin_lock(&vtd.qi_lock);
	while (u->root.head != tail) {
		d = u->root.queue[u->root.head];
		u->root.head = (u->root.head + 1) & mask;
		switch (vtd_root_desc_check(&d, &why)) {
		case VTD_ROOT_IEC:
			/* the copies first: the invalidation then drops
			 * what the unit cached of the old ones */
			if (vtd_irt_refresh(u, pc, d.lo))
				/* it names root's indexes; the unit may
				 * cache the hypervisor's for them too */
				d = vtd_desc_iec_global();
			batch[n++] = d;
			if (n < QI_BATCH)
				continue;
			break;
		case VTD_ROOT_WAIT:
			break;
		default:
			printk("CPU %u: root's invalidation descriptor "
			       "0x%llx 0x%llx skipped: %s\n",
			       pc->cpu_id, (unsigned long long)d.hi,
			       (unsigned long long)d.lo, why);
			continue;
		}
		/* what came before the wait is done before its status */
		if (vtd_qi_run(u, batch, n))
			printk("IOMMU: root's invalidations not confirmed\n");
		n = 0;
		if (VTD_DESC_TYPE(d.lo) == VTD_DESC_WAIT)
			root_status(pc, &d);
	}
	if (n && vtd_qi_run(u, batch, n))
		printk("IOMMU: root's invalidations not confirmed\n");
	spin_unlock(&vtd.qi_lock);
}

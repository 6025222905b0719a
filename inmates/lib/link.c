// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Links: the virtual PCI function the hypervisor shows a cell for each
 * link it is a peer of (include/warden/link.h), and the rings in its
 * shared memory (include/warden/link_ring.h).  BAR 0 holds the registers
 * and the MSI-X table, every access to it traps to the hypervisor; BAR 2
 * is the shared memory, mapped straight to the link's RAM: ring traffic
 * takes no VM exit, and neither does a doorbell's interrupt on arrival.
 *
 * Interrupt handlers only count (per link and vector, and one total);
 * the inmate's loop looks at the counts and drains the rings, so that no
 * ring is touched from two contexts.
 */
#include <inmate.h>

#define LINK_REGS_MIN WARDEN_LINK_REGS_SIZE

static struct link *by_index[INMATE_MAX_LINKS];
static volatile uint32_t irq_total;
static bool tick_on;

uint32_t link_read32(const struct link *l, unsigned int reg)
{
	return mmio_read32(l->regs + reg);
}

uint64_t link_read64(const struct link *l, unsigned int reg)
{
	return mmio_read64(l->regs + reg);
}

void link_write32(const struct link *l, unsigned int reg, uint32_t value)
{
	mmio_write32(l->regs + reg, value);
}

/* BAR n of the function as memory below 4 GiB, or -1 (cause printed). */
static int memory_bar(uint16_t bdf, unsigned int n, struct pci_bar *bar,
		      const char *name)
{
	if (!pci_bar_read(bdf, n, bar) || bar->type == PCI_BAR_PIO ||
	    bar->type == PCI_BAR_NONE) {
		printk("link: %s: BAR %u is %s, not memory\n", name, n,
		       pci_bar_type_name(bar->type));
		return -1;
	}
	if (!bar->address || bar->address + bar->size > INMATE_MAP_SIZE ||
	    bar->address + bar->size < bar->address) {
		printk("link: %s: BAR %u at 0x%llx size 0x%llx is not below "
		       "4 GiB\n",
		       name, n, (unsigned long long)bar->address,
		       (unsigned long long)bar->size);
		return -1;
	}
	return 0;
}

int link_open(struct link *l, uint16_t bdf, unsigned int index)
{
	struct pci_bar regs, shmem;
	char name[8];
	unsigned int i;

	memset(l, 0, sizeof(*l));
	pci_bdf_name(bdf, name);
	if (pci_read16(bdf, PCI_VENDOR_ID) != WARDEN_LINK_VENDOR_ID ||
	    pci_read16(bdf, PCI_DEVICE_ID) != WARDEN_LINK_DEVICE_ID) {
		printk("link: %s: not a link function (%04x:%04x)\n", name,
		       pci_read16(bdf, PCI_VENDOR_ID),
		       pci_read16(bdf, PCI_DEVICE_ID));
		return -1;
	}
	if (memory_bar(bdf, 0, &regs, name) < 0 ||
	    memory_bar(bdf, 2, &shmem, name) < 0)
		return -1;
	if (regs.size < LINK_REGS_MIN) {
		printk("link: %s: BAR 0 of 0x%llx bytes, registers need "
		       "0x%x\n",
		       name, (unsigned long long)regs.size, LINK_REGS_MIN);
		return -1;
	}
	/* the memory WB first, then the registers UC: they may share a
	 * 2 MiB page, which paging_set_uc() splits */
	if (paging_set_uc(shmem.address, shmem.size, false) < 0 ||
	    paging_set_uc(regs.address, regs.size, true) < 0) {
		printk("link: %s: cannot map the BARs\n", name);
		return -1;
	}
	pci_command(bdf, PCI_CMD_MEMORY | PCI_CMD_MASTER, 0);

	l->index = index;
	l->bdf = bdf;
	l->regs = regs.address;
	l->shmem = shmem.address;
	l->id = link_read32(l, WARDEN_LINK_REG_ID);
	l->num_peers = link_read32(l, WARDEN_LINK_REG_NUM_PEERS);
	l->flags = link_read32(l, WARDEN_LINK_REG_FLAGS);
	l->vectors = link_read32(l, WARDEN_LINK_REG_VECTORS);
	l->shmem_size = link_read64(l, WARDEN_LINK_REG_SHMEM_SIZE);
	l->section_size = link_read64(l, WARDEN_LINK_REG_SECTION_SIZE);
	if (link_read64(l, WARDEN_LINK_REG_SHMEM) != shmem.address ||
	    l->shmem_size != shmem.size) {
		printk("link: %s: registers say memory at 0x%llx size 0x%llx, "
		       "BAR 2 0x%llx size 0x%llx\n",
		       name,
		       (unsigned long long)link_read64(l,
						       WARDEN_LINK_REG_SHMEM),
		       (unsigned long long)l->shmem_size,
		       (unsigned long long)shmem.address,
		       (unsigned long long)shmem.size);
		return -1;
	}
	if (l->section_size !=
	    warden_link_section_size(l->shmem_size, l->num_peers)) {
		printk("link: %s: section size 0x%llx, expected 0x%llx for "
		       "%u peers\n",
		       name, (unsigned long long)l->section_size,
		       (unsigned long long)warden_link_section_size(
			       l->shmem_size, l->num_peers),
		       l->num_peers);
		return -1;
	}
	if (l->vectors < 1 || l->vectors > WARDEN_LINK_MAX_VECTORS) {
		printk("link: %s: %u vectors\n", name, l->vectors);
		return -1;
	}
	if (warden_link_rings_setup(&l->rings, (volatile void *)l->shmem, NULL,
				    l->section_size, l->id, l->num_peers) < 0) {
		printk("link: %s: peer %u of %u, section 0x%llx: no rings "
		       "fit\n",
		       name, l->id, l->num_peers,
		       (unsigned long long)l->section_size);
		return -1;
	}
	for (i = 0; i < l->num_peers; i++)
		l->peer_vectors[i] =
			link_read32(l, WARDEN_LINK_REG_PEER_VECTORS(i));
	return 0;
}

unsigned int link_find(struct link *links, unsigned int max,
		       unsigned int last_bus)
{
	unsigned int n = 0;
	int bdf = -1;

	while (n < max && (bdf = pci_find_device(WARDEN_LINK_VENDOR_ID,
						 WARDEN_LINK_DEVICE_ID, bdf,
						 last_bus)) >= 0)
		if (link_open(&links[n], (uint16_t)bdf, n) == 0)
			n++;
	return n;
}

static void link_irq(unsigned int vector)
{
	unsigned int off = vector - LINK_VECTOR_BASE;
	struct link *l = by_index[off / 4];

	if (l)
		l->irqs[off % 4]++;
	irq_total++;
	apic_eoi();
}

static void tick_irq(unsigned int vector)
{
	(void)vector;
	irq_total++;
	apic_eoi();
}

int link_irq_setup(struct link *l)
{
	unsigned int v, n;
	char name[8];

	pci_bdf_name(l->bdf, name);
	if (l->index >= INMATE_MAX_LINKS) {
		printk("link: %s: index %u, interrupts for %u links only\n",
		       name, l->index, INMATE_MAX_LINKS);
		return -1;
	}
	if (pci_msix_find(l->bdf, &l->msix) < 0 || pci_msix_map(&l->msix) < 0) {
		printk("link: %s: no MSI-X table in a memory BAR\n", name);
		return -1;
	}
	n = l->msix.entries < l->vectors ? l->msix.entries : l->vectors;
	for (v = 0; v < l->msix.entries; v++)
		pci_msix_mask_entry(&l->msix, v, true);
	by_index[l->index] = l;
	for (v = 0; v < n; v++) {
		irq_set_handler(LINK_VECTOR(l->index, v), link_irq);
		if (pci_msix_set_entry(&l->msix, v, apic_id(),
				       LINK_VECTOR(l->index, v)) < 0) {
			printk("link: %s: bad MSI-X message (APIC ID %u)\n",
			       name, apic_id());
			return -1;
		}
	}
	pci_intx_enable(l->bdf, false);
	pci_msix_mask_all(&l->msix, true);
	pci_msix_enable(&l->msix, true);
	if (!(pci_read16(l->bdf, l->msix.cap + PCI_MSIX_CTRL) &
	      PCI_MSIX_CTRL_ENABLE)) {
		printk("link: %s: MSI-X enable bit dropped\n", name);
		return -1;
	}
	for (v = 0; v < n; v++)
		pci_msix_mask_entry(&l->msix, v, false);
	pci_msix_mask_all(&l->msix, false);
	l->irqs_on = true;
	return 0;
}

void link_start(struct link *l)
{
	warden_link_ring_init(&l->rings);
	l->peers_up = 0;
	link_write32(l, WARDEN_LINK_REG_STATE, WARDEN_LINK_STATE_UP);
	link_update_states(l, NULL, NULL);
}

void link_stop(struct link *l)
{
	warden_link_ring_fini(&l->rings);
	link_write32(l, WARDEN_LINK_REG_STATE, WARDEN_LINK_STATE_DOWN);
	l->peers_up = 0;
}

uint32_t link_update_states(struct link *l, uint32_t *up, uint32_t *down)
{
	uint32_t all = (1u << l->num_peers) - 1;
	uint32_t now = link_read32(l, WARDEN_LINK_REG_PEER_STATES) & all &
		       ~(1u << l->id);
	uint32_t went_up = now & ~l->peers_up, went_down = l->peers_up & ~now;
	unsigned int j;

	for (j = 0; j < l->num_peers; j++) {
		if (!(went_up & (1u << j)))
			continue;
		/* a new cell may have other vectors than the last one */
		l->peer_vectors[j] =
			link_read32(l, WARDEN_LINK_REG_PEER_VECTORS(j));
		warden_link_ring_reset_peer(&l->rings, j);
	}
	l->peers_up = now;
	if (up)
		*up = went_up;
	if (down)
		*down = went_down;
	return now;
}

int link_send(struct link *l, uint32_t peer, uint32_t channel, const void *buf,
	      size_t len)
{
	if (peer >= l->num_peers || !(l->peers_up & (1u << peer)))
		return -1;
	return warden_link_ring_send(&l->rings, peer, channel, buf, len);
}

int link_notify(struct link *l, uint32_t peer, uint32_t channel)
{
	if (peer >= l->num_peers || peer == l->id ||
	    channel >= WARDEN_LINK_CHANNELS || !l->peer_vectors[peer])
		return -1;
	link_write32(l, WARDEN_LINK_REG_DOORBELL,
		     WARDEN_LINK_DOORBELL(
			     peer, warden_link_vector(channel,
						      l->peer_vectors[peer])));
	return 0;
}

int link_recv(struct link *l, uint32_t peer, uint32_t channel, void *buf,
	      size_t size)
{
	if (peer >= l->num_peers || !(l->peers_up & (1u << peer)))
		return 0;
	return warden_link_ring_recv(&l->rings, peer, channel, buf, size);
}

uint32_t link_irqs(const struct link *l, unsigned int vector)
{
	return vector < WARDEN_LINK_MAX_VECTORS ? l->irqs[vector] : 0;
}

uint32_t link_irq_total(void)
{
	return irq_total;
}

int link_tick_start(uint32_t period_us)
{
	irq_set_handler(LINK_TICK_VECTOR, tick_irq);
	if (apic_timer_periodic(period_us, LINK_TICK_VECTOR) < 0)
		return -1;
	tick_on = true;
	return 0;
}

bool link_wait(uint32_t *seen, uint64_t timeout_us, bool poll)
{
	uint64_t start = rdtsc();
	uint64_t ticks = timeout_us * tsc_khz() / 1000;

	for (;;) {
		irq_disable();
		if (irq_total != *seen) {
			*seen = irq_total;
			irq_enable();
			return true;
		}
		if (timeout_us && rdtsc() - start >= ticks) {
			irq_enable();
			return false;
		}
		if ((tick_on || !timeout_us) && !poll) {
			/* sti's shadow: no interrupt between it and hlt */
			cpu_wait_for_interrupt();
		} else {
			irq_enable();
			cpu_relax();
		}
	}
}

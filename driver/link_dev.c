// SPDX-License-Identifier: GPL-2.0
/*
 * The pci_driver of the link function (link.h section 2): probe maps the
 * registers (BAR 0) and the link memory (BAR 2), starts root's section of
 * the ring protocol, takes the MSI-X vectors, adds the character device
 * and the net interface and sets STATE up; remove undoes it in reverse,
 * STATE down first.
 *
 * pci_enable_device() is not used: it would claim every BAR, and BAR 2
 * (the link memory, in the memmap= reservation) lies outside the host
 * bridge windows, so it refuses; memory decoding is turned on by hand.
 *
 * Interrupts: vector 0 says that a peer's state changed; the doorbells of
 * a channel come on warden_link_vector(channel, our vectors).  Doorbells
 * on the net channel's vector go to the net interface; the others are
 * counted for readers of the character device.
 */
#include <linux/interrupt.h>
#include <linux/irqdomain.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "warden-driver.h"
#include "wd-link.h"

static u32 reg_read(struct wd_link_dev *ldev, u32 reg)
{
	return readl(ldev->regs + reg);
}

static u64 reg_read64(struct wd_link_dev *ldev, u32 reg)
{
	/* the 64-bit registers take 8-byte accesses (link.h) */
	return readq(ldev->regs + reg);
}

/*
 * Read PEER_STATES: for each peer that came up, reset our indexes towards
 * it (link.h "Start") and learn its vectors; count a change, wake the
 * readers, tell the net interface.
 */
static void update_states(struct wd_link_dev *ldev)
{
	u32 mask = GENMASK(ldev->num_peers - 1, 0);
	u32 states = reg_read(ldev, WARDEN_LINK_REG_PEER_STATES) & mask;
	u32 came_up, j;
	unsigned long flags;
	bool changed;

	spin_lock_irqsave(&ldev->ring_lock, flags);
	came_up = states & ~ldev->peer_states & ~BIT(ldev->id);
	for (j = 0; j < ldev->num_peers; j++) {
		if (!(came_up & BIT(j)))
			continue;
		warden_link_ring_reset_peer(&ldev->rings, j);
		ldev->peer_vectors[j] =
			reg_read(ldev, WARDEN_LINK_REG_PEER_VECTORS(j));
	}
	changed = states != ldev->peer_states;
	ldev->peer_states = states;
	if (changed)
		ldev->state_changes++;
	spin_unlock_irqrestore(&ldev->ring_lock, flags);
	if (!changed)
		return;
	wake_up_interruptible(&ldev->wait);
	if (ldev->ndev)
		wd_link_net_states(ldev, states);
}

static irqreturn_t link_irq(int irq, void *cookie)
{
	struct wd_link_vec *vec = cookie;
	struct wd_link_dev *ldev = vec->ldev;
	unsigned long flags;

	if (vec->vector == 0)
		update_states(ldev);
	if (vec->vector == ldev->net_vector && ldev->ndev)
		wd_link_net_doorbell(ldev);
	/* the message channel's vector, and any other but the net channel's
	 * and the state vector (a peer may ring any of ours) */
	if (vec->vector == ldev->msg_vector ||
	    (vec->vector != ldev->net_vector && vec->vector != 0)) {
		spin_lock_irqsave(&ldev->ring_lock, flags);
		ldev->doorbells++;
		spin_unlock_irqrestore(&ldev->ring_lock, flags);
		wake_up_interruptible(&ldev->wait);
	}
	return IRQ_HANDLED;
}

static void free_irqs(struct wd_link_dev *ldev)
{
	unsigned int v;

	for (v = 0; v < ldev->num_irqs; v++)
		if (ldev->vec[v].irq)
			free_irq(ldev->vec[v].irq, &ldev->vec[v]);
	if (ldev->num_irqs)
		pci_free_irq_vectors(ldev->pdev);
	ldev->num_irqs = 0;
}

/*
 * With interrupt remapping on, Linux gives a function the MSI domain of
 * the IOMMU unit whose device scope covers it.  Firmware whose unit lists
 * its devices one by one (no INCLUDE_PCI_ALL: QEMU's q35 does so) lists
 * none that appeared after boot, so the link function has no domain, and
 * MSI-X cannot be set up.  It then takes the domain of another function
 * on its bus: the hypervisor delivers the link's interrupts itself and
 * reads a remapped message's entry from root's remapping table
 * (platform.iommu_base), whichever unit's domain wrote it.
 */
static int ensure_msi_domain(struct wd_link_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev, *other;
	struct irq_domain *domain = NULL;
	unsigned int devfn;

	if (dev_get_msi_domain(&pdev->dev))
		return 0;
	for (devfn = 0; devfn < 256 && !domain; devfn++) {
		if (devfn == pdev->devfn)
			continue;
		other = pci_get_slot(pdev->bus, devfn);
		if (!other)
			continue;
		domain = dev_get_msi_domain(&other->dev);
		if (domain && !irq_domain_is_hierarchy(domain))
			domain = NULL;
		if (domain)
			dev_info(&pdev->dev,
				 "warden: link %s: no IOMMU unit's device "
				 "scope covers the function; it takes the MSI "
				 "domain of %s\n",
				 ldev->name, pci_name(other));
		pci_dev_put(other);
	}
	if (!domain) {
		dev_err(&pdev->dev,
			"warden: link %s: Linux has no MSI domain for the "
			"function, nor for any other function on its bus\n",
			ldev->name);
		return -ENODEV;
	}
	dev_set_msi_domain(&pdev->dev, domain);
	return 0;
}

static int request_irqs(struct wd_link_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;
	struct wd_link_vec *vec;
	int ret, irq;
	u32 v;

	ret = ensure_msi_domain(ldev);
	if (ret)
		return ret;
	ret = pci_alloc_irq_vectors(pdev, ldev->vectors, ldev->vectors,
				    PCI_IRQ_MSIX);
	if (ret < 0) {
		dev_err(&pdev->dev,
			"warden: link %s: cannot allocate %u MSI-X vectors "
			"(%d)\n",
			ldev->name, ldev->vectors, ret);
		return ret;
	}
	ldev->num_irqs = ldev->vectors;
	for (v = 0; v < ldev->vectors; v++) {
		vec = &ldev->vec[v];
		vec->ldev = ldev;
		vec->vector = v;
		snprintf(vec->name, sizeof(vec->name), "warden-link-%s-%u",
			 ldev->name, v);
		irq = pci_irq_vector(pdev, v);
		ret = irq < 0 ? irq
			      : request_irq(irq, link_irq, 0, vec->name, vec);
		if (ret) {
			dev_err(&pdev->dev,
				"warden: link %s: cannot request the interrupt "
				"of vector %u (%d)\n",
				ldev->name, v, ret);
			free_irqs(ldev);
			return ret;
		}
		vec->irq = irq;
	}
	return 0;
}

/*
 * The function describes itself (link.h, ABI revision 9): read the
 * link's name, index, this peer's index, the peers, flags, vectors and
 * the memory's geometry from BAR 0 once, and check that they hold
 * together and agree with BAR 2 (warden_link_self_fault).  0, or -ENODEV
 * with the cause logged.  Nothing comes from the system config: root
 * binds its functions this way, and so does a Linux cell, which has none.
 */
static int read_registers(struct wd_link_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;
	struct warden_link_self s;
	const char *what;
	u32 i, w;

	s.revision = reg_read(ldev, WARDEN_LINK_REG_REVISION);
	for (i = 0; i < WARDEN_NAME_LEN; i += 4) {
		w = reg_read(ldev, WARDEN_LINK_REG_NAME + i);
		memcpy(s.name + i, &w, 4); /* little-endian: byte 0 low */
	}
	s.index = reg_read(ldev, WARDEN_LINK_REG_LINK_INDEX);
	s.id = reg_read(ldev, WARDEN_LINK_REG_ID);
	s.num_peers = reg_read(ldev, WARDEN_LINK_REG_NUM_PEERS);
	s.flags = reg_read(ldev, WARDEN_LINK_REG_FLAGS);
	s.vectors = reg_read(ldev, WARDEN_LINK_REG_VECTORS);
	s.shmem = reg_read64(ldev, WARDEN_LINK_REG_SHMEM);
	s.size = reg_read64(ldev, WARDEN_LINK_REG_SHMEM_SIZE);
	s.section_size = reg_read64(ldev, WARDEN_LINK_REG_SECTION_SIZE);
	what = warden_link_self_fault(&s, pci_resource_start(pdev, 2),
				      pci_resource_len(pdev, 2));
	if (what) {
		s.name[WARDEN_NAME_LEN - 1] = '\0';
		dev_err(&pdev->dev,
			"warden: link function: register %s makes no sense "
			"(revision %u, name \"%s\", link %u, ID %u, %u peers, "
			"flags 0x%x, %u vectors, memory 0x%llx+0x%llx, BAR 2 "
			"%pR, section 0x%llx)%s\n",
			what, s.revision,
			warden_link_self_name_ok(s.name) ? s.name : "?",
			s.index, s.id, s.num_peers, s.flags, s.vectors, s.shmem,
			s.size, &pdev->resource[2], s.section_size,
			s.revision ? ""
				   : ": a hypervisor of ABI revision 8 or "
				     "older, which this driver does not bind");
		return -ENODEV;
	}
	memcpy(ldev->name, s.name, WARDEN_NAME_LEN);
	ldev->index = s.index;
	ldev->id = s.id;
	ldev->num_peers = s.num_peers;
	ldev->flags = s.flags;
	ldev->vectors = s.vectors;
	ldev->shmem_phys = s.shmem;
	ldev->shmem_size = s.size;
	ldev->section_size = s.section_size;
	return 0;
}

/* Map BAR 0, read what the function says of itself, map BAR 2: 0 or an
 * error, logged. */
static int map_bars(struct wd_link_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;
	u16 cmd;
	int ret;

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, 0) < WARDEN_LINK_REGS_SIZE) {
		dev_err(&pdev->dev,
			"warden: link function: BAR 0 %pR is not %u bytes of "
			"memory\n",
			&pdev->resource[0], WARDEN_LINK_REGS_SIZE);
		return -ENODEV;
	}
	/* what pci_enable_device would do besides claiming: the function has
	 * no power management, so this only records D0, which MSI-X wants */
	pci_set_power_state(pdev, PCI_D0);
	if (pdev->current_state != PCI_D0) {
		dev_err(&pdev->dev, "warden: link function: not in D0\n");
		return -ENODEV;
	}
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(pdev, PCI_COMMAND,
			      cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	ldev->regs =
		ioremap(pci_resource_start(pdev, 0), WARDEN_LINK_REGS_SIZE);
	if (!ldev->regs) {
		dev_err(&pdev->dev, "warden: link function: cannot map BAR "
				    "0\n");
		return -ENOMEM;
	}
	ret = read_registers(ldev);
	if (ret)
		return ret;
	/* memory Linux does not use as RAM (root: the memmap= reservation;
	 * a Linux cell: outside its e820 RAM): write-back */
	ldev->mem = memremap(ldev->shmem_phys, ldev->shmem_size, MEMREMAP_WB);
	if (!ldev->mem) {
		dev_err(&pdev->dev,
			"warden: link %s: cannot map the link memory "
			"0x%llx+0x%llx\n",
			ldev->name, ldev->shmem_phys, ldev->shmem_size);
		return -ENOMEM;
	}
	if (warden_link_rings_setup(&ldev->rings, ldev->mem, NULL,
				    ldev->section_size, ldev->id,
				    ldev->num_peers)) {
		dev_err(&pdev->dev,
			"warden: link %s: sections of 0x%llx bytes hold no "
			"rings\n",
			ldev->name, ldev->section_size);
		return -ENODEV;
	}
	return 0;
}

static void unmap_bars(struct wd_link_dev *ldev)
{
	u16 cmd;

	if (ldev->mem)
		memunmap(ldev->mem);
	ldev->mem = NULL;
	if (ldev->regs)
		iounmap(ldev->regs);
	ldev->regs = NULL;
	pci_read_config_word(ldev->pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(ldev->pdev, PCI_COMMAND,
			      cmd & ~(PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER));
}

static int link_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct wd_link_dev *ldev;
	int ret;

	if (pci_domain_nr(pdev->bus)) {
		dev_err(&pdev->dev, "warden: a link function is in PCI segment "
				    "0 only\n");
		return -ENODEV;
	}
	ldev = kzalloc(sizeof(*ldev), GFP_KERNEL);
	if (!ldev)
		return -ENOMEM;
	kref_init(&ldev->kref);
	spin_lock_init(&ldev->ring_lock);
	init_waitqueue_head(&ldev->wait);
	mutex_init(&ldev->file_lock);
	INIT_LIST_HEAD(&ldev->files);
	ldev->pdev = pdev;
	pci_set_drvdata(pdev, ldev);

	ret = map_bars(ldev);
	if (ret)
		goto fail_unmap;
	ldev->msg_vector =
		warden_link_vector(WARDEN_LINK_CHANNEL_MSG, ldev->vectors);
	ldev->net_vector =
		warden_link_vector(WARDEN_LINK_CHANNEL_NET, ldev->vectors);
	/* root's section: zeroed header, geometry, magic; STATE is down */
	warden_link_ring_init(&ldev->rings);
	wd_link_net_add(ldev); /* none is no reason to fail: logged */
	ret = request_irqs(ldev);
	if (ret)
		goto fail_net;
	/* the peers up now came up for us (our indexes are zero) */
	update_states(ldev);
	ret = wd_link_cdev_add(ldev);
	if (ret)
		goto fail_irqs;
	writel(WARDEN_LINK_STATE_UP, ldev->regs + WARDEN_LINK_REG_STATE);
	wd_link_set_probed(ldev->index, ldev);
	dev_info(&pdev->dev,
		 "warden: link %s: peer %u of %u, %u vectors, /dev/%s, "
		 "interface %s\n",
		 ldev->name, ldev->id, ldev->num_peers, ldev->vectors,
		 ldev->dev_name, ldev->ndev ? ldev->ndev->name : "none");
	return 0;

fail_irqs:
	free_irqs(ldev);
fail_net:
	wd_link_net_remove(ldev);
	warden_link_ring_fini(&ldev->rings);
fail_unmap:
	unmap_bars(ldev);
	pci_set_drvdata(pdev, NULL);
	wd_link_put(ldev);
	return ret;
}

static void link_remove(struct pci_dev *pdev)
{
	struct wd_link_dev *ldev = pci_get_drvdata(pdev);

	wd_link_set_probed(ldev->index, NULL);
	/* peers stop sending to us: magic cleared, then STATE down */
	warden_link_ring_fini(&ldev->rings);
	writel(WARDEN_LINK_STATE_DOWN, ldev->regs + WARDEN_LINK_REG_STATE);
	/* no handler runs from here on; then nothing uses the device */
	free_irqs(ldev);
	wd_link_cdev_remove(ldev);
	wd_link_net_remove(ldev);
	unmap_bars(ldev);
	pci_set_drvdata(pdev, NULL);
	dev_info(&pdev->dev, "warden: link %s: removed\n", ldev->name);
	wd_link_put(ldev);
}

static const struct pci_device_id link_ids[] = {
	{ PCI_DEVICE(WARDEN_LINK_VENDOR_ID, WARDEN_LINK_DEVICE_ID) },
	{ 0 },
};
MODULE_DEVICE_TABLE(pci, link_ids);

struct pci_driver wd_link_pci_driver = {
	.name = "warden-link",
	.id_table = link_ids,
	.probe = link_probe,
	.remove = link_remove,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * Links in Linux: each link of the system config that has a root peer is
 * a virtual PCI function that the hypervisor emulates at that peer's bdf.
 * Linux did not see it at boot, so after enable the driver scans that one
 * address and adds the function, and before disable it takes it out again
 * (docs/driver.md "Links").
 *
 * BAR 0 (registers, MSI-X) lies in root's device memory and is claimed
 * like any BAR.  BAR 2 is the link memory, inside root's RAM (the
 * memmap= reservation), outside every host bridge window: it cannot be
 * claimed, and is marked fixed so that a later resource assignment
 * (a rescan) leaves it alone.
 *
 * The links themselves (the system config's copy, the probed functions)
 * are link_table.c's; this file puts the functions in and takes them out,
 * with their sysfs directories, and registers the pci_driver.
 */
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <warden/config.h>

#include "warden-driver.h"
#include "wd-link.h"

/* Held around start and stop, and by disable from its stop until the
 * hypervisor is gone or the refusal restarted the links. */
static DEFINE_MUTEX(start_lock);
/* start_lock */
static bool started;
static u32 started_len;
static struct {
	struct wd_link_dir *dir;
	bool has_fn; /* root is a peer: its function was put in */
	u8 bus, devfn;
} started_links[WARDEN_MAX_LINKS];

static bool is_link_fn(const struct pci_dev *dev)
{
	return dev->vendor == WARDEN_LINK_VENDOR_ID &&
	       dev->device == WARDEN_LINK_DEVICE_ID;
}

/*
 * Put the function of root's peer of link l (index) into Linux: scan its
 * address, claim BAR 0, add it (the pci_driver probes it then).  Returns
 * whether the function is in.
 */
static bool add_function(const struct warden_link *l, u32 index, int peer)
{
	u16 bdf = l->peers[peer].bdf;
	u8 busnr = bdf >> 8, devfn = bdf & 0xff;
	struct pci_bus *bus;
	struct pci_dev *dev;
	bool in = false;
	int ret;

	pci_lock_rescan_remove();
	bus = pci_find_bus(0, busnr);
	if (!bus) {
		pr_err("warden: link %s: Linux has no PCI bus %02x for its "
		       "function %02x:%02x.%u; the link has no device\n",
		       l->name, busnr, busnr, PCI_SLOT(devfn), PCI_FUNC(devfn));
		goto out;
	}
	dev = pci_get_slot(bus, devfn);
	if (dev) {
		/* a rescan found it first, or a real function sits there
		 * (the validator's rule 184 forbids that) */
		in = is_link_fn(dev);
		if (!in)
			pr_err("warden: link %s: %s is function %04x:%04x, not "
			       "the link's; the link has no device\n",
			       l->name, pci_name(dev), dev->vendor,
			       dev->device);
		pci_dev_put(dev);
		goto out;
	}
	dev = pci_scan_single_device(bus, devfn);
	if (!dev) {
		pr_err("warden: link %s: no function answers at "
		       "%02x:%02x.%u; the hypervisor does not show it\n",
		       l->name, busnr, PCI_SLOT(devfn), PCI_FUNC(devfn));
		goto out;
	}
	if (!is_link_fn(dev)) {
		pr_err("warden: link %s: %s is function %04x:%04x, not the "
		       "link's; the link has no device\n",
		       l->name, pci_name(dev), dev->vendor, dev->device);
		pci_stop_and_remove_bus_device(dev);
		goto out;
	}
	dev->resource[2].flags |= IORESOURCE_PCI_FIXED;
	ret = pci_claim_resource(dev, 0);
	if (ret) {
		pr_err("warden: link %s: %s: BAR 0 %pR cannot be claimed "
		       "(%d): regs_address must lie in a PCI window of the "
		       "host bridge, clear of other devices (see "
		       "/proc/iomem); the link has no device\n",
		       l->name, pci_name(dev), &dev->resource[0], ret);
		pci_stop_and_remove_bus_device(dev);
		goto out;
	}
	pci_bus_add_device(dev);
	in = true;
out:
	pci_unlock_rescan_remove();
	return in;
}

/* Take the link function at bus/devfn out of Linux, if it is there: its
 * driver's remove runs first (STATE down). */
static void remove_function(u8 busnr, u8 devfn)
{
	struct pci_dev *dev = pci_get_domain_bus_and_slot(0, busnr, devfn);

	if (!dev)
		return; /* taken out by hand (sysfs remove) */
	if (is_link_fn(dev))
		pci_stop_and_remove_bus_device_locked(dev);
	pci_dev_put(dev);
}

/* start_lock held. */
static void start_locked(void)
{
	struct warden_link *links;
	u32 num, i;
	int peer;

	if (started)
		return;
	links = wd_links_copy(&num);
	if (!links) {
		if (num)
			pr_err("warden: links: no memory; the links have no "
			       "devices\n");
		return;
	}
	started = true;
	started_len = num;
	for (i = 0; i < num; i++) {
		peer = wd_link_root_peer(&links[i]);
		started_links[i].dir = wd_link_dir_add(&links[i], i, peer);
		started_links[i].has_fn = false;
		if (peer < 0)
			continue;
		started_links[i].bus = links[i].peers[peer].bdf >> 8;
		started_links[i].devfn = links[i].peers[peer].bdf & 0xff;
		started_links[i].has_fn = add_function(&links[i], i, peer);
	}
	kfree(links);
}

void wd_links_start(void)
{
	mutex_lock(&start_lock);
	start_locked();
	mutex_unlock(&start_lock);
}

void wd_links_stop(void)
{
	u32 i;

	mutex_lock(&start_lock);
	if (!started)
		return;
	for (i = 0; i < started_len; i++) {
		if (started_links[i].has_fn)
			remove_function(started_links[i].bus,
					started_links[i].devfn);
		wd_link_dir_remove(started_links[i].dir);
		started_links[i].dir = NULL;
		started_links[i].has_fn = false;
	}
	started = false;
	started_len = 0;
}

void wd_links_resume(bool restart)
{
	if (restart)
		start_locked();
	mutex_unlock(&start_lock);
}

int wd_links_init(void)
{
	int ret = wd_link_sysfs_init();

	if (ret)
		return ret;
	ret = pci_register_driver(&wd_link_pci_driver);
	if (ret)
		wd_link_sysfs_exit();
	return ret;
}

void wd_links_exit(void)
{
	wd_links_stop();
	wd_links_resume(false);
	pci_unregister_driver(&wd_link_pci_driver);
	wd_link_sysfs_exit();
	wd_links_table_exit();
}

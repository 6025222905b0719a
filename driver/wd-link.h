/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the driver's links (docs/driver.md "Links"):
 *
 *   link_pci.c    the virtual PCI functions put into Linux at enable and
 *                 taken out at disable, with their directories; the
 *                 pci_driver's registration
 *   link_dev.c    probe and remove of a function: registers, interrupts,
 *                 root's section of the ring protocol
 *   link_cdev.c   /dev/warden-link-NAME
 *   link_net.c    the net interface wl-NAME
 *   link_sysfs.c  /sys/kernel/warden/links/NAME/
 *   link_table.c  the links of the system config while Warden is enabled
 *                 and the function probed for each
 *   link_handle.c a probed function as its users hold it: reference,
 *                 peer states, doorbell
 *
 * Calls go down this list's layers only: link_pci.c -> link_dev.c ->
 * link_cdev.c, link_net.c -> link_handle.c; link_sysfs.c and link_dev.c
 * -> link_table.c.
 *
 * Locks, outermost first: start_lock (link_pci.c: putting functions in
 * and taking them out, directories), the PCI core's locks (device_lock
 * around probe and remove, rtnl in the net interface), then wd_lock and
 * table_lock (link_table.c: the table and the probed devices), each held
 * briefly and never around a call into the PCI core or sysfs.  The ring
 * lock of a device (struct wd_link_dev.ring_lock, a spinlock taken in its
 * interrupt handler) is innermost.
 */
#ifndef WARDEN_DRIVER_LINK_H
#define WARDEN_DRIVER_LINK_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

/* The ring protocol's barriers (link_ring.h): WMB must order earlier
 * loads as well as stores before later stores, which smp_wmb() does not
 * promise; smp_mb() does. */
#define WARDEN_LINK_RMB() smp_rmb()
#define WARDEN_LINK_WMB() smp_mb()
#include <warden/config.h>
#include <warden/link.h>
#include <warden/link_ring.h>
#include <warden/link_self.h>

struct warden_system_desc;
struct net_device;
struct wd_link_dev;

/* One MSI-X vector of a probed function, the cookie of its handler. */
struct wd_link_vec {
	struct wd_link_dev *ldev;
	u32 vector;
	int irq;			 /* 0 until requested */
	char name[WARDEN_NAME_LEN + 24]; /* warden-link-NAME-N */
};

/*
 * A probed virtual function (this kernel's peer of one link: root's, or
 * a Linux cell's).  It lives from
 * probe until remove and the last open file of its character device,
 * whichever comes later (kref).
 */
struct wd_link_dev {
	struct kref kref;
	struct pci_dev *pdev;
	/* what the function says of itself in BAR 0 (link.h) */
	char name[WARDEN_NAME_LEN]; /* NAME: the link's */
	u32 index;		    /* LINK_INDEX: in the system config */
	u32 id;			    /* ID: this peer's index */
	u32 num_peers, vectors, flags;
	u64 section_size;
	u64 shmem_phys, shmem_size; /* SHMEM, SHMEM_SIZE (= BAR 2) */
	void __iomem *regs;	    /* BAR 0 */
	void *mem;		    /* BAR 2, the whole link memory, WB */
	struct warden_link_rings rings;
	u32 msg_vector, net_vector; /* ours, by warden_link_vector() */
	struct wd_link_vec vec[WARDEN_LINK_MAX_VECTORS];
	unsigned int num_irqs; /* vectors allocated */

	/* Taken in the interrupt handlers: the ring indexes of root's
	 * section (the reset of a peer that came up against a send or
	 * receive on the net channel) and the fields below. */
	spinlock_t ring_lock;
	u32 peer_states;			 /* PEER_STATES as last read */
	u32 peer_vectors[WARDEN_LINK_MAX_PEERS]; /* read when a peer came up */
	u32 doorbells;	   /* free-running: doorbells for the char device */
	u32 state_changes; /* free-running: peer state changes seen */
	wait_queue_head_t wait; /* readers of the char device */

	/* The character device (link_cdev.c).  file_lock: gone, files. */
	struct mutex file_lock;
	bool gone; /* removed: file operations fail with -ENODEV */
	struct list_head files;
	struct miscdevice misc;
	bool misc_added;
	char dev_name[WARDEN_NAME_LEN + 16]; /* warden-link-NAME */

	struct net_device *ndev; /* link_net.c, NULL if none */
};

/* ---- link_pci.c ---- */

/* Module load and unload: the pci_driver and /sys/kernel/warden/links.
 * wd_links_exit takes out the functions still in (unload while Warden is
 * enabled). */
int wd_links_init(void);
void wd_links_exit(void);
/*
 * Without wd_lock.  wd_links_start (after enable): create the directories
 * and put the functions of root's peers into Linux.  wd_links_stop
 * (before the disable hypercalls, and at unload): take them out and
 * remove the directories; it returns holding start_lock, so that no start
 * slips in before the hypervisor is gone, and wd_links_resume releases it
 * (restart: start again, as disable failed).  Failures are logged, named,
 * and leave the link without a device.
 */
void wd_links_start(void);
void wd_links_stop(void);
void wd_links_resume(bool restart);

/* ---- link_table.c ---- */

/* Enable, under wd_lock once the hypervisor runs: keep a copy of the
 * links of the system config sys (config_size bytes from its header,
 * already validated). */
void wd_links_set(const struct warden_system_desc *sys, u32 config_size);
/* Disable, under wd_lock once the hypervisor is gone: drop the copy. */
void wd_links_forget(void);
/* Module unload (no wd_lock): drop the copy if there is one. */
void wd_links_table_exit(void);
/* A copy of the links (kmalloc'ed, the caller frees it) and their number
 * into *num; NULL when there are none or no memory (*num says which). */
struct warden_link *wd_links_copy(u32 *num);
/* Root's peer index in link l, or -1 (after wd_links_set). */
int wd_link_root_peer(const struct warden_link *l);
/* Probe and remove publish the device of link index (NULL: none). */
void wd_link_set_probed(u32 index, struct wd_link_dev *ldev);
/* For sysfs: the node and interface of link index, or "-" for either that
 * does not exist. */
void wd_link_names(u32 index, char *node, size_t node_len, char *net,
		   size_t net_len);

/* ---- link_dev.c ---- */

extern struct pci_driver wd_link_pci_driver;

/* ---- link_handle.c ---- */

/* The peer's state bits as last read (ring_lock taken inside). */
u32 wd_link_peer_states(struct wd_link_dev *ldev);
/* Ring peer's doorbell on vector.  The caller checked both. */
void wd_link_ring_doorbell(struct wd_link_dev *ldev, u32 peer, u32 vector);
/* A reference that keeps ldev alive (the last put frees it). */
void wd_link_get(struct wd_link_dev *ldev);
void wd_link_put(struct wd_link_dev *ldev);

/* ---- link_cdev.c ---- */

/* Register /dev/warden-link-NAME; take it away: open files fail with
 * -ENODEV from then on, their mappings are zapped (an access faults). */
int wd_link_cdev_add(struct wd_link_dev *ldev);
void wd_link_cdev_remove(struct wd_link_dev *ldev);

/* ---- link_net.c ---- */

/* Register the interface wl-NAME (ldev->ndev stays NULL on failure);
 * unregister it. */
int wd_link_net_add(struct wd_link_dev *ldev);
void wd_link_net_remove(struct wd_link_dev *ldev);
/* From the interrupt handlers: a doorbell on the net channel's vector;
 * the peer states changed to states. */
void wd_link_net_doorbell(struct wd_link_dev *ldev);
void wd_link_net_states(struct wd_link_dev *ldev, u32 states);

/* ---- link_sysfs.c ---- */

/* /sys/kernel/warden/links, at module load and unload. */
int wd_link_sysfs_init(void);
void wd_link_sysfs_exit(void);
/* The directory of link index (a copy of cfg is kept, root's peer index
 * local_peer or -1); removing it waits for its readers. */
struct wd_link_dir;
struct wd_link_dir *wd_link_dir_add(const struct warden_link *cfg, u32 index,
				    int local_peer);
void wd_link_dir_remove(struct wd_link_dir *dir);

#endif /* WARDEN_DRIVER_LINK_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/warden/links/: a directory per link of the system config
 * while Warden is enabled (the contract of "warden link list"):
 *
 *   index       the link's index in the system config
 *   memory      "0x33c00000 0x100000"
 *   access      "directional" or "read-write"
 *   local_peer  root's peer index, -1 if root is not a peer
 *   device      /dev/warden-link-NAME, or "-" (root no peer, no device)
 *   netdev      the interface (wl-NAME), or "-"
 *   peers       a line per peer: "<index> <cell> <bb:dd.f> <vectors>
 *               <present|absent> <up|down>", the states from the
 *               hypervisor (WARDEN_HC_LINK_GET_STATE)
 *
 * The directories are made and removed by link_pci.c without wd_lock or
 * the table lock held, as removal waits for readers, who take them.
 */
#include <linux/if.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "warden-driver.h"
#include "wd-link.h"

struct wd_link_dir {
	struct kobject kobj;
	struct warden_link cfg;
	u32 index;
	int local_peer;
};

static struct kobject *links_kobj;

static struct wd_link_dir *to_dir(struct kobject *kobj)
{
	return container_of(kobj, struct wd_link_dir, kobj);
}

static void dir_release(struct kobject *kobj)
{
	kfree(to_dir(kobj));
}

static ssize_t index_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", to_dir(kobj)->index);
}

static ssize_t memory_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct wd_link_dir *dir = to_dir(kobj);

	return sysfs_emit(buf, "0x%llx 0x%llx\n", dir->cfg.phys_start,
			  dir->cfg.size);
}

static ssize_t access_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  to_dir(kobj)->cfg.flags & WARDEN_LINK_DIRECTIONAL
				  ? "directional"
				  : "read-write");
}

static ssize_t local_peer_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_dir(kobj)->local_peer);
}

static ssize_t device_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	char node[WARDEN_NAME_LEN + 24], net[IFNAMSIZ];

	wd_link_names(to_dir(kobj)->index, node, sizeof(node), net,
		      sizeof(net));
	return sysfs_emit(buf, "%s\n", node);
}

static ssize_t netdev_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	char node[WARDEN_NAME_LEN + 24], net[IFNAMSIZ];

	wd_link_names(to_dir(kobj)->index, node, sizeof(node), net,
		      sizeof(net));
	return sysfs_emit(buf, "%s\n", net);
}

static ssize_t peers_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct wd_link_dir *dir = to_dir(kobj);
	const struct warden_link_peer *p;
	ssize_t len = 0;
	long state;
	u32 i;

	if (mutex_lock_interruptible(&wd_lock))
		return -ERESTARTSYS;
	state = wd_is_enabled()
			? wd_hypercall(WARDEN_HC_LINK_GET_STATE, dir->index, 0)
			: -ENODEV;
	mutex_unlock(&wd_lock);
	if (state < 0)
		return state;
	for (i = 0; i < dir->cfg.num_peers && i < WARDEN_LINK_MAX_PEERS; i++) {
		p = &dir->cfg.peers[i];
		len += sysfs_emit_at(buf, len,
				     "%u %.*s %02x:%02x.%u %u %s %s\n", i,
				     WARDEN_NAME_LEN, p->cell, p->bdf >> 8,
				     PCI_SLOT(p->bdf & 0xff),
				     PCI_FUNC(p->bdf & 0xff), p->vectors,
				     state & BIT(8 + i) ? "present" : "absent",
				     state & BIT(i) ? "up" : "down");
	}
	return len;
}

static struct kobj_attribute index_attr = __ATTR_RO(index);
static struct kobj_attribute memory_attr = __ATTR_RO(memory);
static struct kobj_attribute access_attr = __ATTR_RO(access);
static struct kobj_attribute local_peer_attr = __ATTR_RO(local_peer);
static struct kobj_attribute device_attr = __ATTR_RO(device);
static struct kobj_attribute netdev_attr = __ATTR_RO(netdev);
static struct kobj_attribute peers_attr = __ATTR_RO(peers);

static struct attribute *link_attrs[] = {
	&index_attr.attr,  &memory_attr.attr,
	&access_attr.attr, &local_peer_attr.attr,
	&device_attr.attr, &netdev_attr.attr,
	&peers_attr.attr,  NULL,
};
ATTRIBUTE_GROUPS(link);

static const struct kobj_type link_ktype = {
	.release = dir_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = link_groups,
};

struct wd_link_dir *wd_link_dir_add(const struct warden_link *cfg, u32 index,
				    int local_peer)
{
	struct wd_link_dir *dir;
	int ret;

	if (!links_kobj)
		return NULL;
	dir = kzalloc(sizeof(*dir), GFP_KERNEL);
	if (!dir) {
		pr_warn("warden: link %u has no sysfs directory (no memory)\n",
			index);
		return NULL;
	}
	dir->cfg = *cfg;
	dir->cfg.name[WARDEN_NAME_LEN - 1] = '\0';
	dir->index = index;
	dir->local_peer = local_peer;
	/* a '/' in the name becomes '!' (kobject names) */
	ret = kobject_init_and_add(&dir->kobj, &link_ktype, links_kobj, "%s",
				   dir->cfg.name);
	if (ret) {
		pr_warn("warden: link %s has no sysfs directory (%d)\n",
			dir->cfg.name, ret);
		kobject_put(&dir->kobj); /* frees it */
		return NULL;
	}
	return dir;
}

void wd_link_dir_remove(struct wd_link_dir *dir)
{
	if (dir)
		kobject_put(&dir->kobj); /* removes the directory, frees it */
}

int wd_link_sysfs_init(void)
{
	links_kobj = kobject_create_and_add("links", wd_sysfs_kobj());
	return links_kobj ? 0 : -ENOMEM;
}

void wd_link_sysfs_exit(void)
{
	kobject_put(links_kobj);
	links_kobj = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The links while Warden is enabled: a copy of the system config's links
 * (kept from enable to disable) and the function probed for each, under
 * table_lock, which is held briefly and never around a call into the PCI
 * core or sysfs.  Probe publishes its device here (it reads everything
 * else from the function's BAR 0); the links' sysfs directories read the
 * names of its device and interface here.
 */
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <warden/config.h>

#include "warden-driver.h"
#include "wd-link.h"

/* The table and the probed devices: held briefly, never around a call
 * into the PCI core. */
static DEFINE_MUTEX(table_lock);

/* table_lock */
static struct warden_link *table; /* copy of the system config's links */
static u32 table_len;
static char root_name[WARDEN_NAME_LEN];
static struct wd_link_dev *probed[WARDEN_MAX_LINKS];

/* Root's peer index in link l, or -1 (root_name set). */
int wd_link_root_peer(const struct warden_link *l)
{
	u32 i;

	for (i = 0; i < l->num_peers && i < WARDEN_LINK_MAX_PEERS; i++)
		if (!strncmp(l->peers[i].cell, root_name, WARDEN_NAME_LEN))
			return i;
	return -1;
}

void wd_links_set(const struct warden_system_desc *sys, u32 config_size)
{
	const struct warden_link *links = warden_system_links(sys);
	u32 num = sys->platform.num_links;
	u64 end = (u64)((const char *)(links + num) - (const char *)sys) +
		  sizeof(struct warden_config_header);

	lockdep_assert_held(&wd_lock);
	mutex_lock(&table_lock);
	kfree(table);
	table = NULL;
	table_len = 0;
	if (num > WARDEN_MAX_LINKS || end > config_size) {
		/* the validator refuses such a config: never here */
		pr_err("warden: links: %u links end at byte %llu of a config "
		       "of %u bytes; no links\n",
		       num, end, config_size);
	} else if (num) {
		table = kmemdup(links, num * sizeof(*links), GFP_KERNEL);
		if (table)
			table_len = num;
		else
			pr_err("warden: links: no memory for %u links; no "
			       "links\n",
			       num);
	}
	strscpy(root_name, sys->root_cell.name, sizeof(root_name));
	mutex_unlock(&table_lock);
}

void wd_links_forget(void)
{
	lockdep_assert_held(&wd_lock);
	mutex_lock(&table_lock);
	kfree(table);
	table = NULL;
	table_len = 0;
	mutex_unlock(&table_lock);
}

struct warden_link *wd_links_copy(u32 *num)
{
	struct warden_link *links = NULL;

	*num = 0;
	mutex_lock(&table_lock);
	if (table) {
		links = kmemdup(table, table_len * sizeof(*table), GFP_KERNEL);
		*num = table_len;
	}
	mutex_unlock(&table_lock);
	return links;
}

void wd_links_table_exit(void)
{
	mutex_lock(&table_lock);
	kfree(table);
	table = NULL;
	table_len = 0;
	mutex_unlock(&table_lock);
}

void wd_link_set_probed(u32 index, struct wd_link_dev *ldev)
{
	if (index >= WARDEN_MAX_LINKS)
		return;
	mutex_lock(&table_lock);
	probed[index] = ldev;
	mutex_unlock(&table_lock);
}

void wd_link_names(u32 index, char *node, size_t node_len, char *net,
		   size_t net_len)
{
	struct wd_link_dev *ldev;

	strscpy(node, "-", node_len);
	strscpy(net, "-", net_len);
	if (index >= WARDEN_MAX_LINKS)
		return;
	mutex_lock(&table_lock);
	ldev = probed[index];
	if (ldev && ldev->misc_added)
		snprintf(node, node_len, "/dev/%s", ldev->dev_name);
	/* the name as it is now: renames take rtnl, which a sysfs reader
	 * must not wait for here; a torn name is at worst a stale one */
	if (ldev && ldev->ndev)
		strscpy(net, ldev->ndev->name, net_len);
	mutex_unlock(&table_lock);
}

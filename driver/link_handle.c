// SPDX-License-Identifier: GPL-2.0
/*
 * A probed link function as its users hold it (the character device, the
 * net interface, probe and remove): a reference that keeps struct
 * wd_link_dev alive, the peers' states as last read, a peer's doorbell.
 */
#include <linux/io.h>
#include <linux/kref.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "wd-link.h"

void wd_link_get(struct wd_link_dev *ldev)
{
	kref_get(&ldev->kref);
}

static void link_release(struct kref *kref)
{
	kfree(container_of(kref, struct wd_link_dev, kref));
}

void wd_link_put(struct wd_link_dev *ldev)
{
	kref_put(&ldev->kref, link_release);
}

u32 wd_link_peer_states(struct wd_link_dev *ldev)
{
	unsigned long flags;
	u32 states;

	spin_lock_irqsave(&ldev->ring_lock, flags);
	states = ldev->peer_states;
	spin_unlock_irqrestore(&ldev->ring_lock, flags);
	return states;
}

void wd_link_ring_doorbell(struct wd_link_dev *ldev, u32 peer, u32 vector)
{
	writel(WARDEN_LINK_DOORBELL(peer, vector),
	       ldev->regs + WARDEN_LINK_REG_DOORBELL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/warden-link-NAME: the link for user space (link.h section 4).
 *
 *   read/poll  one struct warden_link_event: doorbells on the vectors
 *              other than the net channel's, and peer state changes,
 *              since this file's last read (each open file counts its
 *              own, against the device's free-running counters)
 *   mmap       the link memory from offset 0, shared mappings only;
 *              writable only inside root's section on a DIRECTIONAL link
 *   ioctl      INFO, RING
 *
 * When the function goes (disable, unbind), open files stay valid but
 * fail with -ENODEV, and their mappings are zapped: an access after that
 * raises SIGBUS instead of reaching memory the link no longer owns.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "warden-driver.h"
#include "wd-link.h"

struct link_file {
	struct wd_link_dev *ldev;
	struct file *file;
	struct list_head node; /* on ldev->files (file_lock) */
	/* the device's counters at this file's last read (ring_lock) */
	u32 seen_doorbells, seen_changes;
};

/* Take the new events of f (ring_lock): false if there are none. */
static bool take_event(struct link_file *f, struct warden_link_event *ev,
		       bool take)
{
	struct wd_link_dev *ldev = f->ldev;
	unsigned long flags;
	bool any;

	spin_lock_irqsave(&ldev->ring_lock, flags);
	ev->doorbells = ldev->doorbells - f->seen_doorbells;
	ev->state_changes = ldev->state_changes - f->seen_changes;
	ev->peer_states = ldev->peer_states;
	ev->reserved = 0;
	any = ev->doorbells || ev->state_changes;
	if (any && take) {
		f->seen_doorbells = ldev->doorbells;
		f->seen_changes = ldev->state_changes;
	}
	spin_unlock_irqrestore(&ldev->ring_lock, flags);
	return any;
}

static int link_open(struct inode *inode, struct file *file)
{
	/* misc_open set private_data to our miscdevice, and holds the misc
	 * lock: deregistration (and so the last put) waits for us */
	struct wd_link_dev *ldev =
		container_of(file->private_data, struct wd_link_dev, misc);
	struct link_file *f = kzalloc(sizeof(*f), GFP_KERNEL);
	unsigned long flags;

	if (!f)
		return -ENOMEM;
	mutex_lock(&ldev->file_lock);
	if (ldev->gone) {
		mutex_unlock(&ldev->file_lock);
		kfree(f);
		return -ENODEV;
	}
	wd_link_get(ldev);
	f->ldev = ldev;
	f->file = file;
	spin_lock_irqsave(&ldev->ring_lock, flags);
	f->seen_doorbells = ldev->doorbells;
	f->seen_changes = ldev->state_changes;
	spin_unlock_irqrestore(&ldev->ring_lock, flags);
	list_add(&f->node, &ldev->files);
	mutex_unlock(&ldev->file_lock);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int link_release(struct inode *inode, struct file *file)
{
	struct link_file *f = file->private_data;
	struct wd_link_dev *ldev = f->ldev;

	mutex_lock(&ldev->file_lock);
	list_del(&f->node);
	mutex_unlock(&ldev->file_lock);
	kfree(f);
	wd_link_put(ldev);
	return 0;
}

static ssize_t link_read(struct file *file, char __user *buf, size_t len,
			 loff_t *ppos)
{
	struct link_file *f = file->private_data;
	struct wd_link_dev *ldev = f->ldev;
	struct warden_link_event ev;
	int ret;

	if (len < sizeof(ev))
		return -EINVAL;
	while (!take_event(f, &ev, true)) {
		if (READ_ONCE(ldev->gone))
			return -ENODEV;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(ldev->wait,
					       take_event(f, &ev, false) ||
						       READ_ONCE(ldev->gone));
		if (ret)
			return ret;
	}
	if (copy_to_user(buf, &ev, sizeof(ev)))
		return -EFAULT;
	return sizeof(ev);
}

static __poll_t link_poll(struct file *file, poll_table *wait)
{
	struct link_file *f = file->private_data;
	struct warden_link_event ev;
	__poll_t mask = 0;

	poll_wait(file, &f->ldev->wait, wait);
	if (take_event(f, &ev, false))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(f->ldev->gone))
		mask |= EPOLLHUP | EPOLLERR;
	return mask;
}

/* A mapping's pages are all there from mmap on; a fault comes only after
 * the device went and zapped them. */
static vm_fault_t link_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct link_vm_ops = {
	.fault = link_fault,
};

static int link_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct link_file *f = file->private_data;
	struct wd_link_dev *ldev = f->ldev;
	u64 size = vma->vm_end - vma->vm_start;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 own = (u64)ldev->id * ldev->section_size;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL; /* a private copy of shared memory is none */
	if (vma->vm_pgoff > (ldev->shmem_size >> PAGE_SHIFT) ||
	    off >= ldev->shmem_size || size > ldev->shmem_size - off)
		return -EINVAL;
	if (ldev->flags & WARDEN_LINK_DIRECTIONAL &&
	    (off < own || off + size > own + ldev->section_size)) {
		/* one writer per direction: root writes its section only */
		if (vma->vm_flags & VM_WRITE)
			return -EACCES;
		vma->vm_flags &= ~VM_MAYWRITE;
	}
	mutex_lock(&ldev->file_lock);
	if (ldev->gone) {
		ret = -ENODEV;
	} else {
		vma->vm_ops = &link_vm_ops;
		/* ordinary RAM: the protection as the mapping asks, WB */
		ret = remap_pfn_range(vma, vma->vm_start,
				      PHYS_PFN(ldev->shmem_phys + off), size,
				      vma->vm_page_prot);
	}
	mutex_unlock(&ldev->file_lock);
	return ret;
}

static long link_info(struct wd_link_dev *ldev, void __user *arg)
{
	struct warden_link_info info = { 0 };
	u32 i;

	mutex_lock(&ldev->file_lock);
	if (ldev->gone) {
		mutex_unlock(&ldev->file_lock);
		return -ENODEV;
	}
	memcpy(info.name, ldev->name, sizeof(info.name));
	info.id = ldev->id;
	info.num_peers = ldev->num_peers;
	info.flags = ldev->flags;
	info.vectors = ldev->vectors;
	info.shmem_size = ldev->shmem_size;
	info.section_size = ldev->section_size;
	info.peer_states = readl(ldev->regs + WARDEN_LINK_REG_PEER_STATES);
	info.dropped = readl(ldev->regs + WARDEN_LINK_REG_DROPPED);
	for (i = 0; i < ldev->num_peers; i++)
		info.peer_vectors[i] =
			readl(ldev->regs + WARDEN_LINK_REG_PEER_VECTORS(i));
	mutex_unlock(&ldev->file_lock);
	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long link_ring(struct wd_link_dev *ldev, void __user *arg)
{
	struct warden_link_ring ring;
	long ret = 0;
	u32 states;

	if (copy_from_user(&ring, arg, sizeof(ring)))
		return -EFAULT;
	if (ring.peer >= ldev->num_peers || ring.peer == ldev->id)
		return -EINVAL;
	mutex_lock(&ldev->file_lock);
	if (ldev->gone) {
		ret = -ENODEV;
		goto out;
	}
	states = readl(ldev->regs + WARDEN_LINK_REG_PEER_STATES);
	if (!(states & BIT(ring.peer)))
		ret = -ENOTCONN;
	else if (ring.vector >=
		 readl(ldev->regs + WARDEN_LINK_REG_PEER_VECTORS(ring.peer)))
		ret = -EINVAL;
	else
		wd_link_ring_doorbell(ldev, ring.peer, ring.vector);
out:
	mutex_unlock(&ldev->file_lock);
	return ret;
}

static long link_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct link_file *f = file->private_data;

	switch (cmd) {
	case WARDEN_LINK_IOCTL_INFO:
		return link_info(f->ldev, (void __user *)arg);
	case WARDEN_LINK_IOCTL_RING:
		return link_ring(f->ldev, (void __user *)arg);
	}
	return -ENOTTY;
}

static const struct file_operations link_fops = {
	.owner = THIS_MODULE,
	.open = link_open,
	.release = link_release,
	.read = link_read,
	.poll = link_poll,
	.mmap = link_mmap,
	.unlocked_ioctl = link_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

int wd_link_cdev_add(struct wd_link_dev *ldev)
{
	int ret;

	snprintf(ldev->dev_name, sizeof(ldev->dev_name), "warden-link-%s",
		 ldev->name);
	ldev->misc.minor = MISC_DYNAMIC_MINOR;
	ldev->misc.name = ldev->dev_name;
	ldev->misc.fops = &link_fops;
	ldev->misc.parent = &ldev->pdev->dev;
	ldev->misc.mode = 0600;
	ret = misc_register(&ldev->misc);
	if (ret) {
		dev_err(&ldev->pdev->dev,
			"warden: link %s: cannot register /dev/%s (%d)\n",
			ldev->name, ldev->dev_name, ret);
		return ret;
	}
	ldev->misc_added = true;
	return 0;
}

void wd_link_cdev_remove(struct wd_link_dev *ldev)
{
	struct link_file *f;

	if (!ldev->misc_added)
		return;
	/* no open from here on; then the open files see gone */
	misc_deregister(&ldev->misc);
	ldev->misc_added = false;
	mutex_lock(&ldev->file_lock);
	WRITE_ONCE(ldev->gone, true);
	list_for_each_entry(f, &ldev->files, node)
		unmap_mapping_range(f->file->f_mapping, 0, 0, 1);
	mutex_unlock(&ldev->file_lock);
	wake_up_interruptible(&ldev->wait);
}

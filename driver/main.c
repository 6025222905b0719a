// SPDX-License-Identifier: GPL-2.0
/*
 * warden.ko: the Linux side of Warden.  It creates /dev/warden (ioctls in
 * include/warden/ioctl.h), /sys/devices/virtual/misc/warden and
 * /sys/kernel/warden (sysfs.c), and registers the driver of the links'
 * virtual PCI functions (link_*.c).
 *
 * Every ioctl argument starts with a struct warden_error; it is copied back
 * to user space on failure too, so that the CLI can explain the errno.
 * Only exported symbols of a stock distribution kernel are used.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <warden/config.h>

#include "hv_state.h"
#include "warden-driver.h"
#include "wd-link.h"

static long get_version(struct warden_version *v)
{
	v->abi_revision = WARDEN_ABI_REVISION;
	v->config_revision = WARDEN_CONFIG_REVISION;
	strscpy(v->driver_version, WARDEN_DRIVER_VERSION,
		sizeof(v->driver_version));
	return 0;
}

/* Dispatch on a kernel copy of the argument. */
static long dispatch(unsigned int cmd, void *arg)
{
	struct warden_error *err = arg;
	struct wd_reason why = { .rule = WARDEN_RULE_UNSUPPORTED,
				 .item_kind = WARDEN_ITEM_IOCTL,
				 .cpu = WARDEN_NO_CPU,
				 .values = { _IOC_NR(cmd) } };

	if (wd_in_cell() && cmd != WARDEN_IOCTL_GET_VERSION)
		return wd_refuse_in_cell(err, cmd == WARDEN_IOCTL_ENABLE
						      ? "enable"
						      : "this request");
	switch (cmd) {
	case WARDEN_IOCTL_GET_VERSION:
		return get_version(arg);
	case WARDEN_IOCTL_HW_PROBE:
		return wd_hw_probe(arg);
	case WARDEN_IOCTL_ENABLE:
		return wd_enable(arg);
	case WARDEN_IOCTL_DISABLE:
		return wd_disable(arg);
	case WARDEN_IOCTL_STATUS:
		return wd_status(arg);
	case WARDEN_IOCTL_CPU_INFO:
		return wd_cpu_info(arg);
	case WARDEN_IOCTL_CPU_ACCESS_LOG:
		return wd_cpu_access_log(arg);
	case WARDEN_IOCTL_CPU_ENTRY_FAILURE:
		return wd_cpu_entry_failure(arg);
	case WARDEN_IOCTL_CELL_CREATE:
		return wd_cell_create(arg);
	case WARDEN_IOCTL_CELL_DESTROY:
		return wd_cell_destroy(arg);
	case WARDEN_IOCTL_CELL_INFO:
		return wd_cell_info(arg);
	case WARDEN_IOCTL_CELL_LOAD:
		return wd_cell_load(arg);
	case WARDEN_IOCTL_CELL_START:
		return wd_cell_start(arg);
	case WARDEN_IOCTL_CELL_SHUTDOWN:
		return wd_cell_shutdown(arg);
	case WARDEN_IOCTL_CELL_SET_LOADABLE:
		return wd_error(err, -EOPNOTSUPP, &why,
				"ioctl 0x%x is not implemented by driver %s",
				_IOC_NR(cmd), WARDEN_DRIVER_VERSION);
	}
	return -ENOTTY;
}

static long wd_ioctl(struct file *file, unsigned int cmd, unsigned long uarg)
{
	void __user *user = (void __user *)uarg;
	size_t size = _IOC_SIZE(cmd);
	void *arg;
	long ret;

	if (_IOC_TYPE(cmd) != WARDEN_IOCTL_MAGIC ||
	    size < sizeof(struct warden_error) ||
	    _IOC_DIR(cmd) != (_IOC_READ | _IOC_WRITE))
		return -ENOTTY;
	if (cmd != WARDEN_IOCTL_GET_VERSION && !capable(CAP_SYS_ADMIN))
		return -EPERM;

	arg = memdup_user(user, size);
	if (IS_ERR(arg))
		return PTR_ERR(arg);
	memset(arg, 0, sizeof(struct warden_error));

	ret = dispatch(cmd, arg);
	if (copy_to_user(user, arg, size))
		ret = -EFAULT;
	kfree(arg);
	return ret;
}

static struct miscdevice wd_misc;
static ssize_t wd_read(struct file *file, char __user *ubuf, size_t len,
		       loff_t *ppos);

static const struct file_operations wd_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = wd_ioctl,
	.read = wd_read,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static ssize_t abi_revision_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", WARDEN_ABI_REVISION);
}
static DEVICE_ATTR_RO(abi_revision);

static ssize_t version_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", WARDEN_DRIVER_VERSION);
}
static DEVICE_ATTR_RO(version);

static ssize_t enabled_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", wd_is_enabled());
}
static DEVICE_ATTR_RO(enabled);

/* The TSC rate in kHz the hypervisor runs with (measured at enable, or
 * the system config's), 0 while disabled: "warden cell linux" gives it to
 * the kernel as tsc_early_khz=. */
static ssize_t tsc_khz_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", wd_is_enabled() ? wd.tsc_khz : 0);
}
static DEVICE_ATTR_RO(tsc_khz);

/* The hypervisor console: its newest lines that fit in a page. */
static ssize_t console_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	ssize_t n = wd_console_tail(buf, PAGE_SIZE - 1);

	return n < 0 ? 0 : n;
}
static DEVICE_ATTR_RO(console);

/* 1: this kernel runs inside a Warden cell (in_cell.c), 0: root. */
static ssize_t in_cell_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", wd_in_cell());
}
static DEVICE_ATTR_RO(in_cell);

static struct attribute *wd_attrs[] = {
	&dev_attr_abi_revision.attr,
	&dev_attr_version.attr,
	&dev_attr_enabled.attr,
	&dev_attr_console.attr,
	&dev_attr_tsc_khz.attr,
	&dev_attr_in_cell.attr,
	NULL,
};
ATTRIBUTE_GROUPS(wd);

static struct miscdevice wd_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "warden",
	.fops = &wd_fops,
	.groups = wd_groups,
	.mode = 0600,
};

/*
 * read() on /dev/warden streams the hypervisor console: each open file
 * remembers how far it has read (f_pos: the number of the next line).
 */
static ssize_t wd_read(struct file *file, char __user *ubuf, size_t len,
		       loff_t *ppos)
{
	char *buf;
	u64 pos = *ppos;
	ssize_t n;

	len = min_t(size_t, len, PAGE_SIZE);
	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = wd_console_read(buf, len, &pos);
	if (n > 0 && copy_to_user(ubuf, buf, n))
		n = -EFAULT;
	if (n >= 0)
		*ppos = pos;
	kfree(buf);
	return n == -ENODEV ? 0 : n;
}

static int __init wd_init(void)
{
	int err;

	/* before any hypercall can be made: the rule of <warden/hypercall.h> */
	wd_hc_insn = warden_hypercall_insn();
	/* root, or a Warden cell: before the link driver binds anything */
	wd_detect_cell();
	err = misc_register(&wd_misc);

	if (err) {
		pr_err("warden: cannot register /dev/warden (%d)\n", err);
		return err;
	}
	wd_set_device(wd_misc.this_device);
	err = wd_sysfs_init();
	if (err) {
		pr_err("warden: cannot create /sys/kernel/warden (%d)\n", err);
		misc_deregister(&wd_misc);
		return err;
	}
	err = wd_links_init();
	if (err) {
		pr_err("warden: cannot register the link driver (%d)\n", err);
		wd_sysfs_exit();
		misc_deregister(&wd_misc);
		return err;
	}
	pr_info("warden: driver %s loaded, ABI revision %d\n",
		WARDEN_DRIVER_VERSION, WARDEN_ABI_REVISION);
	return 0;
}

static void __exit wd_exit(void)
{
	/* the link functions out of Linux, if Warden is still enabled */
	wd_links_exit();
	wd_sysfs_exit();
	wd_cells_exit();
	misc_deregister(&wd_misc);
}

module_init(wd_init);
module_exit(wd_exit);

MODULE_DESCRIPTION("Warden static partitioning hypervisor driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(WARDEN_DRIVER_VERSION);
MODULE_FIRMWARE(WARDEN_FIRMWARE_INTEL);
MODULE_FIRMWARE(WARDEN_FIRMWARE_AMD);

// SPDX-License-Identifier: GPL-2.0
/*
 * The cell ioctls.  For now WARDEN_IOCTL_CELL_CREATE with
 * WARDEN_CREATE_VALIDATE_ONLY: the hypervisor, which is authoritative,
 * checks the cell config against the running system (validate-only
 * hypercall) and nothing changes.  "warden cell create" runs this before
 * Linux gives up any CPU; creating the cell itself comes with the cells
 * work (see the cells issue).
 */
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <config_check.h>
#include <warden/config.h>
#include <warden/hypercall.h>

#include "warden-driver.h"

int wd_cell_create(struct warden_cell_create *arg)
{
	struct wd_reason why = { .cpu = WARDEN_NO_CPU };
	struct warden_error *herr;
	void *config;
	long ret;

	if (arg->flags & ~WARDEN_CREATE_VALIDATE_ONLY) {
		why.rule = WARDEN_RULE_BAD_ARGUMENT;
		why.item_kind = WARDEN_ITEM_IOCTL;
		why.values[0] = 1; /* the flags field */
		why.values[1] = arg->flags;
		return wd_error(&arg->error, -EINVAL, &why,
				"cell create: unknown flags 0x%x", arg->flags);
	}
	if (!(arg->flags & WARDEN_CREATE_VALIDATE_ONLY)) {
		why.rule = WARDEN_RULE_UNSUPPORTED;
		why.text = "cell creation";
		return wd_error(&arg->error, -EOPNOTSUPP, &why,
				"cell create: driver %s can only validate cell "
				"configs so far",
				WARDEN_DRIVER_VERSION);
	}
	if (arg->config_size > CONFIG_CHECK_MAX_SIZE) {
		why.rule = WARDEN_RULE_CONFIG_TOO_LARGE;
		why.item_kind = WARDEN_ITEM_CELL;
		why.values[0] = arg->config_size;
		why.values[1] = CONFIG_CHECK_MAX_SIZE;
		return wd_error(&arg->error, -E2BIG, &why,
				"cell create: config of %u bytes, more than "
				"%u",
				arg->config_size, CONFIG_CHECK_MAX_SIZE);
	}
	/* Physically contiguous copies: the hypervisor reads the config and
	 * writes its verdict by guest-physical address. */
	config = kmalloc(max_t(u32, arg->config_size, 1), GFP_KERNEL);
	herr = kzalloc(sizeof(*herr), GFP_KERNEL);
	if (!config || !herr) {
		ret = -ENOMEM;
		goto out;
	}
	if (copy_from_user(config, u64_to_user_ptr(arg->config_ptr),
			   arg->config_size)) {
		ret = -EFAULT;
		goto out;
	}
	/* The hypervisor reads the header to know the length. */
	if (arg->config_size < sizeof(struct warden_config_header)) {
		why.rule = WARDEN_RULE_CONFIG_TOO_SMALL;
		why.item_kind = WARDEN_ITEM_CELL;
		why.values[0] = arg->config_size;
		why.values[1] = sizeof(struct warden_config_header);
		ret = wd_error(&arg->error, -EINVAL, &why,
			       "cell create: config of %u bytes, smaller than "
			       "its header",
			       arg->config_size);
		goto out;
	}
	/* the hypervisor copies total_size bytes: make it the real length */
	((struct warden_config_header *)config)->total_size =
		min_t(u32, ((struct warden_config_header *)config)->total_size,
		      arg->config_size);

	mutex_lock(&wd_lock);
	if (!wd_is_enabled()) {
		mutex_unlock(&wd_lock);
		why.rule = WARDEN_RULE_NOT_ENABLED;
		ret = wd_error(&arg->error, -EINVAL, &why,
			       "cell create: Warden is not enabled");
		goto out;
	}
	ret = wd_hypercall(WARDEN_HC_CONFIG_VALIDATE, virt_to_phys(config),
			   virt_to_phys(herr));
	mutex_unlock(&wd_lock);
	if (ret < 0 && herr->rule) {
		arg->error = *herr;
		pr_err("warden: cell create: the hypervisor refused the "
		       "config: "
		       "rule %u, item kind %u index %u, values 0x%llx "
		       "0x%llx\n",
		       herr->rule, herr->item_kind, herr->item_index,
		       herr->values[0], herr->values[1]);
	} else if (ret < 0) {
		why.rule = WARDEN_RULE_UNSUPPORTED;
		why.text = "validate hypercall";
		ret = wd_error(&arg->error, (int)ret, &why,
			       "cell create: the validate hypercall failed "
			       "(%ld)",
			       ret);
	}
out:
	kfree(config);
	kfree(herr);
	return ret < 0 ? (int)ret : 0;
}

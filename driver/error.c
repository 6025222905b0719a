// SPDX-License-Identifier: GPL-2.0
/* The driver's side of the error channel (see warden-driver.h). */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "warden-driver.h"

int wd_error(struct warden_error *err, int code, const struct wd_reason *why,
	     const char *msg, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, msg);
	vaf.fmt = msg;
	vaf.va = &args;
	pr_err("warden: %pV\n", &vaf);
	va_end(args);

	if (!err)
		return code;
	memset(err, 0, sizeof(*err));
	err->code = code;
	err->cpu = WARDEN_NO_CPU;
	if (why) {
		err->rule = why->rule;
		err->item_kind = why->item_kind;
		err->item_index = why->item_index;
		err->cpu = why->cpu;
		memcpy(err->values, why->values, sizeof(err->values));
		if (why->text)
			strscpy(err->text, why->text, sizeof(err->text));
	}
	return code;
}

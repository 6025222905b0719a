// SPDX-License-Identifier: GPL-2.0
/*
 * Error-channel records to sentences (see errmsg.h): the item first, then
 * the rule's sentence from the file of its family (errmsg_parts.h), an
 * unknown rule with its number and values.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <warden/abi.h>
#include <warden/cell.h>
#include <warden/config.h>

#include "errmsg.h"
#include "errmsg_parts.h"

void errmsg_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* A PCI function as domain << 16 | bdf, written as lspci does:
 * bus:device.function, the domain in front when it is not 0. */
void errmsg_pci_name(char *buf, size_t len, unsigned long long id)
{
	if (id >> 16)
		errmsg_add(buf, len, "%04llx:", (id >> 16) & 0xffff);
	errmsg_add(buf, len, "%02llx:%02llx.%llu", (id >> 8) & 0xff,
		   (id >> 3) & 0x1f, id & 7);
}

static void item(const struct warden_error *e, char *buf, size_t len)
{
	const unsigned long long *v = (const unsigned long long *)e->values;

	switch (e->item_kind) {
	case WARDEN_ITEM_CONFIG:
		errmsg_add(buf, len, "config: ");
		break;
	case WARDEN_ITEM_SYSTEM:
		errmsg_add(buf, len, "system config: ");
		break;
	case WARDEN_ITEM_CELL:
		errmsg_add(buf, len, "cell %u%s%s%s: ", e->item_index,
			   e->text[0] ? " \"" : "", e->text[0] ? e->text : "",
			   e->text[0] ? "\"" : "");
		break;
	case WARDEN_ITEM_CPU:
		errmsg_add(buf, len, "CPU %u: ", e->item_index);
		break;
	case WARDEN_ITEM_MEMORY_REGION:
		errmsg_add(buf, len,
			   "memory[%u] 0x%llx+0x%llx: ", e->item_index, v[0],
			   v[1]);
		break;
	case WARDEN_ITEM_PIO_RANGE:
		errmsg_add(buf, len, "ports[%u] 0x%llx+0x%llx: ", e->item_index,
			   v[0], v[1]);
		break;
	case WARDEN_ITEM_CONSOLE:
		errmsg_add(buf, len, "console: ");
		break;
	case WARDEN_ITEM_IMAGE:
		errmsg_add(buf, len, "image %u: ", e->item_index);
		break;
	case WARDEN_ITEM_IRQ_PIN:
		errmsg_add(buf, len, "irq_pins[%u] GSI %llu: ", e->item_index,
			   v[0]);
		break;
	case WARDEN_ITEM_PCI_DEVICE:
		errmsg_add(buf, len, "PCI device ");
		errmsg_pci_name(buf, len, v[0]);
		errmsg_add(buf, len, ": ");
		break;
	case WARDEN_ITEM_IOAPIC:
		errmsg_add(buf, len, "ioapics[%u] 0x%llx: ", e->item_index,
			   v[0]);
		break;
	case WARDEN_ITEM_IOMMU:
		errmsg_add(buf, len, "iommus[%u] 0x%llx: ", e->item_index,
			   v[0]);
		break;
	case WARDEN_ITEM_LINK:
		/* the CLI puts the link's name into text when it knows it */
		errmsg_add(buf, len, "links[%u]%s%s%s: ", e->item_index,
			   e->text[0] ? " \"" : "", e->text[0] ? e->text : "",
			   e->text[0] ? "\"" : "");
		break;
	default:
		break;
	}
}

char *warden_error_describe(const struct warden_error *e, char *buf, size_t len)
{
	const uint64_t *v = e->values;
	unsigned long long a = v[0], b = v[1], c = v[2], d = v[3];

	if (!len)
		return buf;
	buf[0] = '\0';
	item(e, buf, len);
	if (e->rule == WARDEN_RULE_NONE)
		errmsg_add(buf, len, "failed (%d) without a recorded reason",
			   e->code);
	else if (!errmsg_config(e, buf, len) && !errmsg_devices(e, buf, len) &&
		 !errmsg_links(e, buf, len) && !errmsg_system(e, buf, len))
		errmsg_add(buf, len,
			   "rule %u broken (values 0x%llx 0x%llx 0x%llx "
			   "0x%llx)",
			   e->rule, a, b, c, d);
	if (e->cpu != WARDEN_NO_CPU && e->item_kind != WARDEN_ITEM_CPU)
		errmsg_add(buf, len, " (on CPU %u)", e->cpu);
	return buf;
}

// SPDX-License-Identifier: GPL-2.0
/* Binary config → YAML (see config_show.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <warden/config.h>

#include "config_show.h"
#include "config_values.h"

struct show {
	FILE *out;
	int lossy; /* parts written only as comments */
};

static void lossy(struct show *s, const char *fmt, unsigned long long v)
	__attribute__((format(printf, 2, 0)));
static void lossy(struct show *s, const char *fmt, unsigned long long v)
{
	fprintf(s->out, "# NOT EXPRESSIBLE IN YAML: ");
	fprintf(s->out, fmt, v);
	fprintf(s->out, "\n");
	s->lossy = 1;
}

/* Length of the UTF-8 sequence at p (at most n bytes) and its code
 * point; 0 when it is not valid UTF-8 (overlong, surrogate, cut). */
static unsigned int utf8(const unsigned char *p, unsigned int n, uint32_t *cp)
{
	unsigned int len, i;
	uint32_t v;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 0;
	if (!len || len > n || p[0] >= 0xf8)
		return 0;
	v = p[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if ((len == 2 && v < 0x80) || (len == 3 && v < 0x800) ||
	    (len == 4 && v < 0x10000) || v > 0x10ffff ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* Printable in YAML (YAML 1.1, 5.1), apart from the BOM. */
static bool yaml_printable(uint32_t cp)
{
	return (cp >= 0x20 && cp <= 0x7e) || cp == 0x85 ||
	       (cp >= 0xa0 && cp <= 0xd7ff) ||
	       (cp >= 0xe000 && cp <= 0xfffd && cp != 0xfeff) ||
	       (cp >= 0x10000 && cp <= 0x10ffff);
}

/* The name in double quotes; UTF-8 as it is, the rest escaped.  Bytes
 * that are not UTF-8 cannot be written in YAML. */
static void name(struct show *s, const char *key, const char *n)
{
	const unsigned char *u = (const unsigned char *)n;
	unsigned int i, len, end;
	uint32_t cp;

	for (end = 0; end < WARDEN_NAME_LEN && n[end]; end++)
		;
	for (i = 0; i < end; i += len ? len : 1) {
		len = utf8(u + i, end - i, &cp);
		if (!len) {
			lossy(s, "a name byte that is not UTF-8, at %llu",
			      (unsigned long long)i);
			break;
		}
	}
	fprintf(s->out, "%s\"", key);
	for (i = 0; i < end; i += len) {
		len = utf8(u + i, end - i, &cp);
		if (!len) {
			fprintf(s->out, "\\x%02x", u[i]);
			len = 1;
		} else if (cp == '"' || cp == '\\') {
			fprintf(s->out, "\\%c", (char)cp);
		} else if (yaml_printable(cp)) {
			fwrite(u + i, 1, len, s->out);
		} else if (cp < 0x100) {
			fprintf(s->out, "\\x%02x", cp);
		} else if (cp < 0x10000) {
			fprintf(s->out, "\\u%04x", cp);
		} else {
			fprintf(s->out, "\\U%08x", cp);
		}
	}
	fputs("\"\n", s->out);
}

/* Names of the bits of table that are set, then the rest as a number. */
static void flags(FILE *out, uint32_t v, const struct cv_name *table)
{
	const struct cv_name *t;
	const char *sep = "";
	uint32_t bit;

	fputc('[', out);
	for (bit = 1; bit; bit <<= 1) {
		if (!(v & bit))
			continue;
		for (t = table; t->name && t->value != bit; t++)
			;
		if (t->name) {
			fprintf(out, "%s%s", sep, t->name);
			sep = ", ";
			v &= ~bit;
		}
	}
	if (v)
		fprintf(out, "%s0x%x", sep, v);
	fputs("]\n", out);
}

static void console(struct show *s, const char *indent, const char *key,
		    const struct warden_console *c)
{
	const char *type = cv_name_of(cv_console_types, c->type);

	if (c->flags)
		lossy(s, "console flags 0x%llx", c->flags);
	if (c->type == WARDEN_CONSOLE_NONE && !c->address && !c->baud) {
		fprintf(s->out, "%s%s: none\n", indent, key);
		return;
	}
	fprintf(s->out, "%s%s:\n", indent, key);
	if (type)
		fprintf(s->out, "%s  type: %s\n", indent, type);
	else
		fprintf(s->out, "%s  type: %u\n", indent, c->type);
	fprintf(s->out, "%s  port: 0x%llx\n", indent,
		(unsigned long long)c->address);
	fprintf(s->out, "%s  baud: %u\n", indent, c->baud);
}

static void region(struct show *s, const struct warden_mem_region *r)
{
	const char *type = cv_name_of(cv_mem_types, r->mem_type);
	char size[32];

	if (r->reserved[0] || r->reserved[1] || r->reserved[2])
		lossy(s, "reserved bytes of the next region: 0x%06llx",
		      (unsigned long long)r->reserved[0] |
			      (unsigned long long)r->reserved[1] << 8 |
			      (unsigned long long)r->reserved[2] << 16);
	cv_format_size(r->size, size, sizeof(size));
	fprintf(s->out, "    - phys: 0x%llx\n      guest: 0x%llx\n",
		(unsigned long long)r->phys_start,
		(unsigned long long)r->guest_start);
	fprintf(s->out, "      size: %s\n      flags: ", size);
	flags(s->out, r->flags, cv_mem_flags);
	if (type)
		fprintf(s->out, "      type: %s\n", type);
	else
		fprintf(s->out, "      type: %u\n", r->mem_type);
}

static void port_range(struct show *s, const struct warden_pio_range *p)
{
	if (p->reserved)
		lossy(s, "reserved field of the next port range: 0x%llx",
		      p->reserved);
	if (p->length && (uint64_t)p->base + p->length <= 0x10000)
		fprintf(s->out, "    - 0x%x-0x%x\n", p->base,
			p->base + p->length - 1);
	else
		fprintf(s->out, "    - {base: 0x%x, length: 0x%x}\n", p->base,
			p->length);
}

static void bool_line(FILE *out, const char *key, bool v)
{
	fprintf(out, "      %s: %s\n", key, v ? "true" : "false");
}

static void pci_bar(struct show *s, unsigned int n,
		    const struct warden_pci_bar *b)
{
	uint32_t kind = b->flags & ~WARDEN_PCI_BAR_PREFETCH;
	const char *type = cv_name_of(cv_bar_types, kind);
	char size[32];

	if (b->reserved)
		lossy(s, "reserved field of the next BAR: 0x%llx", b->reserved);
	/* port counts read better in decimal */
	if (b->size < 1024)
		snprintf(size, sizeof(size), "%llu",
			 (unsigned long long)b->size);
	else
		cv_format_size(b->size, size, sizeof(size));
	fprintf(s->out, "        - {bar: %u, address: 0x%llx, size: %s, ", n,
		(unsigned long long)b->address, size);
	/* a kind YAML has no name for is written as raw flags */
	if (type)
		fprintf(s->out, "type: %s%s}\n", type,
			b->flags & WARDEN_PCI_BAR_PREFETCH ? ", prefetch: true"
							   : "");
	else
		fprintf(s->out, "type: 0x%x}\n", b->flags);
}

static void pci_device(struct show *s, const struct warden_pci_device *d)
{
	const char *pin = cv_name_of(cv_int_pins, d->int_pin);
	char bdf[32];
	unsigned int n;
	bool bars = false;

	if (d->flags & ~WARDEN_PCI_FLAGS_ALL)
		lossy(s, "unknown flags of the next PCI device: 0x%llx",
		      d->flags & ~WARDEN_PCI_FLAGS_ALL);
	if (d->reserved0[0] || d->reserved0[1] || d->reserved0[2] ||
	    d->reserved1)
		lossy(s, "reserved fields of the next PCI device: 0x%llx",
		      (unsigned long long)d->reserved0[0] |
			      (unsigned long long)d->reserved0[1] << 8 |
			      (unsigned long long)d->reserved0[2] << 16 |
			      (unsigned long long)d->reserved1 << 24);
	cv_format_bdf(d->domain, d->bdf, bdf, sizeof(bdf));
	fprintf(s->out, "    - bdf: %s\n      ids: %04x:%04x\n", bdf,
		d->vendor_id, d->device_id);
	if (pin)
		fprintf(s->out, "      int_pin: %s\n", pin);
	else
		fprintf(s->out, "      int_pin: %u\n", d->int_pin);
	if (d->gsi == WARDEN_NO_GSI)
		fprintf(s->out, "      gsi: none\n");
	else
		fprintf(s->out, "      gsi: %u\n", d->gsi);
	bool_line(s->out, "msi", d->flags & WARDEN_PCI_MSI);
	bool_line(s->out, "msix", d->flags & WARDEN_PCI_MSIX);
	bool_line(s->out, "dma_unisolated",
		  d->flags & WARDEN_PCI_DMA_UNISOLATED);
	if (d->flags & WARDEN_PCI_DMA_ALIAS) {
		cv_format_bdf(0, d->dma_alias, bdf, sizeof(bdf));
		fprintf(s->out, "      dma_alias: \"%s\"\n", bdf);
	} else if (d->dma_alias) {
		lossy(s, "dma_alias 0x%x without its flag", d->dma_alias);
	}
	for (n = 0; n < WARDEN_PCI_BARS; n++) {
		const struct warden_pci_bar *b = &d->bars[n];

		/* an empty BAR is not written */
		if (!b->address && !b->size && !b->flags && !b->reserved)
			continue;
		if (!bars)
			fprintf(s->out, "      bars:\n");
		bars = true;
		pci_bar(s, n, b);
	}
	if (!bars)
		fprintf(s->out, "      bars: []\n");
}

/* How many of count items of size bytes fit in *avail (reported when not
 * all), taken off *avail. */
static uint64_t fitting(struct show *s, const char *what, uint64_t count,
			size_t size, size_t *avail)
{
	uint64_t fit = *avail / size;

	if (count > fit)
		lossy(s, what, (unsigned long long)(count - fit));
	fit = count < fit ? count : fit;
	*avail -= (size_t)fit * size;
	return fit;
}

/* The cell descriptor at desc and the arrays after it (avail bytes). */
static void cell(struct show *s, const char *key, const uint8_t *desc,
		 size_t avail)
{
	struct warden_cell_desc d;
	struct warden_mem_region r;
	struct warden_pio_range p;
	struct warden_irq_pin pin;
	struct warden_pci_device dev;
	const uint8_t *arr = desc + sizeof(d);
	unsigned long long reserved_pins = 0;
	char cpus[1024];
	uint64_t i, fit;

	memcpy(&d, desc, sizeof(d));
	avail -= sizeof(d);
	fprintf(s->out, "%s:\n", key);
	name(s, "  name: ", d.name);
	fprintf(s->out, "  flags: ");
	flags(s->out, d.flags, cv_cell_flags);
	cv_format_cpus(&d.cpus, cpus, sizeof(cpus));
	if (cpus[0])
		fprintf(s->out, "  cpus: %s\n", cpus);
	else
		fprintf(s->out, "  cpus: []\n");
	fprintf(s->out, "  reset_address: 0x%llx\n",
		(unsigned long long)d.reset_address);
	console(s, "  ", "console", &d.console);
	if (d.reserved)
		lossy(s, "reserved field of the cell: 0x%llx", d.reserved);

	fit = avail / sizeof(r);
	if (d.num_memory_regions > fit)
		lossy(s, "memory regions beyond the end of the blob: %llu",
		      (unsigned long long)(d.num_memory_regions - fit));
	fit = d.num_memory_regions < fit ? d.num_memory_regions : fit;
	fprintf(s->out, "  memory:%s\n", fit ? "" : " []");
	for (i = 0; i < fit; i++) {
		memcpy(&r, arr, sizeof(r));
		region(s, &r);
		arr += sizeof(r);
		avail -= sizeof(r);
	}
	fit = avail / sizeof(p);
	if (d.num_pio_ranges > fit)
		lossy(s, "port ranges beyond the end of the blob: %llu",
		      (unsigned long long)(d.num_pio_ranges - fit));
	fit = d.num_pio_ranges < fit ? d.num_pio_ranges : fit;
	fprintf(s->out, "  ports:%s\n", fit ? "" : " []");
	for (i = 0; i < fit; i++) {
		memcpy(&p, arr, sizeof(p));
		port_range(s, &p);
		arr += sizeof(p);
		avail -= sizeof(p);
	}
	fit = fitting(s, "IOAPIC pins beyond the end of the blob: %llu",
		      d.num_irq_pins, sizeof(pin), &avail);
	fprintf(s->out, "  irq_pins: [");
	for (i = 0; i < fit; i++) {
		memcpy(&pin, arr, sizeof(pin));
		arr += sizeof(pin);
		if (pin.reserved)
			reserved_pins++;
		fprintf(s->out, "%s%u", i ? ", " : "", pin.gsi);
	}
	fprintf(s->out, "]\n");
	if (reserved_pins)
		lossy(s, "reserved fields of %llu IOAPIC pins are not 0",
		      reserved_pins);
	fit = fitting(s, "PCI devices beyond the end of the blob: %llu",
		      d.num_pci_devices, sizeof(dev), &avail);
	fprintf(s->out, "  pci_devices:%s\n", fit ? "" : " []");
	for (i = 0; i < fit; i++) {
		memcpy(&dev, arr, sizeof(dev));
		arr += sizeof(dev);
		pci_device(s, &dev);
	}
	if (avail)
		lossy(s, "bytes after the last array: %llu",
		      (unsigned long long)avail);
}

/* The IOAPICs (n of them at arr), written under system:. */
static void ioapics(struct show *s, const uint8_t *arr, size_t n)
{
	struct warden_ioapic a;
	size_t i;

	fprintf(s->out, "  ioapics:%s\n", n ? "" : " []");
	for (i = 0; i < n; i++) {
		memcpy(&a, arr + i * sizeof(a), sizeof(a));
		fprintf(s->out,
			"    - {address: 0x%llx, id: %u, gsi_base: %u, pins: "
			"%u",
			(unsigned long long)a.address, a.id, a.gsi_base,
			a.num_pins);
		if (a.source_id != WARDEN_NO_SOURCE_ID)
			fprintf(s->out, ", source_id: \"%02x:%02x.%u\"",
				a.source_id >> 8, (a.source_id >> 3) & 0x1f,
				a.source_id & 7);
		fprintf(s->out, "}\n");
	}
}

/* The IOMMU units (n of them at arr), written under system:. */
static void iommus(struct show *s, const uint8_t *arr, size_t n)
{
	struct warden_iommu_unit u;
	const struct warden_iommu_scope *sc;
	size_t i, k;

	if (!n)
		return;
	fprintf(s->out, "  iommus:\n");
	for (i = 0; i < n; i++) {
		memcpy(&u, arr + i * sizeof(u), sizeof(u));
		if (u.reserved || (u.flags & ~WARDEN_IOMMU_FLAGS_ALL))
			lossy(s, "reserved bits of IOMMU unit %llu",
			      (unsigned long long)i);
		fprintf(s->out, "    - {base: 0x%llx, segment: %u",
			(unsigned long long)u.base, u.segment);
		if (u.flags & WARDEN_IOMMU_INCLUDE_PCI_ALL)
			fprintf(s->out, ", include_pci_all: true");
		for (k = 0; k < u.num_scopes && k < WARDEN_IOMMU_MAX_SCOPES;
		     k++) {
			sc = &u.scopes[k];
			fprintf(s->out, "%s", k ? ", " : ", scope: [");
			if (sc->type == WARDEN_IOMMU_SCOPE_BUSES)
				fprintf(s->out, "\"%02x-%02x\"", sc->bdf >> 8,
					sc->end_bus);
			else
				fprintf(s->out, "\"%02x:%02x.%u\"",
					sc->bdf >> 8, (sc->bdf >> 3) & 0x1f,
					sc->bdf & 7);
		}
		fprintf(s->out, "%s}\n", u.num_scopes ? "]" : "");
	}
}

/* Is the peer entry all zeros (as one past num_peers must be)? */
static bool peer_empty(const struct warden_link_peer *q)
{
	const uint8_t *b = (const uint8_t *)q;
	size_t i;

	for (i = 0; i < sizeof(*q); i++)
		if (b[i])
			return false;
	return true;
}

static void link_peer(struct show *s, const struct warden_link_peer *q)
{
	char bdf[32];
	unsigned int i;

	for (i = 0; i < sizeof(q->reserved); i++)
		if (q->reserved[i])
			lossy(s, "reserved byte %llu of the next peer is not 0",
			      i);
	cv_format_bdf(0, q->bdf, bdf, sizeof(bdf));
	name(s, "      - cell: ", q->cell);
	fprintf(s->out,
		"        bdf: %s\n        regs: 0x%llx\n"
		"        shmem: 0x%llx\n        vectors: %u\n",
		bdf, (unsigned long long)q->regs_address,
		(unsigned long long)q->shmem_address, q->vectors);
}

/* The links (n of them at arr), the top-level "links:" list. */
static void links(struct show *s, const uint8_t *arr, size_t n)
{
	struct warden_link l;
	const char *access;
	char size[32];
	unsigned int p, used;
	size_t i;

	fprintf(s->out, "links:%s\n", n ? "" : " []");
	for (i = 0; i < n; i++) {
		memcpy(&l, arr + i * sizeof(l), sizeof(l));
		used = l.num_peers < WARDEN_LINK_MAX_PEERS
			       ? l.num_peers
			       : WARDEN_LINK_MAX_PEERS;
		if (l.num_peers > WARDEN_LINK_MAX_PEERS)
			lossy(s, "num_peers of the next link: %llu",
			      l.num_peers);
		for (p = used; p < WARDEN_LINK_MAX_PEERS; p++)
			if (!peer_empty(&l.peers[p]))
				lossy(s,
				      "peer entry %llu of the next link, past "
				      "num_peers, is not all 0",
				      p);
		name(s, "  - name: ", l.name);
		cv_format_size(l.size, size, sizeof(size));
		fprintf(s->out, "    memory: {phys: 0x%llx, size: %s}\n",
			(unsigned long long)l.phys_start, size);
		/* flags YAML has no name for are written as a number */
		access = cv_name_of(cv_link_access, l.flags);
		if (access)
			fprintf(s->out, "    access: %s\n", access);
		else
			fprintf(s->out, "    access: 0x%x\n", l.flags);
		if (l.doorbell_rate)
			fprintf(s->out, "    doorbell_rate: %u\n",
				l.doorbell_rate);
		fprintf(s->out, "    peers:%s\n", used ? "" : " []");
		for (p = 0; p < used; p++)
			link_peer(s, &l.peers[p]);
	}
}

static void system_part(struct show *s, const struct warden_system_desc *d)
{
	const struct warden_platform *p = &d->platform;
	char size[32];
	size_t i;

	cv_format_size(d->hv_mem_size, size, sizeof(size));
	fprintf(s->out,
		"system:\n  hypervisor_memory:\n    start: 0x%llx\n"
		"    size: %s\n",
		(unsigned long long)d->hv_mem_start, size);
	console(s, "  ", "debug_console", &d->debug_console);
	fprintf(s->out,
		"  platform:\n    tsc_khz: %u\n    apic_khz: %u\n"
		"    pm_timer_port: 0x%x\n    mmconfig_base: 0x%llx\n"
		"    mmconfig_end_bus: %u\n    iommu_base: 0x%llx\n"
		"    hpet_base: 0x%llx\n",
		p->tsc_khz, p->apic_khz, p->pm_timer_port,
		(unsigned long long)p->mmconfig_base, p->mmconfig_end_bus,
		(unsigned long long)p->iommu_base,
		(unsigned long long)p->hpet_base);
	if (p->hpet_source_id != WARDEN_NO_SOURCE_ID)
		fprintf(s->out, "    hpet_source_id: \"%02x:%02x.%u\"\n",
			p->hpet_source_id >> 8, (p->hpet_source_id >> 3) & 0x1f,
			p->hpet_source_id & 7);
	if (p->reserved2)
		lossy(s, "reserved platform field: 0x%llx",
		      (unsigned long long)p->reserved2);
	for (i = 0; i < sizeof(p->reserved3); i++)
		if (p->reserved3[i])
			lossy(s, "reserved platform byte %llu is not 0",
			      (unsigned long long)i);
}

int config_show(FILE *out, const void *blob, size_t size, const char *source,
		const char **why)
{
	struct show s = { .out = out, .lossy = 0 };
	const uint8_t *b = blob;
	struct warden_config_header h;
	struct warden_system_desc sys;
	bool system;
	size_t desc, avail;
	uint64_t io_off, io_size, links_size, iommus_size;
	bool links_fit, iommus_fit;

	if (size < sizeof(h) || (memcmp(b, WARDEN_SYSTEM_SIGNATURE, 8) &&
				 memcmp(b, WARDEN_CELL_SIGNATURE, 8))) {
		*why = "not a compiled Warden config (no WRDNSYS or WRDNCEL "
		       "signature)";
		return -1;
	}
	memcpy(&h, b, sizeof(h));
	system = !memcmp(b, WARDEN_SYSTEM_SIGNATURE, 8);
	if (h.revision != WARDEN_CONFIG_REVISION) {
		*why = "a config revision this Warden does not read";
		return -1;
	}
	desc = sizeof(h) +
	       (system ? sizeof(sys) : sizeof(struct warden_cell_desc));
	if (size < desc) {
		*why = "too small for its header and descriptor";
		return -1;
	}
	fprintf(out, "# %s config%s%s, decoded by 'warden config show'\n",
		system ? "System" : "Cell", source ? " " : "",
		source ? source : "");
	if (h.architecture != WARDEN_ARCH_X86_64)
		lossy(&s, "architecture %llu", h.architecture);
	if (h.total_size != size)
		lossy(&s, "header total_size %llu (not the blob's size)",
		      h.total_size);
	if (h.flags)
		lossy(&s, "header flags 0x%llx", h.flags);
	if (h.reserved)
		lossy(&s, "header reserved field 0x%llx", h.reserved);
	if (system) {
		memcpy(&sys, b + sizeof(h), sizeof(sys));
		system_part(&s, &sys);
		/* the IOAPICs come last in the blob but belong to system: */
		io_off = desc + warden_cell_arrays_size(&sys.root_cell);
		io_size = (uint64_t)sys.platform.num_ioapics *
			  sizeof(struct warden_ioapic);
		links_size = (uint64_t)sys.platform.num_links *
			     sizeof(struct warden_link);
		links_fit = io_off + io_size + links_size <= size;
		iommus_size = (uint64_t)sys.platform.num_iommus *
			      sizeof(struct warden_iommu_unit);
		iommus_fit = links_fit &&
			     io_off + io_size + links_size + iommus_size <=
				     size;
		if (io_off + io_size <= size) {
			ioapics(&s, b + io_off, sys.platform.num_ioapics);
			avail = size - io_size;
		} else {
			lossy(&s, "%llu IOAPICs beyond the end of the blob",
			      sys.platform.num_ioapics);
			ioapics(&s, NULL, 0);
			avail = size;
		}
		if (iommus_fit) {
			iommus(&s, b + io_off + io_size + links_size,
			       sys.platform.num_iommus);
			avail -= iommus_size;
		} else if (sys.platform.num_iommus) {
			lossy(&s, "%llu IOMMU units beyond the end of the blob",
			      sys.platform.num_iommus);
		}
		if (links_fit)
			avail -= links_size;
		else if (sys.platform.num_links)
			lossy(&s, "%llu links beyond the end of the blob",
			      sys.platform.num_links);
		cell(&s, "root_cell",
		     b + sizeof(h) +
			     offsetof(struct warden_system_desc, root_cell),
		     avail - sizeof(h) -
			     offsetof(struct warden_system_desc, root_cell));
		/* the links come last in the blob and in the YAML */
		links(&s, links_fit ? b + io_off + io_size : NULL,
		      links_fit ? sys.platform.num_links : 0);
	} else {
		cell(&s, "cell", b + sizeof(h), size - sizeof(h));
	}
	return s.lossy;
}

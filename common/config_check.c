// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation (see config_check.h and docs/validation.md).
 *
 * Freestanding on purpose: the same file is built into the hypervisor, the
 * driver, the CLI and the tests.  Blobs are never cast to structures: every
 * field is read byte by byte at its ABI offset (offsetof on the structures
 * of config.h), after a bounds check, so any alignment and any size is
 * safe.  Arrays are read only when the counts fit the blob.
 */
#if defined(__KERNEL__)
#include <linux/types.h> /* the driver: as include/warden/abi.h does */
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#include <warden/abi.h>
#include <warden/config.h>
#include <warden/error.h>

#include <config_check.h>

#define CC_EINVAL 22
#define CC_E2BIG 7

#define HDR_SIZE sizeof(struct warden_config_header)
#define SYS_DESC_SIZE sizeof(struct warden_system_desc)
#define CELL_DESC_SIZE sizeof(struct warden_cell_desc)
#define REGION_SIZE sizeof(struct warden_mem_region)
#define PIO_SIZE sizeof(struct warden_pio_range)
#define PIN_SIZE sizeof(struct warden_irq_pin)
#define PCI_SIZE sizeof(struct warden_pci_device)
#define IOAPIC_SIZE sizeof(struct warden_ioapic)
#define LINK_SIZE sizeof(struct warden_link)
#define PEER_SIZE sizeof(struct warden_link_peer)
#define PORT_END 0x10000u
#define UART_PORTS 8u

#define OFF(type, member) __builtin_offsetof(type, member)
#define SYS_OFF(member) (HDR_SIZE + OFF(struct warden_system_desc, member))
#define PLAT_OFF(member)                                                       \
	(SYS_OFF(platform) + OFF(struct warden_platform, member))
#define CELL_OFF(member) OFF(struct warden_cell_desc, member)
#define REGION_OFF(member) OFF(struct warden_mem_region, member)
#define PIO_OFF(member) OFF(struct warden_pio_range, member)
#define PIN_OFF(member) OFF(struct warden_irq_pin, member)
#define PCI_OFF(member) OFF(struct warden_pci_device, member)
#define BAR_OFF(member) OFF(struct warden_pci_bar, member)
#define IOAPIC_OFF(member) OFF(struct warden_ioapic, member)
#define LINK_OFF(member) OFF(struct warden_link, member)
#define PEER_OFF(member) OFF(struct warden_link_peer, member)
#define BAR_SIZE sizeof(struct warden_pci_bar)
/* GSIs below this are ISA IRQs, which firmware routes without naming a
 * device (the legacy PIC inputs). */
#define ISA_IRQS 16u
#define IOAPIC_MAX_PINS 240u

struct checker {
	config_report_fn report;
	void *ctx;
	unsigned int errors;
};

struct console {
	uint16_t type;
	uint16_t flags;
	uint64_t address;
};

struct region {
	uint64_t phys;
	uint64_t guest;
	uint64_t size;
	uint32_t flags;
	uint8_t type;
	uint32_t reserved;
};

struct pio {
	uint32_t base;
	uint32_t length;
	uint32_t reserved;
};

struct pci_bar {
	uint64_t address;
	uint64_t size;
	uint32_t flags;
	uint32_t reserved;
};

struct pci {
	uint16_t domain;
	uint16_t bdf;
	uint16_t vendor;
	uint16_t device;
	uint32_t flags;
	uint8_t int_pin;
	uint32_t reserved0;
	uint32_t gsi;
	uint32_t reserved1;
	struct pci_bar bars[WARDEN_PCI_BARS];
};

/* A link of the system config, read into host order. */
struct link {
	size_t off; /* of its struct warden_link in the blob */
	uint64_t phys;
	uint64_t size;
	uint32_t flags;
	uint32_t num_peers;
	uint32_t peers; /* entries in use: num_peers, at most the maximum */
	bool sane;	/* non-empty, not wrapping: usable for overlaps */
	bool mem_ok;	/* a power of 2 >= the minimum, phys aligned to it */
};

/* A peer of a link. */
struct peer {
	size_t off; /* of its struct warden_link_peer in the blob */
	uint64_t shmem;
	uint64_t regs;
	uint16_t bdf;
	uint8_t vectors;
	bool root;     /* names the root cell */
	bool name_ok;  /* its cell name is valid */
	bool regs_ok;  /* page aligned, below 4 GiB */
	bool shmem_ok; /* a cell's: aligned to a valid link size */
};

struct ioapic {
	uint64_t address;
	uint32_t gsi_base;
	uint8_t id;
	uint8_t num_pins;
	uint16_t reserved;
};

/* A cell descriptor inside a blob, read into host order. */
struct cell {
	const uint8_t *blob;
	size_t size;
	size_t desc; /* offset of the struct warden_cell_desc */
	uint32_t id; /* for records: 0 root, others[i] is i + 1 */
	bool root;
	uint32_t flags;
	uint32_t num_regions;
	uint32_t num_pio;
	uint32_t num_pins;
	uint32_t num_pci;
	uint32_t reserved;
	uint64_t cpus[WARDEN_CPU_SET_WORDS];
	uint64_t reset;
	struct console console;
	bool arrays; /* the arrays after the descriptor can be read */
	size_t regions_off;
	size_t pio_off;
	size_t pins_off;
	size_t pci_off;
	size_t end_off; /* the first byte after the arrays */
};

struct system {
	uint64_t hv_start;
	uint64_t hv_size;
	bool hv_usable; /* non-empty and not wrapping: usable for overlaps */
	struct console debug;
	struct cell root;
	unsigned int machine_cpus; /* highest root CPU + 1 */
	uint32_t num_ioapics;
	bool ioapics; /* the IOAPIC array can be read */
	size_t ioapics_off;
	uint32_t num_links;
	bool links; /* the link array can be read */
	size_t links_off;
	uint64_t mmconfig_base, mmconfig_size; /* size 0: none */
	uint64_t iommu_base;		       /* 0: none */
	uint64_t hpet_base;		       /* 0: none */
};

/* Little-endian loads; callers have checked the bounds. */
static uint64_t load(const uint8_t *p, size_t off, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[off + n];
	return v;
}

static uint16_t load16(const uint8_t *p, size_t off)
{
	return (uint16_t)load(p, off, 2);
}

static uint32_t load32(const uint8_t *p, size_t off)
{
	return (uint32_t)load(p, off, 4);
}

static uint64_t load64(const uint8_t *p, size_t off)
{
	return load(p, off, 8);
}

static void fail(struct checker *ck, uint32_t rule, uint32_t kind,
		 uint32_t index, uint64_t v0, uint64_t v1, uint64_t v2,
		 uint64_t v3)
{
	struct warden_error err = {
		.code = -CC_EINVAL,
		.rule = rule,
		.item_kind = kind,
		.item_index = index,
		.cpu = WARDEN_NO_CPU,
		.values = { v0, v1, v2, v3 },
	};

	if (rule == WARDEN_RULE_CONFIG_TOO_LARGE ||
	    rule == WARDEN_RULE_CONFIG_TOO_MANY)
		err.code = -CC_E2BIG;
	ck->errors++;
	if (ck->report)
		ck->report(ck->ctx, &err);
}

static void fail_config(struct checker *ck, uint32_t rule, uint64_t v0,
			uint64_t v1)
{
	fail(ck, rule, WARDEN_ITEM_CONFIG, 0, v0, v1, 0, 0);
}

static void fail_region(struct checker *ck, uint32_t rule, uint32_t index,
			const struct region *r, uint64_t v2, uint64_t v3)
{
	fail(ck, rule, WARDEN_ITEM_MEMORY_REGION, index, r->phys, r->size, v2,
	     v3);
}

static void fail_pio(struct checker *ck, uint32_t rule, uint32_t index,
		     const struct pio *p, uint64_t v2)
{
	fail(ck, rule, WARDEN_ITEM_PIO_RANGE, index, p->base, p->length, v2, 0);
}

/* The 8 bytes of a signature string (7 characters and the NUL). */
static uint64_t signature_value(const char *s)
{
	return load((const uint8_t *)s, 0, 8);
}

/*
 * Header checks.  Returns true when the descriptor that follows can be
 * read: right signature and revision, and the blob holds header and
 * descriptor.
 */
static bool check_header(struct checker *ck, const uint8_t *p, size_t size,
			 bool cell)
{
	size_t min = HDR_SIZE + (cell ? CELL_DESC_SIZE : SYS_DESC_SIZE);
	uint64_t sig, expected;
	uint32_t v;

	if (size > CONFIG_CHECK_MAX_SIZE)
		fail_config(ck, WARDEN_RULE_CONFIG_TOO_LARGE, size,
			    CONFIG_CHECK_MAX_SIZE);
	if (size < HDR_SIZE) {
		fail_config(ck, WARDEN_RULE_CONFIG_TOO_SMALL, size, min);
		return false;
	}
	sig = load64(p, OFF(struct warden_config_header, signature));
	expected = signature_value(cell ? WARDEN_CELL_SIGNATURE
					: WARDEN_SYSTEM_SIGNATURE);
	if (sig != expected) {
		/* values[1]: 0 a system config was expected, 1 a cell one */
		fail_config(ck, WARDEN_RULE_CONFIG_SIGNATURE, sig, cell);
		return false;
	}
	v = load16(p, OFF(struct warden_config_header, revision));
	if (v != WARDEN_CONFIG_REVISION) {
		fail_config(ck, WARDEN_RULE_CONFIG_REVISION, v,
			    WARDEN_CONFIG_REVISION);
		return false;
	}
	v = load16(p, OFF(struct warden_config_header, architecture));
	if (v != WARDEN_ARCH_X86_64)
		fail_config(ck, WARDEN_RULE_CONFIG_ARCH, v, WARDEN_ARCH_X86_64);
	v = load32(p, OFF(struct warden_config_header, total_size));
	if (v != size)
		fail_config(ck, WARDEN_RULE_CONFIG_SIZE, v, size);
	v = load32(p, OFF(struct warden_config_header, flags));
	if (v)
		fail_config(ck, WARDEN_RULE_CONFIG_FLAGS, v, 0);
	v = load32(p, OFF(struct warden_config_header, reserved));
	if (v)
		fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			    OFF(struct warden_config_header, reserved), v);
	if (size < min) {
		fail_config(ck, WARDEN_RULE_CONFIG_TOO_SMALL, size, min);
		return false;
	}
	return true;
}

static void read_console(const uint8_t *p, size_t off, struct console *c)
{
	c->type = load16(p, off + OFF(struct warden_console, type));
	c->flags = load16(p, off + OFF(struct warden_console, flags));
	c->address = load64(p, off + OFF(struct warden_console, address));
}

/*
 * Reads the cell descriptor at desc (the blob holds it) and checks the
 * counts against the limits and the blob.
 */
static void read_cell(struct checker *ck, struct cell *c, const uint8_t *p,
		      size_t size, size_t desc, uint64_t extra)
{
	uint32_t total =
		load32(p, OFF(struct warden_config_header, total_size));
	uint64_t needed;
	unsigned int i;

	c->blob = p;
	c->size = size;
	c->desc = desc;
	c->flags = load32(p, desc + CELL_OFF(flags));
	c->num_regions = load32(p, desc + CELL_OFF(num_memory_regions));
	c->num_pio = load32(p, desc + CELL_OFF(num_pio_ranges));
	c->num_pins = load32(p, desc + CELL_OFF(num_irq_pins));
	c->num_pci = load32(p, desc + CELL_OFF(num_pci_devices));
	c->reserved = load32(p, desc + CELL_OFF(reserved));
	for (i = 0; i < WARDEN_CPU_SET_WORDS; i++)
		c->cpus[i] = load64(p, desc + CELL_OFF(cpus) + 8 * i);
	c->reset = load64(p, desc + CELL_OFF(reset_address));
	read_console(p, desc + CELL_OFF(console), &c->console);

	c->arrays = true;
	if (c->num_regions > CONFIG_CHECK_MAX_REGIONS) {
		fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 0,
		     c->num_regions, CONFIG_CHECK_MAX_REGIONS, 0, 0);
		c->arrays = false;
	}
	if (c->num_pio > CONFIG_CHECK_MAX_PIO_RANGES) {
		fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 1,
		     c->num_pio, CONFIG_CHECK_MAX_PIO_RANGES, 0, 0);
		c->arrays = false;
	}
	if (c->num_pins > CONFIG_CHECK_MAX_PINS) {
		fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 2,
		     c->num_pins, CONFIG_CHECK_MAX_PINS, 0, 0);
		c->arrays = false;
	}
	if (c->num_pci > CONFIG_CHECK_MAX_PCI_DEVICES) {
		fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 3,
		     c->num_pci, CONFIG_CHECK_MAX_PCI_DEVICES, 0, 0);
		c->arrays = false;
	}
	c->regions_off = desc + CELL_DESC_SIZE;
	needed = (uint64_t)c->regions_off +
		 (uint64_t)c->num_regions * REGION_SIZE +
		 (uint64_t)c->num_pio * PIO_SIZE +
		 (uint64_t)c->num_pins * PIN_SIZE +
		 (uint64_t)c->num_pci * PCI_SIZE + extra;
	/* Blame the counts only when they match neither the header nor the
	 * blob; a header that disagrees with the blob is CONFIG_SIZE. */
	if (needed != total && needed != size)
		fail_config(ck, WARDEN_RULE_CONFIG_COUNTS, needed, total);
	if (needed > size)
		c->arrays = false;
	c->pio_off = c->regions_off + (size_t)c->num_regions * REGION_SIZE;
	c->pins_off = c->pio_off + (size_t)c->num_pio * PIO_SIZE;
	c->pci_off = c->pins_off + (size_t)c->num_pins * PIN_SIZE;
	c->end_off = c->pci_off + (size_t)c->num_pci * PCI_SIZE;
}

static void get_region(const struct cell *c, uint32_t i, struct region *r)
{
	size_t off = c->regions_off + (size_t)i * REGION_SIZE;

	r->phys = load64(c->blob, off + REGION_OFF(phys_start));
	r->guest = load64(c->blob, off + REGION_OFF(guest_start));
	r->size = load64(c->blob, off + REGION_OFF(size));
	r->flags = load32(c->blob, off + REGION_OFF(flags));
	r->type = c->blob[off + REGION_OFF(mem_type)];
	r->reserved = (uint32_t)load(c->blob, off + REGION_OFF(reserved), 3);
}

static void get_pio(const struct cell *c, uint32_t i, struct pio *r)
{
	size_t off = c->pio_off + (size_t)i * PIO_SIZE;

	r->base = load16(c->blob, off + PIO_OFF(base));
	r->reserved = load16(c->blob, off + PIO_OFF(reserved));
	r->length = load32(c->blob, off + PIO_OFF(length));
}

/* [start, start + size) with size > 0 and no wrap-around. */
static uint64_t last(uint64_t start, uint64_t size)
{
	return start + size - 1;
}

static bool wraps(uint64_t start, uint64_t size)
{
	return size && size - 1 > ~(uint64_t)0 - start;
}

static bool overlap(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size)
{
	return a <= last(b, b_size) && b <= last(a, a_size);
}

static bool inside(uint64_t in, uint64_t in_size, uint64_t out,
		   uint64_t out_size)
{
	return in >= out && last(in, in_size) <= last(out, out_size);
}

static bool page_aligned(uint64_t v)
{
	return !(v & (CONFIG_CHECK_PAGE_SIZE - 1));
}

/* Usable for overlap and containment checks. */
static bool region_sane(const struct region *r)
{
	return r->size && page_aligned(r->phys) && page_aligned(r->guest) &&
	       page_aligned(r->size) && !wraps(r->phys, r->size) &&
	       !wraps(r->guest, r->size);
}

static bool is_comm(const struct region *r)
{
	return r->flags & WARDEN_MEM_COMM_REGION;
}

static bool pio_sane(const struct pio *p)
{
	return p->length && (uint64_t)p->base + p->length <= PORT_END;
}

static bool cpu_in(const uint64_t *set, unsigned int cpu)
{
	return (set[cpu / 64] >> (cpu % 64)) & 1;
}

static bool cpus_empty(const uint64_t *set)
{
	unsigned int i;

	for (i = 0; i < WARDEN_CPU_SET_WORDS; i++)
		if (set[i])
			return false;
	return true;
}

static bool valid_mem_type(uint8_t t)
{
	return t == WARDEN_MEMTYPE_UC || t == WARDEN_MEMTYPE_WC ||
	       t == WARDEN_MEMTYPE_WT || t == WARDEN_MEMTYPE_WP ||
	       t == WARDEN_MEMTYPE_WB;
}

/* Returns true when the name is non-empty, printable and terminated. */
static bool check_name(struct checker *ck, const struct cell *c)
{
	const uint8_t *name = c->blob + c->desc + CELL_OFF(name);
	bool printable = true;
	unsigned int i;

	if (!name[0]) {
		fail(ck, WARDEN_RULE_NAME_EMPTY, WARDEN_ITEM_CELL, c->id, 0, 0,
		     0, 0);
		return false;
	}
	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (!name[i])
			return printable;
		if (printable && (name[i] < 0x20 || name[i] > 0x7e)) {
			fail(ck, WARDEN_RULE_NAME_NOT_PRINTABLE,
			     WARDEN_ITEM_CELL, c->id, i, name[i], 0, 0);
			printable = false;
		}
	}
	fail(ck, WARDEN_RULE_NAME_UNTERMINATED, WARDEN_ITEM_CELL, c->id, 0, 0,
	     0, 0);
	return false;
}

/* Two NUL-terminated names of at most WARDEN_NAME_LEN bytes. */
static bool names_equal(const uint8_t *x, const uint8_t *y)
{
	unsigned int i;

	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (x[i] != y[i])
			return false;
		if (!x[i])
			return true;
	}
	return true;
}

static bool same_name(const struct cell *a, const struct cell *b)
{
	return names_equal(a->blob + a->desc + CELL_OFF(name),
			   b->blob + b->desc + CELL_OFF(name));
}

/* index: 0 the hypervisor's debug console, 1 a cell's console. */
static void check_console(struct checker *ck, const struct console *con,
			  uint32_t index, bool hypercall_ok)
{
	bool ok;

	if (con->flags)
		fail(ck, WARDEN_RULE_CONFIG_FLAGS, WARDEN_ITEM_CONSOLE, index,
		     con->flags, 0, 0, 0);
	switch (con->type) {
	case WARDEN_CONSOLE_NONE:
		ok = true;
		break;
	case WARDEN_CONSOLE_UART_PIO:
		ok = con->address <= PORT_END - UART_PORTS;
		break;
	case WARDEN_CONSOLE_HYPERCALL:
		ok = hypercall_ok;
		break;
	default:
		ok = false;
		break;
	}
	if (!ok)
		fail(ck, WARDEN_RULE_CONSOLE, WARDEN_ITEM_CONSOLE, index,
		     con->type, con->address, 0, 0);
}

static void check_region_fields(struct checker *ck, const struct cell *c,
				uint32_t i, const struct region *r)
{
	uint32_t allowed = WARDEN_MEM_FLAGS_ALL;
	uint8_t need;

	if (r->reserved)
		fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			    c->regions_off + (size_t)i * REGION_SIZE +
				    REGION_OFF(reserved),
			    r->reserved);
	if (c->root)
		allowed &= ~WARDEN_MEM_COMM_REGION;
	if (r->flags & ~allowed)
		fail_region(ck, WARDEN_RULE_MEM_FLAGS, i, r, r->flags, allowed);
	if (!page_aligned(r->phys) || !page_aligned(r->guest) ||
	    !page_aligned(r->size))
		fail_region(ck, WARDEN_RULE_MEM_UNALIGNED, i, r, r->guest, 0);
	if (!r->size)
		fail_region(ck, WARDEN_RULE_MEM_EMPTY, i, r, 0, 0);
	else if (wraps(r->phys, r->size) || wraps(r->guest, r->size))
		fail_region(ck, WARDEN_RULE_MEM_WRAPS, i, r, r->guest, 0);
	if (!valid_mem_type(r->type)) {
		fail_region(ck, WARDEN_RULE_MEM_TYPE, i, r, r->type, 0);
	} else {
		need = (r->flags & WARDEN_MEM_IO) ? WARDEN_MEMTYPE_UC
						  : WARDEN_MEMTYPE_WB;
		if (r->type != need)
			fail_region(ck, WARDEN_RULE_MEM_TYPE_MISMATCH, i, r,
				    r->type, need);
	}
	if (!c->root && is_comm(r) &&
	    (r->phys || r->size != CONFIG_CHECK_PAGE_SIZE ||
	     (r->flags & WARDEN_MEM_IO)))
		fail_region(ck, WARDEN_RULE_COMM_REGION_SHAPE, i, r, 0, 0);
}

/* Regions of one cell; sys (may be NULL) gives the hypervisor memory. */
static void check_regions(struct checker *ck, const struct cell *c,
			  const struct system *sys)
{
	struct region r, q;
	unsigned int comm = 0;
	bool phys_done, guest_done, reset_ok = false;
	uint32_t i, j;

	for (i = 0; i < c->num_regions; i++) {
		get_region(c, i, &r);
		check_region_fields(ck, c, i, &r);
		if (is_comm(&r))
			comm++;
		if (!region_sane(&r))
			continue;
		if ((r.flags & (WARDEN_MEM_LOADABLE | WARDEN_MEM_EXECUTE)) ==
			    (WARDEN_MEM_LOADABLE | WARDEN_MEM_EXECUTE) &&
		    !is_comm(&r) && c->reset >= r.guest &&
		    c->reset <= last(r.guest, r.size))
			reset_ok = true;
		if (sys && sys->hv_usable && !is_comm(&r) &&
		    overlap(r.phys, r.size, sys->hv_start, sys->hv_size))
			fail_region(ck, WARDEN_RULE_MEM_OVERLAPS_HV, i, &r,
				    sys->hv_start, sys->hv_size);
		phys_done = is_comm(&r);
		guest_done = false;
		for (j = 0; j < i && !(phys_done && guest_done); j++) {
			get_region(c, j, &q);
			if (!region_sane(&q))
				continue;
			if (!phys_done && !is_comm(&q) &&
			    overlap(r.phys, r.size, q.phys, q.size)) {
				fail_region(ck, WARDEN_RULE_MEM_OVERLAP, i, &r,
					    j, 0);
				phys_done = true;
			}
			if (!guest_done &&
			    overlap(r.guest, r.size, q.guest, q.size)) {
				fail_region(ck, WARDEN_RULE_MEM_OVERLAP, i, &r,
					    j, 1);
				guest_done = true;
			}
		}
	}
	if (c->root)
		return;
	if (comm != 1)
		fail(ck, WARDEN_RULE_COMM_REGION_COUNT, WARDEN_ITEM_CELL, c->id,
		     comm, 0, 0, 0);
	if (!reset_ok)
		fail(ck, WARDEN_RULE_RESET_NOT_LOADABLE, WARDEN_ITEM_CELL,
		     c->id, c->reset, 0, 0, 0);
}

static void check_pio(struct checker *ck, const struct cell *c)
{
	struct pio p, q;
	uint32_t i, j;

	for (i = 0; i < c->num_pio; i++) {
		get_pio(c, i, &p);
		if (p.reserved)
			fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
				    c->pio_off + (size_t)i * PIO_SIZE +
					    PIO_OFF(reserved),
				    p.reserved);
		if (!pio_sane(&p)) {
			fail_pio(ck, WARDEN_RULE_PIO_RANGE, i, &p, 0);
			continue;
		}
		for (j = 0; j < i; j++) {
			get_pio(c, j, &q);
			if (pio_sane(&q) &&
			    overlap(p.base, p.length, q.base, q.length)) {
				fail_pio(ck, WARDEN_RULE_PIO_OVERLAP, i, &p, j);
				break;
			}
		}
	}
}

/* Is [base, base + length) inside one of the cell's port ranges? */
static bool ports_in_cell(const struct cell *c, uint64_t base, uint64_t length)
{
	struct pio p;
	uint32_t i;

	for (i = 0; i < c->num_pio; i++) {
		get_pio(c, i, &p);
		if (pio_sane(&p) && inside(base, length, p.base, p.length))
			return true;
	}
	return false;
}

static void get_pin(const struct cell *c, uint32_t i, uint32_t *gsi,
		    uint32_t *reserved)
{
	size_t off = c->pins_off + (size_t)i * PIN_SIZE;

	*gsi = load32(c->blob, off + PIN_OFF(gsi));
	if (reserved)
		*reserved = load32(c->blob, off + PIN_OFF(reserved));
}

static uint32_t pin_gsi(const struct cell *c, uint32_t i)
{
	uint32_t gsi;

	get_pin(c, i, &gsi, NULL);
	return gsi;
}

/* Field by field, never a structure copy (no memcpy in the hypervisor). */
static void get_pci(const struct cell *c, uint32_t i, struct pci *d)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;
	size_t bar;
	unsigned int b;

	d->domain = load16(c->blob, off + PCI_OFF(domain));
	d->bdf = load16(c->blob, off + PCI_OFF(bdf));
	d->vendor = load16(c->blob, off + PCI_OFF(vendor_id));
	d->device = load16(c->blob, off + PCI_OFF(device_id));
	d->flags = load32(c->blob, off + PCI_OFF(flags));
	d->int_pin = c->blob[off + PCI_OFF(int_pin)];
	d->reserved0 = (uint32_t)load(c->blob, off + PCI_OFF(reserved0), 3);
	d->gsi = load32(c->blob, off + PCI_OFF(gsi));
	d->reserved1 = load32(c->blob, off + PCI_OFF(reserved1));
	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		bar = off + PCI_OFF(bars) + b * BAR_SIZE;
		d->bars[b].address = load64(c->blob, bar + BAR_OFF(address));
		d->bars[b].size = load64(c->blob, bar + BAR_OFF(size));
		d->bars[b].flags = load32(c->blob, bar + BAR_OFF(flags));
		d->bars[b].reserved = load32(c->blob, bar + BAR_OFF(reserved));
	}
}

/* The device's id in records: domain << 16 | bdf. */
static uint32_t pci_id(const struct pci *d)
{
	return (uint32_t)d->domain << 16 | d->bdf;
}

/* The domain << 16 | bdf of device i, without reading the rest. */
static uint32_t pci_id_at(const struct cell *c, uint32_t i)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;

	return (uint32_t)load16(c->blob, off + PCI_OFF(domain)) << 16 |
	       load16(c->blob, off + PCI_OFF(bdf));
}

/* The gsi of device i, and whether its INTx drives it (int_pin A-D and
 * a GSI given), without reading the rest: the loops over pins and
 * devices stay cheap in the hypervisor. */
static uint32_t pci_gsi_at(const struct cell *c, uint32_t i, bool *intx)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;
	uint8_t pin = c->blob[off + PCI_OFF(int_pin)];
	uint32_t gsi = load32(c->blob, off + PCI_OFF(gsi));

	if (intx)
		*intx = pin >= WARDEN_PCI_INT_A && pin <= WARDEN_PCI_INT_D &&
			gsi != WARDEN_NO_GSI;
	return gsi;
}

/* Its INTx drives an IOAPIC input (int_pin valid and a GSI given). */
static bool pci_intx(const struct pci *d)
{
	return d->int_pin >= WARDEN_PCI_INT_A &&
	       d->int_pin <= WARDEN_PCI_INT_D && d->gsi != WARDEN_NO_GSI;
}

static bool has_pin(const struct cell *c, uint32_t gsi)
{
	uint32_t i;

	for (i = 0; i < c->num_pins; i++)
		if (pin_gsi(c, i) == gsi)
			return true;
	return false;
}

/* Index of the cell's device with this id, or -1. */
static int64_t find_pci(const struct cell *c, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < c->num_pci; i++)
		if (pci_id_at(c, i) == id)
			return i;
	return -1;
}

/* Does one of the cell's devices name gsi as its INTx's? */
static bool pin_named(const struct cell *c, uint32_t gsi)
{
	uint32_t i;

	for (i = 0; i < c->num_pci; i++)
		if (pci_gsi_at(c, i, NULL) == gsi)
			return true;
	return false;
}

static bool power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/*
 * What is wrong with BAR b of d (WARDEN_PCI_BAR_BAD_*, 0: nothing), and
 * the value at fault.  upper: the BAR before it is a 64-bit one, so this
 * is its upper half.
 */
static unsigned int bar_fault(const struct pci *d, unsigned int b, bool upper,
			      uint64_t *value)
{
	const struct pci_bar *bar = &d->bars[b];
	uint32_t io_bad = WARDEN_PCI_BAR_MEM64 | WARDEN_PCI_BAR_PREFETCH;

	*value = bar->size;
	if (upper)
		return bar->size || bar->address || bar->flags
			       ? WARDEN_PCI_BAR_BAD_UPPER
			       : 0;
	*value = bar->flags;
	/* 64-bit and prefetchable describe memory, not ports */
	if ((bar->flags & ~WARDEN_PCI_BAR_FLAGS_ALL) ||
	    ((bar->flags & WARDEN_PCI_BAR_IO) && (bar->flags & io_bad)))
		return WARDEN_PCI_BAR_BAD_FLAGS;
	if (!bar->size) {
		*value = bar->address;
		return bar->address || bar->flags ? WARDEN_PCI_BAR_BAD_EMPTY
						  : 0;
	}
	if (!power_of_2(bar->size)) {
		*value = bar->size;
		return WARDEN_PCI_BAR_BAD_SIZE;
	}
	*value = bar->address;
	if (bar->address & (bar->size - 1))
		return WARDEN_PCI_BAR_BAD_ALIGN;
	if ((bar->flags & WARDEN_PCI_BAR_IO) &&
	    (bar->address >= PORT_END || bar->size > PORT_END - bar->address))
		return WARDEN_PCI_BAR_BAD_PORTS;
	*value = bar->flags;
	if ((bar->flags & WARDEN_PCI_BAR_MEM64) && b == WARDEN_PCI_BARS - 1)
		return WARDEN_PCI_BAR_BAD_MEM64_5;
	return 0;
}

/* Checks the BARs; ok[b]: BAR b is valid and not empty. */
static void check_bars(struct checker *ck, uint32_t i, const struct pci *d,
		       bool *ok)
{
	unsigned int b, why;
	bool upper = false;
	uint64_t value;

	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		why = bar_fault(d, b, upper, &value);
		if (why)
			fail(ck, WARDEN_RULE_PCI_BAR, WARDEN_ITEM_PCI_DEVICE, i,
			     pci_id(d), b, why, value);
		ok[b] = !why && !upper && d->bars[b].size;
		upper = !upper && (d->bars[b].flags & WARDEN_PCI_BAR_MEM64);
	}
}

/* Is the memory range inside one IO region of the cell that maps it at
 * its own address (guest_start == phys_start)? */
static bool mmio_in_cell(const struct cell *c, uint64_t start, uint64_t size)
{
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		get_region(c, i, &r);
		if (region_sane(&r) && !is_comm(&r) &&
		    (r.flags & WARDEN_MEM_IO) && r.guest == r.phys &&
		    inside(start, size, r.phys, r.size))
			return true;
	}
	return false;
}

static void check_pins(struct checker *ck, const struct cell *c)
{
	uint32_t i, j, gsi, reserved;

	for (i = 0; i < c->num_pins; i++) {
		get_pin(c, i, &gsi, &reserved);
		if (reserved)
			fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
				    c->pins_off + (size_t)i * PIN_SIZE +
					    PIN_OFF(reserved),
				    reserved);
		for (j = 0; j < i; j++) {
			if (pin_gsi(c, j) == gsi) {
				fail(ck, WARDEN_RULE_PIN_DUPLICATE,
				     WARDEN_ITEM_IRQ_PIN, i, gsi, j, 0, 0);
				break;
			}
		}
		/* Firmware describes no device on a pin above the ISA IRQs
		 * that no PCI device of the cell names (Bochs drives PIRQ n
		 * on pin 16 + n too): the cell could not know what it is. */
		if (!c->root && j == i && gsi >= ISA_IRQS && !pin_named(c, gsi))
			fail(ck, WARDEN_RULE_PIN_UNUSED, WARDEN_ITEM_IRQ_PIN, i,
			     gsi, 0, 0, 0);
	}
}

static void check_pci_reserved(struct checker *ck, const struct cell *c,
			       uint32_t i, const struct pci *d)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;
	unsigned int b;

	if (d->reserved0)
		fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			    off + PCI_OFF(reserved0), d->reserved0);
	if (d->reserved1)
		fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			    off + PCI_OFF(reserved1), d->reserved1);
	for (b = 0; b < WARDEN_PCI_BARS; b++)
		if (d->bars[b].reserved)
			fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
				    off + PCI_OFF(bars) + b * BAR_SIZE +
					    BAR_OFF(reserved),
				    d->bars[b].reserved);
}

/* A non-root cell sees its device's BARs where they are and owns the pin
 * its INTx drives. */
static void check_pci_owned(struct checker *ck, const struct cell *c,
			    uint32_t i, const struct pci *d, const bool *ok)
{
	const struct pci_bar *bar;
	unsigned int b;

	if (!(d->flags & WARDEN_PCI_DMA_UNISOLATED))
		fail(ck, WARDEN_RULE_PCI_DMA, WARDEN_ITEM_PCI_DEVICE, i,
		     pci_id(d), 0, 0, 0);
	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		bar = &d->bars[b];
		if (!ok[b])
			continue;
		if (bar->flags & WARDEN_PCI_BAR_IO) {
			if (!ports_in_cell(c, bar->address, bar->size))
				fail(ck, WARDEN_RULE_PCI_BAR_PORTS,
				     WARDEN_ITEM_PCI_DEVICE, i, pci_id(d), b,
				     bar->address, bar->size);
		} else if (!mmio_in_cell(c, bar->address, bar->size)) {
			fail(ck, WARDEN_RULE_PCI_BAR_NOT_MAPPED,
			     WARDEN_ITEM_PCI_DEVICE, i, pci_id(d), b,
			     bar->address, bar->size);
		}
	}
	if (pci_intx(d) && !has_pin(c, d->gsi))
		fail(ck, WARDEN_RULE_PCI_PIN_NOT_OWNED, WARDEN_ITEM_PCI_DEVICE,
		     i, pci_id(d), d->gsi, 0, 0);
}

static void check_pci(struct checker *ck, const struct cell *c)
{
	uint32_t allowed = WARDEN_PCI_FLAGS_ALL;
	bool ok[WARDEN_PCI_BARS];
	struct pci d;
	uint32_t i, j;

	/* root lists the machine's devices: it takes none unisolated */
	if (c->root)
		allowed &= ~WARDEN_PCI_DMA_UNISOLATED;
	for (i = 0; i < c->num_pci; i++) {
		get_pci(c, i, &d);
		check_pci_reserved(ck, c, i, &d);
		for (j = 0; j < i; j++) {
			if (pci_id_at(c, j) == pci_id(&d)) {
				fail(ck, WARDEN_RULE_PCI_DUPLICATE,
				     WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), j,
				     0, 0);
				break;
			}
		}
		if (d.flags & ~allowed)
			fail(ck, WARDEN_RULE_PCI_FLAGS, WARDEN_ITEM_PCI_DEVICE,
			     i, pci_id(&d), d.flags, allowed, 0);
		if (d.int_pin > WARDEN_PCI_INT_D)
			fail(ck, WARDEN_RULE_PCI_INT_PIN,
			     WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), d.int_pin,
			     0, 0);
		else if (d.int_pin == WARDEN_PCI_INT_NONE &&
			 d.gsi != WARDEN_NO_GSI)
			fail(ck, WARDEN_RULE_PCI_GSI_NO_PIN,
			     WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), d.gsi, 0,
			     0);
		check_bars(ck, i, &d, ok);
		if (!c->root)
			check_pci_owned(ck, c, i, &d, ok);
	}
}

/*
 * Everything about one cell that needs no other config.  sys gives the
 * hypervisor memory for the root cell's regions (NULL otherwise).
 */
static bool check_cell_alone(struct checker *ck, const struct cell *c,
			     const struct system *sys)
{
	bool name_ok = check_name(ck, c);

	if (c->flags & ~WARDEN_CELL_FLAGS_ALL)
		fail(ck, WARDEN_RULE_CELL_FLAGS, WARDEN_ITEM_CELL, c->id,
		     c->flags, WARDEN_CELL_FLAGS_ALL, 0, 0);
	if (c->reserved)
		fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			    c->desc + CELL_OFF(reserved), c->reserved);
	if (cpus_empty(c->cpus))
		fail(ck, WARDEN_RULE_CPUS_EMPTY, WARDEN_ITEM_CELL, c->id, 0, 0,
		     0, 0);
	else if (cpu_in(c->cpus, 0) != c->root)
		fail(ck, WARDEN_RULE_CPU0_NOT_ROOT, WARDEN_ITEM_CPU, 0, 0, 0, 0,
		     0);
	check_console(ck, &c->console, 1, !c->root);
	if (!c->arrays)
		return name_ok;
	check_regions(ck, c, sys);
	check_pio(ck, c);
	if (!c->root && c->console.type == WARDEN_CONSOLE_UART_PIO &&
	    c->console.address <= PORT_END - UART_PORTS &&
	    !ports_in_cell(c, c->console.address, UART_PORTS))
		fail(ck, WARDEN_RULE_CONSOLE_PORTS, WARDEN_ITEM_CONSOLE, 1,
		     c->console.type, c->console.address, 0, 0);
	check_pins(ck, c);
	check_pci(ck, c);
	return name_ok;
}

static void get_ioapic(const struct system *sys, const uint8_t *p, uint32_t i,
		       struct ioapic *a)
{
	size_t off = sys->ioapics_off + (size_t)i * IOAPIC_SIZE;

	a->address = load64(p, off + IOAPIC_OFF(address));
	a->gsi_base = load32(p, off + IOAPIC_OFF(gsi_base));
	a->id = p[off + IOAPIC_OFF(id)];
	a->num_pins = p[off + IOAPIC_OFF(num_pins)];
	a->reserved = load16(p, off + IOAPIC_OFF(reserved));
}

static bool ioapic_pins_ok(const struct ioapic *a)
{
	return a->num_pins && a->num_pins <= IOAPIC_MAX_PINS;
}

static void check_ioapics(struct checker *ck, const struct system *sys,
			  const uint8_t *p)
{
	struct ioapic a, b;
	uint32_t i, j;

	for (i = 0; i < sys->num_ioapics; i++) {
		get_ioapic(sys, p, i, &a);
		if (a.reserved)
			fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
				    sys->ioapics_off + (size_t)i * IOAPIC_SIZE +
					    IOAPIC_OFF(reserved),
				    a.reserved);
		if (!a.address || !page_aligned(a.address))
			fail(ck, WARDEN_RULE_IOAPIC_ADDRESS, WARDEN_ITEM_IOAPIC,
			     i, a.address, 0, 0, 0);
		if (!ioapic_pins_ok(&a))
			fail(ck, WARDEN_RULE_IOAPIC_PINS, WARDEN_ITEM_IOAPIC, i,
			     a.address, a.num_pins, IOAPIC_MAX_PINS, 0);
		for (j = 0; j < i; j++) {
			get_ioapic(sys, p, j, &b);
			if (a.address == b.address) {
				fail(ck, WARDEN_RULE_IOAPIC_OVERLAP,
				     WARDEN_ITEM_IOAPIC, i, a.address, j, 0, 0);
				break;
			}
			if (ioapic_pins_ok(&a) && ioapic_pins_ok(&b) &&
			    overlap(a.gsi_base, a.num_pins, b.gsi_base,
				    b.num_pins)) {
				fail(ck, WARDEN_RULE_IOAPIC_OVERLAP,
				     WARDEN_ITEM_IOAPIC, i, a.address, j, 1, 0);
				break;
			}
		}
	}
}

/* Is the GSI an input of one of the system's IOAPICs? */
static bool pin_in_ioapic(const struct system *sys, uint32_t gsi)
{
	struct ioapic a;
	uint32_t i;

	if (!sys->ioapics)
		return false;
	for (i = 0; i < sys->num_ioapics; i++) {
		get_ioapic(sys, sys->root.blob, i, &a);
		if (ioapic_pins_ok(&a) && gsi >= a.gsi_base &&
		    (uint64_t)gsi < (uint64_t)a.gsi_base + a.num_pins)
			return true;
	}
	return false;
}

/* c's pins against the IOAPICs (root's too, in a system config). */
static void check_pins_ioapic(struct checker *ck, const struct cell *c,
			      const struct system *sys)
{
	uint32_t i, gsi;

	for (i = 0; i < c->num_pins; i++) {
		gsi = pin_gsi(c, i);
		if (!pin_in_ioapic(sys, gsi))
			fail(ck, WARDEN_RULE_PIN_NO_IOAPIC, WARDEN_ITEM_IRQ_PIN,
			     i, gsi, 0, 0, 0);
	}
}

/* ---- links (link.h): rules 180-186 ---- */

#define NAME_UNTERMINATED 0x100u /* LINK_BAD_NAME value: no NUL */
#define BELOW_4G 0x100000000ull

/*
 * Is the name at off bad?  *value: 0 empty, the first byte that is not
 * printable, or NAME_UNTERMINATED (no NUL in the field).
 */
static bool name_fault(const uint8_t *p, size_t off, uint64_t *value)
{
	unsigned int i;

	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (!p[off + i]) {
			*value = 0;
			return i == 0;
		}
		if (p[off + i] < 0x20 || p[off + i] > 0x7e) {
			*value = p[off + i];
			return true;
		}
	}
	*value = NAME_UNTERMINATED;
	return true;
}

static const uint8_t *root_name(const struct system *sys)
{
	return sys->root.blob + sys->root.desc + CELL_OFF(name);
}

static void get_link(const struct system *sys, uint32_t i, struct link *l)
{
	const uint8_t *p = sys->root.blob;

	l->off = sys->links_off + (size_t)i * LINK_SIZE;
	l->phys = load64(p, l->off + LINK_OFF(phys_start));
	l->size = load64(p, l->off + LINK_OFF(size));
	l->flags = load32(p, l->off + LINK_OFF(flags));
	l->num_peers = load16(p, l->off + LINK_OFF(num_peers));
	l->peers = l->num_peers < WARDEN_LINK_MAX_PEERS ? l->num_peers
							: WARDEN_LINK_MAX_PEERS;
	l->sane = l->size && !wraps(l->phys, l->size);
	/* an aligned power of 2 cannot wrap */
	l->mem_ok = power_of_2(l->size) && l->size >= WARDEN_LINK_MIN_SIZE &&
		    !(l->phys & (l->size - 1));
}

static void get_peer(const struct system *sys, const struct link *l, uint32_t i,
		     struct peer *q)
{
	const uint8_t *p = sys->root.blob;
	uint64_t unused;

	q->off = l->off + LINK_OFF(peers) + (size_t)i * PEER_SIZE;
	q->shmem = load64(p, q->off + PEER_OFF(shmem_address));
	q->regs = load64(p, q->off + PEER_OFF(regs_address));
	q->bdf = load16(p, q->off + PEER_OFF(bdf));
	q->vectors = p[q->off + PEER_OFF(vectors)];
	q->name_ok = !name_fault(p, q->off + PEER_OFF(cell), &unused);
	q->root = names_equal(p + q->off + PEER_OFF(cell), root_name(sys));
	q->regs_ok = page_aligned(q->regs) && q->regs < BELOW_4G &&
		     q->regs + WARDEN_LINK_REGS_SIZE <= BELOW_4G;
	q->shmem_ok = !q->root && l->mem_ok && !(q->shmem & (l->size - 1));
}

static const uint8_t *peer_name(const struct system *sys, const struct peer *q)
{
	return sys->root.blob + q->off + PEER_OFF(cell);
}

static void fail_link(struct checker *ck, uint32_t rule, uint32_t i,
		      uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)
{
	fail(ck, rule, WARDEN_ITEM_LINK, i, v0, v1, v2, v3);
}

/* LINK_FIELDS about link i (peer ~0) or one of its peers. */
static void fail_fields(struct checker *ck, uint32_t i, uint64_t what,
			uint64_t value, uint64_t peer)
{
	fail_link(ck, WARDEN_RULE_LINK_FIELDS, i, what, value, peer, 0);
}

/* The offset, inside the link, of the first byte of [off, off + n) that
 * is not 0; 0 when they all are (no offset inside a link is 0 there). */
static uint64_t nonzero_at(const struct system *sys, const struct link *l,
			   size_t off, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (sys->root.blob[off + k])
			return off + k - l->off;
	return 0;
}

/* Name, flags, peer count, reserved bytes and unused peer entries. */
static void check_link_fields(struct checker *ck, const struct system *sys,
			      uint32_t i, const struct link *l)
{
	const uint8_t *p = sys->root.blob;
	const uint64_t none = ~(uint64_t)0;
	struct link o;
	uint64_t value, at;
	uint32_t j;

	if (name_fault(p, l->off + LINK_OFF(name), &value)) {
		fail_fields(ck, i, WARDEN_LINK_BAD_NAME, value, none);
	} else {
		for (j = 0; j < i; j++) {
			get_link(sys, j, &o);
			if (!name_fault(p, o.off + LINK_OFF(name), &value) &&
			    names_equal(p + o.off + LINK_OFF(name),
					p + l->off + LINK_OFF(name))) {
				fail_fields(ck, i,
					    WARDEN_LINK_BAD_NAME_DUPLICATE, j,
					    none);
				break;
			}
		}
	}
	if (l->flags & ~WARDEN_LINK_FLAGS_ALL)
		fail_fields(ck, i, WARDEN_LINK_BAD_FLAGS, l->flags, none);
	if (l->num_peers < 2 || l->num_peers > WARDEN_LINK_MAX_PEERS)
		fail_fields(ck, i, WARDEN_LINK_BAD_NUM_PEERS, l->num_peers,
			    none);
	for (j = 0; j < WARDEN_LINK_MAX_PEERS; j++) {
		size_t off = l->off + LINK_OFF(peers) + (size_t)j * PEER_SIZE;

		/* a peer's reserved bytes; every byte of an entry not in
		 * use */
		at = j < l->peers ? nonzero_at(sys, l, off + PEER_OFF(reserved),
					       PEER_SIZE - PEER_OFF(reserved))
				  : nonzero_at(sys, l, off, PEER_SIZE);
		if (at)
			fail_fields(ck, i, WARDEN_LINK_BAD_RESERVED, at, j);
		if (j < l->peers && name_fault(p, off + PEER_OFF(cell), &value))
			fail_fields(ck, i, WARDEN_LINK_BAD_PEER_NAME, value, j);
	}
}

/* Is the range inside one of root's RAM regions (read and write, not
 * device memory)? */
static bool in_root_ram(const struct cell *root, uint64_t start, uint64_t size)
{
	const uint32_t rw = WARDEN_MEM_READ | WARDEN_MEM_WRITE;
	struct region r;
	uint32_t i;

	for (i = 0; i < root->num_regions; i++) {
		get_region(root, i, &r);
		if (region_sane(&r) && !is_comm(&r) && (r.flags & rw) == rw &&
		    !(r.flags & WARDEN_MEM_IO) &&
		    inside(start, size, r.phys, r.size))
			return true;
	}
	return false;
}

static void check_link_memory(struct checker *ck, const struct system *sys,
			      uint32_t i, const struct link *l)
{
	struct link o;
	uint32_t j;

	if (!l->mem_ok || !in_root_ram(&sys->root, l->phys, l->size))
		fail_link(ck, WARDEN_RULE_LINK_MEMORY, i, l->phys, l->size, 0,
			  0);
	if (!l->sane)
		return;
	if (sys->hv_usable &&
	    overlap(l->phys, l->size, sys->hv_start, sys->hv_size))
		fail_link(ck, WARDEN_RULE_LINK_MEMORY_OVERLAP, i, l->phys,
			  l->size, 0, 0);
	for (j = 0; j < i; j++) {
		get_link(sys, j, &o);
		if (o.sane && overlap(l->phys, l->size, o.phys, o.size)) {
			fail_link(ck, WARDEN_RULE_LINK_MEMORY_OVERLAP, i,
				  l->phys, l->size, 1, j);
			break;
		}
	}
}

static void fail_address(struct checker *ck, uint32_t i, uint32_t p,
			 uint64_t address, uint64_t what)
{
	fail_link(ck, WARDEN_RULE_LINK_PEER_ADDRESS, i, p, address, what, 0);
}

/* Does the page at regs overlap a valid memory BAR of root's devices? */
static bool over_root_bar(const struct system *sys, uint64_t regs)
{
	const struct cell *root = &sys->root;
	struct pci d;
	uint64_t value;
	unsigned int b;
	uint32_t j;
	bool upper;

	for (j = 0; j < root->num_pci; j++) {
		get_pci(root, j, &d);
		upper = false;
		for (b = 0; b < WARDEN_PCI_BARS; b++) {
			const struct pci_bar *bar = &d.bars[b];
			bool ok = !bar_fault(&d, b, upper, &value) && !upper &&
				  bar->size &&
				  !(bar->flags & WARDEN_PCI_BAR_IO);

			upper = !upper && (bar->flags & WARDEN_PCI_BAR_MEM64);
			if (ok && overlap(regs, WARDEN_LINK_REGS_SIZE,
					  bar->address, bar->size))
				return true;
		}
	}
	return false;
}

/* Does the page at regs overlap an IOAPIC or the MMCONFIG window, which
 * the hypervisor traps for root? */
static bool over_trapped(const struct system *sys, uint64_t regs)
{
	struct ioapic a;
	uint32_t i;

	if (sys->mmconfig_size &&
	    overlap(regs, WARDEN_LINK_REGS_SIZE, sys->mmconfig_base,
		    sys->mmconfig_size))
		return true;
	for (i = 0; sys->ioapics && i < sys->num_ioapics; i++) {
		get_ioapic(sys, sys->root.blob, i, &a);
		if (a.address && !wraps(a.address, CONFIG_CHECK_PAGE_SIZE) &&
		    overlap(regs, WARDEN_LINK_REGS_SIZE, a.address,
			    CONFIG_CHECK_PAGE_SIZE))
			return true;
	}
	return false;
}

/* A peer's own BAR addresses (the system config alone). */
static void check_peer_address(struct checker *ck, const struct system *sys,
			       uint32_t i, const struct link *l, uint32_t p,
			       const struct peer *q)
{
	if (!q->regs_ok)
		fail_address(ck, i, p, q->regs, WARDEN_LINK_BAD_REGS_ALIGN);
	if (q->root) {
		/* root sees the link where it is, in its own RAM, and the
		 * registers in its device memory where nothing else is */
		if (q->regs_ok &&
		    !mmio_in_cell(&sys->root, q->regs, WARDEN_LINK_REGS_SIZE))
			fail_address(ck, i, p, q->regs,
				     WARDEN_LINK_BAD_REGS_NOT_DEVICE);
		else if (q->regs_ok && over_root_bar(sys, q->regs))
			fail_address(ck, i, p, q->regs,
				     WARDEN_LINK_BAD_REGS_OVER_BAR);
		else if (q->regs_ok && over_trapped(sys, q->regs))
			fail_address(ck, i, p, q->regs,
				     WARDEN_LINK_BAD_REGS_TRAPPED);
		if (q->shmem != l->phys)
			fail_address(ck, i, p, q->shmem,
				     WARDEN_LINK_BAD_ROOT_SHMEM);
		return;
	}
	/* BAR 2 is naturally aligned, as every BAR */
	if (l->mem_ok && !q->shmem_ok)
		fail_address(ck, i, p, q->shmem, WARDEN_LINK_BAD_SHMEM_ALIGN);
	if (q->regs_ok && q->shmem_ok &&
	    overlap(q->regs, WARDEN_LINK_REGS_SIZE, q->shmem, l->size))
		fail_address(ck, i, p, q->regs, WARDEN_LINK_BAD_OVER_OTHER);
}

/* Do the BARs of peer q (of link l) and peer o (of link m), both of the
 * same cell, overlap?  *at: the address of q's at fault.  Root's BAR 2 is
 * the link memory itself, which LINK_MEMORY_OVERLAP covers. */
static bool bars_overlap(const struct link *l, const struct peer *q,
			 const struct link *m, const struct peer *o,
			 uint64_t *at)
{
	const uint64_t page = WARDEN_LINK_REGS_SIZE;

	if (q->regs_ok &&
	    ((o->regs_ok && overlap(q->regs, page, o->regs, page)) ||
	     (o->shmem_ok && overlap(q->regs, page, o->shmem, m->size)))) {
		*at = q->regs;
		return true;
	}
	if (q->shmem_ok &&
	    ((o->regs_ok && overlap(q->shmem, l->size, o->regs, page)) ||
	     (o->shmem_ok && overlap(q->shmem, l->size, o->shmem, m->size)))) {
		*at = q->shmem;
		return true;
	}
	return false;
}

/* Is bdf one of the cell's functions in PCI segment 0 (where links put
 * their virtual functions)? */
static bool bdf_in_cell(const struct cell *c, uint16_t bdf)
{
	return find_pci(c, bdf) >= 0;
}

/*
 * Peer p of link i against the peers before it (every peer of an
 * earlier link, the earlier peers of its own) that name the same cell:
 * not twice in one link, another virtual function address, other BAR
 * addresses.  Root's also against root's functions.
 */
static void check_peer_cell(struct checker *ck, const struct system *sys,
			    uint32_t i, const struct link *l, uint32_t p,
			    const struct peer *q)
{
	bool bdf_done = false, bar_done = false;
	struct link m;
	struct peer o;
	uint64_t at;
	uint32_t j, k;

	/* twice in its own link: the rest would only repeat it */
	for (k = 0; k < p; k++) {
		get_peer(sys, l, k, &o);
		if (o.name_ok &&
		    names_equal(peer_name(sys, &o), peer_name(sys, q))) {
			fail_link(ck, WARDEN_RULE_LINK_PEER, i, p, 0, k, 0);
			return;
		}
	}
	if (q->root && bdf_in_cell(&sys->root, q->bdf)) {
		fail_link(ck, WARDEN_RULE_LINK_PEER_BDF, i, p, q->bdf, 0, 0);
		bdf_done = true;
	}
	for (j = 0; j < i; j++) {
		get_link(sys, j, &m);
		for (k = 0; k < m.peers; k++) {
			get_peer(sys, &m, k, &o);
			if (!o.name_ok ||
			    !names_equal(peer_name(sys, &o), peer_name(sys, q)))
				continue;
			if (!bdf_done && o.bdf == q->bdf) {
				fail_link(ck, WARDEN_RULE_LINK_PEER_BDF, i, p,
					  q->bdf, 0, 0);
				bdf_done = true;
			}
			if (!bar_done && bars_overlap(l, q, &m, &o, &at)) {
				fail_address(ck, i, p, at,
					     WARDEN_LINK_BAD_OVER_OTHER);
				bar_done = true;
			}
		}
	}
}

static void check_links(struct checker *ck, const struct system *sys)
{
	struct link l;
	struct peer q;
	uint32_t i, p;

	for (i = 0; i < sys->num_links; i++) {
		get_link(sys, i, &l);
		check_link_fields(ck, sys, i, &l);
		check_link_memory(ck, sys, i, &l);
		for (p = 0; p < l.peers; p++) {
			get_peer(sys, &l, p, &q);
			if (q.name_ok)
				check_peer_cell(ck, sys, i, &l, p, &q);
			check_peer_address(ck, sys, i, &l, p, &q);
			if (!q.vectors || q.vectors > WARDEN_LINK_MAX_VECTORS)
				fail_link(ck, WARDEN_RULE_LINK_PEER_VECTORS, i,
					  p, q.vectors, 0, 0);
		}
	}
}

static bool check_system_blob(struct checker *ck, const uint8_t *p, size_t size,
			      struct system *sys)
{
	uint64_t v, extra;
	unsigned int cpu;

	if (!check_header(ck, p, size, false))
		return false;
	sys->hv_start = load64(p, SYS_OFF(hv_mem_start));
	sys->hv_size = load64(p, SYS_OFF(hv_mem_size));
	if (!sys->hv_size || !page_aligned(sys->hv_start) ||
	    !page_aligned(sys->hv_size) ||
	    sys->hv_size < CONFIG_CHECK_HV_MEM_MIN ||
	    wraps(sys->hv_start, sys->hv_size))
		fail(ck, WARDEN_RULE_HV_MEM, WARDEN_ITEM_SYSTEM, 0,
		     sys->hv_start, sys->hv_size, CONFIG_CHECK_HV_MEM_MIN, 0);
	sys->hv_usable = sys->hv_size && !wraps(sys->hv_start, sys->hv_size);

	read_console(p, SYS_OFF(debug_console), &sys->debug);
	check_console(ck, &sys->debug, 0, false);

	sys->num_ioapics = load16(p, PLAT_OFF(num_ioapics));
	sys->num_links = load16(p, PLAT_OFF(num_links));
	sys->mmconfig_base = load64(p, PLAT_OFF(mmconfig_base));
	v = load(p, PLAT_OFF(mmconfig_end_bus), 1);
	sys->mmconfig_size = sys->mmconfig_base ? (v + 1) << 20 : 0;
	sys->iommu_base = load64(p, PLAT_OFF(iommu_base));
	sys->hpet_base = load64(p, PLAT_OFF(hpet_base));
	v = load16(p, PLAT_OFF(reserved1));
	if (v)
		fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			    PLAT_OFF(reserved1), v);
	v = load(p, PLAT_OFF(reserved2),
		 sizeof(((struct warden_platform *)0)->reserved2));
	if (v)
		fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			    PLAT_OFF(reserved2), v);

	sys->root.id = WARDEN_ROOT_CELL_ID;
	sys->root.root = true;
	sys->ioapics = sys->num_ioapics <= CONFIG_CHECK_MAX_IOAPICS;
	if (!sys->ioapics)
		fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 4,
		     sys->num_ioapics, CONFIG_CHECK_MAX_IOAPICS, 0, 0);
	sys->links = sys->num_links <= CONFIG_CHECK_MAX_LINKS;
	if (!sys->links)
		fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 5,
		     sys->num_links, CONFIG_CHECK_MAX_LINKS, 0, 0);
	extra = sys->ioapics ? (uint64_t)sys->num_ioapics * IOAPIC_SIZE : 0;
	if (sys->links)
		extra += (uint64_t)sys->num_links * LINK_SIZE;
	read_cell(ck, &sys->root, p, size, SYS_OFF(root_cell), extra);
	sys->ioapics_off = sys->root.end_off;
	sys->ioapics = sys->ioapics && sys->root.arrays;
	sys->links_off =
		sys->ioapics_off + (size_t)sys->num_ioapics * IOAPIC_SIZE;
	/* the links come after the IOAPICs: a count too large for those
	 * leaves them nowhere */
	sys->links = sys->links && sys->ioapics;
	check_cell_alone(ck, &sys->root, sys);
	if (sys->ioapics) {
		check_ioapics(ck, sys, p);
		check_pins_ioapic(ck, &sys->root, sys);
	}
	if (sys->links)
		check_links(ck, sys);

	sys->machine_cpus = 0;
	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
		if (cpu_in(sys->root.cpus, cpu))
			sys->machine_cpus = cpu + 1;
	return true;
}

unsigned int config_check_system(const void *blob, size_t size,
				 config_report_fn report, void *ctx)
{
	struct checker ck = { .report = report, .ctx = ctx, .errors = 0 };
	struct system sys;

	if (!blob)
		size = 0;
	check_system_blob(&ck, blob, size, &sys);
	return ck.errors;
}

/* Reads and checks a cell blob with its header; false: unreadable. */
static bool check_cell_blob(struct checker *ck, const uint8_t *p, size_t size,
			    uint32_t id, struct cell *c)
{
	if (!p)
		size = 0;
	c->arrays = false;
	if (!check_header(ck, p, size, true))
		return false;
	c->id = id;
	c->root = false;
	read_cell(ck, c, p, size, HDR_SIZE, 0);
	check_cell_alone(ck, c, NULL);
	return true;
}

/* CPUs of c against the machine (root's CPU set). */
static void check_cpus_root(struct checker *ck, const struct cell *c,
			    const struct system *sys)
{
	unsigned int cpu;

	for (cpu = 1; cpu < WARDEN_MAX_CPUS; cpu++) {
		if (!cpu_in(c->cpus, cpu))
			continue;
		if (cpu >= sys->machine_cpus)
			fail(ck, WARDEN_RULE_CPU_NOT_PRESENT, WARDEN_ITEM_CPU,
			     cpu, sys->machine_cpus, 0, 0, 0);
		else if (!cpu_in(sys->root.cpus, cpu))
			fail(ck, WARDEN_RULE_CPU_NOT_IN_ROOT, WARDEN_ITEM_CPU,
			     cpu, 0, 0, 0, 0);
	}
}

static void check_cpus_other(struct checker *ck, const struct cell *c,
			     const struct cell *o)
{
	unsigned int cpu;

	for (cpu = 1; cpu < WARDEN_MAX_CPUS; cpu++)
		if (cpu_in(c->cpus, cpu) && cpu_in(o->cpus, cpu))
			fail(ck, WARDEN_RULE_CPU_IN_OTHER_CELL, WARDEN_ITEM_CPU,
			     cpu, o->id, 0, 0, 0);
}

/* Is r inside one memory region of the root cell? */
static bool region_in_root(const struct region *r, const struct cell *root)
{
	struct region q;
	uint32_t i;

	for (i = 0; i < root->num_regions; i++) {
		get_region(root, i, &q);
		if (region_sane(&q) && !is_comm(&q) &&
		    inside(r->phys, r->size, q.phys, q.size))
			return true;
	}
	return false;
}

/* Does r overlap a region of o?  o's comm region has no memory. */
static bool region_in_cell(const struct region *r, const struct cell *o)
{
	struct region q;
	uint32_t i;

	for (i = 0; i < o->num_regions; i++) {
		get_region(o, i, &q);
		if (region_sane(&q) && !is_comm(&q) &&
		    overlap(r->phys, r->size, q.phys, q.size))
			return true;
	}
	return false;
}

/*
 * The first address the hypervisor traps for root or for every cell that
 * [start, start + size) overlaps; what (WARDEN_TRAPPED_*) says which, 0:
 * none.  MMCONFIG is check_config_space's.
 *
 * - The local APIC window, 1 MiB: a CPU's xAPIC page is trapped only at
 *   the guest address where the CPU's APIC base puts it, so the same host
 *   page mapped elsewhere would reach the physical APIC (ICR: any IPI,
 *   NMI or INIT to any CPU); and the rest of the window is where MSIs are
 *   written (SDM vol 3 11.11.1: address 0xFEExxxxx), which some chipsets
 *   (QEMU's) decode from CPU writes as well.
 * - Each IOAPIC's page: root's and cells' pins are moderated there.
 * - The IOMMU's register page (VT-d 10.4: 4 KiB aligned; the hypervisor
 *   reads its remapping table and root's use of it is watched).
 * - The HPET's page: its timers choose IOAPIC pins and MSI messages, so
 *   the hypervisor checks root's writes there (hpet.c).
 */
static uint64_t trapped_at(const struct system *sys, uint64_t start,
			   uint64_t size, uint64_t *what)
{
	struct ioapic a;
	uint32_t i;

	*what = WARDEN_TRAPPED_LAPIC;
	if (overlap(start, size, WARDEN_LAPIC_WINDOW, WARDEN_LAPIC_WINDOW_SIZE))
		return WARDEN_LAPIC_WINDOW;
	*what = WARDEN_TRAPPED_IOAPIC;
	for (i = 0; sys->ioapics && i < sys->num_ioapics; i++) {
		get_ioapic(sys, sys->root.blob, i, &a);
		if (overlap(start, size, a.address, 4096))
			return a.address;
	}
	*what = WARDEN_TRAPPED_IOMMU;
	if (sys->iommu_base && overlap(start, size, sys->iommu_base, 4096))
		return sys->iommu_base;
	*what = WARDEN_TRAPPED_HPET;
	if (sys->hpet_base &&
	    overlap(start, size, sys->hpet_base & ~4095ull, 4096))
		return sys->hpet_base;
	*what = 0;
	return 0;
}

static void check_regions_root(struct checker *ck, const struct cell *c,
			       const struct system *sys)
{
	uint64_t at, what;
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		get_region(c, i, &r);
		if (!region_sane(&r) || is_comm(&r))
			continue;
		if (sys->hv_usable &&
		    overlap(r.phys, r.size, sys->hv_start, sys->hv_size))
			fail_region(ck, WARDEN_RULE_MEM_OVERLAPS_HV, i, &r,
				    sys->hv_start, sys->hv_size);
		else if (!region_in_root(&r, &sys->root))
			fail_region(ck, WARDEN_RULE_MEM_NOT_IN_ROOT, i, &r, 0,
				    0);
		/* checked here, in the one validator, so that the CLI
		 * refuses it offline and the hypervisor again at create */
		at = trapped_at(sys, r.phys, r.size, &what);
		if (what)
			fail_region(ck, WARDEN_RULE_MEM_TRAPPED, i, &r, what,
				    at);
	}
}

static void check_regions_other(struct checker *ck, const struct cell *c,
				const struct cell *o)
{
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		get_region(c, i, &r);
		if (region_sane(&r) && !is_comm(&r) && region_in_cell(&r, o))
			fail_region(ck, WARDEN_RULE_MEM_IN_OTHER_CELL, i, &r,
				    o->id, 0);
	}
}

static void check_pio_root(struct checker *ck, const struct cell *c,
			   const struct system *sys)
{
	struct pio p;
	uint32_t i;

	for (i = 0; i < c->num_pio; i++) {
		get_pio(c, i, &p);
		if (pio_sane(&p) &&
		    !ports_in_cell(&sys->root, p.base, p.length))
			fail_pio(ck, WARDEN_RULE_PIO_NOT_IN_ROOT, i, &p, 0);
	}
}

/* PCI configuration space is the hypervisor's: a cell owns neither the
 * ports 0xcf8-0xcff nor the MMCONFIG window (it gets its functions'
 * configuration space with pci_devices). */
static void check_config_space(struct checker *ck, const struct cell *c,
			       const struct system *sys)
{
	struct region r;
	struct pio p;
	uint32_t i;

	for (i = 0; i < c->num_pio; i++) {
		get_pio(c, i, &p);
		if (pio_sane(&p) && overlap(p.base, p.length, 0xcf8, 8))
			fail_pio(ck, WARDEN_RULE_PCI_CONFIG_IN_CELL, i, &p,
				 0xcf8);
	}
	for (i = 0; sys->mmconfig_size && i < c->num_regions; i++) {
		get_region(c, i, &r);
		if (region_sane(&r) && !is_comm(&r) &&
		    overlap(r.phys, r.size, sys->mmconfig_base,
			    sys->mmconfig_size))
			fail_region(ck, WARDEN_RULE_PCI_CONFIG_IN_CELL, i, &r,
				    sys->mmconfig_base, 0);
	}
}

static void check_pio_other(struct checker *ck, const struct cell *c,
			    const struct cell *o)
{
	struct pio p, q;
	uint32_t i, j;

	for (i = 0; i < c->num_pio; i++) {
		get_pio(c, i, &p);
		if (!pio_sane(&p))
			continue;
		for (j = 0; j < o->num_pio; j++) {
			get_pio(o, j, &q);
			if (pio_sane(&q) &&
			    overlap(p.base, p.length, q.base, q.length)) {
				fail_pio(ck, WARDEN_RULE_PIO_IN_OTHER_CELL, i,
					 &p, o->id);
				break;
			}
		}
	}
}

/* The first field of d that differs from s (WARDEN_PCI_FIELD_*, 0 none),
 * with both values. */
static unsigned int pci_diff(const struct pci *d, const struct pci *s,
			     uint64_t *dv, uint64_t *sv)
{
	const uint32_t msi = WARDEN_PCI_MSI | WARDEN_PCI_MSIX;
	unsigned int b;

#define DIFF(field, a, z)                                                      \
	do {                                                                   \
		if ((a) != (z)) {                                              \
			*dv = (a);                                             \
			*sv = (z);                                             \
			return (field);                                        \
		}                                                              \
	} while (0)
	DIFF(WARDEN_PCI_FIELD_VENDOR, d->vendor, s->vendor);
	DIFF(WARDEN_PCI_FIELD_DEVICE, d->device, s->device);
	DIFF(WARDEN_PCI_FIELD_INT_PIN, d->int_pin, s->int_pin);
	DIFF(WARDEN_PCI_FIELD_GSI, d->gsi, s->gsi);
	DIFF(WARDEN_PCI_FIELD_FLAGS, d->flags & msi, s->flags & msi);
	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		DIFF(WARDEN_PCI_FIELD_BAR(b, 0), d->bars[b].address,
		     s->bars[b].address);
		DIFF(WARDEN_PCI_FIELD_BAR(b, 1), d->bars[b].size,
		     s->bars[b].size);
		DIFF(WARDEN_PCI_FIELD_BAR(b, 2), d->bars[b].flags,
		     s->bars[b].flags);
	}
#undef DIFF
	return 0;
}

/*
 * A device of the system (not c's) whose INTx drives gsi, other than the
 * device self (domain << 16 | bdf; any value above 0xffffffff: none).
 * Returns its id, or -1.
 */
static int64_t intx_sharer(const struct cell *c, const struct system *sys,
			   uint32_t gsi, uint64_t self)
{
	uint32_t j, id;
	bool intx;

	for (j = 0; j < sys->root.num_pci; j++) {
		if (pci_gsi_at(&sys->root, j, &intx) != gsi || !intx)
			continue;
		id = pci_id_at(&sys->root, j);
		if (id != self && find_pci(c, id) < 0)
			return id;
	}
	return -1;
}

/* c's pins against the IOAPICs, root's pins and the system's devices. */
static void check_pins_system(struct checker *ck, const struct cell *c,
			      const struct system *sys)
{
	uint32_t i, gsi;
	int64_t other;

	for (i = 0; i < c->num_pins; i++) {
		gsi = pin_gsi(c, i);
		if (!pin_in_ioapic(sys, gsi)) {
			fail(ck, WARDEN_RULE_PIN_NO_IOAPIC, WARDEN_ITEM_IRQ_PIN,
			     i, gsi, 0, 0, 0);
			continue;
		}
		if (has_pin(&sys->root, gsi)) {
			fail(ck, WARDEN_RULE_PIN_ROOT_NEEDS,
			     WARDEN_ITEM_IRQ_PIN, i, gsi, 0, 0, 0);
			continue;
		}
		/* with a device of the cell on the pin, PCI_INTX_SHARED
		 * names the pair */
		if (pin_named(c, gsi))
			continue;
		other = intx_sharer(c, sys, gsi, ~(uint64_t)0);
		if (other >= 0)
			fail(ck, WARDEN_RULE_PIN_SHARED, WARDEN_ITEM_IRQ_PIN, i,
			     gsi, (uint64_t)other, 0, 0);
	}
}

/* c's devices against the system's list. */
static void check_pci_system(struct checker *ck, const struct cell *c,
			     const struct system *sys)
{
	struct pci d, s;
	uint64_t dv, sv;
	unsigned int field;
	int64_t k, other;
	uint32_t i;

	for (i = 0; i < c->num_pci; i++) {
		get_pci(c, i, &d);
		k = find_pci(&sys->root, pci_id(&d));
		if (k < 0) {
			fail(ck, WARDEN_RULE_PCI_NOT_IN_SYSTEM,
			     WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), 0, 0, 0);
			continue;
		}
		get_pci(&sys->root, (uint32_t)k, &s);
		field = pci_diff(&d, &s, &dv, &sv);
		if (field)
			fail(ck, WARDEN_RULE_PCI_MISMATCH,
			     WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), field, dv,
			     sv);
		/* an INTx line is level-triggered and shared: it cannot be
		 * split between two owners.  The line is the machine's, as
		 * the system's entry has it. */
		if (!pci_intx(&s))
			continue;
		other = intx_sharer(c, sys, s.gsi, pci_id(&s));
		if (other >= 0)
			fail(ck, WARDEN_RULE_PCI_INTX_SHARED,
			     WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), s.gsi,
			     (uint64_t)other, 0);
	}
}

/*
 * c's regions and port ranges against the BARs of the system's devices c
 * does not take: mapping one would hand the cell a device it was not
 * given.  Reported once per region or range (the first device and BAR
 * found).  Devices are the outer loop, so that each is read once.
 */
#define MAX_ITEMS (CONFIG_CHECK_MAX_REGIONS + CONFIG_CHECK_MAX_PIO_RANGES)

static void check_bars_not_taken(struct checker *ck, const struct cell *c,
				 const struct system *sys)
{
	const struct cell *root = &sys->root;
	uint8_t reported[MAX_ITEMS / 8];
	uint32_t i, j, n = c->num_regions + c->num_pio;
	uint64_t value, start, size;
	unsigned int b;
	struct region r;
	struct pio p;
	struct pci d;
	bool upper, io;

	for (i = 0; i < MAX_ITEMS / 8; i++)
		reported[i] = 0;
	for (j = 0; j < root->num_pci; j++) {
		if (find_pci(c, pci_id_at(root, j)) >= 0)
			continue;
		get_pci(root, j, &d);
		upper = false;
		for (b = 0; b < WARDEN_PCI_BARS; b++) {
			const struct pci_bar *bar = &d.bars[b];
			bool ok = !bar_fault(&d, b, upper, &value) && !upper &&
				  bar->size;

			upper = !upper && (bar->flags & WARDEN_PCI_BAR_MEM64);
			if (!ok)
				continue;
			for (i = 0; i < n; i++) {
				io = i >= c->num_regions;
				if ((reported[i / 8] >> (i % 8)) & 1 ||
				    io != !!(bar->flags & WARDEN_PCI_BAR_IO))
					continue;
				if (io) {
					get_pio(c, i - c->num_regions, &p);
					if (!pio_sane(&p))
						continue;
					start = p.base;
					size = p.length;
				} else {
					get_region(c, i, &r);
					if (!region_sane(&r) || is_comm(&r))
						continue;
					start = r.phys;
					size = r.size;
				}
				if (!overlap(start, size, bar->address,
					     bar->size))
					continue;
				reported[i / 8] |= (uint8_t)(1u << (i % 8));
				if (io)
					fail(ck, WARDEN_RULE_PIO_PCI_BAR,
					     WARDEN_ITEM_PIO_RANGE,
					     i - c->num_regions, start, size,
					     pci_id(&d), b);
				else
					fail(ck, WARDEN_RULE_MEM_PCI_BAR,
					     WARDEN_ITEM_MEMORY_REGION, i,
					     start, size, pci_id(&d), b);
			}
		}
	}
}

static void check_pins_other(struct checker *ck, const struct cell *c,
			     const struct cell *o)
{
	uint32_t i, gsi;

	for (i = 0; i < c->num_pins; i++) {
		gsi = pin_gsi(c, i);
		if (has_pin(o, gsi))
			fail(ck, WARDEN_RULE_PIN_IN_OTHER_CELL,
			     WARDEN_ITEM_IRQ_PIN, i, gsi, o->id, 0, 0);
	}
}

static void check_pci_other(struct checker *ck, const struct cell *c,
			    const struct cell *o)
{
	uint32_t i, id;

	for (i = 0; i < c->num_pci; i++) {
		id = pci_id_at(c, i);
		if (find_pci(o, id) >= 0)
			fail(ck, WARDEN_RULE_PCI_IN_OTHER_CELL,
			     WARDEN_ITEM_PCI_DEVICE, i, id, o->id, 0, 0);
	}
}

/* ---- links against a cell (cell create) ---- */

/* Does [start, start + size) overlap the guest-physical range of one of
 * the cell's regions (its comm region included)? */
static bool over_guest_memory(const struct cell *c, uint64_t start,
			      uint64_t size)
{
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		get_region(c, i, &r);
		if (region_sane(&r) && overlap(start, size, r.guest, r.size))
			return true;
	}
	return false;
}

/*
 * The peers that name the cell: their virtual functions must not be at
 * one of its functions' addresses, their BARs not over its memory.  And
 * no memory of the cell may be a link's: that is root's, shared.
 */
static void check_links_cell(struct checker *ck, const struct cell *c,
			     const struct system *sys, bool name_ok)
{
	const uint8_t *name = c->blob + c->desc + CELL_OFF(name);
	struct region r;
	struct link l;
	struct peer q;
	uint32_t i, p;

	for (i = 0; name_ok && i < sys->num_links; i++) {
		get_link(sys, i, &l);
		for (p = 0; p < l.peers; p++) {
			get_peer(sys, &l, p, &q);
			if (!q.name_ok ||
			    !names_equal(peer_name(sys, &q), name))
				continue;
			if (bdf_in_cell(c, q.bdf))
				fail_link(ck, WARDEN_RULE_LINK_PEER_BDF, i, p,
					  q.bdf, 0, 0);
			if (q.regs_ok &&
			    over_guest_memory(c, q.regs, WARDEN_LINK_REGS_SIZE))
				fail_address(ck, i, p, q.regs,
					     WARDEN_LINK_BAD_OVER_MEMORY);
			if (q.shmem_ok && over_guest_memory(c, q.shmem, l.size))
				fail_address(ck, i, p, q.shmem,
					     WARDEN_LINK_BAD_OVER_MEMORY);
		}
	}
	for (p = 0; p < c->num_regions; p++) {
		get_region(c, p, &r);
		if (!region_sane(&r) || is_comm(&r))
			continue;
		for (i = 0; i < sys->num_links; i++) {
			get_link(sys, i, &l);
			if (l.sane && overlap(r.phys, r.size, l.phys, l.size)) {
				fail_region(ck, WARDEN_RULE_LINK_MEMORY_OVERLAP,
					    p, &r, 2, i);
				break;
			}
		}
	}
}

/* Checks a config the new cell depends on without reporting its errors:
 * true when it is valid, else reported once as CONFIG_CONTEXT. */
static bool context_valid(struct checker *ck, const struct checker *quiet,
			  bool readable, uint32_t kind, uint32_t index)
{
	if (readable && !quiet->errors)
		return true;
	fail(ck, WARDEN_RULE_CONFIG_CONTEXT, kind, index, quiet->errors, 0, 0,
	     0);
	return false;
}

unsigned int config_check_cell(const void *blob, size_t size,
			       const void *system_blob, size_t system_size,
			       const void *const *others,
			       const size_t *other_sizes, size_t n_others,
			       config_report_fn report, void *ctx)
{
	struct checker ck = { .report = report, .ctx = ctx, .errors = 0 };
	struct checker quiet;
	struct system sys;
	struct cell c, o;
	bool name_ok, ok;
	size_t k;

	if (!blob)
		size = 0;
	if (!check_header(&ck, blob, size, true))
		return ck.errors;
	c.id = (uint32_t)(n_others + 1);
	c.root = false;
	read_cell(&ck, &c, blob, size, HDR_SIZE, 0);
	name_ok = check_cell_alone(&ck, &c, NULL);
	if (!system_blob)
		return ck.errors;

	quiet = (struct checker){ .report = NULL, .ctx = NULL, .errors = 0 };
	ok = check_system_blob(&quiet, system_blob, system_size, &sys);
	if (!context_valid(&ck, &quiet, ok, WARDEN_ITEM_SYSTEM, 0))
		return ck.errors;
	if (name_ok && same_name(&c, &sys.root))
		fail(&ck, WARDEN_RULE_NAME_DUPLICATE, WARDEN_ITEM_CELL, c.id,
		     WARDEN_ROOT_CELL_ID, 0, 0, 0);
	check_cpus_root(&ck, &c, &sys);
	if (c.arrays) {
		check_regions_root(&ck, &c, &sys);
		check_pio_root(&ck, &c, &sys);
		check_config_space(&ck, &c, &sys);
		check_pins_system(&ck, &c, &sys);
		check_pci_system(&ck, &c, &sys);
		check_bars_not_taken(&ck, &c, &sys);
		if (sys.links)
			check_links_cell(&ck, &c, &sys, name_ok);
	}

	if (n_others && (!others || !other_sizes)) {
		fail(&ck, WARDEN_RULE_CONFIG_CONTEXT, WARDEN_ITEM_CELL, 1, 0, 0,
		     0, 0);
		return ck.errors;
	}
	for (k = 0; k < n_others; k++) {
		quiet = (struct checker){ .report = NULL, .errors = 0 };
		o.id = (uint32_t)(k + 1);
		ok = check_cell_blob(&quiet, others[k], other_sizes[k], o.id,
				     &o);
		if (!context_valid(&ck, &quiet, ok, WARDEN_ITEM_CELL, o.id))
			continue;
		if (name_ok && same_name(&c, &o))
			fail(&ck, WARDEN_RULE_NAME_DUPLICATE, WARDEN_ITEM_CELL,
			     c.id, o.id, 0, 0, 0);
		check_cpus_other(&ck, &c, &o);
		if (c.arrays) {
			check_regions_other(&ck, &c, &o);
			check_pio_other(&ck, &c, &o);
			check_pins_other(&ck, &c, &o);
			check_pci_other(&ck, &c, &o);
		}
	}
	return ck.errors;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The validator's private header: what the files of common/config_check/
 * share.  The blob's ABI offsets and sizes, the blob read into host order
 * (struct cell, struct system, ...), the small range helpers, and one
 * section per file for the functions the other files call.  Nothing here
 * is for callers outside the validator: they use config_check.h.
 */
#ifndef WARDEN_CONFIG_CHECK_PRIVATE_H
#define WARDEN_CONFIG_CHECK_PRIVATE_H

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
#define IOMMU_SIZE sizeof(struct warden_iommu_unit)
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
#define IOMMU_OFF(member) OFF(struct warden_iommu_unit, member)
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
	uint16_t dma_alias;
	uint16_t reserved1;
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
	uint16_t source_id; /* any value: WARDEN_NO_SOURCE_ID or a BDF */
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
	uint32_t num_iommus;
	bool iommus; /* the IOMMU unit array can be read */
	size_t iommus_off;
	uint64_t mmconfig_base, mmconfig_size; /* size 0: none */
	uint64_t iommu_base;		       /* 0: none */
	uint64_t hpet_base;		       /* 0: none */
};

/* Little-endian loads; callers have checked the bounds. */
static inline uint64_t load(const uint8_t *p, size_t off, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[off + n];
	return v;
}

static inline uint16_t load16(const uint8_t *p, size_t off)
{
	return (uint16_t)load(p, off, 2);
}

static inline uint32_t load32(const uint8_t *p, size_t off)
{
	return (uint32_t)load(p, off, 4);
}

static inline uint64_t load64(const uint8_t *p, size_t off)
{
	return load(p, off, 8);
}

/* [start, start + size) with size > 0 and no wrap-around. */
static inline uint64_t last(uint64_t start, uint64_t size)
{
	return start + size - 1;
}

static inline bool wraps(uint64_t start, uint64_t size)
{
	return size && size - 1 > ~(uint64_t)0 - start;
}

static inline bool overlap(uint64_t a, uint64_t a_size, uint64_t b,
			   uint64_t b_size)
{
	return a <= last(b, b_size) && b <= last(a, a_size);
}

static inline bool inside(uint64_t in, uint64_t in_size, uint64_t out,
			  uint64_t out_size)
{
	return in >= out && last(in, in_size) <= last(out, out_size);
}

static inline bool page_aligned(uint64_t v)
{
	return !(v & (CONFIG_CHECK_PAGE_SIZE - 1));
}

/* Usable for overlap and containment checks. */
static inline bool region_sane(const struct region *r)
{
	return r->size && page_aligned(r->phys) && page_aligned(r->guest) &&
	       page_aligned(r->size) && !wraps(r->phys, r->size) &&
	       !wraps(r->guest, r->size);
}

static inline bool is_comm(const struct region *r)
{
	return r->flags & WARDEN_MEM_COMM_REGION;
}

static inline bool pio_sane(const struct pio *p)
{
	return p->length && (uint64_t)p->base + p->length <= PORT_END;
}

static inline bool cpu_in(const uint64_t *set, unsigned int cpu)
{
	return (set[cpu / 64] >> (cpu % 64)) & 1;
}

static inline bool power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The device's id in records: domain << 16 | bdf. */
static inline uint32_t pci_id(const struct pci *d)
{
	return (uint32_t)d->domain << 16 | d->bdf;
}

/* Its INTx drives an IOAPIC input (int_pin valid and a GSI given). */
/* The function's other requester id as 0x10000 | bus << 8 | devfn, or 0
 * (no DMA_ALIAS). */
static inline uint32_t pci_alias(const struct pci *d)
{
	return d->flags & WARDEN_PCI_DMA_ALIAS ? 0x10000u | d->dma_alias : 0;
}

static inline bool pci_intx(const struct pci *d)
{
	return d->int_pin >= WARDEN_PCI_INT_A &&
	       d->int_pin <= WARDEN_PCI_INT_D && d->gsi != WARDEN_NO_GSI;
}

/* ---- blob.c: reading the blob, reporting, shared look-ups ---- */

/*
 * Reports one error to ck's callback and counts it: rule, item kind and
 * index, the four values documented beside the rule in error.h; code
 * -EINVAL, or -E2BIG for the limits (CONFIG_TOO_LARGE, CONFIG_TOO_MANY).
 */
void cc_fail(struct checker *ck, uint32_t rule, uint32_t kind, uint32_t index,
	     uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3);

/* An error about the config as a whole (item CONFIG, index 0). */
void cc_fail_config(struct checker *ck, uint32_t rule, uint64_t v0,
		    uint64_t v1);

/* An error about memory region index: values phys, size, v2, v3. */
void cc_fail_region(struct checker *ck, uint32_t rule, uint32_t index,
		    const struct region *r, uint64_t v2, uint64_t v3);

/* An error about port range index: values base, length, v2. */
void cc_fail_pio(struct checker *ck, uint32_t rule, uint32_t index,
		 const struct pio *p, uint64_t v2);

/* Reads the struct warden_console at off (the caller checked the bounds). */
void cc_read_console(const uint8_t *p, size_t off, struct console *c);

/*
 * Reads the cell descriptor at desc (the blob holds it) and checks the
 * counts against the limits and the blob.
 */
void cc_read_cell(struct checker *ck, struct cell *c, const uint8_t *p,
		  size_t size, size_t desc, uint64_t extra);

/* Reads memory region i of c, which c->arrays says the blob holds. */
void cc_get_region(const struct cell *c, uint32_t i, struct region *r);

/* Reads port range i of c, which c->arrays says the blob holds. */
void cc_get_pio(const struct cell *c, uint32_t i, struct pio *r);

/* Reads pin i of c: its GSI and, unless reserved is NULL, its reserved
 * field. */
void cc_get_pin(const struct cell *c, uint32_t i, uint32_t *gsi,
		uint32_t *reserved);

/* The GSI of pin i of c. */
uint32_t cc_pin_gsi(const struct cell *c, uint32_t i);

/* Reads device i of c field by field, never a structure copy (no memcpy
 * in the hypervisor). */
void cc_get_pci(const struct cell *c, uint32_t i, struct pci *d);

/* The domain << 16 | bdf of device i, without reading the rest. */
uint32_t cc_pci_id_at(const struct cell *c, uint32_t i);

/* Reads IOAPIC i of the system config p, which sys->ioapics says the
 * blob holds. */
void cc_get_ioapic(const struct system *sys, const uint8_t *p, uint32_t i,
		   struct ioapic *a);

/* Two NUL-terminated names of at most WARDEN_NAME_LEN bytes. */
bool cc_names_equal(const uint8_t *x, const uint8_t *y);

/* Does c own the IOAPIC pin gsi? */
bool cc_has_pin(const struct cell *c, uint32_t gsi);

/* Index of the cell's device with this id, or -1. */
int64_t cc_find_pci(const struct cell *c, uint32_t id);

/* Does one of the cell's devices name gsi as its INTx's? */
bool cc_pin_named(const struct cell *c, uint32_t gsi);

/*
 * A device of the system (not c's) whose INTx drives gsi, other than the
 * device self (domain << 16 | bdf; any value above 0xffffffff: none).
 * Returns its id, or -1.
 */
int64_t cc_intx_sharer(const struct cell *c, const struct system *sys,
		       uint32_t gsi, uint64_t self);

/* ---- memory.c: memory regions ---- */

/* Regions of one cell; sys (may be NULL) gives the hypervisor memory. */
void cc_check_regions(struct checker *ck, const struct cell *c,
		      const struct system *sys);

/* Is the memory range inside one IO region of the cell that maps it at
 * its own address (guest_start == phys_start)? */
bool cc_mmio_in_cell(const struct cell *c, uint64_t start, uint64_t size);

/* c's regions against the system: not over the hypervisor's memory,
 * inside root's, over no page the hypervisor traps (trapped_at). */
void cc_check_regions_root(struct checker *ck, const struct cell *c,
			   const struct system *sys);

/* c's regions against the memory of the other cell o. */
void cc_check_regions_other(struct checker *ck, const struct cell *c,
			    const struct cell *o);

/* ---- cpus_ports.c: CPUs and port ranges ---- */

/* Is the CPU set empty? */
bool cc_cpus_empty(const uint64_t *set);

/* CPUs of c against the machine (root's CPU set). */
void cc_check_cpus_root(struct checker *ck, const struct cell *c,
			const struct system *sys);

/* CPUs of c against those of the other cell o. */
void cc_check_cpus_other(struct checker *ck, const struct cell *c,
			 const struct cell *o);

/* The port ranges of one cell: each within the 64 Ki ports and
 * overlapping none before it, reserved field 0. */
void cc_check_pio(struct checker *ck, const struct cell *c);

/* Is [base, base + length) inside one of the cell's port ranges? */
bool cc_ports_in_cell(const struct cell *c, uint64_t base, uint64_t length);

/* c's port ranges inside root's. */
void cc_check_pio_root(struct checker *ck, const struct cell *c,
		       const struct system *sys);

/* c's port ranges against those of the other cell o. */
void cc_check_pio_other(struct checker *ck, const struct cell *c,
			const struct cell *o);

/* ---- pins.c: IOAPICs and interrupt pins ---- */

/* The pins of one cell: reserved field 0, none twice, and (not root)
 * none above the ISA IRQs that none of its devices names. */
void cc_check_pins(struct checker *ck, const struct cell *c);

/* The system's IOAPICs (sys->ioapics: the blob p holds them): address,
 * pin count, no two at one address or over the same GSIs. */
void cc_check_ioapics(struct checker *ck, const struct system *sys,
		      const uint8_t *p);

/* c's pins against the IOAPICs (root's too, in a system config). */
void cc_check_pins_ioapic(struct checker *ck, const struct cell *c,
			  const struct system *sys);

/* c's pins against the IOAPICs, root's pins and the system's devices. */
void cc_check_pins_system(struct checker *ck, const struct cell *c,
			  const struct system *sys);

/* c's pins against those of the other cell o. */
void cc_check_pins_other(struct checker *ck, const struct cell *c,
			 const struct cell *o);

/* ---- devices.c: PCI devices and configuration space ---- */

/*
 * What is wrong with BAR b of d (WARDEN_PCI_BAR_BAD_*, 0: nothing), and
 * the value at fault.  upper: the BAR before it is a 64-bit one, so this
 * is its upper half.
 */
unsigned int cc_bar_fault(const struct pci *d, unsigned int b, bool upper,
			  uint64_t *value);

/*
 * The devices of one cell: reserved fields, duplicates, flags, INTx pin
 * and GSI, BARs; for a cell other than root also that it maps the BARs
 * and owns the pin (check_pci_owned).
 */
void cc_check_pci(struct checker *ck, const struct cell *c);

/* PCI configuration space is the hypervisor's: a cell owns neither the
 * ports 0xcf8-0xcff nor the MMCONFIG window (it gets its functions'
 * configuration space with pci_devices). */
void cc_check_config_space(struct checker *ck, const struct cell *c,
			   const struct system *sys);

/* c's devices against the system's list. */
void cc_check_pci_alias(struct checker *ck, const struct cell *c,
			const struct system *sys);
void cc_check_pci_system(struct checker *ck, const struct cell *c,
			 const struct system *sys);

/*
 * c's regions and port ranges against the BARs of the system's devices c
 * does not take: mapping one would hand the cell a device it was not
 * given.  Reported once per region or range (the first device and BAR
 * found).  Devices are the outer loop, so that each is read once.
 */
void cc_check_bars_not_taken(struct checker *ck, const struct cell *c,
			     const struct system *sys);

/* c's devices against those of the other cell o. */
void cc_check_pci_other(struct checker *ck, const struct cell *c,
			const struct cell *o);

/* ---- iommus.c: the IOMMU units ---- */

/* The units of the system config (sys->iommus: the blob holds them):
 * their fields, one INCLUDE_PCI_ALL unit per segment, iommu_base one of
 * them, and every function of root's list (which holds every cell's)
 * covered by a unit. */
void cc_check_iommus(struct checker *ck, const struct system *sys);

/* Register base of the unit whose page overlaps [start, start + size),
 * or 0. */
uint64_t cc_iommu_at(const struct system *sys, uint64_t start, uint64_t size);

/* ---- links.c: links ---- */

/* Every link of the system config (sys->links: the blob holds them):
 * fields, memory, and each peer's cell, addresses and vectors. */
void cc_check_links(struct checker *ck, const struct system *sys);

/*
 * The peers that name the cell: their virtual functions must not be at
 * one of its functions' addresses, their BARs not over its memory.  And
 * no memory of the cell may be a link's: that is root's, shared.
 */
void cc_check_links_cell(struct checker *ck, const struct cell *c,
			 const struct system *sys, bool name_ok);

#endif

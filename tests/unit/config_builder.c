// SPDX-License-Identifier: GPL-2.0
/* Valid config blobs for tests and fuzz seeds (see config_builder.h). */
#include <assert.h>
#include <string.h>

#include "config_builder.h"

#define RWX (WARDEN_MEM_READ | WARDEN_MEM_WRITE | WARDEN_MEM_EXECUTE)
#define RW (WARDEN_MEM_READ | WARDEN_MEM_WRITE)

static size_t desc_offset(const struct cb_blob *b)
{
	return sizeof(struct warden_config_header) +
	       (b->system ? offsetof(struct warden_system_desc, root_cell) : 0);
}

static size_t regions_offset(const struct cb_blob *b)
{
	return desc_offset(b) + sizeof(struct warden_cell_desc);
}

struct warden_config_header *cb_header(struct cb_blob *b)
{
	return (struct warden_config_header *)b->u.bytes;
}

struct warden_system_desc *cb_sys(struct cb_blob *b)
{
	assert(b->system);
	return (struct warden_system_desc
			*)(b->u.bytes + sizeof(struct warden_config_header));
}

struct warden_cell_desc *cb_desc(struct cb_blob *b)
{
	return (struct warden_cell_desc *)(b->u.bytes + desc_offset(b));
}

size_t cb_region_offset(struct cb_blob *b, unsigned int i)
{
	return regions_offset(b) + i * sizeof(struct warden_mem_region);
}

size_t cb_pio_offset(struct cb_blob *b, unsigned int i)
{
	return cb_region_offset(b, cb_desc(b)->num_memory_regions) +
	       i * sizeof(struct warden_pio_range);
}

size_t cb_pin_offset(struct cb_blob *b, unsigned int i)
{
	return cb_pio_offset(b, cb_desc(b)->num_pio_ranges) +
	       i * sizeof(struct warden_irq_pin);
}

size_t cb_pci_offset(struct cb_blob *b, unsigned int i)
{
	return cb_pin_offset(b, cb_desc(b)->num_irq_pins) +
	       i * sizeof(struct warden_pci_device);
}

size_t cb_ioapic_offset(struct cb_blob *b, unsigned int i)
{
	assert(b->system);
	return cb_pci_offset(b, cb_desc(b)->num_pci_devices) +
	       i * sizeof(struct warden_ioapic);
}

size_t cb_link_offset(struct cb_blob *b, unsigned int i)
{
	return cb_ioapic_offset(b, cb_sys(b)->platform.num_ioapics) +
	       i * sizeof(struct warden_link);
}

size_t cb_iommu_offset(struct cb_blob *b, unsigned int i)
{
	return cb_link_offset(b, cb_sys(b)->platform.num_links) +
	       i * sizeof(struct warden_iommu_unit);
}

struct warden_iommu_unit *cb_iommu(struct cb_blob *b, unsigned int i)
{
	return (struct warden_iommu_unit *)(b->u.bytes + cb_iommu_offset(b, i));
}

struct warden_link *cb_link(struct cb_blob *b, unsigned int i)
{
	return (struct warden_link *)(b->u.bytes + cb_link_offset(b, i));
}

struct warden_irq_pin *cb_pin(struct cb_blob *b, unsigned int i)
{
	return (struct warden_irq_pin *)(b->u.bytes + cb_pin_offset(b, i));
}

struct warden_pci_device *cb_pci(struct cb_blob *b, unsigned int i)
{
	return (struct warden_pci_device *)(b->u.bytes + cb_pci_offset(b, i));
}

struct warden_ioapic *cb_ioapic(struct cb_blob *b, unsigned int i)
{
	return (struct warden_ioapic *)(b->u.bytes + cb_ioapic_offset(b, i));
}

struct warden_mem_region *cb_region(struct cb_blob *b, unsigned int i)
{
	return (struct warden_mem_region *)(b->u.bytes +
					    cb_region_offset(b, i));
}

struct warden_pio_range *cb_pio(struct cb_blob *b, unsigned int i)
{
	return (struct warden_pio_range *)(b->u.bytes + cb_pio_offset(b, i));
}

static void set_size(struct cb_blob *b, size_t size)
{
	assert(size <= CB_BLOB_MAX);
	b->size = size;
	cb_header(b)->total_size = (uint32_t)size;
}

/* Opens a gap of delta bytes at byte offset off. */
static void shift(struct cb_blob *b, size_t off, size_t delta)
{
	assert(b->size + delta <= CB_BLOB_MAX);
	memmove(b->u.bytes + off + delta, b->u.bytes + off, b->size - off);
	set_size(b, b->size + delta);
}

unsigned int cb_add_region(struct cb_blob *b, uint64_t phys, uint64_t guest,
			   uint64_t size, uint32_t flags, uint8_t type)
{
	unsigned int i = cb_desc(b)->num_memory_regions;
	struct warden_mem_region *r;

	shift(b, cb_region_offset(b, i), sizeof(*r));
	cb_desc(b)->num_memory_regions++;
	r = cb_region(b, i);
	memset(r, 0, sizeof(*r));
	r->phys_start = phys;
	r->guest_start = guest;
	r->size = size;
	r->flags = flags;
	r->mem_type = type;
	return i;
}

unsigned int cb_add_pio(struct cb_blob *b, uint16_t base, uint32_t length)
{
	unsigned int i = cb_desc(b)->num_pio_ranges;
	struct warden_pio_range *p;

	shift(b, cb_pio_offset(b, i), sizeof(*p));
	cb_desc(b)->num_pio_ranges++;
	p = cb_pio(b, i);
	memset(p, 0, sizeof(*p));
	p->base = base;
	p->length = length;
	return i;
}

unsigned int cb_add_pin(struct cb_blob *b, uint32_t gsi)
{
	unsigned int i = cb_desc(b)->num_irq_pins;
	struct warden_irq_pin *p;

	shift(b, cb_pin_offset(b, i), sizeof(*p));
	cb_desc(b)->num_irq_pins++;
	p = cb_pin(b, i);
	memset(p, 0, sizeof(*p));
	p->gsi = gsi;
	return i;
}

unsigned int cb_add_pci(struct cb_blob *b, const struct warden_pci_device *d)
{
	unsigned int i = cb_desc(b)->num_pci_devices;

	shift(b, cb_pci_offset(b, i), sizeof(*d));
	cb_desc(b)->num_pci_devices++;
	memcpy(cb_pci(b, i), d, sizeof(*d));
	return i;
}

unsigned int cb_add_ioapic(struct cb_blob *b, uint64_t address,
			   uint32_t gsi_base, uint8_t id, uint8_t num_pins)
{
	unsigned int i = cb_sys(b)->platform.num_ioapics;
	struct warden_ioapic *a;

	shift(b, cb_ioapic_offset(b, i), sizeof(*a));
	cb_sys(b)->platform.num_ioapics++;
	a = cb_ioapic(b, i);
	memset(a, 0, sizeof(*a));
	a->address = address;
	a->gsi_base = gsi_base;
	a->id = id;
	a->num_pins = num_pins;
	a->source_id = WARDEN_NO_SOURCE_ID;
	return i;
}

unsigned int cb_add_iommu(struct cb_blob *b, uint64_t base, uint16_t segment,
			  uint8_t flags)
{
	unsigned int i = cb_sys(b)->platform.num_iommus;
	struct warden_iommu_unit *u;

	shift(b, cb_iommu_offset(b, i), sizeof(*u));
	cb_sys(b)->platform.num_iommus++;
	u = cb_iommu(b, i);
	memset(u, 0, sizeof(*u));
	u->base = base;
	u->segment = segment;
	u->flags = flags;
	return i;
}

static void set_name(char *field, const char *name)
{
	size_t n = strlen(name);

	memset(field, 0, WARDEN_NAME_LEN);
	memcpy(field, name, n < WARDEN_NAME_LEN ? n : WARDEN_NAME_LEN);
}

unsigned int cb_add_link(struct cb_blob *b, const char *name, uint64_t phys,
			 uint64_t size, uint32_t flags)
{
	unsigned int i = cb_sys(b)->platform.num_links;
	struct warden_link *l;

	shift(b, cb_link_offset(b, i), sizeof(*l));
	cb_sys(b)->platform.num_links++;
	l = cb_link(b, i);
	memset(l, 0, sizeof(*l));
	set_name(l->name, name);
	l->phys_start = phys;
	l->size = size;
	l->flags = flags;
	return i;
}

unsigned int cb_add_peer(struct cb_blob *b, unsigned int i, const char *cell,
			 uint16_t bdf, uint64_t regs, uint64_t shmem,
			 uint8_t vectors)
{
	struct warden_link *l = cb_link(b, i);
	unsigned int p = l->num_peers++;

	assert(p < WARDEN_LINK_MAX_PEERS);
	set_name(l->peers[p].cell, cell);
	l->peers[p].bdf = bdf;
	l->peers[p].regs_address = regs;
	l->peers[p].shmem_address = shmem;
	l->peers[p].vectors = vectors;
	return p;
}

void cb_remove_pin(struct cb_blob *b, unsigned int i)
{
	size_t off = cb_pin_offset(b, i);

	assert(i < cb_desc(b)->num_irq_pins);
	memmove(b->u.bytes + off, b->u.bytes + off + 8, b->size - off - 8);
	cb_desc(b)->num_irq_pins--;
	set_size(b, b->size - 8);
}

void cb_remove_region(struct cb_blob *b, unsigned int i)
{
	size_t off = cb_region_offset(b, i);

	assert(i < cb_desc(b)->num_memory_regions);
	memmove(b->u.bytes + off, b->u.bytes + off + 32, b->size - off - 32);
	cb_desc(b)->num_memory_regions--;
	set_size(b, b->size - 32);
}

void cb_remove_pio(struct cb_blob *b, unsigned int i)
{
	size_t off = cb_pio_offset(b, i);

	assert(i < cb_desc(b)->num_pio_ranges);
	memmove(b->u.bytes + off, b->u.bytes + off + 8, b->size - off - 8);
	cb_desc(b)->num_pio_ranges--;
	set_size(b, b->size - 8);
}

void cb_set_name(struct cb_blob *b, const char *name)
{
	struct warden_cell_desc *d = cb_desc(b);

	size_t n = strlen(name);

	memset(d->name, 0, sizeof(d->name));
	memcpy(d->name, name, n < sizeof(d->name) ? n : sizeof(d->name));
}

void cb_cpus_clear(struct warden_cpu_set *set)
{
	memset(set, 0, sizeof(*set));
}

void cb_cpu_add(struct warden_cpu_set *set, unsigned int cpu)
{
	set->bits[cpu / 64] |= 1ull << (cpu % 64);
}

void cb_cpu_del(struct warden_cpu_set *set, unsigned int cpu)
{
	set->bits[cpu / 64] &= ~(1ull << (cpu % 64));
}

static void start(struct cb_blob *b, int system)
{
	struct warden_config_header *h;

	memset(b, 0, sizeof(*b));
	b->system = system;
	h = cb_header(b);
	memcpy(h->signature,
	       system ? WARDEN_SYSTEM_SIGNATURE : WARDEN_CELL_SIGNATURE, 8);
	h->revision = WARDEN_CONFIG_REVISION;
	h->architecture = WARDEN_ARCH_X86_64;
	set_size(b, regions_offset(b));
}

void cb_system(struct cb_blob *b)
{
	struct warden_system_desc *s;
	struct warden_cell_desc *root;
	unsigned int cpu;

	start(b, 1);
	s = cb_sys(b);
	s->hv_mem_start = CB_HV_START;
	s->hv_mem_size = CB_HV_SIZE;
	s->debug_console.type = WARDEN_CONSOLE_UART_PIO;
	s->debug_console.baud = 115200;
	s->debug_console.address = CB_COM2;
	s->platform.pm_timer_port = 0x608;
	s->platform.mmconfig_base = 0xb0000000;
	s->platform.mmconfig_end_bus = 0xff;
	s->platform.hpet_source_id = WARDEN_NO_SOURCE_ID;

	root = cb_desc(b);
	cb_set_name(b, "linux");
	for (cpu = 0; cpu < 4; cpu++)
		cb_cpu_add(&root->cpus, cpu);
	root->console.type = WARDEN_CONSOLE_UART_PIO;
	root->console.address = CB_COM1;

	cb_add_region(b, 0, 0, CB_RESERVED_START, RWX, WARDEN_MEMTYPE_WB);
	cb_add_region(b, CB_POOL_START, CB_POOL_START, CB_POOL_SIZE, RWX,
		      WARDEN_MEMTYPE_WB);
	cb_add_region(b, CB_RESERVED_START + CB_RESERVED_SIZE,
		      CB_RESERVED_START + CB_RESERVED_SIZE,
		      CB_RAM_SIZE - CB_RESERVED_START - CB_RESERVED_SIZE, RWX,
		      WARDEN_MEMTYPE_WB);
	cb_add_region(b, CB_IOAPIC, CB_IOAPIC, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
	cb_add_pio(b, 0, CB_COM2);
	cb_add_pio(b, CB_COM2 + 8, 0x10000 - CB_COM2 - 8);
}

void cb_cell(struct cb_blob *b, int which)
{
	struct warden_cell_desc *d;
	uint16_t uart = which ? CB_COM4 : CB_COM3;

	start(b, 0);
	d = cb_desc(b);
	cb_set_name(b, which ? "cell-b" : "cell-a");
	if (which) {
		cb_cpu_add(&d->cpus, 2);
		cb_cpu_add(&d->cpus, 3);
	} else {
		cb_cpu_add(&d->cpus, 1);
	}
	d->reset_address = CB_RESET;
	d->console.type = WARDEN_CONSOLE_UART_PIO;
	d->console.address = uart;
	cb_add_region(b, CB_POOL_START + (which ? CB_CELL_RAM : 0), 0,
		      CB_CELL_RAM, RWX | WARDEN_MEM_LOADABLE,
		      WARDEN_MEMTYPE_WB);
	cb_add_region(b, 0, CB_CELL_RAM, 0x1000, RW | WARDEN_MEM_COMM_REGION,
		      WARDEN_MEMTYPE_WB);
	cb_add_pio(b, uart, 8);
}

static void bar(struct warden_pci_device *d, unsigned int n, uint64_t address,
		uint64_t size, uint32_t flags)
{
	d->bars[n].address = address;
	d->bars[n].size = size;
	d->bars[n].flags = flags;
}

void cb_pci_entry(struct warden_pci_device *d, uint16_t bdf)
{
	memset(d, 0, sizeof(*d));
	d->bdf = bdf;
	d->vendor_id = 0x8086;
	d->gsi = WARDEN_NO_GSI;
	switch (bdf) {
	case CB_BRIDGE:
		d->device_id = 0x29c0;
		break;
	case CB_NIC:
		d->device_id = 0x100e;
		d->flags = WARDEN_PCI_MSI;
		d->int_pin = WARDEN_PCI_INT_A;
		d->gsi = CB_NIC_GSI;
		bar(d, 0, CB_NIC_MMIO, 0x20000, 0);
		bar(d, 1, CB_NIC_PORTS, 64, WARDEN_PCI_BAR_IO);
		break;
	case CB_DISK:
		d->vendor_id = 0x1af4;
		d->device_id = 0x1001;
		d->flags = WARDEN_PCI_MSIX;
		d->int_pin = WARDEN_PCI_INT_A;
		d->gsi = CB_DISK_GSI;
		bar(d, 0, CB_DISK_PORTS, 32, WARDEN_PCI_BAR_IO);
		bar(d, 1, CB_DISK_MMIO, 0x1000, 0);
		bar(d, 4, CB_DISK_MMIO64, 0x4000,
		    WARDEN_PCI_BAR_MEM64 | WARDEN_PCI_BAR_PREFETCH);
		break;
	default:
		assert(0);
	}
}

void cb_system_pci(struct cb_blob *b)
{
	struct warden_pci_device d;

	cb_system(b);
	cb_add_region(b, CB_PCI_WINDOW, CB_PCI_WINDOW, CB_PCI_WINDOW_SIZE,
		      RW | WARDEN_MEM_IO, WARDEN_MEMTYPE_UC);
	cb_add_pin(b, 4);
	cb_pci_entry(&d, CB_BRIDGE);
	cb_add_pci(b, &d);
	cb_pci_entry(&d, CB_NIC);
	cb_add_pci(b, &d);
	cb_pci_entry(&d, CB_DISK);
	cb_add_pci(b, &d);
	cb_add_ioapic(b, CB_IOAPIC, 0, 0, 24);
}

void cb_cell_pci(struct cb_blob *b, int which)
{
	struct warden_pci_device d;
	const uint32_t io = RW | WARDEN_MEM_IO;

	cb_cell(b, which);
	if (which) {
		cb_add_region(b, CB_DISK_MMIO, CB_DISK_MMIO, 0x1000, io,
			      WARDEN_MEMTYPE_UC);
		cb_add_region(b, CB_DISK_MMIO64, CB_DISK_MMIO64, 0x4000, io,
			      WARDEN_MEMTYPE_UC);
		cb_add_pio(b, CB_DISK_PORTS, 32);
		cb_add_pin(b, CB_DISK_GSI);
		cb_pci_entry(&d, CB_DISK);
	} else {
		cb_add_region(b, CB_NIC_MMIO, CB_NIC_MMIO, 0x20000, io,
			      WARDEN_MEMTYPE_UC);
		cb_add_pio(b, CB_NIC_PORTS, 64);
		cb_add_pin(b, CB_NIC_GSI);
		cb_pci_entry(&d, CB_NIC);
	}
	d.flags |= WARDEN_PCI_DMA_UNISOLATED;
	cb_add_pci(b, &d);
}

void cb_system_links(struct cb_blob *b)
{
	const uint32_t dir = WARDEN_LINK_DIRECTIONAL;
	unsigned int i;

	cb_system_pci(b);
	i = cb_add_link(b, "echo", CB_ECHO, CB_LINK_SIZE, dir);
	cb_add_peer(b, i, "linux", 0x80, CB_ROOT_REGS, CB_ECHO, 3);
	cb_add_peer(b, i, "cell-a", 0x08, 0x80000000, 0x80100000, 3);
	i = cb_add_link(b, "trio", CB_TRIO, CB_LINK_SIZE, dir);
	cb_add_peer(b, i, "linux", 0x88, CB_ROOT_REGS + 0x1000, CB_TRIO, 3);
	cb_add_peer(b, i, "cell-a", 0x10, 0x80001000, 0x80200000, 3);
	cb_add_peer(b, i, "cell-b", 0x08, 0x80000000, 0x80200000, 3);
}

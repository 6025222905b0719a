/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Valid system and cell config blobs built in memory, for tests and the
 * fuzz seed corpus, and helpers to change them.
 *
 * The machine is the emulated test machine: 1 GiB of RAM, 4 CPUs, Linux
 * booted with memmap=64M$0x30000000.  The system config gives the
 * hypervisor the first CB_HV_SIZE bytes of that reservation and the root
 * cell CPUs 0-3, the RAM below and above the reservation, the rest of the
 * reservation (the pool that cells take memory from), the IOAPIC and all
 * ports but the hypervisor's UART (COM2, 0x2f8).  Cell A takes CPU 1, 16
 * MiB of the pool and COM3; cell B CPUs 2-3, the next 16 MiB and COM4.
 *
 * A blob keeps its arrays packed and its counts and total_size right
 * through cb_add_* and cb_remove_*; everything else is changed through the
 * typed pointers (the buffer is 8-byte aligned).
 */
#ifndef WARDEN_TESTS_CONFIG_BUILDER_H
#define WARDEN_TESTS_CONFIG_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include <warden/config.h>

#define CB_BLOB_MAX 8192

#define CB_RAM_SIZE 0x40000000ull
#define CB_RESERVED_START 0x30000000ull
#define CB_RESERVED_SIZE 0x4000000ull
#define CB_HV_START CB_RESERVED_START
#define CB_HV_SIZE 0x600000ull
#define CB_POOL_START (CB_HV_START + CB_HV_SIZE)
#define CB_POOL_SIZE (CB_RESERVED_SIZE - CB_HV_SIZE)
#define CB_CELL_RAM 0x1000000ull /* each cell's RAM */
#define CB_IOAPIC 0xfec00000ull
#define CB_COM1 0x3f8
#define CB_COM2 0x2f8
#define CB_COM3 0x3e8
#define CB_COM4 0x2e8
#define CB_RESET 0x1000ull /* reset address of the cells */

/* Root cell's regions, in this order. */
enum { CB_ROOT_LOW, CB_ROOT_POOL, CB_ROOT_HIGH, CB_ROOT_IOAPIC };
/* A cell's regions and port ranges, in this order. */
enum { CB_CELL_RAM_REGION, CB_CELL_COMM };
enum { CB_ROOT_PIO_LOW, CB_ROOT_PIO_HIGH };

struct cb_blob {
	union {
		uint64_t align;
		uint8_t bytes[CB_BLOB_MAX];
	} u;
	size_t size; /* bytes used; passed to the checker */
	int system;  /* a system config (else a cell config) */
};

/* Cell A (which 0) or B (which 1). */
void cb_system(struct cb_blob *b);
void cb_cell(struct cb_blob *b, int which);

/*
 * The same with interrupts and PCI devices (config revision 2).  The
 * system has one IOAPIC (CB_IOAPIC, GSIs 0-23), root needs pin 4 (COM1),
 * and the machine has three functions: the host bridge 00:00.0 (no INTx,
 * no BARs), a NIC 00:03.0 (INTA on GSI 19, MSI, a 128 KiB memory BAR 0
 * and 64 ports at 0xc000 in BAR 1) and a disk controller 00:04.0 (INTA on
 * GSI 20, MSI-X, 32 ports at 0xc040, 4 KiB of memory in BAR 1 and a
 * 64-bit prefetchable 16 KiB BAR 4).  Root has the PCI window
 * CB_PCI_WINDOW as an io region.  Cell A takes the NIC (pin 19, its BARs),
 * cell B the disk controller (pin 20, its BARs), both DMA_UNISOLATED.
 */
#define CB_PCI_WINDOW 0xfe000000ull
#define CB_PCI_WINDOW_SIZE 0xc00000ull
#define CB_BRIDGE 0x0000 /* 00:00.0 */
#define CB_NIC 0x0018	 /* 00:03.0 */
#define CB_DISK 0x0020	 /* 00:04.0 */
#define CB_NIC_GSI 19
#define CB_DISK_GSI 20
#define CB_NIC_MMIO 0xfebc0000ull
#define CB_NIC_PORTS 0xc000
#define CB_DISK_PORTS 0xc040
#define CB_DISK_MMIO 0xfebf0000ull
#define CB_DISK_MMIO64 0xfe000000ull
void cb_system_pci(struct cb_blob *b);
void cb_cell_pci(struct cb_blob *b, int which);
/* Fills d with the system's entry of that function (bdf CB_*). */
void cb_pci_entry(struct warden_pci_device *d, uint16_t bdf);

/*
 * The same with two links (config revision 3), as the test machines have
 * them: "echo" (CB_ECHO, 1 MiB, directional) between root (00:10.0,
 * registers at CB_ROOT_REGS) and cell A (00:01.0, registers at
 * 0x80000000, the memory at 0x80100000), and "trio" (CB_TRIO) between
 * root (00:11.0, CB_ROOT_REGS + 4 KiB), cell A (00:02.0, 0x80001000,
 * 0x80200000) and cell B (00:01.0, 0x80000000, 0x80200000); 3 vectors
 * each.  Both links lie in the pool, above the cells' memory; root's
 * registers in its PCI window.
 */
#define CB_ECHO 0x33c00000ull
#define CB_TRIO 0x33d00000ull
#define CB_LINK_SIZE 0x100000ull
#define CB_ROOT_REGS 0xfe800000ull
void cb_system_links(struct cb_blob *b);
unsigned int cb_add_link(struct cb_blob *b, const char *name, uint64_t phys,
			 uint64_t size, uint32_t flags);
/* Appends a peer to link i (num_peers + 1); returns its index. */
unsigned int cb_add_peer(struct cb_blob *b, unsigned int i, const char *cell,
			 uint16_t bdf, uint64_t regs, uint64_t shmem,
			 uint8_t vectors);

struct warden_config_header *cb_header(struct cb_blob *b);
struct warden_system_desc *cb_sys(struct cb_blob *b); /* system only */
/* The root cell of a system config, the cell of a cell config. */
struct warden_cell_desc *cb_desc(struct cb_blob *b);
struct warden_mem_region *cb_region(struct cb_blob *b, unsigned int i);
struct warden_pio_range *cb_pio(struct cb_blob *b, unsigned int i);
struct warden_irq_pin *cb_pin(struct cb_blob *b, unsigned int i);
struct warden_pci_device *cb_pci(struct cb_blob *b, unsigned int i);
struct warden_ioapic *cb_ioapic(struct cb_blob *b, unsigned int i);
struct warden_link *cb_link(struct cb_blob *b, unsigned int i);
/* The IOMMU units (after the links): unit i, and a new one appended
 * (num_iommus + 1, no scope; platform.iommu_base left as it is). */
struct warden_iommu_unit *cb_iommu(struct cb_blob *b, unsigned int i);
size_t cb_iommu_offset(struct cb_blob *b, unsigned int i);
unsigned int cb_add_iommu(struct cb_blob *b, uint64_t base, uint16_t segment,
			  uint8_t flags);

/* Byte offsets in the blob (for CONFIG_RESERVED values). */
size_t cb_region_offset(struct cb_blob *b, unsigned int i);
size_t cb_pio_offset(struct cb_blob *b, unsigned int i);
size_t cb_pin_offset(struct cb_blob *b, unsigned int i);
size_t cb_pci_offset(struct cb_blob *b, unsigned int i);
size_t cb_ioapic_offset(struct cb_blob *b, unsigned int i);
size_t cb_link_offset(struct cb_blob *b, unsigned int i);

/* Append an item; returns its index. */
unsigned int cb_add_region(struct cb_blob *b, uint64_t phys, uint64_t guest,
			   uint64_t size, uint32_t flags, uint8_t type);
unsigned int cb_add_pio(struct cb_blob *b, uint16_t base, uint32_t length);
unsigned int cb_add_pin(struct cb_blob *b, uint32_t gsi);
unsigned int cb_add_pci(struct cb_blob *b, const struct warden_pci_device *d);
unsigned int cb_add_ioapic(struct cb_blob *b, uint64_t address,
			   uint32_t gsi_base, uint8_t id, uint8_t num_pins);
void cb_remove_region(struct cb_blob *b, unsigned int i);
void cb_remove_pio(struct cb_blob *b, unsigned int i);
void cb_remove_pin(struct cb_blob *b, unsigned int i);

void cb_set_name(struct cb_blob *b, const char *name);
void cb_cpus_clear(struct warden_cpu_set *set);
void cb_cpu_add(struct warden_cpu_set *set, unsigned int cpu);
void cb_cpu_del(struct warden_cpu_set *set, unsigned int cpu);

#endif /* WARDEN_TESTS_CONFIG_BUILDER_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The config validator (common/config_check/): valid configs of the test
 * machine pass; each invalid one is rejected with its rule, item and
 * values; several errors are all reported; truncated and damaged blobs are
 * rejected without reading past their end.
 *
 * Freestanding build: the validator must also compile for the hypervisor
 * (no libc, no red zone, no SSE, -mcmodel=kernel) and call nothing outside
 * itself.  This test cannot see that, so the build checks it: the rules in
 * tests/unit/build.mk compile its files with $(HV_CFLAGS), link them into
 * one object and fail when `nm -u` lists any undefined symbol (memset,
 * memcpy, ...), and
 * test_config_check depends on that object, so `make unit` fails first.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "config_builder.h"
#include "errmsg.h"
#include <config_check.h>

#define MAX_LOG 64

struct log {
	struct warden_error e[MAX_LOG];
	unsigned int n;
};

static void collect(void *ctx, const struct warden_error *err)
{
	struct log *log = ctx;

	if (log->n < MAX_LOG)
		log->e[log->n] = *err;
	log->n++;
}

/* The system, the cell under test (A, id 2) and an existing cell (B, id 1). */
struct env {
	struct cb_blob sys;
	struct cb_blob cell;
	struct cb_blob other;
};

static void env_init(struct env *e)
{
	cb_system(&e->sys);
	cb_cell(&e->cell, 0);
	cb_cell(&e->other, 1);
}

/* The same with IOAPIC pins and PCI devices (config_builder.h). */
static void env_init_pci(struct env *e)
{
	cb_system_pci(&e->sys);
	cb_cell_pci(&e->cell, 0);
	cb_cell_pci(&e->other, 1);
}

/* And with the two links "echo" and "trio" (config_builder.h). */
static void env_init_links(struct env *e)
{
	cb_system_links(&e->sys);
	cb_cell_pci(&e->cell, 0);
	cb_cell_pci(&e->other, 1);
}

static unsigned int run_system(struct env *e, struct log *log)
{
	return config_check_system(e->sys.u.bytes, e->sys.size, collect, log);
}

static unsigned int run_cell(struct env *e, struct log *log)
{
	const void *others[] = { e->other.u.bytes };
	size_t sizes[] = { e->other.size };

	return config_check_cell(e->cell.u.bytes, e->cell.size, e->sys.u.bytes,
				 e->sys.size, others, sizes, 1, collect, log);
}

static void print_log(const char *what, const struct log *log)
{
	unsigned int i;

	for (i = 0; i < log->n && i < MAX_LOG; i++)
		print_message("%s: rule %u item %u/%u values 0x%llx 0x%llx "
			      "0x%llx 0x%llx\n",
			      what, log->e[i].rule, log->e[i].item_kind,
			      log->e[i].item_index,
			      (unsigned long long)log->e[i].values[0],
			      (unsigned long long)log->e[i].values[1],
			      (unsigned long long)log->e[i].values[2],
			      (unsigned long long)log->e[i].values[3]);
}

/* Every record is well-formed, whatever its rule. */
static void check_records(const struct log *log)
{
	unsigned int i;

	for (i = 0; i < log->n && i < MAX_LOG; i++) {
		const struct warden_error *r = &log->e[i];

		assert_true(r->code == -22 || r->code == -7);
		assert_int_equal(r->cpu, WARDEN_NO_CPU);
		assert_int_equal(r->reserved, 0);
		assert_int_equal(r->text[0], 0);
		assert_int_not_equal(r->rule, WARDEN_RULE_NONE);
	}
}

/* ---- valid configs ---- */

static void valid_system(void **state)
{
	struct log log = { .n = 0 };
	struct env e;

	(void)state;
	env_init(&e);
	assert_int_equal(run_system(&e, &log), 0);
	assert_int_equal(log.n, 0);
	assert_int_equal(
		config_check_system(e.sys.u.bytes, e.sys.size, NULL, NULL), 0);
}

static void valid_cell_alone(void **state)
{
	struct env e;

	(void)state;
	env_init(&e);
	/* on its own, as the CLI checks a file */
	assert_int_equal(config_check_cell(e.cell.u.bytes, e.cell.size, NULL, 0,
					   NULL, NULL, 0, NULL, NULL),
			 0);
	/* against the system, no other cell yet */
	assert_int_equal(config_check_cell(e.cell.u.bytes, e.cell.size,
					   e.sys.u.bytes, e.sys.size, NULL,
					   NULL, 0, NULL, NULL),
			 0);
	assert_int_equal(config_check_cell(e.other.u.bytes, e.other.size,
					   e.sys.u.bytes, e.sys.size, NULL,
					   NULL, 0, NULL, NULL),
			 0);
}

static void valid_two_cells(void **state)
{
	struct log log = { .n = 0 };
	struct env e;
	const void *others[1];
	size_t sizes[1];

	(void)state;
	env_init(&e);
	assert_int_equal(run_cell(&e, &log), 0);
	/* and the other way round */
	others[0] = e.cell.u.bytes;
	sizes[0] = e.cell.size;
	assert_int_equal(config_check_cell(e.other.u.bytes, e.other.size,
					   e.sys.u.bytes, e.sys.size, others,
					   sizes, 1, collect, &log),
			 0);
	assert_int_equal(log.n, 0);
}

/* ---- one invalid config per case ---- */

/* T_SYS_PCI, T_CELL_PCI: on the configs with pins and devices;
 * T_SYS_LINK, T_CELL_LINK: with the links too. */
enum target { T_SYS, T_CELL, T_SYS_PCI, T_CELL_PCI, T_SYS_LINK, T_CELL_LINK };

struct bad {
	const char *name;
	enum target target;
	void (*mutate)(struct env *e);
	uint32_t rule;
	uint32_t kind;
	uint32_t index;
	uint64_t values[4];
	unsigned int count; /* errors in all (this one and its consequences) */
};

#define S (&e->sys)
#define C (&e->cell)
#define MUT(fn) static void fn(struct env *e)

#define SYS_SIZE 360u	 /* 24 + 192 + 4 * 32 + 2 * 8 */
#define CELL_SIZE 208u	 /* 24 + 112 + 2 * 32 + 8 */
#define SYS_REGIONS 216u /* offset of the root cell's regions */
#define SYS_PIO 344u
#define CELL_REGIONS 136u
#define SIG_SYSTEM 0x005359534e445257ull /* "WRDNSYS" little-endian */
#define SIG_CELL 0x004c45434e445257ull
#define RWX (WARDEN_MEM_READ | WARDEN_MEM_WRITE | WARDEN_MEM_EXECUTE)
#define RW (WARDEN_MEM_READ | WARDEN_MEM_WRITE)
#define ROOT_FLAGS (WARDEN_MEM_FLAGS_ALL & ~WARDEN_MEM_COMM_REGION)
#define TOP 0xfffffffffff00000ull
#define A_RAM CB_POOL_START
#define B_RAM (CB_POOL_START + CB_CELL_RAM)

/* Header and blob. */
MUT(sys_10_bytes)
{
	S->size = 10;
}
MUT(sys_header_only)
{
	S->size = 24;
}
MUT(sys_cell_signature)
{
	memcpy(cb_header(S)->signature, WARDEN_CELL_SIGNATURE, 8);
}
MUT(cell_system_signature)
{
	memcpy(cb_header(C)->signature, WARDEN_SYSTEM_SIGNATURE, 8);
}
MUT(sys_revision)
{
	cb_header(S)->revision = 1;
}
MUT(sys_arch)
{
	cb_header(S)->architecture = 3;
}
MUT(sys_total_size)
{
	cb_header(S)->total_size = 400;
}
MUT(sys_trailing_bytes)
{
	S->size += 8;
}
MUT(sys_counts_too_big)
{
	cb_desc(S)->num_pio_ranges = 3;
}
MUT(sys_counts_too_small)
{
	cb_desc(S)->num_pio_ranges = 1;
}
MUT(sys_header_flags)
{
	cb_header(S)->flags = 1;
}
MUT(sys_header_reserved)
{
	cb_header(S)->reserved = 5;
}
MUT(sys_root_reserved)
{
	cb_desc(S)->reserved = 1;
}
MUT(sys_platform_reserved2)
{
	cb_sys(S)->platform.reserved2 = 1;
}
MUT(sys_platform_reserved3)
{
	cb_sys(S)->platform.reserved3[3] = 0x80;
}
MUT(sys_region_reserved)
{
	cb_region(S, 1)->reserved[0] = 1;
}
MUT(sys_pio_reserved)
{
	cb_pio(S, 1)->reserved = 7;
}
MUT(sys_too_many_regions)
{
	cb_desc(S)->num_memory_regions = 2000;
}
MUT(sys_too_many_pio)
{
	cb_desc(S)->num_pio_ranges = 5000;
}

/* Names, flags, CPUs of the root cell. */
MUT(sys_name_empty)
{
	cb_set_name(S, "");
}
MUT(sys_name_unterminated)
{
	memset(cb_desc(S)->name, 'a', WARDEN_NAME_LEN);
}
MUT(sys_name_tab)
{
	cb_set_name(S, "li\tnux");
}
MUT(sys_root_flags)
{
	cb_desc(S)->flags = 2;
}
MUT(sys_root_no_cpus)
{
	cb_cpus_clear(&cb_desc(S)->cpus);
}
MUT(sys_root_no_cpu0)
{
	cb_cpu_del(&cb_desc(S)->cpus, 0);
}

/* Hypervisor memory. */
MUT(sys_hv_unaligned)
{
	cb_sys(S)->hv_mem_size = 0x5ff800;
}
MUT(sys_hv_small)
{
	cb_sys(S)->hv_mem_size = 0x80000;
}
MUT(sys_hv_wraps)
{
	cb_sys(S)->hv_mem_start = TOP;
	cb_sys(S)->hv_mem_size = 0x200000;
}
MUT(sys_hv_empty)
{
	cb_sys(S)->hv_mem_size = 0;
}

/* Root memory regions. */
MUT(sys_region_overlaps_hv)
{
	cb_region(S, 1)->phys_start = 0x30400000;
	cb_region(S, 1)->guest_start = 0x30400000;
	cb_region(S, 1)->size = 0x3c00000;
}
MUT(sys_region_unaligned)
{
	cb_region(S, 2)->guest_start += 0x800;
}
MUT(sys_region_empty)
{
	cb_region(S, 3)->size = 0;
}
MUT(sys_region_wraps_phys)
{
	cb_add_region(S, TOP, 0x50000000, 0x200000, RW, WARDEN_MEMTYPE_WB);
}
MUT(sys_region_wraps_guest)
{
	cb_add_region(S, 0x50000000, TOP, 0x200000, RW, WARDEN_MEMTYPE_WB);
}
MUT(sys_region_overlap_phys)
{
	cb_add_region(S, 0x1000, 0x50000000, 0x1000, RW, WARDEN_MEMTYPE_WB);
}
MUT(sys_region_overlap_guest)
{
	cb_add_region(S, 0x50000000, 0x2000, 0x1000, RW, WARDEN_MEMTYPE_WB);
}
MUT(sys_region_flags)
{
	cb_region(S, 0)->flags |= 0x80;
}
MUT(sys_region_type)
{
	cb_region(S, 0)->mem_type = 2;
}
MUT(sys_ram_uc)
{
	cb_region(S, 2)->mem_type = WARDEN_MEMTYPE_UC;
}
MUT(sys_io_wb)
{
	cb_region(S, 3)->mem_type = WARDEN_MEMTYPE_WB;
}
MUT(sys_root_comm_region)
{
	cb_add_region(S, 0, 0x50000000, 0x1000, RW | WARDEN_MEM_COMM_REGION,
		      WARDEN_MEMTYPE_WB);
}

/* Root port ranges and consoles. */
MUT(sys_pio_empty)
{
	cb_pio(S, 1)->length = 0;
}
MUT(sys_pio_past_end)
{
	cb_pio(S, 1)->length = 0xfd01;
}
MUT(sys_pio_overlap)
{
	cb_add_pio(S, 0x60, 1);
}
MUT(sys_debug_hypercall)
{
	cb_sys(S)->debug_console.type = WARDEN_CONSOLE_HYPERCALL;
}
MUT(sys_debug_type)
{
	cb_sys(S)->debug_console.type = 9;
}
MUT(sys_debug_address)
{
	cb_sys(S)->debug_console.address = 0xfff9;
}
MUT(sys_debug_flags)
{
	cb_sys(S)->debug_console.flags = 1;
}
MUT(sys_root_console_hypercall)
{
	cb_desc(S)->console.type = WARDEN_CONSOLE_HYPERCALL;
}

/* A cell: identity and CPUs. */
MUT(cell_name_empty)
{
	cb_set_name(C, "");
}
MUT(cell_name_of_other)
{
	cb_set_name(C, "cell-b");
}
MUT(cell_name_of_root)
{
	cb_set_name(C, "linux");
}
MUT(cell_name_del)
{
	cb_set_name(C, "cell\x7f");
}
MUT(cell_flags)
{
	cb_desc(C)->flags = 0x10;
}
MUT(cell_reserved)
{
	cb_desc(C)->reserved = 0x100;
}
MUT(cell_no_cpus)
{
	cb_cpus_clear(&cb_desc(C)->cpus);
}
MUT(cell_cpu0)
{
	cb_cpu_add(&cb_desc(C)->cpus, 0);
}
MUT(cell_cpu9)
{
	cb_cpu_add(&cb_desc(C)->cpus, 9);
}
MUT(cell_cpu200)
{
	cb_cpu_add(&cb_desc(C)->cpus, 200);
}
MUT(cell_cpu_of_other)
{
	cb_cpu_add(&cb_desc(C)->cpus, 2);
}
MUT(cell_cpu_not_in_root)
{
	cb_cpu_del(&cb_desc(S)->cpus, 1);
}

/* A cell: memory. */
MUT(cell_region_not_in_root)
{
	cb_region(C, 0)->phys_start = 0x50000000;
}
MUT(cell_region_spans_root_regions)
{
	/* root RAM above the reservation in two adjacent regions */
	cb_region(S, CB_ROOT_HIGH)->size = 0x4000000;
	cb_add_region(S, 0x38000000, 0x38000000, 0x8000000, RWX,
		      WARDEN_MEMTYPE_WB);
	cb_region(C, 0)->phys_start = 0x37000000;
	cb_region(C, 0)->size = 0x2000000;
	cb_region(C, CB_CELL_COMM)->guest_start = 0x2000000;
}
MUT(cell_region_overlaps_hv)
{
	cb_region(C, 0)->phys_start = 0x30500000;
}
MUT(cell_region_of_other)
{
	cb_region(C, 0)->phys_start = B_RAM + 0x800000;
}
MUT(cell_no_comm)
{
	cb_remove_region(C, CB_CELL_COMM);
}
MUT(cell_two_comm)
{
	cb_add_region(C, 0, 0x2000000, 0x1000, RW | WARDEN_MEM_COMM_REGION,
		      WARDEN_MEMTYPE_WB);
}
MUT(cell_comm_two_pages)
{
	cb_region(C, CB_CELL_COMM)->size = 0x2000;
}
MUT(cell_comm_phys)
{
	cb_region(C, CB_CELL_COMM)->phys_start = 0x32600000;
}
MUT(cell_comm_io)
{
	cb_region(C, CB_CELL_COMM)->flags |= WARDEN_MEM_IO;
	cb_region(C, CB_CELL_COMM)->mem_type = WARDEN_MEMTYPE_UC;
}
MUT(cell_comm_guest_overlap)
{
	cb_region(C, CB_CELL_COMM)->guest_start = 0x800000;
}
MUT(cell_phys_overlap)
{
	cb_add_region(C, A_RAM + 0x1000, 0x2000000, 0x1000, RW,
		      WARDEN_MEMTYPE_WB);
}
MUT(cell_io_wb)
{
	cb_add_region(C, CB_IOAPIC, CB_IOAPIC, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_WB);
}
MUT(cell_size_unaligned)
{
	cb_region(C, 0)->size = 0xfff800;
}
MUT(cell_reset_outside)
{
	cb_desc(C)->reset_address = 0x2000000;
}
MUT(cell_reset_not_executable)
{
	cb_region(C, 0)->flags &= ~WARDEN_MEM_EXECUTE;
}
MUT(cell_reset_in_comm)
{
	cb_desc(C)->reset_address = CB_CELL_RAM;
}

/* A cell: ports and console. */
MUT(cell_pio_not_in_root)
{
	cb_add_pio(C, CB_COM2, 8);
}
MUT(cell_pio_of_other)
{
	cb_add_pio(C, CB_COM4, 8);
}
MUT(cell_pio_config_ports)
{
	cb_add_pio(C, 0xcfc, 4);
}
/* Addresses the hypervisor traps: root has them, a cell may not. */
MUT(cell_over_lapic_window)
{
	cb_add_region(S, WARDEN_LAPIC_WINDOW, WARDEN_LAPIC_WINDOW,
		      WARDEN_LAPIC_WINDOW_SIZE, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
	/* not the APIC page itself: the MSI window above it */
	cb_add_region(C, WARDEN_LAPIC_WINDOW + 0x1000, 0x80000000, 0x1000,
		      RW | WARDEN_MEM_IO, WARDEN_MEMTYPE_UC);
}
MUT(cell_over_ioapic)
{
	cb_add_region(C, CB_IOAPIC, 0x80000000, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
}
MUT(cell_over_iommu)
{
	cb_sys(S)->platform.iommu_base = 0xfed90000;
	cb_add_region(S, 0xfed90000, 0xfed90000, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
	cb_add_region(C, 0xfed90000, 0x80000000, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
}
MUT(cell_over_hpet)
{
	cb_sys(S)->platform.hpet_base = 0xfed00000;
	cb_add_region(S, 0xfed00000, 0xfed00000, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
	cb_add_region(C, 0xfed00000, 0x80000000, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
}
MUT(cell_pio_overlap)
{
	cb_add_pio(C, CB_COM3 + 4, 4);
}
MUT(cell_console_outside_ports)
{
	cb_desc(C)->console.address = CB_COM1;
}
MUT(cell_console_type)
{
	cb_desc(C)->console.type = 5;
}

/* A cell: the blob and the configs it is checked against. */
MUT(cell_truncated)
{
	C->size -= 8;
}
MUT(cell_system_invalid)
{
	cb_header(S)->revision = 1;
}
MUT(cell_other_invalid)
{
	cb_set_name(&e->other, "");
}

/* IOAPICs (system). */
#define NIC_I 1		  /* index of the NIC in the system's devices */
#define DISK_I 2	  /* and of the disk controller */
#define CELL_PCI_REGION 2 /* cell A's region for the NIC's BAR 0 */
#define CELL_PCI_PIO 1	  /* and its range for BAR 1 */
#define BRIDGE_ID CB_BRIDGE
#define NIC_ID CB_NIC
#define DISK_ID CB_DISK
#define DMA WARDEN_PCI_DMA_UNISOLATED
#define SYS_PCI_PINS (SYS_SIZE + 32 + 0) /* root's pin array */
#define SYS_PCI_DEVS (SYS_PCI_PINS + 8)
#define SYS_PCI_IOAPICS (SYS_PCI_DEVS + 3 * 168)
/* the system with links: its IOAPIC and two links after the devices */
#define SYS_LINKS_SIZE (SYS_PCI_IOAPICS + 16 + 2 * 280)
MUT(ioapic_address_0)
{
	cb_ioapic(S, 0)->address = 0;
}
MUT(ioapic_unaligned)
{
	cb_ioapic(S, 0)->address = CB_IOAPIC + 0x800;
}
MUT(ioapic_no_pins)
{
	cb_ioapic(S, 0)->num_pins = 0;
}
MUT(ioapic_241_pins)
{
	cb_ioapic(S, 0)->num_pins = 241;
}
/* ---- the IOMMU units (iommus.c) ---- */
#define UNIT0 0xfed90000ull
#define UNIT1 0xfed91000ull
static void unit_scope(struct env *e, unsigned int i, uint16_t bdf,
		       uint8_t type, uint8_t end)
{
	struct warden_iommu_unit *u = cb_iommu(S, i);

	u->scopes[u->num_scopes].bdf = bdf;
	u->scopes[u->num_scopes].type = type;
	u->scopes[u->num_scopes++].end_bus = end;
}
/* fine: one unit for all, the cell's function confined */
MUT(iommu_one_all)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_pci(C, 0)->flags &= ~DMA;
}
/* fine: two units, each function in one scope (a bus range, a function) */
MUT(iommu_two_scoped)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, 0);
	unit_scope(e, 0, 0x0000, WARDEN_IOMMU_SCOPE_FUNCTION, 0);
	unit_scope(e, 0, CB_NIC, WARDEN_IOMMU_SCOPE_FUNCTION, 0);
	cb_add_iommu(S, UNIT1, 0, 0);
	unit_scope(e, 1, 0x0000, WARDEN_IOMMU_SCOPE_BUSES, 0);
}
/* the disk controller (and the host bridge) in no unit's scope */
MUT(iommu_uncovered)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, 0);
	unit_scope(e, 0, CB_NIC, WARDEN_IOMMU_SCOPE_FUNCTION, 0);
}
/* INCLUDE_PCI_ALL of another segment covers nothing here */
MUT(iommu_other_segment)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, 0);
	unit_scope(e, 0, 0x0000, WARDEN_IOMMU_SCOPE_FUNCTION, 0);
	unit_scope(e, 0, CB_NIC, WARDEN_IOMMU_SCOPE_FUNCTION, 0);
	cb_add_iommu(S, UNIT1, 1, WARDEN_IOMMU_INCLUDE_PCI_ALL);
}
MUT(iommu_bad_scope)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_add_iommu(S, UNIT1, 0, 0);
	unit_scope(e, 1, 0x0300, WARDEN_IOMMU_SCOPE_BUSES, 2);
}
MUT(iommu_all_with_scope)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	unit_scope(e, 0, CB_NIC, WARDEN_IOMMU_SCOPE_FUNCTION, 0);
}
MUT(iommu_all_twice)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_add_iommu(S, UNIT1, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
}
MUT(iommu_duplicate)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_add_iommu(S, UNIT0, 1, WARDEN_IOMMU_INCLUDE_PCI_ALL);
}
MUT(iommu_not_listed)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT1, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
}
MUT(iommu_unaligned)
{
	cb_sys(S)->platform.iommu_base = UNIT0 + 0x10;
	cb_add_iommu(S, UNIT0 + 0x10, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
}
MUT(iommu_unknown_flag)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL | 0x4);
}
MUT(iommu_slot_dirty)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_iommu(S, 0)->scopes[5].bdf = 0x100;
}
MUT(iommu_nine)
{
	unsigned int i;

	for (i = 0; i < 9; i++)
		cb_add_iommu(S, UNIT0 + i * 0x1000ull, (uint16_t)i,
			     WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_sys(S)->platform.iommu_base = UNIT0;
}
/* fine: units listed, none taken (cells' functions need dma_unisolated) */
MUT(iommu_none_taken)
{
	cb_sys(S)->platform.iommu_base = 0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
}
/* a cell's memory over a unit the hypervisor does not take */
MUT(cell_over_second_unit)
{
	cb_sys(S)->platform.iommu_base = UNIT0;
	cb_add_iommu(S, UNIT0, 0, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_add_iommu(S, UNIT1, 1, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	cb_add_region(C, UNIT1, UNIT1, 0x1000,
		      WARDEN_MEM_READ | WARDEN_MEM_WRITE | WARDEN_MEM_IO, 0);
}
MUT(ioapic_same_address)
{
	cb_add_ioapic(S, CB_IOAPIC, 24, 1, 24);
}
MUT(ioapic_gsis_overlap)
{
	cb_add_ioapic(S, CB_IOAPIC + 0x1000, 16, 1, 24);
}
MUT(ioapic_two_valid)
{
	/* a second IOAPIC after the first one's GSIs, and a root pin on it */
	cb_add_ioapic(S, CB_IOAPIC + 0x1000, 24, 1, 24);
	cb_add_pin(S, 47);
	cb_add_pin(S, 48);
}

/* Root pins and devices. */
MUT(root_pin_no_ioapic)
{
	cb_add_pin(S, 30);
}
MUT(root_pin_twice)
{
	cb_add_pin(S, 4);
}
MUT(root_pin_reserved)
{
	cb_pin(S, 0)->reserved = 1;
}
MUT(root_pci_dma)
{
	cb_pci(S, NIC_I)->flags |= DMA;
}
MUT(root_pci_flags)
{
	cb_pci(S, NIC_I)->flags |= 0x10;
}
MUT(root_pci_twice)
{
	struct warden_pci_device d;

	cb_pci_entry(&d, CB_NIC);
	cb_add_pci(S, &d);
}
MUT(root_pci_other_domain)
{
	/* the same bdf in another PCI segment is another function */
	struct warden_pci_device d;

	cb_pci_entry(&d, CB_NIC);
	d.domain = 1;
	d.int_pin = WARDEN_PCI_INT_NONE; /* not on cell A's line */
	d.gsi = WARDEN_NO_GSI;
	memset(d.bars, 0, sizeof(d.bars)); /* nor under its BARs */
	cb_add_pci(S, &d);
}
MUT(root_pci_int_pin)
{
	cb_pci(S, NIC_I)->int_pin = 5;
}
MUT(root_pci_gsi_no_pin)
{
	cb_pci(S, 0)->gsi = 5;
}
MUT(root_pci_reserved0)
{
	cb_pci(S, NIC_I)->reserved0[2] = 1;
}
MUT(root_pci_reserved1)
{
	cb_pci(S, NIC_I)->reserved1 = 3;
}
/* an alias without its flag: the field is reserved then */
MUT(root_pci_alias_no_flag)
{
	cb_pci(S, NIC_I)->dma_alias = 5;
}
MUT(root_pci_bar_reserved)
{
	cb_pci(S, NIC_I)->bars[1].reserved = 4;
}
MUT(root_bar_size)
{
	cb_pci(S, NIC_I)->bars[0].size = 0x18000;
}
MUT(root_bar_align)
{
	cb_pci(S, NIC_I)->bars[0].address = CB_NIC_MMIO + 0x1000;
}
MUT(root_bar_flags)
{
	cb_pci(S, NIC_I)->bars[0].flags = 8;
}
MUT(root_bar_io_mem64)
{
	cb_pci(S, NIC_I)->bars[1].flags |= WARDEN_PCI_BAR_MEM64;
}
MUT(root_bar_mem64_last)
{
	struct warden_pci_bar *b = &cb_pci(S, NIC_I)->bars[5];

	b->address = 0xfebd2000;
	b->size = 0x1000;
	b->flags = WARDEN_PCI_BAR_MEM64;
}
MUT(root_bar_upper_used)
{
	struct warden_pci_bar *b = &cb_pci(S, DISK_I)->bars[5];

	b->address = 0xfebd2000;
	b->size = 0x1000;
}
MUT(root_bar_empty_address)
{
	cb_pci(S, NIC_I)->bars[2].address = 0x1000;
}
MUT(root_bar_io_top)
{
	/* 0xfff...f000 + 0x1000 wraps to 0: still past 0xffff */
	cb_pci(S, NIC_I)->bars[1].address = 0xfffffffffffff000ull;
	cb_pci(S, NIC_I)->bars[1].size = 0x1000;
}
MUT(root_bar_io_past_end)
{
	/* aligned to a power-of-2 size: only a start past 0xffff gets
	 * there */
	cb_pci(S, NIC_I)->bars[1].address = 0x10000;
}

/* A cell's own pins and devices. */
MUT(cell_bar_unmapped)
{
	cb_remove_region(C, CELL_PCI_REGION);
}
MUT(cell_bar_moved)
{
	cb_region(C, CELL_PCI_REGION)->guest_start = 0x80000000;
}
MUT(cell_bar_ram)
{
	cb_region(C, CELL_PCI_REGION)->flags = RW;
	cb_region(C, CELL_PCI_REGION)->mem_type = WARDEN_MEMTYPE_WB;
}
MUT(cell_bar_half_mapped)
{
	cb_region(C, CELL_PCI_REGION)->size = 0x10000;
}
MUT(cell_bar_ports)
{
	cb_remove_pio(C, CELL_PCI_PIO);
}
MUT(cell_pin_not_owned)
{
	cb_remove_pin(C, 0);
}
MUT(cell_no_dma_flag)
{
	cb_pci(C, 0)->flags &= ~DMA;
}
/* with an IOMMU (the hypervisor confines every function's DMA) a device
 * needs no DMA_UNISOLATED */
MUT(cell_dma_confined)
{
	cb_sys(S)->platform.iommu_base = 0xfed90000;
	cb_pci(C, 0)->flags &= ~DMA;
}
/* a Linux cell with an unconfined device and its RAM at guest 0, phys
 * elsewhere: Linux's DMA addresses would reach other memory */
MUT(cell_linux_dma)
{
	cb_desc(C)->flags |= WARDEN_CELL_LINUX;
}
/* the same with an IOMMU, which translates them: taken */
MUT(cell_linux_dma_confined)
{
	cb_desc(C)->flags |= WARDEN_CELL_LINUX;
	cb_sys(S)->platform.iommu_base = 0xfed90000;
}
/* the relocated boot's layout (docs/linux-cell.md, "Devices"): the first
 * MiB elsewhere, which Linux never gives a device, the rest at guest =
 * phys: taken without an IOMMU */
MUT(cell_linux_dma_low_mib)
{
	cb_desc(C)->flags |= WARDEN_CELL_LINUX;
	cb_region(C, 0)->size = 0x100000;
	cb_add_region(C, CB_POOL_START + 0x100000, CB_POOL_START + 0x100000,
		      CB_CELL_RAM - 0x100000, RWX | WARDEN_MEM_LOADABLE,
		      WARDEN_MEMTYPE_WB);
}
/* a region elsewhere that reaches past the first MiB: refused */
MUT(cell_linux_dma_past_low_mib)
{
	cb_desc(C)->flags |= WARDEN_CELL_LINUX;
	cb_region(C, 0)->size = 0x200000;
	cb_add_region(C, CB_POOL_START + 0x200000, CB_POOL_START + 0x200000,
		      CB_CELL_RAM - 0x200000, RWX | WARDEN_MEM_LOADABLE,
		      WARDEN_MEMTYPE_WB);
}
MUT(cell_pin_unused)
{
	cb_add_pin(C, 22);
}
MUT(cell_pin_twice)
{
	cb_add_pin(C, CB_NIC_GSI);
}
MUT(cell_pci_twice)
{
	struct warden_pci_device d;

	cb_pci_entry(&d, CB_NIC);
	d.flags |= DMA;
	cb_add_pci(C, &d);
}
MUT(cell_pci_flags)
{
	cb_pci(C, 0)->flags |= 0x100;
}

/* A cell against the system and cell B. */
MUT(cell_pin_no_ioapic)
{
	cb_pci(S, NIC_I)->gsi = 40;
	cb_pci(C, 0)->gsi = 40;
	cb_pin(C, 0)->gsi = 40;
}
MUT(cell_pin_of_root)
{
	cb_add_pin(C, 4);
}
MUT(cell_pin_of_other)
{
	cb_add_pin(C, 7);
	cb_add_pin(&e->other, 7);
}
MUT(cell_pin_shared)
{
	struct warden_pci_device d;

	cb_pci_entry(&d, CB_BRIDGE);
	d.bdf = 0x28; /* 00:05.0 */
	d.int_pin = WARDEN_PCI_INT_A;
	d.gsi = 10;
	cb_add_pci(S, &d);
	cb_add_pin(C, 10);
}
MUT(cell_pci_not_in_system)
{
	cb_pci(C, 0)->bdf = 0x38; /* 00:07.0 */
}
MUT(cell_pci_other_domain)
{
	cb_pci(C, 0)->domain = 1;
}
MUT(cell_pci_vendor)
{
	cb_pci(C, 0)->vendor_id = 0x8087;
}
MUT(cell_pci_device_id)
{
	cb_pci(C, 0)->device_id = 0x100f;
}
MUT(cell_pci_int_pin)
{
	cb_pci(C, 0)->int_pin = WARDEN_PCI_INT_D;
}
MUT(cell_pci_gsi)
{
	cb_pci(C, 0)->gsi = 11;
	cb_pin(C, 0)->gsi = 11;
}
MUT(cell_pci_msi)
{
	cb_pci(C, 0)->flags &= ~WARDEN_PCI_MSI;
}
MUT(cell_pci_bar_size)
{
	cb_pci(C, 0)->bars[0].size = 0x10000;
}
MUT(cell_pci_bar_flags)
{
	cb_pci(C, 0)->bars[0].flags = WARDEN_PCI_BAR_PREFETCH;
}
MUT(cell_pci_bar_address)
{
	cb_pci(C, 0)->bars[1].address = CB_NIC_PORTS + 0x80;
	cb_pio(C, CELL_PCI_PIO)->base = CB_NIC_PORTS + 0x80;
}
MUT(cell_pci_of_other)
{
	struct warden_pci_device d;

	cb_pci_entry(&d, CB_BRIDGE);
	d.flags |= DMA;
	cb_add_pci(C, &d);
	cb_add_pci(&e->other, &d);
}
/* A function of root's with a memory BAR at 0xfe100000 and ports at
 * 0xd000, which no cell takes. */
static void add_root_function(struct env *e)
{
	struct warden_pci_device d;

	cb_pci_entry(&d, CB_BRIDGE);
	d.bdf = 0x30; /* 00:06.0 */
	d.bars[0].address = 0xfe100000;
	d.bars[0].size = 0x1000;
	d.bars[2].address = 0xd000;
	d.bars[2].size = 32;
	d.bars[2].flags = WARDEN_PCI_BAR_IO;
	cb_add_pci(S, &d);
}
MUT(cell_maps_root_bar)
{
	add_root_function(e);
	cb_add_region(C, 0xfe100000, 0xfe100000, 0x1000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
}
MUT(cell_ports_of_root_bar)
{
	add_root_function(e);
	cb_add_pio(C, 0xd010, 16);
}
MUT(cell_intx_shared)
{
	struct warden_pci_device d;

	cb_pci_entry(&d, CB_BRIDGE);
	d.bdf = 0x29; /* 00:05.1 */
	d.int_pin = 2 /* INTB */;
	d.gsi = CB_NIC_GSI;
	cb_add_pci(S, &d);
}
MUT(cell_intx_shared_taken)
{
	/* both functions on the line go to the cell: valid */
	struct warden_pci_device d;

	cell_intx_shared(e);
	cb_pci_entry(&d, CB_BRIDGE);
	d.bdf = 0x29;
	d.int_pin = 2 /* INTB */;
	d.gsi = CB_NIC_GSI;
	d.flags = DMA;
	cb_add_pci(C, &d);
}

/* Requester-id aliases (rule PCI_DMA_ALIAS), with an IOMMU: behind a
 * PCIe-to-PCI bridge whose secondary bus is 2, the conventional functions
 * 02:01.0 and 02:02.0 reach the IOMMU as 02:00.0. */
#define ALIAS_RID 0x200 /* 02:00.0 */
#define FN_21 0x208	/* 02:01.0 */
#define FN_22 0x210	/* 02:02.0 */
static void aliased(struct warden_pci_device *d, uint16_t bdf)
{
	cb_pci_entry(d, CB_BRIDGE); /* no INTx, no BARs */
	d->bdf = bdf;
	d->flags = WARDEN_PCI_DMA_ALIAS;
	d->dma_alias = ALIAS_RID;
}
/* the cell takes 02:01.0, root keeps 02:02.0: refused */
MUT(cell_alias_shared)
{
	struct warden_pci_device d;

	cb_sys(S)->platform.iommu_base = 0xfed90000;
	aliased(&d, FN_21);
	cb_add_pci(S, &d);
	cb_add_pci(C, &d);
	aliased(&d, FN_22);
	cb_add_pci(S, &d);
}
/* both go to the cell: taken */
MUT(cell_alias_taken)
{
	struct warden_pci_device d;

	cell_alias_shared(e);
	aliased(&d, FN_22);
	cb_add_pci(C, &d);
}
/* no IOMMU: requester ids mean nothing, the flag dma_unisolated does */
MUT(cell_alias_no_iommu)
{
	struct warden_pci_device d;

	aliased(&d, FN_21);
	cb_add_pci(S, &d);
	d.flags |= DMA;
	cb_add_pci(C, &d);
	aliased(&d, FN_22);
	cb_add_pci(S, &d);
}
/* the alias is a function's own id (a device at 02:00.0, root's) */
MUT(cell_alias_own_id)
{
	struct warden_pci_device d;

	cb_sys(S)->platform.iommu_base = 0xfed90000;
	aliased(&d, FN_21);
	cb_add_pci(S, &d);
	cb_add_pci(C, &d);
	cb_pci_entry(&d, CB_BRIDGE);
	d.bdf = ALIAS_RID;
	cb_add_pci(S, &d);
}
/* the cell takes the NIC, root keeps a function aliased to the NIC's id
 * (the NIC's own id is what that function's DMA carries) */
MUT(cell_alias_is_cells_id)
{
	struct warden_pci_device d;

	cb_sys(S)->platform.iommu_base = 0xfed90000;
	aliased(&d, FN_21);
	d.dma_alias = CB_NIC;
	cb_add_pci(S, &d);
}
/* the cell's entry does not repeat the system's alias */
MUT(cell_alias_not_repeated)
{
	struct warden_pci_device d;

	cb_sys(S)->platform.iommu_base = 0xfed90000;
	aliased(&d, FN_21);
	cb_add_pci(S, &d);
	d.flags = 0;
	d.dma_alias = 0;
	cb_add_pci(C, &d);
}

/* Links (system with links; a cell against it).  Link 0 is "echo"
 * (root, cell A), link 1 "trio" (root, cell A, cell B). */
#define L(i) cb_link(S, i)
#define NO_PEER (~0ull)
#define ROOT_IO WARDEN_MEM_IO
static void link_name(struct env *e, unsigned int i, const char *name)
{
	memset(L(i)->name, 0, WARDEN_NAME_LEN);
	memcpy(L(i)->name, name, strlen(name));
}
static void peer_cell(struct env *e, unsigned int i, unsigned int p,
		      const char *name)
{
	memset(L(i)->peers[p].cell, 0, WARDEN_NAME_LEN);
	memcpy(L(i)->peers[p].cell, name, strlen(name));
}
MUT(link_name_empty)
{
	link_name(e, 0, "");
}
MUT(link_name_unterminated)
{
	memset(L(0)->name, 'a', WARDEN_NAME_LEN);
}
MUT(link_name_tab)
{
	link_name(e, 0, "ec\tho");
}
MUT(link_name_twice)
{
	link_name(e, 1, "echo");
}
MUT(link_flags)
{
	L(0)->flags |= 4;
}
MUT(link_no_peers)
{
	L(0)->num_peers = 0;
}
MUT(link_one_peer)
{
	L(0)->num_peers = 1;
}
MUT(link_peer_reserved)
{
	L(0)->peers[1].reserved[2] = 7;
}
MUT(link_unused_peer)
{
	L(0)->peers[3].vectors = 1;
}
MUT(link_peer_name_empty)
{
	peer_cell(e, 0, 1, "");
}
MUT(link_peer_name_del)
{
	peer_cell(e, 0, 1, "cell\x7f");
}
MUT(link_too_many)
{
	cb_sys(S)->platform.num_links = WARDEN_MAX_LINKS + 1;
}
MUT(link_count_too_big)
{
	cb_sys(S)->platform.num_links = 3;
}
MUT(link_size_not_power)
{
	L(0)->size = 0x30000;
}
MUT(link_size_small)
{
	L(0)->size = 0x8000;
}
MUT(link_unaligned)
{
	L(0)->phys_start = CB_ECHO - 0x80000;
	L(0)->peers[0].shmem_address = CB_ECHO - 0x80000;
}
MUT(link_not_root_memory)
{
	L(0)->phys_start = 0x50000000;
	L(0)->peers[0].shmem_address = 0x50000000;
}
MUT(link_in_device_memory)
{
	L(0)->phys_start = CB_PCI_WINDOW + 0x100000;
	L(0)->peers[0].shmem_address = CB_PCI_WINDOW + 0x100000;
}
MUT(link_over_hv)
{
	L(0)->phys_start = CB_HV_START;
	L(0)->peers[0].shmem_address = CB_HV_START;
}
MUT(link_over_link)
{
	L(1)->phys_start = CB_ECHO;
	L(1)->peers[0].shmem_address = CB_ECHO;
}
MUT(link_cell_twice)
{
	peer_cell(e, 1, 2, "cell-a");
}
MUT(link_root_bdf_of_device)
{
	L(0)->peers[0].bdf = CB_NIC;
}
MUT(link_root_bdf_twice)
{
	L(1)->peers[0].bdf = L(0)->peers[0].bdf;
}
MUT(link_cell_bdf_twice)
{
	L(1)->peers[1].bdf = L(0)->peers[1].bdf;
}
MUT(link_regs_unaligned)
{
	L(0)->peers[1].regs_address = 0x80000800;
}
MUT(link_regs_above_4g)
{
	L(0)->peers[1].regs_address = 0x100000000ull;
}
MUT(link_regs_last_page)
{
	/* the page below 4 GiB is still below it */
	L(0)->peers[1].regs_address = 0xfffff000;
}
MUT(link_root_regs_in_ram)
{
	L(0)->peers[0].regs_address = 0x1000;
}
MUT(link_root_regs_over_bar)
{
	L(0)->peers[0].regs_address = CB_NIC_MMIO + 0x1000;
}
MUT(link_root_regs_over_ioapic)
{
	L(0)->peers[0].regs_address = CB_IOAPIC;
}
MUT(link_root_regs_over_mmconfig)
{
	cb_add_region(S, 0xb0000000, 0xb0000000, 0x10000000, RW | WARDEN_MEM_IO,
		      WARDEN_MEMTYPE_UC);
	L(0)->peers[0].regs_address = 0xb0001000;
}
MUT(link_root_shmem)
{
	L(0)->peers[0].shmem_address = CB_ECHO + 0x10000;
}
MUT(link_shmem_unaligned)
{
	L(0)->peers[1].shmem_address = 0x80180000;
}
MUT(link_regs_over_shmem)
{
	L(0)->peers[1].regs_address = 0x80100000;
}
MUT(link_regs_over_other_regs)
{
	L(1)->peers[1].regs_address = 0x80000000;
}
MUT(link_shmem_over_other_shmem)
{
	L(1)->peers[1].shmem_address = 0x80100000;
}
MUT(link_root_regs_twice)
{
	L(1)->peers[0].regs_address = CB_ROOT_REGS;
}
MUT(link_vectors_0)
{
	L(0)->peers[1].vectors = 0;
}
MUT(link_vectors_5)
{
	L(0)->peers[1].vectors = 5;
}
MUT(link_read_write)
{
	L(1)->flags = 0;
}
MUT(link_four_peers)
{
	/* cell B and root at other addresses of their own */
	cb_add_peer(S, 0, "cell-b", 0x10, 0x80001000, 0x80100000, 1);
	cb_add_peer(S, 1, "linux2", 0x90, 0, 0, 4);
	peer_cell(e, 1, 3, "other");
	L(1)->peers[3].regs_address = 0x90000000;
	L(1)->peers[3].shmem_address = 0x90100000;
}
MUT(cell_link_bdf_of_device)
{
	L(0)->peers[1].bdf = CB_NIC;
}
MUT(cell_link_regs_over_memory)
{
	L(0)->peers[1].regs_address = 0x1000;
}
MUT(cell_link_shmem_over_comm)
{
	L(0)->peers[1].shmem_address = CB_CELL_RAM;
}
MUT(cell_region_over_link)
{
	cb_add_region(C, CB_ECHO, 0x2000000, 0x1000, RW, WARDEN_MEMTYPE_WB);
}

#define R(x) WARDEN_RULE_##x
#define I(x) WARDEN_ITEM_##x
#define V(...)                                                                 \
	{                                                                      \
		__VA_ARGS__                                                    \
	}

static const struct bad bad_cases[] = {
	{ "sys: 10 bytes", T_SYS, sys_10_bytes, R(CONFIG_TOO_SMALL), I(CONFIG),
	  0, V(10, 216), 1 },
	{ "sys: header only", T_SYS, sys_header_only, R(CONFIG_TOO_SMALL),
	  I(CONFIG), 0, V(24, 216), 2 },
	{ "sys: cell signature", T_SYS, sys_cell_signature, R(CONFIG_SIGNATURE),
	  I(CONFIG), 0, V(SIG_CELL, 0), 1 },
	{ "cell: system signature", T_CELL, cell_system_signature,
	  R(CONFIG_SIGNATURE), I(CONFIG), 0, V(SIG_SYSTEM, 1), 1 },
	{ "sys: revision", T_SYS, sys_revision, R(CONFIG_REVISION), I(CONFIG),
	  0, V(1, WARDEN_CONFIG_REVISION), 1 },
	{ "sys: architecture", T_SYS, sys_arch, R(CONFIG_ARCH), I(CONFIG), 0,
	  V(3, 1), 1 },
	{ "sys: total_size", T_SYS, sys_total_size, R(CONFIG_SIZE), I(CONFIG),
	  0, V(400, SYS_SIZE), 1 },
	{ "sys: trailing bytes", T_SYS, sys_trailing_bytes, R(CONFIG_SIZE),
	  I(CONFIG), 0, V(SYS_SIZE, SYS_SIZE + 8), 1 },
	{ "sys: counts too big", T_SYS, sys_counts_too_big, R(CONFIG_COUNTS),
	  I(CONFIG), 0, V(SYS_SIZE + 8, SYS_SIZE), 1 },
	{ "sys: counts too small", T_SYS, sys_counts_too_small,
	  R(CONFIG_COUNTS), I(CONFIG), 0, V(SYS_SIZE - 8, SYS_SIZE), 1 },
	{ "sys: header flags", T_SYS, sys_header_flags, R(CONFIG_FLAGS),
	  I(CONFIG), 0, V(1, 0), 1 },
	{ "sys: header reserved", T_SYS, sys_header_reserved,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(20, 5), 1 },
	{ "sys: root reserved", T_SYS, sys_root_reserved, R(CONFIG_RESERVED),
	  I(CONFIG), 0, V(24 + 80 + 52, 1), 1 },
	{ "sys: platform reserved2", T_SYS, sys_platform_reserved2,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(24 + 32 + 25, 1), 1 },
	{ "sys: platform reserved3", T_SYS, sys_platform_reserved3,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(24 + 32 + 28, 0x80ull << 24), 1 },
	{ "sys: region reserved", T_SYS, sys_region_reserved,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(SYS_REGIONS + 32 + 29, 1), 1 },
	{ "sys: port range reserved", T_SYS, sys_pio_reserved,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(SYS_PIO + 8 + 2, 7), 1 },
	{ "sys: too many regions", T_SYS, sys_too_many_regions,
	  R(CONFIG_TOO_MANY), I(CONFIG), 0, V(2000, 1024), 2 },
	{ "sys: too many port ranges", T_SYS, sys_too_many_pio,
	  R(CONFIG_TOO_MANY), I(CONFIG), 1, V(5000, 1024), 2 },
	{ "sys: root name empty", T_SYS, sys_name_empty, R(NAME_EMPTY), I(CELL),
	  0, V(0), 1 },
	{ "sys: root name unterminated", T_SYS, sys_name_unterminated,
	  R(NAME_UNTERMINATED), I(CELL), 0, V(0), 1 },
	{ "sys: root name with a tab", T_SYS, sys_name_tab,
	  R(NAME_NOT_PRINTABLE), I(CELL), 0, V(2, 9), 1 },
	{ "sys: root flags", T_SYS, sys_root_flags, R(CELL_FLAGS), I(CELL), 0,
	  V(2, WARDEN_CELL_PASSIVE_COMM), 1 },
	{ "sys: root without CPUs", T_SYS, sys_root_no_cpus, R(CPUS_EMPTY),
	  I(CELL), 0, V(0), 1 },
	{ "sys: root without CPU 0", T_SYS, sys_root_no_cpu0, R(CPU0_NOT_ROOT),
	  I(CPU), 0, V(0), 1 },
	{ "sys: hv memory unaligned", T_SYS, sys_hv_unaligned, R(HV_MEM),
	  I(SYSTEM), 0, V(CB_HV_START, 0x5ff800, 0x100000), 1 },
	{ "sys: hv memory too small", T_SYS, sys_hv_small, R(HV_MEM), I(SYSTEM),
	  0, V(CB_HV_START, 0x80000, 0x100000), 1 },
	{ "sys: hv memory wraps", T_SYS, sys_hv_wraps, R(HV_MEM), I(SYSTEM), 0,
	  V(TOP, 0x200000, 0x100000), 1 },
	{ "sys: hv memory empty", T_SYS, sys_hv_empty, R(HV_MEM), I(SYSTEM), 0,
	  V(CB_HV_START, 0, 0x100000), 1 },
	{ "sys: root region overlaps hv", T_SYS, sys_region_overlaps_hv,
	  R(MEM_OVERLAPS_HV), I(MEMORY_REGION), 1,
	  V(0x30400000, 0x3c00000, CB_HV_START, CB_HV_SIZE), 1 },
	{ "sys: region guest unaligned", T_SYS, sys_region_unaligned,
	  R(MEM_UNALIGNED), I(MEMORY_REGION), 2,
	  V(0x34000000, 0xc000000, 0x34000800), 1 },
	{ "sys: region empty", T_SYS, sys_region_empty, R(MEM_EMPTY),
	  I(MEMORY_REGION), 3, V(CB_IOAPIC, 0), 1 },
	{ "sys: region wraps (phys)", T_SYS, sys_region_wraps_phys,
	  R(MEM_WRAPS), I(MEMORY_REGION), 4, V(TOP, 0x200000, 0x50000000), 1 },
	{ "sys: region wraps (guest)", T_SYS, sys_region_wraps_guest,
	  R(MEM_WRAPS), I(MEMORY_REGION), 4, V(0x50000000, 0x200000, TOP), 1 },
	{ "sys: regions overlap (phys)", T_SYS, sys_region_overlap_phys,
	  R(MEM_OVERLAP), I(MEMORY_REGION), 4, V(0x1000, 0x1000, 0, 0), 1 },
	{ "sys: regions overlap (guest)", T_SYS, sys_region_overlap_guest,
	  R(MEM_OVERLAP), I(MEMORY_REGION), 4, V(0x50000000, 0x1000, 0, 1), 1 },
	{ "sys: region flags", T_SYS, sys_region_flags, R(MEM_FLAGS),
	  I(MEMORY_REGION), 0, V(0, CB_RESERVED_START, RWX | 0x80, ROOT_FLAGS),
	  1 },
	{ "sys: region memory type", T_SYS, sys_region_type, R(MEM_TYPE),
	  I(MEMORY_REGION), 0, V(0, CB_RESERVED_START, 2), 1 },
	{ "sys: RAM uncached", T_SYS, sys_ram_uc, R(MEM_TYPE_MISMATCH),
	  I(MEMORY_REGION), 2,
	  V(0x34000000, 0xc000000, WARDEN_MEMTYPE_UC, WARDEN_MEMTYPE_WB), 1 },
	{ "sys: device memory cached", T_SYS, sys_io_wb, R(MEM_TYPE_MISMATCH),
	  I(MEMORY_REGION), 3,
	  V(CB_IOAPIC, 0x1000, WARDEN_MEMTYPE_WB, WARDEN_MEMTYPE_UC), 1 },
	{ "sys: comm region in root", T_SYS, sys_root_comm_region, R(MEM_FLAGS),
	  I(MEMORY_REGION), 4,
	  V(0, 0x1000, RW | WARDEN_MEM_COMM_REGION, ROOT_FLAGS), 1 },
	{ "sys: port range empty", T_SYS, sys_pio_empty, R(PIO_RANGE),
	  I(PIO_RANGE), 1, V(0x300, 0), 1 },
	{ "sys: port range past 0xffff", T_SYS, sys_pio_past_end, R(PIO_RANGE),
	  I(PIO_RANGE), 1, V(0x300, 0xfd01), 1 },
	{ "sys: port ranges overlap", T_SYS, sys_pio_overlap, R(PIO_OVERLAP),
	  I(PIO_RANGE), 2, V(0x60, 1, 0), 1 },
	{ "sys: debug console hypercall", T_SYS, sys_debug_hypercall,
	  R(CONSOLE), I(CONSOLE), 0, V(WARDEN_CONSOLE_HYPERCALL, CB_COM2), 1 },
	{ "sys: debug console type", T_SYS, sys_debug_type, R(CONSOLE),
	  I(CONSOLE), 0, V(9, CB_COM2), 1 },
	{ "sys: debug console port", T_SYS, sys_debug_address, R(CONSOLE),
	  I(CONSOLE), 0, V(WARDEN_CONSOLE_UART_PIO, 0xfff9), 1 },
	{ "sys: debug console flags", T_SYS, sys_debug_flags, R(CONFIG_FLAGS),
	  I(CONSOLE), 0, V(1, 0), 1 },
	{ "sys: root console hypercall", T_SYS, sys_root_console_hypercall,
	  R(CONSOLE), I(CONSOLE), 1, V(WARDEN_CONSOLE_HYPERCALL, CB_COM1), 1 },

	{ "cell: name empty", T_CELL, cell_name_empty, R(NAME_EMPTY), I(CELL),
	  2, V(0), 1 },
	{ "cell: name of the other cell", T_CELL, cell_name_of_other,
	  R(NAME_DUPLICATE), I(CELL), 2, V(1), 1 },
	{ "cell: name of the root cell", T_CELL, cell_name_of_root,
	  R(NAME_DUPLICATE), I(CELL), 2, V(0), 1 },
	{ "cell: name with DEL", T_CELL, cell_name_del, R(NAME_NOT_PRINTABLE),
	  I(CELL), 2, V(4, 0x7f), 1 },
	{ "cell: flags", T_CELL, cell_flags, R(CELL_FLAGS), I(CELL), 2,
	  V(0x10, WARDEN_CELL_FLAGS_ALL), 1 },
	{ "cell: descriptor reserved", T_CELL, cell_reserved,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(24 + 52, 0x100), 1 },
	{ "cell: no CPUs", T_CELL, cell_no_cpus, R(CPUS_EMPTY), I(CELL), 2,
	  V(0), 1 },
	{ "cell: CPU 0", T_CELL, cell_cpu0, R(CPU0_NOT_ROOT), I(CPU), 0, V(0),
	  1 },
	{ "cell: CPU 9 of 4", T_CELL, cell_cpu9, R(CPU_NOT_PRESENT), I(CPU), 9,
	  V(4), 1 },
	{ "cell: CPU 200 of 4", T_CELL, cell_cpu200, R(CPU_NOT_PRESENT), I(CPU),
	  200, V(4), 1 },
	{ "cell: CPU of the other cell", T_CELL, cell_cpu_of_other,
	  R(CPU_IN_OTHER_CELL), I(CPU), 2, V(1), 1 },
	{ "cell: CPU not root's", T_CELL, cell_cpu_not_in_root,
	  R(CPU_NOT_IN_ROOT), I(CPU), 1, V(0), 1 },
	{ "cell: region not root's", T_CELL, cell_region_not_in_root,
	  R(MEM_NOT_IN_ROOT), I(MEMORY_REGION), 0, V(0x50000000, CB_CELL_RAM),
	  1 },
	{ "cell: region across two root regions", T_CELL,
	  cell_region_spans_root_regions, R(MEM_NOT_IN_ROOT), I(MEMORY_REGION),
	  0, V(0x37000000, 0x2000000), 1 },
	{ "cell: region overlaps hv", T_CELL, cell_region_overlaps_hv,
	  R(MEM_OVERLAPS_HV), I(MEMORY_REGION), 0,
	  V(0x30500000, CB_CELL_RAM, CB_HV_START, CB_HV_SIZE), 1 },
	{ "cell: region of the other cell", T_CELL, cell_region_of_other,
	  R(MEM_IN_OTHER_CELL), I(MEMORY_REGION), 0,
	  V(B_RAM + 0x800000, CB_CELL_RAM, 1), 1 },
	{ "cell: no comm region", T_CELL, cell_no_comm, R(COMM_REGION_COUNT),
	  I(CELL), 2, V(0), 1 },
	{ "cell: two comm regions", T_CELL, cell_two_comm, R(COMM_REGION_COUNT),
	  I(CELL), 2, V(2), 1 },
	{ "cell: comm region of two pages", T_CELL, cell_comm_two_pages,
	  R(COMM_REGION_SHAPE), I(MEMORY_REGION), 1, V(0, 0x2000), 1 },
	{ "cell: comm region with memory", T_CELL, cell_comm_phys,
	  R(COMM_REGION_SHAPE), I(MEMORY_REGION), 1, V(0x32600000, 0x1000), 1 },
	{ "cell: comm region as device", T_CELL, cell_comm_io,
	  R(COMM_REGION_SHAPE), I(MEMORY_REGION), 1, V(0, 0x1000), 1 },
	{ "cell: comm region overlaps RAM (guest)", T_CELL,
	  cell_comm_guest_overlap, R(MEM_OVERLAP), I(MEMORY_REGION), 1,
	  V(0, 0x1000, 0, 1), 1 },
	{ "cell: regions overlap (phys)", T_CELL, cell_phys_overlap,
	  R(MEM_OVERLAP), I(MEMORY_REGION), 2, V(A_RAM + 0x1000, 0x1000, 0, 0),
	  1 },
	{ "cell: device memory cached", T_CELL, cell_io_wb,
	  R(MEM_TYPE_MISMATCH), I(MEMORY_REGION), 2,
	  V(CB_IOAPIC, 0x1000, WARDEN_MEMTYPE_WB, WARDEN_MEMTYPE_UC), 1 },
	{ "cell: size unaligned", T_CELL, cell_size_unaligned, R(MEM_UNALIGNED),
	  I(MEMORY_REGION), 0, V(A_RAM, 0xfff800, 0), 2 },
	{ "cell: reset outside", T_CELL, cell_reset_outside,
	  R(RESET_NOT_LOADABLE), I(CELL), 2, V(0x2000000), 1 },
	{ "cell: reset not executable", T_CELL, cell_reset_not_executable,
	  R(RESET_NOT_LOADABLE), I(CELL), 2, V(CB_RESET), 1 },
	{ "cell: reset in comm region", T_CELL, cell_reset_in_comm,
	  R(RESET_NOT_LOADABLE), I(CELL), 2, V(CB_CELL_RAM), 1 },
	{ "cell: ports not root's", T_CELL, cell_pio_not_in_root,
	  R(PIO_NOT_IN_ROOT), I(PIO_RANGE), 1, V(CB_COM2, 8), 1 },
	{ "cell: ports of the other cell", T_CELL, cell_pio_of_other,
	  R(PIO_IN_OTHER_CELL), I(PIO_RANGE), 1, V(CB_COM4, 8, 1), 1 },
	{ "cell: PCI configuration ports", T_CELL, cell_pio_config_ports,
	  R(PCI_CONFIG_IN_CELL), I(PIO_RANGE), 1, V(0xcfc, 4, 0xcf8), 1 },
	{ "cell: region over the local APIC window", T_CELL,
	  cell_over_lapic_window, R(MEM_TRAPPED), I(MEMORY_REGION), 2,
	  V(WARDEN_LAPIC_WINDOW + 0x1000, 0x1000, WARDEN_TRAPPED_LAPIC,
	    WARDEN_LAPIC_WINDOW),
	  1 },
	{ "cell: region over an IOAPIC", T_CELL_PCI, cell_over_ioapic,
	  R(MEM_TRAPPED), I(MEMORY_REGION), 3,
	  V(CB_IOAPIC, 0x1000, WARDEN_TRAPPED_IOAPIC, CB_IOAPIC), 1 },
	{ "cell: region over the IOMMU", T_CELL_PCI, cell_over_iommu,
	  R(MEM_TRAPPED), I(MEMORY_REGION), 3,
	  V(0xfed90000, 0x1000, WARDEN_TRAPPED_IOMMU, 0xfed90000), 1 },
	{ "cell: region over the HPET", T_CELL_PCI, cell_over_hpet,
	  R(MEM_TRAPPED), I(MEMORY_REGION), 3,
	  V(0xfed00000, 0x1000, WARDEN_TRAPPED_HPET, 0xfed00000), 1 },
	{ "cell: port ranges overlap", T_CELL, cell_pio_overlap, R(PIO_OVERLAP),
	  I(PIO_RANGE), 1, V(CB_COM3 + 4, 4, 0), 1 },
	{ "cell: console outside its ports", T_CELL, cell_console_outside_ports,
	  R(CONSOLE_PORTS), I(CONSOLE), 1, V(WARDEN_CONSOLE_UART_PIO, CB_COM1),
	  1 },
	{ "cell: console type", T_CELL, cell_console_type, R(CONSOLE),
	  I(CONSOLE), 1, V(5, CB_COM3), 1 },
	{ "cell: truncated", T_CELL, cell_truncated, R(CONFIG_SIZE), I(CONFIG),
	  0, V(CELL_SIZE, CELL_SIZE - 8), 1 },
	{ "cell: system config invalid", T_CELL, cell_system_invalid,
	  R(CONFIG_CONTEXT), I(SYSTEM), 0, V(1), 1 },
	{ "cell: other cell invalid", T_CELL, cell_other_invalid,
	  R(CONFIG_CONTEXT), I(CELL), 1, V(1), 1 },
	{ "ioapic: address 0", T_SYS_PCI, ioapic_address_0, R(IOAPIC_ADDRESS),
	  I(IOAPIC), 0, V(0), 1 },
	{ "ioapic: address unaligned", T_SYS_PCI, ioapic_unaligned,
	  R(IOAPIC_ADDRESS), I(IOAPIC), 0, V(CB_IOAPIC + 0x800), 1 },
	{ "ioapic: no pins", T_SYS_PCI, ioapic_no_pins, R(IOAPIC_PINS),
	  I(IOAPIC), 0, V(CB_IOAPIC, 0, 240), 2 },
	{ "ioapic: 241 pins", T_SYS_PCI, ioapic_241_pins, R(IOAPIC_PINS),
	  I(IOAPIC), 0, V(CB_IOAPIC, 241, 240), 2 },
	{ "iommu: functions no unit covers", T_SYS_PCI, iommu_uncovered,
	  R(PCI_NO_IOMMU), I(PCI_DEVICE), 2, V(CB_DISK), 2 },
	{ "iommu: include_pci_all of another segment", T_SYS_PCI,
	  iommu_other_segment, R(PCI_NO_IOMMU), I(PCI_DEVICE), 2, V(CB_DISK),
	  1 },
	{ "iommu: scope of buses 3-2", T_SYS_PCI, iommu_bad_scope,
	  R(IOMMU_UNIT), I(IOMMU), 1, V(UNIT1, WARDEN_IOMMU_UNIT_SCOPE, 0), 1 },
	{ "iommu: include_pci_all with a scope", T_SYS_PCI,
	  iommu_all_with_scope, R(IOMMU_UNIT), I(IOMMU), 0,
	  V(UNIT0, WARDEN_IOMMU_UNIT_ALL_SCOPES, 1), 1 },
	{ "iommu: two include_pci_all units", T_SYS_PCI, iommu_all_twice,
	  R(IOMMU_UNIT), I(IOMMU), 1, V(UNIT1, WARDEN_IOMMU_UNIT_ALL_TWICE, 0),
	  1 },
	{ "iommu: two units at one base", T_SYS_PCI, iommu_duplicate,
	  R(IOMMU_UNIT), I(IOMMU), 1, V(UNIT0, WARDEN_IOMMU_UNIT_DUPLICATE, 0),
	  1 },
	{ "iommu: iommu_base not a unit", T_SYS_PCI, iommu_not_listed,
	  R(IOMMU_UNIT), I(SYSTEM), 0, V(UNIT0, WARDEN_IOMMU_UNIT_NOT_LISTED),
	  1 },
	{ "iommu: unaligned base", T_SYS_PCI, iommu_unaligned, R(IOMMU_UNIT),
	  I(IOMMU), 0, V(UNIT0 + 0x10, WARDEN_IOMMU_UNIT_BASE), 1 },
	{ "iommu: unknown flag", T_SYS_PCI, iommu_unknown_flag, R(IOMMU_UNIT),
	  I(IOMMU), 0, V(UNIT0, WARDEN_IOMMU_UNIT_FLAGS, 4), 1 },
	{ "iommu: unused scope slot not 0", T_SYS_PCI, iommu_slot_dirty,
	  R(IOMMU_UNIT), I(IOMMU), 0, V(UNIT0, WARDEN_IOMMU_UNIT_RESERVED, 5),
	  1 },
	{ "iommu: nine units", T_SYS_PCI, iommu_nine, R(CONFIG_TOO_MANY),
	  I(CONFIG), 6, V(9, 8), 2 },
	{ "iommu: cell memory over a unit", T_CELL_PCI, cell_over_second_unit,
	  R(MEM_TRAPPED), I(MEMORY_REGION), 3,
	  V(UNIT1, 0x1000, WARDEN_TRAPPED_IOMMU, UNIT1), 2 },
	{ "ioapic: two at one address", T_SYS_PCI, ioapic_same_address,
	  R(IOAPIC_OVERLAP), I(IOAPIC), 1, V(CB_IOAPIC, 0, 0), 1 },
	{ "ioapic: GSI ranges overlap", T_SYS_PCI, ioapic_gsis_overlap,
	  R(IOAPIC_OVERLAP), I(IOAPIC), 1, V(CB_IOAPIC + 0x1000, 0, 1), 1 },
	{ "ioapic: root pin past the second IOAPIC", T_SYS_PCI,
	  ioapic_two_valid, R(PIN_NO_IOAPIC), I(IRQ_PIN), 2, V(48), 1 },
	{ "root: pin in no IOAPIC", T_SYS_PCI, root_pin_no_ioapic,
	  R(PIN_NO_IOAPIC), I(IRQ_PIN), 1, V(30), 1 },
	{ "root: pin twice", T_SYS_PCI, root_pin_twice, R(PIN_DUPLICATE),
	  I(IRQ_PIN), 1, V(4, 0), 1 },
	{ "root: pin reserved", T_SYS_PCI, root_pin_reserved,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(SYS_PCI_PINS + 4, 1), 1 },
	{ "root: device DMA_UNISOLATED", T_SYS_PCI, root_pci_dma, R(PCI_FLAGS),
	  I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, WARDEN_PCI_MSI | DMA, WARDEN_PCI_FLAGS_ALL & ~DMA), 1 },
	{ "root: device flags", T_SYS_PCI, root_pci_flags, R(PCI_FLAGS),
	  I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, WARDEN_PCI_MSI | 0x10, WARDEN_PCI_FLAGS_ALL & ~DMA), 1 },
	{ "root: device twice", T_SYS_PCI, root_pci_twice, R(PCI_DUPLICATE),
	  I(PCI_DEVICE), 3, V(NIC_ID, NIC_I), 1 },
	{ "root: device int_pin 5", T_SYS_PCI, root_pci_int_pin, R(PCI_INT_PIN),
	  I(PCI_DEVICE), NIC_I, V(NIC_ID, 5), 1 },
	{ "root: gsi without int_pin", T_SYS_PCI, root_pci_gsi_no_pin,
	  R(PCI_GSI_NO_PIN), I(PCI_DEVICE), 0, V(BRIDGE_ID, 5), 1 },
	{ "root: device reserved0", T_SYS_PCI, root_pci_reserved0,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(SYS_PCI_DEVS + 168 + 13, 0x10000),
	  1 },
	{ "root: device reserved1", T_SYS_PCI, root_pci_reserved1,
	  R(CONFIG_RESERVED), I(CONFIG), 0, V(SYS_PCI_DEVS + 168 + 22, 3), 1 },
	{ "root: BAR reserved", T_SYS_PCI, root_pci_bar_reserved,
	  R(CONFIG_RESERVED), I(CONFIG), 0,
	  V(SYS_PCI_DEVS + 168 + 24 + 24 + 20, 4), 1 },
	{ "root: BAR size not a power of 2", T_SYS_PCI, root_bar_size,
	  R(PCI_BAR), I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, 0, WARDEN_PCI_BAR_BAD_SIZE, 0x18000), 1 },
	{ "root: BAR unaligned", T_SYS_PCI, root_bar_align, R(PCI_BAR),
	  I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, 0, WARDEN_PCI_BAR_BAD_ALIGN, CB_NIC_MMIO + 0x1000), 1 },
	{ "root: BAR flags", T_SYS_PCI, root_bar_flags, R(PCI_BAR),
	  I(PCI_DEVICE), NIC_I, V(NIC_ID, 0, WARDEN_PCI_BAR_BAD_FLAGS, 8), 1 },
	{ "root: I/O BAR with MEM64", T_SYS_PCI, root_bar_io_mem64, R(PCI_BAR),
	  I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, 1, WARDEN_PCI_BAR_BAD_FLAGS,
	    WARDEN_PCI_BAR_IO | WARDEN_PCI_BAR_MEM64),
	  1 },
	{ "root: MEM64 in BAR 5", T_SYS_PCI, root_bar_mem64_last, R(PCI_BAR),
	  I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, 5, WARDEN_PCI_BAR_BAD_MEM64_5, WARDEN_PCI_BAR_MEM64), 1 },
	{ "root: upper half of a 64-bit BAR used", T_SYS_PCI,
	  root_bar_upper_used, R(PCI_BAR), I(PCI_DEVICE), DISK_I,
	  V(DISK_ID, 5, WARDEN_PCI_BAR_BAD_UPPER, 0x1000), 1 },
	{ "root: empty BAR with an address", T_SYS_PCI, root_bar_empty_address,
	  R(PCI_BAR), I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, 2, WARDEN_PCI_BAR_BAD_EMPTY, 0x1000), 1 },
	{ "root: I/O BAR at the top of 64 bits", T_SYS_PCI, root_bar_io_top,
	  R(PCI_BAR), I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, 1, WARDEN_PCI_BAR_BAD_PORTS, 0xfffffffffffff000ull), 1 },
	{ "root: I/O BAR past 0xffff", T_SYS_PCI, root_bar_io_past_end,
	  R(PCI_BAR), I(PCI_DEVICE), NIC_I,
	  V(NIC_ID, 1, WARDEN_PCI_BAR_BAD_PORTS, 0x10000), 1 },

	{ "cell: BAR not mapped", T_CELL_PCI, cell_bar_unmapped,
	  R(PCI_BAR_NOT_MAPPED), I(PCI_DEVICE), 0,
	  V(NIC_ID, 0, CB_NIC_MMIO, 0x20000), 1 },
	{ "cell: BAR mapped elsewhere", T_CELL_PCI, cell_bar_moved,
	  R(PCI_BAR_NOT_MAPPED), I(PCI_DEVICE), 0,
	  V(NIC_ID, 0, CB_NIC_MMIO, 0x20000), 1 },
	{ "cell: BAR in a RAM region", T_CELL_PCI, cell_bar_ram,
	  R(PCI_BAR_NOT_MAPPED), I(PCI_DEVICE), 0,
	  V(NIC_ID, 0, CB_NIC_MMIO, 0x20000), 1 },
	{ "cell: BAR half mapped", T_CELL_PCI, cell_bar_half_mapped,
	  R(PCI_BAR_NOT_MAPPED), I(PCI_DEVICE), 0,
	  V(NIC_ID, 0, CB_NIC_MMIO, 0x20000), 1 },
	{ "cell: I/O BAR without its ports", T_CELL_PCI, cell_bar_ports,
	  R(PCI_BAR_PORTS), I(PCI_DEVICE), 0, V(NIC_ID, 1, CB_NIC_PORTS, 64),
	  1 },
	{ "cell: device without its pin", T_CELL_PCI, cell_pin_not_owned,
	  R(PCI_PIN_NOT_OWNED), I(PCI_DEVICE), 0, V(NIC_ID, CB_NIC_GSI), 1 },
	{ "cell: device without DMA_UNISOLATED", T_CELL_PCI, cell_no_dma_flag,
	  R(PCI_DMA), I(PCI_DEVICE), 0, V(NIC_ID), 1 },
	{ "cell: Linux cell, unconfined DMA, RAM not at guest = phys",
	  T_CELL_PCI, cell_linux_dma, R(LINUX_DMA), I(PCI_DEVICE), 0,
	  V(NIC_ID, 0, CB_POOL_START), 1 },
	{ "cell: Linux cell, unconfined DMA, a region past the first MiB "
	  "not at guest = phys",
	  T_CELL_PCI, cell_linux_dma_past_low_mib, R(LINUX_DMA), I(PCI_DEVICE),
	  0, V(NIC_ID, 0, CB_POOL_START), 1 },
	{ "cell: pin no device names", T_CELL_PCI, cell_pin_unused,
	  R(PIN_UNUSED), I(IRQ_PIN), 1, V(22), 1 },
	{ "cell: pin twice", T_CELL_PCI, cell_pin_twice, R(PIN_DUPLICATE),
	  I(IRQ_PIN), 1, V(CB_NIC_GSI, 0), 1 },
	{ "cell: device twice", T_CELL_PCI, cell_pci_twice, R(PCI_DUPLICATE),
	  I(PCI_DEVICE), 1, V(NIC_ID, 0), 1 },
	{ "cell: device flags", T_CELL_PCI, cell_pci_flags, R(PCI_FLAGS),
	  I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_MSI | DMA | 0x100, WARDEN_PCI_FLAGS_ALL), 1 },
	{ "cell: pin in no IOAPIC", T_CELL_PCI, cell_pin_no_ioapic,
	  R(PIN_NO_IOAPIC), I(IRQ_PIN), 0, V(40), 1 },
	{ "cell: pin root needs", T_CELL_PCI, cell_pin_of_root,
	  R(PIN_ROOT_NEEDS), I(IRQ_PIN), 1, V(4), 1 },
	{ "cell: pin of the other cell", T_CELL_PCI, cell_pin_of_other,
	  R(PIN_IN_OTHER_CELL), I(IRQ_PIN), 1, V(7, 1), 1 },
	{ "cell: pin a root device drives", T_CELL_PCI, cell_pin_shared,
	  R(PIN_SHARED), I(IRQ_PIN), 1, V(10, 0x28), 1 },
	{ "cell: device not in the system", T_CELL_PCI, cell_pci_not_in_system,
	  R(PCI_NOT_IN_SYSTEM), I(PCI_DEVICE), 0, V(0x38), 3 },
	{ "cell: device in another PCI segment", T_CELL_PCI,
	  cell_pci_other_domain, R(PCI_NOT_IN_SYSTEM), I(PCI_DEVICE), 0,
	  V(0x10000 | NIC_ID), 3 },
	{ "cell: vendor id differs", T_CELL_PCI, cell_pci_vendor,
	  R(PCI_MISMATCH), I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_FIELD_VENDOR, 0x8087, 0x8086), 1 },
	{ "cell: device id differs", T_CELL_PCI, cell_pci_device_id,
	  R(PCI_MISMATCH), I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_FIELD_DEVICE, 0x100f, 0x100e), 1 },
	{ "cell: int_pin differs", T_CELL_PCI, cell_pci_int_pin,
	  R(PCI_MISMATCH), I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_FIELD_INT_PIN, 4, 1), 1 },
	{ "cell: gsi differs", T_CELL_PCI, cell_pci_gsi, R(PCI_MISMATCH),
	  I(PCI_DEVICE), 0, V(NIC_ID, WARDEN_PCI_FIELD_GSI, 11, CB_NIC_GSI),
	  1 },
	{ "cell: MSI flag differs", T_CELL_PCI, cell_pci_msi, R(PCI_MISMATCH),
	  I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_FIELD_FLAGS, 0, WARDEN_PCI_MSI), 1 },
	{ "cell: BAR size differs", T_CELL_PCI, cell_pci_bar_size,
	  R(PCI_MISMATCH), I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_FIELD_BAR(0, 1), 0x10000, 0x20000), 1 },
	{ "cell: BAR flags differ", T_CELL_PCI, cell_pci_bar_flags,
	  R(PCI_MISMATCH), I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_FIELD_BAR(0, 2), WARDEN_PCI_BAR_PREFETCH, 0),
	  1 },
	{ "cell: BAR address differs", T_CELL_PCI, cell_pci_bar_address,
	  R(PCI_MISMATCH), I(PCI_DEVICE), 0,
	  V(NIC_ID, WARDEN_PCI_FIELD_BAR(1, 0), CB_NIC_PORTS + 0x80,
	    CB_NIC_PORTS),
	  1 },
	{ "cell: device of the other cell", T_CELL_PCI, cell_pci_of_other,
	  R(PCI_IN_OTHER_CELL), I(PCI_DEVICE), 1, V(BRIDGE_ID, 1), 1 },
	{ "cell: region over a BAR of root's", T_CELL_PCI, cell_maps_root_bar,
	  R(MEM_PCI_BAR), I(MEMORY_REGION), 3, V(0xfe100000, 0x1000, 0x30, 0),
	  1 },
	{ "cell: ports of a BAR of root's", T_CELL_PCI, cell_ports_of_root_bar,
	  R(PIO_PCI_BAR), I(PIO_RANGE), 2, V(0xd010, 16, 0x30, 2), 1 },
	{ "cell: INTx line shared with root", T_CELL_PCI, cell_intx_shared,
	  R(PCI_INTX_SHARED), I(PCI_DEVICE), 0, V(NIC_ID, CB_NIC_GSI, 0x29),
	  1 },
	{ "root: device dma_alias without its flag", T_SYS_PCI,
	  root_pci_alias_no_flag, R(CONFIG_RESERVED), I(CONFIG), 0,
	  V(SYS_PCI_DEVS + 168 + 20, 5), 1 },
	{ "cell: requester id shared behind a bridge", T_CELL_PCI,
	  cell_alias_shared, R(PCI_DMA_ALIAS), I(PCI_DEVICE), 1,
	  V(FN_21, ALIAS_RID, FN_22), 1 },
	{ "cell: alias is root's function's own id", T_CELL_PCI,
	  cell_alias_own_id, R(PCI_DMA_ALIAS), I(PCI_DEVICE), 1,
	  V(FN_21, ALIAS_RID, ALIAS_RID), 1 },
	{ "cell: root's function aliased to the cell's", T_CELL_PCI,
	  cell_alias_is_cells_id, R(PCI_DMA_ALIAS), I(PCI_DEVICE), 0,
	  V(NIC_ID, CB_NIC, FN_21), 1 },
	{ "cell: the system's alias not repeated", T_CELL_PCI,
	  cell_alias_not_repeated, R(PCI_MISMATCH), I(PCI_DEVICE), 1,
	  V(FN_21, WARDEN_PCI_FIELD_DMA_ALIAS, 0, 0x10000 | ALIAS_RID), 1 },
	{ "link: name empty", T_SYS_LINK, link_name_empty, R(LINK_FIELDS),
	  I(LINK), 0, V(WARDEN_LINK_BAD_NAME, 0, NO_PEER), 1 },
	{ "link: name unterminated", T_SYS_LINK, link_name_unterminated,
	  R(LINK_FIELDS), I(LINK), 0, V(WARDEN_LINK_BAD_NAME, 0x100, NO_PEER),
	  1 },
	{ "link: name with a tab", T_SYS_LINK, link_name_tab, R(LINK_FIELDS),
	  I(LINK), 0, V(WARDEN_LINK_BAD_NAME, 9, NO_PEER), 1 },
	{ "link: name twice", T_SYS_LINK, link_name_twice, R(LINK_FIELDS),
	  I(LINK), 1, V(WARDEN_LINK_BAD_NAME_DUPLICATE, 0, NO_PEER), 1 },
	{ "link: flags", T_SYS_LINK, link_flags, R(LINK_FIELDS), I(LINK), 0,
	  V(WARDEN_LINK_BAD_FLAGS, 5, NO_PEER), 1 },
	{ "link: no peers", T_SYS_LINK, link_no_peers, R(LINK_FIELDS), I(LINK),
	  0, V(WARDEN_LINK_BAD_NUM_PEERS, 0, NO_PEER), 3 },
	{ "link: one peer, the second entry left", T_SYS_LINK, link_one_peer,
	  R(LINK_FIELDS), I(LINK), 0, V(WARDEN_LINK_BAD_RESERVED, 112, 1), 2 },
	{ "link: peer reserved", T_SYS_LINK, link_peer_reserved, R(LINK_FIELDS),
	  I(LINK), 0, V(WARDEN_LINK_BAD_RESERVED, 165, 1), 1 },
	{ "link: unused peer entry", T_SYS_LINK, link_unused_peer,
	  R(LINK_FIELDS), I(LINK), 0, V(WARDEN_LINK_BAD_RESERVED, 274, 3), 1 },
	{ "link: peer's cell name empty", T_SYS_LINK, link_peer_name_empty,
	  R(LINK_FIELDS), I(LINK), 0, V(WARDEN_LINK_BAD_PEER_NAME, 0, 1), 1 },
	{ "link: peer's cell name with DEL", T_SYS_LINK, link_peer_name_del,
	  R(LINK_FIELDS), I(LINK), 0, V(WARDEN_LINK_BAD_PEER_NAME, 0x7f, 1),
	  1 },
	{ "link: too many", T_SYS_LINK, link_too_many, R(CONFIG_TOO_MANY),
	  I(CONFIG), 5, V(WARDEN_MAX_LINKS + 1, WARDEN_MAX_LINKS), 2 },
	{ "link: count too big", T_SYS_LINK, link_count_too_big,
	  R(CONFIG_COUNTS), I(CONFIG), 0,
	  V(SYS_LINKS_SIZE + 280, SYS_LINKS_SIZE), 1 },
	{ "link: size not a power of 2", T_SYS_LINK, link_size_not_power,
	  R(LINK_MEMORY), I(LINK), 0, V(CB_ECHO, 0x30000), 1 },
	{ "link: size below 64 KiB", T_SYS_LINK, link_size_small,
	  R(LINK_MEMORY), I(LINK), 0, V(CB_ECHO, 0x8000), 1 },
	{ "link: memory not aligned to its size", T_SYS_LINK, link_unaligned,
	  R(LINK_MEMORY), I(LINK), 0, V(CB_ECHO - 0x80000, CB_LINK_SIZE), 1 },
	{ "link: memory not root's", T_SYS_LINK, link_not_root_memory,
	  R(LINK_MEMORY), I(LINK), 0, V(0x50000000, CB_LINK_SIZE), 1 },
	{ "link: memory in root's device memory", T_SYS_LINK,
	  link_in_device_memory, R(LINK_MEMORY), I(LINK), 0,
	  V(CB_PCI_WINDOW + 0x100000, CB_LINK_SIZE), 1 },
	{ "link: memory over the hypervisor's", T_SYS_LINK, link_over_hv,
	  R(LINK_MEMORY_OVERLAP), I(LINK), 0,
	  V(CB_HV_START, CB_LINK_SIZE, 0, 0), 2 },
	{ "link: memory over another link's", T_SYS_LINK, link_over_link,
	  R(LINK_MEMORY_OVERLAP), I(LINK), 1, V(CB_ECHO, CB_LINK_SIZE, 1, 0),
	  1 },
	{ "link: the same cell twice", T_SYS_LINK, link_cell_twice,
	  R(LINK_PEER), I(LINK), 1, V(2, 0, 1), 1 },
	{ "link: root's function at a device's address", T_SYS_LINK,
	  link_root_bdf_of_device, R(LINK_PEER_BDF), I(LINK), 0, V(0, CB_NIC),
	  1 },
	{ "link: root's functions at one address", T_SYS_LINK,
	  link_root_bdf_twice, R(LINK_PEER_BDF), I(LINK), 1, V(0, 0x80), 1 },
	{ "link: a cell's functions at one address", T_SYS_LINK,
	  link_cell_bdf_twice, R(LINK_PEER_BDF), I(LINK), 1, V(1, 0x08), 1 },
	{ "link: registers not page aligned", T_SYS_LINK, link_regs_unaligned,
	  R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(1, 0x80000800, WARDEN_LINK_BAD_REGS_ALIGN), 1 },
	{ "link: registers above 4 GiB", T_SYS_LINK, link_regs_above_4g,
	  R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(1, 0x100000000ull, WARDEN_LINK_BAD_REGS_ALIGN), 1 },
	{ "link: root's registers in RAM", T_SYS_LINK, link_root_regs_in_ram,
	  R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(0, 0x1000, WARDEN_LINK_BAD_REGS_NOT_DEVICE), 1 },
	{ "link: root's registers over a BAR", T_SYS_LINK,
	  link_root_regs_over_bar, R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(0, CB_NIC_MMIO + 0x1000, WARDEN_LINK_BAD_REGS_OVER_BAR), 1 },
	{ "link: root's registers over the IOAPIC", T_SYS_LINK,
	  link_root_regs_over_ioapic, R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(0, CB_IOAPIC, WARDEN_LINK_BAD_REGS_TRAPPED), 1 },
	{ "link: root's registers over MMCONFIG", T_SYS_LINK,
	  link_root_regs_over_mmconfig, R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(0, 0xb0001000, WARDEN_LINK_BAD_REGS_TRAPPED), 1 },
	{ "link: root's memory not where it is", T_SYS_LINK, link_root_shmem,
	  R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(0, CB_ECHO + 0x10000, WARDEN_LINK_BAD_ROOT_SHMEM), 1 },
	{ "link: a cell's memory BAR unaligned", T_SYS_LINK,
	  link_shmem_unaligned, R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(1, 0x80180000, WARDEN_LINK_BAD_SHMEM_ALIGN), 1 },
	{ "link: a cell's registers over its memory BAR", T_SYS_LINK,
	  link_regs_over_shmem, R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(1, 0x80100000, WARDEN_LINK_BAD_OVER_OTHER), 1 },
	{ "link: a cell's registers over another link's", T_SYS_LINK,
	  link_regs_over_other_regs, R(LINK_PEER_ADDRESS), I(LINK), 1,
	  V(1, 0x80000000, WARDEN_LINK_BAD_OVER_OTHER), 1 },
	{ "link: a cell's memory BAR over another link's", T_SYS_LINK,
	  link_shmem_over_other_shmem, R(LINK_PEER_ADDRESS), I(LINK), 1,
	  V(1, 0x80100000, WARDEN_LINK_BAD_OVER_OTHER), 1 },
	{ "link: root's registers over another link's", T_SYS_LINK,
	  link_root_regs_twice, R(LINK_PEER_ADDRESS), I(LINK), 1,
	  V(0, CB_ROOT_REGS, WARDEN_LINK_BAD_OVER_OTHER), 1 },
	{ "link: 0 vectors", T_SYS_LINK, link_vectors_0, R(LINK_PEER_VECTORS),
	  I(LINK), 0, V(1, 0), 1 },
	{ "link: 5 vectors", T_SYS_LINK, link_vectors_5, R(LINK_PEER_VECTORS),
	  I(LINK), 0, V(1, 5), 1 },
	{ "cell: link function at one of its devices'", T_CELL_LINK,
	  cell_link_bdf_of_device, R(LINK_PEER_BDF), I(LINK), 0, V(1, CB_NIC),
	  1 },
	{ "cell: link registers over its memory", T_CELL_LINK,
	  cell_link_regs_over_memory, R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(1, 0x1000, WARDEN_LINK_BAD_OVER_MEMORY), 1 },
	{ "cell: link memory BAR over its comm region", T_CELL_LINK,
	  cell_link_shmem_over_comm, R(LINK_PEER_ADDRESS), I(LINK), 0,
	  V(1, CB_CELL_RAM, WARDEN_LINK_BAD_OVER_MEMORY), 1 },
	{ "cell: region over a link's memory", T_CELL_LINK,
	  cell_region_over_link, R(LINK_MEMORY_OVERLAP), I(MEMORY_REGION), 3,
	  V(CB_ECHO, 0x1000, 2, 0), 1 },
};

/* Pins and PCI devices: the system, each cell alone, against the system
 * and against each other; cases that look close to a rule but are fine. */
static void valid_pci(void **state)
{
	static void (*const fine[])(struct env *) = {
		root_pci_other_domain,	cell_intx_shared_taken,
		cell_dma_confined,	cell_linux_dma_confined,
		cell_linux_dma_low_mib, iommu_one_all,
		iommu_two_scoped,	iommu_none_taken,
		cell_alias_taken,	cell_alias_no_iommu,
	};
	const void *others[1];
	size_t sizes[1];
	struct log log = { .n = 0 };
	struct env e;
	unsigned int i;

	(void)state;
	env_init_pci(&e);
	assert_int_equal(run_system(&e, &log), 0);
	assert_int_equal(config_check_cell(e.cell.u.bytes, e.cell.size, NULL, 0,
					   NULL, NULL, 0, collect, &log),
			 0);
	assert_int_equal(config_check_cell(e.other.u.bytes, e.other.size,
					   e.sys.u.bytes, e.sys.size, NULL,
					   NULL, 0, collect, &log),
			 0);
	assert_int_equal(run_cell(&e, &log), 0);
	others[0] = e.cell.u.bytes;
	sizes[0] = e.cell.size;
	assert_int_equal(config_check_cell(e.other.u.bytes, e.other.size,
					   e.sys.u.bytes, e.sys.size, others,
					   sizes, 1, collect, &log),
			 0);
	/* a cell without devices next to the system with them */
	cb_cell(&e.cell, 0);
	assert_int_equal(run_cell(&e, &log), 0);
	/* an ISA pin no device names (a cell's own UART's IRQ) */
	cb_add_pin(&e.cell, 3);
	assert_int_equal(run_cell(&e, &log), 0);
	for (i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		env_init_pci(&e);
		fine[i](&e);
		assert_int_equal(run_system(&e, &log), 0);
		assert_int_equal(run_cell(&e, &log), 0);
	}
	/* a second IOAPIC: root's pins on it are in range */
	env_init_pci(&e);
	cb_add_ioapic(&e.sys, CB_IOAPIC + 0x1000, 24, 1, 24);
	cb_add_pin(&e.sys, 47);
	assert_int_equal(run_system(&e, &log), 0);
	assert_int_equal(run_cell(&e, &log), 0);
	print_log("valid_pci", &log);
	assert_int_equal(log.n, 0);
}

/* Links: the system, the cells against it and each other; cases close
 * to a rule that are fine. */
static void valid_links(void **state)
{
	static void (*const fine[])(struct env *) = {
		link_regs_last_page,
		link_read_write,
		link_four_peers,
	};
	const void *others[1];
	size_t sizes[1];
	struct log log = { .n = 0 };
	struct env e;
	unsigned int i;

	(void)state;
	env_init_links(&e);
	assert_int_equal(run_system(&e, &log), 0);
	assert_int_equal(run_cell(&e, &log), 0);
	others[0] = e.cell.u.bytes;
	sizes[0] = e.cell.size;
	assert_int_equal(config_check_cell(e.other.u.bytes, e.other.size,
					   e.sys.u.bytes, e.sys.size, others,
					   sizes, 1, collect, &log),
			 0);
	/* cells no link names, cells without devices */
	cb_cell(&e.cell, 0);
	cb_set_name(&e.cell, "no-links");
	assert_int_equal(run_cell(&e, &log), 0);
	for (i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		env_init_links(&e);
		fine[i](&e);
		assert_int_equal(run_system(&e, &log), 0);
		assert_int_equal(run_cell(&e, &log), 0);
	}
	print_log("valid_links", &log);
	assert_int_equal(log.n, 0);
}

static bool same(const struct warden_error *r, const struct bad *b)
{
	return r->rule == b->rule && r->item_kind == b->kind &&
	       r->item_index == b->index && r->values[0] == b->values[0] &&
	       r->values[1] == b->values[1] && r->values[2] == b->values[2] &&
	       r->values[3] == b->values[3];
}

static void invalid_configs(void **state)
{
	unsigned int i, j, failed = 0, rules = 0;
	bool seen[256] = { false };
	char text[256];

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad *b = &bad_cases[i];
		struct log log = { .n = 0 };
		struct env e;
		unsigned int n;
		bool found = false;

		if (b->target == T_SYS_PCI || b->target == T_CELL_PCI)
			env_init_pci(&e);
		else if (b->target == T_SYS_LINK || b->target == T_CELL_LINK)
			env_init_links(&e);
		else
			env_init(&e);
		b->mutate(&e);
		n = b->target == T_SYS || b->target == T_SYS_PCI ||
				    b->target == T_SYS_LINK
			    ? run_system(&e, &log)
			    : run_cell(&e, &log);
		check_records(&log);
		for (j = 0; j < log.n && j < MAX_LOG; j++)
			found |= same(&log.e[j], b);
		if (!found || n != b->count || n != log.n) {
			print_message("FAIL %s: %u errors (want %u), "
				      "expected record %sfound\n",
				      b->name, n, b->count,
				      found ? "" : "not ");
			print_log(b->name, &log);
			failed++;
		}
		/* the CLI has a sentence for every record (VERBOSE=1 shows
		 * them: docs/validation.md quotes them) */
		for (j = 0; j < log.n && j < MAX_LOG; j++) {
			warden_error_describe(&log.e[j], text, sizeof(text));
			assert_null(strstr(text, "broken (values"));
			if (getenv("VERBOSE"))
				print_message("%-40s %s\n", b->name, text);
		}
		if (b->rule < 256 && !seen[b->rule]) {
			seen[b->rule] = true;
			rules++;
		}
	}
	print_message("%u invalid configs, %u distinct rules, %u failed\n", i,
		      rules, failed);
	assert_true(i >= 130);
	assert_int_equal(failed, 0);
}

/* ---- several errors at once ---- */

static void all_errors_reported(void **state)
{
	static const uint32_t want_cell[] = {
		R(NAME_EMPTY),	      R(CELL_FLAGS),	  R(CPU0_NOT_ROOT),
		R(MEM_TYPE_MISMATCH), R(PIO_NOT_IN_ROOT),
	};
	static const uint32_t want_sys[] = {
		R(CONFIG_FLAGS),
		R(HV_MEM),
		R(MEM_UNALIGNED),
		R(PIO_OVERLAP),
	};
	struct log log = { .n = 0 };
	struct env e;
	unsigned int i;

	(void)state;
	env_init(&e);
	cb_set_name(&e.cell, "");
	cb_desc(&e.cell)->flags = 0x10; /* no such flag */
	cb_cpu_add(&cb_desc(&e.cell)->cpus, 0);
	cb_region(&e.cell, 0)->mem_type = WARDEN_MEMTYPE_UC;
	cb_add_pio(&e.cell, CB_COM2, 8);
	assert_int_equal(run_cell(&e, &log), 5);
	assert_int_equal(log.n, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(log.e[i].rule, want_cell[i]);

	log.n = 0;
	cb_header(&e.sys)->flags = 8;
	cb_sys(&e.sys)->hv_mem_size = 0x1000;
	cb_region(&e.sys, 2)->size = 0x1234;
	cb_add_pio(&e.sys, 0x80, 0x10);
	assert_int_equal(run_system(&e, &log), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(log.e[i].rule, want_sys[i]);
	check_records(&log);
}

/* Missing context configs are reported, not dereferenced. */
static void missing_context(void **state)
{
	const void *others[] = { NULL };
	size_t sizes[] = { 100 };
	struct log log = { .n = 0 };
	struct env e;

	(void)state;
	env_init(&e);
	assert_int_equal(config_check_cell(e.cell.u.bytes, e.cell.size,
					   e.sys.u.bytes, e.sys.size, NULL,
					   NULL, 1, collect, &log),
			 1);
	assert_int_equal(log.e[0].rule, R(CONFIG_CONTEXT));
	assert_int_equal(log.e[0].item_kind, I(CELL));
	assert_int_equal(log.e[0].item_index, 1);
	assert_int_equal(config_check_cell(e.cell.u.bytes, e.cell.size,
					   e.sys.u.bytes, e.sys.size, others,
					   sizes, 1, collect, &log),
			 1);
	assert_int_equal(log.e[1].rule, R(CONFIG_CONTEXT));
	assert_int_equal(log.e[1].values[0], 1); /* too small */
	assert_int_equal(config_check_cell(e.cell.u.bytes, e.cell.size,
					   e.sys.u.bytes, 0, NULL, NULL, 0,
					   collect, &log),
			 1);
	assert_int_equal(log.e[2].rule, R(CONFIG_CONTEXT));
	assert_int_equal(log.e[2].item_kind, I(SYSTEM));
	check_records(&log);
}

/* ---- limits and damaged blobs ---- */

static void too_large(void **state)
{
	size_t size = CONFIG_CHECK_MAX_SIZE + 8;
	struct log log = { .n = 0 };
	uint8_t *big = calloc(1, size);
	struct env e;

	(void)state;
	assert_non_null(big);
	env_init(&e);
	memcpy(big, e.sys.u.bytes, e.sys.size);
	((struct warden_config_header *)big)->total_size = (uint32_t)size;
	assert_int_equal(config_check_system(big, size, collect, &log), 2);
	assert_int_equal(log.e[0].rule, R(CONFIG_TOO_LARGE));
	assert_int_equal(log.e[0].code, -7);
	assert_int_equal(log.e[0].values[0], size);
	assert_int_equal(log.e[0].values[1], CONFIG_CHECK_MAX_SIZE);
	assert_int_equal(log.e[1].rule, R(CONFIG_COUNTS));
	free(big);
}

/* Each prefix in a buffer of exactly its size (so that a sanitizer or
 * valgrind sees any read past the end), with the header's total_size as
 * it was and patched to the prefix's length. */
static void truncated(void **state)
{
	struct env e, links;
	int pass, patch;
	size_t len;

	(void)state;
	env_init(&e);
	env_init_links(&links);
	/* the system, a cell, the system with links */
	for (pass = 0; pass < 3; pass++) {
		struct cb_blob *b = pass == 1	? &e.cell
				    : pass == 2 ? &links.sys
						: &e.sys;

		for (patch = 0; patch < 2; patch++) {
			for (len = 0; len < b->size; len++) {
				uint8_t *p = malloc(len ? len : 1);
				unsigned int n;

				assert_non_null(p);
				memcpy(p, b->u.bytes, len);
				if (patch && len >= 16) {
					p[12] = (uint8_t)len;
					p[13] = (uint8_t)(len >> 8);
					p[14] = 0;
					p[15] = 0;
				}
				if (pass == 1)
					n = config_check_cell(p, len,
							      e.sys.u.bytes,
							      e.sys.size, NULL,
							      NULL, 0, NULL,
							      NULL);
				else
					n = config_check_system(p, len, NULL,
								NULL);
				assert_true(n > 0);
				free(p);
			}
		}
	}
	/* no blob at all */
	assert_true(config_check_system(NULL, 0, NULL, NULL) > 0);
	assert_true(config_check_cell(NULL, 0, NULL, 0, NULL, NULL, 0, NULL,
				      NULL) > 0);
}

/* Random damage, including to the context configs: never a crash, and
 * every record well-formed. */
static void random_damage(void **state)
{
	uint32_t seed = 12345;
	unsigned int round, k;

	(void)state;
	for (round = 0; round < 20000; round++) {
		struct log log = { .n = 0 };
		struct env e;
		struct cb_blob *b;

		/* every other round on the configs with pins and devices,
		 * every third of those with links too */
		if (round % 6 == 1)
			env_init_links(&e);
		else if (round % 2)
			env_init_pci(&e);
		else
			env_init(&e);
		for (k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			b = (seed >> 8) % 3 == 0   ? &e.sys
			    : (seed >> 8) % 3 == 1 ? &e.cell
						   : &e.other;
			seed = seed * 1103515245u + 12345u;
			b->u.bytes[(seed >> 8) % b->size] ^=
				(uint8_t)(1u << ((seed >> 4) % 8));
		}
		run_cell(&e, &log);
		run_system(&e, &log);
		check_records(&log);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_system),
		cmocka_unit_test(valid_cell_alone),
		cmocka_unit_test(valid_two_cells),
		cmocka_unit_test(valid_pci),
		cmocka_unit_test(valid_links),
		cmocka_unit_test(invalid_configs),
		cmocka_unit_test(all_errors_reported),
		cmocka_unit_test(missing_context),
		cmocka_unit_test(too_large),
		cmocka_unit_test(truncated),
		cmocka_unit_test(random_damage),
	};

	return cmocka_run_group_tests_name("config_check", tests, NULL, NULL);
}

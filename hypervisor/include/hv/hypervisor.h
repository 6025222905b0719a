/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System-wide state of the hypervisor and the generic entry points the
 * architecture layer calls.
 */
#ifndef WARDEN_HV_HYPERVISOR_H
#define WARDEN_HV_HYPERVISOR_H

#include <warden/config.h>
#include <warden/hvheader.h>

#include "mmio.h"
#include "ownership.h"
#include "paging.h"
#include "percpu.h"
#include "types.h"

#define HV_MAX_CELLS 16 /* root included */

/* Emulated MMIO regions a cell can have (hv/mmio.h). */
#define HV_CELL_MMIO_REGIONS 16
/* Root's: its own traps plus up to 32 MSI-X tables (PCI_ROOT_MSIX_MAX). */
#define HV_ROOT_MMIO_REGIONS 64
/* Emulated port ranges a cell can have (the same registry, for ports). */
#define HV_CELL_PIO_REGIONS 4
/* The units' private per-cell state, all units together (hv/unit.h). */
#define HV_UNIT_STATE_BYTES 64

struct warden_comm_region;

struct cell {
	unsigned int id;
	const struct warden_cell_desc *config;
	struct warden_cpu_set cpus;
	struct arch_cell *arch;
	u32 state; /* WARDEN_CELL_* */
	/* non-root cells: the pool pages holding the config blob */
	void *blob;
	unsigned long blob_size, blob_pages;
	/* the emulated MMIO regions of the cell's guest-physical space: a
	 * second-level fault in one goes to its handler */
	struct mmio_registry mmio;
	struct mmio_region mmio_regions[HV_CELL_MMIO_REGIONS];
	/* the emulated port ranges (PCI's 0xcf8-0xcff): the same registry,
	 * with port numbers for addresses; an intercepted port access in
	 * one goes to its handler */
	struct mmio_registry pio;
	struct mmio_region pio_regions[HV_CELL_PIO_REGIONS];
	/* the communication region (core/comm.c), if the config has one */
	struct warden_comm_region *comm;
	/* the ranges the units keep out of the cell's plain mapping
	 * (hv/ownership.h); root's storage is its own, larger */
	struct own_traps traps;
	struct own_trap trap_storage[HV_CELL_TRAPS];
	/* each unit's private state (unit_cell_state, hv/unit.h) */
	u8 unit_state[HV_UNIT_STATE_BYTES] __attribute__((aligned(8)));
};

struct hypervisor {
	struct warden_hv_header *header;
	const struct warden_system_desc *config;
	struct page_pool pool;
	struct page_table hv_pt; /* the hypervisor's own address space */
	void *console;		 /* struct warden_hv_console, read by root */
	struct cell root;
	struct cell *cells[HV_MAX_CELLS]; /* by id; [0] is &root */
	spinlock_t cells_lock;		  /* one create/destroy at a time */
	unsigned int num_cpus;
	unsigned long pool_used_at_start;
};

extern struct hypervisor hv;

/* CPU sets (struct warden_cpu_set): the ABI's helpers, short names. */
#define cpu_in_set warden_cpu_in_set
#define cpu_set_add warden_cpu_set_add
#define cpu_set_del warden_cpu_set_del

/* TSC ticks in ms milliseconds, at the rate the driver measured. */
static inline u64 hv_ms_ticks(u64 ms)
{
	return (u64)(hv.header->tsc_khz ? hv.header->tsc_khz : 1000000) * ms;
}

/* Hypervisor virtual address of hypervisor-memory physical address. */
static inline void *hv_phys_to_virt(u64 phys)
{
	return (void *)(WARDEN_HV_BASE + (phys - hv.header->hv_mem_phys));
}

static inline u64 hv_virt_to_phys(const void *virt)
{
	return (u64)virt - WARDEN_HV_BASE + hv.header->hv_mem_phys;
}

/*
 * Handle a hypercall of the guest on this CPU: code and two arguments.
 * Returns the value for the guest's RAX.  (core/control.c)
 */
long hypercall(struct per_cpu *pc, unsigned long code, unsigned long arg1,
	       unsigned long arg2);

/* Record a failure in this CPU's entry context, for the driver. */
void hv_set_error(struct per_cpu *pc, int code, u32 rule, u32 item_kind,
		  u32 item_index, u64 v0, u64 v1);

/* Record that setup ran out of pool pages at stage (the rule's first
 * value; the second is the pages left): returns -WARDEN_ENOMEM. */
int hv_no_memory(struct per_cpu *pc, unsigned int stage);

#endif /* WARDEN_HV_HYPERVISOR_H */

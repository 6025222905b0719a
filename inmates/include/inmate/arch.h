/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Constants of the inmate environment shared by the assembly entry code and
 * C: the memory layout convention, GDT selectors and the x86 register and
 * page-table bits the library uses (values from the Intel SDM, Vol. 3).
 */
#ifndef INMATE_ARCH_H
#define INMATE_ARCH_H

#include <warden/load.h>

/* Memory layout convention (docs/inmates.md). */
#define INMATE_IMAGE_BASE 0x0
#define INMATE_IMAGE_LIMIT 0xff000 /* image + BSS + stacks end below */
/* NUL-terminated command line, where the ABI puts it (warden/load.h) */
#define INMATE_CMDLINE WARDEN_CMDLINE_ADDRESS
#define INMATE_CMDLINE_SIZE WARDEN_CMDLINE_SIZE
#define INMATE_COMM_REGION 0x100000 /* struct warden_comm_region */
#define INMATE_STACK_SIZE 0x4000    /* the first CPU's stack */

/*
 * SMP: CPUs that libinmate runs at most (the first one included), and the
 * stack of each other CPU (in the BSS, indexed by arrival order).
 */
#define INMATE_MAX_CPUS 16
#define INMATE_AP_STACK_SIZE 0x2000

/* Distance between the interrupt entry stubs of isr.S. */
#define INMATE_ISR_STUB_SIZE 16

/* GDT selectors set up by entry.S. */
#define GDT_CODE32 0x08
#define GDT_DATA 0x10
#define GDT_CODE64 0x18

/* Control registers. */
#define CR0_PE 0x00000001
#define CR0_ET 0x00000010
#define CR0_NE 0x00000020
#define CR0_WP 0x00010000
#define CR0_PG 0x80000000
#define CR4_PAE 0x00000020

#define MSR_APIC_BASE 0x1b
#define MSR_EFER 0xc0000080
#define EFER_LME 0x00000100

/* Paging-structure entry bits (2 MiB pages: PS in the PDE, PAT in bit 12). */
#define PTE_P 0x001
#define PTE_RW 0x002
#define PTE_PWT 0x008
#define PTE_PCD 0x010
#define PTE_PS 0x080
#define PTE_LARGE_PAT 0x1000

/*
 * The identity map covers 4 GiB with 2048 2 MiB pages.  Pages from
 * INMATE_UC_START up are marked PCD|PWT (PAT entry 3, UC with the
 * power-on PAT) for the devices in the top GiB (local APIC, I/O APIC,
 * HPET, PCI MMIO); the rest use PAT entry 0 (WB), so their type is the
 * one the hypervisor's EPT gives them.
 */
#define INMATE_MAP_SIZE 0x100000000
#define INMATE_PAGE_2M 0x200000
#define INMATE_UC_START 0xc0000000

#endif /* INMATE_ARCH_H */

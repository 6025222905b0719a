/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The header at offset 0 of the hypervisor image (warden-intel.bin).
 *
 * The driver checks signature, revision and sizes before it copies the
 * image to the start of the reserved hypervisor memory, then fills in the
 * fields marked [driver] and enters the image at entry_offset on every CPU.
 * The image is linked to run at WARDEN_HV_BASE (its own page tables map it
 * there), so it is position-independent with respect to physical memory.
 */
#ifndef WARDEN_HVHEADER_H
#define WARDEN_HVHEADER_H

#include "abi.h"
#include "error.h"

#define WARDEN_HV_SIGNATURE "WRDNHVI"
/*
 * Virtual address the hypervisor runs at in its own address space.  In the
 * top 2 GiB so that it can be built with -mcmodel=kernel, and below
 * MODULES_VADDR (0xffffffffa0000000 without KASLR, 0xffffffffc0000000 with
 * it), so that the driver's entry stub, which runs from module text, never
 * overlaps it; the image may be at most 512 MiB.
 */
#define WARDEN_HV_BASE 0xffffffff80000000ull

/* Per-CPU data of the images built from this tree (the header's
 * percpu_size says it for the image actually loaded); "warden config
 * create" sizes the hypervisor's memory with it. */
#define WARDEN_HV_PERCPU_SIZE (32 * 1024)

struct warden_hv_header {
	char signature[8];     /* WARDEN_HV_SIGNATURE */
	uint32_t abi_revision; /* WARDEN_ABI_REVISION it was built for */
	uint32_t header_size;  /* sizeof(struct warden_hv_header) */
	uint64_t image_size;   /* bytes of the image file */
	uint64_t core_size;    /* bytes incl. BSS, page-aligned */
	uint64_t entry_offset; /* per-CPU entry, from the image start */
	uint32_t percpu_size;  /* bytes of per-CPU data, after the core */
	uint32_t max_cpus;     /* the most CPUs the image supports */
	/* Filled in by the driver before the first CPU enters: */
	uint32_t online_cpus; /* CPUs that will enter (ids 0..online_cpus-1) */
	/* The TSC's rate as the driver measured it against Linux's clock
	 * right before enable (an emulator's TSC may differ from what the
	 * CPU announces): every time bound of the hypervisor uses it. */
	uint32_t tsc_khz;
	uint64_t hv_mem_phys; /* the reserved hypervisor memory */
	uint64_t hv_mem_size;
	uint64_t config_offset; /* system config copy, from hv_mem_phys */
	uint64_t config_size;
	uint64_t pool_offset;	 /* first page free for the hypervisor's pool */
	uint64_t hv_cr3;	 /* page tables the driver built (phys) */
	uint64_t console_offset; /* struct warden_hv_console, root may read it */
	uint32_t stack_top;	 /* per-CPU stack top, from the per-CPU area */
	uint32_t reserved0;
	uint64_t flags; /* WARDEN_HV_* */
	/* [driver] Root's PCI functions as Linux had them at enable: struct
	 * warden_root_function[root_pci_count] at root_pci_offset (from
	 * hv_mem_phys, page-aligned, before pool_offset).  Root is trusted
	 * at enable (it hands over the image itself); after enable these
	 * sizes are what root's BAR moves are checked with, and every
	 * function with an MSI-X table gets the table trapped. */
	uint64_t root_pci_offset;
	uint32_t root_pci_count;
	uint32_t root_pci_entry_size; /* sizeof(struct warden_root_function) */
};
/* The driver was loaded with test_hooks=1: cells may use WARDEN_HC_TEST. */
#define WARDEN_HV_TEST_HOOKS (1ull << 0)
WARDEN_CHECK_SIZE(struct warden_hv_header, 144);
WARDEN_CHECK_OFFSET(struct warden_hv_header, root_pci_offset, 128);
WARDEN_CHECK_OFFSET(struct warden_hv_header, entry_offset, 32);
WARDEN_CHECK_OFFSET(struct warden_hv_header, online_cpus, 48);
WARDEN_CHECK_OFFSET(struct warden_hv_header, hv_cr3, 96);

/*
 * One of root's PCI functions at enable (segment 0): the sizes Linux gave
 * its resources (pci_resource_len), 0 where it has none.  A 64-bit BAR's
 * size is at its lower index, the upper one is 0; a bridge has BARs 0
 * and 1 only.  SR-IOV VF BARs are not here: root may not change them
 * (docs/hypervisor.md, "Isolation").
 */
struct warden_root_function {
	uint16_t bdf; /* bus << 8 | device << 3 | function */
	uint16_t reserved0;
	uint32_t reserved1;
	uint64_t bar_size[6];
	uint64_t rom_size;
};
WARDEN_CHECK_SIZE(struct warden_root_function, 64);
WARDEN_CHECK_OFFSET(struct warden_root_function, bar_size, 8);
/* The most functions the driver hands over (64 KiB of entries). */
#define WARDEN_ROOT_PCI_MAX 1024

/*
 * The hypervisor console, in hypervisor memory that root may read (mapped
 * read-only into root).  Lines, not bytes: each line of output takes a
 * slot (a longer one several, WARDEN_LINE_CONTINUED on all but the last),
 * numbered by seq in the order written, from 1.  The slots are divided by
 * source so that no source can push another's lines out: the hypervisor's
 * own messages have WARDEN_CONSOLE_HV_LINES slots, and each cell id
 * (root is 0) WARDEN_CONSOLE_CELL_LINES for what its guest printed and
 * what the hypervisor says about that guest's behaviour.  Within its
 * slots a source overwrites its oldest line.  A reader sorts the slots by
 * seq; a slot whose seq changed while it was copied is being rewritten.
 * A line repeated by its source is stored once, followed by one slot
 * "(the line above: N more times)" updated in place.
 */
#define WARDEN_CONSOLE_TEXT 112
#define WARDEN_CONSOLE_HV_LINES 256
#define WARDEN_CONSOLE_SOURCES 16 /* cell ids 0 .. 15 */
#define WARDEN_CONSOLE_CELL_LINES 32
#define WARDEN_CONSOLE_LINES                                                   \
	(WARDEN_CONSOLE_HV_LINES +                                             \
	 WARDEN_CONSOLE_SOURCES * WARDEN_CONSOLE_CELL_LINES)
#define WARDEN_CONSOLE_SOURCE_HV 0xffff
#define WARDEN_LINE_CONTINUED (1u << 0)

struct warden_hv_console_line {
	uint64_t seq;	 /* 0: never written */
	uint16_t source; /* WARDEN_CONSOLE_SOURCE_HV or a cell id */
	uint8_t len;	 /* bytes of text */
	uint8_t flags;	 /* WARDEN_LINE_* */
	uint32_t reserved;
	char text[WARDEN_CONSOLE_TEXT]; /* no newline, no control bytes */
};
WARDEN_CHECK_SIZE(struct warden_hv_console_line, 128);

struct warden_hv_console {
	char signature[8]; /* WARDEN_CONSOLE_SIGNATURE */
	uint32_t lines;	   /* WARDEN_CONSOLE_LINES */
	uint32_t reserved[29];
	/* slots 0 .. HV_LINES - 1: the hypervisor; then CELL_LINES per cell
	 * id, in id order */
	struct warden_hv_console_line line[WARDEN_CONSOLE_LINES];
};
#define WARDEN_CONSOLE_SIGNATURE "WRDNCON"
WARDEN_CHECK_OFFSET(struct warden_hv_console, line, 128);
WARDEN_CHECK_SIZE(struct warden_hv_console, 128 + WARDEN_CONSOLE_LINES * 128);
/* Bytes the console takes in hypervisor memory (whole pages). */
#define WARDEN_CONSOLE_BYTES                                                   \
	((sizeof(struct warden_hv_console) + 4095) & ~(uint64_t)4095)

/*
 * A segment register as VMX holds it (SDM Vol. 3, 25.4.1): access rights in
 * the VMCS format (bit 16 = unusable).
 */
struct warden_segment {
	uint16_t selector;
	uint16_t reserved;
	uint32_t access_rights;
	uint32_t limit;
	uint32_t reserved2;
	uint64_t base;
};
WARDEN_CHECK_SIZE(struct warden_segment, 24);

/*
 * Linux's CPU state, as the driver collects it on each CPU right before
 * entering the hypervisor (and as the hypervisor hands it back on
 * disable).  The hypervisor makes it the guest state of the root cell, so
 * that Linux continues at rip with rsp, and all general-purpose registers
 * as in regs[] (RAX = 0: "entered").
 */
struct warden_linux_state {
	uint64_t cr0, cr3, cr4;
	uint64_t efer, pat, debugctl;
	uint64_t gdtr_base, idtr_base;
	uint16_t gdtr_limit, idtr_limit;
	uint32_t reserved;
	struct warden_segment cs, ss, ds, es, fs, gs, tr, ldtr;
	uint64_t kernel_gs_base;
	uint64_t sysenter_cs, sysenter_esp, sysenter_eip;
	uint64_t rsp, rip, rflags;
	uint64_t regs[16]; /* RAX, RCX, RDX, RBX, RSP(unused), RBP, RSI, RDI,
			    * R8-R15: the x86 register numbering */
	uint64_t gdt_rw;   /* writable alias of this CPU's GDT (Linux VA) */
};
WARDEN_CHECK_OFFSET(struct warden_linux_state, cs, 72);
WARDEN_CHECK_OFFSET(struct warden_linux_state, kernel_gs_base, 264);
WARDEN_CHECK_SIZE(struct warden_linux_state, 456);

/*
 * The per-CPU entry context: one page the driver allocates for each CPU and
 * maps at the same (Linux) address in the hypervisor's page tables, next to
 * the entry stub.  The stub and the hypervisor both use it.
 */
struct warden_entry_ctx {
	uint64_t hv_cr3;     /* page tables to switch to */
	uint64_t hv_entry;   /* hypervisor entry (hypervisor address) */
	uint64_t hv_stack;   /* top of this CPU's hypervisor stack */
	uint64_t stub_leave; /* stub routine that returns to Linux */
	uint32_t cpu_id;     /* Linux CPU number = hypervisor CPU id */
	uint32_t apic_id;
	int64_t result; /* 0, or the negative errno of this CPU */
	uint16_t reserved[3];
	/* The IDT used during the switch (an NMI there is ignored), as the
	 * 10-byte operand LIDT takes. */
	uint16_t tramp_idt_limit;
	uint64_t tramp_idt_base;
	struct warden_error error; /* why this CPU failed */
	struct warden_linux_state linux_state;
	uint8_t tramp_idt[3 * 16]; /* vectors 0-2: only NMI (2) is set */
};
WARDEN_CHECK_OFFSET(struct warden_entry_ctx, result, 40);
WARDEN_CHECK_OFFSET(struct warden_entry_ctx, tramp_idt_limit, 54);
WARDEN_CHECK_OFFSET(struct warden_entry_ctx, tramp_idt_base, 56);
WARDEN_CHECK_OFFSET(struct warden_entry_ctx, error, 64);
WARDEN_CHECK_OFFSET(struct warden_entry_ctx, linux_state, 168);
_Static_assert(sizeof(struct warden_entry_ctx) <= 4096, "the entry context "
							"must fit in one page");

#endif /* WARDEN_HVHEADER_H */

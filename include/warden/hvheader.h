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

#define WARDEN_HV_SIGNATURE "WRDNHVI"
/*
 * Virtual address the hypervisor runs at in its own address space.  In the
 * top 2 GiB so that it can be built with -mcmodel=kernel, and below
 * MODULES_VADDR (0xffffffffa0000000 without KASLR, 0xffffffffc0000000 with
 * it), so that the driver's entry stub, which runs from module text, never
 * overlaps it; the image may be at most 512 MiB.
 */
#define WARDEN_HV_BASE 0xffffffff80000000ull

struct warden_hv_header {
	char signature[8];     /* WARDEN_HV_SIGNATURE */
	uint32_t abi_revision; /* WARDEN_ABI_REVISION it was built for */
	uint32_t header_size;  /* sizeof(struct warden_hv_header) */
	uint64_t image_size;   /* bytes of the image file */
	uint64_t core_size;    /* bytes incl. BSS, page-aligned */
	uint64_t entry_offset; /* per-CPU entry, from the image start */
	uint32_t percpu_size;  /* bytes of per-CPU data, after the core */
	uint32_t max_cpus;     /* the most CPUs the image supports */
	uint32_t online_cpus;  /* [driver] CPUs that will enter */
	uint32_t reserved;
	uint64_t config_offset; /* [driver] where the system config was copied,
				 * from the start of hypervisor memory */
};
WARDEN_CHECK_SIZE(struct warden_hv_header, 64);
WARDEN_CHECK_OFFSET(struct warden_hv_header, entry_offset, 32);

#endif /* WARDEN_HVHEADER_H */

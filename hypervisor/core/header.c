// SPDX-License-Identifier: GPL-2.0
/*
 * The image header (include/warden/hvheader.h), placed first in the image
 * by the linker script.  The sizes come from symbols the linker script
 * defines, so they are always those of the image actually built.
 */
#include <hv/percpu.h>
#include <warden/hvheader.h>

extern char __image_size[], __core_size[], __entry_offset[];

#define HV_MAX_CPUS WARDEN_MAX_CPUS

struct warden_hv_header hv_header __attribute__((section(".header"), used)) = {
	.signature = WARDEN_HV_SIGNATURE,
	.abi_revision = WARDEN_ABI_REVISION,
	.header_size = sizeof(struct warden_hv_header),
	.image_size = (uint64_t)__image_size,
	.core_size = (uint64_t)__core_size,
	.entry_offset = (uint64_t)__entry_offset,
	.percpu_size = HV_PERCPU_SIZE,
	.max_cpus = HV_MAX_CPUS,
	.stack_top =
		__builtin_offsetof(struct per_cpu, stack) + PERCPU_STACK_SIZE,
};

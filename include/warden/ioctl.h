/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The driver's control device, /dev/warden, and its ioctls.
 *
 * Every argument structure begins with a struct warden_error.  The caller
 * zeroes it; on failure the driver returns -1 with errno set *and* fills in
 * the record (the errno is repeated in error.code), so that the CLI can say
 * why.  Pointers are user-space addresses carried in uint64_t.
 */
#ifndef WARDEN_IOCTL_H
#define WARDEN_IOCTL_H

#include <linux/ioctl.h>

#include "abi.h"
#include "access.h"
#include "error.h"
#include "stats.h"
#include "vmx_entry.h"

#define WARDEN_DEVICE "/dev/warden"
#define WARDEN_SYSFS "/sys/devices/virtual/misc/warden"
#define WARDEN_IOCTL_MAGIC 0xb7

/* WARDEN_IOCTL_GET_VERSION */
struct warden_version {
	struct warden_error error;
	uint32_t abi_revision;	  /* WARDEN_ABI_REVISION of the driver */
	uint32_t config_revision; /* WARDEN_CONFIG_REVISION of the driver */
	char driver_version[32];  /* NUL-terminated */
};
WARDEN_CHECK_SIZE(struct warden_version, 144);

/*
 * WARDEN_IOCTL_HW_PROBE: raw facts of one CPU for "warden hardware check".
 * The driver reads its list of CPUID leaves (driver/hwprobe.c) on the CPU
 * given; on Intel CPUs also the VMX capability MSRs, probing VMX with a
 * VMXON/VMXOFF pair when CR4.VMXE is clear (vmx_state); on AMD and Hygon
 * CPUs the MSRs VM_CR and EFER (vmx_state stays NOT_PROBED).  Judging the
 * facts is left to the CLI (tools/hwcaps.c, hwcaps_svm.c), so that it can
 * be unit-tested.
 */
#define WARDEN_PROBE_MAX_CPUID 8
#define WARDEN_PROBE_MAX_MSRS 24

/* vmx_state values */
#define WARDEN_VMX_NOT_PROBED 0	  /* no VMX in CPUID, or not allowed */
#define WARDEN_VMX_FREE 1	  /* VMXON and VMXOFF succeeded */
#define WARDEN_VMX_IN_USE 2	  /* CR4.VMXE was already set by someone */
#define WARDEN_VMX_VMXON_FAILED 3 /* VMXON faulted or failed */

struct warden_cpuid_leaf {
	uint32_t leaf, subleaf;
	uint32_t eax, ebx, ecx, edx;
};
WARDEN_CHECK_SIZE(struct warden_cpuid_leaf, 24);

struct warden_msr_value {
	uint32_t index;
	uint32_t valid; /* 0: reading it faulted */
	uint64_t value;
};
WARDEN_CHECK_SIZE(struct warden_msr_value, 16);

struct warden_hw_probe {
	struct warden_error error;
	uint32_t cpu;	   /* in: CPU to probe */
	uint32_t num_cpus; /* out: possible CPUs */
	uint32_t num_cpuid;
	uint32_t num_msrs;
	uint32_t vmx_state; /* WARDEN_VMX_* */
	uint32_t reserved;
	uint64_t cr0, cr4; /* as found on that CPU */
	struct warden_cpuid_leaf cpuid[WARDEN_PROBE_MAX_CPUID];
	struct warden_msr_value msrs[WARDEN_PROBE_MAX_MSRS];
};
WARDEN_CHECK_SIZE(struct warden_hw_probe, 104 + 24 + 16 + 192 + 384);

/* WARDEN_IOCTL_ENABLE */
struct warden_enable {
	struct warden_error error;
	uint64_t config_ptr; /* system config blob */
	uint32_t config_size;
	uint32_t flags; /* none defined: 0 */
};
WARDEN_CHECK_SIZE(struct warden_enable, 120);

/* WARDEN_IOCTL_DISABLE, _CELL_START, _CELL_SHUTDOWN, _CELL_DESTROY and
 * _CELL_SET_LOADABLE name a cell (0 for disable). */
struct warden_cell_ref {
	struct warden_error error;
	uint32_t cell_id;
	uint32_t flags; /* none defined: 0 */
};
WARDEN_CHECK_SIZE(struct warden_cell_ref, 112);

/* WARDEN_IOCTL_CELL_CREATE */
#define WARDEN_CREATE_VALIDATE_ONLY (1u << 0)
struct warden_cell_create {
	struct warden_error error;
	uint64_t config_ptr; /* cell config blob */
	uint32_t config_size;
	uint32_t flags;	  /* WARDEN_CREATE_* */
	uint32_t cell_id; /* out */
	uint32_t reserved;
};
WARDEN_CHECK_SIZE(struct warden_cell_create, 128);

/* WARDEN_IOCTL_CELL_LOAD: copy images into a cell's loadable memory. */
struct warden_image {
	uint64_t source_ptr;	/* user-space address of the bytes */
	uint64_t size;		/* bytes */
	uint64_t guest_address; /* guest-physical target in the cell */
};
WARDEN_CHECK_SIZE(struct warden_image, 24);

struct warden_cell_load {
	struct warden_error error;
	uint32_t cell_id;
	uint32_t num_images;
	uint64_t images_ptr; /* struct warden_image[num_images] */
};
WARDEN_CHECK_SIZE(struct warden_cell_load, 120);

/* WARDEN_IOCTL_STATUS */
struct warden_status {
	struct warden_error error;
	uint32_t enabled;
	uint32_t num_cpus;  /* CPUs under the hypervisor */
	uint32_t num_cells; /* root included */
	uint32_t reserved;
	uint64_t mem_pool_pages;
	uint64_t mem_pool_used;
};
WARDEN_CHECK_SIZE(struct warden_status, 136);

/* WARDEN_IOCTL_CPU_INFO: state and counters of one CPU. */
struct warden_cpu_info {
	struct warden_error error;
	uint32_t cpu;	/* in */
	uint32_t state; /* WARDEN_CPU_* */
	uint32_t cell_id;
	uint32_t num_stats; /* WARDEN_NUM_STATS of the hypervisor */
	uint64_t tsc;	    /* TSC when read, for rates */
	uint64_t stats[WARDEN_MAX_STATS];
};
WARDEN_CHECK_SIZE(struct warden_cpu_info, 104 + 24 + 256);

/* WARDEN_IOCTL_CELL_INFO: the cell with the given index (0 = root). */
struct warden_cell_info {
	struct warden_error error;
	uint32_t index;	  /* in: 0 .. num_cells - 1 */
	uint32_t cell_id; /* out */
	uint32_t state;	  /* WARDEN_CELL_* */
	/* DMA faults of its PCI functions the IOMMU recorded
	 * (WARDEN_HC_CELL_DMA_FAULTS, saturated; revision 8) */
	uint32_t dma_faults;
	char name[WARDEN_NAME_LEN];
	struct warden_cpu_set cpus;
	/* stopped for breaking a rule, or lost (WARDEN_CPU_FAILED, _LOST) */
	struct warden_cpu_set failed_cpus;
	struct warden_cpu_set lost_cpus; /* WARDEN_CPU_LOST only */
	/* interrupt remapping entries it holds (WARDEN_HC_CELL_IRQ_REMAPS;
	 * revision 10) */
	uint32_t irq_remaps;
	uint32_t reserved; /* 0 */
};
WARDEN_CHECK_SIZE(struct warden_cell_info, 104 + 16 + 32 + 96 + 8);
WARDEN_CHECK_OFFSET(struct warden_cell_info, irq_remaps, 104 + 16 + 32 + 96);

/* WARDEN_IOCTL_CPU_ACCESS_LOG: the access log of one CPU (access.h;
 * revision 9), empty for a CPU of root. */
struct warden_cpu_access_log {
	struct warden_error error;
	uint32_t cpu;	      /* in */
	uint32_t num_entries; /* entries[0 .. num_entries - 1] are filled */
	uint32_t dropped;     /* uses that found no room */
	uint32_t reserved;
	struct warden_access_entry entries[WARDEN_ACCESS_LOG_ENTRIES];
};
WARDEN_CHECK_OFFSET(struct warden_cpu_access_log, entries, 104 + 16);
WARDEN_CHECK_SIZE(struct warden_cpu_access_log,
		  104 + 16 + 24 * WARDEN_ACCESS_LOG_ENTRIES);

/* WARDEN_IOCTL_CPU_ENTRY_FAILURE: one CPU's record of its last VM entry
 * that failed with invalid guest state (vmx_entry.h; revision 11):
 * record.exit_reason 0 when it has none (and always on AMD). */
struct warden_cpu_entry_failure {
	struct warden_error error;
	uint32_t cpu; /* in */
	uint32_t reserved;
	struct warden_vmx_entry_failure record;
};
WARDEN_CHECK_OFFSET(struct warden_cpu_entry_failure, record, 104 + 8);
WARDEN_CHECK_SIZE(struct warden_cpu_entry_failure, 104 + 8 + 448);

#define WARDEN_IOCTL_GET_VERSION                                               \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x00, struct warden_version)
#define WARDEN_IOCTL_HW_PROBE                                                  \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x01, struct warden_hw_probe)
#define WARDEN_IOCTL_ENABLE                                                    \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x02, struct warden_enable)
#define WARDEN_IOCTL_DISABLE                                                   \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x03, struct warden_cell_ref)
#define WARDEN_IOCTL_CELL_CREATE                                               \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x04, struct warden_cell_create)
#define WARDEN_IOCTL_CELL_LOAD                                                 \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x05, struct warden_cell_load)
#define WARDEN_IOCTL_CELL_START                                                \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x06, struct warden_cell_ref)
#define WARDEN_IOCTL_CELL_SHUTDOWN                                             \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x07, struct warden_cell_ref)
#define WARDEN_IOCTL_CELL_DESTROY                                              \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x08, struct warden_cell_ref)
#define WARDEN_IOCTL_STATUS                                                    \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x09, struct warden_status)
#define WARDEN_IOCTL_CPU_INFO                                                  \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x0a, struct warden_cpu_info)
#define WARDEN_IOCTL_CELL_INFO                                                 \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x0b, struct warden_cell_info)
#define WARDEN_IOCTL_CELL_SET_LOADABLE                                         \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x0c, struct warden_cell_ref)
#define WARDEN_IOCTL_CPU_ACCESS_LOG                                            \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x0d, struct warden_cpu_access_log)
#define WARDEN_IOCTL_CPU_ENTRY_FAILURE                                         \
	_IOWR(WARDEN_IOCTL_MAGIC, 0x0e, struct warden_cpu_entry_failure)

#endif /* WARDEN_IOCTL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interfaces of the Warden Linux driver (warden.ko). */
#ifndef WARDEN_DRIVER_H
#define WARDEN_DRIVER_H

#include <linux/types.h>

#include <warden/error.h>
#include <warden/hypercall.h>
#include <warden/ioctl.h>

struct warden_cell_desc;

#define WARDEN_DRIVER_VERSION "0.1.0"

/*
 * Record a failure in the error channel and in the kernel log.
 *
 * Contract: fills err (code = -errno, rule, item, cpu, values) so that the
 * CLI can explain it, prints msg (a complete sentence, printf-style) with
 * pr_err, and returns code, so that callers can write
 * "return wd_error(err, -EINVAL, ...);".  err may be NULL (log only).
 */
struct wd_reason {
	u32 rule;
	u32 item_kind;
	u32 item_index;
	u32 cpu;
	u64 values[4];
	const char *text;
};

__printf(4, 5) int wd_error(struct warden_error *err, int code,
			    const struct wd_reason *why, const char *msg, ...);

/* ioctl WARDEN_IOCTL_HW_PROBE: fills probe->... for probe->cpu. */
int wd_hw_probe(struct warden_hw_probe *probe);

/* ---- in_cell.c: where this kernel runs (root, or a Warden cell) ---- */

/* Module load, before anything else registers: look for Warden's CPUID
 * signature and ask the hypervisor (in_cell.c says how). */
void wd_detect_cell(void);
/* This kernel runs inside a Warden cell (not root). */
bool wd_in_cell(void);
/* Refuse request what (e.g. "enable") in a cell: -EPERM with
 * WARDEN_RULE_IN_CELL in err. */
int wd_refuse_in_cell(struct warden_error *err, const char *what);

/* ---- hv_state.c: the lowest layer, which every file may call ---- */

/* The device, for request_firmware: set once by main.c at module load. */
void wd_set_device(struct device *dev);
struct device *wd_device(void);
/* The hypervisor lost cpu (WARDEN_CPU_LOST): it stays offline, the
 * module stays loaded, no enable again until reboot (wd_lock held). */
void wd_cpu_lost(unsigned int cpu);
bool wd_is_enabled(void);
/* The CPUs of set that the hypervisor stopped because their cell broke a
 * rule or that it lost (state WARDEN_CPU_FAILED or _LOST: *failed), and
 * the lost ones alone (*lost); the rest of that cell may still run.
 * Needs the hypervisor enabled (wd_lock held). */
void wd_cpus_failed(const struct warden_cpu_set *set,
		    struct warden_cpu_set *failed, struct warden_cpu_set *lost);

/* Held while enabling, disabling or changing cells (hv_state.c). */
extern struct mutex wd_lock;

/* enable.c: the ioctls behind enable and disable.  Each fills the error
 * record on failure. */
int wd_enable(struct warden_enable *arg);
int wd_disable(struct warden_cell_ref *arg);
/* hv_info.c: status and CPU info, the same way. */
int wd_status(struct warden_status *st);
int wd_cpu_info(struct warden_cpu_info *info);
int wd_cpu_access_log(struct warden_cpu_access_log *log);
int wd_cpu_entry_failure(struct warden_cpu_entry_failure *f);
/* hv_console.c: the console's lines from line number *pos on, as text
 * into buf (whole lines only; *pos becomes the number of the next line),
 * and the newest lines that fit into len bytes. */
ssize_t wd_console_read(char *buf, size_t len, u64 *pos);
ssize_t wd_console_tail(char *buf, size_t len);

/* Hypercalls, only while Warden is enabled: with the instruction of this
 * CPU's vendor (<warden/hypercall.h>), chosen once at module load by
 * main.c (kept in hv_state.c). */
extern unsigned int wd_hc_insn;
static inline long wd_hypercall(unsigned long code, unsigned long arg1,
				unsigned long arg2)
{
	return warden_hypercall_with(wd_hc_insn, code, arg1, arg2);
}

/* cell.c: the cell ioctls.  Each fills the error record on failure. */
#define WARDEN_MAX_DRIVER_CELLS 15 /* besides root */
int wd_cell_create(struct warden_cell_create *arg);
/* root_pci.c: *out = a kvmalloc'ed description of every PCI function
 * Linux has (the caller kvfree()s it), *count of them; or an error
 * (WARDEN_RULE_ROOT_PCI_UNDESCRIBED: a segment other than 0, too many). */
struct warden_root_function;
int wd_root_pci_describe(struct warden_error *err,
			 struct warden_root_function **out, u32 *count);

/* cell_memory.c: refuses (WARDEN_RULE_MEM_LINUX_USES, -EBUSY) a memory
 * region of the cell, validated by the hypervisor, that Linux uses: System
 * RAM, ACPI tables or NVS, a busy resource outside the cell's own BARs. */
int wd_cell_check_linux_memory(struct warden_error *err,
			       const struct warden_cell_desc *desc);
int wd_cell_destroy(struct warden_cell_ref *arg);
int wd_cell_info(struct warden_cell_info *info);
int wd_cell_load(struct warden_cell_load *arg);
int wd_cell_start(struct warden_cell_ref *arg);
int wd_cell_shutdown(struct warden_cell_ref *arg);
/* Destroy every cell (disable), with wd_lock held. */
int wd_cell_destroy_all(struct warden_error *err);
/* Forget the quarantined cells that outlived disable (wd_lock held). */
void wd_cells_forget(void);
/* Module unload: free what the cell code keeps. */
void wd_cells_exit(void);

/*
 * sysfs.c: /sys/kernel/warden, with a directory per cell.  The two cell
 * hooks run with wd_lock held and only queue the change (a removed cell's
 * attributes fail at once); wd_sysfs_sync() applies the queued changes and
 * must be called without wd_lock, after every operation that may have
 * called a hook.
 */
int wd_sysfs_init(void);
void wd_sysfs_exit(void);
/* /sys/kernel/warden itself, for the links' directory (link_sysfs.c). */
struct kobject *wd_sysfs_kobj(void);
struct warden_pci_device;
void wd_sysfs_cell_added(u32 id, const char *name,
			 const struct warden_cpu_set *cpus,
			 const struct warden_pci_device *pci, u32 num_pci);
/* The loadable memory and reset address of cell id's config, for its
 * directory (after wd_sysfs_cell_added). */
struct warden_cell_desc;
void wd_sysfs_cell_memory(u32 id, const struct warden_cell_desc *desc);
void wd_sysfs_cell_removed(u32 id);
void wd_sysfs_sync(void);

#endif /* WARDEN_DRIVER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steps of enable and disable (enable.c), each in the file of its job.
 * Names without the wd_ prefix: private to these files.
 */
#ifndef WARDEN_DRIVER_ENABLE_STEPS_H
#define WARDEN_DRIVER_ENABLE_STEPS_H

#include <linux/types.h>

#include <warden/error.h>
#include <warden/hvheader.h>

struct firmware;
struct warden_system_desc;
struct wd_reason;

/* The entry stub (stub.S): its pages, mapped in both address spaces, its
 * entry and exit and its NMI handler. */
extern const char wd_stub_start[], wd_stub_end[], wd_stub_leave[],
	wd_stub_nmi[];
long wd_stub_enter(struct warden_entry_ctx *ctx);

/* ---- enable_checks.c: refusals, before anything is touched ---- */

/*
 * 0 if every possible CPU is online but those the hypervisor lost;
 * otherwise the reason, for what ("enable", "disable").  An offline CPU
 * would stay outside the hypervisor (enable) or inside it (disable).
 */
int check_all_online(struct warden_error *err, const char *what);
/*
 * The shared validator (common/config_check/) decides on the system
 * config of size bytes; the first error it reports goes into err.  The
 * hypervisor checks again, as it trusts no one.
 */
int check_config(struct warden_error *err, const void *blob, u32 size);
/* Every link's memory lies outside Linux's RAM (a memmap= reservation):
 * 0, or an error naming the link (the config is validated: its links are
 * inside the blob). */
int check_links_reserved(struct warden_error *err,
			 const struct warden_system_desc *sys);
/* The firmware image fw (file name image) is a Warden image of this ABI,
 * whole, and fits the reserved memory (wd.hv_size) with need_after_image
 * bytes after it. */
int check_image(struct warden_error *err, const struct firmware *fw,
		const char *image, u64 need_after_image);
/*
 * The image for this CPU's vendor into *image (abi.h: Hygon counts as AMD),
 * the vendor into *vendor and the vendor string of CPUID leaf 0 into name,
 * for messages.  Warden has no image for other vendors.
 */
int pick_image(struct warden_error *err, u32 *vendor, const char **image,
	       char name[13]);
/* No other hypervisor holds the vendor's virtualization extension, and
 * (AMD) the CPU has SVM and the firmware left it on. */
int check_virt_free(struct warden_error *err, u32 vendor);

/* ---- tsc.c ---- */

/* The TSC's rate in kHz against Linux's own clock (sleeps 20 ms). */
u32 measure_tsc_khz(void);

/* ---- hv_page_tables.c ---- */

/*
 * Builds the hypervisor's first page tables in its memory from
 * wd.next_free on (wd.hv_mem mapped, wd.ctx[] of the online CPUs set):
 * its physical address into *cr3.  -ENOMEM, with why filled
 * (HV_MEM_TOO_SMALL), when the memory runs out.
 */
int build_page_tables(struct wd_reason *why, u64 *cr3);

/* ---- linux_state.c ---- */

/* This CPU's state, for the hypervisor to launch Linux back on it. */
void collect_linux_state(struct warden_linux_state *s);

#endif /* WARDEN_DRIVER_ENABLE_STEPS_H */

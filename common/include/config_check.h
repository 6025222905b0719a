/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Validation of binary configs (include/warden/config.h).
 *
 * One freestanding implementation (common/config_check/, its files listed
 * once in common/config_check.mk) is compiled into the hypervisor, the
 * Linux driver, the CLI, the unit tests and the fuzzers: it calls no
 * library function, allocates nothing, touches no hardware, reads blobs
 * byte by byte (any alignment) and never beyond the size it is given,
 * whatever the blob's header claims.  docs/validation.md lists every rule.
 */
#ifndef WARDEN_CONFIG_CHECK_H
#define WARDEN_CONFIG_CHECK_H

#if defined(__KERNEL__)
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

#include <warden/config.h>
#include <warden/error.h>

/* Limits on a config (larger ones are rejected, not truncated).  128 KiB
 * is more than any config within the counts needs (90,704 bytes). */
#define CONFIG_CHECK_MAX_REGIONS 1024u
#define CONFIG_CHECK_MAX_PIO_RANGES 1024u
#define CONFIG_CHECK_MAX_PINS 240u
#define CONFIG_CHECK_MAX_PCI_DEVICES 256u
#define CONFIG_CHECK_MAX_IOAPICS 8u
#define CONFIG_CHECK_MAX_LINKS WARDEN_MAX_LINKS
#define CONFIG_CHECK_MAX_IOMMUS 8u
#define CONFIG_CHECK_MAX_SIZE 0x20000u
/* Smallest hypervisor memory accepted (warden_system_desc.hv_mem_size). */
#define CONFIG_CHECK_HV_MEM_MIN 0x100000u /* 1 MiB */
#define CONFIG_CHECK_PAGE_SIZE 0x1000u

/*
 * Report callback.  Called once per error found, in the order found, with
 * the caller's ctx and a record that lives only for the call (copy it to
 * keep it).  The record has code (-EINVAL, or -E2BIG for limits), rule,
 * item kind and index, cpu = WARDEN_NO_CPU, the values documented next to
 * the rule in error.h and an empty text.  Validation goes on after an error
 * wherever it is safe, so that a user sees every error, not only the first;
 * it stops at errors that make the rest unreadable (blob too small, wrong
 * signature or revision, counts that do not fit the blob).
 */
typedef void (*config_report_fn)(void *ctx, const struct warden_error *err);

/*
 * Checks a system config blob of size bytes: header, system part
 * (hypervisor memory, debug console, platform), the root cell's descriptor
 * and its arrays, the IOAPICs and the links (rules 180-186; their items
 * are of kind LINK, index = the link's place in the config).  The root cell's CPU set stands
 * for the machine's CPUs.  Items of kind CELL have index 0 (root).  report
 * may be NULL (only count).  blob may be NULL only when size is 0.
 * Returns the number of errors (0 = valid).
 */
unsigned int config_check_system(const void *blob, size_t size,
				 config_report_fn report, void *ctx);

/*
 * Checks a cell config blob of size bytes on its own and, unless
 * system_blob is NULL (standalone check, e.g. of a file by the CLI),
 * against the system config (system_blob, system_size) and the cells that
 * exist: others[i] of other_sizes[i] bytes for i < n_others; against the
 * system it also checks the links' peers that name the cell (their
 * virtual functions and BARs against its devices and memory) and its
 * memory against every link's (LINK_MEMORY_OVERLAP).  The cell
 * called others[i] has cell id i + 1 in every record (values "cell id" and
 * item CELL index); the new cell itself is reported as cell n_others + 1
 * (the caller may rewrite that index); 0 is the root cell.  The system and
 * the other cells are expected to be valid: any of them that is not is
 * reported once (rule CONFIG_CONTEXT, item SYSTEM or CELL id, values[0] =
 * its number of errors) and left out of the cross-checks.  report may be
 * NULL.  Returns the number of errors (0 = valid).
 */
unsigned int config_check_cell(const void *blob, size_t size,
			       const void *system_blob, size_t system_size,
			       const void *const *others,
			       const size_t *other_sizes, size_t n_others,
			       config_report_fn report, void *ctx);

#endif /* WARDEN_CONFIG_CHECK_H */

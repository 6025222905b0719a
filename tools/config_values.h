/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scalar values of the YAML config format (docs/config.md): numbers
 * with units, CPU lists, port ranges and the names of flags, memory types
 * and console types; parsing and the matching output.
 *
 * Parsers take a NUL-terminated string and return 0, or -1 with *why set
 * to a static phrase that completes "'<text>' ..." (e.g. "is not a
 * number").  They never print.
 */
#ifndef WARDEN_TOOLS_CONFIG_VALUES_H
#define WARDEN_TOOLS_CONFIG_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <warden/abi.h>

/*
 * A number: decimal or hexadecimal (0x), optionally followed by a unit
 * K, M, G or T (powers of 1024; "KiB", "MiB", ... and lower-case k, m, g,
 * t are accepted too).  Examples: 4096, 0x1000, 4K, 64M, 1G, 0x10M.
 */
int cv_parse_u64(const char *s, uint64_t *out, const char **why);

/*
 * Adds the CPUs of a list such as "0-3,5" or "1" to set (commas or blanks
 * between items, ranges inclusive).  CPU numbers are 0..WARDEN_MAX_CPUS-1.
 * On error, set may hold the items before the bad one.
 */
int cv_parse_cpus(const char *s, struct warden_cpu_set *set, const char **why);

/*
 * A port range: "0x3f8-0x3ff" (first-last, inclusive), "0x3f8+8"
 * (base+length) or a single port "0x60".  base must be <= 0xffff; the
 * length is returned as given (the validator judges base + length).
 */
int cv_parse_ports(const char *s, uint32_t *base, uint64_t *length,
		   const char **why);

/*
 * A PCI function "bb:dd.f" or "dddd:bb:dd.f" (hexadecimal, as lspci
 * writes it): *domain and *bdf (bus << 8 | device << 3 | function).
 */
int cv_parse_bdf(const char *s, uint16_t *domain, uint16_t *bdf,
		 const char **why);
/* "vvvv:dddd": a PCI vendor and device id (hexadecimal). */
int cv_parse_ids(const char *s, uint16_t *vendor, uint16_t *device,
		 const char **why);
/* "true" or "false" (also True, TRUE, ...). */
int cv_parse_bool(const char *s, bool *v, const char **why);
/* "00:03.0", or "0001:00:03.0" with a domain. */
void cv_format_bdf(uint16_t domain, uint16_t bdf, char *buf, size_t len);

/* A name and its value, in tables that end with { NULL, 0 }. */
struct cv_name {
	const char *name;
	uint32_t value;
};

extern const struct cv_name cv_mem_flags[];	/* read, write, ... */
extern const struct cv_name cv_cell_flags[];	/* passive_comm */
extern const struct cv_name cv_mem_types[];	/* uc, wc, wt, wp, wb */
extern const struct cv_name cv_console_types[]; /* none, uart, hypercall */
extern const struct cv_name cv_int_pins[];	/* none, A, B, C, D */
extern const struct cv_name cv_bar_types[];	/* mem32, mem64, io */
extern const struct cv_name cv_link_access[];	/* directional, read-write */

/* Case-sensitive lookup; also accepts the aliases of a table (an entry
 * whose value appears earlier).  Returns 0 or -1. */
int cv_lookup(const struct cv_name *table, const char *name, uint32_t *value);
/* The first name with that value, or NULL. */
const char *cv_name_of(const struct cv_name *table, uint32_t value);
/* "read, write, ..." (each value once), for messages. */
void cv_names_list(const struct cv_name *table, char *buf, size_t len);

/* Output.  Sizes: "64M", "4K", "1G" when exact and below 1024 of the
 * unit, else "0x...". */
void cv_format_size(uint64_t v, char *buf, size_t len);
/* "0-3,5"; "" for an empty set. */
void cv_format_cpus(const struct warden_cpu_set *set, char *buf, size_t len);

/* CPU sets: the ABI's helpers (warden/abi.h). */
#define cv_cpu_in warden_cpu_in_set
#define cv_cpu_add warden_cpu_set_add

#endif /* WARDEN_TOOLS_CONFIG_VALUES_H */

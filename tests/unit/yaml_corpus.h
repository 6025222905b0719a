/* SPDX-License-Identifier: GPL-2.0 */
/*
 * YAML configs for the tests of the config front end (tools/config_yaml*.c)
 * and of the validator's builds, and for the fuzz seeds.
 *
 * The base system is the emulated test machine as in config_builder.h (1
 * GiB, CPUs 0-3, memmap=64M$0x30000000, hypervisor at 0x30000000+6M, the
 * rest of the reservation for cells, all ports but COM2); cell A takes CPU
 * 1, 16 MiB at 0x30600000 and COM3, cell B CPUs 2-3, the next 16 MiB and
 * COM4.
 *
 * In every snippet, the line that an error must point to ends with the
 * comment "#!" (a YAML comment: the parser ignores it).
 */
#ifndef WARDEN_TESTS_YAML_CORPUS_H
#define WARDEN_TESTS_YAML_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include <warden/error.h>

extern const char yc_system[];
extern const char yc_cell_a[];
extern const char yc_cell_b[];
/* With pins and PCI devices (config_builder.c's cb_*_pci). */
extern const char yc_system_pci[];
extern const char yc_cell_a_pci[];
extern const char yc_cell_b_pci[];
/* With the links too (cb_system_links). */
extern const char yc_system_links[];

/*
 * An invalid config.  A system case (cell NULL) validates system; a cell
 * case validates cell against system (yc_system when NULL) and, when
 * other is not NULL, that existing cell (cell id 1; cell is cell 2).  The
 * marked line is in cell, else other, else system.
 */
struct yc_invalid {
	const char *name;
	const char *system;
	const char *cell;
	const char *other;
	uint32_t rule;
	uint32_t kind;	     /* item kind of the record */
	const char *message; /* part of the printed sentence */
};

extern const struct yc_invalid yc_invalid[];
extern const size_t yc_n_invalid;

/* Front-end errors: the marked line and a part of the message. */
struct yc_syntax {
	const char *name;
	const char *yaml;
	const char *message;
};

extern const struct yc_syntax yc_syntax[];
extern const size_t yc_n_syntax;

/* Configs the front end accepts (not all valid), for round trips. */
extern const char *const yc_valid[];
extern const size_t yc_n_valid;

/* The 1-based line of text that ends with "#!", or 0. */
unsigned int yc_marked_line(const char *text);

#endif /* WARDEN_TESTS_YAML_CORPUS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pieces the YAML snippets of yaml_corpus.c and yaml_syntax.c are
 * made of (see yaml_corpus.h): lines of the base system and of cell A.
 */
#ifndef WARDEN_TESTS_YAML_PARTS_H
#define WARDEN_TESTS_YAML_PARTS_H

/* The base system: the same blob as config_builder.c builds. */
#define SYS_HEAD_NO_PLATFORM                                                   \
	"system:\n"                                                            \
	"  hypervisor_memory: {start: 0x30000000, size: 6M}\n"                 \
	"  debug_console: {type: uart, port: 0x2f8, baud: 115200}\n"
#define SYS_HEAD                                                               \
	SYS_HEAD_NO_PLATFORM                                                   \
	"  platform: {pm_timer_port: 0x608, mmconfig_base: 0xb0000000, "       \
	"mmconfig_end_bus: 255}\n"
#define ROOT_HEAD                                                              \
	"root_cell:\n"                                                         \
	"  name: linux\n"                                                      \
	"  cpus: 0-3\n"                                                        \
	"  console: {type: uart, port: 0x3f8}\n"
#define R_LOW                                                                  \
	"    - {phys: 0, size: 0x30000000, flags: [read, write, execute]}\n"
#define R_POOL                                                                 \
	"    - {phys: 0x30600000, size: 0x3a00000, flags: [read, write, "      \
	"execute]}\n"
#define R_HIGH                                                                 \
	"    - {phys: 0x34000000, size: 0xc000000, flags: [read, write, "      \
	"execute]}\n"
#define R_IOAPIC                                                               \
	"    - {phys: 0xfec00000, size: 4K, flags: [read, write, io]}\n"
#define R_PORTS "  ports: [0x0-0x2f7, 0x300-0xffff]\n"
#define ROOT_MEM "  memory:\n" R_LOW R_POOL R_HIGH R_IOAPIC

/* Cell A's lines. */
#define A_RAM                                                                  \
	"    - {phys: 0x30600000, guest: 0, size: 16M, flags: [read, write, "  \
	"execute, loadable]}\n"
#define A_COMM                                                                 \
	"    - {guest: 16M, size: 4K, flags: [read, write, comm_region]}\n"
#define A_CPUS "  cpus: 1\n"
#define A_RESET "  reset_address: 0x1000\n"
#define A_CONSOLE "  console: {type: uart, port: 0x3e8}\n"
#define A_PORTS "  ports: [0x3e8-0x3ef]\n"
#define A_MEM "  memory:\n" A_RAM A_COMM

#endif /* WARDEN_TESTS_YAML_PARTS_H */

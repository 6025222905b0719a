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

/* With pins and PCI devices: config_builder.c's cb_system_pci() and
 * cb_cell_pci(). */
#define R_PCI_WINDOW                                                           \
	"    - {phys: 0xfe000000, size: 0xc00000, flags: [read, write, io]}\n"
#define ROOT_MEM_PCI ROOT_MEM R_PCI_WINDOW
#define SYS_IOAPICS                                                            \
	"  ioapics:\n"                                                         \
	"    - {address: 0xfec00000, id: 0, gsi_base: 0, pins: 24}\n"
#define PCI_BRIDGE                                                             \
	"    - bdf: 00:00.0\n"                                                 \
	"      ids: 8086:29c0\n"
#define PCI_NIC_HEAD                                                           \
	"    - bdf: 00:03.0\n"                                                 \
	"      ids: 8086:100e\n"                                               \
	"      int_pin: A\n"                                                   \
	"      gsi: 19\n"                                                      \
	"      msi: true\n"
#define PCI_NIC_BARS                                                           \
	"      bars:\n"                                                        \
	"        - {bar: 0, address: 0xfebc0000, size: 128K, type: mem32}\n"   \
	"        - {bar: 1, address: 0xc000, size: 64, type: io}\n"
#define PCI_NIC PCI_NIC_HEAD PCI_NIC_BARS
#define PCI_DISK_HEAD                                                          \
	"    - bdf: 0000:00:04.0\n"                                            \
	"      ids: 1af4:1001\n"                                               \
	"      int_pin: A\n"                                                   \
	"      gsi: 20\n"                                                      \
	"      msix: true\n"
#define PCI_DISK_BARS                                                          \
	"      bars:\n"                                                        \
	"        - {bar: 0, address: 0xc040, size: 32, type: io}\n"            \
	"        - {bar: 1, address: 0xfebf0000, size: 4K, type: mem32}\n"     \
	"        - {bar: 4, address: 0xfe000000, size: 16K, type: mem64, "     \
	"prefetch: true}\n"
#define PCI_DISK PCI_DISK_HEAD PCI_DISK_BARS
#define ROOT_PCI                                                               \
	"  irq_pins: [4]\n"                                                    \
	"  pci_devices:\n" PCI_BRIDGE PCI_NIC PCI_DISK
/* Cell A with the NIC. */
#define A_NIC_MEM                                                              \
	"  memory:\n" A_RAM A_COMM "    - {phys: 0xfebc0000, size: 128K, "     \
	"flags: [read, write, io]}\n"
#define A_NIC_PORTS "  ports: [0x3e8-0x3ef, 0xc000+64]\n"
#define A_NIC_PINS "  irq_pins: [19]\n"
#define A_NIC_DEVICES                                                          \
	"  pci_devices:\n" PCI_NIC_HEAD "      dma_unisolated: "               \
	"true\n" PCI_NIC_BARS

/* The links of config_builder.c's cb_system_links(). */
#define LINK_ECHO_HEAD                                                         \
	"  - name: echo\n"                                                     \
	"    memory: {phys: 0x33c00000, size: 1M}\n"                           \
	"    access: directional\n"                                            \
	"    peers:\n"
#define LINK_ECHO_ROOT                                                         \
	"      - {cell: linux, bdf: 00:10.0, regs: 0xfe800000, vectors: 3}\n"
#define LINK_ECHO_A                                                            \
	"      - {cell: cell-a, bdf: 00:01.0, regs: 0x80000000, shmem: "       \
	"0x80100000, vectors: 3}\n"
#define LINK_ECHO LINK_ECHO_HEAD LINK_ECHO_ROOT LINK_ECHO_A
#define LINK_TRIO_HEAD                                                         \
	"  - name: trio\n"                                                     \
	"    memory: {phys: 0x33d00000, size: 1M}\n"                           \
	"    access: directional\n"                                            \
	"    peers:\n"                                                         \
	"      - cell: linux\n"                                                \
	"        bdf: 00:11.0\n"                                               \
	"        regs: 0xfe801000\n"                                           \
	"        shmem: 0x33d00000\n"                                          \
	"        vectors: 3\n"                                                 \
	"      - {cell: cell-a, bdf: 00:02.0, regs: 0x80001000, shmem: "       \
	"0x80200000, vectors: 3}\n"
#define LINK_TRIO_B                                                            \
	"      - {cell: cell-b, bdf: 00:01.0, regs: 0x80000000, shmem: "       \
	"0x80200000, vectors: 3}\n"
#define LINK_TRIO LINK_TRIO_HEAD LINK_TRIO_B
#define SYS_PCI SYS_HEAD SYS_IOAPICS ROOT_HEAD ROOT_MEM_PCI R_PORTS ROOT_PCI
#define SYS_LINKS SYS_PCI "links:\n" LINK_ECHO LINK_TRIO

#endif /* WARDEN_TESTS_YAML_PARTS_H */

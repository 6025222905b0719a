// SPDX-License-Identifier: GPL-2.0
/* YAML configs for the front-end and validator tests (yaml_corpus.h). */
#include "yaml_corpus.h"
#include "yaml_parts.h"

#define ITEM(k) WARDEN_ITEM_##k
#define RULE(r) WARDEN_RULE_##r

/* ---- the base configs (the same blobs as config_builder.c builds) ---- */

const char yc_system[] = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS;

const char yc_cell_a[] = "cell:\n"
			 "  name: cell-a\n"
			 "  cpus: 1\n"
			 "  reset_address: 0x1000\n"
			 "  console: {type: uart, port: 0x3e8}\n"
			 "  memory:\n" A_RAM A_COMM "  ports: [0x3e8-0x3ef]\n";

const char yc_cell_b[] = "cell:\n"
			 "  name: cell-b\n"
			 "  cpus: [2, 3]\n"
			 "  reset_address: 0x1000\n"
			 "  console:\n"
			 "    type: uart\n"
			 "    port: 0x2e8\n"
			 "  memory:\n"
			 "    - phys: 0x31600000\n"
			 "      guest: 0\n"
			 "      size: 0x1000000\n"
			 "      flags: read, write, execute, loadable\n"
			 "    - guest: 0x1000000\n"
			 "      size: 0x1000\n"
			 "      flags: [read, write, comm_region]\n"
			 "  ports:\n"
			 "    - {base: 0x2e8, length: 8}\n";

const char yc_system_pci[] =
	SYS_HEAD SYS_IOAPICS ROOT_HEAD ROOT_MEM_PCI R_PORTS ROOT_PCI;

#define A_PCI_HEAD                                                             \
	"cell:\n"                                                              \
	"  name: cell-a\n" A_CPUS A_RESET A_CONSOLE

const char yc_cell_a_pci[] =
	A_PCI_HEAD A_NIC_MEM A_NIC_PORTS A_NIC_PINS A_NIC_DEVICES;

const char yc_cell_b_pci[] =
	"cell:\n"
	"  name: cell-b\n"
	"  cpus: [2, 3]\n"
	"  reset_address: 0x1000\n"
	"  console: {type: uart, port: 0x2e8}\n"
	"  memory:\n"
	"    - {phys: 0x31600000, guest: 0, size: 16M, flags: [read, write, "
	"execute, loadable]}\n"
	"    - {guest: 16M, size: 4K, flags: [read, write, comm_region]}\n"
	"    - {phys: 0xfebf0000, size: 4K, flags: [read, write, io]}\n"
	"    - {phys: 0xfe000000, size: 16K, flags: [read, write, io]}\n"
	"  ports: [0x2e8+8, 0xc040+32]\n"
	"  irq_pins: [20]\n"
	"  pci_devices:\n" PCI_DISK_HEAD "      dma_unisolated: "
	"true\n" PCI_DISK_BARS;

const char yc_system_links[] = SYS_LINKS;

/* One YAML line per C line in the tables below. */
/* clang-format off */
const struct yc_invalid yc_invalid[] = {
	/* ---- system configs ---- */
	{ .name = "root-name-empty",
	  .system = SYS_HEAD
		    "root_cell:\n"
		    "  name: \"\" #!\n"
		    "  cpus: 0-3\n"
		    ROOT_MEM R_PORTS,
	  .rule = RULE(NAME_EMPTY), .kind = ITEM(CELL),
	  .message = "cell 0: the name is empty" },
	{ .name = "root-name-long",
	  .system = SYS_HEAD
		    "root_cell:\n"
		    "  name: linux-with-a-name-that-is-far-too-long #!\n"
		    "  cpus: 0-3\n"
		    ROOT_MEM R_PORTS,
	  .rule = RULE(NAME_UNTERMINATED), .kind = ITEM(CELL),
	  .message = "the name is longer than 31 characters" },
	{ .name = "root-name-tab",
	  .system = SYS_HEAD
		    "root_cell:\n"
		    "  name: \"li\\tnux\" #!\n"
		    "  cpus: 0-3\n"
		    ROOT_MEM R_PORTS,
	  .rule = RULE(NAME_NOT_PRINTABLE), .kind = ITEM(CELL),
	  .message = "the name has a non-printable byte 0x09 at 2" },
	{ .name = "root-flags",
	  .system = SYS_HEAD ROOT_HEAD
		    "  flags: [0x2] #!\n"
		    ROOT_MEM R_PORTS,
	  .rule = RULE(CELL_FLAGS), .kind = ITEM(CELL),
	  .message = "unknown cell flags 0x2 (allowed here: 0x1)" },
	{ .name = "root-no-cpus",
	  .system = SYS_HEAD
		    "root_cell:\n"
		    "  name: linux\n"
		    "  cpus: [] #!\n"
		    ROOT_MEM R_PORTS,
	  .rule = RULE(CPUS_EMPTY), .kind = ITEM(CELL),
	  .message = "the CPU set is empty" },
	{ .name = "root-no-cpu0",
	  .system = SYS_HEAD
		    "root_cell:\n"
		    "  name: linux\n"
		    "  cpus: 1-3 #!\n"
		    ROOT_MEM R_PORTS,
	  .rule = RULE(CPU0_NOT_ROOT), .kind = ITEM(CPU),
	  .message = "CPU 0: CPU 0 must stay in the root cell" },
	{ .name = "hv-unaligned",
	  .system = "system:\n"
		    "  hypervisor_memory: {start: 0x30000000, size: 0x5ff800} "
		    "#!\n"
		    "  debug_console: {type: uart, port: 0x2f8}\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .rule = RULE(HV_MEM), .kind = ITEM(SYSTEM),
	  .message = "system config: hypervisor memory 0x30000000+0x5ff800 is "
		     "unaligned or smaller than 0x100000" },
	{ .name = "hv-small",
	  .system = "system:\n"
		    "  hypervisor_memory: #!\n"
		    "    start: 0x30000000\n"
		    "    size: 512K\n"
		    "  debug_console: {type: uart, port: 0x2f8}\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .rule = RULE(HV_MEM), .kind = ITEM(SYSTEM),
	  .message = "0x30000000+0x80000 is" },
	{ .name = "hv-empty",
	  .system = "system:\n"
		    "  hypervisor_memory: {start: 0x30000000, size: 0} #!\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .rule = RULE(HV_MEM), .kind = ITEM(SYSTEM),
	  .message = "0x30000000+0x0 is" },
	{ .name = "hv-wraps",
	  .system = "system:\n"
		    "  hypervisor_memory: {start: 0xfffffffffff00000, size: "
		    "2M} #!\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .rule = RULE(HV_MEM), .kind = ITEM(SYSTEM),
	  .message = "0xfffffffffff00000+0x200000 is unaligned" },
	{ .name = "root-region-overlaps-hv",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    R_LOW
		    "    - {phys: 0x30400000, size: 0x3c00000, flags: [read, "
		    "write, execute]} #!\n"
		    R_HIGH R_IOAPIC R_PORTS,
	  .rule = RULE(MEM_OVERLAPS_HV), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[1] 0x30400000+0x3c00000: overlaps hypervisor "
		     "memory 0x30000000+0x600000" },
	{ .name = "root-region-unaligned",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    R_LOW R_POOL
		    "    - phys: 0x34000000 #! (an item's first line)\n"
		    "      guest: 0x34000800\n"
		    "      size: 0xc000000\n"
		    "      flags: [read, write, execute]\n"
		    R_IOAPIC R_PORTS,
	  .rule = RULE(MEM_UNALIGNED), .kind = ITEM(MEMORY_REGION),
	  .message = "" },
	{ .name = "root-region-empty",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    R_LOW R_POOL R_HIGH
		    "    - {phys: 0xfec00000, size: 0, flags: [read, write, "
		    "io]} #!\n"
		    R_PORTS,
	  .rule = RULE(MEM_EMPTY), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[3] 0xfec00000+0x0: the size is 0" },
	{ .name = "root-region-wraps",
	  .system = SYS_HEAD ROOT_HEAD ROOT_MEM
		    "    - {phys: 0xfffffffffff00000, guest: 0x50000000, "
		    "size: 2M, flags: [read]} #!\n"
		    R_PORTS,
	  .rule = RULE(MEM_WRAPS), .kind = ITEM(MEMORY_REGION),
	  .message = "the region wraps around the end of the address space" },
	{ .name = "root-region-overlap-phys",
	  .system = SYS_HEAD ROOT_HEAD ROOT_MEM
		    "    - {phys: 0x1000, guest: 0x50000000, size: 4K, flags: "
		    "[read]} #!\n"
		    R_PORTS,
	  .rule = RULE(MEM_OVERLAP), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[4] 0x1000+0x1000: overlaps memory[0] (physical "
		     "addresses)" },
	{ .name = "root-region-overlap-guest",
	  .system = SYS_HEAD ROOT_HEAD ROOT_MEM
		    "    - {phys: 0x50000000, guest: 0x2000, size: 4K, flags: "
		    "[read]} #!\n"
		    R_PORTS,
	  .rule = RULE(MEM_OVERLAP), .kind = ITEM(MEMORY_REGION),
	  .message = "overlaps memory[0] (guest-physical addresses)" },
	{ .name = "root-region-unknown-flag",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    "    - {phys: 0, size: 0x30000000, flags: [read, write, "
		    "execute, 0x80]} #!\n"
		    R_POOL R_HIGH R_IOAPIC R_PORTS,
	  .rule = RULE(MEM_FLAGS), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[0] 0x0+0x30000000: unknown flags 0x80" },
	{ .name = "root-comm-region",
	  .system = SYS_HEAD ROOT_HEAD ROOT_MEM
		    "    - {phys: 0x50000000, size: 4K, flags: [read, write, "
		    "comm_region]} #!\n"
		    R_PORTS,
	  .rule = RULE(MEM_FLAGS), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[4] 0x50000000+0x1000: unknown flags 0x20" },
	{ .name = "root-region-type-number",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    "    - {phys: 0, size: 0x30000000, flags: [read, write, "
		    "execute], type: 2} #!\n"
		    R_POOL R_HIGH R_IOAPIC R_PORTS,
	  .rule = RULE(MEM_TYPE), .kind = ITEM(MEMORY_REGION),
	  .message = "memory type 2 is not one of UC, WC, WT, WP, WB" },
	{ .name = "root-ram-uc",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    R_LOW R_POOL
		    "    - {phys: 0x34000000, size: 0xc000000, flags: [read, "
		    "write, execute], type: uc} #!\n"
		    R_IOAPIC R_PORTS,
	  .rule = RULE(MEM_TYPE_MISMATCH), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[2] 0x34000000+0xc000000: memory type 0, but this "
		     "kind of memory needs WB (RAM)" },
	{ .name = "root-ram-wc",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    R_LOW
		    "    - {phys: 0x30600000, size: 0x3a00000, flags: [read, "
		    "write, execute], type: WC} #!\n"
		    R_HIGH R_IOAPIC R_PORTS,
	  .rule = RULE(MEM_TYPE_MISMATCH), .kind = ITEM(MEMORY_REGION),
	  .message = "memory type 1, but this kind of memory needs WB (RAM)" },
	{ .name = "root-io-wb",
	  .system = SYS_HEAD ROOT_HEAD
		    "  memory:\n"
		    R_LOW R_POOL R_HIGH
		    "    - {phys: 0xfec00000, size: 4K, flags: [read, write, "
		    "io], type: wb} #!\n"
		    R_PORTS,
	  .rule = RULE(MEM_TYPE_MISMATCH), .kind = ITEM(MEMORY_REGION),
	  .message = "memory type 6, but this kind of memory needs UC (device)" },
	{ .name = "root-ports-empty",
	  .system = SYS_HEAD ROOT_HEAD ROOT_MEM
		    "  ports:\n"
		    "    - 0x0-0x2f7\n"
		    "    - {base: 0x300, length: 0} #!\n",
	  .rule = RULE(PIO_RANGE), .kind = ITEM(PIO_RANGE),
	  .message = "ports[1] 0x300+0x0: the range is empty or goes past "
		     "port 0xffff" },
	{ .name = "root-ports-past-end",
	  .system = SYS_HEAD ROOT_HEAD ROOT_MEM
		    "  ports:\n"
		    "    - 0x0-0x2f7\n"
		    "    - 0x300+0xfd01 #!\n",
	  .rule = RULE(PIO_RANGE), .kind = ITEM(PIO_RANGE),
	  .message = "ports[1] 0x300+0xfd01: the range is empty" },
	{ .name = "root-ports-overlap",
	  .system = SYS_HEAD ROOT_HEAD ROOT_MEM
		    "  ports:\n"
		    "    - 0x0-0x2f7\n"
		    "    - 0x300-0xffff\n"
		    "    - 0x60 #!\n",
	  .rule = RULE(PIO_OVERLAP), .kind = ITEM(PIO_RANGE),
	  .message = "ports[2] 0x60+0x1: overlaps ports[0]" },
	{ .name = "debug-console-hypercall",
	  .system = "system:\n"
		    "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		    "  debug_console: hypercall #!\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .rule = RULE(CONSOLE), .kind = ITEM(CONSOLE),
	  .message = "console: console type 2 at 0x0 is not supported" },
	{ .name = "debug-console-type",
	  .system = "system:\n"
		    "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		    "  debug_console: #!\n"
		    "    type: 9\n"
		    "    port: 0x2f8\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .rule = RULE(CONSOLE), .kind = ITEM(CONSOLE),
	  .message = "console type 9 at 0x2f8 is not supported" },
	{ .name = "debug-console-port",
	  .system = "system:\n"
		    "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		    "  debug_console: {type: uart, port: 0xfff9} #!\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .rule = RULE(CONSOLE), .kind = ITEM(CONSOLE),
	  .message = "console type 1 at 0xfff9 is not supported" },
	{ .name = "root-console-hypercall",
	  .system = SYS_HEAD
		    "root_cell:\n"
		    "  name: linux\n"
		    "  cpus: 0-3\n"
		    "  console: {type: hypercall} #!\n"
		    ROOT_MEM R_PORTS,
	  .rule = RULE(CONSOLE), .kind = ITEM(CONSOLE),
	  .message = "console type 2 at 0x0 is not supported" },

	/* ---- cells: against the base system and cell B ---- */
	{ .name = "cell-name-empty",
	  .cell = "cell:\n"
		  "  name: \"\" #!\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(NAME_EMPTY), .kind = ITEM(CELL),
	  .message = "cell 2: the name is empty" },
	{ .name = "cell-name-of-root",
	  .cell = "cell:\n"
		  "  name: linux #!\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(NAME_DUPLICATE), .kind = ITEM(CELL),
	  .message = "cell 2 \"linux\": the name is already used by cell 0" },
	{ .name = "cell-name-of-other",
	  .cell = "cell:\n"
		  "  name: cell-b #!\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(NAME_DUPLICATE), .kind = ITEM(CELL),
	  .message = "the name is already used by cell 1 (\"cell-b\", "
		     "other.yaml)" },
	{ .name = "cell-flags",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  "  flags: [passive_comm, 0x10] #!\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(CELL_FLAGS), .kind = ITEM(CELL),
	  .message = "unknown cell flags 0x10 (allowed here: 0xf)" },
	{ .name = "cell-no-cpus",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  "  cpus: #!\n"
		  A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(CPUS_EMPTY), .kind = ITEM(CELL),
	  .message = "cell 2 \"cell-a\": the CPU set is empty" },
	{ .name = "cell-cpu0",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  "  cpus: 0-1 #!\n"
		  A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(CPU0_NOT_ROOT), .kind = ITEM(CPU),
	  .message = "CPU 0: CPU 0 must stay in the root" },
	{ .name = "cell-cpu-not-present",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  "  cpus:\n"
		  "    - 1\n"
		  "    - 9 #!\n"
		  A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(CPU_NOT_PRESENT), .kind = ITEM(CPU),
	  .message = "CPU 9: does not exist (the machine has 4 CPUs)" },
	{ .name = "cell-cpu-of-other",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  "  cpus: [1, 2] #!\n"
		  A_RESET A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(CPU_IN_OTHER_CELL), .kind = ITEM(CPU),
	  .message = "CPU 2: already belongs to cell 1 (\"cell-b\", "
		     "other.yaml)" },
	{ .name = "cell-cpu-not-in-root",
	  .system = SYS_HEAD
		    "root_cell:\n"
		    "  name: linux\n"
		    "  cpus: 0,2-3\n"
		    ROOT_MEM R_PORTS,
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  "  cpus: 1 #!\n"
		  A_RESET A_CONSOLE A_MEM A_PORTS,
	  .rule = RULE(CPU_NOT_IN_ROOT), .kind = ITEM(CPU),
	  .message = "CPU 1: is not owned by the root cell" },
	{ .name = "cell-mem-not-in-root",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory:\n"
		  "    - {phys: 0x50000000, guest: 0, size: 16M, flags: "
		  "[read, write, execute, loadable]} #!\n"
		  A_COMM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(MEM_NOT_IN_ROOT), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[0] 0x50000000+0x1000000: is not memory of the "
		     "root cell" },
	{ .name = "cell-mem-across-root-regions",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory:\n"
		  "    - {phys: 0x33f00000, guest: 0, size: 2M, flags: [read, "
		  "write, execute, loadable]} #!\n"
		  A_COMM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(MEM_NOT_IN_ROOT), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[0] 0x33f00000+0x200000: is not memory of the "
		     "root cell" },
	{ .name = "cell-mem-overlaps-hv",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory:\n"
		  "    - {phys: 0x30400000, guest: 0, size: 16M, flags: "
		  "[read, write, execute, loadable]} #!\n"
		  A_COMM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(MEM_OVERLAPS_HV), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[0] 0x30400000+0x1000000: overlaps hypervisor "
		     "memory" },
	{ .name = "cell-mem-of-other",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory:\n"
		  "    - {phys: 0x31000000, guest: 0, size: 16M, flags: "
		  "[read, write, execute, loadable]} #!\n"
		  A_COMM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(MEM_IN_OTHER_CELL), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[0] 0x31000000+0x1000000: belongs to cell 1 "
		     "(\"cell-b\", other.yaml)" },
	{ .name = "cell-mem-overlap-guest",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM
		  "    - {phys: 0x32600000, guest: 8M, size: 1M, flags: "
		  "[read]} #!\n"
		  A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(MEM_OVERLAP), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[2] 0x32600000+0x100000: overlaps memory[0] "
		     "(guest-physical addresses)" },
	{ .name = "cell-mem-unaligned",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM
		  "    - {phys: 0x32600000, guest: 32M, size: 0x100800, "
		  "flags: [read]} #!\n"
		  A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(MEM_UNALIGNED), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[2] 0x32600000+0x100800: start, guest address "
		     "0x2000000 and size must be multiples of 4 KiB" },
	{ .name = "cell-io-wb",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM
		  "    - {phys: 0xfec00000, guest: 0xfec00000, size: 4K, "
		  "flags: [read, write, io], type: wb} #!\n"
		  A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(MEM_TYPE_MISMATCH), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[2] 0xfec00000+0x1000: memory type 6, but this "
		     "kind of memory needs UC (device)" },
	{ .name = "cell-no-comm-region",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory: #!\n"
		  A_RAM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(COMM_REGION_COUNT), .kind = ITEM(CELL),
	  .message = "has 0 communication regions, needs exactly 1" },
	{ .name = "cell-two-comm-regions",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory: #!\n"
		  A_RAM A_COMM
		  "    - {guest: 32M, size: 4K, flags: [read, comm_region]}\n"
		  A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(COMM_REGION_COUNT), .kind = ITEM(CELL),
	  .message = "has 2 communication regions, needs exactly 1" },
	{ .name = "cell-comm-two-pages",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory:\n"
		  A_RAM
		  "    - {guest: 16M, size: 8K, flags: [read, write, "
		  "comm_region]} #!\n"
		  A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(COMM_REGION_SHAPE), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[1] 0x0+0x2000: a communication region has "
		     "physical start 0 and is one page" },
	{ .name = "cell-comm-with-memory",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE
		  "  memory:\n"
		  A_RAM
		  "    - {phys: 0x32600000, guest: 16M, size: 4K, flags: "
		  "[read, write, comm_region]} #!\n"
		  A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(COMM_REGION_SHAPE), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[1] 0x32600000+0x1000: a communication region" },
	{ .name = "cell-reset-outside",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS
		  "  reset_address: 32M #!\n"
		  A_CONSOLE A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(RESET_NOT_LOADABLE), .kind = ITEM(CELL),
	  .message = "reset address 0x2000000 is not inside a loadable "
		     "executable region" },
	{ .name = "cell-reset-not-loadable",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS
		  "  reset_address: 0x1000 #!\n"
		  A_CONSOLE
		  "  memory:\n"
		  "    - {phys: 0x30600000, guest: 0, size: 16M, flags: "
		  "[read, write, execute]}\n"
		  A_COMM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(RESET_NOT_LOADABLE), .kind = ITEM(CELL),
	  .message = "reset address 0x1000 is not inside" },
	{ .name = "cell-reset-missing",
	  .cell = "cell: #!\n"
		  "  name: cell-a\n"
		  A_CPUS A_CONSOLE
		  "  memory:\n"
		  "    - {phys: 0x30600000, guest: 1M, size: 15M, flags: "
		  "[read, write, execute, loadable]}\n"
		  A_COMM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(RESET_NOT_LOADABLE), .kind = ITEM(CELL),
	  .message = "cell 2 \"cell-a\": reset address 0x0" },
	{ .name = "cell-ports-not-in-root",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM
		  "  ports:\n"
		  "    - 0x3e8-0x3ef\n"
		  "    - 0x2f8-0x2ff #!\n",
	  .other = yc_cell_b,
	  .rule = RULE(PIO_NOT_IN_ROOT), .kind = ITEM(PIO_RANGE),
	  .message = "ports[1] 0x2f8+0x8: the ports are not owned by the root "
		     "cell" },
	{ .name = "cell-ports-of-other",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM
		  "  ports:\n"
		  "    - 0x3e8-0x3ef\n"
		  "    - 0x2e8+8 #!\n",
	  .other = yc_cell_b,
	  .rule = RULE(PIO_IN_OTHER_CELL), .kind = ITEM(PIO_RANGE),
	  .message = "ports[1] 0x2e8+0x8: the ports belong to cell 1" },
	{ .name = "cell-ports-overlap",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET A_CONSOLE A_MEM
		  "  ports:\n"
		  "    - 0x3e8-0x3ef\n"
		  "    - 0x3ec #!\n",
	  .other = yc_cell_b,
	  .rule = RULE(PIO_OVERLAP), .kind = ITEM(PIO_RANGE),
	  .message = "ports[1] 0x3ec+0x1: overlaps ports[0]" },
	{ .name = "cell-console-ports",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET
		  "  console: {type: uart, port: 0x3f8} #!\n"
		  A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(CONSOLE_PORTS), .kind = ITEM(CONSOLE),
	  .message = "console: UART ports 0x3f8-0x3ff are not all in the "
		     "cell's own port ranges" },
	{ .name = "cell-console-type",
	  .cell = "cell:\n"
		  "  name: cell-a\n"
		  A_CPUS A_RESET
		  "  console: {type: 7, port: 0x3e8} #!\n"
		  A_MEM A_PORTS,
	  .other = yc_cell_b,
	  .rule = RULE(CONSOLE), .kind = ITEM(CONSOLE),
	  .message = "console: console type 7 at 0x3e8 is not supported" },
	{ .name = "cell-invalid-system",
	  .system = "system: #!\n"
		    "  hypervisor_memory: {start: 0x30000000, size: 0}\n"
		    ROOT_HEAD ROOT_MEM R_PORTS,
	  .cell = yc_cell_a,
	  .rule = RULE(CONFIG_CONTEXT), .kind = ITEM(SYSTEM),
	  .message = "system.yaml:1: system config: this config, needed to "
		     "check the new one, is itself invalid (1 errors)" },
	{ .name = "cell-invalid-other",
	  .cell = yc_cell_a,
	  .other = "cell: #!\n"
		   "  name: cell-b\n"
		   "  cpus: 0\n"
		   A_RESET A_MEM,
	  .rule = RULE(CONFIG_CONTEXT), .kind = ITEM(CELL),
	  .message = "cell 1 \"cell-b\": this config, needed to check the new "
		     "one, is itself invalid (1 errors)" },
	/* ---- IOAPICs, pins and PCI devices ---- */
	{ .name = "ioapic-unaligned",
	  .system = SYS_HEAD
		    "  ioapics:\n"
		    "    - {address: 0xfec00800, pins: 24} #!\n"
		    ROOT_HEAD ROOT_MEM_PCI R_PORTS ROOT_PCI,
	  .rule = RULE(IOAPIC_ADDRESS), .kind = ITEM(IOAPIC),
	  .message = "ioapics[0] 0xfec00800: the address must be a non-zero "
		     "multiple of 4 KiB" },
	{ .name = "ioapic-overlap",
	  .system = SYS_HEAD SYS_IOAPICS
		    "    - {address: 0xfec01000, gsi_base: 16, pins: 24} #!\n"
		    ROOT_HEAD ROOT_MEM_PCI R_PORTS ROOT_PCI,
	  .rule = RULE(IOAPIC_OVERLAP), .kind = ITEM(IOAPIC),
	  .message = "its GSI range overlaps that of ioapics[0]" },
	{ .name = "root-pin-no-ioapic",
	  .system = SYS_HEAD SYS_IOAPICS ROOT_HEAD ROOT_MEM_PCI R_PORTS
		    "  irq_pins:\n"
		    "    - 4\n"
		    "    - 24 #!\n"
		    "  pci_devices:\n" PCI_BRIDGE PCI_NIC PCI_DISK,
	  .rule = RULE(PIN_NO_IOAPIC), .kind = ITEM(IRQ_PIN),
	  .message = "irq_pins[1] GSI 24: is not an input of any IOAPIC" },
	{ .name = "root-dma-unisolated",
	  .system = SYS_HEAD SYS_IOAPICS ROOT_HEAD ROOT_MEM_PCI R_PORTS
		    "  irq_pins: [4]\n"
		    "  pci_devices:\n"
		    PCI_BRIDGE
		    "    - bdf: 00:03.0 #!\n"
		    "      ids: 8086:100e\n"
		    "      dma_unisolated: true\n",
	  .rule = RULE(PCI_FLAGS), .kind = ITEM(PCI_DEVICE),
	  .message = "PCI device 00:03.0: unknown flags 0x4 (dma_unisolated: "
		     "only a cell takes a device)" },
	{ .name = "root-bar-unaligned",
	  .system = SYS_HEAD SYS_IOAPICS ROOT_HEAD ROOT_MEM_PCI R_PORTS
		    "  pci_devices:\n"
		    "    - bdf: 00:03.0 #!\n"
		    "      ids: 8086:100e\n"
		    "      bars: [{bar: 0, address: 0xfebc1000, size: 128K, "
		    "type: mem32}]\n",
	  .rule = RULE(PCI_BAR), .kind = ITEM(PCI_DEVICE),
	  .message = "BAR 0: address 0xfebc1000 is not aligned to its size" },
	{ .name = "cell-device-without-pin",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0 #!\n"
		  "      ids: 8086:100e\n"
		  "      int_pin: A\n"
		  "      gsi: 19\n"
		  "      msi: true\n"
		  "      dma_unisolated: true\n"
		  PCI_NIC_BARS,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PCI_PIN_NOT_OWNED), .kind = ITEM(PCI_DEVICE),
	  .message = "PCI device 00:03.0: its INTx drives GSI 19, which the "
		     "cell does not own (add it to irq_pins)" },
	{ .name = "cell-device-dma",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS A_NIC_PINS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0 #!\n"
		  "      ids: 8086:100e\n"
		  "      int_pin: A\n"
		  "      gsi: 19\n"
		  "      msi: true\n"
		  PCI_NIC_BARS,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PCI_DMA), .kind = ITEM(PCI_DEVICE),
	  .message = "no IOMMU confines its DMA" },
	{ .name = "cell-bar-not-mapped",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_MEM A_NIC_PORTS A_NIC_PINS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0 #!\n"
		  "      ids: 8086:100e\n"
		  "      int_pin: A\n"
		  "      gsi: 19\n"
		  "      msi: true\n"
		  "      dma_unisolated: true\n"
		  PCI_NIC_BARS,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PCI_BAR_NOT_MAPPED), .kind = ITEM(PCI_DEVICE),
	  .message = "BAR 0 0xfebc0000+0x20000 is not inside one io memory "
		     "region" },
	{ .name = "cell-pin-unused",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS
		  "  irq_pins:\n"
		  "    - 19\n"
		  "    - 22 #!\n"
		  A_NIC_DEVICES,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PIN_UNUSED), .kind = ITEM(IRQ_PIN),
	  .message = "irq_pins[1] GSI 22: not an ISA IRQ" },
	{ .name = "cell-pin-of-root",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS
		  "  irq_pins: [19,\n"
		  "             4] #!\n"
		  A_NIC_DEVICES,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PIN_ROOT_NEEDS), .kind = ITEM(IRQ_PIN),
	  .message = "irq_pins[1] GSI 4: the root cell needs it" },
	{ .name = "cell-pin-of-other",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS
		  "  irq_pins:\n"
		  "    - 19\n"
		  "    - 20 #!\n"
		  A_NIC_DEVICES,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PIN_IN_OTHER_CELL), .kind = ITEM(IRQ_PIN),
	  .message = "irq_pins[1] GSI 20: belongs to cell 1" },
	{ .name = "cell-device-not-in-system",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS A_NIC_PINS
		  "  pci_devices:\n"
		  "    - bdf: 00:07.0 #!\n"
		  "      ids: 8086:100e\n"
		  "      dma_unisolated: true\n",
	  .other = yc_cell_b_pci,
	  .rule = RULE(PCI_NOT_IN_SYSTEM), .kind = ITEM(PCI_DEVICE),
	  .message = "PCI device 00:07.0: is not in the system config's list" },
	{ .name = "cell-device-differs",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS A_NIC_PINS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0 #!\n"
		  "      ids: 8086:100f\n"
		  "      int_pin: A\n"
		  "      gsi: 19\n"
		  "      msi: true\n"
		  "      dma_unisolated: true\n"
		  PCI_NIC_BARS,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PCI_MISMATCH), .kind = ITEM(PCI_DEVICE),
	  .message = "device id is 0x100f, but the system config has 0x100e" },
	{ .name = "cell-device-of-other",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS A_NIC_PINS
		  "  pci_devices:\n" PCI_NIC_HEAD "      dma_unisolated: true\n"
		  PCI_NIC_BARS
		  "    - bdf: 00:00.0 #!\n"
		  "      ids: 8086:29c0\n"
		  "      dma_unisolated: true\n",
	  .other = "cell:\n"
		   "  name: cell-b\n"
		   "  cpus: [2, 3]\n"
		   A_RESET
		   "  memory:\n"
		   "    - {phys: 0x31600000, guest: 0, size: 16M, flags: "
		   "[read, write, execute, loadable]}\n"
		   "    - {guest: 16M, size: 4K, flags: [read, write, "
		   "comm_region]}\n"
		   "  pci_devices:\n"
		   "    - {bdf: 00:00.0, ids: 8086:29c0, dma_unisolated: true}\n",
	  .rule = RULE(PCI_IN_OTHER_CELL), .kind = ITEM(PCI_DEVICE),
	  .message = "PCI device 00:00.0: belongs to cell 1" },
	{ .name = "cell-region-over-bar",
	  .system = yc_system_pci,
	  .cell = A_PCI_HEAD A_NIC_MEM
		  "    - {phys: 0xfebf0000, size: 4K, flags: [read, io]} #!\n"
		  A_NIC_PORTS A_NIC_PINS A_NIC_DEVICES,
	  .other = yc_cell_b_pci,
	  .rule = RULE(MEM_PCI_BAR), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[3] 0xfebf0000+0x1000: overlaps BAR 1 of PCI "
		     "device 00:04.0, which the cell does not take" },
	{ .name = "cell-intx-shared",
	  .system = SYS_HEAD SYS_IOAPICS ROOT_HEAD ROOT_MEM_PCI R_PORTS
		    ROOT_PCI
		    "    - {bdf: 00:05.1, ids: 8086:29c0, int_pin: B, gsi: 19}\n",
	  .cell = A_PCI_HEAD A_NIC_MEM A_NIC_PORTS A_NIC_PINS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0 #!\n"
		  "      ids: 8086:100e\n"
		  "      int_pin: A\n"
		  "      gsi: 19\n"
		  "      msi: true\n"
		  "      dma_unisolated: true\n"
		  PCI_NIC_BARS,
	  .other = yc_cell_b_pci,
	  .rule = RULE(PCI_INTX_SHARED), .kind = ITEM(PCI_DEVICE),
	  .message = "its INTx shares GSI 19 with PCI device 00:05.1" },
	/* ---- links ---- */
	{ .name = "link-name-twice",
	  .system = SYS_PCI "links:\n" LINK_ECHO
		    "  - name: echo #!\n"
		    "    memory: {phys: 0x33d00000, size: 1M}\n"
		    "    access: directional\n"
		    "    peers:\n"
		    LINK_ECHO_ROOT LINK_ECHO_A,
	  .rule = RULE(LINK_FIELDS), .kind = ITEM(LINK),
	  .message = "links[1] \"echo\": the name is already used by "
		     "links[0]" },
	{ .name = "link-access",
	  .system = SYS_PCI "links:\n"
		    "  - name: echo\n"
		    "    memory: {phys: 0x33c00000, size: 1M}\n"
		    "    access: 5 #!\n"
		    "    peers:\n"
		    LINK_ECHO_ROOT LINK_ECHO_A,
	  .rule = RULE(LINK_FIELDS), .kind = ITEM(LINK),
	  .message = "links[0] \"echo\": unknown flags 0x4" },
	{ .name = "link-one-peer",
	  .system = SYS_PCI "links:\n"
		    "  - name: echo\n"
		    "    memory: {phys: 0x33c00000, size: 1M}\n"
		    "    access: directional\n"
		    "    peers: #!\n"
		    LINK_ECHO_ROOT,
	  .rule = RULE(LINK_FIELDS), .kind = ITEM(LINK),
	  .message = "1 peers, but a link has 2 to 4" },
	{ .name = "link-size",
	  .system = SYS_PCI "links:\n"
		    "  - name: echo\n"
		    "    memory: {phys: 0x33c00000, size: 0x30000} #!\n"
		    "    access: directional\n"
		    "    peers:\n"
		    LINK_ECHO_ROOT LINK_ECHO_A,
	  .rule = RULE(LINK_MEMORY), .kind = ITEM(LINK),
	  .message = "memory 0x33c00000+0x30000: the size must be a power "
		     "of 2 of at least 64 KiB" },
	{ .name = "link-over-link",
	  .system = SYS_PCI "links:\n" LINK_ECHO
		    "  - name: trio\n"
		    "    memory: {phys: 0x33c00000, size: 1M} #!\n"
		    "    access: read-write\n"
		    "    peers:\n"
		    LINK_ECHO_ROOT LINK_TRIO_B,
	  .rule = RULE(LINK_MEMORY_OVERLAP), .kind = ITEM(LINK),
	  .message = "overlaps the memory of links[0]" },
	{ .name = "link-cell-twice",
	  .system = SYS_PCI "links:\n" LINK_ECHO_HEAD LINK_ECHO_ROOT
		    LINK_ECHO_A
		    "      - {cell: cell-a, bdf: 00:02.0, regs: 0x90000000, "
		    "shmem: 0x90100000, vectors: 1} #!\n",
	  .rule = RULE(LINK_PEER), .kind = ITEM(LINK),
	  .message = "peer 2: names the same cell as peer 1 (a cell is a "
		     "peer of a link once) (cell \"cell-a\")" },
	{ .name = "link-root-bdf",
	  .system = SYS_PCI "links:\n" LINK_ECHO_HEAD
		    "      - {cell: linux, bdf: 00:03.0, regs: 0xfe800000, "
		    "vectors: 3} #!\n"
		    LINK_ECHO_A,
	  .rule = RULE(LINK_PEER_BDF), .kind = ITEM(LINK),
	  .message = "peer 0: PCI function 00:03.0 is in use" },
	{ .name = "link-root-regs",
	  .system = SYS_PCI "links:\n" LINK_ECHO_HEAD
		    "      - {cell: linux, bdf: 00:10.0, regs: 0x1000, "
		    "vectors: 3} #!\n"
		    LINK_ECHO_A,
	  .rule = RULE(LINK_PEER_ADDRESS), .kind = ITEM(LINK),
	  .message = "peer 0: regs 0x1000 is not inside one io region of "
		     "the root cell" },
	{ .name = "link-vectors",
	  .system = SYS_PCI "links:\n" LINK_ECHO_HEAD LINK_ECHO_ROOT
		    "      - cell: cell-a #!\n"
		    "        bdf: 00:01.0\n"
		    "        regs: 0x80000000\n"
		    "        shmem: 0x80100000\n"
		    "        vectors: 9\n",
	  .rule = RULE(LINK_PEER_VECTORS), .kind = ITEM(LINK),
	  .message = "links[0] \"echo\": peer 1: 9 vectors, but a peer has "
		     "1 to 4 (cell \"cell-a\")" },
	{ .name = "cell-region-over-link",
	  .system = SYS_LINKS,
	  .cell = "cell:\n"
		  "  name: cell-a\n" A_CPUS A_RESET A_CONSOLE
		  "  memory:\n" A_RAM A_COMM
		  "    - {phys: 0x33c00000, guest: 32M, size: 4K, flags: "
		  "[read, write]} #!\n"
		  A_PORTS,
	  .rule = RULE(LINK_MEMORY_OVERLAP), .kind = ITEM(MEMORY_REGION),
	  .message = "memory[2] 0x33c00000+0x1000: overlaps the memory of "
		     "links[0] \"echo\"" },
	{ .name = "cell-link-bdf",
	  .system = SYS_PCI "links:\n" LINK_ECHO_HEAD LINK_ECHO_ROOT
		    "      - {cell: cell-a, bdf: 00:03.0, regs: 0x80000000, "
		    "shmem: 0x80100000, vectors: 3} #!\n",
	  .cell = "cell:\n"
		  "  name: cell-a\n" A_CPUS A_RESET A_CONSOLE
		  A_NIC_MEM A_NIC_PORTS A_NIC_PINS A_NIC_DEVICES,
	  .rule = RULE(LINK_PEER_BDF), .kind = ITEM(LINK),
	  .message = "links[0] \"echo\": peer 1: PCI function 00:03.0 is in "
		     "use" },
	{ .name = "cell-link-regs",
	  .system = SYS_PCI "links:\n" LINK_ECHO_HEAD LINK_ECHO_ROOT
		    "      - {cell: cell-a, bdf: 00:01.0, regs: 0x2000, shmem: "
		    "0x80100000, vectors: 3} #!\n",
	  .cell = yc_cell_a,
	  .rule = RULE(LINK_PEER_ADDRESS), .kind = ITEM(LINK),
	  .message = "peer 1: 0x2000 (regs or shmem) overlaps the cell's "
		     "memory (guest-physical) (cell \"cell-a\")" },
};
/* clang-format on */

const size_t yc_n_invalid = sizeof(yc_invalid) / sizeof(yc_invalid[0]);

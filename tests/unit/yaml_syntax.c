// SPDX-License-Identifier: GPL-2.0
/* Front-end errors and accepted YAML for the tests (yaml_corpus.h). */
#include <string.h>

#include "yaml_corpus.h"
#include "yaml_parts.h"

/* clang-format off */
const struct yc_syntax yc_syntax[] = {
	{ .name = "unknown-top-key",
	  .yaml = "sytem: #!\n"
		  "  hypervisor_memory: {}\n",
	  .message = "unknown key 'sytem' in the file (known: system, "
		     "root_cell, cell, links, boot)" },
	{ .name = "boot-in-system-config",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {phys: 0x30000000, size: 6M}\n"
		  "boot: #!\n"
		  "  start: true\n",
	  .message = "'boot:' belongs in a cell config, beside 'cell:'" },
	{ .name = "unknown-cell-key",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpu: 1 #!\n"
		  A_CPUS,
	  .message = "unknown key 'cpu' in cell (known: name, flags, cpus, "
		     "reset_address, console, memory, ports, irq_pins, "
		     "pci_devices)" },
	{ .name = "unknown-region-key",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - phys: 0\n"
		  "      sise: 4K #!\n"
		  "      flags: [read]\n",
	  .message = "unknown key 'sise' in memory[0] (known: phys, guest, "
		     "size, flags, type)" },
	{ .name = "unknown-platform-key",
	  .yaml = SYS_HEAD
		  "  platfrom: {} #!\n"
		  ROOT_HEAD ROOT_MEM R_PORTS,
	  .message = "unknown key 'platfrom' in system" },
	{ .name = "duplicate-key",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  name: y #!\n",
	  .message = "duplicate key 'name' in cell" },
	{ .name = "bad-number",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - {phys: 0x3z, size: 4K, flags: [read]} #!\n",
	  .message = "memory[0].phys: '0x3z' is not a number" },
	{ .name = "bad-unit",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - {phys: 0, size: 12Q, flags: [read]} #!\n",
	  .message = "memory[0].size: '12Q' is not a number" },
	{ .name = "number-too-large",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  reset_address: 0x10000000000000000 #!\n",
	  .message = "'0x10000000000000000' is too large for 64 bits" },
	{ .name = "size-overflows",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - {phys: 0, size: 0x10000000000T, flags: [read]} #!\n",
	  .message = "is too large for 64 bits" },
	{ .name = "field-too-small",
	  .yaml = SYS_HEAD_NO_PLATFORM
		  "  platform: {pm_timer_port: 0x10000} #!\n"
		  ROOT_HEAD ROOT_MEM R_PORTS,
	  .message = "platform.pm_timer_port: 0x10000 is larger than 0xffff" },
	{ .name = "number-missing",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - {phys: 0, size: , flags: [read]} #!\n",
	  .message = "memory[0].size: a number is needed, not an empty value" },
	{ .name = "cpu-range-reversed",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpus: 3-1 #!\n",
	  .message = "cell.cpus: '3-1' has a bad CPU range (the first CPU is "
		     "above the last)" },
	{ .name = "cpu-listed-twice",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpus: [1, 1] #!\n",
	  .message = "cell.cpus: CPU 1 is listed twice (first on line 3)" },
	{ .name = "cpu-twice-in-range",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpus: 0-3,2 #!\n",
	  .message = "cell.cpus: '0-3,2' names a CPU twice" },
	{ .name = "cpu-range-open",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpus: 1- #!\n",
	  .message = "'1-' has a bad CPU range" },
	{ .name = "cpu-too-high",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpus: [1, 256] #!\n",
	  .message = "'256' names a CPU above 255" },
	{ .name = "cpu-not-a-number",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpus: one #!\n",
	  .message = "'one' is not a CPU list such as 0-3,5" },
	{ .name = "flag-name",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - phys: 0\n"
		  "      size: 4K\n"
		  "      flags: [read, wirte] #!\n",
	  .message = "memory[0].flags: unknown name 'wirte' (known: read, "
		     "write, execute, io, loadable, comm_region, root_shared)" },
	{ .name = "cell-flag-name",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  flags: passive #!\n",
	  .message = "cell.flags: unknown name 'passive' (known: passive_comm, access_log, legacy_quiet, linux)" },
	{ .name = "memory-type-name",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - {phys: 0, size: 4K, flags: [read], type: wx} #!\n",
	  .message = "memory[0].type: unknown name 'wx' (known: uc, wc, wt, "
		     "wp, wb)" },
	{ .name = "console-type-name",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  console:\n"
		  "    type: serial #!\n",
	  .message = "cell.console.type: unknown name 'serial' (known: none, "
		     "uart, hypercall)" },
	{ .name = "ports-reversed",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  ports: [0x3ff-0x3f8] #!\n",
	  .message = "ports[0]: '0x3ff-0x3f8' has a bad port range" },
	{ .name = "port-too-high",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  ports:\n"
		  "    - 0x10000-0x10007 #!\n",
	  .message = "'0x10000-0x10007' has a port above 0xffff" },
	{ .name = "port-base-too-high",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  ports:\n"
		  "    - {base: 0x10000, length: 8} #!\n",
	  .message = "ports[0].base: 0x10000 is larger than 0xffff" },
	{ .name = "size-missing",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - {phys: 0, flags: [read]} #!\n",
	  .message = "memory[0]: 'size' is missing" },
	{ .name = "phys-missing",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - {size: 4K, flags: [read]} #!\n",
	  .message = "memory[0]: 'phys' is missing" },
	{ .name = "name-missing",
	  .yaml = "cell: #!\n"
		  A_CPUS,
	  .message = "cell: 'name' is missing" },
	{ .name = "cpus-missing",
	  .yaml = "cell: #!\n"
		  "  name: x\n",
	  .message = "cell: 'cpus' is missing" },
	{ .name = "hv-memory-missing",
	  .yaml = "system: #!\n"
		  "  debug_console: none\n"
		  ROOT_HEAD ROOT_MEM R_PORTS,
	  .message = "system: 'hypervisor_memory' is missing" },
	{ .name = "root-cell-missing",
	  .yaml = "system: #!\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n",
	  .message = "'root_cell:' is missing" },
	{ .name = "system-and-cell",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "cell: #!\n"
		  "  name: x\n",
	  .message = "not both" },
	{ .name = "memory-not-a-list",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory: {phys: 0} #!\n",
	  .message = "memory must be a list (- item), not a mapping" },
	{ .name = "region-not-a-mapping",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  memory:\n"
		  "    - 0x1000 #!\n",
	  .message = "memory[0] must be a mapping (key: value), not a value" },
	{ .name = "yaml-syntax",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  "  cpus: [1, 2\n"
		  "  memory: [] #!\n",
	  .message = "YAML: did not find expected ',' or ']'" },
	{ .name = "two-documents",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "--- #!\n"
		  "cell: {}\n",
	  .message = "only one YAML document per file" },
	{ .name = "not-a-mapping",
	  .yaml = "- just #!\n"
		  "- a list\n",
	  .message = "the file must be a mapping (key: value), not a list" },
	{ .name = "empty",
	  .yaml = "# nothing here #!\n",
	  .message = "the file is empty: a 'system:' or 'cell:' config is "
		     "needed" },
	/* IOAPICs, pins and PCI devices */
	{ .name = "bdf",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:20.0 #!\n"
		  "      ids: 8086:100e\n",
	  .message = "pci_devices[0].bdf: '00:20.0' is not a PCI function" },
	{ .name = "ids",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0\n"
		  "      ids: 8086 #!\n",
	  .message = "pci_devices[0].ids: '8086' is not a vendor:device pair" },
	{ .name = "ids-missing",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0 #!\n",
	  .message = "pci_devices[0]: 'ids' (vendor:device) is missing" },
	{ .name = "int-pin",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0\n"
		  "      ids: 8086:100e\n"
		  "      int_pin: E #!\n",
	  .message = "pci_devices[0].int_pin: unknown name 'E' (known: none, "
		     "A, B, C, D)" },
	{ .name = "msi-not-bool",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0\n"
		  "      ids: 8086:100e\n"
		  "      msi: 1 #!\n",
	  .message = "pci_devices[0].msi: true or false is needed" },
	{ .name = "bar-twice",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0\n"
		  "      ids: 8086:100e\n"
		  "      bars:\n"
		  "        - {bar: 0, address: 0xc000, size: 64, type: io}\n"
		  "        - {bar: 0, address: 0xc000, size: 64, type: io} #!\n",
	  .message = "pci_devices[0].bars[1]: BAR 0 is listed twice" },
	{ .name = "bar-6",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0\n"
		  "      ids: 8086:100e\n"
		  "      bars:\n"
		  "        - {bar: 6, #!\n"
		  "           address: 0xc000, size: 64, type: io}\n",
	  .message = "pci_devices[0].bars[0].bar: 6 is larger than 0x5" },
	{ .name = "bar-type",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  pci_devices:\n"
		  "    - bdf: 00:03.0\n"
		  "      ids: 8086:100e\n"
		  "      bars:\n"
		  "        - {bar: 0, address: 0xc000, size: 64,\n"
		  "           type: port} #!\n",
	  .message = "bars[0].type: unknown name 'port' (known: mem32, mem64, "
		     "io)" },
	{ .name = "pin-not-number",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "  irq_pins: [3,\n"
		  "    x] #!\n",
	  .message = "irq_pins[1]: 'x' is not a number" },
	{ .name = "ioapic-pins-missing",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "  ioapics:\n"
		  "    - {address: 0xfec00000} #!\n"
		  "root_cell:\n"
		  "  name: linux\n"
		  "  cpus: 0\n",
	  .message = "ioapics[0]: 'pins' is missing" },
	{ .name = "ioapic-pins-too-many",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "  ioapics:\n"
		  "    - {address: 0xfec00000,\n"
		  "       pins: 256} #!\n"
		  "root_cell:\n"
		  "  name: linux\n"
		  "  cpus: 0\n",
	  .message = "ioapics[0].pins: 256 is larger than 0xff" },
	{ .name = "ioapic-source-id-segment",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "  ioapics:\n"
		  "    - {address: 0xfec00000, pins: 24,\n"
		  "       source_id: 0001:ff:00.0} #!\n"
		  "root_cell:\n"
		  "  name: linux\n"
		  "  cpus: 0\n",
	  .message = "ioapics[0].source_id: '0001:ff:00.0' is not a "
		     "requester id such as ff:00.0" },
	/* IOMMU units */
	{ .name = "iommu-base-missing",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "  iommus:\n"
		  "    - {segment: 0} #!\n"
		  "root_cell:\n"
		  "  name: linux\n"
		  "  cpus: 0\n",
	  .message = "iommus[0]: 'base' is missing" },
	{ .name = "iommu-scope-entry",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "  iommus:\n"
		  "    - base: 0xfed90000\n"
		  "      scope:\n"
		  "        - 00:02.0\n"
		  "        - 05-03 #!\n"
		  "root_cell:\n"
		  "  name: linux\n"
		  "  cpus: 0\n",
	  .message = "iommus[0].scope[1]: '05-03' is neither a function "
		     "such as 00:02.0 nor a bus range" },
	{ .name = "iommu-scope-nine",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "  iommus:\n"
		  "    - base: 0xfed90000\n"
		  "      scope: [00:01.0, 00:02.0, 00:03.0, 00:04.0, #!\n"
		  "              00:05.0, 00:06.0, 00:07.0, 00:08.0, 00:09.0]\n"
		  "root_cell:\n"
		  "  name: linux\n"
		  "  cpus: 0\n",
	  .message = "iommus[0].scope: 9 entries, at most 8" },
	{ .name = "iommu-include-all-word",
	  .yaml = "system:\n"
		  "  hypervisor_memory: {start: 0x30000000, size: 6M}\n"
		  "  iommus:\n"
		  "    - {base: 0xfed90000,\n"
		  "       include_pci_all: maybe} #!\n"
		  "root_cell:\n"
		  "  name: linux\n"
		  "  cpus: 0\n",
	  .message = "iommus[0].include_pci_all:" },
	/* links */
	{ .name = "links-in-cell",
	  .yaml = "cell:\n"
		  "  name: x\n"
		  A_CPUS
		  "links: [] #!\n",
	  .message = "links belong in the system config" },
	{ .name = "links-not-a-list",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links: {name: x} #!\n",
	  .message = "links must be a list (- item), not a mapping" },
	{ .name = "unknown-link-key",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links:\n"
		  "  - name: x\n"
		  "    acess: directional #!\n",
	  .message = "unknown key 'acess' in links[0] (known: name, memory, "
		     "access, peers, doorbell_rate)" },
	{ .name = "link-no-memory",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links:\n"
		  "  - name: x #!\n"
		  "    access: directional\n"
		  "    peers: []\n",
	  .message = "links[0]: 'memory' ({phys, size}: from the memmap= "
		     "reservation) is missing" },
	{ .name = "link-access-name",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links:\n"
		  "  - name: x\n"
		  "    memory: {phys: 0x33c00000, size: 1M}\n"
		  "    access: oneway #!\n"
		  "    peers: []\n",
	  .message = "links[0].access: unknown name 'oneway' (known: "
		     "read-write, directional)" },
	{ .name = "link-five-peers",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links:\n"
		  "  - name: x\n"
		  "    memory: {phys: 0x33c00000, size: 1M}\n"
		  "    access: directional\n"
		  "    peers: [{}, {}, {}, {}, {}] #!\n",
	  .message = "links[0].peers: 5 peers, a link has 2 to 4" },
	{ .name = "link-cell-peer-without-shmem",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links:\n"
		  "  - name: x\n"
		  "    memory: {phys: 0x33c00000, size: 1M}\n"
		  "    access: directional\n"
		  "    peers:\n"
		  "      - {cell: linux, bdf: 00:10.0, regs: 0xfe800000, "
		  "vectors: 3}\n"
		  "      - {cell: a, bdf: 00:01.0, regs: 0x80000000, vectors: "
		  "3} #!\n",
	  .message = "links[0].peers[1]: 'shmem' is missing: a cell's peer "
		     "says where the cell sees the link's memory" },
	{ .name = "link-peer-domain",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links:\n"
		  "  - name: x\n"
		  "    memory: {phys: 0x33c00000, size: 1M}\n"
		  "    access: directional\n"
		  "    peers:\n"
		  "      - cell: linux\n"
		  "        bdf: 0001:00:10.0 #!\n"
		  "        regs: 0xfe800000\n"
		  "        vectors: 3\n",
	  .message = "links[0].peers[0].bdf: '0001:00:10.0': a link's "
		     "function is in PCI segment 0" },
	{ .name = "link-peer-vectors",
	  .yaml = SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS
		  "links:\n"
		  "  - name: x\n"
		  "    memory: {phys: 0x33c00000, size: 1M}\n"
		  "    access: directional\n"
		  "    peers:\n"
		  "      - {cell: linux, bdf: 00:10.0, regs: 0xfe800000, "
		  "vectors: 256} #!\n",
	  .message = "links[0].peers[0].vectors: 256 is larger than 0xff" },
	{ .name = "iommu-base",
	  .yaml = SYS_HEAD_NO_PLATFORM
		  "  platform: {iommu_base: -1} #!\n"
		  ROOT_HEAD ROOT_MEM R_PORTS,
	  .message = "platform.iommu_base: '-1' is not a number" },
};
/* clang-format on */

const size_t yc_n_syntax = sizeof(yc_syntax) / sizeof(yc_syntax[0]);

/* Accepted by the front end (not all pass the validator): every form of
 * the syntax, for the round trip through "config show". */
const char *const yc_valid[] = {
	/* links with values the validator rejects: 0 peers, raw flags,
	 * empty names, vectors 0 */
	SYS_HEAD ROOT_HEAD ROOT_MEM R_PORTS "links:\n"
					    "  - {name: \"\", memory: {phys: "
					    "0, size: 0}, access: 0xffffffff, "
					    "peers: []}\n"
					    "  - name: x\n"
					    "    memory: {phys: 1, size: 3}\n"
					    "    access: read_write\n"
					    "    peers:\n"
					    "      - {cell: \"\", bdf: "
					    "ff:1f.7, regs: "
					    "0xffffffffffffffff, shmem: "
					    "0, vectors: 0}\n",
	/* a system with links and an IOMMU */
	SYS_HEAD_NO_PLATFORM
	"  platform: {iommu_base: 0xfed90000}\n" ROOT_HEAD ROOT_MEM R_PORTS
	"links: []\n",

	/* PCI devices with the values the validator rejects: raw BAR
	 * flags, int_pin by number, a domain, an empty BAR with an address */
	"cell:\n"
	"  name: pci\n"
	"  cpus: 1\n"
	"  irq_pins: [0, 4294967295]\n"
	"  pci_devices:\n"
	"    - bdf: ffff:ff:1f.7\n"
	"      ids: ffff:0\n"
	"      int_pin: 200\n"
	"      gsi: 4294967294\n"
	"      msi: True\n"
	"      msix: FALSE\n"
	"      dma_unisolated: ~\n"
	"      bars:\n"
	"        - {bar: 5, address: 0x1000, size: 0, type: 0xfffffff8}\n"
	"        - {bar: 2, address: 0, size: 3, type: io, prefetch: true}\n"
	"    - {bdf: 00:00.1, ids: 1:2, gsi: none, int_pin: d, bars: ~}\n"
	"    - {bdf: 00:00.2, ids: 1:3, gsi: ~, int_pin: ~, msi: ~}\n",
	/* numbers with units, hex and decimal; lists in both styles */
	"cell:\n"
	"  name: \"q\\\"uote\\\\d\"\n"
	"  flags: passive_comm\n"
	"  cpus: 1, 3-4\n"
	"  reset_address: 4096\n"
	"  console: {type: hypercall}\n"
	"  memory:\n"
	"    - {phys: 1G, guest: 0, size: 2MiB, flags: 'read,write,execute,"
	"loadable'}\n"
	"    - {phys: 0x0, guest: 0x200000, size: 4k, flags: [read, "
	"comm_region, write]}\n"
	"    - {phys: 0xfed00000, size: 4K, flags: [read, io, root_shared]}\n"
	"    - {phys: 0x50000000, size: 64K, flags: [read], type: WB}\n"
	"  ports: [0x60, 0x64+1, {base: 0x3e8, length: 8}, 0x40-0x43]\n",
	/* odd values the validator rejects: unknown bits and types, a name
	 * that fills the field, null values, a console type by number */
	"cell:\n"
	"  name: abcdefghijklmnopqrstuvwxyz012345\n"
	"  cpus: [5, 255]\n"
	"  flags: [passive_comm, 0x80000000]\n"
	"  console: {type: 3, port: 0xffff, baud: 4294967295}\n"
	"  memory:\n"
	"    - {phys: 0xfffffffffffff000, guest: 0x800, size: 0x1001, flags: "
	"[0x7fffff80, read], type: 255}\n"
	"  ports:\n"
	"    - {base: 0xffff, length: 0xffffffff}\n"
	"    - {base: 0, length: 0}\n",
	/* null values */
	"cell:\n"
	"  name: nulls\n"
	"  cpus: [1]\n"
	"  flags: ~\n"
	"  console: none\n"
	"  memory: []\n"
	"  ports:\n",
	/* anchors and aliases */
	"cell:\n"
	"  name: aliases\n"
	"  cpus: &c 1-2\n"
	"  memory:\n"
	"    - &ram {phys: 0x30600000, guest: 0, size: 1M, flags: &f [read, "
	"write, execute, loadable]}\n"
	"    - {phys: 0x30700000, guest: 1M, size: 1M, flags: *f}\n"
	"  ports: []\n",
	/* a minimal system config */
	"system:\n"
	"  hypervisor_memory: {start: 256M, size: 1M}\n"
	"root_cell:\n"
	"  name: root\n"
	"  cpus: 0\n",
};

const size_t yc_n_valid = sizeof(yc_valid) / sizeof(yc_valid[0]);

unsigned int yc_marked_line(const char *text)
{
	const char *p = text, *eol;
	unsigned int line = 1;

	for (; *p; p = eol + 1, line++) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if (strstr(p, "#!") && strstr(p, "#!") < eol)
			return line;
		if (!*eol)
			break;
	}
	return 0;
}

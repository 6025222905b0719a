# SPDX-License-Identifier: GPL-2.0
# Isolation rules (docs/hypervisor.md, "Isolation"), each shown by the
# attack that got through before it:
#  - no cell region over an address the hypervisor traps: the local APIC
#    page (mapped at another guest address it reached the physical APIC:
#    any IPI to any CPU), an IOAPIC, the IOMMU's registers; refused by the
#    hypervisor at create and by the validator offline;
#  - no cell memory Linux uses: System RAM (inside root's region and past
#    the memmap= reservation), refused by warden.ko at create, --check too;
#  - a CPU listed twice in a config is refused;
#  - a cell's device interrupt names one of its CPUs by APIC ID: an MSI
#    and an MSI-X entry to the broadcast 0xfeeff000 (both reached root's
#    CPUs on qemu-svm-noiommu) fail the cell, named; root takes no stray
#    vector; the device works for the next cell;
#  - root's HPET writes are checked (its page read-only): a timer routed
#    to a cell's pin is refused (it reached the cell before), a create
#    is refused while a timer drives the new cell's pin, root's own
#    routes are taken, and root's HPET clock keeps running without exits;
#  - root's interrupts in remappable format only where an IOMMU remaps
#    them: on qemu-svm-noiommu an IOAPIC entry with bit 48 is refused (it
#    reached a cell CPU before); on qemu-svm root cannot turn interrupt
#    remapping off, and its interrupts go on;
#  - root works through the traps: an IRQ's affinity, CPU hot-plug;
#  - root's own remapping table is still open on qemu-svm (shown);
#  - a cell's function without dma_unisolated: confined by the IOMMU on
#    qemu-svm, refused at create where the system config names none;
#  - a system config naming an IOMMU the machine does not have (q35's
#    config on qemu-svm-noiommu) is refused at enable, the unit's base
#    named, nothing changed; the machine's own config (no IOMMU, as
#    "warden config create" writes it there) is enabled after it;
#  - root's BAR sizes and MSI-X tables come from Linux's enumeration, not
#    the config: an unlisted function's 1 MiB BAR over a cell's is
#    refused, its MSI-X table trapped; a table that cannot be trapped
#    refuses enable while MSI-X is on, and keeps MSI-X off otherwise.
# The q35 machines only: the MSI attacks need QEMU's edu and e1000e, and
# the config refusals do not depend on the CPU's vendor (the validator is
# one C file, unit-tested on the host).
# machines: qemu-svm qemu-svm-noiommu
# cpus: 2
# timeout: 500
# tests: insmod created-no-iommu enable-absent-refused absent-nothing-changed enable refused-lapic-page refused-lapic-offline refused-ioapic refused-iommu refused-linux-ram refused-linux-ram-check refused-past-reservation refused-nothing-changed refused-cpus-twice msi-broadcast-refused msix-broadcast-refused root-no-stray-vector root-alive msi-after hpet-trapped hpet-root-route-taken hpet-create-refused hpet-route-refused hpet-root-route-kept hpet-clock-works rcba-route-refused rcba-same-taken root-remappable root-msi-remappable iommu-kept-on root-irqs-go-on root-irq-affinity root-hotplug root-irte-open dma-unisolated-rule disable enable-unlisted msix-unlisted-trapped msix-unlisted-refused bar-size-from-linux disable-unlisted enable-refused-msix-untrapped enable-untrappable msix-untrapped-stays-off disable-untrappable
. /tests/lib.sh

online=/sys/devices/system/cpu/cpu1/online
# cell NAME RAM REGION...: tiny-demo's config as NAME, its RAM at phys
# RAM, with more memory regions (YAML flow mappings)
cell() {
	name=$1 ram=$2
	shift 2
	sed -e "s/name: tiny-demo/name: $name/" -e "s/phys: 0x30600000/phys: $ram/" \
		-e '/^  ports:$/,$d' /yaml/cells/tiny-demo.yaml
	for r in "$@"; do
		echo "    - $r"
	done
	printf '  ports:\n    - 0x3e8-0x3ef\n'
}
# refused NAME FILE REGEX: cell create of FILE fails with a message
# matching REGEX
refused() {
	run warden cell create "$2"
	if [ "$RC" != 0 ] && echo "$OUT" | grep -Eq -- "$3"; then pass "$1"; else fail "$1" "rc $RC: $OUT"; fi
}
demo() { pci_demo "$@"; }

expect_rc insmod 0 insmod /warden.ko
if [ "$MACHINE" = qemu-svm-noiommu ]; then
	# the machine's own config names no IOMMU, as config create finds
	# it here (no ACPI DMAR): the lines that differ from system-qemu's
	run warden config create -o /tmp/created.yaml
	iommu_lines() { grep -E '^    iommu_base:|^  iommus:|^    - \{base:|^    - \{address: 0xfec00000|^    - phys: 0xfed90000' "$1" | sed 's/ #.*//'; }
	if [ "$RC" = 0 ] && [ "$(iommu_lines /tmp/created.yaml)" = "$(iommu_lines $SYSTEM_YAML)" ] &&
		iommu_lines $SYSTEM_YAML | grep -q '^    iommu_base: 0x0$'; then
		pass created-no-iommu
	else
		fail created-no-iommu "rc $RC: created '$(iommu_lines /tmp/created.yaml | tr '\n' ' ')', $SYSTEM_YAML '$(iommu_lines $SYSTEM_YAML | tr '\n' ' ')'"
	fi
	# q35's config names the IOMMU at 0xfed90000, which does not answer
	# here: refused with the base and the reason, nothing changed
	cpus0=$(cat /sys/devices/system/cpu/online)
	run warden enable /configs/system-qemu.cell
	if [ "$RC" != 0 ] && echo "$OUT" | grep -q "the hypervisor cannot take the IOMMU at 0xfed90000 over: no IOMMU answers there (its version register reads 0 or all ones): the system config names a unit this machine does not have"; then pass enable-absent-refused; else fail enable-absent-refused "rc $RC: $OUT"; fi
	if [ "$(cat /sys/devices/virtual/misc/warden/enabled)" = 0 ] && [ "$(cat /sys/devices/system/cpu/online)" = "$cpus0" ] &&
		[ "$(taskset -c 1 sh -c 'echo alive')" = alive ]; then
		pass absent-nothing-changed
	else
		fail absent-nothing-changed "enabled $(cat /sys/devices/virtual/misc/warden/enabled), CPUs online $(cat /sys/devices/system/cpu/online) (before: $cpus0)"
	fi
else
	# these are qemu-svm-noiommu's (the IOMMU answers here)
	pass created-no-iommu
	pass enable-absent-refused
	pass absent-nothing-changed
fi
expect_rc enable 0 warden enable $SYSTEM_CELL

# the local APIC page at another guest address: the hypervisor traps it
# only at the cell's APIC base
cell lapic 0x30600000 '{phys: 0xfee00000, guest: 0x200000, size: 4K, flags: [read, write, io]}' >/tmp/lapic.yaml
refused refused-lapic-page /tmp/lapic.yaml "/tmp/lapic.yaml:[0-9]+: memory\[2\] 0xfee00000\+0x1000: covers 0xfee00000, the local APIC and MSI window, which the hypervisor traps"
run warden config check /yaml/system-qemu.yaml /tmp/lapic.yaml
if [ "$RC" = 1 ] && echo "$OUT" | grep -q "covers 0xfee00000, the local APIC and MSI window"; then pass refused-lapic-offline; else fail refused-lapic-offline "rc $RC: $OUT"; fi
cell ioapic 0x30600000 '{phys: 0xfec00000, guest: 0x200000, size: 4K, flags: [read, write, io]}' >/tmp/ioapic.yaml
refused refused-ioapic /tmp/ioapic.yaml "memory\[2\] 0xfec00000\+0x1000: covers 0xfec00000, an IOAPIC, which the hypervisor traps"
cell iommu 0x30600000 '{phys: 0xfed90000, guest: 0x200000, size: 4K, flags: [read, write, io]}' >/tmp/iommu.yaml
if [ "$MACHINE" = qemu-svm-noiommu ]; then
	# no IOMMU here to trap: the validator refuses it with q35's config
	run warden config check /yaml/system-qemu.yaml /tmp/iommu.yaml
	if [ "$RC" = 1 ] && echo "$OUT" | grep -q "memory\[2\] 0xfed90000+0x1000: covers 0xfed90000, the IOMMU's registers, which the hypervisor traps"; then pass refused-iommu; else fail refused-iommu "rc $RC: $OUT"; fi
else
	refused refused-iommu /tmp/iommu.yaml "memory\[2\] 0xfed90000\+0x1000: covers 0xfed90000, the IOMMU's registers, which the hypervisor traps"
fi

# Linux's RAM: root's region 0x100000-0x2fffffff is System RAM; so is
# 0x34000000 on, past the memmap= reservation
cell ram 0x20000000 >/tmp/ram.yaml
refused refused-linux-ram /tmp/ram.yaml "memory\[0\] 0x20000000\+0x100000: Linux uses 0x20000000-0x200fffff of it \(System RAM in /proc/iomem\)"
run warden cell create --check /tmp/ram.yaml
if [ "$RC" != 0 ] && echo "$OUT" | grep -q "Linux uses 0x20000000-0x200fffff of it"; then pass refused-linux-ram-check; else fail refused-linux-ram-check "rc $RC: $OUT"; fi
cell past 0x34000000 >/tmp/past.yaml
refused refused-past-reservation /tmp/past.yaml "memory\[0\] 0x34000000\+0x100000: Linux uses 0x34000000-0x340fffff of it \(System RAM"
run warden cell list
if [ -z "$(echo "$OUT" | grep '^[0-9]')" ] && [ "$(cat $online)" = 1 ]; then pass refused-nothing-changed; else fail refused-nothing-changed "CPU 1 online $(cat $online): $OUT"; fi

sed 's/^  cpus: 1$/  cpus: [1, 1]/' /yaml/cells/tiny-demo.yaml >/tmp/twice.yaml
run warden config check /tmp/twice.yaml
if [ "$RC" != 0 ] && echo "$OUT" | grep -Eq "/tmp/twice.yaml:[0-9]+: cell.cpus: CPU 1 is listed twice"; then pass refused-cpus-twice; else fail refused-cpus-twice "rc $RC: $OUT"; fi

# broadcast device interrupts: physical destination 0xff
dmesg -c >/dev/null
warden cell create /configs/cells/pci-demo-edu.cell >/dev/null
state=$(demo pci-demo-edu "irqs=1 mode=msi dest=0xff")
if [ "$state" = failed/1 ] && warden console | grep -q "PCI 00:03.0 .*refused: broadcast destination 0xff"; then pass msi-broadcast-refused; else fail msi-broadcast-refused "state '$state': $(warden console | tail -n 3 | tr '\n' ' ')"; fi
warden cell destroy pci-demo-edu >/dev/null
warden cell create /configs/cells/pci-demo-e1000e.cell >/dev/null
state=$(demo pci-demo-e1000e "irqs=1 mode=msix dev=e1000e dest=0xff")
if [ "$state" = failed/1 ] && warden console | grep -q "PCI 00:04.0 MSI-X entry 0 refused: broadcast destination 0xff"; then pass msix-broadcast-refused; else fail msix-broadcast-refused "state '$state': $(warden console | tail -n 3 | tr '\n' ' ')"; fi
warden cell destroy pci-demo-e1000e >/dev/null
sleep 1
if dmesg | grep -q "No irq handler for vector"; then fail root-no-stray-vector "$(dmesg | grep 'No irq handler' | head -n 2 | tr '\n' ' ')"; else pass root-no-stray-vector; fi
if [ "$(taskset -c 1 sh -c 'echo alive')" = alive ]; then pass root-alive; else fail root-alive "CPU 1 back in root"; fi
# the function works for the next cell
warden cell create /configs/cells/pci-demo-edu.cell >/dev/null
state=$(demo pci-demo-edu "irqs=100 mode=msi")
if [ "$state" = "shut-down/-" ]; then pass msi-after; else fail msi-after "state '$state'"; fi
warden cell destroy pci-demo-edu >/dev/null

# the HPET: timer 2 (Linux's clock uses timer 0) routed by root
hpet() { # TIMER [VALUE]: "before 0x.., after 0x.."
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=hpet pin=$1 ${2:+value=$2} 2>/dev/null
	dmesg | sed -n 's/.*wdtest: hpet timer [0-9]*: //p' | head -n 1
}
route23=$(((23 << 9) | 4)) route21=$(((21 << 9) | 4)) # Tn_INT_ENB
if warden console | grep -Eq "HPET at 0xfed00000: [0-9]+ timers, root's writes checked"; then pass hpet-trapped; else fail hpet-trapped "$(warden console | grep -i hpet)"; fi
v=$(hpet 2 $route23)
after=$(echo "$v" | sed -n 's/.*after \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
if [ -n "$after" ] && [ $((after & 0x3e04)) = $route23 ]; then pass hpet-root-route-taken; else fail hpet-root-route-taken "$v"; fi
run warden cell create /configs/cells/pci-demo-edu.cell
if [ "$RC" != 0 ] && echo "$OUT" | grep -q "HPET timer 2, which Linux programmed, drives one of the cell's IOAPIC pins"; then pass hpet-create-refused; else fail hpet-create-refused "rc $RC: $OUT"; fi
hpet 2 0 >/dev/null
warden cell create /configs/cells/pci-demo-edu.cell >/dev/null
v=$(hpet 2 $route23)
after=$(echo "$v" | sed -n 's/.*after \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
if [ -n "$after" ] && [ $((after & 4)) = 0 ] && warden console | grep -q "root's write of 0x$(printf %x $route23) to HPET register 0x140 refused: timer 2: its IOAPIC input is a pin a cell owns"; then pass hpet-route-refused; else fail hpet-route-refused "$v: $(warden console | tail -n 2 | tr '\n' ' ')"; fi
v=$(hpet 2 $route21)
after=$(echo "$v" | sed -n 's/.*after \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
hpet 2 0 >/dev/null
if [ -n "$after" ] && [ $((after & 0x3e04)) = $route21 ]; then pass hpet-root-route-kept; else fail hpet-root-route-kept "$v"; fi
# root's clock: the HPET, read with no exit (the page is readable)
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
m0=$(cat /sys/kernel/warden/cells/0/statistics/vmexits_mmio)
u0=$(cut -d. -f1 /proc/uptime)
sleep 3
u1=$(cut -d. -f1 /proc/uptime)
m1=$(cat /sys/kernel/warden/cells/0/statistics/vmexits_mmio)
if [ "$cs" = hpet ] && [ $((u1 - u0)) -ge 2 ] && [ $((u1 - u0)) -le 4 ] && [ $((m1 - m0)) -lt 100 ]; then pass hpet-clock-works; else fail hpet-clock-works "clocksource $cs, uptime $u0 -> $u1, root's MMIO exits $m0 -> $m1"; fi
warden cell destroy pci-demo-edu >/dev/null

# the ICH9's interrupt route registers (RCBA 0xfed1c000 + 0x3140, D31IR:
# which PIRQ line each INTx pin of 00:1f.x drives) keep their values
mmio() { # ADDR [VALUE]: "before 0x.., after 0x.."
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=mmio addr=$1 ${2:+value=$2} 2>/dev/null
	dmesg | sed -n 's/.*wdtest: mmio [0-9a-fx]*: //p' | head -n 1
}
d31ir=$(mmio 0xfed1f140 | sed -n 's/before \(0x[0-9a-f]*\).*/\1/p')
v=$(mmio 0xfed1f140 $((d31ir ^ 0x7)))
echo "  wdtest: D31IR $d31ir: $v"
if [ -n "$d31ir" ] && echo "$v" | grep -q "after $d31ir\$" && warden console | grep -q "root's write of 0x[0-9a-f]* to the chipset's register 0x3140 (RCBA) refused: the interrupt pin and route registers keep their values"; then pass rcba-route-refused; else fail rcba-route-refused "D31IR $d31ir: $v: $(warden console | grep -i rcba | tr '\n' ' ')"; fi
n0=$(warden console | grep -c "(RCBA) refused")
v=$(mmio 0xfed1f140 $d31ir)
if echo "$v" | grep -q "after $d31ir\$" && [ "$(warden console | grep -c '(RCBA) refused')" = "$n0" ] && warden console | grep -q "ICH9 chipset registers at 0xfed1c000: interrupt routes kept"; then pass rcba-same-taken; else fail rcba-same-taken "$v"; fi

# root's remappable-format interrupts
ioapic() { # PIN LOW HIGH: "before 0x.., after 0x.., high 0x.."
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=ioapic pin=$1 value=$2 high=$3 2>/dev/null
	dmesg | sed -n 's/.*wdtest: ioapic pin [0-9]*: //p' | head -n 1
}
if [ "$MACHINE" = qemu-svm-noiommu ]; then
	v=$(ioapic 23 0xd1 0x00010000)
	ioapic 23 0x10000 0 >/dev/null
	after=$(echo "$v" | sed -n 's/.*after \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
	if [ -n "$after" ] && [ $((after & 0x10000)) != 0 ] && warden console | grep -q "root's write of IOAPIC 0xfec00000 pin 23 entry 0x10000000000d1 refused: remappable format, but no IOMMU remaps interrupts"; then pass root-remappable; else fail root-remappable "$v: $(warden console | grep -i -e remappable -e iommu | tr '\n' ' ')"; fi
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=msi bdf=00:03.0 dest=0 how=remap 2>/dev/null
	v=$(dmesg | sed -n 's/.*wdtest: //p' | head -n 1)
	echo "  wdtest: $v"
	if echo "$v" | grep -q "not enabled" && warden console | grep -q "to PCI 00:03.0 register 0x42 refused: remappable format, but no IOMMU remaps interrupts"; then pass root-msi-remappable; else fail root-msi-remappable "$v: $(warden console | tail -n 2 | tr '\n' ' ')"; fi
	pass iommu-kept-on # no IOMMU on this machine
else
	# remapping on: root's remappable entry is root's table's (open)
	v=$(ioapic 23 0x100d1 0x00010000)
	ioapic 23 0x10000 0 >/dev/null
	if echo "$v" | grep -q 'after 0x100d1' && warden console | grep -q "IOMMU at 0xfed90000: root's interrupt remapping on, kept on"; then pass root-remappable; else fail root-remappable "$v: $(warden console | grep -i iommu | tr '\n' ' ')"; fi
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=msi bdf=00:03.0 dest=0 how=remap 2>/dev/null
	v=$(dmesg | sed -n 's/.*wdtest: //p' | head -n 1)
	echo "  wdtest: $v"
	if echo "$v" | grep -q ", enabled$"; then pass root-msi-remappable; else fail root-msi-remappable "$v"; fi
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=vtdoff 2>/dev/null
	v=$(dmesg | sed -n 's/.*wdtest: vtdoff: //p' | head -n 1)
	after=$(echo "$v" | sed -n 's/.*after \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
	if [ -n "$after" ] && [ $((after & 0x2000000)) != 0 ] && warden console | grep -q "root's write of 0x[0-9a-f]* to the IOMMU's global command refused: it would turn interrupt remapping off"; then pass iommu-kept-on; else fail iommu-kept-on "$v: $(warden console | tail -n 2 | tr '\n' ' ')"; fi
fi
# root's device interrupts go on (through the IOAPIC and, on qemu-svm,
# the IOMMU's remapping): the console's UART interrupt counts the lines
# written
uart_irqs() { awk '/ttyS0/ { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
i0=$(uart_irqs)
for i in 1 2 3 4 5 6 7 8 9 10; do echo "  . console line $i of 10"; done
sleep 1
i1=$(uart_irqs)
if [ -n "$i0" ] && [ $((i1 - i0)) -gt 0 ]; then pass root-irqs-go-on; else fail root-irqs-go-on "ttyS0 interrupts $i0 -> $i1: $(grep ttyS0 /proc/interrupts)"; fi

# root works through the traps: its console's IRQ moved to CPU 1 and
# back (qemu-svm: Linux rewrites its remapping entry; qemu-svm-noiommu:
# the trapped IOAPIC entry, checked), CPU hot-plug with the HPET page
# read-only and the IOAPIC trapped
irq=$(awk -F: '/ttyS0/ { gsub(/ /, "", $1); print $1 }' /proc/interrupts)
cpu1_uart() { awk '/ttyS0/ { print $3 }' /proc/interrupts; }
r0=$(warden console | grep -c refused)
echo 2 >/proc/irq/$irq/smp_affinity
echo "  . IRQ $irq to CPU 1"
c0=$(cpu1_uart)
for i in 1 2 3 4 5 6 7 8 9 10; do echo "  . console line $i of 10, IRQ $irq on CPU 1"; done
sleep 1
c1=$(cpu1_uart)
echo 1 >/proc/irq/$irq/smp_affinity
echo "  . IRQ $irq back to CPU 0"
if [ -n "$c0" ] && [ $((c1 - c0)) -gt 0 ] && [ "$(warden console | grep -c refused)" = "$r0" ]; then pass root-irq-affinity; else fail root-irq-affinity "CPU 1's ttyS0 interrupts $c0 -> $c1, refusals $r0 -> $(warden console | grep -c refused): $(warden console | tail -n 2 | tr '\n' ' ')"; fi
echo 0 >$online; off=$(cat $online)
echo 1 >$online; on=$(cat $online)
u0=$(cut -d. -f1 /proc/uptime)
sleep 2
u1=$(cut -d. -f1 /proc/uptime)
if [ "$off$on" = 01 ] && [ "$(taskset -c 1 sh -c 'echo alive')" = alive ] && [ $((u1 - u0)) -ge 1 ]; then pass root-hotplug; else fail root-hotplug "online '$off' then '$on', uptime $u0 -> $u1"; fi

# Root's own interrupt-remapping table: on qemu-svm root's Linux remaps
# its interrupts, but the unit remaps through the hypervisor's table,
# which takes root's entries only as checked copies.  A root module
# rewrites a free entry of root's table, aims it at a cell's CPU and
# invalidates it as Linux does: the hypervisor refuses the copy and names
# it, the edu's interrupt faults in the IOMMU (named with its index),
# and the cell (tiny-demo prints "unexpected interrupt") receives
# nothing.
if [ "$MACHINE" = qemu-svm ]; then
	warden cell create /configs/cells/tiny-demo-hc.cell >/dev/null
	warden cell load tiny-demo-hc /inmates/tiny-demo.bin >/dev/null
	warden cell start tiny-demo-hc >/dev/null
	sleep 1
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=irte bdf=00:03.0 dest=1 value=0x55 2>/dev/null
	v=$(dmesg | sed -n 's/.*wdtest: irte: //p' | head -n 1)
	echo "  wdtest: irte: $v"
	idx=$(echo "$v" | sed -n 's/^entry \([0-9]*\) .*/\1/p')
	sleep 1
	# the edu's message names the hypervisor's index for root's
	# (translated), whose copy is the refused one
	h=$(warden console | sed -n "s/^IOMMU: root's remapping index $idx is the hypervisor's \([0-9]*\) .*/\1/p" | tail -n 1)
	if echo "$v" | grep -q "MSI enabled" && [ -n "$idx" ] && [ -n "$h" ] &&
		warden console | grep -q "root IRTE $idx: destination APIC 1 belongs to cell \"tiny-demo-hc\": refused" &&
		warden console | grep -q "IOMMU: interrupt fault [0-9]*: 00:03.0 of root cell 0, remapping index $h: an interrupt whose remapping entry is not present" &&
		! warden console | grep -q '^\[tiny-demo-hc\] inmate: unexpected interrupt, vector 85'; then
		pass root-irte-open
	else
		fail root-irte-open "$v: $(warden console | grep -E 'tiny-demo-hc|IRTE' | tail -n 3 | tr '\n' ' ')"
	fi
	warden cell destroy tiny-demo-hc >/dev/null
else
	# no IOMMU: nothing remaps, root's remappable entries are refused
	# (root-remappable above); the hypervisor took no unit over
	if ! warden console | grep -q "DMA remapping is the hypervisor's"; then pass root-irte-open; else fail root-irte-open "$(warden console | grep -i iommu)"; fi
fi

# dma_unisolated: needed only where no IOMMU confines the function.  On
# qemu-svm the system config names the IOMMU and the hypervisor confines
# the edu without the flag; qemu-svm-noiommu's names none, and create
# refuses it.
grep -v dma_unisolated /yaml/cells/pci-demo-edu.yaml >/tmp/edu-confined.yaml
run warden cell create /tmp/edu-confined.yaml
if [ "$MACHINE" = qemu-svm ]; then
	if [ "$RC" = 0 ] && warden cell destroy pci-demo-edu >/dev/null; then pass dma-unisolated-rule; else fail dma-unisolated-rule "rc $RC: $OUT"; fi
else
	if [ "$RC" != 0 ] && echo "$OUT" | grep -q "PCI device 00:03.0: no IOMMU confines its DMA (the system config names none): the cell takes it only with dma_unisolated: true"; then pass dma-unisolated-rule; else fail dma-unisolated-rule "rc $RC: $OUT"; fi
fi

expect_rc disable 0 warden disable

# Root's functions as Linux has them, not as the config lists them:
# a root list without 00:03.0 (edu, a 1 MiB BAR) and 00:04.0 (e1000e,
# MSI-X).  The BAR's size and the MSI-X table come from Linux (before:
# 4 KiB assumed, and the table not trapped).
drop_fns() { # FILE BDF...: FILE without those functions in root's list
	f=$1
	shift
	awk -v drop=" $* " '/^    - bdf: / { skip = index(drop, " " $3 " ") > 0 } /^  [a-z]/ { skip = 0 } !skip' "$f"
}
wdtest() { # ARGS: wdtest's first line
	dmesg -c >/dev/null
	insmod /wdtest.ko "$@" 2>/dev/null
	dmesg | sed -n 's/.*wdtest: //p' | head -n 1
}
drop_fns $SYSTEM_YAML 00:03.0 00:04.0 >/tmp/unlisted.yaml
expect_rc enable-unlisted 0 warden enable /tmp/unlisted.yaml
if warden console | grep -q "PCI 00:04.0: MSI-X table of [0-9]* entries at 0xfeba0000 trapped"; then pass msix-unlisted-trapped; else fail msix-unlisted-trapped "$(warden console | grep -i msi-x | tr '\n' ' ')"; fi
warden cell create /configs/cells/pci-demo-e1000.cell >/dev/null
v=$(wdtest mode=msix bdf=00:04.0 dest=1)
echo "  wdtest: $v"
if warden console | grep -q "root's write of PCI 00:04.0 MSI-X entry 0 refused: .*cell"; then pass msix-unlisted-refused; else fail msix-unlisted-refused "$v: $(warden console | tail -n 2 | tr '\n' ' ')"; fi
# the edu's 1 MiB BAR at 0xfeb00000 would cover the e1000's BAR
# (0xfeb40000, the cell's); its first 4 KiB do not
v=$(wdtest mode=bar bdf=00:03.0 addr=0xfeb00000)
echo "  wdtest: $v"
if echo "$v" | grep -q "reads 0xfea00000" && warden console | grep -q "write of 0xfeb00000 to PCI 00:03.0 register 0x10 refused: a BAR over a cell's memory"; then pass bar-size-from-linux; else fail bar-size-from-linux "$v: $(warden console | tail -n 2 | tr '\n' ' ')"; fi
warden cell destroy pci-demo-e1000 >/dev/null
expect_rc disable-unlisted 0 warden disable

# An MSI-X table the hypervisor cannot trap: root's device memory ends
# at 0xfeba0000, where the e1000e's table is (its list without 00:04.0
# and 00:1f.2, whose BARs are there).  With MSI-X on, enable is refused,
# named; with it off, enable goes on and root may not switch it on.
drop_fns $SYSTEM_YAML 00:04.0 00:1f.2 | sed 's/^      size: 1004M$/      size: 0x3eba0000/' >/tmp/untrappable.yaml
v=$(wdtest mode=msixon bdf=00:04.0 value=1)
run warden enable /tmp/untrappable.yaml
if echo "$v" | grep -q ", enabled$" && [ "$RC" != 0 ] && echo "$OUT" | grep -q "PCI function 00:04.0 has MSI-X on, but the hypervisor cannot trap its table at 0xfeba0000: the table must lie in one of root's io memory regions"; then pass enable-refused-msix-untrapped; else fail enable-refused-msix-untrapped "$v; rc $RC: $OUT"; fi
wdtest mode=msixon bdf=00:04.0 value=0 >/dev/null
expect_rc enable-untrappable 0 warden enable /tmp/untrappable.yaml
v=$(wdtest mode=msixon bdf=00:04.0 value=1)
echo "  wdtest: $v"
if echo "$v" | grep -q "not enabled$" && warden console | grep -q "PCI 00:04.0: MSI-X table at 0xfeba0000 not trapped (not in root's device memory): root may not switch MSI-X on" && warden console | grep -q "to PCI 00:04.0 register 0x[0-9a-f]* refused: MSI-X on a function whose table the hypervisor does not trap"; then pass msix-untrapped-stays-off; else fail msix-untrapped-stays-off "$v: $(warden console | grep 00:04.0 | tr '\n' ' ')"; fi
expect_rc disable-untrappable 0 warden disable

# SPDX-License-Identifier: GPL-2.0
# Requester-id aliases behind a bridge (docs/hypervisor.md, "Functions
# behind bridges"), on a machine of its own: q35 with qemu-svm's IOMMU
# and QEMU's edu (conventional PCI) behind a PCIe-to-PCI bridge at
# 00:05.0, so that its DMA reaches the IOMMU as the bridge's secondary
# bus with device and function 0, not as the edu's own id.
#  - "warden config create" records that alias (dma_alias) for the edu;
#  - the validator refuses a cell that takes the edu while root keeps
#    another function carrying the same requester id (a function added
#    to the created config: QEMU has one behind the bridge);
#  - root owning the edu (its alias in root's domain): DMA into root's
#    RAM works;
#  - a cell owning the edu: DMA into its own RAM works (data compared),
#    which needs the alias's context entry in the cell's domain, and a
#    read of the hypervisor's image is blocked;
#  - destroyed, the edu and its alias are root's again: root's DMA into
#    its own RAM works (data compared).
# machines: qemu-svm-bridge
# cpus: 2
# timeout: 300
# tests: insmod created-alias enable root-dma-before alias-refused alias-refused-named edu-create edu-dma-own edu-dma-hv-blocked edu-destroy root-dma-after disable
. /tests/lib.sh

HV=0x30000000 # the hypervisor's reservation (the machine's command line)

expect_rc insmod 0 insmod /warden.ko
run warden config create -o /tmp/sys.yaml
EDU=$(basename "$(ls -d /sys/bus/pci/devices/*/ | xargs -n 1 basename | while read -r f; do
	[ "$(cat /sys/bus/pci/devices/$f/vendor):$(cat /sys/bus/pci/devices/$f/device)" = 0x1234:0x11e8 ] && echo "$f"
done | head -n 1)")
BDF=${EDU#0000:}
BUS=${BDF%%:*}
ALIAS="$BUS:00.0"
# the edu's entry in the created config, to the next entry
entry() { awk -v b="$2" '/^    - bdf: / { on = ($3 == b) } on && /^    #|^[^ ]|^  [a-z]/ { on = 0 } on' "$1"; }
entry /tmp/sys.yaml "$BDF" >/tmp/edu-entry
if [ "$RC" = 0 ] && [ -n "$BDF" ] && [ "$BUS" != 00 ] &&
	grep -q "^      dma_alias: \"$ALIAS\" # its DMA's requester id behind the PCIe-to-PCI bridge 0000:00:05.0\$" /tmp/edu-entry; then
	pass created-alias
else
	fail created-alias "rc $RC, edu '$BDF': $(tr '\n' ' ' </tmp/edu-entry)"
fi

# the system config as created, the edu without its INTx (the cell
# below runs it by polling: no pin to share with root's functions)
awk -v b="$BDF" '/^    - bdf: / { on = ($3 == b) } /^    #|^[^ ]|^  [a-z]/ { on = 0 }
	on && /^      int_pin:/ { print "      int_pin: none"; next }
	on && /^      gsi:/ { print "      gsi: none"; next } { print }' /tmp/sys.yaml >/tmp/sys-edu.yaml
entry /tmp/sys-edu.yaml "$BDF" | grep -v '^ *#' >/tmp/edu-entry
bar=$(sed -n 's/.*{bar: 0, address: \(0x[0-9a-f]*\), size: 1M, type: mem32}.*/\1/p' /tmp/edu-entry)
expect_rc enable 0 warden enable /tmp/sys-edu.yaml
# root's edu DMAs into root's RAM (its alias in root's domain)
wdtest_dma() {
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=dma bdf=$BDF how=own addr=0 2>/dev/null
	dmesg | sed -n 's/.*wdtest: dma: //p' | head -n 1
}
v=$(wdtest_dma)
echo "  wdtest: dma: $v"
if echo "$v" | grep -q ': match$'; then pass root-dma-before; else fail root-dma-before "$v"; fi

# the cell: pci-demo-edu's RAM, the hypervisor's console, the edu's BAR
{
	printf 'cell:\n  name: edu-bridge\n  cpus: 1\n  reset_address: 0\n  console: hypercall\n  memory:\n'
	printf '    - {phys: 0x30600000, guest: 0, size: 1M, flags: [read, write, execute, loadable]}\n'
	printf '    - {phys: 0, guest: 0x100000, size: 4K, flags: [read, write, comm_region]}\n'
	printf '    - {phys: %s, size: 1M, flags: [read, write, io]}\n' "$bar"
	printf '  pci_devices:\n'
	cat /tmp/edu-entry
} >/tmp/edu-bridge.yaml

# root keeps a function that carries the same requester id (one more
# behind the bridge, in the config only): the validator refuses the cell
awk -v a="$ALIAS" -v f="$BUS:02.0" '/^# Links/ && !done {
	printf "    - bdf: %s\n      ids: 1234:11e8\n      int_pin: none\n      gsi: none\n      msi: false\n      msix: false\n      dma_alias: \"%s\"\n      bars: []\n", f, a; done = 1 } { print }' \
	/tmp/sys-edu.yaml >/tmp/sys-two.yaml
expect_rc alias-refused 1 warden config check /tmp/sys-two.yaml /tmp/edu-bridge.yaml
expect_out alias-refused-named "PCI device $BDF: its DMA may carry requester id $ALIAS, as may PCI device $BUS:02.0, which the cell does not take"

cell_says() { warden console | grep -c "^\[edu-bridge\] edu-dma: $1"; }
# edu_run ARGS: edu-dma in the cell with ARGS, until it is done (20 s)
edu_run() {
	d0=$(cell_says 'done')
	warden cell load edu-bridge /inmates/edu-dma.bin -s "last_bus=$((0x$BUS)) $1" -a 0xff000 >/dev/null
	warden cell start edu-bridge >/dev/null
	i=0
	while [ $i -lt 40 ] && [ "$(cell_says 'done')" = "$d0" ]; do
		sleep 0.5
		i=$((i + 1))
	done
}
expect_rc edu-create 0 warden cell create /tmp/edu-bridge.yaml
edu_run "own=1 read=$HV"
if [ "$(cell_says 'own memory: match')" = 1 ]; then pass edu-dma-own; else fail edu-dma-own "$(warden console | grep -E 'edu-bridge|IOMMU' | tail -n 4 | tr '\n' ' ')"; fi
# the hypervisor's image starts "WRDNHVI": the cell's read is refused
# (QEMU's edu keeps zeros where the IOMMU refused it) and named with the
# alias, the requester id the unit saw, counted for the cell
warden status >/dev/null
if [ "$(cell_says "read $HV: got 00 00 00 00 00 00 00 00")" = 1 ] &&
	warden console | grep -q "IOMMU: DMA fault [0-9]*: $ALIAS of cell [0-9]* read $HV"; then
	pass edu-dma-hv-blocked
else
	fail edu-dma-hv-blocked "$(warden console | grep -E 'edu-bridge|IOMMU' | tail -n 4 | tr '\n' ' ')"
fi
expect_rc edu-destroy 0 warden cell destroy edu-bridge

# root's again, alias and all: root's DMA into its own RAM
v=$(wdtest_dma)
echo "  wdtest: dma: $v"
if echo "$v" | grep -q ': match$'; then pass root-dma-after; else fail root-dma-after "$v"; fi
expect_rc disable 0 warden disable

# SPDX-License-Identifier: GPL-2.0
# The fourth boot of `make bench` on qemu-svm (bench/run.py, rows
# iommu.*; also `--part iommu`): what the hypervisor's IOMMU unit costs
# root in VM exits, idle and under a DMA workload, with the unit and
# without it, in one boot.
#
#   with     the shipped system config: the hypervisor owns the VT-d unit
#            (DMA remapping, root's interrupt remapping through its table,
#            root's IR registers emulated: docs/hypervisor.md);
#   without  the same config without its IOMMU: root keeps the unit to
#            itself, its DMA is not confined (a measurement, not a way to
#            run Warden on a machine with an IOMMU).
#
# The DMA workload: root's e1000 (INTx on an IOAPIC pin) answering
# `ping -A` (the next echo as soon as the last reply came) with 1,400-byte
# echoes to QEMU's user-mode gateway for 10 s: every frame written and
# read by the NIC's DMA, an interrupt for each.  Exits come from `warden
# status` (every root CPU, by reason) around 10 s windows; QEMU runs under
# TCG, so the counts are exact and the packet rates TCG's.
# machines: qemu-svm
# cpus: 2
# timeout: 600
# tests: bench-iommu-done
. /tests/lib.sh

WINDOW=10
. /bench-lib.sh

# snap WHAT: one "EXITS <phase> <what> <cpu> reason=n ..." line per CPU
snap() {
	warden status | sed -n "s/^cpu \([0-9]*\): running, cell 0, vmexits: /EXITS $phase $1 \1 /p"
}

insmod /wdbench.ko || echo "  > wdbench.ko did not load"
insmod /warden.ko
insmod /modules/e1000.ko 2>/dev/null
ip link set eth0 up 2>/dev/null
ip addr add 10.0.2.15/24 dev eth0 2>/dev/null
ping -c 2 -W 2 10.0.2.2 >/dev/null 2>&1 # the gateway's address learnt

sed '/^ *iommu_base:/d' /yaml/system-qemu.yaml >/tmp/without.yaml
for how in with without; do
	phase=$how
	cfg=$SYSTEM_CELL
	[ $how = with ] || cfg=/tmp/without.yaml
	if ! warden enable $cfg >/dev/null; then
		echo "  > iommu: enable $how the unit failed"
		continue
	fi
	echo "  > iommu: $how: $(warden console | grep -c "IOMMU: DMA remapping is the hypervisor's") take-over line(s) on the console so far"
	snap idle0
	t0=$(now_ms)
	sleep $WINDOW
	t1=$(now_ms)
	snap idle1
	out "$phase idle_ms $((t1 - t0))"
	snap dma0
	t0=$(now_ms)
	ping -A -q -w $WINDOW -s 1400 10.0.2.2 >/tmp/ping.out 2>&1
	t1=$(now_ms)
	snap dma1
	out "$phase dma_ms $((t1 - t0))"
	out "$phase dma_replies $(sed -n 's/.* \([0-9]*\) packets received.*/\1/p' /tmp/ping.out)"
	warden disable >/dev/null || echo "  > iommu: disable $how the unit failed"
done
out "done"
pass bench-iommu-done

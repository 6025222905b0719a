# SPDX-License-Identifier: GPL-2.0
# The guest side of `make bench` on qemu-svm (bench/run.py boots it after
# the Bochs machine and reads its "BENCH <phase> <row> <value>" lines):
# root in x2APIC mode, where Bochs cannot show it.  QEMU runs under TCG,
# so times are TCG wall times, not hardware figures; counts of VM exits
# are exact.  Phases: bare idle windows; enabled idle windows with exits
# per reason; the exits of root's IPIs (each one ICR write: expected 1);
# the exits of a cell's device interrupts (the e1000e by MSI-X: expected
# 0); the lifecycle times.
# machines: qemu-svm
# cpus: 2
# timeout: 900
# tests: bench-done
. /tests/lib.sh

WINDOWS=3   # idle windows; run.py takes the median
WINDOW=10   # seconds of Linux's clock per idle window
IPI_RUNS=5  # wdbench ipi runs of 500 calls each
N=1000      # device interrupts of the cell
. /bench-lib.sh

# icr CPU: the CPU's x2APIC ICR exits so far
icr() { warden status | sed -n "s/^cpu $1: running, cell 0, vmexits: .*x2apic_icr=\([0-9]*\).*/\1/p"; }
cell_exits() { warden cell stats $1 | sed -n 's/^cpu 1: vmexits total=\([0-9]*\),.*/\1/p'; }

insmod /wdbench.ko || echo "  > wdbench.ko did not load"
insmod /warden.ko
out "info cpus $(cpus)"

phase=bare
idle bare

phase=enabled
timed enable warden enable /configs/system-qemu.cell
out "enabled pool.after_enable $(pool)"
idle enabled

# root's IPIs: smp_call_function_single from CPU 0 to CPU 1, 500 per run;
# each sends one IPI by an ICR write (and Linux's call-function path may
# add a reschedule or not: counted as they come)
e0=$(icr 0)
for r in $(seq 1 $IPI_RUNS); do
	out "enabled ipi $(measure 0 ipi)"
done
out "enabled ipi.icr_exits_per_1000 $((($(icr 0) - ${e0:-0}) * 1000 / (IPI_RUNS * 500)))"

# a cell's device interrupts: the e1000e's MSI-X, N of them, on CPU 1
phase=cell
p0=$(pool)
timed create warden cell create /configs/cells/pci-demo-e1000e.cell
out "cell pool.per_cell $(($(pool) - p0))"
pci_demo pci-demo-e1000e "irqs=0 mode=msix dev=e1000e" >/dev/null
base=$(cell_exits pci-demo-e1000e)
state=$(pci_demo pci-demo-e1000e "irqs=$N mode=msix dev=e1000e")
e=$(($(cell_exits pci-demo-e1000e) - 2 * base))
echo "  > e1000e MSI-X: state $state, $e exits for $N interrupts"
[ "$state" = "shut-down/-" ] && out "cell msix.exits_per_1000_irqs $((e * 1000 / N))"
timed destroy warden cell destroy pci-demo-e1000e
timed disable warden disable
out "done"
pass bench-done

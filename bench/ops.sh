# SPDX-License-Identifier: GPL-2.0
# bench/run.py --part ops: the cost of single trapped operations (CPUID,
# hypercall, the xAPIC, IPIs) and root's computing loops on CPU 0, bare
# and with Warden enabled, on one Bochs machine, in one short boot: the
# quick loop for work on the exit path (the full bench measures the same
# rows as part of its first boot).  bochs-vmx by default; --machine
# bochs-svm for AMD; WARDEN_BOCHS_MODEL=corei7_skylake_x for the model
# of the 4-CPU groups.
# machines: bochs-vmx bochs-svm
# cpus: 2
# timeout: 900
# tests: ops-done
. /tests/lib.sh

RUNS=5
WINDOWS=1
WINDOW=1
. /bench-lib.sh

ops() {
	phase=$1
	for r in $(seq 1 $RUNS); do
		for k in apic_read apic_write cpuid ipi; do
			out "$phase $k $(measure 0 $k)"
		done
		[ "$phase" = bare ] || out "$phase hypercall $(measure 0 hypercall)"
		for k in alu mem; do
			out "$phase $k.cpu0 $(measure 0 $k)"
		done
	done
}

insmod /wdbench.ko || echo "  > wdbench.ko did not load"
insmod /warden.ko
out "info cpus $(cpus)"
ops bare
warden enable $SYSTEM_CELL >/dev/null || echo "  > enable failed"
ops enabled
warden disable >/dev/null
out "done"
pass ops-done

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

# loops0 PHASE: root's computing loops on CPU 0, RUNS times
loops0() {
	for r in $(seq 1 $RUNS); do
		for k in alu mem; do
			out "$1 $k.cpu0 $(measure 0 $k)"
		done
	done
}

# busy PHASE: CPU 0 computes for 10 s of Linux's clock; its interrupts
# (LOC, and all) and, enabled, its VM exits by reason over that time: what
# root's overhead under load is made of (printed, not rows)
busy() {
	taskset -c 0 sh -c 'while :; do :; done' &
	pid=$!
	sleep 1
	l0=$(loc) i0=$(irqs) e0=$(warden status 2>/dev/null | grep '^cpu 0:')
	sleep 10
	l1=$(loc) i1=$(irqs) e1=$(warden status 2>/dev/null | grep '^cpu 0:')
	kill $pid
	echo "  > busy $1: LOC $l0-> $l1; all irqs $i0-> $i1"
	[ -z "$e0" ] || echo "  > busy $1: exits before: $e0"
	[ -z "$e1" ] || echo "  > busy $1: exits after:  $e1"
}

insmod /wdbench.ko || echo "  > wdbench.ko did not load"
insmod /warden.ko
out "info cpus $(cpus)"
ops bare
loops0 bare
busy bare
warden enable $SYSTEM_CELL >/dev/null || echo "  > enable failed"
ops enabled
ipi_exits enabled
loops0 enabled
busy enabled
warden disable >/dev/null
out "done"
pass ops-done

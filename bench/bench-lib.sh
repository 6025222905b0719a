# SPDX-License-Identifier: GPL-2.0
# What the guest sides of `make bench` share (bench/bochs.sh,
# bench/qemu.sh): wdbench measurements, BENCH lines, idle windows and
# timed commands.  bench/run.py puts it at /bench-lib.sh; the script
# sets WINDOWS and WINDOW (idle windows and their seconds) first.

P=/sys/module/wdbench/parameters

# measure CPU NAME: one wdbench measurement on CPU, its value
measure() {
	taskset -c "$1" sh -c "echo $2 > $P/run" 2>/dev/null
	cut -d' ' -f2- "$P/result"
}
now_ms() { echo $(($(measure 0 ns) / 1000000)); }
out() { echo "BENCH $*"; }
# ops PHASE: the cost of single operations on CPU 0, RUNS times (the
# script sets RUNS)
ops() {
	phase=$1
	for r in $(seq 1 $RUNS); do
		for k in apic_read apic_write cpuid ipi; do
			out "$phase $k $(measure 0 $k)"
		done
		[ "$phase" = bare ] || out "$phase hypercall $(measure 0 hypercall)"
	done
}
# xapic_exits CPU: the CPU's trapped xAPIC accesses so far (root on Bochs)
xapic_exits() { warden status | sed -n "s/^cpu $1: running, cell 0, vmexits: .* xapic=\([0-9]*\).*/\1/p"; }
# ipi_exits PHASE: the trapped xAPIC accesses of root's IPIs, on the
# sender (CPU 0) and the receiver (CPU 1), per 1000 round trips of
# wdbench's ipi (500 smp_call_function_single calls a run, 2 runs).  In
# xAPIC mode Linux reads the ICR (its wait for idle) and writes ICR2 and
# the ICR; the receiver writes EOI: the floor is 3 + 1 (docs/bench.md).
ipi_exits() {
	a0=$(xapic_exits 0) a1=$(xapic_exits 1)
	measure 0 ipi >/dev/null
	measure 0 ipi >/dev/null
	b0=$(xapic_exits 0) b1=$(xapic_exits 1)
	[ -n "$a0" ] && [ -n "$b0" ] && out "$1 ipi.xapic_exits_per_1000.cpu0 $((b0 - a0))"
	[ -n "$a1" ] && [ -n "$b1" ] && out "$1 ipi.xapic_exits_per_1000.cpu1 $((b1 - a1))"
	return 0
}
cpus() { cut -d- -f2 /sys/devices/system/cpu/online | xargs seq 0 | tr '\n' ' '; }

# irqs: per CPU, all interrupts so far (every row of /proc/interrupts)
irqs() {
	awk -v n="$(grep -c ^processor /proc/cpuinfo)" '
		NR > 1 { for (i = 2; i <= n + 1; i++) if ($i ~ /^[0-9]+$/) s[i - 2] += $i }
		END { for (i = 0; i < n; i++) printf "%d ", s[i] }' /proc/interrupts
}
loc() { awk '/LOC:/ { for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+$/) printf "%d ", $i }' /proc/interrupts; }

# idle PHASE: interrupts (and VM exits, when enabled) over idle windows.
# wdbench sleeps in the kernel, so no process starts inside the window
# (each start of a program costs root dozens of CPUID exits).  The shell
# and the sleeping task stay on CPU 0 in every phase: where the scheduler
# put them changed CPU 1's count from phase to phase (its idle ratio came
# out 0.43 in one run and 1.53 in another, with a hypercall or two per
# second on CPU 1 when the task had run there).
# window PHASE N HOW: one idle window (HOW: idle, or idle-warden with
# Warden's exit counters)
window() {
	i0=$(irqs) l0=$(loc)
	echo "$3 $WINDOW" > $P/run
	r=$(cat $P/result)
	i1=$(irqs) l1=$(loc)
	out "$1 idle.window $2 irqs $i0/$i1 loc $l0/$l1 $r"
}
idle() {
	phase=$1
	taskset -p 1 $$ >/dev/null
	how=idle-warden
	[ "${phase%-after}" = bare ] && how=idle
	for w in $(seq 1 $WINDOWS); do
		window "$phase" "$w" "$how"
	done
}

# timed NAME CMD...: how long CMD takes, in ms of Linux's clock
timed() {
	name=$1
	shift
	t0=$(now_ms)
	"$@" >/dev/null 2>&1 || echo "  > $* failed"
	out "$phase time.$name $(($(now_ms) - t0))"
}

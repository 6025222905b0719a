# SPDX-License-Identifier: GPL-2.0
# The guest side of `make bench` on the Bochs machine (bench/run.py boots
# it and reads the "BENCH <phase> <row> <value>" lines it prints).
# Phases, all in one boot: bare (Linux alone), enabled (Warden, no cell),
# cell (apic-demo running on CPU 1 beside root), the lifecycle times, and
# bare again after disable (idle windows only).
# machines: bochs-vmx
# cpus: 2
# timeout: 3000
# tests: bench-done
. /tests/lib.sh

RUNS=5      # runs of each loop; run.py takes the median
WINDOWS=5   # idle windows; run.py takes the median
WINDOW=15   # seconds of Linux's clock per idle window
. /bench-lib.sh

# loops PHASE CPUS...: the root overhead loops on each CPU
loops() {
	phase=$1
	shift
	for r in $(seq 1 $RUNS); do
		for c in "$@"; do
			for k in alu mem; do
				out "$phase $k.cpu$c $(measure "$c" $k)"
			done
		done
		out "$phase tlb.cpu$1 $(measure "$1" tlb)"
	done
}

# pairs: bare and enabled idle windows in turn (window, enable, window,
# disable, ...), which run.py judges idle with.  Idle counts drift over a
# boot, and Linux's own timers make a window's count vary (docs/bench.md):
# windows taken in turn see the same drift.
pairs() {
	taskset -p 1 $$ >/dev/null
	for w in $(seq 1 $WINDOWS); do
		window pair-bare "$w" idle
		warden enable /configs/system-bochs.cell >/dev/null
		sleep 1
		window pair-enabled "$w" idle-warden
		warden disable >/dev/null
		sleep 1
	done
}

insmod /wdbench.ko || echo "  > wdbench.ko did not load"
insmod /warden.ko
out "info cpus $(cpus)"

phase=bare
loops bare $(cpus)
ops bare
idle bare
pairs

phase=enabled
timed enable warden enable /configs/system-bochs.cell
# where it went (warden.ko's own account: docs/bench.md)
echo "  enable: $(dmesg | grep 'warden: enabled' | tail -n 1 | sed 's/.*entering took //')"
out "enabled pool.after_enable $(pool)"
loops enabled $(cpus)
ops enabled
ipi_exits enabled
idle enabled

# A cell beside root: apic-demo (a 1 ms periodic APIC timer) on CPU 1.
phase=cell
for mode in x2apic xapic; do
	p0=$(pool)
	timed create.$mode warden cell create /configs/cells/apic-demo.cell
	out "cell pool.per_cell $(($(pool) - p0))"
	timed load.$mode warden cell load apic-demo /inmates/apic-demo.bin \
		-s "mode=$mode report=1000" -a 0xff000
	timed start.$mode warden cell start apic-demo
	sleep 2
	echo "BENCHJSON cell $mode stats $(warden cell stats apic-demo --json | tr -d '\n')"
	[ $mode = xapic ] || loops cell 0
	[ $mode = xapic ] || idle cell
	echo "BENCHJSON cell $mode stats2 $(warden cell stats apic-demo --json | tr -d '\n')"
	warden cell shutdown apic-demo >/dev/null 2>&1
	timed destroy.$mode warden cell destroy apic-demo
done
# The tick's lateness without an exiting read (docs/bench.md): apic-demo
# with its timer in TSC-deadline mode, 5 reports of 1000 ticks per mode.
for mode in x2apic xapic; do
	warden cell create /configs/cells/apic-demo.cell >/dev/null
	warden cell load apic-demo /inmates/apic-demo.bin \
		-s "mode=$mode timer=deadline report=1000" -a 0xff000 >/dev/null
	warden cell start apic-demo >/dev/null
	sleep 6
	warden cell shutdown apic-demo >/dev/null 2>&1
	warden cell destroy apic-demo >/dev/null
done
# From "cell start" to the inmate's first line on the hypervisor console
# (tiny-demo with console: hypercall), polled: a resolution of one poll.
warden cell create /configs/cells/tiny-demo-hc.cell >/dev/null
warden cell load tiny-demo-hc /inmates/tiny-demo.bin >/dev/null
t0=$(now_ms)
warden cell start tiny-demo-hc >/dev/null
n=0
while [ $n -lt 1000 ] && ! warden console | grep -q '^\[tiny-demo-hc\]'; do
	n=$((n + 1))
done
out "cell time.start_to_output $(($(now_ms) - t0))"
out "cell polls.start_to_output $n"
warden cell destroy tiny-demo-hc >/dev/null 2>&1
timed disable warden disable
echo "  disable: $(dmesg | grep 'warden: disabled' | tail -n 1 | sed 's/.*; \([0-9]* ms in all.*\)/\1/')"

# Bare again, after disable: idle counts drift over a boot (CPU 1's rose
# from about 3 to 5 per second once Warden had been loaded, and stayed so
# after disable), so run.py compares with all bare windows, before and
# after.
phase=bare
idle bare-after
out "done"
pass bench-done

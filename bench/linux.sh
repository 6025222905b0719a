# SPDX-License-Identifier: GPL-2.0
# The guest side of `make bench`'s third boot (bench/run.py): Debian's
# stock kernel in a 1-CPU cell (docs/linux-cell.md), as the linux-cell
# group boots it on bochs-vmx: how long "warden cell linux" takes (the
# CLI unpacks the kernel and writes the cell's memory), the time from its
# return (the cell's start) to the cell's init at its shell, and the idle
# cell's VM exits per second by reason.  Root's clock (/proc/uptime);
# Bochs' clock runs at its instruction rate, so these are emulator
# figures, not a board's (docs/bench.md).
# Also booted on qemu-svm (the second machine here), where the idle cell's
# exits are expected to be 0 (its x2APIC passed through).
# And the latency run (docs/linux-cell.md, "Latency"): cyclictest
# (wd-cyclictest) in root bare first, before insmod, on CPU 1, the CPU the
# cell gets later; at the end, after the idle cell's destroy, in a 1-CPU
# cell booted again while root streams memory on CPU 0, all it has left
# (lib.sh's cell_latency), with the cell's exits in cyclictest's loop.
# 10,000 periods of 1 ms each (10 s of Linux's clock) on both machines;
# on Bochs the two runs and the second cell's boot take about 95 s of
# Linux's clock and 4 minutes of wall time (the part: 8 min 16 s, one run
# with the machine shared), on qemu-svm about 1 minute.
# machines: bochs-vmx qemu-svm
# cpus: 2
# cmdline: memmap=256M$0x20000000
# linux-payload: yes
# timeout: 1800
# tests: bench-linux-done
. /tests/lib.sh

out() { echo "BENCH $*"; }
# the cell's init has read port 0x80 once: the access log's first use on
# the hypervisor console (as in tests/system/linux-cell.sh)
at_shell() {
	warden console | grep -q 'cell [0-9]* first use: port in 0x80 '
}
exits() { cat /sys/kernel/warden/cells/1/statistics/vmexits_$1; }
REASONS='total cpuid cr msr_read msr_write x2apic_icr xapic xsetbv pio mmio hypercall management nmi init_sipi exception other'

LOOPS=10000
# root bare: nothing loaded, no cell yet; its line goes to root's console
# (bench/run.py reads it there, the cell's from COM3)
wd-cyclictest $LOOPS 1 | sed 's/^/root bare: /'
insmod /warden.ko
warden enable $SYSTEM_CELL >/dev/null
t0=$(ms)
warden cell linux /configs/cells/linux-1cpu.cell /linux/vmlinuz \
	--initrd /linux/initrd.cpio >/dev/null
t1=$(ms)
out "linux cell_linux_cmd_ms $((t1 - t0))"
shell=no
while [ $(($(ms) - t1)) -lt 600000 ]; do
	if at_shell; then shell=yes; break; fi
	sleep 0.2
done
t2=$(ms)
[ $shell = yes ] && out "linux start_to_shell_ms $((t2 - t1))"
# idle at its shell: 10 s of root's clock
sleep 2
for r in $REASONS; do eval "a_$r=\$(exits $r)"; done
a=$(ms)
sleep 10
b=$(ms)
out "linux idle_window_ms $((b - a))"
for r in $REASONS; do
	eval "n=\$((\$(exits $r) - a_$r))"
	if [ "$r" = total ] || [ "$n" != 0 ]; then out "linux idle_exits.$r $n"; fi
done
# destroy clears the cell's RAM (128 MiB): against a 1 MiB cell's destroy
# in the same boot, the clearing rate (docs/bench.md "Growth")
t=$(ms)
warden cell destroy linux-1cpu >/dev/null
out "linux destroy_ms $(($(ms) - t))"
warden cell create /configs/cells/tiny-demo.cell >/dev/null &&
	warden cell load tiny-demo /inmates/tiny-demo.bin >/dev/null
t=$(ms)
warden cell destroy tiny-demo >/dev/null
out "linux destroy_1mib_ms $(($(ms) - t))"
# the cell under root's load
cell_latency linux-1cpu $LOOPS 600
echo "cell latency: $LAT_RESULT; root's load on CPUs$LOAD_CPUS for $LAT_LOAD_MS ms; the cell's exits in cyclictest's loop: ${LAT_EXITS:-?}${LAT_BY:+ ($LAT_BY)}, in starting it: ${LAT_START_EXITS:-?}${LAT_START_BY:+ ($LAT_START_BY)}"
if [ "$LAT_RESULT" = ok ]; then
	# what the cell used in the loop: the access log's counts that moved
	diff /tmp/lat-stats-b /tmp/lat-stats-c | sed -n 's/^\([-+]\)/  in the loop: \1 /p'
	out "linux cyclictest.cell_exits $LAT_EXITS"
	out "linux cyclictest.cell_start_exits $LAT_START_EXITS"
fi
warden cell destroy linux-1cpu >/dev/null
warden disable >/dev/null
[ $shell = yes ] && [ "$LAT_RESULT" = ok ] && pass bench-linux-done

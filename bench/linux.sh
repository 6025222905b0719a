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
warden disable >/dev/null
[ $shell = yes ] && pass bench-linux-done

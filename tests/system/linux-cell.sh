# SPDX-License-Identifier: GPL-2.0
# Debian's stock kernel in a cell (docs/linux-cell.md): "warden cell
# linux" boots the file root runs (build/kernel/vmlinuz, a bzImage as
# Debian ships it) with a busybox initramfs, first in a one-CPU cell on
# COM3, then in a two-CPU cell on COM4 (the kernel starts its second CPU
# by INIT/SIPI); each reports on its UART and leaves a shell prompt.  The
# access log of what the kernel used is printed on the hypervisor console
# when the cell is destroyed.  Once at its shell, the 1-CPU cell must take
# no VM exit at all for 5 s (idle Linux: TSC-deadline timer, x2APIC, HLT
# and the polled UART pass through on qemu-svm); the 2-CPU cell only the
# x2APIC ICR writes of the IPIs between its CPUs, which the hypervisor
# checks.
# The cells' 256 MiB come from a second reservation that only this group
# makes (memmap=256M$0x20000000; the other groups keep the 64 MiB one).
# qemu-svm: root in x2APIC mode, so the cell's x2APIC is passed through;
# both Linux cells and the zero-exit checks.  bochs-vmx (Intel, root in
# xAPIC mode, the cell's x2APIC emulated): the 1-CPU cell to its shell,
# its idle exits counted per reason, poweroff; about 4.5 minutes, the
# only Intel boot of a stock kernel in a cell (docs/linux-cell.md).
# machines: qemu-svm bochs-vmx
# cpus: 3
# timeout: 900
# cmdline: memmap=256M$0x20000000
# linux-payload: yes
# cpus@bochs-vmx: 2
# timeout@bochs-vmx: 1800
# tests: insmod enable linux-1cpu-started linux-1cpu-shell linux-1cpu-running linux-1cpu-destroyed poweroff-started poweroff-shut-down poweroff-named poweroff-destroyed pool-back root-works disable
# tests@qemu-svm: devmem-started devmem-cell-failed devmem-named devmem-destroyed linux-1cpu-zero-exits linux-2cpu-started linux-2cpu-shell linux-2cpu-running linux-2cpu-idle-ipis-only linux-2cpu-destroyed
# console: com3 linux-1cpu-up ^linux-cell: up, kernel 6\.1\.[0-9-]+amd64, nproc 1$
# console: com3 linux-1cpu-command ^linux-cell: 6 \* 7 = 42$
# console: com3 linux-1cpu-prompt ^linux-cell: shell
# console: com3 poweroff-in-cell ^linux-cell: powering off
# console@qemu-svm: com3 devmem-tried ^linux-cell: reading 0x10000000
# console-absent@qemu-svm: com3 devmem-stopped ^linux-cell: read 0x10000000 and still running
# console@qemu-svm: com4 linux-2cpu-nproc ^linux-cell: up, kernel 6\.1\.[0-9-]+amd64, nproc 2$
# console@qemu-svm: com4 linux-2cpu-command ^linux-cell: 6 \* 7 = 42$
# console@qemu-svm: com4 linux-2cpu-prompt ^linux-cell: shell
. /tests/lib.sh

REASONS='cpuid cr msr_read msr_write x2apic_icr xapic pio mmio management nmi init_sipi exception other'
# exits NAME [REASON]: the VM exits of the cell of that name so far, all
# or of one reason (sysfs statistics, e.g. x2apic_icr)
exits() {
	for d in /sys/kernel/warden/cells/*; do
		[ "$(cat $d/name 2>/dev/null)" = "$1" ] &&
			cat $d/statistics/vmexits_${2:-total} && return
	done
	echo gone
}
# boot NAME zero|ipis: run the Linux cell of that config; wait (at most $LINUX_WAIT
# s) for its init to reach the shell: it reads port 0x80 once, which its
# access log names on the hypervisor console; then its CPUs must take no VM
# exit at all for 5 s (idle Linux: the TSC-deadline timer, the x2APIC, HLT
# and the polled UART pass through), or, with ipis, none but ICR writes.
LINUX_WAIT=${LINUX_WAIT:-240}
# at_shell NAME: the hypervisor console has the mark since the cell of
# that name last started (an earlier cell of the same id made one too)
at_shell() {
	warden console | awk -v s="\"$1\" started" 'index($0, s) { n = 0 }
		/cell [0-9]+ first use: port in 0x80 / { n++ } END { exit !n }'
}
boot() {
	expect_rc $1-started 0 warden cell linux /configs/cells/$1.cell \
		/linux/vmlinuz --initrd /linux/initrd.cpio
	t=0 shell=no
	while [ $t -lt $LINUX_WAIT ]; do
		sleep 1
		t=$((t + 1))
		warden cell list | grep -q "$1 *running" || break
		if at_shell $1; then shell=yes; break; fi
	done
	if [ $shell = yes ]; then pass $1-shell; else fail $1-shell "no sign of its init after $t s"; fi
	[ $shell = no ] || echo "  > $1: init at its shell after $t s"
	a=$(exits $1) ai=$(exits $1 x2apic_icr)
	for r in $REASONS; do eval "r0_$r=\$(exits $1 $r)"; done
	sleep 5
	b=$(exits $1) bi=$(exits $1 x2apic_icr)
	per=
	for r in $REASONS; do
		eval "n=\$((\$(exits $1 $r) - r0_$r))"
		[ "$n" = 0 ] || per="$per $r=$n"
	done
	echo "  > $1: idle for 5 s: $((b - a)) VM exits, $((bi - ai)) of them x2APIC ICR writes; by reason:${per:- none}"
	run warden cell list
	if echo "$OUT" | grep -q "$1 *running"; then pass $1-running; else fail $1-running "$(echo "$OUT" | grep "$1")"; fi
	if [ $2 = count ]; then
		: # counted above, per reason below (cell stats)
	elif [ $2 = zero ]; then
		if [ "$a" = "$b" ]; then pass $1-zero-exits; else fail $1-zero-exits "VM exits $a, 5 s later $b"; fi
	else
		# with two CPUs Linux sends the odd IPI even when idle; ICR
		# writes are checked by the hypervisor (isolation), so those
		# exit, and nothing else may
		if [ $((b - a)) = $((bi - ai)) ] && [ $((b - a)) -le 50 ]; then pass $1-idle-ipis-only; else fail $1-idle-ipis-only "in 5 s $((b - a)) VM exits, $((bi - ai)) of them ICR writes"; fi
	fi
	run warden cell stats $1
	run sh -c "warden console | grep -v 'cell [0-9]* first use' | tail -n 8"
	expect_rc $1-destroyed 0 warden cell destroy $1
}

expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable $SYSTEM_CELL
pool() { warden status | sed -n 's/^memory pool: \([0-9]*\) of.*/\1/p'; }
before=$(pool)
case $MACHINE in
qemu-svm)
	boot linux-1cpu zero
	boot linux-2cpu ipis
	;;
*) # xAPIC root: the cell's x2APIC is emulated, its timer exits
	boot linux-1cpu count
	;;
esac
# wait_stopped CELL: until CELL no longer runs, at most LINUX_WAIT s ($t:
# the seconds waited)
wait_stopped() {
	t=0
	while [ $t -lt $LINUX_WAIT ] && warden cell list | grep -q "$1 *running"; do
		sleep 1
		t=$((t + 1))
	done
}
# poweroff inside the cell (the same 1-CPU cell created again): ACPI S5
# through the emulated sleep control register; the cell ends "shut down"
expect_rc poweroff-started 0 warden cell linux /configs/cells/linux-1cpu.cell \
	/linux/vmlinuz --initrd /linux/initrd.cpio --cmdline wd_test=poweroff
wait_stopped linux-1cpu
run warden cell list
if echo "$OUT" | grep -q 'linux-1cpu *shut down'; then pass poweroff-shut-down; else fail poweroff-shut-down "after $t s: $(echo "$OUT" | grep linux-1cpu)"; fi
run sh -c "warden console | grep 'linux-1cpu' | tail -n 3"
expect_out poweroff-named 'ACPI soft-off \(S5\) through the sleep control register; cell shut down'
expect_rc poweroff-destroyed 0 warden cell destroy linux-1cpu
if [ "$MACHINE" = qemu-svm ]; then
	# a read outside the cell's memory through /dev/mem: the cell is
	# failed, the console names the address, root goes on
	expect_rc devmem-started 0 warden cell linux /configs/cells/linux-1cpu.cell \
		/linux/vmlinuz --initrd /linux/initrd.cpio --cmdline wd_test=devmem
	wait_stopped linux-1cpu
	run warden cell list
	if echo "$OUT" | grep -q 'linux-1cpu *failed'; then pass devmem-cell-failed; else fail devmem-cell-failed "after $t s: $(echo "$OUT" | grep linux-1cpu)"; fi
	run sh -c "warden console | grep 'linux-1cpu' | tail -n 2"
	expect_out devmem-named 'read outside its memory 0x10000000 at RIP'
	expect_rc devmem-destroyed 0 warden cell destroy linux-1cpu
fi
after=$(pool)
if [ -n "$before" ] && [ "$before" = "$after" ]; then pass pool-back; else fail pool-back "pool pages before the first Linux cell $before, after the last destroy $after"; fi
# what the kernels used (the access log, printed at destroy)
warden console | grep -E 'cell [0-9]+ used:' | sed 's/^/  access: /'
if [ "$(echo 'i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; echo ok' | sh)" = ok ]; then pass root-works; else fail root-works "a shell loop did not finish"; fi
expect_rc disable 0 warden disable

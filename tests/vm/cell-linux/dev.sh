#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Linux cell's side of the pass-through test in
# tests/system/linux-net.sh (wd_dev=e1000e on the command line; run by
# /init before net.sh): Debian's e1000e.ko, the file of the kernel
# package, binds the e1000e (82574L) the cell owns at 00:04.0, which Linux
# found by its own PCI scan; its link comes up (QEMU's user-mode network
# behind it) and its MSI-X vectors take the interrupts of 200 echoes to
# QEMU's gateway 10.0.2.2.  Root counts the cell's VM exits over that run
# between two marks the cell makes: a read of port 0x80 each (a quiet
# port, counted in the access log of "warden cell stats"; init's read at
# the shell is the first).  Then the e1000 (00:02.0) with e1000.ko, by
# INTx through the IOAPIC pin 22 its tables route (_PRT): 50 echoes
# between marks 4 and 5; last, the console UART's interrupt count.
# Everything goes to the console as "linux-dev:" lines, which the runner
# checks.
say() { echo "linux-dev: $*"; }
BDF=0000:00:04.0
fn=/sys/bus/pci/devices/$BDF
mark() { dd if=/dev/port bs=1 skip=128 count=1 2>/dev/null >/dev/null; }
# irqsum: the sum over the lines of the function's interrupts in
# /proc/interrupts (eth0-rx-0, eth0-tx-0, eth0) into s, by the shell's
# builtins alone: a process started (sed, awk) would exit, CPUID, while
# root still counts
irqsum() {
	s=0
	while read -r num count rest; do
		case "$rest" in
		*" $dev" | *" $dev-"*) s=$((s + count)) ;;
		esac
	done </proc/interrupts
}
# quiet: 5 s without starting a process, after a closing mark: root
# reads the cell's exit counts once it sees the mark (it looks every
# second), and a process's start (even sleep's) would exit; the shell's
# read builtin waits on a FIFO nobody writes
mkfifo /tmp/quiet
exec 5<>/tmp/quiet
quiet() { read -r -t 5 x <&5; }
# carrier_wait: up to 20 s for $dev's carrier, said
carrier_wait() {
	i=0
	while [ $i -lt 20 ] && [ "$(cat /sys/class/net/$dev/carrier 2>/dev/null)" != 1 ]; do
		sleep 1
		i=$((i + 1))
	done
}
# marked_pings COUNT INTERVAL LABEL: COUNT echoes to QEMU's gateway
# through $dev between two marks, and the interrupts of $dev meanwhile.
# One ping process, started a second before the first mark: a process's
# start (the exec of static busybox, whose libc probes the CPU by CPUID,
# which exits) is not the device's doing.  The two marks are one-byte
# reads by the shell itself (its read builtin) from /dev/port, opened
# twice and each placed at port 0x80 beforehand: a process started for
# the second (dd) would exit in the window.
marked_pings() {
	exec 3</dev/port 4</dev/port
	dd bs=128 skip=1 count=0 <&3 2>/dev/null
	dd bs=128 skip=1 count=0 <&4 2>/dev/null
	ping -c "$1" -i "$2" -W 2 10.0.2.2 >/tmp/ping.out 2>&1 &
	pid=$!
	sleep 1
	irqsum
	a=$s
	read -r -n 1 x <&3
	wait $pid
	read -r -n 1 x <&4
	irqsum
	b=$s
	exec 3<&- 4<&-
	quiet
	say "${3}ping 10.0.2.2: $(sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) packets received.*/\2 of \1 answered/p' /tmp/ping.out)"
	say "interrupts of $dev during the run: $((b - a)) ($a -> $b)"
	grep -E "$dev" /proc/interrupts | sed 's/^/linux-dev: | /'
}

if [ ! -e $fn ]; then
	say "no function $BDF: $(ls /sys/bus/pci/devices | tr '\n' ' ')"
	mark # the four marks root waits for
	mark
	mark
	mark
	exit 1
fi
insmod /modules/e1000e.ko || say "insmod e1000e.ko failed"
say "function $(cat $fn/vendor):$(cat $fn/device) driver $(basename "$(readlink $fn/driver)")"
dev=$(ls $fn/net 2>/dev/null | head -n 1)
ip link set "$dev" up
carrier_wait
say "$dev carrier $(cat /sys/class/net/$dev/carrier 2>/dev/null) after $i s"
nv=$(ls $fn/msi_irqs 2>/dev/null | wc -l)
kind=$(for v in $(ls $fn/msi_irqs 2>/dev/null); do cat $fn/msi_irqs/$v; done | sort -u | tr '\n' ' ')
say "$nv vectors, $kind"
grep -E "$dev" /proc/interrupts | sed 's/^/linux-dev: | /'
ip addr add 10.0.2.15/24 dev "$dev"
marked_pings 200 0.05 ""
# The e1000 (82540EM) at 00:02.0: no MSI, its INTA through the IOAPIC
# pin 22 the cell owns, which the cell's tables route (_PRT); the
# e1000e's interface down first (the same subnet behind both)
ip addr flush dev "$dev"
ip link set "$dev" down
fn=/sys/bus/pci/devices/0000:00:02.0
insmod /modules/e1000.ko || say "insmod e1000.ko failed"
say "function $(cat $fn/vendor):$(cat $fn/device) driver $(basename "$(readlink $fn/driver)")"
dev=$(ls $fn/net 2>/dev/null | head -n 1)
ip link set "$dev" up
carrier_wait
say "e1000 $dev carrier $(cat /sys/class/net/$dev/carrier 2>/dev/null) after $i s"
say "e1000 $dev by INTx: $(grep " $dev\$" /proc/interrupts | tr -s ' ' | cut -d' ' -f4-)"
ip addr add 10.0.2.15/24 dev "$dev"
marked_pings 50 0.1 "e1000 "
# the console UART, interrupt-driven where the cell owns its pin
# (COM4: IRQ 3), has an interrupt whose count the lines above made grow
/uart.sh
say "done"

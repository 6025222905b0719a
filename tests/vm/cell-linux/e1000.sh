#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The e1000 by INTx in the Linux cell on bochs-vmx (wd_e1000 on the
# command line; tests/system/linux-cell.sh, docs/linux-cell.md "Devices"):
# Debian's e1000.ko binds the e1000 (82540EM) at 00:02.0, which Linux
# found by its own PCI scan, and takes its interrupts through the IOAPIC
# pin 17 the cell owns and its tables route (_PRT).  Bochs's e1000 has no
# network behind it (ethmod=null), so what makes interrupts is the
# device's own: the link coming up, the frames the cell sends (20 echo
# requests to 10.0.2.2, which nothing answers: ARP requests, each a
# transmit-done interrupt) and the driver's watchdog, which raises one
# every 2 s.  Its DMA (the descriptor rings, the frames) goes to the
# cell's RAM at guest = phys.  "linux-e1000:" lines, which the runner
# checks.
say() { echo "linux-e1000: $*"; }
fn=/sys/bus/pci/devices/0000:00:02.0
# count: the interrupts of $dev, summed over the cell's CPUs
count() {
	awk -v d="$dev" '$NF == d { for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+$/) n += $i }
		END { print n + 0 }' /proc/interrupts
}
if [ ! -e $fn ]; then
	say "no function 00:02.0: $(ls /sys/bus/pci/devices | tr '\n' ' ')"
	exit 1
fi
insmod /modules/e1000.ko || say "insmod e1000.ko failed"
say "function $(cat $fn/vendor):$(cat $fn/device) driver $(basename "$(readlink $fn/driver)")"
dev=$(ls $fn/net 2>/dev/null | head -n 1)
ip link set "$dev" up
i=0
while [ $i -lt 20 ] && [ "$(cat /sys/class/net/$dev/carrier 2>/dev/null)" != 1 ]; do
	sleep 1
	i=$((i + 1))
done
say "$dev carrier $(cat /sys/class/net/$dev/carrier 2>/dev/null) after $i s"
say "$dev by INTx: $(grep " $dev\$" /proc/interrupts | tr -s ' ' | grep -o 'IO-APIC.*')"
ip addr add 10.0.2.15/24 dev "$dev"
a=$(count)
ping -c 20 -i 0.5 -W 1 10.0.2.2 >/tmp/ping.out 2>&1
b=$(count)
say "interrupts of $dev during the run: $((b - a)) ($a -> $b)"
say "$(grep " $dev\$" /proc/interrupts | tr -s ' ')"
say "$dev tx_packets $(cat /sys/class/net/$dev/statistics/tx_packets)"
ip addr flush dev "$dev"
ip link set "$dev" down
say "done"

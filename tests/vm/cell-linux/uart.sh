#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The console UART by interrupt (docs/linux-cell.md "Devices"): where the
# cell owns the IOAPIC pin of its UART's ISA IRQ (irq_pins), the generated
# DSDT gives the UART's _CRS that interrupt and Linux's 8250 driver runs
# it by interrupt: a ttyS line in /proc/interrupts whose count the
# console's output makes grow.  Run by dev.sh (linux-net, qemu-svm) and by
# /init for wd_uart (linux-cell, bochs-vmx); "linux-uart:" lines, which
# the runner checks.
say() { echo "linux-uart: $*"; }
# count: the ttyS line's interrupts summed over the cell's CPUs, empty
# without such a line (a polled UART)
count() {
	awk '/ttyS/ { l = 1; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i }
		END { if (l) print n + 0 }' /proc/interrupts
}
# a line between the two counts: its transmission takes interrupts
u=$(count)
say "$(grep ttyS /proc/interrupts | tr -s ' ')"
sleep 1
v=$(count)
if [ -n "$u" ] && [ "$v" -gt "$u" ]; then
	say "uart interrupts growing: $u then $v"
else
	say "uart interrupts not growing: '$u' then '$v'"
fi

# SPDX-License-Identifier: GPL-2.0
# Idle root takes no timer-interrupt storm under Warden: each CPU's local
# timer interrupts (LOC), counted over 4 idle windows of 5 s of Linux's
# clock with Warden enabled, must stay below twice bare in the same boot
# plus 200 (10 per second).  Bare is counted before enable and again after
# disable, and the larger count is taken.
#
# Why this model and this bound (docs/test-machine.md): the storm needs a
# local APIC timer that fires early, as on the Skylake-X model, where Linux
# takes the timer's rate from CPUID and every one-shot fires about 4 times
# early.  Before the decode cache each of those interrupts cost two
# trapped xAPIC accesses of about 3,000 instructions, Linux never stopped
# its tick, and this test failed by far: 50,293 and 50,275 interrupts in
# 20 s enabled against 2,238 and 2,707 bare.  Idle counts are otherwise
# noisy: CPU 0, where the shell runs, flips between a stopped and a running
# tick from one 5 s window to the next (15 to 1,146 per window, bare and
# enabled alike), so a 10 % bound failed on noise alone (910 against 101).
# The 10 % bound is tick's, on a periodic tick, which counts exactly.
# machines: bochs-vmx qemu-svm
# cpu-model: corei7_skylake_x
# cpus: 2
# timeout: 600
# tests: insmod enable disable timer-cpu0 timer-cpu1
# tests@qemu-svm: idle-exits-cpu0 idle-exits-cpu1
. /tests/lib.sh

taskset -p 1 $$ >/dev/null

loc_phases
echo "  > LOC in 20 s idle, CPU 0 and 1: bare $bare, enabled $enabled, bare after disable $after"
for cpu in 0 1; do
	b=$(echo $bare | cut -d' ' -f$((cpu + 1)))
	a=$(echo $after | cut -d' ' -f$((cpu + 1)))
	[ "$a" -gt "$b" ] && b=$a
	e=$(echo $enabled | cut -d' ' -f$((cpu + 1)))
	if [ "$e" -le $((2 * b + 200)) ]; then
		pass timer-cpu$cpu
	else
		fail timer-cpu$cpu "CPU $cpu took $e local timer interrupts in 20 s idle with Warden enabled, $b bare (the larger of before and after): more than twice bare plus 200"
	fi
done

# Root's idle exits per CPU where root is in x2APIC mode (qemu-svm): its
# APIC is its own but for ICR writes, so an idle CPU's timer interrupts
# cause no exit.  Over 20 s: CPU 1 (idle) takes fewer exits than local
# timer interrupts (a timer path that exited would take at least one per
# interrupt); CPU 0, where this shell and the CLI run, at most 50 per
# second.
if [ "$MACHINE" = qemu-svm ]; then
	# exits CPU STATUS-OUTPUT: the CPU's exit total in it
	exits() { echo "$2" | sed -n "s/^cpu $1: running, cell 0, vmexits: total=\([0-9]*\).*/\1/p"; }
	loc() { awk -v c=$(($1 + 2)) '/LOC:/ { print $c }' /proc/interrupts; }
	warden enable $SYSTEM_CELL >/dev/null
	sleep 2
	s1=$(warden status) l0=$(loc 0) l1=$(loc 1)
	sleep 20
	s2=$(warden status) m0=$(loc 0) m1=$(loc 1)
	warden disable >/dev/null
	echo "$s1" "$s2" | grep '^cpu' | sed 's/^/  > /'
	e0=$(($(exits 0 "$s2") - $(exits 0 "$s1"))) e1=$(($(exits 1 "$s2") - $(exits 1 "$s1")))
	echo "  > root idle, 20 s: CPU 0 $e0 exits ($((e0 / 20))/s), $((m0 - l0)) timer interrupts; CPU 1 $e1 exits ($((e1 / 20))/s), $((m1 - l1)) timer interrupts"
	if [ -n "$(exits 0 "$s1")" ] && [ "$e0" -le 1000 ]; then pass idle-exits-cpu0; else fail idle-exits-cpu0 "CPU 0: $e0 exits in 20 s idle, more than 50 per second"; fi
	if [ -n "$(exits 1 "$s1")" ] && [ "$e1" -lt "$((m1 - l1))" ]; then pass idle-exits-cpu1; else fail idle-exits-cpu1 "CPU 1: $e1 exits in 20 s idle, not fewer than its $((m1 - l1)) timer interrupts"; fi
fi

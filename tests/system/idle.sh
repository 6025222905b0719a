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

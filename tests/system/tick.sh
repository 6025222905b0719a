# SPDX-License-Identifier: GPL-2.0
# Root's timer under Warden ticks as it does bare: with a periodic tick
# (nohz=off) each CPU's local timer interrupts (LOC), counted over 4
# windows of 5 s of Linux's clock, with Warden enabled must be within
# 10 % of bare in the same boot, before enable and after disable alike.
#
# Why a periodic tick (docs/test-machine.md): an idle tick that stops
# (nohz, the default) makes the counts of an idle CPU small and noisy,
# too noisy for a 10 % bound (idle, which catches the storm of
# early-firing timers, bounds them by twice bare plus 200).  A periodic
# tick counts HZ (250) interrupts per second whatever the load: 1,258 to
# 1,260 per window bare and enabled alike on this model.  So a hypervisor
# that changes root's timer (its divide configuration, its current
# count, interrupts lost or doubled) fails here.
# machines: bochs-vmx qemu-svm
# cmdline: nohz=off
# cpus: 2
# timeout: 600
# tests: insmod enable disable timer-cpu0 timer-cpu1 timer-cpu0-after timer-cpu1-after
. /tests/lib.sh

taskset -p 1 $$ >/dev/null
# within NAME MEASURED BARE WHAT: MEASURED is within 10 % of BARE
within() {
	if [ $((10 * $2)) -ge $((9 * $3)) ] && [ $((10 * $2)) -le $((11 * $3)) ]; then
		pass "$1"
	else
		fail "$1" "$4: $2 local timer interrupts in 20 s of periodic tick against $3 bare, more than 10 % apart"
	fi
}

loc_phases
echo "  > LOC in 20 s, periodic tick, CPU 0 and 1: bare $bare, enabled $enabled, after disable $after"
for cpu in 0 1; do
	f=$((cpu + 1))
	b=$(echo $bare | cut -d' ' -f$f)
	within timer-cpu$cpu "$(echo $enabled | cut -d' ' -f$f)" "$b" "CPU $cpu with Warden enabled"
	within timer-cpu$cpu-after "$(echo $after | cut -d' ' -f$f)" "$b" "CPU $cpu after disable"
done

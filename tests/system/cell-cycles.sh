# SPDX-License-Identifier: GPL-2.0
# 20 cell lifecycles in one boot: create, load, start, destroy tiny-demo
# (the destroy asks the running inmate first).  Each time the CPU comes
# back online and runs work; the memory pool returns to its value before
# the first create; no kernel warning appears.
# machines: bochs-vmx qemu-svm
# cpus: 2
# timeout: 1200
# tests: insmod enable cycles20 pool-back no-kernel-warning disable
. /tests/lib.sh

online=/sys/devices/system/cpu/cpu1/online

expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable $SYSTEM_CELL
before=$(pool)
dmesg -c >/dev/null
ok=0 pools=""
for i in $(seq 1 20); do
	warden cell create /configs/cells/tiny-demo.cell >/dev/null || break
	warden cell load tiny-demo /inmates/tiny-demo.bin >/dev/null || break
	warden cell start tiny-demo >/dev/null || break
	warden cell list | grep -Eq '^1 +tiny-demo +(running|shut down) +1 +-$' || break
	warden cell destroy tiny-demo >/dev/null || break
	[ "$(cat $online)" = 1 ] || break
	[ "$(taskset -c 1 sh -c 'echo alive')" = alive ] || break
	pools="$pools $(pool)"
	ok=$i
done
echo "  > pool pages used after each destroy:$pools (before: $before)"
if [ "$ok" = 20 ]; then pass cycles20; else fail cycles20 "stopped in cycle $((ok + 1)): $(warden console | tail -n 3 | tr '\n' ' ')"; fi
if [ -n "$before" ] && [ "$(echo $pools | tr ' ' '\n' | sort -u)" = "$before" ]; then pass pool-back; else fail pool-back "pool before $before, after each destroy:$pools"; fi
run sh -c "dmesg | grep -E 'WARNING|BUG|Oops|Call Trace|unchecked MSR' | head -n 5"
if [ -z "$OUT" ]; then pass no-kernel-warning; else fail no-kernel-warning "$OUT"; fi
expect_rc disable 0 warden disable

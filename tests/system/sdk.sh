# SPDX-License-Identifier: GPL-2.0
# Using Warden as a new user does: an inmate built out of the tree
# against the installed SDK (tests/sdk/hello, build/inmates/sdk-hello.elf)
# runs as an ELF image in a cell through "warden cell run" with a command
# line at its ABI place; "cell load" refuses, with the reason and nothing
# changed, an ELF whose entry point is not the cell's reset address and an
# image outside the cell's memory; "console CELL" shows that cell's lines
# only, "console --json" each line as an object naming its cell; "cell stats --watch" reports every second.
# Only qemu-svm-noiommu: these are the CLI's and the driver's, the same on
# every vendor, and this is the fastest machine (one boot of about a
# minute).
# machines: qemu-svm-noiommu
# cpus: 2
# timeout: 300
# tests: insmod hardware-json enable link-list-json run-elf sysfs-loadable sysfs-reset shutdown destroy run-hypercall-console console-cell console-cell-only console-json console-json-hv stats-watch stats-watch-json entry-refused entry-refused-unchanged outside-refused legacy-cmdline root-named disable rmmod
# console: com3 sdk-hello-ran ^hello from an out-of-tree inmate, who=sdk
# console: com3 sdk-hello-shutdown ^hello: shutting down
. /tests/lib.sh

expect_rc insmod 0 insmod /warden.ko
run warden hardware check --json
expect_out hardware-json '^\{"cpus": 2, "offline_cpus": 0, "table": "svm", "can_run": true, "missing": 0, "features": \[\{"name": "SVM in CPUID", "status": "ok"'
expect_rc enable 0 warden enable $SYSTEM_CELL
run warden link list --json
expect_out link-list-json '^\[\{"name": "echo", "index": 0, .*"peers": \[\{"index": 0, "cell": "Linux", "bdf": "00:10.0", "vectors": 3, "present": true, "up": true\}, \{"index": 1, "cell": "link-echo", .*"present": false, "up": false\}\]\}'

expect_rc run-elf 0 warden cell run /yaml/cells/tiny-demo.yaml /inmates/sdk-hello.elf --cmdline who=sdk
sleep 1
run cat /sys/kernel/warden/cells/1/loadable
[ "$OUT" = "0x0+0x100000" ] && pass sysfs-loadable || fail sysfs-loadable "loadable: $OUT"
run cat /sys/kernel/warden/cells/1/reset_address
[ "$OUT" = "0x0" ] && pass sysfs-reset || fail sysfs-reset "reset_address: $OUT"

expect_rc shutdown 0 warden cell shutdown tiny-demo
expect_rc destroy 0 warden cell destroy tiny-demo

# the same inmate with the hypervisor's console: "console CELL" shows its
# lines, and only the lines about it
sed -e 's/^  console:$/  console: hypercall/' -e '/^    type: uart$/d' \
	-e '/^    port: 0x3e8$/d' -e '/^    baud: 115200$/d' \
	/yaml/cells/tiny-demo.yaml >/tmp/hc.yaml
expect_rc run-hypercall-console 0 warden cell run /tmp/hc.yaml /inmates/sdk-hello.elf --cmdline who=hc
sleep 1
run warden console tiny-demo
expect_out console-cell '^\[tiny-demo\] hello from an out-of-tree inmate, who=hc'
other=$(echo "$OUT" | grep -v '^\[tiny-demo\] ' | grep -v '"tiny-demo"')
run warden console
if [ -n "$other" ]; then
	fail console-cell-only "a line of another source: $(echo "$other" | head -n 1)"
elif ! echo "$OUT" | grep -q '^Warden hypervisor'; then
	fail console-cell-only "the whole console lacks the hypervisor's lines"
else
	pass console-cell-only
fi
# --json: the cell's lines name it, the hypervisor's name none
run warden console --json tiny-demo
expect_out console-json '^\{"cell": "tiny-demo", "text": "hello from an out-of-tree inmate, who=hc"\}$'
run warden console --json
expect_out console-json-hv '^\{"cell": null, "text": "Warden hypervisor, ABI revision [0-9]+, '

warden cell stats tiny-demo --watch >/tmp/watch 2>&1 &
pid=$!
sleep 4
kill $pid
n=$(grep -c '^cell 1 "tiny-demo": running' /tmp/watch)
[ "$n" -ge 2 ] && pass stats-watch || fail stats-watch "$n reports in 4 s: $(head -c 300 /tmp/watch)"
warden cell stats tiny-demo --watch --json >/tmp/watch 2>&1 &
pid=$!
sleep 3
kill $pid
n=$(grep -c '^{"cell": 1, "name": "tiny-demo", "state": "running", "cpus": \[{"cpu": 1, ' /tmp/watch)
[ "$n" -ge 1 ] && pass stats-watch-json || fail stats-watch-json "$(head -c 300 /tmp/watch)"
warden cell destroy tiny-demo >/dev/null

# a cell whose CPU starts at 0x1000: an image linked to start at 0 is
# refused before anything is copied
sed 's/^  reset_address: 0$/  reset_address: 0x1000/' /yaml/cells/tiny-demo.yaml >/tmp/reset.yaml
warden cell create /tmp/reset.yaml >/dev/null
run warden cell load tiny-demo /inmates/apic-demo.elf
if [ "$RC" = 2 ] && echo "$OUT" | grep -q "cell load: /inmates/apic-demo.elf: entry point 0x0 is not the cell's reset address 0x1000"; then pass entry-refused; else fail entry-refused "rc $RC: $OUT"; fi
run warden cell list
expect_out entry-refused-unchanged '^1 +tiny-demo +created '
run warden cell load tiny-demo /inmates/tiny-demo.bin -a 0x200000
if [ "$RC" = 2 ] && echo "$OUT" | grep -q "/inmates/tiny-demo.bin (0x200000+0x[0-9a-f]*) is outside the cell's loadable memory (0x0+0x100000)"; then pass outside-refused; else fail outside-refused "rc $RC: $OUT"; fi
warden cell destroy tiny-demo >/dev/null

# the address given by hand still works (-s STRING -a ADDRESS)
warden cell create /yaml/cells/tiny-demo.yaml >/dev/null
expect_rc legacy-cmdline 0 warden cell load tiny-demo /inmates/sdk-hello.elf -s who=legacy -a 0xff000
warden cell destroy tiny-demo >/dev/null

# the root cell is no cell these commands take: said, not a mute exit 2
run warden console 0
if [ "$RC" = 2 ] && echo "$OUT" | grep -q "'0' is the root cell, Linux itself"; then pass root-named; else fail root-named "rc $RC: $OUT"; fi

expect_rc disable 0 warden disable
expect_rc rmmod 0 rmmod warden

# SPDX-License-Identifier: GPL-2.0
# Start at boot: "warden up" brings up a system config and two cells from
# an /etc/warden tree (as warden.service does), "warden down" takes them
# down; a bad boot section changes nothing, and a cell that fails stops the
# rest with its name.  The driver here is the one DKMS built from the
# warden-dkms package's source for the test kernel (make dkms-module), so
# that the packaged module is shown to work.  Only on the fastest machine:
# up and down are the CLI's own commands, the same on every machine.
# machines: qemu-svm-noiommu
# cpus: 3
# timeout: 300
# tests: insmod-dkms bad-boot-refused bad-boot-named bad-boot-nothing-changed up up-said up-skipped cells-running cpus-taken down down-disabled down-cpus-back up-failing failing-named failing-first-stays down-after-failure
# console: com3 boot-tiny-demo-ran ^tiny-demo: done
# console: com4 boot-apic-demo-ran ^apic-demo: (x2apic|xapic) ticks [0-9]+ jitter
. /tests/lib.sh

sysfs=/sys/devices/virtual/misc/warden
if [ -f /warden-dkms.ko ]; then
	expect_rc insmod-dkms 0 insmod /warden-dkms.ko
else
	fail insmod-dkms "no /warden-dkms.ko in the payload (make dkms-module)"
	insmod /warden.ko
fi

# The tree: the machine's system config, tiny-demo on CPU 1 (COM3) and
# apic-demo on CPU 2 (COM4) with a command line, and a cell not started
# at boot.  Images are named relative to the config's folder and absolute.
etc=/tmp/etc/warden
mkdir -p $etc/cells
cp /yaml/system-qemu.yaml $etc/system.yaml
cp /inmates/tiny-demo.bin $etc/
{
	cat /yaml/cells/tiny-demo.yaml
	printf 'boot:\n  start: true\n  images:\n    - file: ../tiny-demo.bin\n'
} >$etc/cells/10-tiny-demo.yaml
{
	sed 's/^  cpus: 3$/  cpus: 2/' /yaml/cells/apic-demo-cpu3.yaml
	printf 'boot:\n  start: true\n  images:\n    - file: /inmates/apic-demo.bin\n      address: 0\n  cmdline: "report=500"\n'
} >$etc/cells/20-apic-demo.yaml
{
	sed 's/name: tiny-demo/name: manual/' /yaml/cells/tiny-demo.yaml
	printf 'boot:\n  start: false\n'
} >$etc/cells/30-manual.yaml

# a bad boot section: named with file and line, and nothing is done
bad=/tmp/bad/warden
mkdir -p $bad/cells
cp $etc/system.yaml $bad/
cp $etc/cells/10-tiny-demo.yaml $bad/cells/
{
	cat /yaml/cells/apic-demo-cpu3.yaml
	printf 'boot:\n  start: yes\n'
} >$bad/cells/20-bad.yaml
expect_rc bad-boot-refused 2 warden up --etc $bad
expect_out bad-boot-named "^warden: up: $bad/cells/20-bad.yaml:[0-9]+: boot.start: true or false is needed; nothing was done\$"
if [ "$(cat $sysfs/enabled)" = 0 ]; then pass bad-boot-nothing-changed; else fail bad-boot-nothing-changed "enabled: $(cat $sysfs/enabled)"; fi

expect_rc up 0 warden up --etc $etc
expect_out up-said '^up: cell apic-demo-cpu3 running$'
expect_out up-skipped "^up: cell manual \\($etc/cells/30-manual.yaml\\): not started at boot\$"
run warden cell list
if [ "$(echo "$OUT" | grep -Ec '^[12] +(tiny-demo|apic-demo-cpu3) +(running|shut down) ')" = 2 ] &&
	! echo "$OUT" | grep -q manual; then
	pass cells-running
else
	fail cells-running "$OUT"
fi
if [ "$(cat /sys/devices/system/cpu/cpu1/online)$(cat /sys/devices/system/cpu/cpu2/online)" = 00 ]; then pass cpus-taken; else fail cpus-taken "CPUs 1, 2 online: $(cat /sys/devices/system/cpu/cpu1/online) $(cat /sys/devices/system/cpu/cpu2/online)"; fi
# apic-demo reports every 500 ticks (ms): let it tick before down
sleep 2

expect_rc down 0 warden down
if [ "$(cat $sysfs/enabled)" = 0 ]; then pass down-disabled; else fail down-disabled "enabled: $(cat $sysfs/enabled)"; fi
if [ "$(cat /sys/devices/system/cpu/cpu1/online)$(cat /sys/devices/system/cpu/cpu2/online)" = 11 ]; then pass down-cpus-back; else fail down-cpus-back "CPUs 1, 2 online: $(cat /sys/devices/system/cpu/cpu1/online) $(cat /sys/devices/system/cpu/cpu2/online)"; fi

# the second cell's image is missing: up stops there, naming the cell and
# the step; the first cell stays up for "warden down"
rm $etc/cells/30-manual.yaml
sed -i 's|file: /inmates/apic-demo.bin|file: /inmates/no-such.bin|' $etc/cells/20-apic-demo.yaml
expect_rc up-failing 2 warden up --etc $etc
expect_out failing-named "^warden: up: cell apic-demo-cpu3 \\($etc/cells/20-apic-demo.yaml\\): load failed \\(above\\)"
run warden cell list
if echo "$OUT" | grep -Eq '^1 +tiny-demo +(running|shut down) '; then pass failing-first-stays; else fail failing-first-stays "$OUT"; fi
expect_rc down-after-failure 0 warden down

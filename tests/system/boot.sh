# SPDX-License-Identifier: GPL-2.0
# Start at boot, and the real-hardware guide.  First docs/install.md's
# command blocks marked "sh test=guide-..." run as they are written, line
# by line, with the package's files where the package puts them (modprobe
# stands for loading the module DKMS built from the warden-dkms package's
# source for the test kernel, make dkms-module): the guide cannot drift
# from what the commands do.  Then "warden up" brings up a system config
# and two cells from an /etc/warden tree (as warden.service does), "warden
# down" takes them down; a bad boot section changes nothing, and a cell
# that fails stops the rest with its name.  Only on the fastest machine:
# up, down and the guide are the CLI's own commands, the same everywhere.
# machines: qemu-svm-noiommu
# cpus: 3
# timeout: 300
# tests: guide-config insmod-dkms guide-first-cell guide-boot bad-boot-refused bad-boot-named bad-boot-nothing-changed up up-said up-skipped cells-running cpus-taken down-denied down-denied-named down down-disabled down-cpus-back up-failing failing-named failing-first-stays down-after-failure
# console: com3 boot-tiny-demo-ran ^tiny-demo: done
# console: com4 boot-apic-demo-ran ^apic-demo: (x2apic|xapic) ticks [0-9]+ jitter
. /tests/lib.sh

sysfs=/sys/devices/virtual/misc/warden

# What the packages install, where they install it: /etc/warden (from
# configs/etc, as make install-boot does) and the demo inmates.
mkdir -p /etc/warden /usr/lib/warden
cp -r /yaml/etc/. /etc/warden/
ln -s /inmates /usr/lib/warden/inmates
modprobe() {
	[ "$1" = warden ] && [ -f /warden-dkms.ko ] && insmod /warden-dkms.ko
}

# guide BLOCK: run the lines of install.md's block "sh test=BLOCK" in
# order; each must exit 0
guide() {
	awk -v tag="test=$1" '
		/^```/ { if (on) exit; on = ($2 == tag); next }
		on { print }' /tests/install.md >/tmp/$1.sh
	if [ ! -s /tmp/$1.sh ]; then
		fail $1 "no block 'sh test=$1' in install.md"
		return
	fi
	while read -r line; do
		run eval "$line"
		if [ "$RC" != 0 ]; then
			fail $1 "'$line' exited $RC: $(echo "$OUT" | tail -n 2 | tr '\n' ' ')"
			return
		fi
	done </tmp/$1.sh
	pass $1
}

guide guide-config
if [ -f /warden-dkms.ko ] && [ -d /sys/module/warden ]; then pass insmod-dkms; else fail insmod-dkms "the module DKMS built is not loaded (/warden-dkms.ko: $(ls /warden-dkms.ko 2>&1))"; fi
[ -d /sys/module/warden ] || insmod /warden.ko
guide guide-first-cell
guide guide-boot

# The tree: the machine's system config, tiny-demo on CPU 1 (COM3) and
# apic-demo on CPU 2 (COM4) with a command line, and a cell not started
# at boot.  Images are named relative to the config's folder and absolute.
etc=/tmp/etc/warden
mkdir -p $etc/cells
cp $SYSTEM_YAML $etc/system.yaml
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

# apic-demo denies the first request to stop (docs/inmates.md): down is
# refused, naming the cell; asked again, it approves
expect_rc down-denied 2 warden down
expect_out down-denied-named 'cell 2: the cell denied the shutdown request'
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

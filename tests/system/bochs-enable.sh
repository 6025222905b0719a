# SPDX-License-Identifier: GPL-2.0
# Late launch: enable Warden under the running Linux, keep Linux working on
# every CPU as the root cell, then give it back to bare metal.
# emulator: bochs
# cpus: 2
# timeout: 600
# tests: insmod enable enabled-sysfs status-running console-startup work-cpu0 work-cpu1 exits-grow disable vmx-free-after
. /tests/lib.sh

expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable /configs/system-bochs.cell
if [ "$(cat /sys/devices/virtual/misc/warden/enabled)" = 1 ]; then pass enabled-sysfs; else fail enabled-sysfs "enabled is not 1"; fi
run warden status
expect_out status-running 'cpu 1: running'
run warden console
expect_out console-startup 'CPU 1: activated'
for cpu in 0 1; do
	if taskset -c $cpu sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; echo done' | grep -q done; then
		pass work-cpu$cpu
	else
		fail work-cpu$cpu "a process pinned to CPU $cpu did not finish"
	fi
done
a=$(warden status | sed -n 's/^cpu 0:.*total=\([0-9]*\).*/\1/p')
sleep 1
b=$(warden status | sed -n 's/^cpu 0:.*total=\([0-9]*\).*/\1/p')
if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]; then pass exits-grow; else fail exits-grow "exits on CPU 0: '$a' then '$b'"; fi
expect_rc disable 0 warden disable
run warden hardware check
expect_out vmx-free-after 'ok +VMX not in use +VMXON/VMXOFF probe succeeded'

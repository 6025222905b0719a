# SPDX-License-Identifier: GPL-2.0
# The driver and "warden hardware check" on the emulated machines with VMX
# (Bochs) and with SVM (QEMU, an AMD CPU: the SVM table).  Linux keeps
# rodata on here, to catch mapping bugs that rodata=off would hide.
# machines: bochs-vmx qemu-svm
# cpus: 2
# timeout: 420
# rodata: on
# tests: help version-unloaded check-unloaded check-unloaded-cpuid insmod devnode sysfs version hardware-check hardware-all-ok hardware-cpus hardware-again dump check-from-dump offline-cpu-named online-again rmmod
. /tests/lib.sh

expect_rc help 0 warden --help
run warden --version
expect_out version-unloaded 'driver: not loaded'
# without the driver: CPUID read by the CLI itself; the MSR rows stay
# unread (no msr module in the initramfs) and warden.ko is not installed
# under /lib/modules, so the verdict is no (exit 1), but not an error
expect_rc check-unloaded 1 warden hardware check
if [ "$MACHINE" = qemu-svm ]; then
	expect_out check-unloaded-cpuid 'ok +SVM in CPUID +CPUID.80000001h:ECX\[2\] = 1'
else
	expect_out check-unloaded-cpuid 'ok +VMX in CPUID +CPUID.1:ECX\[5\] = 1'
fi

expect_rc insmod 0 insmod /warden.ko
if [ -c /dev/warden ]; then pass devnode; else fail devnode "/dev/warden is missing"; fi
sys=/sys/devices/virtual/misc/warden
# the ABI revision the CLI was built with: the driver's must be the same
abi=$(warden --version | sed -n 's/^warden .*(ABI revision \([0-9]*\),.*/\1/p')
if [ -n "$abi" ] && [ "$(cat $sys/abi_revision 2>&1)" = "$abi" ] && [ -n "$(cat $sys/version)" ] &&
	[ "$(cat $sys/enabled)" = 0 ]; then
	pass sysfs
else
	fail sysfs "$sys: abi_revision=$(cat $sys/abi_revision 2>&1) enabled=$(cat $sys/enabled 2>&1)"
fi
run warden --version
expect_out version "driver: [0-9.]+ \\(ABI revision $abi\\)\$"

expect_rc hardware-check 0 warden hardware check
expect_no_out hardware-all-ok 'MISSING'
expect_out hardware-cpus '^Warden hardware check: 2 CPUs probed$'
# The probe leaves VMX as it found it: a second probe succeeds again.  On
# AMD it only reads, and SVM is still free.
run warden hardware check
if [ "$MACHINE" = qemu-svm ]; then
	expect_out hardware-again 'ok +SVM not in use +EFER = 0x[0-9a-f]+: SVME clear'
else
	expect_out hardware-again 'ok +VMX not in use +VMXON/VMXOFF probe succeeded'
fi

# The raw facts, recorded and judged again offline, give the same verdict.
warden hardware dump >/tmp/hw.dump
RC=$?
sed 's/^/  > /' /tmp/hw.dump
if [ "$MACHINE" = qemu-svm ]; then
	# the SVM facts of CPU 1: its SVM leaf and VM_CR
	if [ "$RC" = 0 ] && grep -q '^cpu 1 cpuid 0x8000000a ' /tmp/hw.dump &&
		grep -q '^cpu 1 msr 0xc0010114 0x' /tmp/hw.dump; then
		pass dump
	else
		fail dump "rc $RC, no CPUID 0x8000000a or VM_CR of CPU 1"
	fi
elif [ "$RC" = 0 ] && grep -q '^cpu 1 msr 0x480 ' /tmp/hw.dump; then pass dump; else fail dump "rc $RC, no MSR 0x480 of CPU 1"; fi
expect_rc check-from-dump 0 warden hardware check --from /tmp/hw.dump

echo 0 >/sys/devices/system/cpu/cpu1/online
expect_rc offline-cpu-named 1 warden hardware check
echo 1 >/sys/devices/system/cpu/cpu1/online
expect_rc online-again 0 warden hardware check

run rmmod warden
if [ "$RC" = 0 ] && [ ! -e /dev/warden ]; then pass rmmod; else fail rmmod "rc $RC, /dev/warden $(ls /dev/warden 2>&1)"; fi

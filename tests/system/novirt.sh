# SPDX-License-Identifier: GPL-2.0
# The same image in QEMU TCG, which has no VMX: the driver loads, and
# "warden hardware check" names VMX as missing and exits 1; the AMD image
# runs on QEMU's SVM.
# machines: qemu-novirt
# cpus: 2
# timeout: 120
# tests: insmod hardware-check-fails vmx-missing-named verdict dump enable-amd svm-lengths-decoded root-runs-amd disable-amd linux-runs-on
. /tests/lib.sh

expect_rc insmod 0 insmod /warden.ko
expect_rc hardware-check-fails 1 warden hardware check
expect_out vmx-missing-named 'MISSING +VMX in CPUID +CPUID.1:ECX\[5\] = 0'
expect_out verdict '^Verdict: Warden cannot run on this machine'
warden hardware dump >/tmp/hw.dump
RC=$?
sed 's/^/  > /' /tmp/hw.dump
if [ "$RC" = 0 ] && grep -q '^cpu 0 cpuid 0x1 ' /tmp/hw.dump; then pass dump; else fail dump "rc $RC"; fi
# QEMU's "max" CPU is an AMD one (CPUID leaf 0 "AuthenticAMD") with SVM
# and nested paging but no NRIP save: warden-amd.bin runs there, the
# hypervisor decoding the length of each instruction that exits; Linux
# runs on as root, and disable gives the machine back.
expect_rc enable-amd 0 warden enable /configs/system-bochs.cell
run warden console
expect_out svm-lengths-decoded 'NRIP save no \(decoded\)'
if [ "$(taskset -c 1 sh -c 'echo alive')" = alive ] && taskset -c 0 warden status | grep -q 'cpu 1: running'; then pass root-runs-amd; else fail root-runs-amd "CPU 1 did not answer"; fi
expect_rc disable-amd 0 warden disable
if [ "$(cat /sys/devices/virtual/misc/warden/enabled)" = 0 ] && taskset -c 1 true; then pass linux-runs-on; else fail linux-runs-on "enabled=$(cat /sys/devices/virtual/misc/warden/enabled)"; fi

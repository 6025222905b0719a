# SPDX-License-Identifier: GPL-2.0
# The same image in QEMU TCG, which has no VMX: the driver loads, and
# "warden hardware check" names VMX as missing and exits 1.
# emulator: qemu
# cpus: 2
# timeout: 120
# tests: insmod hardware-check-fails vmx-missing-named verdict dump enable-refused linux-runs-on
. /tests/lib.sh

expect_rc insmod 0 insmod /warden.ko
expect_rc hardware-check-fails 1 warden hardware check
expect_out vmx-missing-named 'MISSING +VMX in CPUID +CPUID.1:ECX\[5\] = 0'
expect_out verdict '^Verdict: Warden cannot run on this machine'
warden hardware dump >/tmp/hw.dump
RC=$?
sed 's/^/  > /' /tmp/hw.dump
if [ "$RC" = 0 ] && grep -q '^cpu 0 cpuid 0x1 ' /tmp/hw.dump; then pass dump; else fail dump "rc $RC"; fi
# QEMU's "max" CPU is an AMD one (CPUID leaf 0 "AuthenticAMD"): enable
# looks for the AMD image, which is not built yet, and names the file and
# the vendor; Linux runs on.
run warden enable /configs/system-bochs.cell
if [ "$RC" = 2 ] && echo "$OUT" | grep -q 'hypervisor image warden-amd.bin not found.*AMD'; then pass enable-refused; else fail enable-refused "rc $RC: $OUT"; fi
if [ "$(cat /sys/devices/virtual/misc/warden/enabled)" = 0 ] && taskset -c 1 true; then pass linux-runs-on; else fail linux-runs-on "enabled=$(cat /sys/devices/virtual/misc/warden/enabled)"; fi

# SPDX-License-Identifier: GPL-2.0
# An AMD CPU with SVM but without nested paging (QEMU -cpu max,-npt):
# Warden needs NPT for cells' memory, so enable is refused with the reason
# named, and nothing changes: Linux runs on bare, SVM stays off.
# machines: qemu-nonpt
# cpus: 2
# timeout: 120
# tests: insmod enable-refused npt-named nothing-changed linux-runs-on
. /tests/lib.sh

expect_rc insmod 0 insmod /warden.ko
run warden enable $SYSTEM_CELL
if [ "$RC" != 0 ]; then pass enable-refused; else fail enable-refused "rc 0: $OUT"; fi
expect_out npt-named 'a required CPU feature is missing: nested paging, NPT \(CPUID 0x8000000a EDX\[0\] = 0\)'
if [ "$(cat /sys/devices/virtual/misc/warden/enabled)" = 0 ] && [ -z "$(svm_on_cpus 0 1)" ]; then pass nothing-changed; else fail nothing-changed "enabled=$(cat /sys/devices/virtual/misc/warden/enabled), SVM on CPUs '$(svm_on_cpus 0 1)'"; fi
if [ "$(taskset -c 1 sh -c 'echo alive')" = alive ]; then pass linux-runs-on; else fail linux-runs-on "CPU 1 did not answer"; fi

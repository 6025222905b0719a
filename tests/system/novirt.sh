# SPDX-License-Identifier: GPL-2.0
# QEMU TCG with an AMD CPU that has no SVM (-cpu max,-svm), nor VMX: the
# driver loads, "warden hardware check" names SVM as missing and exits 1,
# and enable is refused, naming SVM, before anything changes.  Without the
# driver the check says the same, and as QEMU's CPU says it is a guest,
# that nested virtualization must be enabled on the host.
# machines: qemu-novirt
# cpus: 2
# timeout: 120
# tests: nodriver-check-fails nodriver-svm-missing nodriver-same-reason-once nodriver-nested-hint insmod hardware-check-fails svm-missing-named verdict dump check-from-dump enable-refused enable-names-svm still-disabled linux-runs-on
. /tests/lib.sh

expect_rc nodriver-check-fails 1 warden hardware check
expect_out nodriver-svm-missing 'MISSING +SVM in CPUID +CPUID.80000001h:ECX\[2\] = 0'
# the rows that all say "no SVM on this CPU": one line for the run
expect_out nodriver-same-reason-once '^  MISSING +the same, from nested paging \(NPT\) to SVM not in use$'
expect_out nodriver-nested-hint '^Hint: this CPU runs under a hypervisor \(CPUID.1:ECX\[31\] = 1\) that does not offer it SVM: enable nested virtualization on the host'

expect_rc insmod 0 insmod /warden.ko
expect_rc hardware-check-fails 1 warden hardware check
expect_out svm-missing-named 'MISSING +SVM in CPUID +CPUID.80000001h:ECX\[2\] = 0'
expect_out verdict '^Verdict: Warden cannot run on this machine: [0-9]+ requirements missing \(first: SVM in CPUID\)\.$'
warden hardware dump >/tmp/hw.dump
RC=$?
sed 's/^/  > /' /tmp/hw.dump
if [ "$RC" = 0 ] && grep -q '^cpu 1 cpuid 0x80000001 ' /tmp/hw.dump; then pass dump; else fail dump "rc $RC, no CPUID 0x80000001 of CPU 1"; fi
expect_rc check-from-dump 1 warden hardware check --from /tmp/hw.dump

# enable checks SVM before it loads warden-amd.bin: nothing changes
expect_rc enable-refused 2 warden enable $SYSTEM_CELL
expect_out enable-names-svm 'SVM \(CPUID 0x80000001 ECX\[2\] = 0\)'
if [ "$(cat /sys/devices/virtual/misc/warden/enabled)" = 0 ]; then pass still-disabled; else fail still-disabled "enabled=$(cat /sys/devices/virtual/misc/warden/enabled)"; fi
if [ "$(taskset -c 1 sh -c 'echo alive')" = alive ]; then pass linux-runs-on; else fail linux-runs-on "CPU 1 did not answer"; fi

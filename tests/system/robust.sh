# SPDX-License-Identifier: GPL-2.0
# No guest value may crash the hypervisor: invalid XCR0, CR0 and CR4
# values from a cell get the #GP the hardware gives, named on the console;
# a VM entry that fails fails the cell and names the rule broken; a cell's
# console output is shown as its own and cannot flood the hypervisor's
# lines out; root cannot move or disable its APIC; load and start ask a
# running cell first; an exception in the hypervisor on a cell's CPU loses
# that CPU only, and destroy quarantines the cell's memory.  The driver is
# loaded with test_hooks=1 (WARDEN_HC_TEST).
# machines: bochs-vmx qemu-svm
# cpus: 2
# timeout: 900
# tests: insmod enable status-cell xcr0-avx-no-sse xcr0-no-x87 xcr0-unsupported xcr0-avx512 cr4-reserved cr0-reserved-high cr0-nw-no-cd invd-ud pat-reserved ipi-vector-2-xapic ipi-vector-5-x2apic ipi-vector-root-unharmed entry-failure entry-failure-named forged-line flood-hv-lines-kept flood-cell-share repeat-counted apicbase-move apicbase-disable apicbase-x2apic-elsewhere apicbase-extd-only apicid-kept root-apic-beside-cell pending-vector-31 self-ipi-vector-2 self-ipi-vector-5 apic-clean load-asks start-asks hvfault-lost lost-status lost-sysfs lost-destroy-quarantined quarantine-kept lost-root-works disable-with-lost rmmod-pinned enable-after-lost
# expect-vmfail: 2 VMENTER FAIL: VMCS guest CS.AR/LIMIT malformed|VMEXIT: Guest State Checks Failed
# console: com3 bad-state-gp EXCEPTION 13 #GP
# console-absent: com3 bad-state-went-on bad-state: still running after
# console-absent: com3 tiny-demo-no-interrupt inmate: unexpected interrupt
. /tests/lib.sh

online=/sys/devices/system/cpu/cpu1/online
con() { warden console; }
cpu1_works() { [ "$(cat $online)" = 1 ] && [ "$(taskset -c 1 sh -c 'echo alive')" = alive ]; }

expect_rc insmod 0 insmod /warden.ko test_hooks=1
expect_rc enable 0 warden enable $SYSTEM_CELL
warden cell create /configs/cells/tiny-demo.cell >/dev/null
run warden status
expect_out status-cell '^cpu 1: parked, cell 1,'
warden cell destroy tiny-demo >/dev/null

# bad NAME CMDLINE CONSOLE-REGEX [STATE]: a cell runs bad-state with
# CMDLINE; the console names the refusal, the cell ends failed (the
# inmate's #GP handler reports it, or the hypervisor fails it), destroy
# returns, and CPU 1 is back in Linux and works.
bad() {
	warden cell create /configs/cells/tiny-demo.cell >/dev/null
	warden cell load tiny-demo /inmates/bad-state.bin -s "$2" -a 0xff000 >/dev/null
	warden cell start tiny-demo >/dev/null
	sleep 2
	state=$(warden cell list | awk '$2 == "tiny-demo" { print $3 "/" $5 }')
	c=$(con)
	st=$(warden status 2>&1)
	stj=$(warden status --json 2>&1)
	warden cell destroy tiny-demo >/dev/null
	d=$?
	if echo "$c" | grep -Eq "$3" && [ "$state" = "${4:-failed/-}" ] && [ "$d" = 0 ] && cpu1_works; then pass $1; else fail $1 "state '$state', destroy rc $d, CPU 1 online '$(cat $online)'; console: $(echo "$c" | tail -n 4 | tr '\n' ' ')"; fi
}
bad xcr0-avx-no-sse 'kind=xsetbv value=0x5' 'XSETBV 0x5 at RIP 0x[0-9a-f]+ refused: XCR0: AVX needs SSE \(SDM Vol. 1, 13.3\); #GP injected'
bad xcr0-no-x87 'kind=xsetbv value=0x6' 'XSETBV 0x6 at RIP 0x[0-9a-f]+ refused: XCR0 bit 0 \(x87\) must be set'
bad xcr0-unsupported 'kind=xsetbv value=0x403' 'XSETBV 0x403 at RIP 0x[0-9a-f]+ refused: an XCR0 bit CPUID.\(EAX=0DH,ECX=0\) does not offer'
# x87, SSE, AVX and two of the three AVX-512 bits: partial where the CPU
# has AVX-512, unsupported where it has not
bad xcr0-avx512 'kind=xsetbv value=0x67' 'XSETBV 0x67 at RIP 0x[0-9a-f]+ refused: (XCR0: the AVX-512 bits 7:5 go together|an XCR0 bit CPUID.* does not offer)' 
bad cr4-reserved 'kind=cr4 bits=0x80000000' 'MOV to CR4 0x[0-9a-f]+ at RIP 0x[0-9a-f]+ refused: a reserved CR4 bit'
bad cr0-reserved-high 'kind=cr0 bits=0x100000000' 'MOV to CR0 0x1[0-9a-f]{8} at RIP 0x[0-9a-f]+ refused: CR0 bits 63:32 are reserved'
bad cr0-nw-no-cd 'kind=cr0 bits=0x20000000 clear=0x40000000' 'MOV to CR0 0x[0-9a-f]+ at RIP 0x[0-9a-f]+ refused: CR0.NW needs CR0.CD'
# INVD would drop dirty cache lines of root and other cells: #UD on both
# vendors (SVM intercepts it), named
bad invd-ud 'kind=invd' 'Cell 1, CPU 1: INVD at RIP 0x[0-9a-f]+ refused: it would drop dirty cache lines of other cells; #UD injected'
# a reserved memory type (2) in PAT entry 0: the #GP the CPU gives, also
# where SVM would load it into G_PAT unchecked
bad pat-reserved 'kind=pat value=0x0007040600070402' 'WRMSR to PAT 0x7040600070402 at RIP 0x[0-9a-f]+ refused: a PAT entry with a reserved memory type \(SDM Vol. 3, 13.12.2\); #GP injected'
# Fixed IPIs with the illegal vectors 2 (NMI's) and 5 (#BR's) to itself,
# through the xAPIC page and the x2APIC ICR (trapped on qemu-svm, emulated
# on the xAPIC machines): the cell fails, nothing is delivered
bad ipi-vector-2-xapic 'kind=ipi vector=2' 'IPI \(ICR 0x4002\) with an illegal vector \(0-15, SDM Vol. 3, 11.5.2\), vector 0x2 at RIP 0x[0-9a-f]+; cell failed' failed/1
bad ipi-vector-5-x2apic 'kind=ipi vector=5 x2apic=1' 'IPI \(ICR 0x4005\) with an illegal vector \(0-15, SDM Vol. 3, 11.5.2\), vector 0x5 at RIP 0x[0-9a-f]+; cell failed' failed/1
c=$(con)
if ! echo "$c" | grep -q 'APIC not clean\|FATAL' && [ "$(taskset -c 0 sh -c 'echo alive')" = alive ]; then pass ipi-vector-root-unharmed; else fail ipi-vector-root-unharmed "$(echo "$c" | grep 'APIC not clean\|FATAL' | tr '\n' ' ')"; fi
# the test hook leaves a reserved bit in CS's access rights (VMX) or
# clears the guest's EFER.SVME (SVM): the entry fails, the hypervisor names
# the rule and fails the cell, CPU parked
if grep -q AuthenticAMD /proc/cpuinfo; then
	entry_failed='VM entry failed (exit reason 65535)'
	bad entry-failure 'kind=entry' 'VM entry failed \(exit reason 65535\): guest EFER.SVME is 0 \(APM Vol. 2, 15.5.1\) at RIP 0x[0-9a-f]+; cell failed' failed/1
	# SVM names the rule on the console; "warden status" shows the CPU
	# failed, with no record of a VMX entry
	if echo "$st" | grep -q '^cpu 1: failed, cell 1' && ! echo "$st$stj" | grep -q 'VM entry failed\|entry_failure'; then pass entry-failure-named; else fail entry-failure-named "$(echo "$st" | grep '^cpu 1' | tr '\n' ' ')"; fi
else
	entry_failed='VM entry failed (exit reason 33)'
	bad entry-failure 'kind=entry' 'VM entry failed \(exit reason 33\): invalid guest state \("warden status" names the rule, SDM Vol. 3C\) at RIP 0x[0-9a-f]+; cell failed' failed/1
	# the hypervisor kept the guest state; the CLI's checks of SDM
	# 27.3.1 name the rule broken, in the text and the JSON
	if echo "$st" | grep -q '^cpu 1: VM entry failed (exit reason 33): reserved access-rights bits set (27.3.1.2), segment CS (SDM Vol. 3C)$' && echo "$stj" | grep -q '"entry_failure": "reserved access-rights bits set (27.3.1.2), segment CS (SDM Vol. 3C)"'; then pass entry-failure-named; else fail entry-failure-named "$(echo "$st" | grep '^cpu 1' | tr '\n' ' ')"; fi
fi

# The console is the hypervisor's: a cell's lines carry its name, its
# control bytes are escaped, and no line of it starts like one of ours.
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/bad-state.bin -s 'kind=forge' -a 0xff000 >/dev/null
warden cell start tiny-demo >/dev/null
sleep 2
c=$(con)
if echo "$c" | grep -q '^\[tiny-demo\] Cell 0 "Linux", CPU 0: write outside its memory 0x0 at RIP 0x0; cell failed, CPU parked$' && echo "$c" | grep -q '^\[tiny-demo\] Cell 1 "tiny-demo" destroyed\\x1b\[2J$' && ! echo "$c" | grep -q '^Cell 0 "Linux"'; then pass forged-line; else fail forged-line "$(echo "$c" | grep -i 'linux\|destroyed' | tail -n 4 | tr '\n' ' ')"; fi
warden cell destroy tiny-demo >/dev/null
# 10000 distinct lines: the cell's share (32 lines) turns over, the
# hypervisor's lines since enable stay
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/bad-state.bin -s 'kind=flood count=10000' -a 0xff000 >/dev/null
warden cell start tiny-demo >/dev/null
i=0
while [ $i -lt 240 ] && ! con | grep -q 'flood line 10000 of 10000'; do sleep 1; i=$((i+1)); done
c=$(con)
if echo "$c" | grep -q '^Warden hypervisor, ABI revision' && echo "$c" | grep -q '^CPU 1: parked in cell 1' && echo "$c" | grep -qF "$entry_failed"; then pass flood-hv-lines-kept; else fail flood-hv-lines-kept "after ${i}s: $(echo "$c" | head -n 3 | tr '\n' ' ')"; fi
n=$(echo "$c" | grep -c '^\[tiny-demo\] flood line')
if echo "$c" | grep -q '^\[tiny-demo\] flood line 10000 of 10000$' && ! echo "$c" | grep -q 'flood line 1 of' && [ "$n" -le 32 ]; then pass flood-cell-share; else fail flood-cell-share "$n flood lines kept: $(echo "$c" | grep flood | tail -n 2 | tr '\n' ' ')"; fi
warden cell destroy tiny-demo >/dev/null
# a loop of refused accesses, and a line printed again and again: each
# kept once, with a count
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/bad-state.bin -s 'kind=repeat count=806' -a 0xff000 >/dev/null
warden cell start tiny-demo >/dev/null
sleep 8
c=$(con)
if [ "$(echo "$c" | grep -c 'read of x2APIC MSR 0x802 in xAPIC mode')" = 1 ] && [ "$(echo "$c" | grep -c '^\[tiny-demo\] the same line again$')" = 1 ] && [ "$(echo "$c" | grep -c '^(cell 1 "tiny-demo": the line before repeated 805 more times)$')" = 2 ]; then pass repeat-counted; else fail repeat-counted "$(echo "$c" | grep -i 'x2apic msr\|same line\|repeated' | tr '\n' ' ')"; fi
warden cell destroy tiny-demo >/dev/null

# Root keeps its APIC where the hypervisor traps it.  tiny-demo runs
# beside (and reports any interrupt that reaches it on COM3).
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/tiny-demo.bin >/dev/null
warden cell start tiny-demo >/dev/null
apicbase() { # NAME HOW
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=apicbase how=$2 2>/dev/null
	d=$(dmesg | grep 'wdtest: apicbase' | head -n 1)
	if echo "$d" | grep -q ': refused (-5)' && con | grep -q 'root write of IA32_APIC_BASE 0x[0-9a-f]* refused (#GP injected)'; then pass $1; else fail $1 "dmesg: $d"; fi
}
apicbase apicbase-move move
apicbase apicbase-disable disable
apicbase apicbase-x2apic-elsewhere x2apic-elsewhere
apicbase apicbase-extd-only extd-only
dmesg -c >/dev/null
insmod /wdtest.ko mode=apicid 2>/dev/null
run sh -c 'dmesg | grep "wdtest: apicid" | head -n 1'
expect_out apicid-kept 'reads 0x[0-9a-f]+: unchanged$'
sleep 1
run warden cell list
if echo "$OUT" | grep -Eq '^1 +tiny-demo +shut down +1 +-$' && [ "$(taskset -c 0 sh -c 'echo alive')" = alive ]; then pass root-apic-beside-cell; else fail root-apic-beside-cell "$OUT"; fi
warden cell destroy tiny-demo >/dev/null

# an interrupt the cell left pending with a vector of 16-31 (the APIC
# accepts them): dropped at the hand-over like any other, not taken by the
# hypervisor for one of its exceptions (the fuzzer found this)
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/bad-port.bin -s 'pending=1 vector=31' -a 0xff000 >/dev/null
warden cell start tiny-demo >/dev/null
sleep 2
warden cell destroy tiny-demo >/dev/null
c=$(con)
if echo "$c" | grep -q 'CPU 1: dropped 1 pending interrupt(s) of its previous owner' && ! echo "$c" | grep -q 'FATAL' && cpu1_works; then pass pending-vector-31; else fail pending-vector-31 "$(echo "$c" | grep -E 'dropped|FATAL|lost' | tail -n 3 | tr '\n' ' ')"; fi

# the illegal vectors 2 and 5 through the x2APIC SELF IPI register, which
# reaches only the cell's own CPU and is not checked, left pending with
# interrupts off: an emulator that accepts them (QEMU) must not make the
# hand-over take vector 5 for a hypervisor exception, nor leave vector 2
# (taken through the NMI gate) in service for root
for v in 2 5; do
	n=$(con | grep -c 'CPU 1: write to a port it does not own 0x3f8')
	warden cell create /configs/cells/tiny-demo.cell >/dev/null
	warden cell load tiny-demo /inmates/bad-port.bin -s "pending=1 self=1 vector=$v" -a 0xff000 >/dev/null
	warden cell start tiny-demo >/dev/null
	sleep 2
	warden cell destroy tiny-demo >/dev/null
	c=$(con)
	if [ "$(echo "$c" | grep -c 'CPU 1: write to a port it does not own 0x3f8')" -gt "$n" ] && ! echo "$c" | grep -q 'FATAL\|CPU lost' && cpu1_works; then pass self-ipi-vector-$v; else fail self-ipi-vector-$v "$(echo "$c" | grep -E 'dropped|FATAL|lost|not clean' | tail -n 3 | tr '\n' ' ')"; fi
done
if ! con | grep -q 'APIC not clean'; then pass apic-clean; else fail apic-clean "$(con | grep 'APIC not clean' | head -n 2 | tr '\n' ' ')"; fi

# load and start ask a running cell first, as destroy does: shutdown-test
# denies the first request and approves the second
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/shutdown-test.bin >/dev/null
warden cell start tiny-demo >/dev/null
sleep 1
run warden cell load tiny-demo /inmates/tiny-demo.bin
if [ "$RC" = 2 ] && echo "$OUT" | grep -q 'denied the shutdown request' && warden cell list | grep -Eq '^1 +tiny-demo +running'; then pass load-asks; else fail load-asks "rc $RC: $OUT"; fi
run warden cell start tiny-demo
if [ "$RC" = 0 ] && con | grep -q 'shutdown-test: request 2 approved\|Cell 1 "tiny-demo" started'; then pass start-asks; else fail start-asks "rc $RC: $OUT"; fi
warden cell destroy tiny-demo >/dev/null

# Last in this boot, as it costs CPU 1 for good: an exception in the
# hypervisor while it runs for the cell.  The CPU is lost; destroy
# completes and keeps the cell's memory quarantined; root goes on.
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/bad-state.bin -s 'kind=hvfault' -a 0xff000 >/dev/null
warden cell start tiny-demo >/dev/null
sleep 2
run warden cell list
if echo "$OUT" | grep -Eq '^1 +tiny-demo +failed +1 +1 \(lost: 1\)$' && con | grep -q 'Cell 1 "tiny-demo", CPU 1: hypervisor exception 6 at RIP 0x[0-9a-f]* while running for the cell; CPU lost'; then pass hvfault-lost; else fail hvfault-lost "$OUT; $(con | tail -n 3 | tr '\n' ' ')"; fi
run warden status
expect_out lost-status '^cpu 1: lost, cell 1,'
if [ "$(cat /sys/kernel/warden/cells/1/cpus_lost)" = 1 ]; then pass lost-sysfs; else fail lost-sysfs "cpus_lost '$(cat /sys/kernel/warden/cells/1/cpus_lost)'"; fi
run warden cell destroy tiny-demo
if [ "$RC" = 0 ] && warden cell list | grep -Eq '^1 +tiny-demo +quarantined +1 +1 \(lost: 1\)$' && [ "$(cat $online)" = 0 ] && con | grep -q 'stay quarantined until disable'; then pass lost-destroy-quarantined; else fail lost-destroy-quarantined "rc $RC, online '$(cat $online)': $(warden cell list | tr '\n' ' ')"; fi
dmesg -c >/dev/null
insmod /wdtest.ko mode=hvread addr=0x30600000 2>/dev/null
d=$(dmesg | grep -o 'wdtest: hvread [^:]*: [a-z]*' | head -n 1)
sed 's/name: tiny-demo/name: second/' /yaml/cells/tiny-demo.yaml >/tmp/second.yaml
run warden cell create /tmp/second.yaml
if [ "$RC" = 1 ] && echo "$OUT" | grep -q 'tiny-demo' && [ "$d" = "wdtest: hvread 0x30600000: refused" ]; then pass quarantine-kept; else fail quarantine-kept "rc $RC, $d: $OUT"; fi
if [ "$(taskset -c 0 sh -c 'echo alive')" = alive ] && warden status | grep -q '^cpu 0: running'; then pass lost-root-works; else fail lost-root-works "root CPU 0"; fi
run warden disable
if [ "$RC" = 0 ] && [ "$(cat /sys/kernel/warden/enabled)" = 0 ]; then pass disable-with-lost; else fail disable-with-lost "rc $RC: $OUT"; fi
run rmmod warden
if [ "$RC" != 0 ] && [ -e /sys/kernel/warden ]; then pass rmmod-pinned; else fail rmmod-pinned "rc $RC: $OUT"; fi
run warden enable $SYSTEM_CELL
if [ "$RC" != 0 ] && echo "$OUT" | grep -q 'lost CPU 1 since this system booted'; then pass enable-after-lost; else fail enable-after-lost "rc $RC: $OUT"; fi

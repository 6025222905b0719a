# SPDX-License-Identifier: GPL-2.0
# The guest-state fuzzer (inmates/tests/fuzz.c) in a cell: random but
# seeded CR0/CR4/XCR0/MSR writes, descriptor-table loads, mode switches,
# IPIs to itself and APIC accesses (survivable: the cell catches the
# exception a refused value raises), and one attempt in 100 that must fail
# the cell (a port, an address, an MSR or an IPI outside it).
#
# A run goes on until an attempt fails the cell or 1000 attempts are done;
# then the cell is either shut down (all survived) or failed with the
# hypervisor's message naming what it did, and the next run reloads and
# restarts it after the failing attempt.  A batch is one cell: after 10
# runs root destroys it (destroy must return, with no CPU lost) and checks
# that CPU 1 works in Linux again, then creates the next.  The seed is
# printed; a crash or hang prints the seed and the attempt, so that it can
# be replayed (kernel command line of the inmate: seed=S first=N count=1).
# machines: bochs-vmx qemu-svm
# cpus: 2
# timeout: 1500
# tests: insmod enable fuzz-runs fuzz-surviving fuzz-failing fuzz-no-hv-exception fuzz-risky-failed fuzz-batches-destroyed disable
. /tests/lib.sh

online=/sys/devices/system/cpu/cpu1/online
# Seed, attempts to survive and attempts that fail the cell: the payload's
# /tests/fuzz.conf may set them (tests/run.py writes it from the
# environment: WARDEN_FUZZ_SEED, _SURVIVE, _FAIL).
seed=$(( $(od -An -N4 -tu4 /dev/urandom) % 1000000 + 1 ))
want_survive=10000
want_fail=100
[ -f /tests/fuzz.conf ] && . /tests/fuzz.conf
echo "fuzz: seed $seed (replay: WARDEN_FUZZ_SEED=$seed make test T=fuzz)"

# word OFFSET: a 64-bit word of the progress page (phys 0x30700000, struct
# fuzz_progress), for a run that ended without saying where
word() {
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=hvread addr=$((0x30700000 + $1)) 2>/dev/null
	v=$(dmesg | sed -n 's/.*wdtest: hvread [^:]*: read (0), value \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
	echo $(( ${v:-0} ))
}
# what the console says since the run from attempt $first began
since_start() {
	warden console | awk -v s="fuzz: seed $seed attempts $first-" 'index($0, s) { n = 0 } { line[n++] = $0 } END { for (i = 0; i < n; i++) print line[i] }'
}

expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable $SYSTEM_CELL
first=0 survived=0 caught=0 failing=0 unplanned=0 stuck=0 runs=0 batches=0
broken="" hv_exception="" risky_survived="" destroy_broken=""
while [ -z "$broken$hv_exception$destroy_broken" ] && { [ $survived -lt $want_survive ] || [ $failing -lt $want_fail ]; }; do
	batches=$((batches + 1))
	warden cell create /configs/cells/fuzz.cell >/dev/null || { broken="create failed before batch $batches"; break; }
	r=0
	while [ $r -lt 10 ] && { [ $survived -lt $want_survive ] || [ $failing -lt $want_fail ]; }; do
		r=$((r + 1))
		runs=$((runs + 1))
		warden cell load fuzz /inmates/fuzz.bin -s "seed=$seed first=$first count=1000 risky=100" -a 0xff000 >/dev/null
		warden cell start fuzz >/dev/null
		state=""
		i=0
		# a run takes a few seconds; one that is still running after 30
		# (a guest may keep itself busy with its own interrupts) counts
		# as running: what destroy and the CPU check must then cope with
		while [ $i -lt 150 ]; do
			# "failed/1": the hypervisor failed CPU 1; "failed/-":
			# the inmate reported its own failure
			state=$(warden cell list | awk '$2 == "fuzz" { if ($3 == "shut") print "shut down/" $6; else print $3 "/" $5 }')
			[ "$state" = "shut down/-" ] || [ "${state%/*}" = failed ] && break
			usleep 200000
			i=$((i + 1))
		done
		c=$(since_start)
		if echo "$c" | grep -Eq 'FATAL|hypervisor exception|CPU lost'; then
			hv_exception="seed $seed from attempt $first: $(echo "$c" | grep -E 'FATAL|exception|lost|no answer|guest NMIs' | head -n 4 | tr '\n' ' ')"
		fi
		if echo "$c" | grep -q 'still running after a risky attempt'; then
			risky_survived="seed $seed: $(echo "$c" | grep 'still running' | head -n 1)"
		fi
		done_line=$(echo "$c" | grep "fuzz: seed $seed attempts $first-[0-9]* done:")
		risky_line=$(echo "$c" | grep "fuzz: seed $seed attempt [0-9]* risky" | tail -n 1)
		if [ "$state" = "shut down/-" ] && [ -n "$done_line" ]; then
			survived=$((survived + 1000))
			caught=$((caught + $(echo "$done_line" | sed -n 's/.* survived, \([0-9]*\) raised.*/\1/p')))
			first=$((first + 1000))
		elif [ "$state" = failed/- ]; then
			broken="seed $seed from attempt $first: the fuzzer itself failed at attempt $(word 16) (an exception it did not catch): $(echo "$c" | grep -A1 EXCEPTION | tr '\n' ' ')"
		elif [ "$state" = failed/1 ]; then
			failing=$((failing + 1))
			# the hypervisor's own lines are kept: its latest says why
			named=$(warden console | grep -E '^Cell [0-9]+ "fuzz", CPU 1: .* at RIP 0x[0-9a-f]+; cell failed' | tail -n 1)
			if [ -n "$risky_line" ]; then
				attempt=$(echo "$risky_line" | sed -n 's/.* attempt \([0-9]*\) risky.*/\1/p')
				caught=$((caught + $(echo "$risky_line" | sed -n 's/.*(caught \([0-9]*\)).*/\1/p')))
			else
				attempt=$(word 16)
				caught=$((caught + $(word 32)))
				unplanned=$((unplanned + 1))
				echo "fuzz: attempt $attempt (not a risky one) failed the cell: $named"
			fi
			[ -n "$named" ] || broken="seed $seed attempt $attempt: the cell failed, the hypervisor did not say why: $(echo "$c" | tail -n 4 | tr '\n' ' ')"
			survived=$((survived + attempt - first))
			first=$((attempt + 1))
		elif [ "${state%/*}" = running ]; then
			attempt=$(word 16)
			stuck=$((stuck + 1))
			echo "fuzz: the run from attempt $first still runs after 30 s, at attempt $attempt; the next run starts after it"
			survived=$((survived + attempt - first))
			caught=$((caught + $(word 32)))
			first=$((attempt + 1))
			warden cell shutdown fuzz >/dev/null
		else
			broken="seed $seed from attempt $first: the run ended in state '$state'; the progress page says attempt $(word 16)"
		fi
		[ -n "$broken$hv_exception" ] && break
	done
	warden cell destroy fuzz >/dev/null
	d=$?
	if [ "$d" != 0 ] || [ "$(cat $online)" != 1 ] || [ "$(taskset -c 1 sh -c 'echo alive')" != alive ]; then
		destroy_broken="seed $seed batch $batches: destroy rc $d, CPU 1 online '$(cat $online)'"
	fi
	# the CPU must come back to Linux with a clean APIC
	if dmesg | grep -q 'Stale IRR\|APIC.*ISR'; then
		destroy_broken="seed $seed batch $batches (attempts up to $first): Linux found the APIC of CPU 1 unclean: $(dmesg | grep -m 1 'Stale IRR\|APIC.*ISR') $(warden console | grep -m 1 'APIC not clean')"
	fi
done
echo "fuzz: seed $seed: $runs runs in $batches cells, $survived attempts survived ($caught raised an exception the cell caught), $failing failed the cell ($unplanned of them not risky ones), $stuck runs still running after 30 s"
if [ -z "$broken" ]; then pass fuzz-runs; else fail fuzz-runs "$broken"; fi
if [ $survived -ge $want_survive ]; then pass fuzz-surviving; else fail fuzz-surviving "$survived attempts survived, seed $seed"; fi
if [ $failing -ge $want_fail ]; then pass fuzz-failing; else fail fuzz-failing "$failing attempts failed the cell, seed $seed"; fi
if [ -z "$hv_exception" ]; then pass fuzz-no-hv-exception; else fail fuzz-no-hv-exception "$hv_exception"; fi
if [ -z "$risky_survived" ]; then pass fuzz-risky-failed; else fail fuzz-risky-failed "$risky_survived"; fi
if [ -z "$destroy_broken" ]; then pass fuzz-batches-destroyed; else fail fuzz-batches-destroyed "$destroy_broken"; fi
expect_rc disable 0 warden disable

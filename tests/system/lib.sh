# SPDX-License-Identifier: GPL-2.0
# Helpers for scenario scripts run in the guest (busybox sh).  Each check
# prints "PASS <name>" or "FAIL <name>: <reason>" on the Linux console;
# tests/run.py prefixes the group name.

# The test machine this boot runs on (tests/vm/boot.py, MACHINES) and its
# system config: the QEMU q35 machine has other memory and devices than
# Bochs's i440FX one.
MACHINE=$(cat /tests/machine 2>/dev/null)
case $MACHINE in
qemu-*) SYSTEM_CELL=/configs/system-qemu.cell ;;
*) SYSTEM_CELL=/configs/system-bochs.cell ;;
esac

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# run CMD...: run it, show its output on the console (prefixed), keep the
# output in $OUT and the exit status in $RC.
run() {
	OUT=$("$@" 2>&1)
	RC=$?
	echo "$OUT" | sed 's/^/  > /'
	return 0
}

# expect_rc NAME WANT CMD...: the command exits with status WANT.
expect_rc() {
	name=$1 want=$2
	shift 2
	run "$@"
	if [ "$RC" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "'$*' exited $RC, expected $want: $(echo "$OUT" | tail -n 3 | tr '\n' ' ')"
	fi
}

# expect_out NAME REGEX: the last run's output matches REGEX (grep -E).
expect_out() {
	if echo "$OUT" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1" "output does not match '$2'"
	fi
}

# expect_no_out NAME REGEX: the last run's output does not match REGEX.
expect_no_out() {
	if echo "$OUT" | grep -Eq -- "$2"; then
		fail "$1" "output matches '$2': $(echo "$OUT" | grep -E -- "$2" | head -n 2 | tr '\n' ' ')"
	else
		pass "$1"
	fi
}

# loc_totals: the local timer interrupts (LOC in /proc/interrupts) of CPU 0
# and CPU 1 over 4 windows of 5 s of Linux's clock, as "n0 n1"
loc_totals() {
	t0=0 t1=0
	for w in 1 2 3 4; do
		a=$(awk '/LOC:/ { print $2, $3 }' /proc/interrupts)
		sleep 5
		b=$(awk '/LOC:/ { print $2, $3 }' /proc/interrupts)
		set -- $a $b
		t0=$((t0 + $3 - $1)) t1=$((t1 + $4 - $2))
	done
	echo "$t0 $t1"
}

# loc_phases: loc_totals bare, with Warden enabled, and after disable, in
# $bare, $enabled and $after; insmod, enable and disable are checked as
# tests of those names
loc_phases() {
	sleep 2
	bare=$(loc_totals)
	expect_rc insmod 0 insmod /warden.ko
	expect_rc enable 0 warden enable $SYSTEM_CELL
	sleep 2
	enabled=$(loc_totals)
	expect_rc disable 0 warden disable
	sleep 2
	after=$(loc_totals)
}

# svm_on_cpus CPU...: the CPUs whose EFER.SVME (bit 12) is set, read with
# wdtest (the CLI's probe knows VMX only); empty when SVM is off on all
svm_on_cpus() {
	bad=
	for cpu in "$@"; do
		taskset -c $cpu insmod /wdtest.ko mode=msr msr=0xc0000080 2>/dev/null
		v=$(dmesg | sed -n 's/.*wdtest: msr 0xc0000080: read (0), value \(0x[0-9a-f]*\).*/\1/p' | tail -1)
		if [ -z "$v" ] || [ $((v & 0x1000)) != 0 ]; then bad="$bad cpu $cpu EFER '$v'"; fi
	done
	echo "$bad"
}

# The hypervisor's memory pool: pages in use (warden status).
pool() { warden status | sed -n 's/^memory pool: \([0-9]*\) of.*/\1/p'; }

# Root's clock in milliseconds (/proc/uptime: centiseconds).
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# pci_demo CELL ARGS: run pci-demo with ARGS in the created cell CELL
# until it stops running (60 s at most); prints STATE/FAILED-CPUS
pci_demo() {
	warden cell load $1 /inmates/pci-demo.bin -s "$2" -a 0xff000 >/dev/null
	warden cell start $1 >/dev/null
	i=0
	while [ $i -lt 60 ]; do
		state=$(warden cell list | awk -v c=$1 '$2 == c { print $3 }')
		[ "$state" = running ] || break
		sleep 1
		i=$((i + 1))
	done
	warden cell list | awk -v c=$1 '$2 == c { s = $3; if (s == "shut") { s = "shut-down"; f = $6 } else f = $5; print s "/" f }'
}

# SPDX-License-Identifier: GPL-2.0
# Helpers for scenario scripts run in the guest (busybox sh).  Each check
# prints "PASS <name>" or "FAIL <name>: <reason>" on the Linux console;
# tests/run.py prefixes the group name.

# The test machine this boot runs on (tests/vm/boot.py, MACHINES) and its
# system config, compiled and as YAML: the QEMU q35 machine has other
# memory and devices than Bochs's i440FX one, and q35 without the IOMMU
# needs a config that names none (one that does is refused at enable).
MACHINE=$(cat /tests/machine 2>/dev/null)
case $MACHINE in
qemu-svm-noiommu) SYSTEM=system-qemu-noiommu ;;
qemu-*) SYSTEM=system-qemu ;;
*) SYSTEM=system-bochs ;;
esac
SYSTEM_CELL=/configs/$SYSTEM.cell
SYSTEM_YAML=/yaml/$SYSTEM.yaml

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

# The latency run (docs/linux-cell.md, "Latency"), root's side; the
# cell's is wd_test=cyclictest in tests/vm/cell-linux/init, and both run
# wd-cyclictest (tests/vm/cyclictest.sh).
#
# cell_mark CELL PORT: the cell's init has read PORT (0x80 at its shell,
# 0x81 and 0x82 around its cyclictest run) since CELL last started: the
# access log names each port's first use on the hypervisor console
cell_mark() {
	warden console | awk -v s="\"$1\" started" -v p="first use: port in $2 " \
		'index($0, s) { n = 0 } index($0, p) { n++ } END { exit !n }'
}
# the reasons a cell's VM exits are counted by (its sysfs
# statistics/vmexits_REASON, driver/sysfs.c), and with the total
EXIT_REASONS='cpuid cr msr_read msr_write x2apic_icr xapic xsetbv pio mmio hypercall management nmi init_sipi exception other'
LAT_REASONS="total $EXIT_REASONS"
# root_load start|stop: a memory-streaming load on every CPU root has
# online (LOAD_CPUS): one "dd if=/dev/zero of=/dev/null bs=16M" pinned to
# each, endless (every block read clears the 16 MiB buffer in the kernel)
root_load() {
	if [ $1 = stop ]; then
		# nothing running: a bare "wait" would wait for every child
		[ -n "$LOAD_PIDS" ] || return 0
		kill $LOAD_PIDS 2>/dev/null
		wait $LOAD_PIDS 2>/dev/null
		LOAD_PIDS=
		return
	fi
	LOAD_PIDS= LOAD_CPUS=
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		[ ! -f $d/online ] || [ "$(cat $d/online)" = 1 ] || continue
		taskset -c ${d##*cpu} dd if=/dev/zero of=/dev/null bs=16M 2>/dev/null &
		LOAD_PIDS="$LOAD_PIDS $!" LOAD_CPUS="$LOAD_CPUS ${d##*cpu}"
	done
}
# cell_wait CELL PORT SECONDS: poll (0.2 s) until cell_mark; 1 if it
# never came or the cell stopped running
cell_wait() {
	end=$(($(ms) + $3 * 1000))
	while [ $(ms) -lt $end ]; do
		cell_mark $1 $2 && return 0
		warden cell list | grep -q "$1 *running" || return 1
		sleep 0.2
	done
	return 1
}
# cell_latency CELL LOOPS SECONDS: "warden cell linux" of
# /configs/cells/CELL.cell with wd_test=cyclictest wd_loops=LOOPS
# (tests/vm/cell-linux/init).  At the cell's shell mark (port 0x80) root
# reads the cell's exit counters and starts root_load, which must be up
# before the cell's mark 0x81 (3 s later: cyclictest about to start); at
# 0x82 (cyclictest in its loop) root reads the counters again, and at 0x83
# (the run over) a third time, which must come before the cell's 0x84
# (10 s later); root's load stops with that third read.
# Waits SECONDS at most for each mark.  Sets LAT_RESULT ("ok" or what went wrong); LAT_EXITS and
# LAT_BY ("reason=count ...") for the exits from 0x82 to 0x83 but the
# 0x83 read itself: the loop's; LAT_START_EXITS and LAT_START_BY from the
# shell mark to 0x82 but the 0x81 and 0x82 reads: the programs' start;
# LAT_LOAD_MS (how long root's load ran); "warden cell stats" at 0x82 and
# 0x83 in /tmp/lat-stats-b and -c.  Leaves the cell running.
cell_latency() {
	LAT_RESULT= LAT_EXITS= LAT_BY= LAT_START_EXITS= LAT_START_BY= LAT_LOAD_MS=
	if ! warden cell linux /configs/cells/$1.cell /linux/vmlinuz \
		--initrd /linux/initrd.cpio \
		--cmdline "wd_test=cyclictest wd_loops=$2" >/dev/null; then
		LAT_RESULT="warden cell linux failed"
		return
	fi
	if ! cell_wait $1 0x80 $3; then
		LAT_RESULT="no shell mark (port 0x80) in $3 s"
		return
	fi
	lat_dir=
	for d in /sys/kernel/warden/cells/*; do
		[ "$(cat $d/name 2>/dev/null)" = "$1" ] && lat_dir=$d/statistics
	done
	lat_read a
	t0=$(ms)
	root_load start
	if cell_mark $1 0x81; then
		LAT_RESULT="the run began (port 0x81) before root's load"
	elif ! cell_wait $1 0x82 $3; then
		LAT_RESULT="no mark of cyclictest's loop (port 0x82) in $3 s"
	else
		lat_read b
		warden cell stats $1 >/tmp/lat-stats-b 2>&1
		if ! cell_wait $1 0x83 $3; then
			LAT_RESULT="no end mark (port 0x83) in $3 s"
		else
			lat_read c
			# cyclictest is over: the load has done its part (on
			# Bochs, which runs every CPU in one thread, the 10 s
			# below with root's CPUs busy only slowed the group)
			root_load stop
			LAT_LOAD_MS=$(($(ms) - t0))
			# the cell waits 10 s after 0x83 before it starts
			# programs again, and reads 0x84 then
			if cell_mark $1 0x84; then
				LAT_RESULT="the counters read after the cell's 0x84 (over 10 s after its end mark)"
			else
				LAT_RESULT=ok
			fi
			warden cell stats $1 >/tmp/lat-stats-c 2>&1
			# wd-cyclictest's line on the cell's console
			cell_wait $1 0x85 $3 ||
				LAT_RESULT="no mark of cyclictest's line (port 0x85) in $3 s"
		fi
	fi
	root_load stop
	[ -n "$LAT_LOAD_MS" ] || LAT_LOAD_MS=$(($(ms) - t0))
	[ $LAT_RESULT = ok ] || return
	# the marks are port reads, one exit each: two in the start, one in
	# the loop's window
	lat_exits a b 2
	LAT_START_EXITS=$lat_n LAT_START_BY=$lat_by
	lat_exits b c 1
	LAT_EXITS=$lat_n LAT_BY=$lat_by
}
# lat_read X: lat_X_REASON for every reason of the cell's counters in
# $lat_dir, read by one cat (root is loaded: the reads must be quick)
lat_read() {
	set -- $1 $(cd $lat_dir && for r in $LAT_REASONS; do echo vmexits_$r; done | xargs cat)
	x=$1
	shift
	for r in $LAT_REASONS; do
		eval "lat_${x}_$r=\${1:-0}"
		[ $# = 0 ] || shift
	done
}
# lat_exits FROM TO MARKS: lat_n, lat_by of the exits between two reads
# of cell_latency, less MARKS port reads
lat_exits() {
	lat_n= lat_by=
	for r in $LAT_REASONS; do
		eval "n=\$((lat_$2_$r - lat_$1_$r))"
		case $r in
		total) lat_n=$((n - $3)) ;;
		pio) [ $n = $3 ] || lat_by="$lat_by pio=$((n - $3))" ;;
		*) [ $n = 0 ] || lat_by="$lat_by $r=$n" ;;
		esac
	done
	lat_by=${lat_by# }
}

# A Linux cell's link to root (linux-net on qemu-svm, linux-cell on
# bochs-vmx; the cell's side is tests/vm/cell-linux/net.sh, wd_test=net):
# the caller sets MIB (MiB each way), CELL_IP, LINUX_WAIT and XFER_WAIT (s).
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# wait_up_to N CMD...: up to N s until CMD succeeds
wait_up_to() {
	n=$1
	shift
	i=0
	while [ $i -lt $n ]; do
		"$@" && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}
# rate BYTES START END: "K KiB/s in S s" (START, END: uptime_s)
rate() { awk -v b=$1 -v s=$2 -v e=$3 'BEGIN { d = e - s; if (d <= 0) d = 0.01; printf "%.0f KiB/s in %.1f s", b / 1024 / d, d }'; }
# link_listen, before the cell starts: root's listeners, each taking one
# connection: the MD5 of what root sent (5002), the cell's bytes (5003),
# their MD5 (5004); a file appears (mv) only once whole, as nc's -e
# program may outlive the nc that started it.  Then the MIB MiB for the
# cell in /tmp/tocell (head -c reads until it has them all; dd may count
# short reads of /dev/urandom as whole blocks): $sent, $sent_sum.
link_listen() {
	rm -f /tmp/cell_in.md5 /tmp/fromcell /tmp/fromcell.end /tmp/cell_out.md5
	nc -l -p 5002 -e sh -c 'cat > /tmp/x2; mv /tmp/x2 /tmp/cell_in.md5' &
	l2=$!
	nc -l -p 5003 -e sh -c 'cat > /tmp/fromcell; cut -d" " -f1 /proc/uptime > /tmp/x3; mv /tmp/x3 /tmp/fromcell.end' &
	l3=$!
	nc -l -p 5004 -e sh -c 'cat > /tmp/x4; mv /tmp/x4 /tmp/cell_out.md5' &
	l4=$!
	head -c $((MIB << 20)) /dev/urandom >/tmp/tocell
	sent_sum=$(md5sum /tmp/tocell | cut -d' ' -f1)
	sent=$(wc -c </tmp/tocell)
}
# link_ping CELL: root -> cell, the first echo within LINUX_WAIT s, then
# 5 of 5 (root-ping-cell).  One echo per ping: busybox's ping waits only
# twice the longest round trip seen for the last reply, which an
# emulator's jitter exceeds; a single echo gets all of -W.
link_ping() {
	t0=$(uptime_s)
	if wait_up_to $LINUX_WAIT ping -c 1 -W 2 $CELL_IP >/dev/null 2>&1; then
		echo "  > the cell answered a ping $(awk -v a=$t0 -v b=$(uptime_s) 'BEGIN { printf "%.0f", b - a }') s after root's first"
		n=0
		for i in 1 2 3 4 5; do
			ping -c 1 -W 5 $CELL_IP >/dev/null 2>&1 && n=$((n + 1))
		done
		echo "  > root -> cell: $n of 5 pings answered"
		if [ $n = 5 ]; then pass root-ping-cell; else fail root-ping-cell "$n of 5 answered"; fi
	else
		fail root-ping-cell "no answer from $CELL_IP in $LINUX_WAIT s: $(warden cell list | grep "$1")"
	fi
}
# link_xfer: MIB MiB each way over TCP (busybox nc), the MD5s of sender
# and receiver compared by root (listeners, tcp-root-to-cell,
# tcp-cell-to-root); the cell listens on 5001 once its ping to root is
# done.  Stops link_listen's listeners.
link_xfer() {
	t1=$(uptime_s) ok=no
	for i in $(seq 1 120); do
		if nc $CELL_IP 5001 </tmp/tocell 2>/dev/null; then ok=yes; break; fi
		sleep 1
	done
	t2=$(uptime_s)
	if [ $ok = yes ]; then pass listeners; else fail listeners "the cell did not listen on 5001"; fi
	wait_up_to $XFER_WAIT test -e /tmp/cell_in.md5
	echo "  > root -> cell: $sent bytes, $(rate $sent $t1 $t2), md5 $sent_sum, the cell's $(cat /tmp/cell_in.md5 2>/dev/null)"
	if [ "$sent" = $((MIB << 20)) ] && [ "$sent_sum" = "$(cat /tmp/cell_in.md5 2>/dev/null)" ]; then pass tcp-root-to-cell; else fail tcp-root-to-cell "root sent $sent bytes, md5 $sent_sum, the cell received md5 '$(cat /tmp/cell_in.md5 2>/dev/null)'"; fi
	t3=$(uptime_s)
	wait_up_to $XFER_WAIT sh -c 'test -e /tmp/fromcell.end && test -e /tmp/cell_out.md5'
	got=$(wc -c </tmp/fromcell 2>/dev/null)
	got_sum=$(md5sum /tmp/fromcell 2>/dev/null | cut -d' ' -f1)
	echo "  > cell -> root: $got bytes (by $(rate ${got:-0} $t3 "$(cat /tmp/fromcell.end 2>/dev/null || uptime_s)") from root's first byte wait), md5 $got_sum, the cell's $(cat /tmp/cell_out.md5 2>/dev/null)"
	if [ "$got" = $((MIB << 20)) ] && [ "$got_sum" = "$(cat /tmp/cell_out.md5 2>/dev/null)" ]; then pass tcp-cell-to-root; else fail tcp-cell-to-root "root received $got bytes, md5 $got_sum; the cell sent md5 '$(cat /tmp/cell_out.md5 2>/dev/null)'"; fi
	kill $l2 $l3 $l4 2>/dev/null
	echo "  > root's wl-lnet: $(for c in rx_packets tx_packets rx_dropped tx_dropped; do echo -n "$c $(cat /sys/class/net/wl-lnet/statistics/$c) "; done)"
}

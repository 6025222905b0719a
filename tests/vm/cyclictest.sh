#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /usr/bin/wd-cyclictest in root's and the Linux cell's initramfs (copied
# with cyclictest by tests/run.py's copy_cyclictest): the latency run of
# docs/linux-cell.md ("Latency"), the same in both.
#
#   wd-cyclictest LOOPS [CPU]
#
# One cyclictest thread, SCHED_FIFO priority 90, memory locked (-m), woken
# every 1000 us LOOPS times (so LOOPS ms at the least), pinned to CPU if
# given; the latencies go to a histogram of 1000 1-us buckets, whose
# summary this reads.  A wakeup 1000 us or more late lands in the
# histogram's overflow count: that is an overrun, a period cyclictest
# skipped without a wakeup of its own (it moves its next due time past
# "now" silently).  Prints one line,
#
#   cyclictest: loops N of LOOPS, min/avg/max A/B/C us, overruns O, rc R
#
# then every line cyclictest said that is not the usual note about
# /dev/cpu_dma_latency, each as "cyclictest: said: ...".
loops=${1:?usage: wd-cyclictest LOOPS [CPU]}
cpu=${2:-}
# cyclictest 2.4 keeps its running figures in POSIX shared memory
# (shm_open: "ERROR: shm_open No such file or directory" without it)
mkdir -p /dev/shm /tmp
grep -q ' /dev/shm ' /proc/mounts || mount -t tmpfs tmpfs /dev/shm
hist=/tmp/wd-cyclictest.hist
out=/tmp/wd-cyclictest.out
rm -f $hist
cyclictest -m -q -p 90 -i 1000 -l "$loops" ${cpu:+-a $cpu} \
	-h 1000 --histfile=$hist >$out 2>&1
rc=$?
# WD_CYCLICTEST_DONE: a command to run the moment cyclictest returns,
# before this script starts any program (the Linux cell's end mark: each
# program started costs the cell the CPUID exits of its C library's
# start-up, busybox's sed among them)
[ -z "${WD_CYCLICTEST_DONE:-}" ] || eval "$WD_CYCLICTEST_DONE"
# "# Total: 000010000", "# Min Latencies: 00003", ...: numbers without
# their leading zeros (one thread, so one number each)
field() {
	sed -n "s/^# $1: *0*\([0-9][0-9]*\).*/\1/p" $hist 2>/dev/null | head -n 1
}
# the histogram's total counts the wakeups within its range only, so the
# loops done are that and the overflows
total=$(field Total)
over=$(field 'Histogram Overflows')
[ -n "$total" ] && [ -n "$over" ] && done=$((total + over)) || done=
echo "cyclictest: loops $done of $loops," \
	"min/avg/max $(field 'Min Latencies')/$(field 'Avg Latencies')/$(field 'Max Latencies') us," \
	"overruns $over, rc $rc"
grep -v 'cpu_dma_latency' $out | head -n 5 | sed 's/^/cyclictest: said: /'
exit $rc

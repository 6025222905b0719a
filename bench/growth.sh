# SPDX-License-Identifier: GPL-2.0
# The growth rows between the first qemu-svm boot (2 CPUs) and the scale
# boot (16 CPUs): bench/run.py boots this with 4 and with 8 CPUs.  As a
# user would: "warden config create" on the machine, then enable, a
# 1-CPU cell (tiny-demo) created, loaded, started and destroyed, and
# disable, each timed (TCG wall time, CLI included; "  > scale:" lines,
# read as the scale boot's are).
# machines: qemu-svm
# cpus: 4
# timeout: 600
# tests: growth-done
. /tests/lib.sh

n=$(grep -c ^processor /proc/cpuinfo)
insmod /warden.ko
warden config create -o /tmp/sys.yaml >/dev/null || echo "  > config create failed"
s=$(ms)
warden enable /tmp/sys.yaml >/dev/null || echo "  > enable failed"
echo "  > scale: enable on $n CPUs $(($(ms) - s)) ms; $(dmesg | grep -o 'entering took.*' | tail -n 1)"
s=$(ms)
warden cell create /yaml/cells/tiny-demo.yaml >/dev/null || echo "  > create failed"
t1=$(ms)
warden cell load tiny-demo /inmates/tiny-demo.bin >/dev/null &&
	warden cell start tiny-demo >/dev/null || echo "  > load/start failed"
sleep 1
t2=$(ms)
warden cell destroy tiny-demo >/dev/null || echo "  > destroy failed"
echo "  > scale: 1-CPU cell on $n CPUs: create $((t1 - s)) ms, destroy $(($(ms) - t2)) ms"
s=$(ms)
warden disable >/dev/null || echo "  > disable failed"
echo "  > scale: disable on $n CPUs $(($(ms) - s)) ms"
pass growth-done

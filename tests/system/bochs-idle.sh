# SPDX-License-Identifier: GPL-2.0
# Idle root takes no more timer interrupts under Warden than bare: the
# local timer interrupts (LOC) of each CPU, counted over idle windows of
# 5 s of Linux's clock, median of 3, bare and then with Warden enabled in
# the same boot, must stay within 10 % of bare.  (Before the decode cache
# each timer interrupt's two trapped xAPIC accesses cost about 3,000
# instructions and Linux never stopped its tick: about 2,500 interrupts
# per second and CPU against about 100 bare; docs/bench.md.)
# emulator: bochs
# cpus: 2
# timeout: 500
# tests: insmod enable timer-cpu0 timer-cpu1 disable
. /tests/lib.sh

loc() { awk '/LOC:/ { print $2, $3 }' /proc/interrupts; }
# windows NAME: three 5 s windows; prints "cpu0 cpu1" counts per window
windows() {
	for w in 1 2 3; do
		a=$(loc)
		sleep 5
		b=$(loc)
		set -- $a $b
		echo "$(($3 - $1)) $(($4 - $2))"
	done
}
median() { sort -n | sed -n 2p; }

sleep 2
bare=$(windows)
expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable /configs/system-bochs.cell
sleep 2
enabled=$(windows)
echo "  > LOC per 5 s window, CPU 0 and 1: bare $(echo $bare | tr '\n' ' '); enabled $(echo $enabled | tr '\n' ' ')"
for cpu in 0 1; do
	col=$((cpu + 1))
	b=$(echo "$bare" | cut -d' ' -f$col | median)
	e=$(echo "$enabled" | cut -d' ' -f$col | median)
	# within 10 %: e <= 1.1 b, in integers
	if [ $((e * 10)) -le $((b * 11)) ]; then
		pass timer-cpu$cpu
	else
		fail timer-cpu$cpu "CPU $cpu took $e local timer interrupts per 5 s idle with Warden enabled, $b bare (median of 3 windows): more than 10 % above bare"
	fi
done
expect_rc disable 0 warden disable

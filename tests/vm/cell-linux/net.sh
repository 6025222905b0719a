#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Linux cell's side of tests/system/linux-net.sh (wd_test=net on the
# command line; run by /init): warden.ko (the file root loads) binds the
# cell's link function "lnet", which Linux found by its own PCI scan; the
# cell refuses "warden enable"; then over wl-lnet (10.57.0.2, root
# 10.57.0.1): a ping to root, a ping to link-echo over wl-lecho
# (192.168.80.2), N MiB from root (received on port 5001, its MD5 sent
# back to root's port 5002), as many to root (root's port 5003, its MD5 to
# 5004).  Everything it sees goes to its console, "linux-net:"
# lines, which the runner checks.
say() { echo "linux-net: $*"; }
# pings N ADDRESS: how many of N single echoes ADDRESS answered (one echo
# per ping: busybox's ping waits only twice the longest round trip seen
# for the last reply, which an emulator's jitter exceeds)
pings() {
	n=0
	for i in $(seq 1 $1); do
		ping -c 1 -W 5 $2 >/dev/null 2>&1 && n=$((n + 1))
	done
	echo "$n of $1 answered"
}

if ! insmod /warden.ko; then
	say "insmod failed"
	exit 1
fi
say "in_cell $(cat /sys/devices/virtual/misc/warden/in_cell)"
fn=/sys/bus/pci/devices/0000:00:01.0
say "function $(cat $fn/vendor):$(cat $fn/device) driver $(basename "$(readlink $fn/driver)")"
[ -c /dev/warden-link-lnet ] && say "chardev /dev/warden-link-lnet"
# the driver's own line of the refusal goes to the kernel log only: the
# polled console would mix it into the lines around it
sleep 1
dmesg -n 1
out=$(warden enable /system-qemu.cell 2>&1)
rc=$?
dmesg -n 7
say "enable exit $rc: $out"
say "kernel log: $(dmesg | grep 'warden: enable' | tail -n 1 | sed 's/^\[[^]]*\] //')"
i=0
while [ ! -e /sys/class/net/wl-lnet ] && [ $i -lt 10 ]; do
	sleep 1
	i=$((i + 1))
done
ip addr add 10.57.0.2/24 dev wl-lnet
ip link set wl-lnet up
say "wl-lnet up, $(cat /sys/class/net/wl-lnet/address)"
# root's interface is up before the cell starts; its carrier follows the
# peers' states
i=0
while [ "$(cat /sys/class/net/wl-lnet/carrier 2>/dev/null)" != 1 ] && [ $i -lt 30 ]; do
	sleep 1
	i=$((i + 1))
done
# the first echo: how long until root answers (ARP and the first frames
# both ways; root's side of it is its own wait for the cell's answer)
st() { cat /sys/class/net/wl-lnet/statistics/$1; }
r0=$(st rx_packets) t0=$(st tx_packets)
i=0
until ping -c 1 -W 2 10.57.0.1 >/dev/null 2>&1 || [ $i -ge 15 ]; do
	i=$((i + 1))
	[ $i = 1 ] && say "first echo unanswered: frames since up: rx $(($(st rx_packets) - r0)), tx $(($(st tx_packets) - t0)); neighbour $(ip neigh show dev wl-lnet | tr '\n' ' ')"
done
say "first echo from root after $i unanswered, $(st tx_dropped) frames dropped on sending"
say "ping root: $(pings 3 10.57.0.1)"
# the link to the bare-metal cell link-echo (its link 3: 192.168.80.2),
# which root started before this cell
if [ -e /sys/class/net/wl-lecho ]; then
	ip addr add 192.168.80.1/24 dev wl-lecho
	ip link set wl-lecho up
	i=0
	while [ "$(cat /sys/class/net/wl-lecho/carrier 2>/dev/null)" != 1 ] && [ $i -lt 30 ]; do
		sleep 1
		i=$((i + 1))
	done
	say "ping link-echo: $(pings 3 192.168.80.2)"
fi

# root -> cell: received into /tmp/in, its MD5 back to root
nc -l -p 5001 -e sh -c 'cat > /tmp/in'
sum=$(md5sum /tmp/in | cut -d' ' -f1)
bytes=$(wc -c < /tmp/in)
say "received $bytes bytes, md5 $sum"
echo "$sum" > /tmp/in.md5
nc 10.57.0.1 5002 < /tmp/in.md5
# the cell's RAM holds one of the two files with room, not both
rm -f /tmp/in

# cell -> root: as many MiB of random bytes as root sent, then their MD5
# head -c reads until it has them all (dd may count short reads of
# /dev/urandom as whole blocks)
head -c "$bytes" /dev/urandom > /tmp/out
sum=$(md5sum /tmp/out | cut -d' ' -f1)
say "sending $(wc -c < /tmp/out) bytes, md5 $sum"
echo "$sum" > /tmp/out.md5
# root listens already (it started its listeners before the cell)
nc 10.57.0.1 5003 < /tmp/out
nc 10.57.0.1 5004 < /tmp/out.md5
rm -f /tmp/out
say "done"

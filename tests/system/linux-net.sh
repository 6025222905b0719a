# SPDX-License-Identifier: GPL-2.0
# The link in a Linux cell (docs/linux-cell.md "Network"): a one-CPU Linux
# cell (configs/cells/linux-net.yaml) with the link "lnet" to root. In the
# cell warden.ko, the file root loads, binds the link's function, which
# Linux found by its own PCI scan, from what the function says of itself
# in BAR 0 (the cell has no system config); it knows it runs in a cell
# (in_cell 1) and refuses "warden enable", named. Root and the cell bring
# up wl-lnet: ping both ways; 16 MiB over TCP each way (busybox nc) with
# the MD5 computed on both ends and compared by root; after destroy root's
# interface has no carrier and the pool is exact. The cell's side is
# tests/vm/cell-linux/net.sh (wd_test=net). The cell also has a link to
# the bare-metal cell link-echo ("lecho", root not a peer) and pings its
# ICMP responder through wl-lecho. The cell's 128 MiB come from
# the second reservation, as in linux-cell; it runs on CPU 3 (COM4), apart
# from the other cells of the system's links. The cell boots relocated
# (its RAM at guest = phys but the first MiB: docs/linux-cell.md, "The
# relocated boot"). qemu-svm only (about a minute): on bochs-vmx the link,
# the e1000 by INTx and the UART by interrupt are tested in the boot of
# linux-cell's 2-CPU cell (linux-bochs), as a Linux cell takes minutes to
# boot there.
# The same cell owns the e1000e at 00:04.0 (docs/linux-cell.md "Devices"):
# before the link tests the cell's Debian e1000e.ko binds it, its link
# comes up, 200 echoes to QEMU's user-mode gateway bring at least 100
# interrupts on its MSI-X vectors, and the cell takes no VM exit
# meanwhile (counted by root between two marks the cell makes: a read of
# the quiet port 0x80 each; tests/vm/cell-linux/dev.sh); before, root's
# e1000e.ko had the function, and after destroy it has it again, working.
# Then the cell's e1000 (00:02.0, no MSI) by INTx, routed by its tables'
# _PRT to the IOAPIC pin 22 the cell owns: Debian's e1000.ko binds it and
# 50 echoes bring at least 10 interrupts (the cell's exits meanwhile are
# reported).
# machines: qemu-svm
# cpus: 4
# timeout: 900
# cmdline: memmap=256M$0x20000000
# linux-payload: yes
# tests: config-check insmod enable root-netdev root-in-cell-0 root-e1000e-bound echo-created echo-started cell-started e1000e-run e1000e-zero-exits e1000-run root-ping-cell listeners tcp-root-to-cell tcp-cell-to-root cell-destroyed root-carrier-off e1000e-back root-e1000e-works echo-destroyed pool-back disable
# console: com4 cell-e1000e-bound ^linux-dev: function 0x8086:0x10d3 driver e1000e$
# console: com4 cell-e1000e-carrier ^linux-dev: eth0 carrier 1 after [0-9]+ s$
# console: com4 cell-e1000e-msix ^linux-dev: [1-9][0-9]* vectors, msix $
# console: com4 cell-e1000e-ping ^linux-dev: ping 10.0.2.2: 200 of 200 answered$
# console: com4 cell-e1000e-irqs ^linux-dev: interrupts of eth0 during the run: [1-9][0-9][0-9]+ \(
# console: com4 cell-e1000-bound ^linux-dev: function 0x8086:0x100e driver e1000$
# console: com4 cell-e1000-intx ^linux-dev: e1000 eth1 by INTx: IO-APIC 22-fasteoi
# console: com4 cell-e1000-ping ^linux-dev: e1000 ping 10.0.2.2: 50 of 50 answered$
# console: com4 cell-e1000-irqs ^linux-dev: interrupts of eth1 during the run: [1-9][0-9]+ \(
# console: com4 cell-uart-irq ^linux-uart: uart interrupts growing: [0-9]+ then [0-9]+$
# console: com4 cell-e1000e-done ^linux-dev: done$
# console: com4 cell-in-cell ^linux-net: in_cell 1$
# console: com4 cell-bound ^linux-net: function 0x5744:0x4c4b driver warden-link$
# console: com4 cell-chardev ^linux-net: chardev /dev/warden-link-lnet$
# console: com4 cell-enable-refused ^linux-net: enable exit 2: .*enable: this kernel runs inside a Warden cell
# console: com4 cell-enable-logged ^linux-net: kernel log: warden: enable: this kernel runs inside a Warden cell; only root manages Warden$
# console: com4 cell-netdev ^linux-net: wl-lnet up, 02:57:4c:4b:04:01$
# console: com4 cell-first-echo ^linux-net: first echo from root after [0-9]+ unanswered, 0 frames dropped on sending$
# console: com4 cell-ping-root ^linux-net: ping root: 3 of 3 answered$
# console: com4 cell-ping-echo ^linux-net: ping link-echo: 3 of 3 answered$
# console: com4 cell-done ^linux-net: done$
# console: com3 echo-lecho ^link-echo: link 3 id 0 of 2 peers up 0x0, 00:04\.0
. /tests/lib.sh

MIB=16 SYS=/yaml/system-qemu.yaml LINUX_WAIT=${LINUX_WAIT:-300} XFER_WAIT=300
ROOT_IP=10.57.0.1 CELL_IP=10.57.0.2

# exits NAME [REASON]: the cell's VM exits so far (sysfs statistics)
exits() {
	for d in /sys/kernel/warden/cells/*; do
		[ "$(cat $d/name 2>/dev/null)" = "$1" ] &&
			cat $d/statistics/vmexits_${2:-total} && return
	done
	echo 0
}
# marks NAME: how often the cell read port 0x80 (its access log)
marks() {
	warden cell stats $1 --json 2>/dev/null |
		sed -n 's/.*"kind": "port in", "number": 128, "sub": 0, "count": \([0-9]*\).*/\1/p' |
		head -n 1
}
# e1000e_ok: root's e1000e.ko has 00:04.0 and its interface
E1000E=/sys/bus/pci/devices/0000:00:04.0
e1000e_ok() {
	[ "$(basename "$(readlink $E1000E/driver)")" = e1000e ] && [ -n "$(ls $E1000E/net 2>/dev/null)" ]
}

# the worked example (docs/linux-cell.md): the cell against the system
# config, whose link names it as a peer
expect_rc config-check 0 warden config check $SYS \
	/yaml/cells/link-echo.yaml /yaml/cells/link-peer.yaml /yaml/cells/linux-net.yaml
expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable $SYSTEM_CELL
before=$(pool)
if [ -e /sys/class/net/wl-lnet ] && [ -c /dev/warden-link-lnet ]; then pass root-netdev; else fail root-netdev "$(ls /sys/class/net | tr '\n' ' ')"; fi
if [ "$(cat /sys/devices/virtual/misc/warden/in_cell)" = 0 ]; then pass root-in-cell-0; else fail root-in-cell-0 "in_cell $(cat /sys/devices/virtual/misc/warden/in_cell)"; fi
ip addr add $ROOT_IP/24 dev wl-lnet
ip link set wl-lnet up
insmod /modules/e1000e.ko
if e1000e_ok; then pass root-e1000e-bound; else fail root-e1000e-bound "00:04.0 driver '$(readlink $E1000E/driver)'"; fi

# root's listeners and the bytes for the cell, before it starts (lib.sh)
link_listen

# link-echo (CPU 1), the Linux cell's bare-metal peer on "lecho"
expect_rc echo-created 0 warden cell create /configs/cells/link-echo.cell
warden cell load link-echo /inmates/link-echo.bin -s "report=0" -a 0xff000 >/dev/null
expect_rc echo-started 0 warden cell start link-echo

expect_rc cell-started 0 warden cell linux /configs/cells/linux-net.cell \
	/linux/vmlinuz --initrd /linux/initrd.cpio --cmdline "wd_test=net wd_dev=e1000e"
# the cell's runs with its devices, each between two of its marks (the
# first mark is init's at the shell): the e1000e's between marks 2 and 3,
# the e1000's (INTx) between 4 and 5; the cell's VM exits meanwhile, by
# reason, into $per (" pio=1": only the closing mark's)
# dev_run FROM TO WAIT: true if the cell made mark TO (lib.sh has run)
dev_run() {
	t=0
	while [ $t -lt $3 ] && [ "$(marks linux-net)" != $1 ]; do
		sleep 1
		t=$((t + 1))
	done
	for r in $EXIT_REASONS; do eval "x0_$r=\$(exits linux-net $r)"; done
	t=0
	while [ $t -lt 120 ] && [ "$(marks linux-net)" != $2 ]; do
		sleep 1
		t=$((t + 1))
	done
	per=
	for r in $EXIT_REASONS; do
		eval "d=\$((\$(exits linux-net $r) - x0_$r))"
		[ "$d" = 0 ] || per="$per $r=$d"
	done
	[ "$(marks linux-net)" = $2 ]
}
if dev_run 2 3 $LINUX_WAIT; then
	pass e1000e-run
	echo "  > the cell's VM exits during its e1000e run:$per (the mark that ends the run is one pio)"
	if [ "$per" = " pio=1" ]; then pass e1000e-zero-exits; else fail e1000e-zero-exits "exits during the run:$per"; fi
else
	fail e1000e-run "the cell made $(marks linux-net) marks of 3 in $LINUX_WAIT s"
	fail e1000e-zero-exits "no run"
fi
# the e1000's run: its INTx through the IOAPIC pin the cell owns, routed
# by the _PRT of its tables; the exits are reported, not asserted (the
# IOAPIC's registers are the hypervisor's)
if dev_run 4 5 120; then
	pass e1000-run
	echo "  > the cell's VM exits during its e1000 (INTx) run:$per (the mark that ends the run is one pio)"
else
	fail e1000-run "the cell made $(marks linux-net) marks of 5"
fi
run sh -c "warden console | grep -i 'linux-net\|link' | tail -n 5"
link_ping linux-net
# root -> cell, then cell -> root (lib.sh), the cell's exits meanwhile
e0=$(exits linux-net) m0=$(exits linux-net mmio)
link_xfer
echo "  > the cell's VM exits during the transfers: $(($(exits linux-net) - e0)), $(($(exits linux-net mmio) - m0)) of them MMIO (its doorbells and link registers)"
run warden cell stats linux-net
expect_rc cell-destroyed 0 warden cell destroy linux-net
c=$(cat /sys/class/net/wl-lnet/carrier 2>&1)
if wait_up_to 10 sh -c '[ "$(cat /sys/class/net/wl-lnet/carrier)" = 0 ]'; then pass root-carrier-off; else fail root-carrier-off "carrier $c"; fi
# the e1000e is root's again: its driver bound, the interface up with its
# link and interrupts
if wait_up_to 10 e1000e_ok; then pass e1000e-back; else fail e1000e-back "00:04.0 driver '$(readlink $E1000E/driver)'"; fi
dev=$(ls $E1000E/net 2>/dev/null | head -n 1)
ip link set "$dev" up 2>/dev/null
wait_up_to 15 sh -c "[ \"\$(cat /sys/class/net/$dev/carrier 2>/dev/null)\" = 1 ]"
a=$(grep -c "$dev" /proc/interrupts) c=$(cat /sys/class/net/$dev/carrier 2>/dev/null)
n=$(awk -v d="$dev" 'index($0, d) { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i } END { print n + 0 }' /proc/interrupts)
echo "  > root's $dev after destroy: carrier $c, $a vectors, $n interrupts"
if [ "$c" = 1 ] && [ "$n" -gt 0 ]; then pass root-e1000e-works; else fail root-e1000e-works "$dev carrier '$c', $n interrupts"; fi
ip link set "$dev" down 2>/dev/null
run sh -c "warden console | grep 'link-echo: link 3' | tail -n 2"
expect_rc echo-destroyed 0 warden cell destroy link-echo
after=$(pool)
if [ -n "$before" ] && [ "$before" = "$after" ]; then pass pool-back; else fail pool-back "pool pages before the Linux cell $before, after its destroy $after"; fi
ip link set wl-lnet down
expect_rc disable 0 warden disable

# SPDX-License-Identifier: GPL-2.0
# Inter-cell links (docs/hypervisor.md, the links unit; docs/driver.md):
# the system configs have four links, "echo" (root and the link-echo
# cell), "trio" (root, link-echo and link-peer), "storm" (root and
# link-peer, a low bound) and "duo" (link-echo and link-peer: root is not
# a peer).  Root sees each of its links as a
# virtual PCI function with warden.ko's driver bound: a character device
# and a net interface.  Checked:
#  - 1000 messages root -> link-echo -> root through the char device and
#    libinmate, none lost or corrupted (warden link ping: checksums);
#  - Linux's ping through wl-echo to link-echo's ICMP responder;
#  - link-peer pings link-echo over "trio" (cell <-> cell, 1000);
#  - each side sees the others come and go: link-peer destroyed shows
#    down to link-echo and to root, and "trio" works again after a new
#    create;
#  - exits per doorbell on the receiving cell: 0 where its x2APIC passes
#    through (qemu-svm), 1 (the EOI) where it is emulated (Bochs), and 1
#    on the sender;
#  - containment: a doorbell storm is bounded (dropped doorbells counted,
#    root's interrupts within the bound, root alive); so is a storm of
#    state changes, whose last one root still sees (latched, not lost,
#    DROPPED unchanged); root's read and write of "duo" (not its link)
#    are refused and named, and the cells still ping over it; a write into
#    another peer's section fails the cell, named; a cell cannot reach
#    another link's memory (a region over it is refused);
#  - bad link configs refused with their causes;
#  - disable removes the functions from Linux first.
# Four CPUs on Bochs need the Skylake-X model and no MWAIT (as smp4:
# docs/test-machine.md), else Linux's CPU offline at create stalls.
# machines: qemu-svm qemu-svm-noiommu bochs-vmx
# cpu-model: corei7_skylake_x
# cmdline: clearcpuid=monitor
# cpus: 4
# timeout: 1500
# tests: insmod enable root-function driver-bound chardev netdev list-before create-echo echo-up ping-1000 exits-per-doorbell net-ping create-peer cell-ping trio-all-up peer-down-root recreate-peer cell-ping-again storm-bounded storm-root-irqs storm-root-alive statestorm-bounded statestorm-root-irqs statestorm-final-state duo-root-refused duo-root-own-link duo-cell-ping duo-list rowrite-fails rowrite-root-alive other-link-refused bad-overlap-hv bad-overlap-link bad-peer-unknown bad-bdf-in-use destroy-all disable function-gone rmmod
# console: com3 echo-started ^link-echo: link 0 id 1 of 2 peers up 0x1, 00:01\.0
# console: com3 peer-down-seen ^link-echo: link 1 peer 2 down
# console: com3 peer-up-seen ^link-echo: link 1 peer 2 up
# console: com3 duo-started ^link-echo: link 2 id 0 of 2 peers up 0x0, 00:03\.0
# console-absent: com3 no-polling link-echo: link [0-9]+: no interrupts, polling
. /tests/lib.sh

case "$MACHINE" in
bochs-*) N=1000 SYS=/yaml/system-bochs.yaml ;;
*) N=1000 SYS=/yaml/system-qemu.yaml ;;
esac

# start CELL ARGS: load link-echo into the created cell CELL and start it
start() {
	warden cell load $1 /inmates/link-echo.bin -s "$2" -a 0xff000 >/dev/null
	warden cell start $1 >/dev/null
}
# exits CELL: the VM exits of the cell's CPU so far
exits() {
	warden cell stats $1 | sed -n 's/^cpu [0-9]*: vmexits total=\([0-9]*\),.*/\1/p' | head -n 1
}
# peer_state LINK INDEX: "present/up" as warden link list shows it
peer_state() {
	warden link list | awk -v l=$1 -v i=$2 '
		$1 ~ /^[0-9]+$/ { if (cur == l && $1 == i) print $5 "/" $6; next }
		$1 != "link" { cur = $1; if (cur == l && $4 == i) print $8 "/" $9 }'
}
# wait_for CMD...: up to 30 s until CMD succeeds
wait_for() {
	i=0
	while [ $i -lt 30 ]; do
		"$@" && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}
# irqs NAME: the interrupts of /proc/interrupts lines matching NAME
irqs() {
	awk -v n="$1" 'index($0, n) { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts
}

expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable $SYSTEM_CELL

# the functions: root's peers of "echo" (00:10.0) and "trio" (00:11.0)
v=$(cat /sys/bus/pci/devices/0000:00:10.0/vendor /sys/bus/pci/devices/0000:00:10.0/device 2>&1 | tr '\n' ' ')
if [ "$v" = "0x5744 0x4c4b " ]; then pass root-function; else fail root-function "00:10.0: $v"; fi
d=$(basename "$(readlink /sys/bus/pci/devices/0000:00:10.0/driver)")
if [ "$d" = warden-link ]; then pass driver-bound; else fail driver-bound "driver '$d'"; fi
if [ -c /dev/warden-link-echo ] && [ -c /dev/warden-link-trio ]; then pass chardev; else fail chardev "$(ls /dev | grep warden | tr '\n' ' ')"; fi
if [ -e /sys/class/net/wl-echo ] && [ -e /sys/class/net/wl-trio ]; then pass netdev; else fail netdev "$(ls /sys/class/net | tr '\n' ' ')"; fi
run warden link list
if [ "$RC" = 0 ] && [ "$(peer_state echo 0)" = present/up ] && [ "$(peer_state echo 1)" = absent/down ]; then pass list-before; else fail list-before "rc $RC"; fi

# link-echo (CPU 1): no tick, so that only doorbells wake it
expect_rc create-echo 0 warden cell create /configs/cells/link-echo.cell
start link-echo "tick=0 report=0"
if wait_for eval '[ "$(peer_state echo 1)" = present/up ]'; then pass echo-up; else fail echo-up "$(warden link list | tr '\n' ' ')"; fi

# 1000 messages through the char device, timed; the cell's exits: it
# rings once per message (1 exit) and takes one doorbell (0 or 1 exit)
e0=$(exits link-echo)
run warden link ping echo -c $N -q
e1=$(exits link-echo)
echo "links: ping echo: $(echo "$OUT" | tail -n 1); link-echo exits $((e1 - e0)) for $N round trips"
expect_out ping-1000 "^$N sent, $N received, 0 corrupted"
e=$((e1 - e0))
# (a few either way: the counters are read while the last echo's exit
# may still be under way, and the client may see that echo before it)
if [ "$MACHINE" = qemu-svm ]; then lo=$((N - 5)) hi=$((N + N / 20 + 20)); else lo=$((2 * N - 5)) hi=$((2 * N + N / 20 + 20)); fi
if [ "$e" -ge $lo ] && [ "$e" -le $hi ]; then pass exits-per-doorbell; else fail exits-per-doorbell "$e exits for $N doorbells in and $N out (want $lo-$hi)"; fi

# the net interface: Linux's ping to link-echo's ICMP responder
ip addr add 192.168.77.1/24 dev wl-echo
ip link set wl-echo up
run ping -c 5 -W 5 192.168.77.2
expect_out net-ping " 5 packets received"

# link-peer (CPU 2) pings link-echo over "trio" (peer 1 there)
expect_rc create-peer 0 warden cell create /configs/cells/link-peer.cell
start link-peer "mode=ping link=0 peer=1 count=$N report=0"
if wait_for sh -c "warden console | grep -q 'link-ping: $N of $N ok, lost 0, corrupted 0'"; then pass cell-ping; else fail cell-ping "$(warden console | grep link-ping | tail -n 3 | tr '\n' ' ')"; fi
echo "links: cell-to-cell: $(warden console | grep 'link-ping:.*rtt' | tail -n 2 | tr '\n' ' ')"
if [ "$(peer_state trio 0)/$(peer_state trio 1)/$(peer_state trio 2)" = present/up/present/up/present/up ]; then pass trio-all-up; else fail trio-all-up "$(warden link list | tr '\n' ' ')"; fi

# link-peer destroyed: link-echo and root see it go down
warden cell destroy link-peer >/dev/null
sleep 2 # link-echo's report of it is checked on COM3 (peer-down-seen)
if [ "$(peer_state trio 2)" = absent/down ]; then pass peer-down-root; else fail peer-down-root "$(peer_state trio 2)"; fi
expect_rc recreate-peer 0 warden cell create /configs/cells/link-peer.cell
warden console >/dev/null
start link-peer "mode=ping link=0 peer=1 count=100 report=0"
if wait_for sh -c "warden console | grep -q 'link-ping: 100 of 100 ok, lost 0, corrupted 0'"; then pass cell-ping-again; else fail cell-ping-again "$(warden console | grep link-ping | tail -n 3 | tr '\n' ' ')"; fi
warden cell destroy link-peer >/dev/null

# a doorbell storm from link-peer towards root over link "storm", whose
# bound is 1 doorbell per ms (after a burst of 64): the doorbells over it
# are dropped and counted, root takes no more interrupts from it than the
# bound lets through, and root answers meanwhile.  Root's count also holds
# the state interrupt of link-peer coming up (link_start, before the
# storm): one more than the doorbells let through, where it did not
# merge with a doorbell's
warden cell create /configs/cells/link-peer.cell >/dev/null
i0=$(irqs warden-link-storm)
t0=$(date +%s)
start link-peer "mode=storm link=1 peer=0 count=20000 report=0"
wait_for sh -c "warden console | grep -q 'link-storm: rang'"
t1=$(date +%s)
i1=$(irqs warden-link-storm)
line=$(warden console | grep 'link-storm: rang' | tail -n 1)
echo "links: storm: $line; root took $((i1 - i0)) interrupts from link storm in $((t1 - t0)) s or less"
dropped=$(echo "$line" | sed -n 's/.*dropped \([0-9]*\).*/\1/p')
if [ -n "$dropped" ] && [ "$dropped" -gt 0 ] && [ $((i1 - i0)) -le $((20000 - dropped + 1)) ]; then pass storm-bounded; else fail storm-bounded "$line; root took $((i1 - i0))"; fi
if [ $((i1 - i0)) -le $(((t1 - t0 + 1) * 1000 + 64)) ]; then pass storm-root-irqs; else fail storm-root-irqs "$((i1 - i0)) interrupts in $((t1 - t0)) s"; fi
if [ "$(taskset -c 0 sh -c 'echo alive')" = alive ]; then pass storm-root-alive; else fail storm-root-alive "root CPU 0"; fi
warden cell destroy link-peer >/dev/null

# a storm of state changes from link-peer over "storm": each change takes
# the bound like a doorbell, and over it is latched, not lost (the CPU
# that changed waits for the refill).  So the loop takes at least
# (1000 - 64) / 1 ms, root takes no more interrupts than the bound lets
# through, DROPPED (doorbells only) stays 0, and root's driver sees the
# final state: link-peer up, wl-storm's carrier on (off before the start)
ip link set wl-storm up
c0=$(cat /sys/class/net/wl-storm/carrier 2>&1)
warden cell create /configs/cells/link-peer.cell >/dev/null
i0=$(irqs warden-link-storm)
start link-peer "mode=statestorm link=1 count=1000 report=0"
wait_for sh -c "warden console | grep -q 'link-statestorm: toggled'"
line=$(warden console | grep 'link-statestorm: toggled' | tail -n 1)
wait_for sh -c '[ "$(cat /sys/class/net/wl-storm/carrier)" = 1 ]'
i1=$(irqs warden-link-storm)
ms=$(echo "$line" | sed -n 's/.* in \([0-9]*\) ms,.*/\1/p')
echo "links: statestorm: $line; root took $((i1 - i0)) interrupts from link storm"
if [ -n "$ms" ] && [ "$ms" -ge $((1000 - 64 - 2)) ] && echo "$line" | grep -q 'state 1, dropped 0$'; then pass statestorm-bounded; else fail statestorm-bounded "$line (want at least 934 ms, state 1, dropped 0)"; fi
if [ -n "$ms" ] && [ $((i1 - i0)) -le $((ms + 64 + 4)) ]; then pass statestorm-root-irqs; else fail statestorm-root-irqs "$((i1 - i0)) interrupts in $ms ms (bound $((ms + 64 + 4)))"; fi
c1=$(cat /sys/class/net/wl-storm/carrier 2>&1)
if [ "$c0/$c1" = 0/1 ] && [ "$(peer_state storm 1)" = present/up ]; then pass statestorm-final-state; else fail statestorm-final-state "carrier $c0 then $c1, $(peer_state storm 1)"; fi
warden cell destroy link-peer >/dev/null
ip link set wl-storm down

# link "duo" between link-echo and link-peer, root not a peer: its memory
# (in root's RAM) is cut from root at enable, so root's read and write of
# it are refused with #GP and named, as for a cell's memory, while root's
# own link "echo" stays readable; then link-peer pings link-echo over duo,
# past the section header root tried to overwrite
wdprobe() { # MODE ADDR: what wdtest saw
	dmesg -c >/dev/null
	insmod /wdtest.ko mode=$1 addr=$2 2>/dev/null
	dmesg | grep -o "wdtest: $1 [^:]*: [a-z]*" | head -n 1
}
r=$(wdprobe hvread 0x33f00000) w=$(wdprobe hvwrite 0x33f00000) e=$(wdprobe hvread 0x33c00000)
c=$(warden console)
if [ "$r" = "wdtest: hvread 0x33f00000: refused" ] && [ "$w" = "wdtest: hvwrite 0x33f00000: refused" ] &&
	echo "$c" | grep -q 'root read of 0x33f00000 at RIP 0x[0-9a-f]* refused: memory of a link root is not a peer of' &&
	echo "$c" | grep -q 'root write of 0x33f00000 at RIP 0x[0-9a-f]* refused: memory of a link root is not a peer of'; then pass duo-root-refused; else fail duo-root-refused "$r; $w; $(echo "$c" | grep 'root .* of 0x33f' | tail -n 2 | tr '\n' ' ')"; fi
if [ "$e" = "wdtest: hvread 0x33c00000: read" ] && [ "$(taskset -c 0 sh -c 'echo alive')" = alive ]; then pass duo-root-own-link; else fail duo-root-own-link "$e"; fi
warden cell create /configs/cells/link-peer.cell >/dev/null
start link-peer "mode=ping link=2 peer=0 count=200 report=0"
if wait_for sh -c "warden console | grep -q 'link-ping: link 2 peer 0 up'" && wait_for sh -c "warden console | grep -q 'link-ping: 200 of 200 ok, lost 0, corrupted 0'"; then pass duo-cell-ping; else fail duo-cell-ping "$(warden console | grep link-ping | tail -n 3 | tr '\n' ' ')"; fi
if [ "$(peer_state duo 0)/$(peer_state duo 1)" = present/up/present/up ]; then pass duo-list; else fail duo-list "$(warden link list | tr '\n' ' ')"; fi
warden cell destroy link-peer >/dev/null

# link-peer writes into root's section of "trio": it fails, named
warden cell create /configs/cells/link-peer.cell >/dev/null
start link-peer "mode=rowrite link=0 peer=0 report=0"
if wait_for sh -c "warden cell list | grep -q 'link-peer.*failed'" && warden console | grep -q "write to a link section of another peer"; then pass rowrite-fails; else fail rowrite-fails "$(warden cell list | tr '\n' ' ') $(warden console | tail -n 3 | tr '\n' ' ')"; fi
if [ "$(taskset -c 0 sh -c 'echo alive')" = alive ] && [ "$(peer_state echo 1)" = present/up ]; then pass rowrite-root-alive; else fail rowrite-root-alive "$(warden link list | tr '\n' ' ')"; fi
warden cell destroy link-peer >/dev/null

# a cell whose memory covers link "echo"'s: refused, nothing created
sed 's/^    - phys: 0x31100000$/    - phys: 0x33c00000/' /yaml/cells/link-peer.yaml >/tmp/over.yaml
run warden cell create /tmp/over.yaml
if [ "$RC" != 0 ] && echo "$OUT" | grep -qi "link" && ! warden cell list | grep -q link-peer; then pass other-link-refused; else fail other-link-refused "rc $RC: $OUT"; fi

# bad link configs: the validator names the cause
sed 's/memory: {phys: 0x33c00000, size: 1M}/memory: {phys: 0x30000000, size: 1M}/' $SYS >/tmp/hv.yaml
run warden config check /tmp/hv.yaml
if [ "$RC" = 1 ] && echo "$OUT" | grep -q "overlaps the hypervisor.s memory"; then pass bad-overlap-hv; else fail bad-overlap-hv "rc $RC: $OUT"; fi
sed 's/memory: {phys: 0x33d00000, size: 1M}/memory: {phys: 0x33c00000, size: 1M}/' $SYS >/tmp/ll.yaml
run warden config check /tmp/ll.yaml
if [ "$RC" = 1 ] && echo "$OUT" | grep -q "overlaps the memory of links\[0\]"; then pass bad-overlap-link; else fail bad-overlap-link "rc $RC: $OUT"; fi
run warden config check $SYS /yaml/cells/link-echo.yaml
if [ "$RC" = 1 ] && echo "$OUT" | grep -q "link-peer"; then pass bad-peer-unknown; else fail bad-peer-unknown "rc $RC: $OUT"; fi
sed 's/bdf: 00:10.0,/bdf: 00:02.0,/' $SYS >/tmp/bdf.yaml
run warden config check /tmp/bdf.yaml
if [ "$RC" = 1 ] && echo "$OUT" | grep -q "00:02.0"; then pass bad-bdf-in-use; else fail bad-bdf-in-use "rc $RC: $OUT"; fi

expect_rc destroy-all 0 warden cell destroy link-echo
expect_rc disable 0 warden disable
if [ ! -e /sys/bus/pci/devices/0000:00:10.0 ] && [ ! -e /dev/warden-link-echo ]; then pass function-gone; else fail function-gone "still there"; fi
expect_rc rmmod 0 rmmod warden

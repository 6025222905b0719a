# SPDX-License-Identifier: GPL-2.0
# The guest side of `make bench`'s second boot (bench/run.py): doorbell
# round trips over inter-cell links (docs/bench.md), on three CPUs:
#  - root -> link-echo (CPU 1) -> root: `warden link ping echo`, 1000
#    messages through warden.ko's char device, TSC cycles per round trip;
#  - cell <-> cell: link-peer (CPU 2) pings link-echo over link "trio",
#    1000 messages, TSC cycles measured in the inmate;
#  - the exits per doorbell of the receiving cell.
# Three CPUs on Bochs: the Skylake-X model without MWAIT, as smp4
# (docs/test-machine.md).
# machines: bochs-vmx
# cpu-model: corei7_skylake_x
# cmdline: clearcpuid=monitor
# cpus: 3
# timeout: 1500
# tests: bench-links-done
. /tests/lib.sh

N=1000
out() { echo "BENCH $*"; }
exits() {
	warden cell stats $1 | sed -n 's/^cpu [0-9]*: vmexits total=\([0-9]*\),.*/\1/p' | head -n 1
}
up() {
	warden link list | awk -v l=$1 -v i=$2 '
		$1 ~ /^[0-9]+$/ { if (cur == l && $1 == i) print $6; next }
		$1 != "link" { cur = $1; if (cur == l && $4 == i) print $9 }'
}

insmod /warden.ko
warden enable /configs/system-bochs.cell
warden cell create /configs/cells/link-echo.cell >/dev/null
warden cell load link-echo /inmates/link-echo.bin -s "tick=0 report=0" \
	-a 0xff000 >/dev/null
warden cell start link-echo >/dev/null
i=0
while [ $i -lt 60 ] && [ "$(up echo 1)" != up ]; do
	sleep 1
	i=$((i + 1))
done

# root -> cell -> root
e0=$(exits link-echo)
r=$(warden link ping echo -c $N -q | tail -n 1)
e1=$(exits link-echo)
echo "$r"
out "link root_cell.cycles_median $(echo "$r" | sed -n 's/.*cycles median \([0-9]*\) max.*/\1/p')"
out "link root_cell.cycles_max $(echo "$r" | sed -n 's/.*cycles median [0-9]* max \([0-9]*\).*/\1/p')"
out "link root_cell.received $(echo "$r" | sed -n 's/^[0-9]* sent, \([0-9]*\) received.*/\1/p')"
out "link root_cell.cell_exits $((e1 - e0))"

# cell <-> cell
warden cell create /configs/cells/link-peer.cell >/dev/null
warden cell load link-peer /inmates/link-echo.bin \
	-s "mode=ping link=0 peer=1 count=$N report=0 tick=0" -a 0xff000 >/dev/null
e0=$(exits link-echo)
warden cell start link-peer >/dev/null
i=0
while [ $i -lt 300 ] && ! warden console | grep -q 'link-ping: [0-9]* of'; do
	sleep 1
	i=$((i + 1))
done
e1=$(exits link-echo)
r=$(warden console | grep 'link-ping: [0-9]* of' | tail -n 1)
echo "$r"
out "link cell_cell.cycles_median $(echo "$r" | sed -n 's/.*rtt cycles median \([0-9]*\) max.*/\1/p')"
out "link cell_cell.cycles_max $(echo "$r" | sed -n 's/.*rtt cycles median [0-9]* max \([0-9]*\).*/\1/p')"
out "link cell_cell.received $(echo "$r" | sed -n 's/.*link-ping: \([0-9]*\) of.*/\1/p')"
out "link cell_cell.echo_exits $((e1 - e0))"
warden cell destroy link-peer >/dev/null
warden cell destroy link-echo >/dev/null
warden disable
out "link done 1"
pass bench-links-done

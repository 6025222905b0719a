# SPDX-License-Identifier: GPL-2.0
# Scale (issue 31, docs/bench.md "Growth"): a 16-CPU machine with 4 GiB,
# two reservations (the usual 64 MiB for the hypervisor and small cells,
# and 2 GiB above 4 GiB for large cells), set up the way a user does it:
# "warden config create" on the machine itself, then enable.  Root's IPIs
# reach all 16 CPUs; a cell on CPUs 8-15 (smp-demo: INIT/SIPI to 7 CPUs,
# IPIs among them, on COM4); cells of 16 MiB, 256 MiB and 1 GiB from the
# high reservation created, loaded, started and destroyed with root's pool
# exact, the 1 GiB cell's second-level tables in large pages (a few pool
# pages, where 4 KiB pages would take more than 512); disable.  Each
# step's time is printed ("  > scale: ...", TCG wall time, not a
# hardware figure).
# qemu-svm only: Bochs has at most 4 CPUs in the suite's time and 1 GiB
# of guest memory; QEMU allocates guest RAM lazily (the host has plenty).
# About a minute.
# machines: qemu-svm
# cpus: 16
# memory: 4096
# cmdline: memmap=2G$0x100000000
# timeout: 600
# tests: config-create config-cpus config-iommu config-high-memory insmod enable-16 all-cpus-running root-ipis-all cell-8-15 cell-8-15-destroyed cell-16M cell-256M cell-1G cell-1G-large-pages pool-exact root-works disable
# console: com4 cell-8-15-ran ^smp-demo: 8 CPUs, [0-9]+ IPIs sent, [0-9]+ received, unexpected 0
. /tests/lib.sh

res() { awk -v c=$(($1 + 2)) '/RES:/ { print $c }' /proc/interrupts; }

run warden config create -o /tmp/sys.yaml
if [ "$RC" = 0 ] && warden config check /tmp/sys.yaml >/dev/null; then pass config-create; else fail config-create "rc $RC: $OUT"; fi
if grep -q '^  cpus: 0-15$' /tmp/sys.yaml; then pass config-cpus; else fail config-cpus "$(grep 'cpus:' /tmp/sys.yaml)"; fi
if grep -q '^    iommu_base: 0xfed90000 ' /tmp/sys.yaml; then pass config-iommu; else fail config-iommu "$(grep iommu_base /tmp/sys.yaml)"; fi
# the high reservation: RAM of root's that cells take theirs from
if grep -A3 'memmap=2G$0x100000000, more cell memory' /tmp/sys.yaml | grep -q 'size: 2G' && grep -A4 'memmap=2G$0x100000000, more cell memory' /tmp/sys.yaml | grep -q 'flags: \[read, write, execute\]'; then pass config-high-memory; else fail config-high-memory "$(grep -B2 -A4 'more cell memory' /tmp/sys.yaml)"; fi

expect_rc insmod 0 insmod /warden.ko
s=$(ms)
run warden enable /tmp/sys.yaml
t=$(($(ms) - s))
echo "  > scale: enable on 16 CPUs $t ms; $(dmesg | grep -o 'entering took.*' | tail -n 1)"
if [ "$RC" = 0 ] && warden status | grep -q '^Warden is enabled: 16 CPUs'; then pass enable-16; else fail enable-16 "rc $RC: $OUT"; fi
n=$(warden status | grep -c '^cpu [0-9]*: running, cell 0')
if [ "$n" = 16 ]; then pass all-cpus-running; else fail all-cpus-running "$n of 16 CPUs running in root: $(warden status | grep '^cpu' | tr '\n' ';')"; fi

# root's IPIs to every CPU (wdtest ipistorm: reschedule IPIs by every
# shorthand and to every CPU), each CPU's RES count must grow
for c in $(seq 0 15); do eval r0_$c=$(res $c); done
insmod /wdtest.ko mode=ipistorm 2>/dev/null
bad=
for c in $(seq 0 15); do
	eval b=\$r0_$c
	[ "$(res $c)" -gt "$b" ] || bad="$bad $c"
done
if [ -z "$bad" ]; then pass root-ipis-all; else fail root-ipis-all "no reschedule IPI arrived on CPU(s)$bad"; fi

before=$(pool)
sed -e 's/^  cpus: 2-3$/  cpus: 8-15/' /yaml/cells/smp-demo.yaml >/tmp/smp8.yaml
s=$(ms)
run sh -c 'warden cell create /tmp/smp8.yaml && warden cell load smp-demo /inmates/smp-demo.bin && warden cell start smp-demo'
echo "  > scale: 8-CPU cell created, loaded and started in $(($(ms) - s)) ms"
sleep 3
if [ "$RC" = 0 ] && warden cell list | grep -Eq '^[0-9]+ +smp-demo +shut down +8-15 +-$'; then pass cell-8-15; else fail cell-8-15 "rc $RC: $OUT $(warden cell list)"; fi
s=$(ms)
run warden cell destroy smp-demo
echo "  > scale: 8-CPU cell destroyed in $(($(ms) - s)) ms"
n=$(warden status | grep -c '^cpu [0-9]*: running, cell 0')
if [ "$RC" = 0 ] && [ "$n" = 16 ]; then pass cell-8-15-destroyed; else fail cell-8-15-destroyed "rc $RC, $n of 16 CPUs back in root: $OUT"; fi

# cells of growing size from the high reservation, at a 1 GiB-aligned
# address (0x140000000), each with its comm region after its RAM
big() { # SIZE: create, load, start, destroy; prints the pool pages used
	sed -e "s/name: tiny-demo/name: big/" -e "s/phys: 0x30600000/phys: 0x140000000/" \
		-e "s/size: 1M/size: $1/" -e "s/guest: 0x100000/guest: 0x80000000/" \
		/yaml/cells/tiny-demo.yaml >/tmp/big.yaml
	p0=$(pool)
	s=$(ms)
	warden cell create /tmp/big.yaml >/dev/null || return 1
	t1=$(ms)
	used=$(($(pool) - p0))
	warden cell load big /inmates/tiny-demo.bin >/dev/null || return 1
	t2=$(ms)
	warden cell start big >/dev/null || return 1
	t3=$(ms)
	sleep 1
	warden cell list | grep -q ' big  *running' || return 1
	t4=$(ms)
	warden cell destroy big >/dev/null || return 1
	t5=$(ms)
	echo "  > scale: cell $1: create $((t1 - s)) ms, load $((t2 - t1)) ms, start $((t3 - t2)) ms, destroy $((t5 - t4)) ms, $used pool pages" >&2
	[ "$(pool)" = "$p0" ] || return 2
	echo $used
}
for size in 16M 256M 1G; do
	used=$(big $size)
	rc=$?
	if [ $rc = 0 ]; then pass cell-$size; else fail cell-$size "rc $rc (1: a step failed, 2: pool not back): $(warden cell list | tr '\n' ';')"; fi
done
if [ -n "$used" ] && [ "$used" -le 32 ]; then pass cell-1G-large-pages; else fail cell-1G-large-pages "the 1 GiB cell took '$used' pool pages (4 KiB pages would need more than 512)"; fi
if [ "$(pool)" = "$before" ]; then pass pool-exact; else fail pool-exact "pool $(pool), was $before"; fi
if [ "$(echo 6 7 | awk '{ print $1 * $2 }')" = 42 ]; then pass root-works; else fail root-works "root's shell"; fi
s=$(ms)
expect_rc disable 0 warden disable
echo "  > scale: disable on 16 CPUs $(($(ms) - s)) ms"

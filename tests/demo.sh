# SPDX-License-Identifier: GPL-2.0
# "make demo [M=machine]": Warden's story on the emulated machine, in
# about a hundred lines (tests/demo_view.py shows the "=== " steps and
# their output; everything else goes to build/demo-<machine>.log).
# machines: bochs-vmx qemu-svm
# cpus: 2
# timeout: 900
M=$(cat /tests/machine)
case $M in
qemu-*) SYS=/yaml/system-qemu.yaml ;;
*) SYS=/yaml/system-bochs.yaml ;;
esac
step() { echo "=== $*"; }
# The kernel's messages would land in the middle of the story's lines:
# they go to the log at the end instead (dmesg, which the terminal skips).
dmesg -n 1

step "Warden on $M: Debian's stock kernel $(uname -r), $(nproc) CPUs, booted bare"
insmod /warden.ko
warden --version | head -n 1
warden hardware check | tail -n 1

step "A config with a mistake is refused before anything changes, with its file and line"
warden enable /yaml/bad/overlap.yaml 2>&1 | head -n 2

step "warden enable $SYS: the hypervisor slides under the running Linux"
warden enable $SYS
for cpu in 0 1; do taskset -c $cpu sh -c "echo \"root cell: Linux goes on, on CPU $cpu\""; done

step "One step to a running cell: an ELF inmate and its command line, no addresses"
echo "\$ warden cell run apic-demo.yaml apic-demo.elf --cmdline report=20"
warden cell run /yaml/cells/apic-demo.yaml /inmates/apic-demo.elf --cmdline report=20
sleep 4
step "The cell reports its timer jitter on its own UART ([cell-com3]); warden cell list"
warden cell list

step "warden cell stats apic-demo: VM exits of the running cell"
warden cell stats apic-demo
if [ "$M" = qemu-svm ]; then
	echo "=> 0 exits per second: root runs in x2APIC mode here, so the cell's x2APIC"
	echo "   is its own and its timer interrupts never leave the cell."
else
	echo "=> Not 0 on Bochs: root keeps the xAPIC here, so the cell's x2APIC is"
	echo "   emulated (each tick's EOI and count read exit). Where root uses x2APIC"
	echo "   it passes through: 'make demo M=qemu-svm' shows 0 exits per second."
fi

step "Shutdown is a request: apic-demo denies the first and approves the second"
warden cell shutdown apic-demo
sleep 1
warden cell shutdown apic-demo
warden cell destroy apic-demo

step "A cell that misbehaves is stopped; root goes on (bad-write writes outside its memory)"
warden cell run /yaml/cells/tiny-demo.yaml /inmates/bad-write.elf
sleep 2
warden cell list
echo "\$ warden console tiny-demo"
warden console tiny-demo
taskset -c 0 sh -c 'echo "root cell: still running on CPU 0"'
warden cell destroy tiny-demo
taskset -c 1 sh -c 'echo "root cell: CPU 1 is back in Linux"'

step "A link: shared memory and doorbells between root and a cell (link-echo)"
warden cell run /yaml/cells/link-echo.yaml /inmates/link-echo.elf --cmdline "tick=0 report=0"
i=0
while [ $i -lt 60 ] && ! warden link list | grep -q 'link-echo .* present *up'; do
	sleep 1
	i=$((i + 1))
done
warden link list | head -n 3
warden link ping echo -c 20 -q
warden cell destroy link-echo

step "warden disable: Linux is back on bare metal"
warden disable
warden hardware check | tail -n 1
dmesg

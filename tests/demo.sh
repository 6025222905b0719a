# SPDX-License-Identifier: GPL-2.0
# "make demo": what Warden does so far, on the emulated machine.
# machines: bochs-vmx
echo "=== Warden demo: Debian's stock kernel $(uname -r) on $(nproc) emulated CPUs"
echo "=== insmod warden.ko"
insmod /warden.ko && ls -l /dev/warden
echo "=== warden --version"
warden --version
echo "=== warden hardware check"
warden hardware check
echo "=== warden enable /yaml/system-bochs.yaml"
warden enable /yaml/system-bochs.yaml
echo "=== Linux goes on as the root cell: a process on each CPU"
for cpu in 0 1; do taskset -c $cpu sh -c "echo hello from CPU $cpu"; done
echo "=== warden status"
warden status
echo "=== a cell: warden cell create /yaml/cells/apic-demo.yaml (Linux gives up CPU 1)"
warden cell create /yaml/cells/apic-demo.yaml
echo "=== warden cell load apic-demo /inmates/apic-demo.bin -s report=20 -a 0xff000; warden cell start apic-demo"
warden cell load apic-demo /inmates/apic-demo.bin -s "report=20" -a 0xff000
warden cell start apic-demo
sleep 3
echo "=== its periodic timer reports jitter on COM3 ([cell-com3] lines); warden cell list"
warden cell list
echo "=== warden cell stats apic-demo (exits per second: the timer's EOI and count read)"
warden cell stats apic-demo
echo "=== cat /sys/kernel/warden/cells/1/state"
cat /sys/kernel/warden/cells/1/state
echo "=== warden cell shutdown apic-demo (the demo denies the first request)"
warden cell shutdown apic-demo
echo "=== warden cell shutdown apic-demo (and approves the second)"
warden cell shutdown apic-demo
echo "=== warden cell destroy apic-demo (CPU 1 back to Linux)"
warden cell destroy apic-demo
taskset -c 1 sh -c "echo hello again from CPU 1"
echo "=== warden console"
warden console
echo "=== warden disable"
warden disable
echo "=== warden hardware check | tail -n 2 (VMX is free again)"
warden hardware check | tail -n 2

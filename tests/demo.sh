# SPDX-License-Identifier: GPL-2.0
# "make demo": what Warden does so far, on the emulated machine.
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
echo "=== a cell: warden cell create /yaml/cells/tiny-demo.yaml (Linux gives up CPU 1)"
warden cell create /yaml/cells/tiny-demo.yaml
echo "=== warden cell load tiny-demo /inmates/tiny-demo.bin; warden cell start tiny-demo"
warden cell load tiny-demo /inmates/tiny-demo.bin
warden cell start tiny-demo
sleep 2
echo "=== its output is on COM3 ([cell-com3] lines); warden cell list"
warden cell list
echo "=== warden cell destroy tiny-demo (CPU 1 back to Linux)"
warden cell destroy tiny-demo
taskset -c 1 sh -c "echo hello again from CPU 1"
echo "=== warden console"
warden console
echo "=== warden disable"
warden disable
echo "=== warden hardware check | tail -n 2 (VMX is free again)"
warden hardware check | tail -n 2

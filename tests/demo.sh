# SPDX-License-Identifier: GPL-2.0
# "make demo": what Warden does so far, on the emulated machine.
echo "=== Warden demo: Debian's stock kernel $(uname -r) on $(nproc) emulated CPUs"
echo "=== insmod warden.ko"
insmod /warden.ko && ls -l /dev/warden
echo "=== warden --version"
warden --version
echo "=== warden hardware check"
warden hardware check
echo "=== warden enable /configs/system-bochs.cell"
warden enable /configs/system-bochs.cell
echo "=== Linux goes on as the root cell: a process on each CPU"
for cpu in 0 1; do taskset -c $cpu sh -c "echo hello from CPU $cpu"; done
echo "=== warden status"
warden status
echo "=== warden console"
warden console
echo "=== warden disable"
warden disable
echo "=== warden hardware check | tail -n 2 (VMX is free again)"
warden hardware check | tail -n 2

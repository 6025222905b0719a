# SPDX-License-Identifier: GPL-2.0
# "make demo": what Warden does so far, on the emulated machine.
echo "=== Warden demo: Debian's stock kernel $(uname -r) on $(nproc) emulated CPUs"
echo "=== insmod warden.ko"
insmod /warden.ko && ls -l /dev/warden
echo "=== warden --version"
warden --version
echo "=== warden hardware check"
warden hardware check
echo "=== exit status $?"

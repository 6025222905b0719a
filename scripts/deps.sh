#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs what Warden needs to build and test, with apt-get, and fetches
# the stock Debian kernel for the test machine.  Idempotent and quiet when
# everything is there already.  Writes the kernel release the driver is
# built against (e.g. 6.1.0-57-amd64) to build/kver.
#
#   scripts/deps.sh          install what is missing
#   scripts/deps.sh --kver   only print the kernel release
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
mkdir -p "$build"

packages=(
	build-essential clang clang-format libclang-rt-14-dev xz-utils
	bochs bochsbios vgabios bochs-term qemu-system-x86 busybox-static
	syslinux syslinux-common mtools dosfstools cpio libyaml-dev
	libcmocka-dev python3
)

updated=0
apt_update() {
	if [ "$updated" = 0 ]; then
		echo "deps: apt-get update" >&2
		apt-get update -qq >&2
		updated=1
	fi
}

# The kernel: the one Debian's linux-image-amd64 metapackage depends on, so
# that image and headers always match.
kver_of_metapackage() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(.*\)$/\1/p' | head -n 1
}

kver=""
if [ -s "$build/kver" ]; then
	kver=$(cat "$build/kver")
else
	kver=$(kver_of_metapackage)
	if [ -z "$kver" ]; then
		apt_update
		kver=$(kver_of_metapackage)
	fi
	if [ -z "$kver" ]; then
		echo "deps: cannot find the kernel linux-image-amd64 depends on" >&2
		exit 1
	fi
	echo "$kver" >"$build/kver"
fi
if [ "${1:-}" = "--kver" ]; then
	echo "$kver"
	exit 0
fi

missing=()
for p in "${packages[@]}" "linux-headers-$kver"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing packages: ${missing[*]}; run as root to install them" >&2
		exit 1
	fi
	apt_update
	echo "deps: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

# The stock kernel image for the test machine (unpacked under build/kernel).
KVER=$kver BUILD=$build "$root/tests/vm/kernel.sh"

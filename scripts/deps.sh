#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs what Warden needs, with apt-get.  Two sets:
#
#   scripts/deps.sh build    what "make" and "make install" need on any
#                            Debian machine: compilers, libyaml, cmocka,
#                            kmod.  Nothing for the test machine.
#   scripts/deps.sh [test]   that, and what "make test", "make demo",
#                            "make bench" and "make deb" need: Bochs, QEMU 10
#                            (from Debian 12's backports suite, which it
#                            adds), busybox, syslinux, the packaging tools,
#                            and the test machine's stock Debian kernel with
#                            its headers, whose release (e.g. 6.1.0-57-amd64)
#                            it writes to build/kver.
#   scripts/deps.sh --kver   only print the test machine's kernel release
#
# Idempotent and quiet when everything is there already.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
mkdir -p "$build"

mode=${1:-test}
case "$mode" in
build | test | --kver) ;;
*)
	echo "deps: unknown set '$mode' (build, test or --kver)" >&2
	exit 2
	;;
esac

# liblzma-dev: "warden cell linux" unpacks Debian's XZ-compressed bzImage
build_packages=(build-essential libyaml-dev liblzma-dev libcmocka-dev python3
	kmod)
# debhelper, dh-dkms, dkms, lintian: "make deb" and its CI check
# acpica-tools: the unit test disassembles the Linux cell's tables (iasl)
# rt-tests: cyclictest, copied with its libraries into root's and the Linux
# cell's initramfs (the latency run, docs/linux-cell.md)
test_packages=(
	acpica-tools clang clang-format libclang-rt-14-dev xz-utils
	bochs bochsbios vgabios bochs-term busybox-static rt-tests
	syslinux syslinux-common mtools dosfstools cpio
	debhelper dh-dkms dkms lintian fakeroot systemd
)

updated=0
apt_update() {
	if [ "$updated" = 0 ]; then
		echo "deps: apt-get update" >&2
		apt-get update -qq >&2
		updated=1
	fi
}

# install_missing PACKAGE...: those not installed, with apt-get
install_missing() {
	local missing=() p
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed"; then
			missing+=("$p")
		fi
	done
	[ "${#missing[@]}" -gt 0 ] || return 0
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing packages: ${missing[*]}; run as root to install them" >&2
		exit 1
	fi
	apt_update
	echo "deps: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

if [ "$mode" = build ]; then
	install_missing "${build_packages[@]}"
	exit 0
fi

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
if [ "$mode" = "--kver" ]; then
	echo "$kver"
	exit 0
fi

install_missing "${build_packages[@]}" "${test_packages[@]}" \
	"linux-headers-$kver"

# QEMU 10 for the qemu-svm machine (x2APIC under TCG exists from QEMU 9.0
# on; Debian 12's own QEMU is 7.2).  It comes from Debian 12's backports
# suite, the only archive added; apt takes nothing else from it unless
# asked (backports are pinned at priority 100).
backports=/etc/apt/sources.list.d/warden-backports.sources
qemu_major() {
	dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null |
		sed -n 's/^[0-9]*:\{0,1\}\([0-9]*\)\..*/\1/p'
}
if [ "$(qemu_major)" = "" ] || [ "$(qemu_major)" -lt 10 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: QEMU 10 (bookworm-backports) is missing; run as root to install it" >&2
		exit 1
	fi
	if ! grep -qs "bookworm-backports" /etc/apt/sources.list \
		/etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; then
		echo "deps: adding Debian 12's backports suite ($backports)" >&2
		cat >"$backports" <<-EOF
			Types: deb
			URIs: http://deb.debian.org/debian
			Suites: bookworm-backports
			Components: main
			Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOF
		updated=0
	fi
	apt_update
	echo "deps: installing qemu-system-x86 from bookworm-backports" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-t bookworm-backports qemu-system-x86 >&2
	if [ "$(qemu_major)" -lt 10 ]; then
		echo "deps: qemu-system-x86 $(qemu_major) installed, 10 or newer needed" >&2
		exit 1
	fi
fi

# The stock kernel image for the test machine (unpacked under build/kernel).
KVER=$kver BUILD=$build "$root/tests/vm/kernel.sh"

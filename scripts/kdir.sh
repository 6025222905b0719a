#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prints the kernel build tree a module is built against, and says what is
# missing when there is none:
#
#   scripts/kdir.sh running [KDIR]   KDIR if given, else the running
#                                    kernel's (/lib/modules/$(uname -r)/build):
#                                    what "make" and "make install" use
#   scripts/kdir.sh test [KDIR]      KDIR if given, else the headers of the
#                                    test machine's kernel (build/kver, which
#                                    scripts/deps.sh installs): what "make
#                                    test", "demo" and "bench" use
#   scripts/kdir.sh release DIR      the kernel release DIR was configured
#                                    for (where "make install" puts the
#                                    module)
#
# Exit status 1 with the reason on stderr when the tree is missing.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
mode=${1:-}
kdir=${2:-}

# A tree Kbuild can build out-of-tree modules against has a Makefile and
# the release it was prepared for: UTS_RELEASE, what "uname -r" says and
# what the module's directory is named after (Debian's kernel.release holds
# the upstream version instead).
utsrelease() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$1/include/generated/utsrelease.h" 2>/dev/null
}
usable() {
	[ -f "$1/Makefile" ] && [ -n "$(utsrelease "$1")" ]
}

case "$mode" in
running | test)
	if [ -n "$kdir" ]; then
		if usable "$kdir"; then
			echo "$kdir"
			exit 0
		fi
		echo "warden: KDIR=$kdir is not a configured kernel build tree" \
			"(no Makefile or include/generated/utsrelease.h)" >&2
		exit 1
	fi
	;;
release)
	utsrelease "$kdir"
	exit 0
	;;
*)
	echo "usage: scripts/kdir.sh running|test [KDIR] | release DIR" >&2
	exit 2
	;;
esac

if [ "$mode" = test ]; then
	kver=$(cat "$build/kver" 2>/dev/null || true)
	kdir=/usr/src/linux-headers-$kver
	if [ -n "$kver" ] && usable "$kdir"; then
		echo "$kdir"
		exit 0
	fi
	echo "warden: the test machine's kernel headers ($kdir) are missing:" \
		"run scripts/deps.sh (as root)" >&2
	exit 1
fi

kver=$(uname -r)
kdir=/lib/modules/$kver/build
if usable "$kdir"; then
	echo "$kdir"
	exit 0
fi
# Debian names the headers package after the release; a kernel built
# elsewhere has none, and saying "install linux-headers-X" would mislead.
pkg=linux-headers-$kver
if apt-cache show "$pkg" >/dev/null 2>&1; then
	hint="install them: apt-get install $pkg"
else
	hint="Debian has no package $pkg (this kernel was not built by Debian):
  get the headers from whoever built the kernel, or boot a Debian kernel"
fi
echo "warden: no headers for the running kernel $kver ($kdir is missing);
  $hint;
  or build for another kernel with KDIR=<its build tree>" >&2
exit 1

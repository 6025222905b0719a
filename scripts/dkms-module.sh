#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Builds warden.ko the way DKMS does on a user's machine, from the
# warden-dkms package's own files, for the test machine's kernel, in a
# private DKMS tree: nothing of the system's DKMS state, /usr/src or
# /lib/modules is touched.  The result is OUT/warden.ko, which the boot
# system group loads (tests/system/boot.sh).
#
#   scripts/dkms-module.sh warden-dkms_VERSION_all.deb OUT
set -eu

deb=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
kver=$("$root/scripts/deps.sh" --kver)
kdir=$("$root/scripts/kdir.sh" test)

command -v dkms >/dev/null || {
	echo "make dkms-module: dkms is missing: run scripts/deps.sh (as root)" >&2
	exit 1
}
if [ -s "$out/warden.ko" ] && [ "$out/warden.ko" -nt "$deb" ]; then
	exit 0
fi
rm -rf "$out"
mkdir -p "$out/tree"
dpkg-deb -x "$deb" "$out/root"
src=$(echo "$out"/root/usr/src/warden-*)
version=${src##*/warden-}
echo "make dkms-module: dkms build warden/$version for $kver (log: $out/dkms.log)"
# sign_file names no signing tool: DKMS then neither signs the module nor
# makes a key under /var/lib/dkms (the test kernel does not ask for
# signed modules)
if ! sign_file=/nonexistent/sign-file dkms build -m warden -v "$version" -k "$kver" --kernelsourcedir "$kdir" \
	--sourcetree "$out/root/usr/src" --dkmstree "$out/tree" \
	>"$out/dkms.log" 2>&1; then
	cat "$out/dkms.log" >&2
	echo "make dkms-module: dkms build failed (above)" >&2
	exit 1
fi
built=$out/tree/warden/$version/$kver/x86_64/module/warden.ko
[ -s "$built" ] || built=$(find "$out/tree" -name 'warden.ko*' | head -n 1)
cp "$built" "$out/warden.ko"
echo "make dkms-module: $out/warden.ko"

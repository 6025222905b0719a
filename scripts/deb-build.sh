#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Builds the Debian packages warden and warden-dkms from debian/ with
# dpkg-buildpackage, in a copy of the tracked files under OUT (it writes
# its results to the parent folder of the source), so that the tree stays
# clean.  Skipped when no tracked file changed since the last build.
#
#   scripts/deb-build.sh OUT VERSION
set -eu

out=$1 version=$2
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh_dkms >/dev/null; then
	echo "make deb: dpkg-buildpackage and dh_dkms are missing: run" \
		"scripts/deps.sh (as root) for debhelper and dh-dkms" >&2
	exit 1
fi
# the sources' fingerprint: the tracked files as committed or staged, and
# their changes not staged yet
stamp=$({ git ls-files -s; git diff; } | sha1sum | cut -d' ' -f1)
debs="$out/warden_${version}_amd64.deb $out/warden-dkms_${version}_all.deb"
if [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ] && ls $debs >/dev/null 2>&1; then
	exit 0
fi
rm -rf "$out"
src=$out/warden-$version
mkdir -p "$src"
git ls-files -z | xargs -0 cp --parents -P -t "$src"
echo "make deb: building the packages (log: $out/build.log)"
if ! (cd "$src" && dpkg-buildpackage -b -us -uc -j2) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "make deb: dpkg-buildpackage failed (above; $out/build.log)" >&2
	exit 1
fi
rm -rf "$src"
echo "$stamp" >"$out/.stamp"
echo "make deb: $debs"

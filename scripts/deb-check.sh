#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Checks the packages "make deb" built, without installing them:
#  - each unpacked (dpkg-deb -x) into a scratch root, its files against
#    tests/package/<package>.files (VERSION for the version);
#  - lintian, which must print nothing (no tag overridden);
#  - warden.service by systemd-analyze verify, its warden command pointed
#    at the scratch root (the unit needs its binaries at their paths);
#  - the packaged CLI runs from there (its shared libraries resolve).
#
#   scripts/deb-check.sh DEB_DIR
set -eu

dir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$dir/check
rm -rf "$scratch"
mkdir -p "$scratch/root"
failed=0
say() { echo "deb-check: $*"; }

for want in "$root"/tests/package/*.files; do
	pkg=$(basename "$want" .files)
	deb=$(ls "$dir/${pkg}_"*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		say "FAIL $pkg: no package in $dir"
		failed=1
		continue
	fi
	version=$(dpkg-deb -f "$deb" Version)
	dpkg-deb -x "$deb" "$scratch/root"
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' |
		sed 's|^\./|/|; s|warden-'"$version"'|warden-VERSION|' |
		sort >"$scratch/$pkg.got"
	grep -v '^#' "$want" | sort >"$scratch/$pkg.want"
	if diff -u "$scratch/$pkg.want" "$scratch/$pkg.got" >"$scratch/$pkg.diff"; then
		say "PASS $pkg: $(wc -l <"$scratch/$pkg.got") files as listed"
	else
		say "FAIL $pkg: files differ from tests/package/$pkg.files (- missing, + not listed):"
		tail -n +3 "$scratch/$pkg.diff" | grep '^[-+]' | sed 's/^/  /'
		failed=1
	fi
done

# lintian warns about running as root; its tags are what counts
tags=$(lintian "$dir"/*.deb 2>&1 | grep -v 'running with root privileges' || true)
if [ -z "$tags" ]; then
	say "PASS lintian: no tags"
else
	say "FAIL lintian:"
	echo "$tags" | sed 's/^/  /'
	failed=1
fi

unit=$scratch/warden.service
sed "s|=/usr/sbin/warden|=$scratch/root/usr/sbin/warden|" \
	"$scratch/root/lib/systemd/system/warden.service" >"$unit"
if out=$(systemd-analyze verify --man=no "$unit" 2>&1) && [ -z "$out" ]; then
	say "PASS warden.service: systemd-analyze verify"
else
	say "FAIL warden.service: systemd-analyze verify: $out"
	failed=1
fi

if out=$("$scratch/root/usr/sbin/warden" --version 2>&1); then
	say "PASS packaged CLI runs: $(echo "$out" | head -n 1)"
else
	say "FAIL packaged CLI: $out"
	failed=1
fi
exit $failed

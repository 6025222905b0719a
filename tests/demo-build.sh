#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# "make demo", first half: build what the demo boots with its output in a
# log file; on the terminal, one line per dependency step (scripts/deps.sh
# says each in a "deps: ..." line) and one for the build.
# usage: tests/demo-build.sh BUILD_DIR MAKE [targets...]
build=$1 make=$2
shift 2
mkdir -p "$build"
log=$build/demo-build.log
if "$make" --no-print-directory "$@" >"$log" 2>&1; then
	grep '^deps: ' "$log"
	n=$(grep -c '^\(gcc\|ld\|ar\|objcopy\|  CC\|  LD\)' "$log")
	if [ "$n" = 0 ]; then
		echo "build: up to date (log: $log)"
	else
		echo "build: done, $n compile and link commands (log: $log)"
	fi
else
	grep '^deps: ' "$log"
	echo "build: failed; the last lines of $log:"
	tail -n 20 "$log"
	exit 1
fi

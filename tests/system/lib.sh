# SPDX-License-Identifier: GPL-2.0
# Helpers for scenario scripts run in the guest (busybox sh).  Each check
# prints "PASS <name>" or "FAIL <name>: <reason>" on the Linux console;
# tests/run.py prefixes the group name.

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# run CMD...: run it, show its output on the console (prefixed), keep the
# output in $OUT and the exit status in $RC.
run() {
	OUT=$("$@" 2>&1)
	RC=$?
	echo "$OUT" | sed 's/^/  > /'
	return 0
}

# expect_rc NAME WANT CMD...: the command exits with status WANT.
expect_rc() {
	name=$1 want=$2
	shift 2
	run "$@"
	if [ "$RC" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "'$*' exited $RC, expected $want: $(echo "$OUT" | tail -n 3 | tr '\n' ' ')"
	fi
}

# expect_out NAME REGEX: the last run's output matches REGEX (grep -E).
expect_out() {
	if echo "$OUT" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1" "output does not match '$2'"
	fi
}

# expect_no_out NAME REGEX: the last run's output does not match REGEX.
expect_no_out() {
	if echo "$OUT" | grep -Eq -- "$2"; then
		fail "$1" "output matches '$2': $(echo "$OUT" | grep -E -- "$2" | head -n 2 | tr '\n' ' ')"
	else
		pass "$1"
	fi
}

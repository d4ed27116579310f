# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# For the refusal tests: source it after check.sh, with $kstack and $tmp
# set.  expect NAME STATUS PATTERN ARGS... runs kstack ARGS and wants exit
# STATUS, PATTERN on stderr (a fixed string; expect_re: an extended
# regex) and nothing on stdout.
expect_match() {
	local how=$1 name=$2 want=$3 pattern=$4 rc=0
	shift 4
	timeout 30 "$kstack" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want" ] && grep -q "$how" -- "$pattern" "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		pass "$name: exit $rc, $(head -1 "$tmp/err")"
	else
		fail "$name: exit $rc (want $want), stdout $(wc -c <"$tmp/out") bytes, stderr:"
		sed 's/^/    /' "$tmp/err" | head -5
	fi
}
expect() { expect_match -F "$@"; }
expect_re() { expect_match -E "$@"; }

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The live tool's refusals: each bad command line or bad input ends with
# the documented exit status and a message that names the problem, and
# prints no sample.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"

# expect NAME STATUS STDERR-PATTERN ARGS...: exit STATUS, the pattern on
# stderr (fixed string), nothing on stdout.
expect() {
	local name=$1 want=$2 pattern=$3 rc=0
	shift 3
	timeout 30 "$kstack" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want" ] && grep -qF -- "$pattern" "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		pass "$name: exit $rc, $(head -1 "$tmp/err")"
	else
		fail "$name: exit $rc (want $want), stdout $(wc -c <"$tmp/out") bytes, stderr:"
		sed 's/^/    /' "$tmp/err" | head -5
	fi
}

fx=(--proc-root "$tmp/proc")

# --- usage: empty and missing values ---------------------------------------
expect "empty --cgroup" 2 "option --cgroup wants a non-empty value" "${fx[@]}" -a --cgroup ""
expect "empty --cgroup=" 2 "option --cgroup wants a non-empty value" "${fx[@]}" -a --cgroup=
expect "relative --cgroup" 2 "starting with /" "${fx[@]}" -a --cgroup system.slice
expect "empty -d" 2 "option -d wants a non-empty value" -b -a -d ""
expect "empty -o" 2 "option -o wants a non-empty value" "${fx[@]}" -a -o ""
expect "empty --proc-root" 2 "option --proc-root wants a non-empty value" -a --proc-root ""
expect "empty --vmcore" 2 "option --vmcore wants a non-empty value" -a --vmcore "" --vmlinux x
expect "empty --vmlinux" 2 "option --vmlinux wants a non-empty value" -a --vmcore x --vmlinux ""
expect "missing --cgroup value" 2 "option --cgroup needs a value" "${fx[@]}" -a --cgroup
expect "missing --proc-root value" 2 "option --proc-root needs a value" -a --proc-root
expect "missing --vmlinux value" 2 "option --vmlinux needs a value" -a --vmcore x --vmlinux
expect "missing -o value" 2 "option -o needs a value" "${fx[@]}" -a -o

finish

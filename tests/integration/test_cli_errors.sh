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
# a background run that is not refused ends after one sample
export KSTACK_TEST_DURATION_MS=0

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

# --- --cgroup that names nothing, a host without cgroup v2 -----------------
# A fixture tree whose self/cgroup has only v1 lines: nothing could match.
cp -r "$tmp/proc" "$tmp/v1"
printf '2:cpu,cpuacct:/user.slice\n1:name=systemd:/user.slice\n' >"$tmp/v1/self/cgroup"
expect "cgroup v1 only" 2 "--cgroup needs cgroup v2: $tmp/v1/self/cgroup has no \"0::\" line" \
	--proc-root "$tmp/v1" -a --cgroup /user.slice
# With a v2 line, a fixture (not a procfs) is not checked against this host.
printf '0::/user.slice\n' >"$tmp/v1/self/cgroup"
rc=0
"$kstack" --proc-root "$tmp/v1" -a --cgroup /system.slice/app.service >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -q 'Cmd: cp big' "$tmp/out"; then
	pass "cgroup on a fixture with a v2 line: not checked against this host"
else
	fail "cgroup on a fixture with a v2 line: exit $rc"; cat "$tmp/out"
fi
if grep -q '^0::' /proc/self/cgroup && grep -q ' - cgroup2 ' /proc/self/mountinfo; then
	expect "cgroup that does not exist" 2 "--cgroup /no-such-cgroup-$$: no such cgroup (" \
		-a --cgroup "/no-such-cgroup-$$"
	# and background mode says so before creating its directory
	expect "-b with a cgroup that does not exist" 2 "ERROR - --cgroup /no-such-cgroup-$$: no such cgroup" \
		--foreground -a --cgroup "/no-such-cgroup-$$" -d "$tmp/bg"
	if [ ! -e "$tmp/bg" ]; then pass "-b: no directory made"; else fail "-b made $tmp/bg"; fi
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	rc=0
	"$kstack" -p $$ --cgroup "$own" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 0 ] && grep -q "^PID: *$$ " "$tmp/out"; then
		pass "our own cgroup $own selects us"
	else
		fail "our own cgroup $own: exit $rc"; cat "$tmp/err"
	fi
else
	echo "SKIP: no cgroup v2 mounted here: the existence check is not tested"
fi

finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The live tool on a /proc-like tree holding what a live system cannot make
# on demand (see tests/fixtures/make-proc-tree.sh), compared byte for byte
# with the expected output; the header's clock line is masked.
#
# KSTACK_UPDATE_EXPECTED=1 rewrites the expected files (review the diff!).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
expected=$top/tests/fixtures/proc-expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"
export TZ=UTC

cases=(
	"all|-a"
	"threads|-a -H"
	"d-and-z|-D -Z"
	"pids-in-order|-p 16,11,1,11"
	"cgroup|-a -H --cgroup /system.slice/app.service"
	"cgroup-root|-a --cgroup /"
	"summary|-a -c"
	"json|-a --json"
	"folded|-a -H --folded"
)
passed=0
failed=0

mask() {
	sed '1s/^zzz <.*/zzz <DATE - HOST/
	     1s/^{"schema":\([0-9]*\),"version":"[^"]*","time":[0-9]*,"host":"[^"]*"/{"schema":\1,"version":V,"time":T,"host":H/'
}

check() {
	local name=$1 args=$2 rc=0
	# shellcheck disable=SC2086
	"$kstack" --proc-root "$tmp/proc" $args >"$tmp/out" 2>"$tmp/err" || rc=$?
	mask <"$tmp/out" >"$tmp/$name.out"
	if [ "${KSTACK_UPDATE_EXPECTED:-}" = 1 ]; then
		cp "$tmp/$name.out" "$expected/$name.out"
	fi
	if [ "$rc" -eq 0 ] && cmp -s "$tmp/$name.out" "$expected/$name.out"; then
		passed=$((passed + 1))
		return
	fi
	echo "FAIL: $name ($args): exit $rc"
	diff -u "$expected/$name.out" "$tmp/$name.out" | head -40 || true
	cat "$tmp/err"
	failed=$((failed + 1))
}

# expect_fail NAME STATUS STDERR-PATTERN ARGS
expect_fail() {
	local name=$1 want=$2 pattern=$3 args=$4 rc=0
	# shellcheck disable=SC2086
	"$kstack" --proc-root "$tmp/proc" $args >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" "$tmp/err"; then
		passed=$((passed + 1))
		return
	fi
	echo "FAIL: $name ($args): exit $rc, want $want and /$pattern/ on stderr:"
	cat "$tmp/err"
	failed=$((failed + 1))
}

for c in "${cases[@]}"; do
	check "${c%%|*}" "${c#*|}"
done

# The unreadable stack (16) is reported once, the vanished PID (15) not at all.
"$kstack" --proc-root "$tmp/proc" -a >/dev/null 2>"$tmp/err"
if [ "$(grep -c '16/stack: Is a directory' "$tmp/err")" = 1 ] &&
	! grep -q '15' "$tmp/err"; then
	passed=$((passed + 1))
else
	echo "FAIL: error reporting:"; cat "$tmp/err"
	failed=$((failed + 1))
fi

expect_fail missing-pid 1 "PID 99 does not exist" "-p 2,99"
expect_fail nothing-matched 1 "no task matched" "-T"
expect_fail no-selection 2 "at least one of" "-H"
expect_fail bad-pid 2 "invalid PID" "-p 1,x"
expect_fail bad-root 4 "cannot read $tmp/nonexistent: No such file" "-a --proc-root $tmp/nonexistent"

# A tree without stat, or whose stat has no btime (a capture of the PID
# directories alone, as the pipeline's live/proc is): the stacks print,
# "Start Time: ?", said once, exit 0 (#40 item 14).
# no_btime NAME STDERR-LINE
no_btime() {
	local name=$1 line=$2 rc=0
	"$kstack" --proc-root "$tmp/nobt" -p 10,11 >"$tmp/nobt.out" 2>"$tmp/nobt.err" || rc=$?
	if [ "$rc" = 0 ] && [ "$(grep -c '^PID: .*Start Time: ?   Cmd' "$tmp/nobt.out")" = 2 ] &&
		[ "$(cat "$tmp/nobt.err")" = "kstack: $line" ]; then
		passed=$((passed + 1))
	else
		echo "FAIL: $name: exit $rc, want 0, 2 'Start Time: ?' and '$line':"
		cat "$tmp/nobt.out" "$tmp/nobt.err"
		failed=$((failed + 1))
	fi
}
cp -r "$tmp/proc" "$tmp/nobt"
rm "$tmp/nobt/stat"
no_btime no-stat "cannot read $tmp/nobt/stat: No such file or directory: start times are unknown"
printf 'cpu 1\n' >"$tmp/nobt/stat"
no_btime no-btime "$tmp/nobt/stat has no btime line: start times are unknown"

# Start times that do not fit in 64 bits (a btime near the limit, ticks
# beyond what strtoull takes, negative ticks) print "?" and null, with a
# note, instead of wrapping (UBSan stops the sanitizer build on overflow).
cp -r "$tmp/proc" "$tmp/big"
printf 'cpu  1 2 3 4\nbtime 9223372036854775807\n' >"$tmp/big/stat"
sed -i 's/ 5000 1000 10$/ 99999999999999999999 1000 10/' "$tmp/big/14/stat"
sed -i 's/ 4100 1000 10$/ -1 1000 10/' "$tmp/big/13/stat"
rc=0
"$kstack" --proc-root "$tmp/big" -p 10,13,14 >"$tmp/big.out" 2>"$tmp/big.err" || rc=$?
"$kstack" --proc-root "$tmp/big" -p 10 --json >"$tmp/big.json" 2>/dev/null || rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c 'Start Time: ?   Cmd' "$tmp/big.out")" = 3 ] &&
	grep -q '"start_time":null,' "$tmp/big.json" &&
	grep -q '"note":"start time out of range"' "$tmp/big.json" &&
	grep -q '3 read errors, first: 10/stat: start time out of range' "$tmp/big.err"; then
	passed=$((passed + 1))
else
	echo "FAIL: start time overflow: exit $rc"; cat "$tmp/big.out" "$tmp/big.json" "$tmp/big.err"
	failed=$((failed + 1))
fi

# -o replaces the file whole and leaves no temporary file behind
echo old >"$tmp/o.txt"
"$kstack" --proc-root "$tmp/proc" -Z -o "$tmp/o.txt"
if grep -q 'Cmd: zom\\tbie' "$tmp/o.txt" && ! grep -q old "$tmp/o.txt" &&
	[ "$(ls "$tmp" | grep -c '^o\.txt')" = 1 ]; then
	passed=$((passed + 1))
else
	echo "FAIL: -o"; ls "$tmp"; cat "$tmp/o.txt"
	failed=$((failed + 1))
fi

echo "proc fixtures: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

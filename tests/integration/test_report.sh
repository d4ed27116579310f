#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack report (#24) on the logs of real background runs: a child kept
# in D (a vfork parent, tests/integration/helpers/state_children.c) for
# two runs with a pause between them, the logs rotated every few samples
# and the newest archive cut in half.  The report must name that child as
# stuck with the first-seen, last-seen and duration the headers say, mark
# the pause as a gap, name the cut archive and exit 4 for it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/state_children.sh
. "$top/tests/lib/state_children.sh"
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

if [ "$(id -u)" != 0 ] || ! cat /proc/self/stack >/dev/null 2>&1; then
	echo "SKIP: background runs need root (/proc/PID/stack)"
	finish
fi
tmp=$(mktemp -d)
cleanup() {
	stop_state_children
	rm -rf "$tmp"
}
trap cleanup EXIT
export TZ=UTC
name="kstack_$(uname -n | tr / _).out"

start_state_children "$tmp" || { fail "children did not start"; finish; }
dpid=$(pid_of D)
for _ in $(seq 50); do
	[ "$(sed 's/.*) //' "/proc/$dpid/stat" | cut -d' ' -f1)" = D ] && break
	sleep 0.1
done

# run 1 in the foreground, a pause, run 2 detached; -D keeps samples small,
# 1500 bytes rotate every few samples, -n 100 keeps every archive
d=$tmp/logs
export KSTACK_TEST_INTERVAL_MS=200 KSTACK_TEST_MAX_BYTES=1500
KSTACK_TEST_DURATION_MS=1500 timeout 30 "$kstack" --foreground -D -n 100 -d "$d" 2>/dev/null
sleep 4
KSTACK_TEST_DURATION_MS=3000 timeout 30 "$kstack" -b -D -n 100 -d "$d" >/dev/null 2>&1
for _ in $(seq 150); do
	grep -q "INFO - Finished" "$d/kstack.log" 2>/dev/null && break
	sleep 0.1
done
check_done() { grep -q "INFO - Finished" "$d/kstack.log"; }
if check_done; then pass "the detached run finished"; else fail "the detached run finished"; fi
# oldest first: each archive is made after the one before
mapfile -t gz < <(cd "$d" && ls -tr "$name"-*.gz)
if [ "${#gz[@]}" -ge 3 ]; then pass "rotated: ${#gz[@]} archives"; else fail "rotated: ${#gz[@]} archives"; fi

# what the headers say, before anything is cut: every sample has the child
{ for f in "${gz[@]}"; do gzip -dc "$d/$f"; done; cat "$d/$name"; } >"$tmp/all.txt"
when() { date -u -d "$(echo "$1" | sed 's/^zzz <\(.*\) - .*/\1/')" '+%Y-%m-%d %H:%M:%S'; }
epoch() { date -u -d "$1" +%s; }
first=$(when "$(grep -m1 '^zzz <' "$tmp/all.txt")")
last=$(when "$(grep '^zzz <' "$tmp/all.txt" | tail -1)")
secs=$(( $(epoch "$last") - $(epoch "$first") ))
in_all=$(grep -c "^PID: *$dpid   State:  D" "$tmp/all.txt")
total=$(grep -c '^zzz <' "$tmp/all.txt")
if [ "$in_all" = "$total" ]; then pass "the child is in all $total samples"; else fail "the child is in $in_all of $total samples"; fi

# the newest archive cut in half: read as far as it goes, the cut named
newest=${gz[${#gz[@]} - 1]}
size=$(stat -c %s "$d/$newest")
truncate -s $((size / 2)) "$d/$newest"

rc=0
"$kstack" report "$d" >"$tmp/report.txt" 2>"$tmp/report.err" || rc=$?
if [ "$rc" = 4 ]; then pass "report: exit 4 for the cut archive"; else fail "report: exit $rc, want 4"; fi
if grep -q "kstack: report: $newest: truncated" "$tmp/report.err"; then pass "report: the cut is named"; else
	fail "report: the cut is named: $(cat "$tmp/report.err")"; fi
dur=$({ "$kstack" report --json "$d" 2>/dev/null || true; } | awk -v p="$dpid" -F'"seconds":' '/"type":"stuck"/ && $0 ~ "\"pid\":" p "," { split($2, a, ","); print a[1] }')
want=$(printf 'PID: %5d   State: D   for [0-9a-z]* ([0-9]* samples)   first seen %s   last seen %s   Cmd: ' "$dpid" "$first" "$last")
got=$(grep "^PID: *$dpid   State: D   for" "$tmp/report.txt")
if echo "$got" | grep -q "^$want"; then pass "stuck: $got"; else fail "stuck: got '$got', want '$want'"; fi
if [ "$dur" = "$secs" ]; then pass "stuck: ${secs}s in JSON"; else fail "stuck: JSON seconds '$dur', want $secs"; fi
# D first, longest first: every task listed before the child is in D and
# stuck at least as long (the host may have a D task of its own, or
# another run's, stuck longer)
order=$(python3 - "$tmp/report.txt" "$dpid" <<'PY'
import re
import sys


def seconds(t):
    return sum(int(n) * {'d': 86400, 'h': 3600, 'm': 60, 's': 1}[u]
               for n, u in re.findall(r'(\d+)([dhms])', t))


rows, inside = [], False
for line in open(sys.argv[1]):
    if line.startswith('== '):
        inside = line.startswith('== stuck')
        continue
    m = re.match(r'^PID: *(\d+)   State: (\S)   for (\S+) ', line)
    if inside and m:
        rows.append((m.group(1), m.group(2), seconds(m.group(3))))
child = [i for i, r in enumerate(rows) if r[0] == sys.argv[2]]
if not child:
    print('the child is not listed')
else:
    mine = rows[child[0]]
    before = [r for r in rows[:child[0]] if r[1] != 'D' or r[2] < mine[2]]
    print('ok %d' % child[0] if not before else 'listed after %s' % (before[0],))
PY
)
if [ "${order%% *}" = ok ]; then pass "stuck: the child comes first but for D tasks stuck longer (${order#ok } before it)"; else
	fail "stuck: $order"; fi
if grep -q "^-- no samples for [0-9]*s: kstack was not running --$" "$tmp/report.txt"; then pass "timeline: the pause is a gap"; else
	fail "timeline: no gap line"; fi
n=$(sed -n '/^== timeline/,/^== /p' "$tmp/report.txt" | grep -c '^20[0-9-]* [0-9:]*   tasks')
if [ "$n" -ge $((total / 2)) ] && [ "$n" -lt "$total" ]; then pass "timeline: $n of $total samples (the cut ones missing)"; else
	fail "timeline: $n samples of $total"; fi
"$kstack" report --json "$d" 2>/dev/null >"$tmp/report.json"
if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/report.json" 2>/dev/null; then
	pass "json: every line parses"; else fail "json: a line does not parse"; fi
if grep -q "^{\"type\":\"cut\",\"file\":\"$newest\"" "$tmp/report.json"; then pass "json: the cut record"; else fail "json: no cut record"; fi
"$kstack" report --pid "$dpid" "$d" >"$tmp/pid.txt" 2>/dev/null
n=$(grep -c "PID: *$dpid   State: D" "$tmp/pid.txt")
if [ "$n" = 1 ]; then pass "--pid: one stack, never changed"; else fail "--pid: $n changes"; fi
"$kstack" report --folded "$d" >"$tmp/folded.txt" 2>/dev/null
if grep -q '^children;.*;kernel_clone [0-9]*$' "$tmp/folded.txt"; then pass "--folded: the child's stack"; else
	fail "--folded: no children line"; fi
"$kstack" --report "$d" --since "$last" >"$tmp/since.txt" 2>/dev/null
n=$(grep -c '^20[0-9-]* [0-9:]*   tasks' "$tmp/since.txt")
# the report's own timeline, not the live file alone: a rotation within
# the last second puts some of its samples in the newest (cut) archive
want=$(sed -n '/^== timeline/,/^== /p' "$tmp/report.txt" | grep -c "^$last   tasks")
if [ "$n" = "$want" ]; then pass "--since: $n sample(s) of the last second"; else fail "--since: $n, want $want"; fi
# a cut that ends right after a header: that sample is not whole, so the
# task is not taken for gone (a gzip without its 8-byte trailer)
mkdir "$tmp/cut"
printf 'zzz <Tue Nov 24 10:00:00 UTC 2026 - h\n\nPID:  4242   State:  D   Start Time: 2026/11/24 09:00:00   Cmd: x\nStack:\n[<0>] f+0x1/0x2\n\nzzz <Tue Nov 24 10:00:10 UTC 2026 - h\n\n' |
	gzip -c | head -c -8 >"$tmp/cut/kstack_h.out-1.gz"
"$kstack" report --pid 4242 "$tmp/cut" >"$tmp/cut.txt" 2>/dev/null
if ! grep -q "not in the sample" "$tmp/cut.txt"; then pass "a cut sample is left out"; else
	fail "a cut sample is left out: $(cat "$tmp/cut.txt")"; fi
# the files in the rotation's order, as rotate.h names them: (EPOCH, SEQ)
# as numbers, then .pending, then the live log; a .gz.tmp is no sample
mkdir "$tmp/order"
one() { printf 'zzz <Tue Nov 24 10:00:%s UTC 2026 - h\n\nPID:  4242   State:  D   Start Time: 2026/11/24 09:00:00   Cmd: x\nStack:\n[<0>] f+0x1/0x2\n\n' "$1"; }
one 09 | gzip -c >"$tmp/order/kstack_h.out-9.gz"
one 20 | gzip -c >"$tmp/order/kstack_h.out-20.gz"
one 21 | gzip -c >"$tmp/order/kstack_h.out-20-1.gz"
one 30 >"$tmp/order/kstack_h.out-30.pending"
one 40 | gzip -c >"$tmp/order/kstack_h.out-40.gz.tmp"
one 50 >"$tmp/order/kstack_h.out"
touch -d '2026-11-24 12:00' "$tmp/order/kstack_h.out-9.gz"
got=$("$kstack" report "$tmp/order" 2>/dev/null | sed -n 's/^2026-11-24 10:00:\([0-9]*\)   tasks.*/\1/p' | tr '\n' ' ')
if [ "$got" = "09 20 21 30 50 " ]; then pass "files in the rotation's order: $got"; else
	fail "files in the rotation's order: got '$got', want '09 20 21 30 50 '"; fi
# options after the directory, as everywhere else (#37): the same report
# as with them before it, where "--pid" was once taken for a second DIR
before=$("$kstack" report --pid 4242 --top 1 "$tmp/order" 2>&1)
rc=0
after=$("$kstack" report "$tmp/order" --pid 4242 --top 1 2>&1) || rc=$?
if [ "$rc" = 0 ] && [ -n "$after" ] && [ "$after" = "$before" ]; then
	pass "options after DIR: the report of options before it"; else
	fail "options after DIR: exit $rc, got '$after', want '$before'"; fi
rc=0
"$kstack" report "$tmp/order" --pid 4242 extra >/dev/null 2>"$tmp/extra.err" || rc=$?
if [ "$rc" = 2 ] && grep -q "^kstack: report: one directory or file, got 'extra'$" "$tmp/extra.err"; then
	pass "a second DIR after an option: exit 2, named"; else
	fail "a second DIR after an option: exit $rc, $(head -1 "$tmp/extra.err")"; fi
rc=0
"$kstack" report "$tmp/none" >/dev/null 2>&1 || rc=$?
if [ "$rc" = 4 ]; then pass "a missing directory: exit 4"; else fail "a missing directory: exit $rc"; fi
rc=0
"$kstack" report --pid x "$d" >/dev/null 2>&1 || rc=$?
if [ "$rc" = 2 ]; then pass "a bad --pid: exit 2"; else fail "a bad --pid: exit $rc"; fi
finish

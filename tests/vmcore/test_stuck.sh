#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Who is stuck, and since when (#39 items 1 and 4), against what the
# guest said of itself, from the dump with its vmlinux and alone:
#   - -D -c's stack lines are -D -c --waits' (the same times), and -c's
#     without -D name no time: oled's text;
#   - the triage's stack lines are -D -c's, in the triage's order;
#   - where the console says "INFO: task COMM:PID blocked for more than
#     N seconds" (the hung scenario: khungtaskd panics on it), that
#     task's blocked_ns (last_switch_time) is at least N s and less than
#     2N + 1 s (khungtaskd looks every N s, and the panic follows its
#     report), no more than its last_ran_ns and a jiffy, and -D -c's
#     line names it;
#   - the kslock scenario (vmcores/scenarios/locks.sh): the root blocker
#     is ksl_chain_c, which holds the rwsem ksl_chain_b waits for, at the
#     end of the chain of three, asleep in S in chain_c(), in the text
#     and in --json.
# KSTACK_VMCORE_DIR picks the dump (default cache/vmcores/hung).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/hung}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	skip "no vmcore in $dir (make vmcore-hung): the time in D not tested"
	finish
fi
if "$kstack" --vmcore /dev/null -a 2>&1 | grep -q 'built without libkdumpfile'; then
	skip "this kstack has no --vmcore (built without libkdumpfile)"
	finish
fi
console=$dir/console.log

# the "N task(s)   States: ..." lines of a -c text or a triage, sorted
stack_lines() { grep -E '^[0-9]+ tasks?   States: ' "$1" | sort; }

# hung RUN: the console's hung task against --json's times
hung() {
	local run=$1 line pid secs
	line=$(grep -a -m 1 -E 'INFO: task .*:[0-9]+ blocked for more than [0-9]+ seconds' "$console")
	if [ -z "$line" ]; then
		not_applicable "$run: no hung-task report on the console"
		return
	fi
	pid=$(sed -E 's/.*INFO: task .*:([0-9]+) blocked.*/\1/' <<<"$line")
	secs=$(sed -E 's/.*more than ([0-9]+) seconds.*/\1/' <<<"$line")
	python3 - "$tmp/$run.json" "$pid" "$secs" "$run" <<'PY'
import json, sys
doc, pid, secs, run = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
t = [t for g in doc['stuck']['groups'] for t in g['tasks'] if t['pid'] == pid]
if not t or 'blocked_ns' not in t[0]:
    print('FAIL: %s: PID %d, hung on the console, has no blocked_ns in the triage' % (run, pid))
    sys.exit()
b, r = t[0]['blocked_ns'], t[0].get('last_ran_ns')
ok = secs * 10**9 <= b < (2 * secs + 1) * 10**9
print('%s: %s: PID %d blocked %.3f s by last_switch_time: at least the console\'s %d s, less than %d' %
      ('PASS' if ok else 'FAIL', run, pid, b / 1e9, secs, 2 * secs + 1))
# a jiffy: 10 ms at HZ 100
ok = r is None or b <= r + 10**7
print('%s: %s: blocked %.3f s, last ran %s s ago' %
      ('PASS' if ok else 'FAIL', run, b / 1e9, '?' if r is None else '%.3f' % (r / 1e9)))
PY
	if grep -qE "blocked [0-9]+\.[0-9]{3}s \($pid, last_switch_time\)" "$tmp/$run.dc"; then
		pass "$run: -D -c names the time blocked by last_switch_time"
	else
		fail "$run: -D -c has no 'blocked ... ($pid, last_switch_time)': $(grep -m1 States "$tmp/$run.dc")"
	fi
}

# locks RUN: the root blocker is the holder of the chain of three
locks() {
	local run=$1 b c
	if ! grep -aq 'kslock: ready' "$console"; then
		not_applicable "$run: not the kslock scenario: its root blocker not checked"
		return
	fi
	python3 - "$tmp/$run.json" "$tmp/$run.all" "$run" <<'PY'
import json, sys
doc, run = json.load(open(sys.argv[1])), sys.argv[3]
pids = {}
for line in open(sys.argv[2]):
    for g in json.loads(line)['groups']:
        for t in g['tasks']:
            pids[t['comm']] = t
r = doc.get('root_blocker')
c = pids.get('ksl_chain_c')
ok = (r is not None and c is not None and r.get('holder') is True and
      r.get('pid') == c['pid'] and r.get('comm') == 'ksl_chain_c' and
      r.get('state') == c['state'] and r.get('deadlock') is None and
      r.get('tasks') == 3 and any('chain_c' in f for f in r.get('frames', [])))
print('%s: %s: the root blocker is ksl_chain_c (%s), holder of the chain of three, in chain_c(): %s' %
      ('PASS' if ok else 'FAIL', run, c and c['pid'], r))
PY
	b=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    for g in json.loads(l)["groups"]:
        for t in g["tasks"]:
            if t["comm"] in ("ksl_chain_b", "ksl_chain_c"): print(t["comm"], t["pid"])' "$tmp/$run.all")
	c=$(sed -n 's/^ksl_chain_c //p' <<<"$b")
	b=$(sed -n 's/^ksl_chain_b //p' <<<"$b")
	if grep -q "^Root blocker (the end of the longest chain of waits, 3 tasks): chain [0-9]*'s holder:$" "$tmp/$run.txt" &&
	   grep -q "^$c ksl_chain_c S, holds what $b waits for$" "$tmp/$run.txt"; then
		pass "$run: the text names ksl_chain_c ($c) the root blocker, holding what $b waits for"
	else
		fail "$run: the text's root blocker: $(grep -A1 '^Root blocker' "$tmp/$run.txt" | tr '\n' '|')"
	fi
}

for run in with alone; do
	src=(--vmcore "$dir/vmcore")
	[ "$run" = with ] && src+=(--vmlinux "$dir/vmlinux")
	"$kstack" triage "${src[@]}" >"$tmp/$run.txt" 2>"$tmp/$run.err"
	if [ "$run" = alone ] && text_only_kallsyms "$tmp/$run.err"; then
		not_applicable "the dump alone: its kallsyms lists text symbols only"
		continue
	fi
	"$kstack" triage "${src[@]}" --json >"$tmp/$run.json" 2>/dev/null
	"$kstack" "${src[@]}" -D -c >"$tmp/$run.dc" 2>/dev/null
	"$kstack" "${src[@]}" -D -c --waits >"$tmp/$run.dcw" 2>/dev/null
	"$kstack" "${src[@]}" -a -H -c >"$tmp/$run.c" 2>/dev/null
	"$kstack" "${src[@]}" -a -H --json >"$tmp/$run.all" 2>/dev/null
	if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/$run.json" 2>/dev/null; then
		fail "$run: kstack triage --json is no JSON document"
		continue
	fi
	if cmp -s <(sed '/^== waits$/,$d' "$tmp/$run.dcw") "$tmp/$run.dc"; then
		pass "$run: -D -c is -D -c --waits without its == waits section"
	else
		fail "$run: -D -c's stacks differ from -D -c --waits':"
		diff <(sed '/^== waits$/,$d' "$tmp/$run.dcw") "$tmp/$run.dc" | head -4
	fi
	if grep -qE '^[0-9]+ tasks?   States: .*(oldest|blocked) ' "$tmp/$run.c"; then
		fail "$run: -c without -D names a time: $(grep -m1 -E 'oldest|blocked' "$tmp/$run.c")"
	else
		pass "$run: -c without -D names no time (oled's text)"
	fi
	if cmp -s <(stack_lines "$tmp/$run.dc") <(sed -n '/^# Who is stuck$/,/^# /p' "$tmp/$run.txt" |
						 stack_lines /dev/stdin); then
		pass "$run: the triage's stacks in D have -D -c's lines ($(stack_lines "$tmp/$run.dc" | wc -l))"
	else
		fail "$run: the triage's stacks in D differ from -D -c's"
	fi
	hung "$run"
	locks "$run"
done
finish

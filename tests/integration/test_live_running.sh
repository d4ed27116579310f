#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A task on a CPU: the kernel prints no frame for it (task_on_another_cpu()
# in the unwinder), so its stack is empty, and that must never be silent.
# Busy children on the real /proc are sampled until some are caught on a
# CPU: each then carries the note "on a CPU" in --json (with on_cpu true)
# and in the -v text, while the default text stays oled's.  -v and --json
# also carry the CPU of every task, /proc/PID/stat's processor.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

if ! cat /proc/self/stack >/dev/null 2>&1; then
	echo "SKIP: /proc/PID/stack is not readable here (needs root)"
	echo "live running: 0 passed, 0 failed"
	exit 0
fi

# a busy child per CPU: on a loaded host some are on a CPU now and then
n=$(nproc)
for _ in $(seq "$n"); do
	sh -c 'while :; do :; done' &
	pids+=("$!")
done
list=$(IFS=,; echo "${pids[*]}")

# --json: every R task with no frame has on_cpu and the note; every task a CPU
caught=0
for _ in $(seq 100); do
	"$kstack" -p "$list" --json >"$tmp/json" 2>"$tmp/err" || true
	verdict=$(python3 - "$tmp/json" <<'PY'
import json, sys
s = json.loads(open(sys.argv[1]).read())
caught, problems = 0, []
for g in s['groups']:
    for t in g['tasks']:
        if not isinstance(t.get('cpu'), int) or t['cpu'] < 0:
            problems.append('PID %d: no cpu' % t['pid'])
        if 'task_struct' in t:
            problems.append('PID %d: a task_struct live' % t['pid'])
        if t['state'] == 'R' and not g['stack']:
            caught += 1
            if t.get('note') != 'on a CPU' or t.get('on_cpu') is not True:
                problems.append('PID %d: R with no frame, note %r, on_cpu %r'
                                % (t['pid'], t.get('note'), t.get('on_cpu')))
        elif t.get('on_cpu') is not False:
            problems.append('PID %d: on_cpu %r with a stack' % (t['pid'], t.get('on_cpu')))
print(caught, '; '.join(problems))
PY
)
	case $verdict in
	"0 ") continue ;;
	*" ") caught=1; break ;;
	*) caught=2; break ;;
	esac
done
case $caught in
0) bad "--json: no busy child caught on a CPU in 100 samples" ;;
1) ok ;;
*) bad "--json: $verdict"; head -c 600 "$tmp/json"; echo ;;
esac

# -v text: "Note: on a CPU" under the task line of an empty R stack
caught=0
for _ in $(seq 100); do
	"$kstack" -p "$list" -v >"$tmp/text" 2>"$tmp/err" || true
	# a task line of R, then Note, then Stack: and an empty line
	if awk '/^PID: .* State:  R .*CPU: [0-9]+ \(on CPU\)   Cmd: / { r = NR }
		/^Note: on a CPU$/ && r == NR - 1 { n = NR }
		/^Stack:$/ && n == NR - 1 { s = NR }
		/^$/ && s && s == NR - 1 { found = 1 }
		END { exit !found }' "$tmp/text"; then
		caught=1
		break
	fi
	# an empty stack of R that says nothing is the bug itself
	if awk '/^PID: .* State:  R / { r = NR } /^Stack:$/ && r == NR - 1 { s = NR }
		/^$/ && s && s == NR - 1 { bad = 1 } END { exit !bad }' "$tmp/text"; then
		caught=2
		break
	fi
done
case $caught in
0) bad "-v: no busy child caught on a CPU in 100 samples" ;;
1) ok ;;
*) bad "-v: an empty stack of R without its note:"; cat "$tmp/text" ;;
esac

# every task line of -v names its CPU
if grep '^PID:' "$tmp/text" | grep -qv '   CPU: [0-9]'; then
	bad "-v: a task line without its CPU"; grep '^PID:' "$tmp/text"
else
	ok
fi

# without -v: oled's text, no note, no CPU
"$kstack" -p "$list" >"$tmp/plain" 2>/dev/null || true
if grep -q '^Note: \|   CPU: ' "$tmp/plain"; then
	bad "the default text changed:"; cat "$tmp/plain"
elif grep -q '^PID: .*   Start Time: .*   Cmd: sh -c' "$tmp/plain"; then
	ok
else
	bad "the default text lacks the children:"; cat "$tmp/plain"
fi

echo "live running: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The time since each task last ran (--json's last_ran_ns) against crash's
# own `ps -m` on the same dump, task by task (matched by task_struct
# address): kstack --vmcore with the vmlinux, from the dump alone, and the
# kstack command inside crash must each give every task crash lists the
# same "D HH:MM:SS.mmm" crash prints.  Every task of the JSON must carry
# the key (the kernels made here have CONFIG_SCHED_INFO).  Where crash
# cannot open the dump, the comparison with ps -m is not applicable and
# the two --vmcore runs must still agree.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
so=${KSTACK_SO:-$top/build/kstack.so}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	skip "no vmcore in $dir (make vmcore)"
	finish
fi
[ -x "$kstack" ] || { fail "no $kstack (make)"; finish; }
[ -s "$so" ] || { fail "no crash extension at $so"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# task_struct address -> crash's "D HH:MM:SS.mmm" of last_ran_ns
# (translate_nanoseconds() in crash's task.c)
json_times() {
	python3 - "$1" <<'PY'
import json, sys
s = json.loads(open(sys.argv[1]).readline())
for g in s['groups']:
    for t in g['tasks']:
        if 'last_ran_ns' not in t:
            print('%s missing' % t['task_struct'])
            continue
        v = t['last_ran_ns'] // 1000000
        ms, v = v % 1000, v // 1000
        secs, v = v % 60, v // 60
        mins, v = v % 60, v // 60
        print('%s %d %02d:%02d:%02d.%03d' % (t['task_struct'], v // 24, v % 24,
                                             mins, secs, ms))
PY
}

TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -a -H --json \
	>"$tmp/with.json" 2>"$tmp/with.err"
TZ=UTC "$kstack" --vmcore "$dir/vmcore" -a -H --json >"$tmp/alone.json" 2>"$tmp/alone.err"
label() { case $1 in with) echo "--vmcore with the vmlinux" ;; alone) echo "--vmcore, the dump alone" ;; *) echo "kstack in crash" ;; esac; }
runs="with alone"
if text_only_kallsyms "$tmp/alone.err"; then
	not_applicable "$(label alone): $(grep -m1 'text symbols only' "$tmp/alone.err")"
	runs=with
fi
for run in $runs; do
	if ! json_times "$tmp/$run.json" | sort >"$tmp/$run.times" 2>"$tmp/$run.py"; then
		fail "$(label "$run"): --json does not parse: $(head -c 300 "$tmp/$run.py")"
		finish
	fi
	n=$(grep -c ' missing$' "$tmp/$run.times")
	total=$(wc -l <"$tmp/$run.times")
	if [ "$total" -gt 0 ] && [ "$n" = 0 ]; then
		pass "$(label "$run"): last_ran_ns on all $total tasks"
	else
		fail "$(label "$run"): $n of $total tasks without last_ran_ns"
	fi
done
if [ "$runs" = with ]; then
	:
elif cmp -s "$tmp/with.times" "$tmp/alone.times"; then
	pass "the dump alone gives the same times as with the vmlinux"
else
	fail "the dump alone gives other times than with the vmlinux:" \
		"$(diff "$tmp/with.times" "$tmp/alone.times" | head -4)"
fi

# crash's own view: ps -m for the tasks its table holds (crash 8.0.2 lists
# only the active tasks of some 6.x dumps: "not found in PID hash"), and
# for every task kstack lists, what crash's gdb reads of the members:
# its last_arrival and CPU (task_struct.cpu before 5.16, thread_info.cpu
# after: one of the two fails) and each CPU's runqueue clock.
cut -d' ' -f1 "$tmp/with.times" >"$tmp/addrs"
{
	echo "extend $so"
	echo "ps -m >$tmp/psm.txt"
	echo "kstack -a -H --json >$tmp/crash.json"
	echo "p runqueues:a >$tmp/rq.txt"
	while read -r a; do
		echo "!echo $a >>$tmp/members.txt"
		echo "p ((struct task_struct *)0x$a)->sched_info.last_arrival >>$tmp/members.txt"
		echo "p ((struct task_struct *)0x$a)->cpu >>$tmp/members.txt"
		echo "p ((struct task_struct *)0x$a)->thread_info.cpu >>$tmp/members.txt"
	done <"$tmp/addrs"
	echo quit
} >"$tmp/cmds"
KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/out"
if sanitizer_report "$tmp/out"; then
	fail "a sanitizer report in crash with $so"
	finish
fi
if crash_refused "$tmp/out" "$dir"; then
	finish
fi
if [ ! -s "$tmp/psm.txt" ] || [ ! -s "$tmp/crash.json" ] || [ ! -s "$tmp/members.txt" ]; then
	fail "crash printed no ps -m, kstack --json or members: $(head -c 400 "$tmp/out")"
	finish
fi
# [D HH:MM:SS.mmm] [ST]  PID: N  TASK: ADDR  CPU: C  COMMAND: "comm"
sed -n 's/^\[\([0-9]* [0-9:.]*\)\] \[..\] *PID: *[0-9]* *TASK: \([0-9a-f]*\) .*/\2 \1/p' \
	"$tmp/psm.txt" | sort >"$tmp/psm.times"
# the same sum from crash's members: rq clock of the CPU - last_arrival
python3 - "$tmp/rq.txt" "$tmp/members.txt" <<'PY' | sort >"$tmp/gdb.times"
import re, sys
clock, cpu = {}, None
for line in open(sys.argv[1]):
    m = re.match(r'per_cpu\(runqueues, (\d+)\)', line)
    if m:
        cpu = int(m.group(1))
    m = re.match(r'  clock = (\d+),', line)
    if m and cpu is not None and cpu not in clock:
        clock[cpu] = int(m.group(1))
task, vals = None, []
def out():
    if task is None:
        return
    if len(vals) != 2 or vals[1] not in clock:
        print('%s unreadable' % task)
        return
    d = max(clock[vals[1]] - vals[0], 0) // 1000000
    ms, d = d % 1000, d // 1000
    s, d = d % 60, d // 60
    mi, d = d % 60, d // 60
    print('%s %d %02d:%02d:%02d.%03d' % (task, d // 24, d % 24, mi, s, ms))
for line in open(sys.argv[2]):
    if re.match(r'^[0-9a-f]{16}$', line.strip()):
        out()
        task, vals = line.strip(), []
        continue
    m = re.match(r'\$\d+ = (\d+)$', line.strip())
    if m:
        vals.append(int(m.group(1)))
out()
PY
json_times "$tmp/crash.json" | sort >"$tmp/crash.times"
n=$(grep -c ' unreadable$' "$tmp/gdb.times")
[ "$n" = 0 ] || fail "crash's gdb could not read $n tasks' members: $(grep -m1 unreadable "$tmp/gdb.times")"
for ref in psm gdb; do
	for run in $runs crash; do
		read -r same other < <(join "$tmp/$ref.times" "$tmp/$run.times" | awk '
			{ if ($2 " " $3 == $4 " " $5) s++; else { o++; if (!first) first = $0 } }
			END { print s + 0, o + 0; if (first) print first > "/dev/stderr" }' 2>"$tmp/first")
		what="crash's ps -m"
		[ "$ref" = gdb ] && what="crash's gdb (rq clock - last_arrival)"
		if [ "$same" -gt 0 ] && [ "$other" = 0 ]; then
			pass "$(label "$run"): all $same tasks $what lists have its time since last ran"
		else
			fail "$(label "$run"): $other of $((same + other)) tasks differ from $what," \
				"e.g. (task, crash, kstack): $(cat "$tmp/first")"
		fi
	done
done
finish

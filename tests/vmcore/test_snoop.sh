#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --snoop on a real kernel, from what vmcores/scenarios/snoop.sh
# left in the guest's capture (make vmcore-snoop): N calls of sync(2) by
# one known task show as N stacks for its PID with the syscall entry at
# the bottom, in the text, -c and --json forms; -p keeps other callers
# out; a run killed with SIGKILL leaves its kprobe and instance and the
# next run removes them; no kstack-* instance or kstack_* probe is left
# after the runs; the kernel's refusals exit 1 with its reason.  The
# trace_pipe text one run read is parsed here again, as the unit test's
# fixture is.
# KSTACK_SNOOP_DIR picks the folder (default cache/vmcores/snoop; a
# dump of another scenario is not applicable).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_SNOOP_DIR:-${KSTACK_VMCORE_DIR:-$top/cache/vmcores/snoop}}
live=$dir/live
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

scenario=$(sed -n 's/^scenario: //p' "$dir/manifest" 2>/dev/null)
if [ -n "$scenario" ] && [ "$scenario" != snoop ]; then
	not_applicable "the $scenario scenario runs no kstack --snoop"
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -s "$live/snoop-info.txt" ]; then
	echo "SKIP: no kstack --snoop capture in $dir"
	echo "0 passed, 0 failed"
	exit 0
fi
info() { sed -n "s/^$1: //p" "$live/snoop-info.txt"; }
perl=$(info perl_pid)
calls=$(info calls)
killed=$(info killed_pid)

# kstack's [<0>] records of one PID in the text form: how many, and how
# many end in the syscall entry.
read -r n entry < <(awk -v pid="$perl" '
	/^PID: / { mine = ($2 == pid); if (mine) n++; last = ""; next }
	/^\[<0>\] / { if (mine) last = $2; next }
	/^$/ { if (mine && last ~ /^entry_SYSCALL_64/) e++; mine = 0 }
	END { print n + 0, e + 0 }' "$live/snoop.txt")
if [ "$(info text_rc)" = 0 ] && [ "$n" -eq "$calls" ] && [ "$entry" -eq "$calls" ]; then
	pass "--snoop ksys_sync -t 5: $n stacks for perl ($perl), each with entry_SYSCALL_64 at the bottom"
else
	fail "--snoop text: rc $(info text_rc), $n stacks for $perl ($entry from the syscall entry), want $calls"
	head -20 "$live/snoop.txt" "$live/snoop.err"
fi
if [ "$(info raw_mode)" = 600 ]; then
	pass "KSTACK_SNOOP_RAW's copy of trace_pipe is mode 600"
else
	fail "KSTACK_SNOOP_RAW's copy of trace_pipe is mode '$(info raw_mode)', want 600"
fi
if grep -q '^\[<0>\] ksys_sync+0x[0-9a-f]*/0x[0-9a-f]*$' "$live/snoop.txt" &&
	awk '/^PID: / && $0 !~ /Comm: perl$/ { other = 1 } END { exit !other }' "$live/snoop.txt"; then
	pass "frames in /proc/PID/stack's form; the shell's own sync calls are there too"
else
	fail "no ksys_sync+0xOFF/0xSIZE frame, or no other caller"
fi

# -p PID -c: one stack, N calls, nobody else.
if [ "$(info count_rc)" = 0 ] &&
	grep -q "^ksys_sync: $calls calls in [0-9.]* s, 1 distinct stack$" "$live/snoop-c.txt" &&
	grep -q "^$calls calls   e.g. $perl (perl)$" "$live/snoop-c.txt" &&
	[ "$(grep '^\[<0>\]' "$live/snoop-c.txt" | tail -1 | cut -c1-22)" = "[<0>] entry_SYSCALL_64" ]; then
	pass "-p $perl -c: $calls calls of one stack, only perl"
else
	fail "-p -c: rc $(info count_rc)"
	cat "$live/snoop-c.txt" "$live/snoop-c.err"
fi

# -p PID --json: N objects, each perl's, the stack ending in the entry.
if [ "$(info json_rc)" = 0 ] &&
	python3 - "$live/snoop-json.txt" "$perl" "$calls" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
pid, calls = int(sys.argv[2]), int(sys.argv[3])
ok = len(recs) == calls and all(
    r['pid'] == pid and r['comm'] == 'perl' and r['function'] == 'ksys_sync'
    and r['stack'][-1].startswith('entry_SYSCALL_64')
    and r['stack'][0].startswith('ksys_sync+') and r['time'] > 1e9
    for r in recs)
sys.exit(0 if ok else 1)
PY
then
	pass "-p $perl --json: $calls objects, perl's, stack from ksys_sync to the syscall entry"
else
	fail "-p --json: rc $(info json_rc)"
	head -3 "$live/snoop-json.txt"
fi

# SIGKILL leaves the probe and the instance; the next run removes them.
if grep -qx "kstack-$killed" "$live/snoop-killed.txt" &&
	grep -q "^p:kstack/kstack_${killed}_0 ksys_sync" "$live/snoop-killed.txt"; then
	pass "kstack $killed killed with SIGKILL left instance kstack-$killed and kprobe kstack_${killed}_0"
else
	fail "the killed snoop left nothing to clean?"
	cat "$live/snoop-killed.txt"
fi
if grep -q "removed tracing instance kstack-$killed left by kstack $killed" "$live/snoop-term.err" &&
	grep -q "removed kprobe kstack/kstack_${killed}_0 left by kstack $killed" "$live/snoop-term.err"; then
	pass "the next run removed them"
else
	fail "the next run did not say it removed kstack $killed's leftovers"
	cat "$live/snoop-term.err"
fi
# SIGTERM: the run cleans up itself (no call came: exit 1).
if [ "$(info term_rc)" = 1 ] && grep -q 'no call of ksys_sync' "$live/snoop-term.err"; then
	pass "SIGTERM ends a run with its message, exit 1 (no call)"
else
	fail "SIGTERM: rc $(info term_rc)"
fi
clean=0
for f in snoop-term snoop-after snoop-final; do
	if awk '/^== instances/ { s = "i"; next } /^== kprobe_events/ { s = "k"; next }
		s == "i" && /^kstack-/ { bad = 1 } s == "k" && /kstack\/kstack_/ { bad = 1 }
		END { exit bad }' "$live/$f.txt"; then
		clean=$((clean + 1))
	else
		fail "$f.txt: a kstack instance or probe is left"
		cat "$live/$f.txt"
	fi
done
[ "$clean" -eq 3 ] && pass "no kstack-* instance or kstack_* probe left after SIGTERM, -t and refusals"

# What the kernel refuses: exit 1, error_log's reason, and ours.
if [ "$(info nofunc_rc)" = 1 ] &&
	grep -q 'error_log: Invalid probed address or symbol' "$live/snoop-nofunc.err" &&
	grep -q 'not in /proc/kallsyms' "$live/snoop-nofunc.err"; then
	pass "a function that does not exist: exit 1, error_log's reason"
else
	fail "no such function: rc $(info nofunc_rc)"
	cat "$live/snoop-nofunc.err"
fi
if [ "$(info notrace_rc)" = 1 ] && grep -q 'error_log: ' "$live/snoop-notrace.err"; then
	pass "notrace native_sched_clock: exit 1, $(grep -m1 'error_log: ' "$live/snoop-notrace.err" | sed 's/.*error_log: //')"
else
	fail "notrace function: rc $(info notrace_rc)"
	cat "$live/snoop-notrace.err"
fi

# The raw trace_pipe text has the calls in the form the parser reads.
raw=$(grep -c '<stack trace>' "$live/snoop-raw.txt" 2>/dev/null || echo 0)
recs=$(grep -c '^PID: ' "$live/snoop.txt")
if [ "$raw" -eq "$recs" ] && [ "$raw" -ge "$calls" ]; then
	pass "trace_pipe as read: $raw stack traces, $recs calls printed"
else
	fail "trace_pipe as read: $raw stack traces, $recs calls printed"
fi
finish

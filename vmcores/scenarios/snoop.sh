#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --snoop on a real kernel (tests/vmcore/test_snoop.sh reads what
# this leaves in the capture; the dump itself is not needed).
#  1. a snoop killed with SIGKILL leaves its kprobe and instance
#     (snoop-killed.txt lists them);
#  2. the next snoop removes them and, stopped with SIGTERM, its own
#     (snoop-term.err, snoop-term.txt);
#  3. a known task (perl, one process) calls sync() N times while three
#     snoops run at once, each in its own instance: -t 5 text (its
#     trace_pipe as read kept in snoop-raw.txt), -p PID -c, -p PID --json;
#     the shell calls sync twice more from other pids;
#  4. functions the kernel refuses: one that does not exist, a notrace one.
# After each step the tracing instances and kprobe_events are listed.
# Runs as busybox sh inside the guest; see vmcores/README.md.
#
#@ memory: 512
#@ host-binaries: /usr/bin/perl
#@ ready-timeout: 120
. "$SCENARIO_LIB"

out=/capture
tfs=/sys/kernel/tracing
calls=5
mkdir -p "$out"
info=$out/snoop-info.txt
: >"$info"

# Until kstack --snoop has said on stderr that it traces (20 s at most).
wait_tracing() {
	_n=200
	while [ "$_n" -gt 0 ]; do
		grep -q '^kstack: tracing ' "$1" 2>/dev/null && return 0
		usleep 100000
		_n=$((_n - 1))
	done
	echo "snoop.sh: no 'tracing' line in $1:"
	cat "$1"
	return 1
}

state() {
	echo "== instances"
	ls "$tfs/instances"
	echo "== kprobe_events"
	cat "$tfs/kprobe_events"
}

# 1. SIGKILL: nothing can clean up; the leftovers stay for the next run.
kstack --snoop ksys_sync >/dev/null 2>"$out/snoop-killed.err" &
killed=$!
wait_tracing "$out/snoop-killed.err" || scenario_fail "snoop (to kill) did not start"
kill -9 "$killed"
wait "$killed" 2>/dev/null
echo "killed_pid: $killed" >>"$info"
state >"$out/snoop-killed.txt"

# 2. The next run removes them; SIGTERM ends it cleanly.
kstack --snoop ksys_sync -t 60 >/dev/null 2>"$out/snoop-term.err" &
term=$!
wait_tracing "$out/snoop-term.err" || scenario_fail "snoop (to stop) did not start"
kill -TERM "$term"
wait "$term"
rc=$?
echo "term_pid: $term" >>"$info"
echo "term_rc: $rc" >>"$info"
state >"$out/snoop-term.txt"

# 3. One process, N calls of sync(2) (162 on x86_64), once /tmp/go exists.
rm -f /tmp/go
perl -e 'select(undef, undef, undef, 0.01) until -e "/tmp/go";
	syscall(162) for 1 .. $ARGV[0];' "$calls" &
perl=$!
wait_exec "$perl" perl || scenario_fail "perl did not start"
KSTACK_SNOOP_RAW=$out/snoop-raw.txt kstack --snoop ksys_sync -t 5 \
	>"$out/snoop.txt" 2>"$out/snoop.err" &
text=$!
kstack --snoop ksys_sync -t 5 -p "$perl" -c >"$out/snoop-c.txt" 2>"$out/snoop-c.err" &
count=$!
kstack --snoop ksys_sync -t 5 -p "$perl" --json >"$out/snoop-json.txt" \
	2>"$out/snoop-json.err" &
json=$!
for f in snoop snoop-c snoop-json; do
	wait_tracing "$out/$f.err" || scenario_fail "kstack --snoop ($f) did not start"
done
: >/tmp/go
wait "$perl"
sync
sync
wait "$text"
echo "text_rc: $?" >>"$info"
# what the kernel traced is root's alone: the copy is made 0600
echo "raw_mode: $(stat -c %a "$out/snoop-raw.txt" 2>/dev/null || echo none)" >>"$info"
wait "$count"
echo "count_rc: $?" >>"$info"
wait "$json"
echo "json_rc: $?" >>"$info"
{
	echo "perl_pid: $perl"
	echo "calls: $calls"
} >>"$info"
state >"$out/snoop-after.txt"

# 4. What the kernel refuses: exit 1 and its reason.
kstack --snoop no_such_function_kstack -t 1 >/dev/null 2>"$out/snoop-nofunc.err"
echo "nofunc_rc: $?" >>"$info"
kstack --snoop native_sched_clock -t 1 >/dev/null 2>"$out/snoop-notrace.err"
echo "notrace_rc: $?" >>"$info"
state >"$out/snoop-final.txt"
scenario_ready

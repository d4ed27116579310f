#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The traceall scenario: the function tracer on every function ftrace can
# patch, with no filter (about 60,000 records in enabled_functions on a
# Debian 6.1 kernel), for the -F half of make bench
# (tests/bench/ftrace_guest.sh): kstack --vmcore -F on the dump against the
# guest's own read of enabled_functions.
#
# tracing_on is 0 before the tracer is set: every function is patched
# and listed (the records do not change), but nothing is written to the
# ring buffer, so the TCG guest keeps its speed for the capture.
# The guest times its own reads, from /proc/uptime, into
# traceall-times.txt in the capture: cat of enabled_functions, and
# kstack -F when the static tool is there.
# Runs as busybox sh inside the guest; see vmcores/README.md.
#
#@ memory: 1024
#@ ready-timeout: 600
. "$SCENARIO_LIB"

out=/capture
times=$out/traceall-times.txt
mkdir -p "$out"

uptime_s() {
	read -r _up _ </proc/uptime
	echo "$_up"
}

seconds() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'
}

cd /sys/kernel/tracing || scenario_fail "no tracefs"
: >set_ftrace_filter
: >set_ftrace_notrace
# The ring buffer off first: while the tracer goes on, every function
# the kernel calls is traced, and under TCG writing each one to the
# buffer kept both vCPUs in soft lockups past the ready timeout.
echo 0 >tracing_on
t0=$(uptime_s)
echo function >current_tracer || scenario_fail "no function tracer"
t1=$(uptime_s)
echo "current_tracer_seconds: $(seconds "$t0" "$t1")" >"$times"

t0=$(uptime_s)
cat enabled_functions >/tmp/enabled_functions || scenario_fail "enabled_functions"
t1=$(uptime_s)
{
	echo "enabled_functions_lines: $(wc -l </tmp/enabled_functions)"
	echo "enabled_functions_seconds: $(seconds "$t0" "$t1")"
} >>"$times"
rm -f /tmp/enabled_functions

if [ -x /bin/kstack ]; then
	t0=$(uptime_s)
	rc=0
	/bin/kstack -F >/tmp/kstack-F.txt 2>"$out/traceall-kstack-F.err" || rc=$?
	t1=$(uptime_s)
	{
		echo "kstack_F_rc: $rc"
		echo "kstack_F_lines: $(wc -l </tmp/kstack-F.txt)"
		echo "kstack_F_seconds: $(seconds "$t0" "$t1")"
	} >>"$times"
	rm -f /tmp/kstack-F.txt
	[ -s "$out/traceall-kstack-F.err" ] || rm -f "$out/traceall-kstack-F.err"
fi
cd /

sleep 1000000 &
scenario_ready

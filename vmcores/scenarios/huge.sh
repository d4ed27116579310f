#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Performance scenario ten times many.sh: 100,000 threads in ten processes
# and the same two stack shapes, so that the cost of walking, reading and
# grouping shows whether it grows linearly (tests/bench/huge.sh, make bench).
#
# Memory: each thread costs the guest about 30 KB of kernel memory (task,
# 16 KB kernel stack) plus two touched pages of its 64 KB user stack
# (glibc keeps the thread's descriptor and TLS at its top): about 4 GB for
# 100,000; 6 GB leaves room for kstack -a -H in the guest.
#
# Limits, raised before the threads start:
# - kernel.threads-max defaults to RAM / 128 KB (about 49,000 at 6 GB);
# - kernel.pid_max defaults to 32,768 with few CPUs;
# - vm.max_map_count (65,530) is per process: a thread stack is two mappings
#   (stack and guard page), 20,000 for a process of 10,000 threads, so it
#   needs no change here;
# - RLIMIT_NPROC does not bind root.
#
# The raw proc/ copy of the capture is skipped (capture-proc: no): 400,000
# files would take over a gigabyte of the guest's ramfs and minutes of
# copying and transfer under TCG, and only the dump is benchmarked. The
# guest's kstack -a -H is still captured into live/kstack-a.txt.
#
#@ memory: 6144
#@ ready-timeout: 900
#@ capture-proc: no
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

echo 400000 >/proc/sys/kernel/threads-max || scenario_fail "threads-max"
echo 400000 >/proc/sys/kernel/pid_max || scenario_fail "pid_max"

pids=
for i in 1 2 3 4 5 6; do
	vmcore-helper threads -n "paused $i" -t "pause-$i" 10000 &
	pids="$pids $!"
done
for i in 7 8 9 10; do
	vmcore-helper threads -s -n "sleeper $i" -t "nsleep-$i" 10000 &
	pids="$pids $!"
done
# A few of the basic states so that the big groups are not all there is.
sleep 1000000 &
sh -c 'while :; do :; done' &

# Ready when every thread exists: 10 x 10001 tasks from the helpers.  The
# count comes from each process's status (Threads:), not from listing
# /proc/PID/task: a listing of 10,000 entries costs seconds under TCG.
start=$(cut -d. -f1 /proc/uptime)
while :; do
	total=0
	for p in $pids; do
		c=$(sed -n 's/^Threads:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
		[ -n "$c" ] || scenario_fail "helper $p is gone"
		total=$((total + c))
	done
	[ "$total" -ge 100010 ] && break
	now=$(cut -d. -f1 /proc/uptime)
	[ $((now - start)) -lt 840 ] || scenario_fail "only $total of 100010 threads after 840 s"
	sleep 1
done
echo "huge.sh: $total threads in the helpers after $(($(cut -d. -f1 /proc/uptime) - start)) s"
scenario_ready

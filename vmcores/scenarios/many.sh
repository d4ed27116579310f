#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Performance scenario: more than 10,000 threads, spread over a few processes
# and two stack shapes, so that walking, reading and grouping them all shows
# its cost. Each thread costs the guest about 30 KB of kernel memory (task,
# 16 KB kernel stack) plus its touched user stack pages: 2 GB leaves room.
#
#@ memory: 2048
#@ ready-timeout: 600
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

pids=
for i in 1 2 3; do
	vmcore-helper threads -n "paused $i" -t "pause-$i" 2000 &
	pids="$pids $!"
done
for i in 4 5; do
	vmcore-helper threads -s -n "sleeper $i" -t "nsleep-$i" 2000 &
	pids="$pids $!"
done
# A few of the basic states so that the big groups are not all there is.
sleep 1000000 &
sh -c 'while :; do :; done' &

# Ready when every thread exists: 5 x 2001 tasks from the helpers.
n=0
while :; do
	total=0
	for p in $pids; do
		c=$(find "/proc/$p/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
		total=$((total + c))
	done
	[ "$total" -ge 10005 ] && break
	n=$((n + 1))
	[ "$n" -lt 3000 ] || scenario_fail "only $total of 10005 threads after 300 s"
	usleep 100000
done
echo "many.sh: $total threads in the helpers"
scenario_ready

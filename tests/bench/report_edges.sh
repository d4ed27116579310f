#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack report on the two shapes of issue #40 (items 21 and 22):
#   wide: one sample of 50,000 tasks, then 20,000 samples of one task
#         (the streak table must shrink back: quadratic before, 25 s for
#         134 KB of .gz);
#   distinct: 2,000 samples of 100 tasks, each with a stack of its own
#         (200,000 distinct stacks: each costs its text and about 200
#         bytes, not 1.3 KB; 2.1 GB for a 2 MB .gz before).
# Prints the CPU time and the peak RSS of each; the unit test
# tests/unit/test_report_bounds.c checks the same bounds as counts.
#
# usage: tests/bench/report_edges.sh BUILD
set -euo pipefail
build=${1:-build}
# shellcheck source=tests/bench/lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/wide" "$tmp/distinct"

awk -v wide=50000 -v small=20000 '
function hdr(t) { printf "zzz <%s - bench\n\n", strftime("%a %b %d %H:%M:%S UTC %Y", t, 1) }
BEGIN {
	t = 1790000000
	hdr(t)
	for (i = 1; i <= wide; i++)
		printf "PID: %5d   State:  S   Start Time: 2026/09/01 00:00:00   Cmd: w%d\n", i, i
	printf "Stack:\n[<0>] do_wait+0x114/0x320\n\n"
	for (s = 0; s < small; s++) {
		hdr(t + 10 + 10 * s)
		printf "PID: %5d   State:  D   Start Time: 2026/09/01 00:00:00   Cmd: d\n", 100000 + s % 7
		printf "Stack:\n[<0>] io_schedule+0x1a/0x40\n\n"
	}
}' | gzip -1 >"$tmp/wide/kstack_bench.out-1790000000.gz"

awk -v samples=2000 -v tasks=100 '
BEGIN {
	t = 1790000000; k = 0
	for (s = 0; s < samples; s++) {
		printf "zzz <%s - bench\n\n", strftime("%a %b %d %H:%M:%S UTC %Y", t + 10 * s, 1)
		for (i = 0; i < tasks; i++) {
			printf "PID: %5d   State:  S   Start Time: 2026/09/01 00:00:00   Cmd: t%d\n", 1000 + i, i
			printf "Stack:\n[<0>] f_%d+0x1/0x2\n[<0>] g+0x3/0x4\n\n", k++
		}
	}
}' | gzip -1 >"$tmp/distinct/kstack_bench.out-1790000000.gz"

for shape in wide distinct; do
	d=$tmp/$shape
	gz=$(stat -c %s "$d"/*.gz)
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$build/kstack" report "$d" >"$tmp/out"
	read -r secs user sys kb <"$tmp/time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	echo "report edges bench: $shape ($((gz / 1024)) KB of .gz): ${secs} s wall, $cpu s CPU, peak RSS $((kb / 1024)) MB"
	target "kstack report, $shape: CPU" "$cpu" '<' 5 s
done
# 200,000 distinct stacks: their text (~40 bytes) and ~250 bytes each
target "kstack report, distinct: peak RSS" "$((kb / 1024))" '<' 128 MiB

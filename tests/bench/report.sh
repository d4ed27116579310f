#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack report over 100 MB of logs: a week of samples of 200 tasks
# at -i 60, made up in oled's text as -m 1 would rotate it (1 MB archives,
# gzip) plus the live file, with a few tasks stuck in D for hours.  Prints
# the wall time and the peak RSS; the report must stream (flat memory: a
# few MB whatever the size) and finish in seconds.
#
# usage: tests/bench/report.sh BUILD
#   KSTACK_BENCH_REPORT_MB   megabytes of text (100)
set -euo pipefail
build=${1:-build}
# shellcheck source=tests/bench/lib.sh
. "$(dirname "$0")/lib.sh"
mb=${KSTACK_BENCH_REPORT_MB:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=$tmp/logs
mkdir "$d"

# samples, 10 s apart, cut into ~1 MB files named as rotate.c names them
awk -v mb="$mb" -v dir="$d" '
BEGIN {
	srand(1)
	t = 1790000000
	for (s = 0; s < 40; s++) {
		st[s] = ""
		for (f = 0; f < 6; f++)
			st[s] = st[s] sprintf("[<0>] func_%d_%d+0x%x/0x400\n", s, f, 16 * f + 5)
	}
	limit = mb * 1048576
	file = 0; size = 0; total = 0
	name = sprintf("%s/kstack_bench.out-%d", dir, t)
	while (total < limit) {
		out = "zzz <" strftime("%a %b %d %H:%M:%S UTC %Y", t, 1) " - bench\n\n"
		for (g = 0; g < 40; g++) {
			for (k = 0; k < 5; k++) {
				pid = 1000 + g * 5 + k
				state = (g < 2) ? "D" : "S"
				out = out sprintf("PID: %5d   State: %2s   Start Time: 2026/09/01 00:00:00   Cmd: task%d --arg\n", pid, state, pid)
			}
			# stacks move now and then, except the stuck ones
			s = (g < 2) ? g : (g + int(t / 3600)) % 40
			out = out "Stack:\n" st[s] "\n"
		}
		printf "%s", out > name
		size += length(out); total += length(out); t += 10
		if (size > 1048576) {
			close(name)
			system("gzip -1 " name " && mv " name ".gz " name ".gz.tmp")
			name = sprintf("%s/kstack_bench.out-%d", dir, t)
			size = 0
		}
	}
	close(name)
	system("mv " name " " dir "/kstack_bench.out")
}'
for f in "$d"/*.gz.tmp; do mv "$f" "${f%.gz.tmp}.gz"; done
text=$(( $(for f in "$d"/*.gz; do gzip -dc "$f"; done | wc -c) + $(stat -c %s "$d/kstack_bench.out") ))
echo "report bench: $((text / 1048576)) MB of text in $(ls "$d" | wc -l) files ($(du -sm "$d" | cut -f1) MB on disk)"
for mode in "" --json; do
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$build/kstack" report $mode "$d" >"$tmp/out"
	read -r secs user sys kb <"$tmp/time"
	echo "report bench: kstack report $mode: ${secs} s wall, ${user} s user + ${sys} s sys, peak RSS $((kb / 1024)) MB, $(wc -l <"$tmp/out") lines"
	# it streams: a few MB of memory and seconds, whatever the size
	target "kstack report ${mode:-(text)} over $((text / 1048576)) MB: CPU" \
		"$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" '<' 10 s
	target "kstack report ${mode:-(text)} over $((text / 1048576)) MB: peak RSS" \
		"$((kb / 1024))" '<' 16 MiB
done
grep -q "^PID:  1000   State: D   for " "$tmp/out" || grep -q '"type":"stuck","pid":1000,' "$tmp/out" ||
	{ echo "report bench: the stuck task 1000 is not named"; exit 1; }

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack diff of two 100,000-thread captures (#41): made up here in oled's
# text, 100,000 tasks over 2,000 stacks of 8 to 20 frames, the second
# capture with a tenth of the tasks moved to other stacks and in other
# states, a few hundred gone and new.  Prints the wall and CPU time and
# the peak RSS; the target is under 2 s.
#
# usage: tests/bench/diff.sh BUILD
#   KSTACK_BENCH_DIFF_TASKS   tasks in each capture (100000)
set -euo pipefail
build=${1:-build}
# shellcheck source=tests/bench/lib.sh
. "$(dirname "$0")/lib.sh"
n=${KSTACK_BENCH_DIFF_TASKS:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# capture SEED MOVE: tasks grouped by stack as the text groups them
gen() {
	awk -v n="$n" -v move="$2" -v seed="$1" '
	BEGIN {
		srand(7)
		for (s = 0; s < 2000; s++) {
			st[s] = ""
			for (f = 0; f < 8 + s % 13; f++)
				st[s] = st[s] sprintf("[<0>] func_%d_%d+0x%x/0x400\n", s % 97, f * 31 + s, 16 * f + 5)
		}
		srand(seed)
		for (i = 0; i < n; i++) {
			pid = 1000 + i
			if (move && i % 331 == 0)
				pid += 10 * n	# gone, and a new one
			s = int(i / 50)
			if (move && i % 10 == 3)
				s = int(rand() * 2000)
			state = s % 7 == 0 ? "D" : "S"
			g[s] = g[s] sprintf("PID: %5d   State: %2s   Start Time: 2026/09/01 00:00:00   Cmd: task%d --arg\n", pid, state, i)
		}
		print "zzz <Tue Sep 01 00:10:00 UTC 2026 - bench\n"
		for (s = 0; s < 2000; s++)
			if (s in g)
				printf "%sStack:\n%s\n", g[s], st[s]
	}'
}
gen 1 0 >"$tmp/a.txt"
gen 2 1 >"$tmp/b.txt"
echo "diff bench: two captures of $n tasks, $(( $(stat -c %s "$tmp/a.txt") / 1048576 )) and $(( $(stat -c %s "$tmp/b.txt") / 1048576 )) MB of text"
rc=0
/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$build/kstack" diff "$tmp/a.txt" "$tmp/b.txt" >"$tmp/out" || rc=$?
read -r secs user sys kb < <(tail -1 "$tmp/time")
echo "diff bench: kstack diff: exit $rc, ${secs} s wall, ${user} s user + ${sys} s sys, peak RSS $((kb / 1024)) MB; $(sed -n '/^== tasks/p' "$tmp/out")"
[ "$rc" = 1 ] || { echo "diff bench: kstack diff exited $rc, want 1"; exit 1; }
target "kstack diff of two $n-task captures: wall" "$secs" '<' 2 s

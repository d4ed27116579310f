#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench: one `kstack -a` sample over N sleeping processes (5,000 by
# default) against the floor of plain reads of the same files; then the
# vmcore benchmarks when a vmcore and the extension are there (10,000
# threads: tests/bench/vmcore.sh; 100,000: tests/bench/huge.sh), and kstack -F
# on every function (tests/bench/ftrace.sh on synthetic records,
# tests/bench/ftrace_guest.sh on a guest's dump: vmcores/scenarios/traceall.sh).
# Targets: within 1.15x of the floor, under 8 MB peak RSS; then, over the
# same tasks, the background soak (background.sh).  Each bench states its
# targets through tests/bench/lib.sh; the run ends with a summary of them
# all and exits 1 when one is not met or a bench could not measure.
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
n=${KSTACK_BENCH_TASKS:-5000}
loops=${KSTACK_BENCH_LOOPS:-10}
tmp=$(mktemp -d)
export KSTACK_BENCH_RESULTS=$tmp/results
: >"$KSTACK_BENCH_RESULTS"
cleanup() {
	[ -s "$tmp/spawner.pid" ] && kill -- -"$(cat "$tmp/spawner.pid")" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

${CC:-cc} -O2 -o "$tmp/floor" tests/bench/proc_floor.c
ulimit -u unlimited 2>/dev/null || true
# one process group holding N sleepers, killed as a whole at the end
setsid bash -c 'echo $$ >"$1"; for i in $(seq "$2"); do sleep 100000 & done; wait' _ \
	"$tmp/spawner.pid" "$n" &
for _ in $(seq 600); do
	c=$(ls /proc | grep -c '^[0-9]' || true)
	[ "$c" -ge "$n" ] && break
	sleep 0.1
done
tasks=$(ls /proc | grep -c '^[0-9]')
echo "tasks in /proc: $tasks"

# warm the dentry caches, then measure
"$tmp/floor" 2 >/dev/null
floor=$("$tmp/floor" "$loops")
floor_ms=$(echo "$floor" | awk '{ print $1 }')
floor_cpu_ms=$(echo "$floor" | awk '{ print $3 }')

start=$(date +%s%N)
for _ in $(seq "$loops"); do
	"$build/kstack" -a >/dev/null 2>&1
done
end=$(date +%s%N)
ks_ms=$(awk -v a="$start" -v b="$end" -v l="$loops" 'BEGIN { printf "%.3f", (b - a) / 1e6 / l }')
/usr/bin/time -o "$tmp/rss" -f '%M' "$build/kstack" -a >/dev/null 2>&1 || true
rss=$(tail -1 "$tmp/rss")
awk -v k="$ks_ms" -v f="$floor_ms" -v n="$tasks" -v r="$rss" 'BEGIN {
	printf "kstack -a:  %8.2f ms/sample  %6.2f us/task  peak RSS %d KiB\n", k, k * 1000 / n, r
	printf "floor:      %8.2f ms/sample  %6.2f us/task\n", f, f * 1000 / n
}'
echo "(kstack time includes exec and writing output; floor loops in one process)"
target "live kstack -a / the plain-read floor" \
	"$(awk -v k="$ks_ms" -v f="$floor_ms" 'BEGIN { printf "%.2f", k / f }')" '<=' 1.15
target "live kstack -a peak RSS" "$rss" '<' 8192 KiB

# each bench NAME: tests/bench/NAME.sh, a failure to measure filed
bench() {
	local name=$1 rc=0

	shift
	echo
	tests/bench/"$name".sh "$@" || rc=$?
	[ "$rc" = 0 ] || bench_failed "$name" "tests/bench/$name.sh exit $rc"
}

bench background "$build" "$floor_cpu_ms"
# kstack report over 100 MB of logs: seconds, flat memory
bench report "$build"
# report on a wide sample then small ones, and on 200,000 distinct stacks
bench report_edges "$build"
# kstack diff of two 100,000-task captures: under 2 s
bench diff "$build"
bench vmcore "$build"
bench huge "$build"
bench lines "$build"
# after lines, which makes the basic dump that log times --log and --cpus on
bench log "$build"
bench ftrace "$build"
bench ftrace_guest "$build"

met=$(grep -c ': met$' "$KSTACK_BENCH_RESULTS" || true)
not=$(grep -c ': NOT MET$' "$KSTACK_BENCH_RESULTS" || true)
failed=$(grep -c '^bench failed: ' "$KSTACK_BENCH_RESULTS" || true)
echo
echo "== make bench: $met of $((met + not)) targets met; $failed bench(es) could not measure"
grep -E ': NOT MET$|^bench failed: ' "$KSTACK_BENCH_RESULTS" || true
[ "$not" = 0 ] && [ "$failed" = 0 ]

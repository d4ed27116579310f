#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The background soak of make bench: `kstack -b -a` over the
# tasks there are (run.sh's 5,000 sleepers), for as many samples as an
# hour at -i 10 takes (360), with the clock sped up by
# KSTACK_TEST_INTERVAL_MS.  Prints the RSS curve of the sampler, its CPU per
# sample as the share of a core it would use at -i 10 (target < 1%), and
# that CPU against the full-read floor run.sh measured (proc_floor.c: plain
# reads of stat, cmdline and stack of every task, what any sampler that
# reads everything pays).  -b reads a stack only for a task that ran since
# the sample before and keeps schedstat and cmdline open
# (live/proc/proc_cache.h), so it must come in under
# that floor (target < 1); the share of stacks it did not read is printed.
#
# usage: tests/bench/background.sh BUILD [FLOOR_CPU_MS]
#   KSTACK_BENCH_SOAK_SAMPLES      samples (360: one hour at -i 10)
#   KSTACK_BENCH_SOAK_INTERVAL_MS  the sped-up interval (500)
set -euo pipefail
build=${1:-build}
floor_cpu_ms=${2:-}
# shellcheck source=tests/bench/lib.sh
. "$(dirname "$0")/lib.sh"
samples=${KSTACK_BENCH_SOAK_SAMPLES:-360}
interval=${KSTACK_BENCH_SOAK_INTERVAL_MS:-500}
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir "$tmp/log"
duration=$((samples * interval))
echo "background soak: $samples samples every $interval ms (an hour at -i 10 is 360)," \
	"$(ls /proc | grep -c '^[0-9]') tasks"
KSTACK_TEST_INTERVAL_MS=$interval KSTACK_TEST_DURATION_MS=$duration \
	/usr/bin/time -o "$tmp/time" -f '%U %S %M' \
	"$build/kstack" -b --foreground -v -a -d "$tmp/log" 2>"$tmp/err" &
pid=$!
# the sampler is time's child; its RSS once a second
: >"$tmp/rss"
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
	child=$(pgrep -P "$pid" -x kstack || true)
	if [ -n "$child" ]; then
		awk -v t="$(($(date +%s) - start))" '/^VmRSS/ { print t, $2 }' \
			"/proc/$child/status" 2>/dev/null >>"$tmp/rss" || true
	fi
	sleep 1
done
wait "$pid" || { echo "kstack -b failed:"; tail -5 "$tmp/err"; exit 1; }
pid=
written=$(sed -n 's/.*Finished: \([0-9]*\) sample.*/\1/p' "$tmp/err" | tail -1)
lost=$(sed -n 's/.*written, \([0-9]*\) lost.*/\1/p' "$tmp/err" | tail -1)
read -r user sys peak <"$tmp/time"
echo "samples written: ${written:-?}, lost: ${lost:-?}; log folder $(du -sk "$tmp/log" | cut -f1) KiB"
sed -n 's/.*DEBUG - \([0-9]*\) of \([0-9]*\) stack(s) taken from the sample before$/\1 \2/p' "$tmp/err" |
	awk '$2 > 0 { printf "stacks taken from the sample before: %d of %d (%.1f%%)\n", $1, $2, $1 * 100 / $2 }'
# an overrun is a skipped sample, not a lost one: the counts, and the first
# warning, which says whether the sample started late or took too long
grep -E 'INFO - [0-9]+ sample\(s\) (skipped|written late)' "$tmp/err" || true
grep -m1 'WARNING - Sampling took longer' "$tmp/err" || true
awk -v u="$user" -v s="$sys" -v n="${written:-0}" -v f="$floor_cpu_ms" 'BEGIN {
	if (n <= 0) { print "no sample written"; exit 1 }
	per = (u + s) * 1000 / n
	printf "CPU: %.1f ms per sample (user %.2f s, sys %.2f s)\n", per, u, s
	if (f != "")
		printf "ratio CPU per sample / CPU of the full-read floor (%.1f ms): %.2f\n", f, per / f
}'
if [ -n "$floor_cpu_ms" ]; then
	target "background -b -a CPU per sample / the full-read floor" "$(awk -v u="$user" \
		-v s="$sys" -v n="$written" -v f="$floor_cpu_ms" \
		'BEGIN { printf "%.2f", (u + s) * 1000 / n / f }')" '<' 1
fi
target "background -b -a: share of a core at -i 10" "$(awk -v u="$user" \
	-v s="$sys" -v n="$written" 'BEGIN { printf "%.2f", (u + s) * 1000 / n / 100 }')" '<' 1 %
target "background -b -a: samples lost" "${lost:-?}" = 0
# the curve: RSS at each tenth of the run, then the growth over its second
# half (the first samples and the first rotations set up zlib's buffers)
awk -v peak="$peak" '{ t[NR] = $1; r[NR] = $2 } END {
	if (NR < 2) { print "RSS: too few readings"; exit }
	line = "RSS KiB over the run:"
	for (i = 1; i <= 10; i++) {
		k = int(NR * i / 10); if (k < 1) k = 1
		line = line sprintf(" %ds:%d", t[k], r[k])
	}
	print line
	first = r[int(NR / 2)]
	printf "RSS growth over the second half: %+d KiB (%.1f%%); peak %d KiB\n",
		r[NR] - first, (r[NR] - first) * 100 / first, peak
}' "$tmp/rss"
# flat: what the second half adds is under 5% of what it started with
target "background -b -a: RSS growth over the second half" "$(awk '
	{ r[NR] = $2 } END { if (NR < 2) exit; first = r[int(NR / 2)]
	printf "%.1f", (r[NR] - first) * 100 / first }' "$tmp/rss")" '<' 5 %

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The -F half of make bench: kstack -F on a kernel that traces every
# function (`echo function > current_tracer` without a filter enables about
# 60,000 of them).  Two synthetic inputs of 60,000 and 300,000 records
# (KSTACK_BENCH_FTRACE_SIZES):
#
#   live: an enabled_functions made of the guest's real lines
#         (tests/fixtures/hooks/enabled_functions-guest.txt): the function
#         tracer's line for 99 records in 100, the other guest records for
#         the rest, each with a name of its own, the last twentieth in
#         modules; read through KSTACK_TEST_TRACEFS;
#   memory: the same number of dyn_ftrace records on ftrace_pages in the
#         fake kernel image of tests/support/ftrace_image.h, through
#         ks_hooks_report() as kstack --vmcore and crash run it
#         (tests/bench/ftrace_mem.c).
#
# Each prints its wall and CPU time and peak RSS (of KSTACK_BENCH_FTRACE_LOOPS
# runs, 3, the one with the least CPU time) and the ratio of the larger to
# the smaller: time should grow with the records (linear) and memory not at
# all.  Target: under 50 MiB for 60,000 records.  The kernel-format lines
# must equal the input (live) or be one per record (memory; a direct call
# adds its "\tdirect-->" line).
#
# usage: tests/bench/ftrace.sh [BUILD]
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
sizes=${KSTACK_BENCH_FTRACE_SIZES:-60000 300000}
loops=${KSTACK_BENCH_FTRACE_LOOPS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# gen N: enabled_functions of N records shaped like the guest's
gen_enabled() {
	awk -v n="$1" -f tests/lib/gen_enabled_functions.awk \
		tests/fixtures/hooks/enabled_functions-guest.txt
}

# timed OUT ERR CMD...: of $loops runs, the one with the least CPU time
# (user + system: the machine is shared, wall time varies with its load):
# best_s wall seconds, best_c CPU seconds, best_k peak RSS in KiB; OUT and
# ERR of the last run
timed() {
	local out=$1 err=$2 e u sy k
	shift 2
	best_c=
	for _ in $(seq "$loops"); do
		/usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$@" >"$out" 2>"$err" || return 1
		read -r e u sy k <"$tmp/time"
		c=$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.2f", u + s }')
		if [ -z "$best_c" ] || awk -v a="$c" -v b="$best_c" 'BEGIN { exit !(a < b) }'; then
			best_s=$e
			best_c=$c
			best_k=$k
		fi
	done
}

# report LABEL N WALL CPU KIB
report() {
	awk -v l="$1" -v n="$2" -v s="$3" -v c="$4" -v k="$5" 'BEGIN {
		printf "%-22s %7d records: %6.2f s wall, %6.2f s CPU (%5.2f us/record), peak RSS %7.1f MiB\n",
			l, n, s, c, c * 1e6 / n, k / 1024 }'
}

# ratio LABEL N1 CPU1 KIB1 N2 CPU2 KIB2
ratio() {
	awk -v l="$1" -v n1="$2" -v c1="$3" -v k1="$4" -v n2="$5" -v c2="$6" -v k2="$7" 'BEGIN {
		tc = c1 > 0 ? c2 / c1 : 0
		tk = k1 > 0 ? k2 / k1 : 0
		printf "%-22s %dk/%dk: records %.0fx, CPU time %.1fx, peak RSS %.2fx\n",
			l, n2 / 1000, n1 / 1000, n2 / n1, tc, tk }'
}

echo "kstack -F on every function (target: < 50 MiB at 60,000, linear time)"
prev=
for n in $sizes; do
	fs=$tmp/tracefs-$n
	mkdir -p "$fs"
	gen_enabled "$n" >"$fs/enabled_functions"
	echo function >"$fs/current_tracer"
	echo '#### all functions enabled ####' >"$fs/set_ftrace_filter"
	: >"$fs/set_ftrace_notrace"
	timed "$tmp/out" "$tmp/err" env KSTACK_TEST_TRACEFS="$fs" "$build/kstack" -F || {
		echo "kstack -F (live) failed: $(head -3 "$tmp/err")"
		status=1
		continue
	}
	report "live (tracefs)" "$n" "$best_s" "$best_c" "$best_k"
	target "kstack -F, live (tracefs), $n records: peak RSS" \
		"$(awk -v k="$best_k" 'BEGIN { printf "%.1f", k / 1024 }')" '<' 50 MiB
	sed '/^== /,$d' "$tmp/out" | cmp -s - "$fs/enabled_functions" ||
		{ echo "  the kernel lines differ from the input"; status=1; }
	if [ -n "$prev" ]; then
		read -r pn pc pk <<<"$prev"
		ratio "live (tracefs)" "$pn" "$pc" "$pk" "$n" "$best_c" "$best_k"
	fi
	prev="$n $best_c $best_k"
	rm -f "$fs/enabled_functions"
done

cc=${CC:-cc}
# every folder of the core that holds a header, as the Makefile does
incs=$(find shared -name '*.h' -printf '-I%h\n' | sort -u)
# shellcheck disable=SC2046,SC2086 # one word per flag and per object
if ! $cc -O2 -std=c11 -D_GNU_SOURCE $incs -Itests/support -o "$tmp/ftrace_mem" \
	tests/bench/ftrace_mem.c tests/support/fake_target.c tests/support/ftrace_image.c \
	tests/support/said.c \
	"$build/libkstack-core.a" -lz \
	2>"$tmp/cc.err"; then
	echo "ftrace_mem does not build:"; head -5 "$tmp/cc.err"
	exit 1
fi
prev=
for n in $sizes; do
	timed "$tmp/out" "$tmp/err" "$tmp/ftrace_mem" "$n" || {
		echo "ftrace_mem $n failed: $(head -3 "$tmp/err")"
		status=1
		continue
	}
	# the report alone (the last run): wall and CPU seconds, RSS before it
	# and the peak after it
	read -r _ rs rc r0 r1 < <(tail -1 "$tmp/err")
	report "memory (fake target)" "$n" "$best_s" "$best_c" "$best_k"
	target "kstack -F, memory (fake target), $n records: peak RSS" \
		"$(awk -v k="$best_k" 'BEGIN { printf "%.1f", k / 1024 }')" '<' 50 MiB
	awk -v s="$rs" -v c="$rc" -v a="$r0" -v b="$r1" 'BEGIN {
		printf "  of which the report: %.2f s wall, %.2f s CPU, RSS %.1f -> %.1f MiB (%+.1f MiB)\n",
			s, c, a / 1024, b / 1024, (b - a) / 1024 }'
	lines=$(sed '/^== /,$d' "$tmp/out" | grep -vc $'^\tdirect-->' || true)
	[ "$lines" -eq "$n" ] || { echo "  $lines kernel lines, not $n"; status=1; }
	grep -q "^$n functions enabled: " "$tmp/out" ||
		{ echo "  the summary does not count $n"; status=1; }
	if [ -n "$prev" ]; then
		read -r pn pc pk <<<"$prev"
		awk -v l="memory (fake target)" -v n1="$pn" -v n2="$n" -v c1="$pc" -v c2="$rc" \
			-v k1="$pk" -v k2="$((r1 - r0))" 'BEGIN {
			tc = c1 > 0 ? c2 / c1 : 0
			printf "%-22s %dk/%dk: records %.0fx, the report'"'"'s CPU time %.1fx, its RSS growth %+.1f then %+.1f MiB\n",
				l, n2 / 1000, n1 / 1000, n2 / n1, tc, k1 / 1024, k2 / 1024 }'
	fi
	prev="$n $rc $((r1 - r0))"
done
exit $status

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
# Each prints its time and peak RSS and the ratio of the larger to the
# smaller: time should grow with the records (linear) and memory not at
# all.  Target: under 50 MiB for 60,000 records.  The kernel-format lines
# must equal the input (live) or be one per record (memory; a direct call
# adds its "\tdirect-->" line).
#
# usage: tests/bench/ftrace.sh [BUILD]
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
sizes=${KSTACK_BENCH_FTRACE_SIZES:-60000 300000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# gen N: enabled_functions of N records shaped like the guest's
gen_enabled() {
	awk -v n="$1" -f tests/lib/gen_enabled_functions.awk \
		tests/fixtures/hooks/enabled_functions-guest.txt
}

# report LABEL N SECONDS KIB
report() {
	awk -v l="$1" -v n="$2" -v s="$3" -v k="$4" 'BEGIN {
		printf "%-28s %7d records: %7.2f s  peak RSS %8.1f MiB\n", l, n, s, k / 1024 }'
}

# ratio LABEL S1 K1 S2 K2 N1 N2
ratio() {
	awk -v l="$1" -v s1="$2" -v k1="$3" -v s2="$4" -v k2="$5" -v n1="$6" -v n2="$7" 'BEGIN {
		ts = s1 > 0 ? s2 / s1 : 0
		tk = k1 > 0 ? k2 / k1 : 0
		printf "%-28s %dk/%dk: time %.1fx, RSS %.2fx (records %.0fx)\n", l,
			n2 / 1000, n1 / 1000, ts, tk, n2 / n1 }'
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
	/usr/bin/time -o "$tmp/time" -f '%e %M' env KSTACK_TEST_TRACEFS="$fs" \
		"$build/kstack" -F >"$tmp/out" 2>"$tmp/err" || {
		echo "kstack -F (live) failed: $(head -3 "$tmp/err")"
		status=1
		continue
	}
	read -r s k <"$tmp/time"
	report "live (tracefs)" "$n" "$s" "$k"
	sed '/^== /,$d' "$tmp/out" | cmp -s - "$fs/enabled_functions" ||
		{ echo "  the kernel lines differ from the input"; status=1; }
	[ -n "$prev" ] && ratio "live (tracefs)" $prev "$s" "$k" "$pn" "$n"
	prev="$s $k"
	pn=$n
	rm -f "$fs/enabled_functions"
done

cc=${CC:-cc}
if ! $cc -O2 -std=c11 -D_GNU_SOURCE -Ishared -Itests/support -o "$tmp/ftrace_mem" \
	tests/bench/ftrace_mem.c tests/support/fake_target.c tests/support/ftrace_image.c \
	"$build"/shared/*.o -lz \
	2>"$tmp/cc.err"; then
	echo "ftrace_mem does not build:"; head -5 "$tmp/cc.err"
	exit 1
fi
prev=
for n in $sizes; do
	/usr/bin/time -o "$tmp/time" -f '%e %M' "$tmp/ftrace_mem" "$n" \
		>"$tmp/out" 2>"$tmp/err" || {
		echo "ftrace_mem $n failed: $(head -3 "$tmp/err")"
		status=1
		continue
	}
	read -r s k <"$tmp/time"
	# the report alone: its seconds, RSS before it and the peak after
	read -r _ rs r0 r1 < <(tail -1 "$tmp/err")
	report "memory (fake target)" "$n" "$s" "$k"
	awk -v s="$rs" -v a="$r0" -v b="$r1" 'BEGIN {
		printf "  of which the report: %.2f s, RSS %.1f -> %.1f MiB (+%.1f MiB)\n",
			s, a / 1024, b / 1024, (b - a) / 1024 }'
	lines=$(sed '/^== /,$d' "$tmp/out" | grep -vc $'^\tdirect-->' || true)
	[ "$lines" -eq "$n" ] || { echo "  $lines kernel lines, not $n"; status=1; }
	grep -q "^$n functions enabled: " "$tmp/out" ||
		{ echo "  the summary does not count $n"; status=1; }
	if [ -n "$prev" ]; then
		read -r ps pk <<<"$prev"
		awk -v l="memory (fake target)" -v s1="$ps" -v s2="$rs" -v k1="$pk" \
			-v k2="$((r1 - r0))" -v n1="$pn" -v n2="$n" 'BEGIN {
			ts = s1 > 0 ? s2 / s1 : 0
			printf "%-28s %dk/%dk: report time %.1fx (records %.0fx), its RSS growth %+.1f then %+.1f MiB\n",
				l, n2 / 1000, n1 / 1000, ts, n2 / n1, k1 / 1024, k2 / 1024 }'
	fi
	prev="$rs $((r1 - r0))"
	pn=$n
done
exit $status

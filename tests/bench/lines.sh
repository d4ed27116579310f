#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The -l half of make bench: kstack --vmcore -a -H with -l against the
# same run without it, on the basic vmcore (KSTACK_VMCORE_DIR for another
# one).  Lines are looked up once per distinct frame, so a dump of many
# tasks costs little more than one of few.  Target: -l under 2x.
# The best of KSTACK_BENCH_LOOPS runs (default 7) of each, wall clock.
#
# usage: tests/bench/lines.sh [BUILD]
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
dir=${KSTACK_VMCORE_DIR:-${KSTACK_CACHE:-$top/cache}/vmcores/basic}
loops=${KSTACK_BENCH_LOOPS:-7}
kstack=$build/kstack

# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
if [ -z "${KSTACK_VMCORE_DIR:-}" ]; then
	vmcores/make-vmcore default basic "$dir" >&2	# reused when made
fi
if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	echo "lines bench: no vmcore in $dir"
	exit 1
fi

# best wall-clock milliseconds of $loops runs of "$@"
best_ms() {
	local best=, start end ms
	for _ in $(seq "$loops"); do
		start=$(date +%s%N)
		"$@" >/dev/null 2>&1
		end=$(date +%s%N)
		ms=$(((end - start) / 1000000))
		if [ "$best" = , ] || [ "$ms" -lt "$best" ]; then
			best=$ms
		fi
	done
	echo "$best"
}

run=("$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -a -H)
"${run[@]}" >/dev/null 2>&1 # warm the page cache
"${run[@]}" -l >/dev/null 2>&1
plain=$(best_ms "${run[@]}")
lines=$(best_ms "${run[@]}" -l)
frames=$("${run[@]}" 2>/dev/null | grep -c '^\[<0>\]' || true)
distinct=$("${run[@]}" 2>/dev/null | grep '^\[<0>\]' | sort -u | wc -l)
awk -v p="$plain" -v l="$lines" -v f="$frames" -v d="$distinct" 'BEGIN {
	printf "kstack --vmcore -a -H:     %6d ms\n", p
	printf "kstack --vmcore -a -H -l:  %6d ms  (%d frames, %d distinct)\n", l, f, d
}'
target "--vmcore -a -H -l / without -l" "$(awk -v p="$plain" -v l="$lines" \
	'BEGIN { printf "%.2f", l / p }')" '<' 2

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The --log half of make bench (issue #38): a full 16 MiB printk ring
# (CONFIG_LOG_BUF_SHIFT=24, 2^19 descriptors), wrapped half over, in the
# fake kernel image of tests/support/printk_image.h, walked and written as
# kstack --vmcore --log and crash run it (tests/bench/log_mem.c), as text
# and as --json, to a file.  Target: the text under 0.3 s (the walk and
# the writing, wall time of the run with the least CPU time of
# KSTACK_BENCH_LOG_LOOPS, 5: the machine is shared).  Each run must print
# one line per record the ring holds, none of them lost or invalid.
#
# Then, for information, kstack --vmcore --log and --cpus on the basic
# dump (KSTACK_VMCORE_DIR, else cache/vmcores/basic; not made here: said
# and left out when it is not there), next to its -K floor (opening the
# dump, symbols and types, no task).
#
# usage: tests/bench/log.sh [BUILD]
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
case $build in /*) ;; *) build=$top/$build ;; esac
loops=${KSTACK_BENCH_LOG_LOOPS:-5}
dir=${KSTACK_VMCORE_DIR:-${KSTACK_CACHE:-$top/cache}/vmcores/basic}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

[ -f "$build/libkstack-core.a" ] || { echo "log bench: no $build/libkstack-core.a (make)"; exit 1; }
# every folder of the core that holds a header, as the Makefile does
incs=$(find shared -name '*.h' -printf '-I%h\n' | sort -u)
# shellcheck disable=SC2086 # one word per flag
if ! ${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE $incs -Itests/support -o "$tmp/log_mem" \
	tests/bench/log_mem.c tests/support/fake_target.c tests/support/printk_image.c \
	tests/support/said.c "$build/libkstack-core.a" -lz 2>"$tmp/cc.err"; then
	echo "log_mem does not build:"; head -5 "$tmp/cc.err"
	exit 1
fi

# ring KIND [json]: of $loops runs, the one with the least CPU time; its
# records, wall and CPU seconds, RSS before and peak after, into $tmp/KIND
ring() {
	local kind=$1 line
	shift
	rm -f "$tmp/$kind"
	for _ in $(seq "$loops"); do
		"$tmp/log_mem" "$@" >"$tmp/$kind.out" 2>"$tmp/$kind.err" || {
			echo "log_mem $kind failed: $(head -3 "$tmp/$kind.err")"
			return 1
		}
		line=$(tail -1 "$tmp/$kind.err")
		if [ ! -s "$tmp/$kind" ] || awk -v a="$(echo "$line" | awk '{ print $3 }')" \
			-v b="$(awk '{ print $3 }' "$tmp/$kind")" 'BEGIN { exit !(a < b) }'; then
			echo "$line" >"$tmp/$kind"
		fi
	done
	# what the walk could not read: said on stderr before the figures
	if [ "$(wc -l <"$tmp/$kind.err")" -gt 1 ]; then
		echo "log_mem $kind: $(head -3 "$tmp/$kind.err")"
		return 1
	fi
}

for kind in text json; do
	args=()
	[ "$kind" = json ] && args=(json)
	ring "$kind" "${args[@]}" || { status=1; continue; }
	read -r n s c r0 r1 <"$tmp/$kind"
	lines=$(wc -l <"$tmp/$kind.out")
	bytes=$(wc -c <"$tmp/$kind.out")
	[ "$kind" = json ] && lines=$((lines - 1))	# the not_read line
	awk -v k="$kind" -v n="$n" -v s="$s" -v c="$c" -v b="$bytes" -v a="$r0" -v p="$r1" 'BEGIN {
		printf "--log of a full 16 MiB ring (fake target), %s: %d records, %.1f MB out:" \
			" %.3f s wall, %.3f s CPU, RSS %.1f -> %.1f MiB\n", k, n, b / 1e6, s, c,
			a / 1024, p / 1024 }'
	[ "$lines" -eq "$n" ] || { echo "  $lines lines, not $n"; status=1; }
	if [ "$kind" = text ]; then
		target "--log of a full 16 MiB ring (fake target), text" "$s" '<' 0.3 s
	fi
done
if [ -s "$tmp/json.out" ] && ! tail -1 "$tmp/json.out" |
	grep -q '"lost_records": 0, "lost_ranges": 0, "unreadable": 0, "invalid": 0'; then
	echo "  --json's last line says records were not read: $(tail -1 "$tmp/json.out")"
	status=1
fi

# dump ARGS...: the fastest of $loops runs of kstack --vmcore on the basic
# dump: wall seconds, CPU seconds, peak RSS in KiB and the lines printed
dump() {
	local best='' e u s m
	for _ in $(seq "$loops"); do
		/usr/bin/time -o "$tmp/t" -f '%e %U %S %M' env TZ=UTC "$build/kstack" \
			--vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" "$@" \
			>"$tmp/dump.out" 2>/dev/null || return 1
		read -r e u s m <"$tmp/t"
		if [ -z "$best" ] || awk -v a="$e" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$e
			echo "$e $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $m" \
				"$(wc -l <"$tmp/dump.out")" >"$tmp/dump"
		fi
	done
	awk -v o="$*" '{ printf "  kstack --vmcore %-5s %.2f s wall, %.2f s CPU, %.1f MiB, %d lines\n",
		o, $1, $2, $3 / 1024, $4 }' "$tmp/dump"
}

if [ -r "$dir/vmcore" ]; then
	echo "the basic dump ($dir), fastest of $loops, for information:"
	cat "$dir/vmcore" >/dev/null	# the page cache warm for every run
	for o in -K --log --cpus; do
		dump "$o" || { echo "  kstack --vmcore $o fails on $dir"; status=1; }
	done
else
	echo "no basic dump at $dir (make vmcore, or KSTACK_VMCORE_DIR): its --log and --cpus left out"
fi
exit "$status"

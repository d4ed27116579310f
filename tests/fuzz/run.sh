#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs the libFuzzer harnesses that make builds into DIR (BUILD/fuzz).
#
#   run.sh probe [CC]          exit 0 when CC (clang) links -fsanitize=fuzzer
#   run.sh check DIR [RUNS]    each harness RUNS (20000) executions from its
#                              seeds, in a corpus made new each time in
#                              DIR/check-corpus/NAME: PASS/FAIL each
#   run.sh fuzz DIR [SECONDS]  each harness SECONDS (60), its corpus kept in
#                              DIR/corpus/NAME for the next run
#   run.sh replay DIR [CORPUS] each harness once over every input of its
#                              seeds, and of CORPUS/NAME (the corpus a
#                              check run grew: make check passes
#                              build/san/fuzz/check-corpus), no mutation:
#                              for harnesses built without sanitizers (make
#                              check's build/release-fuzz), since ASan once
#                              hid a use after free in libkdumpfile that
#                              killed the release binary
#   FUZZ_JOBS=N                N harnesses at a time (1)
#
# Seeds are tests/fuzz/corpus/NAME (committed: small inputs and every
# input that once broke kstack) and DIR/seeds/NAME (made at build time by
# tests/fuzz/make-seeds.sh).  A crash, leak, sanitizer report or timeout
# leaves its input in DIR/crashes/NAME-*; reproduce it with
# DIR/NAME DIR/crashes/NAME-...
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

probe() {
	local cc=${1:-clang} tmp ret
	tmp=$(mktemp -d)
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
		'{ (void)d; (void)n; return 0; }' >"$tmp/p.c"
	"$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/p" "$tmp/p.c" \
		>/dev/null 2>&1
	ret=$?
	rm -rf "$tmp"
	return $ret
}

mode=${1:-}
case $mode in
probe)
	probe "${2:-clang}"
	exit
	;;
check | fuzz | replay) ;;
*)
	echo "usage: $0 probe [CC] | check DIR [RUNS] | fuzz DIR [SECONDS] | replay DIR [CORPUS]" >&2
	exit 2
	;;
esac
dir=${2:?usage: $0 $mode DIR}
arg=${3:-}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

names=()
for src in tests/fuzz/fuzz_*.c; do
	names+=("$(basename "$src" .c)")
done

if [ ! -x "$dir/${names[0]}" ] && ! probe "${FUZZ_CC:-clang}"; then
	echo "SKIP: ${FUZZ_CC:-clang} cannot link -fsanitize=fuzzer" \
		"(scripts/install-deps.sh check installs clang and libclang-rt-14-dev)"
	finish
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$dir/crashes"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# make check's executions of one harness: fuzz_dump_open opens a dump with
# libkdumpfile each time (about 25 a second on a loaded 2-core machine),
# so it gets a tenth, 20,000 of them would take 13 minutes; the inputs it
# ever crashed on are in its corpus and replayed every time.  make fuzz
# runs it as long as the others.
check_runs() {
	local n=${arg:-20000}
	[ "$1" = fuzz_dump_open ] && n=$(((n + 9) / 10))
	echo "$n"
}

# One harness; its PASS/FAIL line and what explains a failure on stdout.
run_one() {
	local name=$1 bin=$dir/$1 corpus limit seeds=() s rc runs start secs
	local log=$scratch/$1.log
	if [ ! -x "$bin" ]; then
		echo "FAIL: $name: $bin was not built (make fuzz-build)"
		return
	fi
	for s in "tests/fuzz/corpus/$name" "$dir/seeds/$name"; do
		[ -d "$s" ] && seeds+=("$s")
	done
	if [ "$mode" = replay ]; then
		corpus=$scratch/$name
		limit=(-runs=0)
		# what the sanitized check run found, through these binaries too
		[ -n "$arg" ] && [ -d "$arg/$name" ] && seeds+=("$arg/$name")
	elif [ "$mode" = check ]; then
		corpus=$dir/check-corpus/$name
		rm -rf "$corpus"
		limit=(-runs="$(check_runs "$name")" -seed=1)
	else
		corpus=$dir/corpus/$name
		limit=(-max_total_time="${arg:-60}")
	fi
	mkdir -p "$corpus"
	start=$(date +%s)
	"$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$dir/crashes/$name-" "$corpus" "${seeds[@]}" \
		>"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	secs=$(($(date +%s) - start))
	if [ "$rc" -eq 0 ]; then
		echo "PASS: $name: ${runs:-?} executions in ${secs} s," \
			"corpus $(find "$corpus" -type f | wc -l) inputs"
	else
		cp "$log" "$dir/crashes/$name.log"
		echo "FAIL: $name: exit $rc after ${runs:-?} executions;" \
			"the input and $name.log are in $dir/crashes/"
		grep -E -m 12 -e 'ERROR|SUMMARY|runtime error|fuzz_assert' \
			-e 'interrupted|#[0-9]+ 0x' "$log" | sed 's/^/    /'
	fi
}

# FUZZ_JOBS harnesses at a time (1 by default: the machine is shared)
max_jobs=${FUZZ_JOBS:-1}
for name in "${names[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$max_jobs" ]; do
		wait -n
	done
	run_one "$name" >"$scratch/$name.out" &
done
wait
for name in "${names[@]}"; do
	count_checks <"$scratch/$name.out"
done
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs every test: the cmocka unit binaries in BUILD/tests, the libFuzzer
# harnesses in BUILD/fuzz on their seeds (FUZZ_RUNS executions each, two
# at a time: tests/fuzz/run.sh), then the integration scripts (live tool
# on fixtures and the real /proc), then the vmcore scripts (which make or
# reuse a real vmcore first).
#
# usage: tests/run-all.sh BUILD [unit|fuzz|integration|vmcore|scenario-vmcores|arch-vmcores|die-vmcores]...
# KSTACK_SCENARIO_VMCORE_DIRS: vmcore folders of a scenario that adds what
# the basic dump lacks (hooks, locks): the suites that read it
# KSTACK_RELEASE_FUZZ: harnesses built without sanitizers (fuzz kind:
# every seed replayed through them too)
# KSTACK_ARCH_VMCORE_DIRS: vmcore folders of another architecture (arm64)
# KSTACK_GUEST_TEST_DIRS: livetests folders (arch-vmcores reads them too)
# KSTACK_DIE_VMCORE_DIRS: dumps of guests that died (die-vmcores): the
# panic, the log and the CPUs' stacks checked against the console
# KSTACK_REQUIRE_INPUTS=1 (make check, which provides every input): a suite
# that says SKIP fails.  Every SKIP and N/A is listed, with its reason, at
# the end (tests/lib/check.sh says which is which).
set -uo pipefail

build=${1:?usage: tests/run-all.sh BUILD [unit|fuzz|integration|vmcore|scenario-vmcores|arch-vmcores|die-vmcores]...}
shift
kinds=${*:-unit fuzz integration vmcore scenario-vmcores arch-vmcores die-vmcores}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export KSTACK="$top/$build/kstack"
# The extension of the same build: under ASan/UBSan for make check (the
# vmcore scripts preload the ASan runtime into crash for it).
export KSTACK_SO="$top/$build/kstack.so"
[ -s "$KSTACK_SO" ] || KSTACK_SO="$top/build/kstack.so"
export KSTACK_BUILD="$top/$build"
# ASan's leak checker cannot run under ptrace-less sandboxes reliably and
# the tools exit right after their work: leaks are checked in unit tests.
# fast_unwind_on_malloc=0: a leak inside a library without frame pointers
# (libaddrxlat) then shows the library's frames, which tests/lsan.supp names.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Leaks inside libraries (libaddrxlat's aarch64 setup), named one by one.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp}

passed=0
failed=0
skipped=0
failures=()
skips=()
not_applicable=()
durations=()
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT

# The reasons a suite gave for what it did not check: the scripts' SKIP:
# and N/A: lines, cmocka's [  SKIPPED ] test names.
reasons() {
	sed -n -e "s|^$1: ||p" "$2"
	[ "$1" = SKIP ] && sed -n 's/^\[  SKIPPED \] //p' "$2"
	return 0
}

run() {
	local name=$1 log=$logdir/log st line start=$SECONDS
	local -a skip_lines
	shift
	echo "=== $name"
	"$@" 2>&1 | tee "$log"
	st=${PIPESTATUS[0]}
	durations+=("$((SECONDS - start)) $name")
	echo "--- $name: $((SECONDS - start)) s"
	mapfile -t skip_lines < <(reasons SKIP "$log")
	while IFS= read -r line; do
		not_applicable+=("$name: $line")
	done < <(reasons N/A "$log")
	for line in "${skip_lines[@]}"; do
		skips+=("$name: $line")
	done
	if [ "$st" -eq 0 ] && [ ${#skip_lines[@]} -gt 0 ] &&
	   [ "${KSTACK_REQUIRE_INPUTS:-0}" = 1 ]; then
		echo "=== $name skipped what make check provides: ${skip_lines[0]}"
		st=1
	fi
	if [ "$st" -eq 0 ]; then
		passed=$((passed + 1))
		[ ${#skip_lines[@]} -gt 0 ] && skipped=$((skipped + 1))
	else
		failed=$((failed + 1))
		failures+=("$name")
		echo "=== FAILED: $name"
	fi
}

# The suites that check what the scenario of vmcore folder $1 adds (its
# manifest's "scenario:") beyond those whose own default is that folder
# (test_hooks_json.sh's hooks, test_waits.sh's locks: the vmcore kind runs
# them); none known: a message, and 1.
scenario_suites() {
	local scenario

	scenario=$(sed -n 's/^scenario: //p' "$1/manifest" 2>/dev/null)
	case $scenario in
	hooks) echo test_hooks_vmcore test_crash_hooks.sh ;;
	locks) echo test_waits_named.sh test_stuck.sh ;;
	*)
		echo "run-all: $1/manifest: no suites for the scenario '$scenario'" >&2
		return 1
		;;
	esac
}

for kind in $kinds; do
	case $kind in
	unit)
		for t in "$build"/tests/test_*; do
			[ -x "$t" ] && run "unit/$(basename "$t")" "$t"
		done
		;;
	fuzz)
		# SKIP-clean (0 passed) where clang's libFuzzer is missing
		run fuzz/run.sh env FUZZ_JOBS="${FUZZ_JOBS:-2}" \
			bash tests/fuzz/run.sh check "$build/fuzz" "${FUZZ_RUNS:-20000}"
		# every seed and every input the check run's corpus grew, once
		# more, through harnesses built without sanitizers
		[ -n "${KSTACK_RELEASE_FUZZ:-}" ] &&
			run "fuzz/run.sh replay (no sanitizers)" env FUZZ_JOBS="${FUZZ_JOBS:-2}" \
				bash tests/fuzz/run.sh replay "$KSTACK_RELEASE_FUZZ" \
				"$build/fuzz/check-corpus"
		;;
	integration | vmcore)
		for t in tests/"$kind"/*.sh; do
			[ -f "$t" ] && run "$kind/$(basename "$t")" bash "$t"
		done
		;;
	scenario-vmcores)
		# What the scenario adds, read by the suites that check it; the
		# task views are the basic dump's (vmcore) and check-more's.
		for dir in ${KSTACK_SCENARIO_VMCORE_DIRS:-}; do
			suites=$(scenario_suites "$dir") || {
				run "scenario of $(basename "$dir")" false
				continue
			}
			for t in $suites; do
				case $t in
				test_*.sh) run "vmcore/$t on $(basename "$dir")" \
					env KSTACK_VMCORE_DIR="$dir" bash "tests/vmcore/$t" ;;
				*) run "unit/$t on $(basename "$dir")" \
					env KSTACK_VMCORE_DIR="$dir" "$build/tests/$t" ;;
				esac
			done
		done
		;;
	die-vmcores)
		# A guest that died: what its console printed is the truth.
		# The capture was taken before the trigger, so the comparisons
		# of every task with it are the other dumps' to make.
		for dir in ${KSTACK_DIE_VMCORE_DIRS:-}; do
			for t in tests/vmcore/test_panic.sh tests/vmcore/test_panic_trace.sh \
				 tests/vmcore/test_log.sh \
				 tests/vmcore/test_cpus.sh tests/vmcore/test_triage.sh \
				 tests/vmcore/test_triage_html.sh tests/vmcore/test_stuck.sh; do
				run "vmcore/$(basename "$t") on $(basename "$dir")" \
					env KSTACK_VMCORE_DIR="$dir" bash "$t"
			done
		done
		;;
	arch-vmcores)
		# Dumps of another architecture (arm64): every vmcore test.
		# What such a dump cannot give (crash 8.0.2 is built for
		# X86_64; Debian's arm64 6.1 kallsyms has no data symbols for
		# the dump alone) the tests say N/A, naming it.
		for dir in ${KSTACK_ARCH_VMCORE_DIRS:-}; do
			t="$build/tests/test_hooks_vmcore"
			[ -x "$t" ] && run "unit/test_hooks_vmcore on $(basename "$dir")" \
				env KSTACK_VMCORE_DIR="$dir" "$t"
			for t in tests/vmcore/*.sh; do
				run "vmcore/$(basename "$t") on $(basename "$dir")" \
					env KSTACK_VMCORE_DIR="$dir" bash "$t"
			done
		done
		# The live tool's /proc tests as guests ran them (make-vmcore's
		# livetests scenario): KSTACK_GUEST_TEST_DIRS.
		for dir in ${KSTACK_GUEST_TEST_DIRS:-}; do
			run "guest/test_guest_live.sh on $(basename "$dir")" \
				env KSTACK_VMCORE_DIR="$dir" bash tests/guest/test_guest_live.sh
		done
		;;
	*)
		echo "run-all: unknown kind '$kind'" >&2
		exit 2
		;;
	esac
done

echo
for f in "${not_applicable[@]}"; do
	echo "not applicable: $f"
done
for f in "${skips[@]}"; do
	echo "skipped: $f"
done
for f in "${failures[@]}"; do
	echo "failed: $f"
done
# where make check's time goes: its budget is 40 minutes
if [ ${#durations[@]} -gt 0 ]; then
	printf '%s\n' "${durations[@]}" | sort -rn | head -15 |
		sed 's/^\([0-9]*\) /slowest: \1 s /'
fi
echo "suites: $passed passed, $failed failed, $skipped skipped in $SECONDS s"
[ "$failed" -eq 0 ]

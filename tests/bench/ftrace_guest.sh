#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The guest half of the -F bench: a vmcore of a Debian kernel running the
# function tracer on every function (vmcores/scenarios/traceall.sh, about
# 60,000 enabled records), then on the host `kstack --vmcore DUMP -F`,
# from the dump alone and with the debug vmlinux, with its time and peak
# RSS, against what the guest itself took (live/traceall-times.txt): a
# cat of enabled_functions, the guest's kstack -F.  The dump's kernel lines
# must equal the guest's enabled_functions (live/enabled_functions.txt).
# Target: under 50 MiB for the records (the dump's symbols and types come
# on top: compare with the same run's -a).
#
# The dump goes to KSTACK_BENCH_TRACEALL_DIR (default
# /tmp/kstack-bench/traceall), reused while complete (see vmcores/README.md).
#
# usage: tests/bench/ftrace_guest.sh [BUILD]
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
dir=${KSTACK_BENCH_TRACEALL_DIR:-/tmp/kstack-bench/traceall}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

if [ ! -x "$build/kstack-static" ]; then
	echo "ftrace guest bench: no $build/kstack-static (make static): the guest would time no kstack -F"
fi
KSTACK_STATIC="$top/$build/kstack-static" vmcores/make-vmcore default traceall "$dir" >&2

ef=$dir/live/enabled_functions.txt
if [ ! -s "$ef" ]; then
	echo "ftrace guest bench: the guest captured no enabled_functions ($ef)"
	exit 1
fi
records=$(grep -vc $'^\tdirect-->' "$ef" || true)
echo "traceall vmcore: $dir ($records records in the guest's enabled_functions)"

# key: value lines the scenario wrote
times=$dir/live/traceall-times.txt
val() { sed -n "s/^$1: //p" "$times" 2>/dev/null | tail -1; }
if [ -s "$times" ]; then
	echo "guest (TCG): current_tracer function $(val current_tracer_seconds) s;" \
		"cat enabled_functions $(val enabled_functions_seconds) s" \
		"($(val enabled_functions_lines) lines)"
	[ -n "$(val kstack_F_seconds)" ] &&
		echo "guest (TCG): kstack -F $(val kstack_F_seconds) s, exit $(val kstack_F_rc)," \
			"$(val kstack_F_lines) lines"
else
	echo "guest: no traceall-times.txt in the capture"
fi

# run LABEL ARGS...: kstack --vmcore with ARGS, timed; prints its line
run() {
	local label=$1
	shift
	if ! /usr/bin/time -o "$tmp/time" -f '%e %M' "$build/kstack" --vmcore "$dir/vmcore" \
		"$@" >"$tmp/out" 2>"$tmp/err"; then
		echo "kstack --vmcore $label failed: $(head -3 "$tmp/err")"
		status=1
		return 1
	fi
	read -r s k <"$tmp/time"
	awk -v l="$label" -v s="$s" -v k="$k" 'BEGIN {
		printf "kstack --vmcore %-32s %6.2f s  peak RSS %7.1f MiB\n", l, s, k / 1024 }'
}

if run "-F (dump alone)" -F; then
	same=0
	sed '/^== /,$d' "$tmp/out" | cmp -s - "$ef" && same=1
	target "--vmcore -F: the guest's enabled_functions, line for line (1: yes)" "$same" = 1
	target "--vmcore -F over $records records: peak RSS" \
		"$(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }')" '<' 50 MiB
fi
run "-F --vmlinux" -F --vmlinux "$dir/vmlinux" || true
# what opening the dump costs without the records
run "-a (dump alone, for comparison)" -a || true
exit $status

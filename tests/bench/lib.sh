# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The one way a bench of make bench states a target (sourced):
#
#   target WHAT VALUE OP LIMIT [UNIT]
#
# prints "target: WHAT: VALUE UNIT (OP LIMIT UNIT): met" or "... NOT MET"
# (OP is <, <=, = or >=; a VALUE that is no number is not met) and, when
# tests/bench/run.sh runs the bench, files the line in
# $KSTACK_BENCH_RESULTS for its summary.  bench_failed WHAT REASON files a
# bench that could not measure at all.

target() {
	local what=$1 value=$2 op=$3 limit=$4 unit=${5:+ $5} verdict line

	if awk -v v="$value" -v l="$limit" -v op="$op" 'BEGIN {
		if (v !~ /^-?[0-9]+(\.[0-9]+)?$/) exit 1
		v += 0; l += 0
		if (op == "<") exit !(v < l)
		if (op == "<=") exit !(v <= l)
		if (op == "=") exit !(v == l)
		if (op == ">=") exit !(v >= l)
		exit 1 }'; then
		verdict=met
	else
		verdict="NOT MET"
	fi
	line="target: $what: $value$unit ($op $limit$unit): $verdict"
	echo "$line"
	if [ -n "${KSTACK_BENCH_RESULTS:-}" ]; then
		echo "$line" >>"$KSTACK_BENCH_RESULTS"
	fi
}

bench_failed() {
	local line="bench failed: $1: $2"

	echo "$line"
	if [ -n "${KSTACK_BENCH_RESULTS:-}" ]; then
		echo "$line" >>"$KSTACK_BENCH_RESULTS"
	fi
}

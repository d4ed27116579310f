# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Counting for test scripts: source it, call pass/fail per check and
# finish last; finish prints the "N passed, N failed" line the runners read.
passed=0
failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
# Counts the PASS:/FAIL: lines of another checker as this script's own,
# echoing everything: count_checks < <(checker ...).
count_checks() {
	local line
	while IFS= read -r line; do
		case $line in
		PASS:*) passed=$((passed + 1)) ;;
		FAIL:*) failed=$((failed + 1)) ;;
		esac
		printf '%s\n' "$line"
	done
}

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

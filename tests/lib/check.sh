# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Counting for test scripts: source it, call pass/fail per check and
# finish last; finish prints the "N passed, N failed" line the runners read.
#
# Two words for a check that does not run, which tests/run-all.sh collects
# and prints with their reasons:
#   skip REASON            an input or tool is missing (name it).  make
#                          check provides every input, so there a skip
#                          fails the suite (KSTACK_REQUIRE_INPUTS=1).
#   not_applicable REASON  the input is there but is not of the kind the
#                          check is for (a scenario without the module, a
#                          dump of a kernel the installed crash cannot
#                          open): the check has nothing to look at.
passed=0
failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "SKIP: $*"; }
not_applicable() { echo "N/A: $*"; }
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
# kstack's own refusal, in its stderr file $1, of a dump whose kallsyms
# tables list text symbols only (a kernel built without
# CONFIG_KALLSYMS_ALL: Debian 12's arm64 6.1): without the vmlinux it has
# no data symbol to start from.  A fact of the dump, said as N/A in
# kstack's words; once kstack reads such a dump alone, the checks run.
text_only_kallsyms() {
	grep -q "kallsyms tables list text symbols only" "$1" 2>/dev/null
}

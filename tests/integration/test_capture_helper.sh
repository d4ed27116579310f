#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The guest's capture (vmcores/guest/vmcore-helper.c) run on this host:
# VMCORE_NO_PROC (a scenario's "capture-proc: no", the huge scenario's
# 100,000 threads) leaves out the proc/ copy and says so in capture.txt and
# on the console line; without it every task of /proc is copied and counted.
# VMCORE_NO_PAUSE keeps it from touching the pvpanic port.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! gcc -O2 -Wall -pthread -o "$tmp/vmcore-helper" "$top/vmcores/guest/vmcore-helper.c" 2>"$tmp/cc.err"; then
	fail "vmcore-helper does not build: $(head -3 "$tmp/cc.err")"
	finish
fi

# No kstack in the guest (a path that does not exist): only the capture's own files.
VMCORE_NO_PAUSE=1 VMCORE_NO_PROC=1 "$tmp/vmcore-helper" capture "$tmp/noproc" /nonexistent \
	>"$tmp/noproc.out" 2>"$tmp/noproc.err"
rc=$?
if [ "$rc" = 0 ] && [ ! -e "$tmp/noproc/proc" ]; then
	pass "VMCORE_NO_PROC: no proc/ folder"
else
	fail "VMCORE_NO_PROC: exit $rc, proc/ holds $(find "$tmp/noproc/proc" -maxdepth 1 2>/dev/null | wc -l) entries"
fi
if grep -qx 'tasks_copied: none (capture-proc: no)' "$tmp/noproc/capture.txt" 2>/dev/null &&
	grep -qx 'CAPTURE-DONE (no proc/ copy)' "$tmp/noproc.out"; then
	pass "VMCORE_NO_PROC: capture.txt and the console line say the copy was skipped"
else
	fail "VMCORE_NO_PROC: '$(grep tasks_copied "$tmp/noproc/capture.txt" 2>/dev/null)', '$(cat "$tmp/noproc.out")'"
fi

VMCORE_NO_PAUSE=1 "$tmp/vmcore-helper" capture "$tmp/proc" /nonexistent \
	>"$tmp/proc.out" 2>"$tmp/proc.err"
rc=$?
copied=$(sed -n 's/^tasks_copied: //p' "$tmp/proc/capture.txt" 2>/dev/null)
n=$(find "$tmp/proc/proc" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)
if [ "$rc" = 0 ] && [ "$n" -gt 0 ] && [ "$copied" = "$n" ] &&
	grep -qx "CAPTURE-DONE $n tasks" "$tmp/proc.out"; then
	pass "without VMCORE_NO_PROC: $n tasks copied and counted"
else
	fail "without VMCORE_NO_PROC: exit $rc, $n folders, tasks_copied '$copied', '$(cat "$tmp/proc.out")'"
fi
finish

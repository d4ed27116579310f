#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack diff of a dump against the live capture made in the same guest
# just before it (#41): kstack diff live/kstack-a.txt --vmcore vmcore
# --vmlinux vmlinux lists exactly the tasks tests/lib/compare_capture.py
# sets aside that it can see changed, and nothing else
# (tests/lib/diff_check.py), and exits 0 when it lists none.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ] || [ ! -s "$dir/live/kstack-a.txt" ]; then
	skip "no vmcore in $dir"
	finish
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC

rc=0
"$kstack" diff "$dir/live/kstack-a.txt" --vmcore "$dir/vmcore" \
	--vmlinux "$dir/vmlinux" --json >"$tmp/diff.json" 2>"$tmp/err" || rc=$?
if [ "$rc" -gt 1 ]; then
	fail "kstack diff exited $rc: $(head -3 "$tmp/err")"
	finish
fi
"$kstack" diff "$dir/live/kstack-a.txt" --vmcore "$dir/vmcore" \
	--vmlinux "$dir/vmlinux" >"$tmp/diff.txt" 2>/dev/null
if [ "$?" = "$rc" ] && grep -q "set aside: running (R)" "$tmp/diff.txt"; then
	pass "the text: exit $rc too, '$(sed -n 3p "$tmp/diff.txt")'"
else
	fail "the text: another exit status than --json's $rc"
fi
if ! "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -a -H --json \
	>"$tmp/dump.json" 2>/dev/null; then
	fail "kstack --vmcore -a -H --json failed"
	finish
fi
count_checks < <(python3 "$top/tests/lib/diff_check.py" "$dir" "$tmp/diff.json" "$rc" "$tmp/dump.json")
finish

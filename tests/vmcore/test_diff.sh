#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack diff of a dump against the live capture made in the same guest
# just before it (#41): kstack diff live/kstack-a.txt --vmcore vmcore
# --vmlinux vmlinux names exactly the tasks tests/lib/compare_capture.py
# sets aside (those in R on neither side), and nothing else, when A is the
# guest's live/kstack-a.json with its switch counts; from kstack-a.txt,
# which has none, those whose signature changed
# (tests/lib/diff_check.py).  It exits 0 when it names none.
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

if ! "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -a -H --json \
	>"$tmp/dump.json" 2>/dev/null; then
	fail "kstack --vmcore -a -H --json failed"
	finish
fi

# One capture as A: the diff's JSON and text agree, and it names what
# compare_capture.py sets aside (diff_check.py says how exactly).
diff_one() {
	local a=$1 rc=0

	"$kstack" diff "$a" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" \
		--json >"$tmp/diff.json" 2>"$tmp/err" || rc=$?
	if [ "$rc" -gt 1 ]; then
		fail "kstack diff ${a##*/} exited $rc: $(head -3 "$tmp/err")"
		return
	fi
	"$kstack" diff "$a" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" \
		>"$tmp/diff.txt" 2>/dev/null
	if [ "$?" = "$rc" ] && grep -q "set aside: running (R)" "$tmp/diff.txt"; then
		pass "${a##*/}: the text exits $rc too, '$(sed -n 3p "$tmp/diff.txt")'"
	else
		fail "${a##*/}: the text exits otherwise than --json's $rc"
	fi
	count_checks < <(python3 "$top/tests/lib/diff_check.py" "$dir" "$a" \
		"$tmp/diff.json" "$rc" "$tmp/dump.json" | sed "s/^\(PASS\|FAIL\): /&${a##*/}: /")
}

diff_one "$dir/live/kstack-a.txt"
# The guest's JSON has the switch counts the tests set tasks aside by.
jrc=$(sed -n 's/^kstack_json_rc: //p' "$dir/live/capture.txt" 2>/dev/null)
if [ -s "$dir/live/kstack-a.json" ] && [ "$jrc" = 0 ]; then
	diff_one "$dir/live/kstack-a.json"
elif [ -n "$jrc" ]; then
	fail "the guest's kstack -a -H --json exited $jrc: $(head -2 "$dir/live/kstack-a.json.err" 2>/dev/null)"
else
	not_applicable "$dir/live has no kstack-a.json (made before the guest captured one): the tasks that ran back into their stack are not checked"
fi
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore without --vmlinux on a dump whose kallsyms tables are
# found by their shape (shared/kernel/image/kallsyms_scan.c): the only
# way before Linux 6.0, forced on newer dumps with
# KSTACK_TEST_KALLSYMS_SCAN=1 (VMCOREINFO's kallsyms lines ignored).
# Every view must print the same bytes as with VMCOREINFO's tables where
# it lists them (test_kdump_standalone.sh compares those with the debug
# vmlinux), else as with the debug vmlinux.  The scan's cost is the
# difference between the two runs of one small view.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	echo "SKIP: no vmcore and vmlinux in $dir"
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -x "$kstack" ]; then
	fail "no kstack binary at $kstack"
	finish
fi
# The scan does not yet decode 7.0's place-relative address table; a 7.x
# dump's VMCOREINFO lists its tables, which test_kdump_standalone reads.
release=$(sed -n 's/^release: //p' "$dir/manifest" 2>/dev/null)
if [ "${release%%.*}" -ge 7 ] 2>/dev/null; then
	not_applicable "the scan does not decode Linux $release's place-relative kallsyms offsets yet (VMCOREINFO lists them)"
	echo "0 passed, 0 failed"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Seconds, to the hundredth, that a command takes (its output discarded).
seconds() {
	local start end
	start=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

scan() { KSTACK_TEST_KALLSYMS_SCAN=1 "$@"; }

# Where the tables came from: the scan must have found them.
scan "$kstack" --vmcore "$dir/vmcore" -p 1 -v >/dev/null 2>"$tmp/v.err"
# -v names the tables' source, then ", text only: ..." on a kallsyms
# without data symbols (the dump's variables are then found in it).
shape='vmlinux symbols \(kallsyms in memory, found by their shape[,)]'
listed_re='vmlinux symbols \(kallsyms in memory[,)]'
if grep -Eq "$shape" "$tmp/v.err"; then
	pass "-v: the symbols came from tables found by their shape" \
		"($(grep -o '[0-9]* vmlinux symbols' "$tmp/v.err"))"
elif text_only_kallsyms "$tmp/v.err"; then
	not_applicable "the dump alone: $(grep -m1 'text symbols only' "$tmp/v.err")"
	finish
else
	fail "the scan found no tables:"
	sed 's/^/  | /' "$tmp/v.err" | head -n 5
	finish
fi

# Without the knob: VMCOREINFO's tables (6.0+), or the scan before 6.0.
"$kstack" --vmcore "$dir/vmcore" -p 1 -v >/dev/null 2>"$tmp/listed.err"
if grep -Eq "$shape" "$tmp/listed.err"; then
	listed=no
	pass "VMCOREINFO lists no kallsyms tables here: the scan found them unasked"
elif grep -Eq "$listed_re" "$tmp/listed.err"; then
	listed=yes
else
	fail "kstack --vmcore without --vmlinux found no symbols:"
	sed 's/^/  | /' "$tmp/listed.err" | head -n 5
	finish
fi

# The reference: VMCOREINFO's tables where it lists them (which
# test_kdump_standalone.sh holds to --vmlinux's bytes), else --vmlinux.
if [ "$listed" = yes ]; then
	ref=(--vmcore "$dir/vmcore")
	refname="VMCOREINFO's tables"
else
	ref=(--vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux")
	refname=--vmlinux
fi
views=("-a -H" "-D" "-a -H -c" "-a -H --json" "-a --folded" "-p 1,2 -H"
	"-K" "-F" "-F --touched" "-K -v" "-F -v")
for opts in "${views[@]}"; do
	# shellcheck disable=SC2086 # the options are words
	TZ=UTC "$kstack" "${ref[@]}" $opts >"$tmp/ref.txt" 2>"$tmp/ref.err"
	rc_ref=$?
	# shellcheck disable=SC2086
	TZ=UTC scan "$kstack" --vmcore "$dir/vmcore" $opts \
		>"$tmp/scan.txt" 2>"$tmp/scan.err"
	rc_scan=$?
	if [ "$rc_ref" -ne "$rc_scan" ]; then
		fail "$opts: exit $rc_scan with scanned tables, $rc_ref with $refname:" \
			"$(head -c 300 "$tmp/scan.err")"
	elif ! cmp -s "$tmp/ref.txt" "$tmp/scan.txt" ||
		{ [ ! -s "$tmp/scan.txt" ] && ! cmp -s "$tmp/ref.err" "$tmp/scan.err"; }; then
		fail "$opts with scanned tables differs from $refname:"
		diff "$tmp/ref.txt" "$tmp/scan.txt" | head -n 10 | sed 's/^/  | /'
	else
		pass "$opts with scanned tables: the bytes of $refname" \
			"($(wc -l <"$tmp/scan.txt") lines, exit $rc_scan)"
	fi
done

# The scan's cost: the same small view from the dump alone, with and
# without it (a note: one run each on a shared machine).
t_scan=$(seconds scan "$kstack" --vmcore "$dir/vmcore" -p 1)
t_ref=$(seconds "$kstack" "${ref[@]}" -p 1)
echo "time: -p 1: ${t_scan}s with the scan, ${t_ref}s with $refname"

finish

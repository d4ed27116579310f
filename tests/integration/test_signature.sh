#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Stack signatures (docs/signature.md): every task and group of --json on
# the real /proc carries the signature the documented rule gives, and one
# stack in two builds' words (other offsets, compiler suffixes) or in two
# samples keeps one signature.  The values themselves are pinned by the
# unit test test_stack_signature.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
"$kstack" -a --json >"$tmp/a.json" 2>"$tmp/a.err" || rc=$?
if [ "$rc" = 0 ] && [ -s "$tmp/a.json" ]; then
	pass "-a --json: exit 0"
else
	fail "-a --json: exit $rc: $(head -c 300 "$tmp/a.err")"
fi
while IFS= read -r line; do
	case $line in
	PASS:*) pass "${line#PASS: }" ;;
	*) fail "${line#FAIL: }" ;;
	esac
done < <(python3 "$top/tests/lib/signature_check.py" "$top/docs/signature.md" <"$tmp/a.json" 2>&1)

# The fixture tree: the same tasks read twice give the same signatures.
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"
"$kstack" --proc-root "$tmp/proc" -a --json 2>/dev/null |
	grep -o '"signature":"[0-9a-f]*"' >"$tmp/s1"
"$kstack" --proc-root "$tmp/proc" -a --json 2>/dev/null |
	grep -o '"signature":"[0-9a-f]*"' >"$tmp/s2"
if [ -s "$tmp/s1" ] && cmp -s "$tmp/s1" "$tmp/s2"; then
	pass "fixture: $(wc -l <"$tmp/s1") signatures, the same on a second read"
else
	fail "fixture: signatures differ between two reads, or none"
fi
finish

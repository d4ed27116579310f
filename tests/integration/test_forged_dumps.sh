#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore on forged and damaged dumps, in the release build too:
# libkdumpfile's use after free in kdump_free() (after a failed open of
# a kdump-compressed file) crashes the release binary and not the ASan
# one, whose quarantine keeps the freed memory (issue 40, items 17-19).
# A signal or a hang is never acceptable: each run must end with an exit
# status below 128 and say why on stderr; under $KSTACK (the ASan build
# in tests/run-all.sh) with no sanitizer report either.
#
#  - the kdump-compressed dumps of tests/fuzz/make-seeds.py diskdump: the
#    damaged ones refused with exit 4 and the message naming the field,
#    the well-formed one, the one cut in its page data and the one cut
#    among its page descriptors (whose size is then said as a least)
#    read by libkdumpfile (what stops them is the forged kernel);
#  - every input of the fuzz_dump_open corpus (tests/fuzz/corpus), which
#    the fuzzer itself runs under ASan only.
#
# KSTACK_RELEASE: the release binary (default build/kstack, which make
# check builds next to build/san).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
release=${KSTACK_RELEASE:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bins=()
for bin in "$kstack" "$release"; do
	[ -x "$bin" ] && [[ " ${bins[*]} " != *" $bin "* ]] && bins+=("$bin")
done
if [ ! -x "$release" ]; then
	skip "no release binary at $release (make)"
fi
if [ "${#bins[@]}" -eq 0 ]; then
	fail "no kstack binary at $kstack"
	finish
fi

# run BIN FILE: kstack's exit status in $rc, its stderr in $tmp/err
run() {
	timeout 60 "$1" --vmcore "$2" -a >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# clean BIN NAME FILE: no signal, no hang, no sanitizer report, a message
clean() {
	local bin=$1 name=$2 report
	if [ "$rc" -eq 124 ]; then
		fail "$name ($bin): still running after 60 s"
	elif [ "$rc" -ge 128 ]; then
		fail "$name ($bin): killed by signal $((rc - 128)): $(head -c 300 "$tmp/err")"
	elif report=$(sanitizer_report "$tmp/err"); then
		fail "$name ($bin): a sanitizer report: $report"
	elif [ "$rc" -eq 0 ] || [ ! -s "$tmp/err" ]; then
		fail "$name ($bin): exit $rc, stderr \"$(head -c 300 "$tmp/err")\": not a refusal"
	else
		return 0
	fi
	return 1
}

# refused NAME WHAT: exit 4 and WHAT on stderr, from each binary
refused() {
	local name=$1 what=$2 bin
	for bin in "${bins[@]}"; do
		run "$bin" "$tmp/dd/$name"
		clean "$bin" "$name" || continue
		if [ "$rc" -ne 4 ]; then
			fail "$name ($bin): exit $rc, not 4: $(head -c 300 "$tmp/err")"
		elif ! grep -qF -- "$what" "$tmp/err"; then
			fail "$name ($bin): exit 4 but no \"$what\" in: $(head -c 300 "$tmp/err")"
		else
			pass "$name ($bin): $(head -n 1 "$tmp/err")"
		fi
	done
}

# read_past NAME WHAT: libkdumpfile opened it (no refusal), WHAT said
read_past() {
	local name=$1 what=$2 bin
	for bin in "${bins[@]}"; do
		run "$bin" "$tmp/dd/$name"
		clean "$bin" "$name" || continue
		if grep -qE 'is refused|cannot read .* as a dump' "$tmp/err"; then
			fail "$name ($bin): not opened: $(head -c 300 "$tmp/err")"
		elif ! grep -qF -- "$what" "$tmp/err"; then
			fail "$name ($bin): no \"$what\" in: $(head -c 300 "$tmp/err")"
		else
			pass "$name ($bin): exit $rc: $(head -n 1 "$tmp/err")"
		fi
	done
}

if ! python3 "$top/tests/fuzz/make-seeds.py" diskdump "$tmp/dd"; then
	fail "tests/fuzz/make-seeds.py diskdump did not make the dumps"
	finish
fi
header_cut='the diskdump header is cut short: the file has'
refused diskdump-kdump-8-bytes "$header_cut 8 of its 464 bytes"
refused diskdump-diskdump-8-bytes "$header_cut 8 of its 464 bytes"
refused diskdump-cut-100 "$header_cut 100 of its 464 bytes"
refused diskdump-cut-8000-notes "it is cut at 8000 bytes, before the end of its note"
refused diskdump-desc-size-4097 "size 4097 is more than block_size 4096"
refused diskdump-desc-size-65536 "size 65536 is more than block_size 4096"
refused diskdump-prstatus-short "the PRSTATUS note at offset 0 has 16 bytes"
read_past diskdump-good "kallsyms"
read_past diskdump-cut-data "physical memory from 0xe000 is missing"
# cut among its page descriptors, the size of the pages after them is not
# known: the file's size is a least, not a total (#40 item 27)
read_past diskdump-cut-descs "it has 20580 of the at least 20968 bytes its headers describe (at most 98%)"

# the corpus: whatever each input is, no signal and a message
for f in "$top"/tests/fuzz/corpus/fuzz_dump_open/*; do
	for bin in "${bins[@]}"; do
		run "$bin" "$f"
		clean "$bin" "corpus $(basename "$f")" &&
			pass "corpus $(basename "$f") ($bin): exit $rc"
	done
done
finish

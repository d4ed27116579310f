#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# file:line on a real dump and its debug vmlinux (Debian's -dbg package):
# kstack --vmcore -l must give, for every frame, the file:line and the
# chain of inlined functions binutils' addr2line -f -i gives for the same
# address (tests/lib/addr2line_check.py); --decode of the dump's plain
# text must print exactly what -l printed; crash's bt form (function at
# runtime address) must decode the same once the KASLR offset that
# kstack --vmcore -v reports is in the address; and the recorded oops in
# tests/fixtures/decode decodes to its .expected text when the dump is of
# that kernel, its module frame (no module debug file) left as it was;
# a vmlinux of another release decodes no frame of that oops, nor of this
# dump's -l; and kstack -l inside crash (KSTACK_SO) prints kstack --vmcore -l's text.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	echo "SKIP: no vmcore in $dir"
	echo "0 passed, 0 failed"
	exit 0
fi
for tool in addr2line nm python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: no $tool"
		echo "0 passed, 0 failed"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vmlinux=$dir/vmlinux
# no module debug files: module frames must stay as they are
export KSTACK_DEBUG_DIR=$tmp/no-debug

TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$vmlinux" -a -H \
	>"$tmp/plain.txt" 2>/dev/null
TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$vmlinux" -a -H -l \
	>"$tmp/lines.txt" 2>"$tmp/lines.err"
rc=$?
# -v's words on stderr (the KASLR offset below); its text carries each
# task's task_struct and CPU, which the comparisons here leave out
TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$vmlinux" -a -H -l -v \
	>/dev/null 2>"$tmp/lines-v.err"
if [ "$rc" -eq 0 ] && grep -q ' (inlined) ' "$tmp/lines.txt"; then
	pass "kstack --vmcore -l exits 0 with inlined functions"
else
	fail "kstack --vmcore -l exited $rc"
	head -5 "$tmp/lines.err"
	finish
fi
count_checks < <(python3 "$top/tests/lib/addr2line_check.py" "$vmlinux" \
	"$tmp/lines.txt" "kstack --vmcore -l")

# Without --vmlinux the dump's own kallsyms name the frames and its
# release names the debug vmlinux, here under KSTACK_DEBUG_DIR.
release=$(sed -n 's/^release: //p' "$dir/manifest" 2>/dev/null)
if [ -n "$release" ]; then
	mkdir -p "$tmp/debug/boot"
	ln -s "$(readlink -f "$vmlinux")" "$tmp/debug/boot/vmlinux-$release"
	KSTACK_DEBUG_DIR=$tmp/debug TZ=UTC "$kstack" --vmcore "$dir/vmcore" -a -H -l \
		>"$tmp/nov.txt" 2>"$tmp/nov.err"
	if text_only_kallsyms "$tmp/nov.err"; then
		not_applicable "--vmcore -l without --vmlinux: $(grep -m1 'text symbols only' "$tmp/nov.err")"
	elif cmp -s "$tmp/lines.txt" "$tmp/nov.txt"; then
		pass "--vmcore -l without --vmlinux: the debug vmlinux of release $release, same text"
	else
		fail "--vmcore -l without --vmlinux differs"
		diff "$tmp/lines.txt" "$tmp/nov.txt" | head -5
		head -3 "$tmp/nov.err"
	fi
fi

# The same lines with and without a running kernel, from the text alone.
"$kstack" --decode --vmlinux "$vmlinux" "$tmp/plain.txt" >"$tmp/decoded.txt" 2>"$tmp/decode.err"
if cmp -s "$tmp/lines.txt" "$tmp/decoded.txt"; then
	pass "--decode of the dump's text prints what -l printed"
else
	fail "--decode differs from -l"
	diff "$tmp/lines.txt" "$tmp/decoded.txt" | head -10
fi
# Grouping is by the decoded text: as many groups as without -l.
if [ "$(grep -c '^Stack:' "$tmp/plain.txt")" -eq "$(grep -c '^Stack:' "$tmp/lines.txt")" ]; then
	pass "-l keeps the groups: $(grep -c '^Stack:' "$tmp/lines.txt") stacks"
else
	fail "-l changed the number of groups"
fi

# crash's bt: "name at RUNTIME_ADDRESS", the KASLR offset from -v.
kaslr=$(sed -n 's/.*KASLR offset \(0x[0-9a-f]*\|0\).*/\1/p' "$tmp/lines-v.err")
python3 - "$vmlinux" "$tmp/plain.txt" "${kaslr:-0}" "$tmp/bt.txt" "$tmp/bt-want.txt" <<'PY'
import re, subprocess, sys
vmlinux, plain, kaslr, bt, want = sys.argv[1:6]
kaslr = int(kaslr, 16)
addr = {}
for l in subprocess.run(['nm', vmlinux], capture_output=True,
                        text=True).stdout.splitlines():
    p = l.split()
    if len(p) == 3 and p[1] in 'tT':
        addr.setdefault(p[2], []).append(int(p[0], 16))
frames = []
for l in open(plain):
    m = re.match(r'^\[<0>\] ([\w.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)$', l.strip())
    if m and len(addr.get(m.group(1), [])) == 1 and m.group(0) not in frames:
        frames.append(m.group(0))
with open(bt, 'w') as b, open(want, 'w') as w:
    for i, f in enumerate(frames):
        m = re.match(r'^\[<0>\] ([\w.$]+)\+0x([0-9a-f]+)/', f)
        a = addr[m.group(1)][0] + int(m.group(2), 16) + kaslr
        b.write(' #%d [ffffc90000a3fd98] %s at %x\n' % (i, m.group(1), a))
        w.write(f + '\n')
PY
"$kstack" --decode --vmlinux "$vmlinux" "$tmp/bt.txt" >"$tmp/bt.out" 2>/dev/null
"$kstack" --decode --vmlinux "$vmlinux" "$tmp/bt-want.txt" >"$tmp/bt-want.out" 2>/dev/null
# bt's form turned back into kstack's: the same lines must come out
sed -E 's/^ #[0-9]+ \[ffffc90000a3fd98\] /[<0>] /; s/^(\[<0>\] [^ ]+) at [0-9a-f]+ /\1 /' \
	"$tmp/bt.out" | sed -E 's/^(\[<0>\] [^ ]+) at [0-9a-f]+$/\1/' >"$tmp/bt.norm"
sed -E 's/^(\[<0>\] [^+ ]+)\+0x[0-9a-f]+\/0x[0-9a-f]+/\1/' "$tmp/bt-want.out" >"$tmp/bt-want.norm"
n=$(wc -l <"$tmp/bt.txt")
if [ -n "$kaslr" ] && [ "$n" -gt 10 ] && cmp -s "$tmp/bt.norm" "$tmp/bt-want.norm"; then
	pass "crash bt form: $n frames at KASLR $kaslr decode like their name+off/size"
else
	fail "crash bt form (KASLR '${kaslr}', $n frames)"
	diff "$tmp/bt.norm" "$tmp/bt-want.norm" | head -10
fi

# A recorded oops of the 6.1.0-56 cloud kernel, when this dump is of it.
fix=$top/tests/fixtures/decode/hung-sync-6.1.0-56-cloud
if [ "$release" = 6.1.0-56-cloud-amd64 ]; then
	"$kstack" --decode --vmlinux "$vmlinux" "$fix.txt" >"$tmp/oops.out" 2>"$tmp/oops.err"
	if cmp -s "$fix.expected" "$tmp/oops.out"; then
		pass "the recorded oops decodes to hung-sync-6.1.0-56-cloud.expected"
	else
		fail "recorded oops"
		diff "$fix.expected" "$tmp/oops.out" | head -10
	fi
	count_checks < <(python3 "$top/tests/lib/addr2line_check.py" "$vmlinux" \
		"$tmp/oops.out" "oops --decode")
	if grep -qx '\[  245.325290\]  brd_submit_bio+0x2c/0x1d0 \[brd\]' "$tmp/oops.out" &&
		[ "$(wc -l <"$tmp/oops.err")" -eq 1 ] && grep -q 'brd (not found' "$tmp/oops.err"; then
		pass "a module frame without debug info is left as it was, one note"
	else
		fail "module frame without debug info: $(cat "$tmp/oops.err")"
	fi
else
	not_applicable "the recorded oops is of 6.1.0-56-cloud-amd64, this dump of '$release'"
fi
# refused VMLINUX REL NOTE: the recorded 6.1.0-56 oops with the vmlinux of
# REL decodes no frame, exits 4, and says NOTE (a grep pattern).
refused() {
	local out=$tmp/refused-$2
	"$kstack" --decode --vmlinux "$1" "$fix.txt" >"$out.out" 2>"$out.err"
	local rc=$?
	if [ "$rc" -eq 4 ] && cmp -s "$fix.txt" "$out.out" && grep -q "$3" "$out.err"; then
		pass "the 6.1.0-56 oops with the vmlinux of $2: no frame decoded, exit 4," \
			"$(grep -o '[0-9]* of [0-9]* frames' "$out.err")"
		return
	fi
	fail "the 6.1.0-56 oops with the vmlinux of $2: rc $rc"
	diff "$fix.txt" "$out.out" | head -5
	cat "$out.err"
}
# Another point release of 6.1: where it shares every size of the oops's
# frames (-57's cloud-amd64 does), the release the oops names is what
# refuses this vmlinux; where a size differs (the rt and arm64 flavours),
# that size does.  Either way no frame is decoded.
case $release in
6.1.0-56-cloud-amd64) ;;
6.1.0-*)
	refused "$vmlinux" "$release" "^kstack: .* is of Linux $release, the kernel of Linux 6.1.0-56-cloud-amd64: [0-9]* of [0-9]* frames match its sizes, but no frame was decoded with it\$\|^kstack: [0-9]* of [0-9]* frames do not match this vmlinux: .* is of Linux $release: no frame decoded with it\$"
	;;
esac
# A log of another kernel (#26): the recorded 6.1.0-56 oops against the
# vmlinux of another kernel series (this dump's, or a neighbouring
# dump's), and this dump's -l against a debug vmlinux of another release:
# frames whose sizes differ prove it, so no frame is decoded, and one note
# names the release the vmlinux is of.  Sizes are the proof checked here,
# and two point releases of one series may share every size (6.1.0-56 and
# 6.1.0-57 do): hence another series, and an x86-64 one.  (Where they do,
# the release the text names is the proof: test_decode.sh's item 13.)
other=
other_rel=
for m in "$dir/manifest" "$dir"/../*/manifest; do
	r=$(sed -n 's/^release: //p' "$m" 2>/dev/null)
	case $r in
	'' | 6.1.0-* | *-arm64) continue ;;
	esac
	if [ -e "${m%/manifest}/vmlinux" ]; then
		other=${m%/manifest}/vmlinux
		other_rel=$r
		break
	fi
done
if [ -z "$other" ]; then
	echo "SKIP: no vmlinux of an x86-64 kernel series other than 6.1 beside $dir"
else
	refused "$other" "$other_rel" "^kstack: [0-9]* of [0-9]* frames do not match this vmlinux: .*, e.g. .* is of Linux $other_rel: no frame decoded with it\$"
fi
if [ -n "$other" ] && [ "$other_rel" != "$release" ]; then
	mkdir -p "$tmp/wrong/boot"
	ln -s "$(readlink -f "$other")" "$tmp/wrong/boot/vmlinux-$release"
	KSTACK_DEBUG_DIR=$tmp/wrong TZ=UTC "$kstack" --vmcore "$dir/vmcore" -a -H -l \
		>"$tmp/wrong.txt" 2>"$tmp/wrong.err"
	if cmp -s "$tmp/plain.txt" "$tmp/wrong.txt" &&
		grep -q "frames do not match this vmlinux: .* is of Linux $other_rel: no frame decoded with it\$" \
			"$tmp/wrong.err"; then
		pass "--vmcore -l with the debug vmlinux of $other_rel: the dump's text, one note"
	else
		fail "--vmcore -l with the debug vmlinux of $other_rel"
		diff "$tmp/plain.txt" "$tmp/wrong.txt" | head -5
		cat "$tmp/wrong.err"
	fi
fi

# kstack -l inside crash: the same libdw code on crash's vmlinux and the
# dump's release, so the very text of kstack --vmcore -l (the note on
# missing debug info, which crash prints among its own messages, apart).
so=${KSTACK_SO:-$top/build/kstack.so}
if ! command -v "${CRASH:-crash}" >/dev/null; then
	echo "SKIP: no crash for kstack -l in crash"
elif [ ! -s "$so" ]; then
	fail "no crash extension at $so"
else
	# shellcheck source=tests/lib/crash.sh
	. "$top/tests/lib/crash.sh"
	TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$vmlinux" -a -H -l \
		>"$tmp/vmcore-l.txt" 2>"$tmp/vmcore-l.err"
	printf '%s\n' "extend $so" "kstack -a -H -l >$tmp/crash-l.out" quit >"$tmp/cmds"
	KSTACK_SO=$so run_crash "$vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/crash.log"
	if sanitizer_report "$tmp/crash.log"; then
		fail "a sanitizer report in crash with $so"
	elif crash_refused "$tmp/crash.log" "$dir"; then
		:
	elif [ ! -s "$tmp/crash-l.out" ]; then
		fail "kstack -a -H -l printed nothing in crash:" \
			"$(grep -m 3 'kstack' "$tmp/crash.log")"
	else
		grep -v '^kstack: ' "$tmp/crash-l.out" >"$tmp/crash-l.txt"
		grep '^kstack: ' "$tmp/crash-l.out" >"$tmp/crash-l.err"
		if [ -s "$tmp/vmcore-l.txt" ] && cmp -s "$tmp/vmcore-l.txt" "$tmp/crash-l.txt"; then
			pass "kstack -a -H -l in crash prints kstack --vmcore -l's text," \
				"$(grep -c ' (inlined) ' "$tmp/crash-l.txt") inlined lines"
		else
			fail "kstack -l in crash differs from kstack --vmcore -l"
			diff "$tmp/vmcore-l.txt" "$tmp/crash-l.txt" | head -10
		fi
		# crash says each stack that ends early as it comes, where
		# --vmcore counts them and -v names them (kernel_sample.h):
		# the count and --vmcore -v's lines stand for crash's
		grep -v ' could not be unwound to the end (-v says which)$' \
			"$tmp/vmcore-l.err" >"$tmp/vmcore-l.rest"
		grep -vE '^kstack: PID [0-9]+: (the stack ends early|no stack): ' \
			"$tmp/crash-l.err" >"$tmp/crash-l.rest"
		grep -E '^kstack: PID [0-9]+: (the stack ends early|no stack): ' \
			"$tmp/crash-l.err" >"$tmp/crash-l.short"
		short=$(sed -n 's/^kstack: \([0-9]*\) stacks\{0,1\} could not be unwound to the end (-v says which)$/\1/p' \
			"$tmp/vmcore-l.err")
		if [ "${short:-0}" != "$(wc -l <"$tmp/crash-l.short")" ]; then
			fail "crash names $(wc -l <"$tmp/crash-l.short") short stacks," \
				"--vmcore -l counts ${short:-0}"
		elif [ -s "$tmp/crash-l.short" ] &&
			TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$vmlinux" -a -H -l -v \
				>/dev/null 2>"$tmp/vmcore-lv.err" &&
			grep -qvxFf "$tmp/vmcore-lv.err" "$tmp/crash-l.short"; then
			fail "crash's short stacks are not those --vmcore -l -v names:" \
				"$(grep -vxFf "$tmp/vmcore-lv.err" "$tmp/crash-l.short" | head -n 1)"
		elif cmp -s "$tmp/vmcore-l.rest" "$tmp/crash-l.rest"; then
			pass "crash says what --vmcore -l says on stderr" \
				"($(wc -l <"$tmp/crash-l.err") note lines, ${short:-0} short stacks)"
		else
			fail "crash's notes differ from --vmcore -l's stderr"
			diff "$tmp/vmcore-l.err" "$tmp/crash-l.err" | head -5
		fi
		count_checks < <(python3 "$top/tests/lib/addr2line_check.py" "$vmlinux" \
			"$tmp/crash-l.txt" "kstack -l in crash")
	fi
fi
finish

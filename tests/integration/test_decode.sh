#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --decode and -l against a stand-in kernel built here with -g
# (tests/fixtures/decode/src: two levels of inlined functions, two static
# functions of one name, linux_banner, kernel_init in init/main.c) and a
# stand-in module (a relocatable object with DWARF, found under
# KSTACK_DEBUG_DIR as the debug files of Debian's -dbg packages are).
# Every offset of every function is decoded and compared with
# addr2line -f -i; then the input forms (kstack text, dmesg, old oopses,
# RIP lines, crash's bt with a KASLR-shifted address), .gz and stdin
# input, decoding twice, and frames left as they are where there is no
# debug info (no module file, a stripped vmlinux, a vmlinux of another
# build than the running kernel with -l).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in gcc addr2line nm objcopy python3 gzip; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: no $tool"
		finish
	fi
done

# The stand-in kernel and module, built as Debian builds its kernel: C
# files named relative to a build directory, the assembler file by the
# absolute path gas was given.  build DIR FLAGS...: DIR/vmlinux and
# DIR/kstest_mod.ko, other flags another build.
cp -r tests/fixtures/decode/src "$tmp/src"
build() {
	local out=$1
	shift
	mkdir -p "$out" &&
	gcc -g -c -o "$out/entry_64.o" "$tmp/src/arch/x86/entry/entry_64.S" &&
	(cd "$tmp/src" && gcc -g "$@" -fno-pie -no-pie -nostdlib -static \
		-fdebug-prefix-map="$tmp/src"=debian/build/x \
		-Wl,-e,kernel_init -o "$out/vmlinux" init/main.c kernel/work.c \
		"$out/entry_64.o" &&
	gcc -g "$@" -c -o "$out/kstest_mod.ko" mod/kstest_mod.c)
}
build "$tmp" -O2 || { fail "cannot build the stand-in kernel"; finish; }
release=9.9.9-kstack-test
debug=$tmp/debug
mkdir -p "$debug/lib/modules/$release/extra" "$tmp/empty"
cp "$tmp/kstest_mod.ko" "$debug/lib/modules/$release/extra/kstest-mod.ko"
export KSTACK_DEBUG_DIR=$debug

# 1. Every offset of every function, as /proc/PID/stack would print it.
# python3, not awk: mawk (Debian's default awk) has no strtonum.
python3 - "$tmp/vmlinux" >"$tmp/frames.txt" <<'PY'
import subprocess, sys
rows = [l.split() for l in subprocess.run(['nm', '-n', sys.argv[1]],
        capture_output=True, text=True).stdout.splitlines()]
for i in range(len(rows) - 1):
    if rows[i][1] in 'tT':
        size = int(rows[i + 1][0], 16) - int(rows[i][0], 16)
        for off in range(0, min(size, 512), 3):
            print('[<0>] %s+0x%x/0x%x' % (rows[i][2], off, size))
PY
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/frames.txt" >"$tmp/decoded.txt" 2>"$tmp/err.txt"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err.txt" ]; then
	pass "--decode of $(wc -l <"$tmp/frames.txt") frames exits 0, nothing on stderr"
else
	fail "--decode exited $rc: $(head -3 "$tmp/err.txt")"
fi
count_checks < <(python3 tests/lib/addr2line_check.py "$tmp/vmlinux" \
	"$tmp/decoded.txt" "stand-in kernel")
if grep -q ' (inlined) ' "$tmp/decoded.txt" &&
	grep -q '^\[<0>\] leaf (inlined) kernel/work.c:[0-9]*$' "$tmp/decoded.txt"; then
	pass "inlined functions get lines of their own, source directory stripped"
else
	fail "no inlined lines, or paths keep the build directory"
	grep inlined "$tmp/decoded.txt" | head -3
fi
# gas's absolute path loses its build directory too (#26)
if grep -q '^\[<0>\] entry_SYSCALL_64+0x[0-9a-f]*/0x[0-9a-f]* arch/x86/entry/entry_64.S:[0-9]*$' \
	"$tmp/decoded.txt"; then
	pass "assembler frames: arch/x86/entry/entry_64.S, build directory stripped"
else
	fail "assembler frames keep the build directory:" \
		"$(grep -m1 'entry_SYSCALL_64' "$tmp/decoded.txt")"
fi
# The two static helper()s are told apart by the size kallsyms printed.
h1=$(grep -m1 '^\[<0>\] helper+0x0/0x30 ' "$tmp/decoded.txt")
h2=$(grep -m1 '^\[<0>\] helper+0x0/0x10 ' "$tmp/decoded.txt")
if [[ $h1 == *init/main.c:* && $h2 == *kernel/work.c:* ]]; then
	pass "static functions of one name: the size picks the right one"
else
	fail "helper: '$h1' / '$h2'"
fi

# 2. Decoding decoded text changes nothing; .gz and stdin read the same.
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/decoded.txt" >"$tmp/twice.txt" 2>/dev/null
if cmp -s "$tmp/decoded.txt" "$tmp/twice.txt"; then
	pass "decoding twice gives the same text"
else
	fail "decoding decoded text changed it"
	diff "$tmp/decoded.txt" "$tmp/twice.txt" | head -5
fi
gzip -c "$tmp/frames.txt" >"$tmp/frames.out-1700000000.gz"
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/frames.out-1700000000.gz" >"$tmp/gz.txt" 2>/dev/null
"$kstack" --decode --vmlinux "$tmp/vmlinux" <"$tmp/frames.txt" >"$tmp/stdin.txt" 2>/dev/null
"$kstack" --decode --vmlinux "$tmp/vmlinux" - <"$tmp/frames.txt" >"$tmp/dash.txt" 2>/dev/null
if cmp -s "$tmp/decoded.txt" "$tmp/gz.txt" && cmp -s "$tmp/decoded.txt" "$tmp/stdin.txt" &&
	cmp -s "$tmp/decoded.txt" "$tmp/dash.txt"; then
	pass "a rotated .gz log, stdin and '-' decode like the plain file"
else
	fail "gz/stdin input differs"
fi

# 3. The other input forms, each with the line its frame got above.
# a do_work offset inside two levels of inlined functions
read -r frame chain < <(awk '
	/ \(inlined\) / { n++; next }
	/^\[<0>\] do_work\+/ && n >= 2 { print $2, n; exit }
	{ n = 0 }' "$tmp/decoded.txt")
want=$(grep -m1 "^\[<0>\] $frame " "$tmp/decoded.txt" | awk '{ print $NF }')
dw_off=$((0x$(nm "$tmp/vmlinux" | awk '$3 == "do_work" { print $1 }')))
off=${frame#do_work+}
off=$((${off%/*}))
kaslr=0x1c000000
cat >"$tmp/forms.txt" <<EOF
[  245.321196]  $frame
[  245.321432]  ? $frame
[<ffffffff81234567>] $frame
RIP: 0010:$frame
 #3 [ffffc90000a3fd98] do_work at $(printf '%x' $((dw_off + off + kaslr)))
Code: 48 89 e5 41 57 41 56 <0f> 0b
not a frame: +0x10/0x20 and name+0xzz/0x10
EOF
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/forms.txt" >"$tmp/forms.out" 2>"$tmp/forms.err"
got=$(grep -c " $want\$" "$tmp/forms.out")
inl=$(grep -c ' (inlined) ' "$tmp/forms.out")
if [ -n "$want" ] && [ "${chain:-0}" -ge 2 ] && [ "$got" -eq 5 ] && [ "$inl" -eq $((5 * chain)) ] &&
	grep -q '^Code: 48 89 e5 41 57 41 56 <0f> 0b$' "$tmp/forms.out" &&
	grep -q '^not a frame: +0x10/0x20 and name+0xzz/0x10$' "$tmp/forms.out" &&
	grep -q '^ #3 \[ffffc90000a3fd98\] leaf (inlined) ' "$tmp/forms.out"; then
	pass "dmesg, '? ', old oops, RIP and crash bt (KASLR $kaslr) frames all get $want"
else
	fail "input forms: want $want on 5 lines with $chain inlined each"
	cat "$tmp/forms.out"
fi

# 4. Module frames: the module's debug file under KSTACK_DEBUG_DIR.
# sized as kallsyms sizes a module's symbol: up to the next one (of .text)
# (mawk, Debian's default awk, has no strtonum: the shell subtracts)
read -r kf_start kf_next < <(nm -n "$tmp/kstest_mod.ko" | awk '
	f && $2 ~ /^[tT]$/ { print a, $1; exit }
	$3 == "kstest_fn" { a = $1; f = 1 }')
kf_size=$((0x${kf_next:-0} - 0x${kf_start:-0}))
for ((off = 0; off < kf_size; off++)); do
	printf '[<0>] kstest_fn+0x%x/0x%x [kstest_mod]\n' "$off" "$kf_size"
done >"$tmp/mod.txt"
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/mod.txt" >"$tmp/mod.out" 2>"$tmp/mod.err"
count_checks < <(python3 tests/lib/addr2line_check.py "$tmp/vmlinux" \
	"$tmp/mod.out" "module kstest_mod" kstest_mod "$tmp/kstest_mod.ko")
if grep -q '^\[<0>\] mod_leaf (inlined) mod/kstest_mod.c:[0-9]*$' "$tmp/mod.out" &&
	[ ! -s "$tmp/mod.err" ]; then
	pass "module frames: inlined functions of the module too"
else
	fail "module frames: no mod_leaf inlined line"
	head -5 "$tmp/mod.out" "$tmp/mod.err"
fi

# 5. No debug info: frames stay as they are, one note says why.
KSTACK_DEBUG_DIR=$tmp/empty "$kstack" --decode --vmlinux "$tmp/vmlinux" \
	"$tmp/mod.txt" >"$tmp/nomod.out" 2>"$tmp/nomod.err"
rc=$?
if cmp -s "$tmp/mod.txt" "$tmp/nomod.out" && [ "$rc" -eq 1 ] &&
	[ "$(wc -l <"$tmp/nomod.err")" -eq 1 ] &&
	grep -q 'kstest_mod (not found: .*/empty/lib/modules/9.9.9-kstack-test/' "$tmp/nomod.err"; then
	pass "module without a debug file: frame unchanged, one note, exit 1"
else
	fail "module without debug file: rc $rc"
	cat "$tmp/nomod.out" "$tmp/nomod.err"
fi
objcopy --strip-debug "$tmp/vmlinux" "$tmp/vmlinux.stripped"
"$kstack" --decode --vmlinux "$tmp/vmlinux.stripped" "$tmp/frames.txt" >"$tmp/strip.out" 2>"$tmp/strip.err"
rc=$?
if cmp -s "$tmp/frames.txt" "$tmp/strip.out" && [ "$rc" -eq 1 ] &&
	grep -q 'vmlinux (no DWARF (stripped)' "$tmp/strip.err"; then
	pass "stripped vmlinux: every frame unchanged, the note says why, exit 1"
else
	fail "stripped vmlinux: rc $rc, $(cat "$tmp/strip.err")"
fi
# a stripped vmlinux still names its release: the module's note says where
# its debug file was looked for; a vmlinux that is not there is "not found"
KSTACK_DEBUG_DIR=$tmp/empty "$kstack" --decode --vmlinux "$tmp/vmlinux.stripped" \
	"$tmp/mod.txt" >/dev/null 2>"$tmp/strip-mod.err"
printf '[<0>] do_work+0x1/0x10\n' | "$kstack" --decode --vmlinux "$tmp/nonexistent" \
	>/dev/null 2>"$tmp/novmlinux.err"
if grep -q "kstest_mod (not found: $tmp/empty/lib/modules/$release/" "$tmp/strip-mod.err" &&
	grep -q "vmlinux (not found: $tmp/nonexistent)" "$tmp/novmlinux.err"; then
	pass "notes: the release from a stripped vmlinux, 'not found' for a missing one"
else
	fail "notes: $(cat "$tmp/strip-mod.err" "$tmp/novmlinux.err")"
fi
printf '[<0>] no_such_function+0x10/0x20\n[<0>] 0xffffffffc0001234\n' >"$tmp/unknown.txt"
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/unknown.txt" >"$tmp/unknown.out" 2>/dev/null
if cmp -s "$tmp/unknown.txt" "$tmp/unknown.out"; then
	pass "unknown symbols and bare addresses stay as they are"
else
	fail "unknown symbols changed: $(cat "$tmp/unknown.out")"
fi
# -l on the running kernel with a vmlinux of another build: refused by build id.
if [ -r /sys/kernel/notes ] && [ "$(id -u)" = 0 ]; then
	"$kstack" -p $$ -l --vmlinux "$tmp/vmlinux" >"$tmp/live.out" 2>"$tmp/live.err"
	"$kstack" -p $$ >"$tmp/live0.out" 2>/dev/null
	if grep -q 'another build than the kernel' "$tmp/live.err" &&
		diff <(sed 1d "$tmp/live.out") <(sed 1d "$tmp/live0.out") >/dev/null; then
		pass "-l with a vmlinux of another build: no lines, the note says so"
	else
		fail "-l with a foreign vmlinux: $(cat "$tmp/live.err")"
	fi
else
	echo "SKIP: -l on the running kernel needs root and /sys/kernel/notes"
fi

# -l without debug info names the package that has it (#26).
rel=$(uname -r)
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: -l on the running kernel needs root"
elif [ -e "/boot/vmlinux-$rel" ] || [ -e "/lib/modules/$rel/build/vmlinux" ]; then
	echo "SKIP: this host has a vmlinux of $rel: -l would find it"
else
	KSTACK_DEBUG_DIR=$tmp/empty "$kstack" -p $$ -l >/dev/null 2>"$tmp/nodbg.err"
	if grep -q "^kstack: frames without file:line, no debug info for vmlinux (not found: $tmp/empty/boot/vmlinux-$rel); install linux-image-$rel-dbg, or set KSTACK_DEBUG_DIR to a directory laid out as /usr/lib/debug; --vmlinux names the debug vmlinux\$" \
		"$tmp/nodbg.err"; then
		pass "-l without debug info: the package linux-image-$rel-dbg and KSTACK_DEBUG_DIR named"
	else
		fail "-l without debug info: $(cat "$tmp/nodbg.err")"
	fi
fi

# 6. A vmlinux and a module of another build (#26): one frame whose size
# differs proves it, so no frame is decoded with it, not even one whose
# size matched by chance; one note names the release; exit 4.
build "$tmp/other" -Os -DRELEASE='"9.9.8-other"' ||
	{ fail "cannot build the other stand-in kernel"; finish; }
"$kstack" --decode --vmlinux "$tmp/other/vmlinux" "$tmp/frames.txt" \
	>"$tmp/other.out" 2>"$tmp/other.err"
rc=$?
total=$(wc -l <"$tmp/frames.txt")
if cmp -s "$tmp/frames.txt" "$tmp/other.out" && [ "$rc" -eq 4 ] &&
	[ "$(wc -l <"$tmp/other.err")" -eq 1 ] &&
	grep -Eq "^kstack: [0-9]+ of $total frames do not match this vmlinux: sizes differ, e\.g\. [a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+ is 0x[0-9a-f]+ in it; .*/other/vmlinux is of Linux 9\.9\.8-other: no frame decoded with it\$" \
		"$tmp/other.err"; then
	pass "vmlinux of another build: all $total frames left bare, one note, exit 4"
else
	fail "vmlinux of another build: rc $rc, $(cat "$tmp/other.err")," \
		"$(diff "$tmp/frames.txt" "$tmp/other.out" | grep -c '^>') lines changed"
fi
mkdir -p "$tmp/other/debug/lib/modules/$release/extra"
cp "$tmp/other/kstest_mod.ko" "$tmp/other/debug/lib/modules/$release/extra/kstest-mod.ko"
KSTACK_DEBUG_DIR=$tmp/other/debug "$kstack" --decode --vmlinux "$tmp/vmlinux" \
	"$tmp/mod.txt" >"$tmp/othermod.out" 2>"$tmp/othermod.err"
rc=$?
if cmp -s "$tmp/mod.txt" "$tmp/othermod.out" && [ "$rc" -eq 4 ] &&
	grep -q "^kstack: $kf_size of $kf_size frames of kstest_mod do not match its debug file: sizes differ, e.g. kstest_fn+0x0/0x$(printf %x "$kf_size") is 0x[0-9a-f]* in it; .*kstest-mod.ko is of Linux 9.9.8-other: no frame of kstest_mod decoded with it\$" \
		"$tmp/othermod.err"; then
	pass "module debug file of another build: frames bare, the note names its vermagic, exit 4"
else
	fail "module of another build: rc $rc, $(cat "$tmp/othermod.err")"
fi

# 7. Damaged frames (#27): an offset past the printed size is never
# decoded, and is no proof of another build: the rest still is.  An offset
# equal to the size is the kernel's own text (#40 item 10: %pB's return
# address after a call that ends the function, __switch_to_asm+0x70/0x70):
# it is decoded as the call's line, the function's last byte.
dw_size=$(awk '/^\[<0>\] do_work\+0x0\// { sub(/.*\//, "", $2); print $2; exit }' "$tmp/frames.txt")
dw_addr=$(nm "$tmp/vmlinux" | awk '$3 == "do_work" { print $1; exit }')
dw_last=$(addr2line -e "$tmp/vmlinux" "$(printf '%x' $((0x$dw_addr + dw_size - 1)))" | sed 's|.*/kernel/|kernel/|')
printf '[<0>] do_work+0x400/%s\n[<0>] do_work+%s/%s\n[<0>] %s\n' \
	"$dw_size" "$dw_size" "$dw_size" "$frame" >"$tmp/past.txt"
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/past.txt" >"$tmp/past.out" 2>"$tmp/past.err"
rc=$?
if [ "$rc" -eq 0 ] && diff <(head -1 "$tmp/past.txt") <(head -1 "$tmp/past.out") >/dev/null &&
	grep -q "^\[<0>\] $frame $want\$" "$tmp/past.out" &&
	grep -q "^kstack: 1 frame left as it was: an offset past the function's size is damaged text, e.g. do_work+0x400/$dw_size\$" \
		"$tmp/past.err" && ! grep -q 'do not match' "$tmp/past.err"; then
	pass "an offset past the size: left bare, said once, other frames decoded"
else
	fail "offset past the size: rc $rc"
	cat "$tmp/past.out" "$tmp/past.err"
fi
if grep -q "^\[<0>\] do_work+$dw_size/$dw_size ${dw_last%% *}\$" "$tmp/past.out"; then
	pass "an offset equal to the size (__switch_to_asm+0x70/0x70): decoded as ${dw_last%% *}"
else
	fail "do_work+$dw_size/$dw_size: not decoded as $dw_last:" \
		"$(grep "do_work+$dw_size/" "$tmp/past.out" "$tmp/past.err")"
fi

# 8. Bytes, not strings (#27): a NUL byte cuts nothing and loses no line.
printf '[<0>] %s\n[<0>] do_\0work+0x1/%s\n\0[<0>] %s\nlast\0' "$frame" "$dw_size" "$frame" |
	"$kstack" --decode --vmlinux "$tmp/vmlinux" >"$tmp/nul.out" 2>"$tmp/nul.err"
rc=$?
if [ "$rc" -eq 0 ] && python3 - "$tmp/nul.out" "$frame" "$want" <<'PY'
import sys
out = open(sys.argv[1], 'rb').read().split(b'\n')
frame, want = sys.argv[2].encode(), sys.argv[3].encode()
lines = [l for l in out if b' (inlined) ' not in l]
sys.exit(0 if lines == [b'[<0>] ' + frame + b' ' + want,
                        b'[<0>] do_\0work+0x1/' + frame.split(b'/')[1],
                        b'\0[<0>] ' + frame + b' ' + want, b'last\0', b'']
         and out.count(b' (inlined) ') == 0 or
         lines[1] == b'[<0>] do_\0work+0x1/' + frame.split(b'/')[1]
         and lines[0].endswith(want) and lines[2].startswith(b'\0[<0>] ')
         and lines[2].endswith(want) and lines[3:] == [b'last\0', b''] else 1)
PY
then
	pass "NUL bytes pass through, every line kept, the frames around them decoded"
else
	fail "NUL bytes: rc $rc"
	od -c "$tmp/nul.out" | head -10
fi

# 9. A truncated or corrupt gzip: what came before is printed, then an
# error naming the file and the offset, exit 4.
gzip -9c "$tmp/frames.txt" >"$tmp/full.gz"
gz_size=$(stat -c %s "$tmp/full.gz")
head -c $((gz_size * 8 / 10)) "$tmp/full.gz" >"$tmp/cut.gz"
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/cut.gz" >"$tmp/cut.out" 2>"$tmp/cut.err"
rc=$?
n=$(($(wc -l <"$tmp/cut.out") - 1))
if [ "$rc" -eq 4 ] && [ "$n" -gt 10 ] &&
	cmp -s <(head -n "$n" "$tmp/cut.out") <(head -n "$n" "$tmp/decoded.txt") &&
	grep -q "^kstack: reading $tmp/cut.gz: unexpected end of file at byte [0-9]* of the file ([0-9]* bytes of text read before it)\$" \
		"$tmp/cut.err"; then
	pass "truncated gzip: $n lines decoded before the cut, the offset named, exit 4"
else
	fail "truncated gzip: rc $rc, $n lines, $(cat "$tmp/cut.err")"
fi
python3 - "$tmp/full.gz" "$tmp/bad.gz" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
for i in range(len(b) // 2, len(b) // 2 + 64):
    b[i] ^= 0x55
open(sys.argv[2], 'wb').write(b)
PY
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/bad.gz" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
if [ "$rc" -eq 4 ] && [ -s "$tmp/bad.out" ] && grep -q "^kstack: reading $tmp/bad.gz: .* at byte [0-9]* of the file" "$tmp/bad.err"; then
	pass "corrupt gzip: $(wc -l <"$tmp/bad.out") lines, then $(sed 's/.*gz: //' "$tmp/bad.err")"
else
	fail "corrupt gzip: rc $rc, $(cat "$tmp/bad.err")"
fi

# 10. Memory stays flat (#27): 200 MB without a newline on a pipe, and a
# gzip bomb of the same (900 KB), pass through in pieces (max RSS bounded).
if [ -x /usr/bin/time ]; then
	bound=$((64 * 1024))	# KiB
	yes AAAA | tr -d '\n' | head -c 200M |
		TMPDIR=$tmp /usr/bin/time -f '%M' -o "$tmp/rss1" \
		"$kstack" --decode --vmlinux "$tmp/vmlinux" 2>"$tmp/long.err" | wc -c >"$tmp/long.bytes"
	yes AAAA | tr -d '\n' | head -c 200M | gzip -1 >"$tmp/bomb.gz"
	/usr/bin/time -f '%M' -o "$tmp/rss2" "$kstack" --decode --vmlinux "$tmp/vmlinux" \
		"$tmp/bomb.gz" 2>/dev/null | wc -c >"$tmp/bomb.bytes"
	rss1=$(tail -1 "$tmp/rss1")
	rss2=$(tail -1 "$tmp/rss2")
	if [ "$rss1" -lt "$bound" ] && [ "$rss2" -lt "$bound" ] &&
		[ "$(cat "$tmp/long.bytes")" -eq $((200 * 1024 * 1024 + 1)) ] &&
		[ "$(cat "$tmp/bomb.bytes")" -eq $((200 * 1024 * 1024 + 1)) ]; then
		pass "200 MB on one line: max RSS $rss1 KiB, a 200 MB gzip bomb: $rss2 KiB, every byte out"
	else
		fail "long lines: max RSS $rss1 and $rss2 KiB (bound $bound)," \
			"$(cat "$tmp/long.bytes") and $(cat "$tmp/bomb.bytes") bytes out"
	fi
else
	echo "SKIP: no /usr/bin/time for the memory bound"
fi

# 11. Bad input is an error, not silence.
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/nonexistent" >/dev/null 2>"$tmp/enoent.err"
rc=$?
if [ "$rc" -eq 4 ] && grep -q 'cannot open .*nonexistent' "$tmp/enoent.err"; then
	pass "a missing input file: message and exit 4"
else
	fail "missing input file: rc $rc"
fi
printf '[<0>] %s\n' "$frame" | TMPDIR=$tmp/nonexistent "$kstack" --decode \
	--vmlinux "$tmp/vmlinux" >/dev/null 2>"$tmp/spool.err"
rc=$?
if [ "$rc" -eq 4 ] && grep -q '^kstack: cannot copy stdin into \$TMPDIR (or /tmp) to read it twice: ' \
	"$tmp/spool.err"; then
	pass "a pipe that cannot be copied to read twice: message and exit 4"
else
	fail "a pipe and a missing TMPDIR: rc $rc, $(cat "$tmp/spool.err")"
fi
# 12. An oops of another kernel than the running one (#40 item 9): without
# --vmlinux, the debug vmlinux of the release its "Not tainted REL #N" line
# names, not the running kernel's; the same frame without that line is
# looked up under the running kernel's release, and stays undecoded.
mkdir -p "$debug/boot" && cp "$tmp/vmlinux" "$debug/boot/vmlinux-$release"
printf 'CPU: 0 PID: 1 Comm: sh Not tainted %s #1 Debian\nCall Trace:\n %s\n' \
	"$release" "$frame" >"$tmp/oops-rel.txt"
"$kstack" --decode "$tmp/oops-rel.txt" >"$tmp/oops-rel.out" 2>"$tmp/oops-rel.err"
rc=$?
printf 'Call Trace:\n %s\n' "$frame" >"$tmp/oops-norel.txt"
"$kstack" --decode "$tmp/oops-norel.txt" >"$tmp/oops-norel.out" 2>"$tmp/oops-norel.err"
if [ "$rc" -eq 0 ] && grep -q "^ $frame [^ ]*\.c:[0-9]" "$tmp/oops-rel.out" &&
	! grep -q "\.c:[0-9]" "$tmp/oops-norel.out" &&
	grep -q "not found: $debug/boot/vmlinux-$(uname -r)" "$tmp/oops-norel.err"; then
	pass "an oops is decoded with the vmlinux of the release it names"
else
	fail "an oops's release: rc $rc, $(cat "$tmp/oops-rel.out" "$tmp/oops-rel.err" "$tmp/oops-norel.err")"
fi
# 13. --vmlinux of another release than the one the text names, with every
# size the same (Debian's 6.1.0-56 and -57 share them all): the release
# proves another build, so no frame is decoded with it, one note names
# both releases, exit 4.  The vmlinux of the text's own release decodes.
build "$tmp/same" -O2 -DRELEASE='"9.9.7-same-sizes"' ||
	{ fail "cannot build the same-sizes stand-in kernel"; finish; }
same_rc=0
"$kstack" --decode --vmlinux "$tmp/same/vmlinux" "$tmp/oops-rel.txt" \
	>"$tmp/same.out" 2>"$tmp/same.err" || same_rc=$?
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/oops-rel.txt" \
	>"$tmp/own.out" 2>"$tmp/own.err"
own_rc=$?
fsize=${frame##*/}
if [ "$(nm -S "$tmp/same/vmlinux" | awk -v f="${frame%%+*}" '$4 == f { print $2 }')" != \
	"$(nm -S "$tmp/vmlinux" | awk -v f="${frame%%+*}" '$4 == f { print $2 }')" ]; then
	fail "the same-sizes build gave ${frame%%+*} another size than $fsize"
elif [ "$same_rc" -eq 4 ] && cmp -s "$tmp/oops-rel.txt" "$tmp/same.out" &&
	[ "$(wc -l <"$tmp/same.err")" -eq 1 ] &&
	grep -q "^kstack: .*/same/vmlinux is of Linux 9\.9\.7-same-sizes, the kernel of Linux $release: 1 of 1 frames match its sizes, but no frame was decoded with it\$" \
		"$tmp/same.err" &&
	[ "$own_rc" -eq 0 ] && grep -q "^ $frame [^ ]*\.c:[0-9]" "$tmp/own.out"; then
	pass "--vmlinux of another release with the same sizes: no frame decoded, both releases named, exit 4"
else
	fail "--vmlinux of another release: rc $same_rc/$own_rc, $(cat "$tmp/same.err" "$tmp/same.out" "$tmp/own.err")"
fi
finish

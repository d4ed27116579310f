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

# The stand-in kernel and module, built where their paths are relative.
cp -r tests/fixtures/decode/src "$tmp/src"
(cd "$tmp/src" && gcc -g -O2 -fno-pie -no-pie -nostdlib -static \
	-Wl,-e,kernel_init -o "$tmp/vmlinux" init/main.c kernel/work.c &&
	gcc -g -O2 -c -o "$tmp/kstest_mod.ko" mod/kstest_mod.c) ||
	{ fail "cannot build the stand-in kernel"; finish; }
release=9.9.9-kstack-test
debug=$tmp/debug
mkdir -p "$debug/lib/modules/$release/extra" "$tmp/empty"
cp "$tmp/kstest_mod.ko" "$debug/lib/modules/$release/extra/kstest-mod.ko"
export KSTACK_DEBUG_DIR=$debug

# 1. Every offset of every function, as /proc/PID/stack would print it.
nm -n "$tmp/vmlinux" | awk '
	{ a[NR] = strtonum("0x" $1); t[NR] = $2; n[NR] = $3 }
	END {
		for (i = 1; i < NR; i++) {
			if (t[i] != "t" && t[i] != "T")
				continue
			size = a[i + 1] - a[i]
			for (off = 0; off < size && off < 512; off += 3)
				printf "[<0>] %s+0x%x/0x%x\n", n[i], off, size
		}
	}' >"$tmp/frames.txt" 2>/dev/null ||
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
kf_size=$((0x$(nm -S "$tmp/kstest_mod.ko" | awk '$4 == "kstest_fn" { print $2 }')))
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

# 6. Bad input is an error, not silence.
"$kstack" --decode --vmlinux "$tmp/vmlinux" "$tmp/nonexistent" >/dev/null 2>"$tmp/enoent.err"
rc=$?
if [ "$rc" -eq 4 ] && grep -q 'cannot open .*nonexistent' "$tmp/enoent.err"; then
	pass "a missing input file: message and exit 4"
else
	fail "missing input file: rc $rc"
fi
finish

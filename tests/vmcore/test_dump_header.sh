#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore on a dump whose ELF header, program headers or
# VMCOREINFO numbers are damaged (issue 27): libkdumpfile trusts them and
# died of SIGFPE (PAGESIZE=0) or SIGSEGV (e_phentsize 0), and e_phnum
# PN_XNUM passed for "the dump has no VMCOREINFO".  Each damaged copy
# must be refused with exit 4 and a message naming the field, with no
# signal and no sanitizer report.  The copies are sparse: the first
# 64 KiB of the vmcore (headers and notes) and a hole to its size.
# Also -v's KASLR offset with KERNELOFFSET missing or garbage (a whole
# sparse copy of the dump).
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ]; then
	echo "SKIP: no vmcore in $dir"
	finish
fi
if [ ! -x "$kstack" ]; then
	fail "no kstack binary at $kstack"
	finish
fi
if [ "$(head -c 4 "$dir/vmcore" | od -An -c | tr -d ' ')" != '177ELF' ]; then
	echo "SKIP: $dir/vmcore is not an ELF dump"
	finish
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
size=$(stat -c %s "$dir/vmcore")
head -c 65536 "$dir/vmcore" >"$tmp/head"

# damaged NAME OFFSET BYTES: a sparse copy with BYTES (printf form) at OFFSET
damaged() {
	cp "$tmp/head" "$tmp/$1"
	# shellcheck disable=SC2059 # BYTES is a printf format on purpose
	printf "$3" | dd of="$tmp/$1" bs=1 seek="$2" conv=notrunc status=none
	truncate -s "$size" "$tmp/$1"
}

# refused NAME WHAT: exit 4, no signal, a message with WHAT
refused() {
	local name=$1 what=$2 rc
	timeout 60 "$kstack" --vmcore "$tmp/$name" -a >"$tmp/$name.out" \
		2>"$tmp/$name.err"
	rc=$?
	if sanitizer_report "$tmp/$name.err"; then
		fail "$name: a sanitizer report: $(grep -m1 -E 'ERROR|runtime error' "$tmp/$name.err")"
	elif [ "$rc" -ne 4 ]; then
		fail "$name: exit $rc, not 4: $(head -c 300 "$tmp/$name.err")"
	elif ! grep -qF -- "$what" "$tmp/$name.err"; then
		fail "$name: exit 4 but no \"$what\" in: $(head -c 300 "$tmp/$name.err")"
	elif grep -q 'has no VMCOREINFO' "$tmp/$name.err"; then
		fail "$name: says the dump has no VMCOREINFO"
	else
		pass "$name: exit 4: $(head -n 1 "$tmp/$name.err")"
	fi
}

# VMCOREINFO's PAGESIZE=4096 made PAGESIZE=0000, PAGESIZE= (empty) and PAGESIZE
off=$(grep -abo 'PAGESIZE=4096' "$tmp/head" | head -n 1 | cut -d: -f1)
if [ -z "$off" ]; then
	fail "no PAGESIZE=4096 in the first 64 KiB of $dir/vmcore"
else
	damaged pagesize0 $((off + 9)) '0000'
	refused pagesize0 "PAGESIZE is \"0000\""
	damaged pagesize-empty $((off + 9)) '\n\n\n\n'
	refused pagesize-empty 'PAGESIZE is ""'
	# a bare "PAGESIZE" line: libkdumpfile takes it as an empty value,
	# a page size of 0 (SIGFPE: found by fuzz_dump_open)
	damaged pagesize-bare $((off + 8)) '\n\n\n\n\n'
	refused pagesize-bare 'PAGESIZE is ""'
	# a power of two, but a page size neither x86-64 nor arm64 has
	damaged pagesize8192 $((off + 9)) '8192'
	refused pagesize8192 'PAGESIZE is "8192", not a page size of'
fi
# Elf64_Ehdr: e_machine at 18; EM_ARM (40) is no architecture kstack reads
damaged machine-arm 18 '\050\0'
refused machine-arm 'e_machine is 40, not an architecture kstack reads'

# a VMCOREINFO key that starts with a dot (libkdumpfile splits keys at
# dots; an empty part crashed it: found by fuzz_dump_open)
off=$(grep -abo 'OSRELEASE=' "$tmp/head" | head -n 1 | cut -d: -f1)
if [ -n "$off" ]; then
	damaged key-dot "$off" '.'
	refused key-dot 'VMCOREINFO has the line ".SRELEASE='
	# the same in a note named with n_namesz 10 (no NUL), which
	# libkdumpfile reads as VMCOREINFO too (SIGSEGV: fuzz_dump_open)
	name=$(grep -abo 'VMCOREINFO' "$tmp/head" | head -n 1 | cut -d: -f1)
	damaged key-dot-namesz10 "$off" '.'
	printf '\012\0\0\0' | dd of="$tmp/key-dot-namesz10" bs=1 seek=$((name - 12)) \
		conv=notrunc status=none
	refused key-dot-namesz10 'VMCOREINFO has the line ".SRELEASE='
	# a NUL inside the text, text after it: libkdumpfile read freed
	# memory (SIGSEGV under ASan: fuzz_dump_open)
	damaged text-after-nul $((off + 3)) '\0'
	refused text-after-nul 'VMCOREINFO has text after a NUL byte at offset 3 '
fi
# Elf64_Ehdr: e_phentsize at 54, e_phnum at 56, e_shoff at 40
damaged phentsize0 54 '\0\0'
refused phentsize0 'e_phentsize is 0'
damaged phnum-xnum 56 '\377\377'
refused phnum-xnum 'e_phnum is PN_XNUM (0xffff)'
damaged phnum0 56 '\0\0'
refused phnum0 'e_phnum is 0'
damaged phoff-far 32 '\0\0\0\0\0\0\1\0'
refused phoff-far 'e_phoff 0x1000000000000'
damaged shoff-far 40 '\0\0\0\0\0\0\1\0'
refused shoff-far 'e_shoff 0x1000000000000'

# -v says where the KASLR offset came from: without KERNELOFFSET (or with
# one that is no number) it is still found, from SYMBOL(_stext) against
# the vmlinux's or x86-64's default (it said "KASLR offset 0"); arm64 has
# no one default, so without a vmlinux -v says it is unknown and why.  A
# whole copy (sparse): libkdumpfile must read the memory too.
kaslr_of() { sed -n 's/.*KASLR offset \(0x[0-9a-f]*\|0\) (\([^)]*\)).*/\1 \2/p' "$1"; }
koff=$(grep -abo 'KERNELOFFSET=' "$tmp/head" | head -n 1 | cut -d: -f1)
machine=$(od -An -tu2 -j18 -N2 "$dir/vmcore" | tr -d ' ')
"$kstack" --vmcore "$dir/vmcore" -p 1 -v >/dev/null 2>"$tmp/kaslr-intact.err"
want=$(kaslr_of "$tmp/kaslr-intact.err" | cut -d' ' -f1)
# a dump whose kallsyms has no data symbols (arm64 6.1) opens only with
# its vmlinux
if [ -z "$want" ] && [ -e "$dir/vmlinux" ]; then
	"$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -p 1 -v \
		>/dev/null 2>"$tmp/kaslr-intact.err"
	want=$(kaslr_of "$tmp/kaslr-intact.err" | cut -d' ' -f1)
fi
if [ -z "$koff" ] || [ -z "$want" ]; then
	fail "no KERNELOFFSET in the notes or no KASLR offset from -v: $(head -c 300 "$tmp/kaslr-intact.err")"
else
	dd if="$dir/vmcore" of="$tmp/whole" bs=1M conv=sparse status=none
	for case in 'X:no KERNELOFFSET' 'KERNELOFFSET=z:not a hex number'; do
		bytes=${case%%:*} what=${case#*:}
		# KERNELOFFSET=... becomes KERNELOFFSEX=... or KERNELOFFSET=z...
		if [ "$bytes" = X ]; then
			printf X | dd of="$tmp/whole" bs=1 seek=$((koff + 11)) conv=notrunc status=none
		else
			printf z | dd of="$tmp/whole" bs=1 seek=$((koff + 13)) conv=notrunc status=none
			printf T | dd of="$tmp/whole" bs=1 seek=$((koff + 11)) conv=notrunc status=none
		fi
		for v in "" "$dir/vmlinux"; do
			[ -n "$v" ] && [ ! -e "$v" ] && continue
			"$kstack" --vmcore "$tmp/whole" ${v:+--vmlinux "$v"} -p 1 -v \
				>/dev/null 2>"$tmp/kaslr.err"
			got=$(kaslr_of "$tmp/kaslr.err")
			if [ -z "$v" ] && grep -qF "list text symbols only" "$tmp/kaslr.err"; then
				not_applicable "$what: the dump alone is refused before -v's offset: $(head -c 200 "$tmp/kaslr.err")"
			elif [ -z "$v" ] && [ "$machine" != 62 ]; then
				if grep -qF "KASLR offset 0 (unknown: VMCOREINFO" "$tmp/kaslr.err" &&
					grep -qF "has no one default _stext" "$tmp/kaslr.err"; then
					pass "$what, e_machine $machine: -v says the KASLR offset is unknown"
				else
					fail "$what, e_machine $machine: -v does not say the offset is unknown: $(head -c 300 "$tmp/kaslr.err")"
				fi
			elif [ "${got%% *}" = "$want" ] && [[ $got == *"$what"* ]]; then
				pass "${v:+--vmlinux, }$what: -v says KASLR offset $got"
			else
				fail "${v:+--vmlinux, }$what: -v says '$got', want $want: $(head -c 300 "$tmp/kaslr.err")"
			fi
		done
	done
	rm -f "$tmp/whole"
fi

# the intact header still opens (nothing refused that libkdumpfile reads)
cp "$tmp/head" "$tmp/intact"
truncate -s "$size" "$tmp/intact"
timeout 60 "$kstack" --vmcore "$tmp/intact" -a >/dev/null 2>"$tmp/intact.err"
if grep -q 'is refused' "$tmp/intact.err"; then
	fail "the intact header is refused: $(head -n 1 "$tmp/intact.err")"
else
	pass "the intact header passes the check: $(head -n 1 "$tmp/intact.err")"
fi
finish

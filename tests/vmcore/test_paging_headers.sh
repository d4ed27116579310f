#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore on an ELF dump whose program headers also list kernel
# virtual pages, as QEMU's dump-guest-memory -p writes one per mapped
# page.  libkdumpfile 0.5.1 looks a kernel address up in those headers
# first, searching them in physical-address order, and takes the first
# that starts at most a page above the address: for the page of the
# first module's list node it took the next page's header and read
# zeros (the bench's many-drgn dump: "the module list breaks off").
# kstack reads kernel memory through the page tables, as crash does.
#
# The dump here is a sparse copy of the basic dump with two headers
# appended: the module page itself, and before it in physical order the
# page above it.  kstack must print and count exactly what it does on
# the intact dump.  crash (without kstack.so) gives the module page's
# address and physical page.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	echo "SKIP: no vmcore in $dir"
	finish
fi
if [ ! -x "$kstack" ]; then
	fail "no kstack binary at $kstack"
	finish
fi
if ! od -A n -c -j 0 -N 4 "$dir/vmcore" | grep -q 'E   L   F'; then
	not_applicable "$dir/vmcore is not an ELF dump (libkdumpfile reads no program headers there)"
	finish
fi
if [ "$(od -A n -t u2 -j 18 -N 2 "$dir/vmcore" | tr -d ' ')" != 62 ]; then
	not_applicable "the headers written here are x86_64's (the page tables kstack reads are the architecture's)"
	finish
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'p/x modules\nquit\n' >"$tmp/cmds"
timeout 600 env TZ=UTC "$CRASH" -s "$dir/vmlinux" "$dir/vmcore" -i "$tmp/cmds" </dev/null \
	>"$tmp/crash.out" 2>&1
if crash_refused "$tmp/crash.out" "$dir"; then
	finish
fi
node=$(sed -n 's/.*next = \(0x[0-9a-f]*\),.*/\1/p' "$tmp/crash.out" | head -n 1)
sym=$(awk '$3 == "modules" { print "0x" $1; exit }' "$dir/System.map" 2>/dev/null)
if [ -z "$node" ]; then
	fail "crash printed no modules.next: $(head -c 300 "$tmp/crash.out")"
	finish
fi
if [ -n "$sym" ] && [ "$node" = "$sym" ]; then
	not_applicable "no module is loaded in this dump (modules.next is the list head)"
	finish
fi
page=$(printf '0x%x' $((node & ~4095)))
printf 'vtop %s\nquit\n' "$page" >"$tmp/cmds"
timeout 600 env TZ=UTC "$CRASH" -s "$dir/vmlinux" "$dir/vmcore" -i "$tmp/cmds" </dev/null \
	>"$tmp/vtop.out" 2>&1
phys=$(awk -v p="${page#0x}" '$1 == p && NF == 2 { print "0x" $2; exit }' "$tmp/vtop.out")
if [ -z "$phys" ]; then
	fail "crash's vtop of $page printed no physical address: $(head -c 300 "$tmp/vtop.out")"
	finish
fi

# the copy: sparse, with the two headers appended past the end of the
# file and e_phoff, e_phnum pointed at the new table
copy=$tmp/vmcore
dd if="$dir/vmcore" of="$copy" bs=1M conv=sparse status=none
if ! python3 - "$copy" "$page" "$phys" <<'PY'
import struct, sys
path, vpage, ppage = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
with open(path, 'r+b') as f:
    eh = bytearray(f.read(64))
    phoff, = struct.unpack_from('<Q', eh, 32)
    phentsize, phnum = struct.unpack_from('<HH', eh, 54)
    if phnum == 0xffff:
        sys.exit('e_phnum is PN_XNUM: not handled here')
    f.seek(phoff)
    table = f.read(phentsize * phnum)
    def offset_of(paddr):
        for i in range(phnum):
            t, _, off, _, pa, fs, _, _ = struct.unpack_from('<IIQQQQQQ', table, i * phentsize)
            if t == 1 and pa <= paddr and paddr + 4096 <= pa + fs:
                return off + paddr - pa
        sys.exit('no PT_LOAD holds physical 0x%x' % paddr)
    # the page above the module page, listed with a lower physical page,
    # so that it comes first in physical order
    low = 0x100000 if ppage > 0x101000 else ppage - 4096
    extra = [(vpage + 4096, low), (vpage, ppage)]
    for va, pa in extra:
        table += struct.pack('<IIQQQQQQ', 1, 4, offset_of(pa), va, pa, 4096, 4096, 0)
    f.seek(0, 2)
    end = f.tell()
    f.write(table)
    struct.pack_into('<Q', eh, 32, end)
    struct.pack_into('<H', eh, 56, phnum + len(extra))
    f.seek(0)
    f.write(eh)
PY
then
	fail "could not write the headers into the copy"
	finish
fi

run() {
	local vmcore=$1 name=$2
	shift 2
	timeout 120 env TZ=UTC "$kstack" --vmcore "$vmcore" --vmlinux "$dir/vmlinux" "$@" \
		>"$tmp/$name.txt" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.rc"
}
run "$dir/vmcore" intact -a -H -v
run "$copy" paged -a -H -v
if sanitizer_report "$tmp/paged.err"; then
	fail "a sanitizer report on the copy: $(head -c 300 "$tmp/paged.err")"
	finish
fi
if [ "$(cat "$tmp/intact.rc")" != 0 ]; then
	fail "the intact dump: exit $(cat "$tmp/intact.rc"): $(head -c 300 "$tmp/intact.err")"
	finish
fi
if [ "$(cat "$tmp/paged.rc")" = 0 ]; then
	pass "the copy opens (headers for $page and the page above it)"
else
	fail "the copy: exit $(cat "$tmp/paged.rc"): $(head -c 300 "$tmp/paged.err")"
fi

# what -v counts: modules read, module problems
counts() { grep -o -E '[0-9]+ modules?( \([0-9]+ unreadable\))?|[0-9]+ module problems?' "$1" | sort | tr '\n' ';'; }
if [ "$(counts "$tmp/paged.err")" = "$(counts "$tmp/intact.err")" ]; then
	pass "modules as on the intact dump: $(counts "$tmp/paged.err")"
else
	fail "modules: $(counts "$tmp/paged.err") on the copy, $(counts "$tmp/intact.err") on the intact dump;" \
		"$(grep -m1 'module list' "$tmp/paged.err")"
fi
if cmp -s "$tmp/intact.txt" "$tmp/paged.txt"; then
	pass "-a -H prints the same bytes as on the intact dump ($(grep -c '^PID:' "$tmp/paged.txt") tasks)"
else
	fail "-a -H differs from the intact dump: $(diff "$tmp/intact.txt" "$tmp/paged.txt" | head -5 | tr '\n' ' ')"
fi
finish

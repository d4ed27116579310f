#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check kstack's file:line against binutils' addr2line on the same address.

usage: addr2line_check.py VMLINUX DECODED [NAME [MODULE MODULE_FILE]]

DECODED is text kstack decoded (-l or --decode): every vmlinux frame
"PREFIX name+0xoff/0xsize FILE:LINE" after its inlined functions
"PREFIX func (inlined) FILE:LINE".  For each distinct frame the address is
the symbol's address in `nm -n VMLINUX` plus the offset (of several
symbols of one name, the one whose distance to the next symbol is the
printed size, as kallsyms sizes it), and `addr2line -f -i -a` on that
address must give the same functions and FILE:LINE, in the same order,
once the build's source directory (decode_stacktrace.sh's base path, the
directory of kernel_init's init/main.c; for assembler files the directory
of entry_SYSCALL_64's arch/x86/entry/entry_64.S) and "(discriminator N)"
are taken off.  Frames that got no line must be ones addr2line cannot place either.
With MODULE, the frames "name+0xoff/0xsize [MODULE]" are checked against
MODULE_FILE, the module's debug file (a relocatable object with one .text);
the source directory is still VMLINUX's.

Prints PASS:/FAIL: lines; exits 1 if anything failed.
"""
import re
import subprocess
import sys

FRAME_RE = re.compile(r'^(.*?)([A-Za-z0-9_.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)'
                      r'( \[[^\]]+\])?( (\S+:\d+))?$')
INLINE_RE = re.compile(r'^(.*?)(\S+) \(inlined\) (\S+:\d+)$')


def nm_symbols(vmlinux):
    by_name, addrs = {}, []
    out = subprocess.run(['nm', '-n', vmlinux], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        addr = int(parts[0], 16)
        addrs.append(addr)
        by_name.setdefault(parts[2], []).append(addr)
    return by_name, sorted(set(addrs))


def next_addr(addrs, addr):
    lo, hi = 0, len(addrs)
    while lo < hi:
        mid = (lo + hi) // 2
        if addrs[mid] <= addr:
            lo = mid + 1
        else:
            hi = mid
    return addrs[lo] if lo < len(addrs) else None


def address(by_name, addrs, name, off, size):
    cands = by_name.get(name, [])
    if len(cands) > 1:
        sized = [a for a in cands if next_addr(addrs, a) == a + size]
        cands = sized or cands
    return cands[0] + off if cands else None


def parse_decoded(path, module):
    """Frame text -> (inlined [(func, loc)], loc or None), first seen."""
    frames, pending = {}, []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = INLINE_RE.match(line)
            if m:
                pending.append((m.group(2), m.group(3)))
                continue
            m = FRAME_RE.match(line)
            tag = ' [%s]' % module if module else None
            if m and m.group(5) == tag:
                key = (m.group(2), int(m.group(3), 16), int(m.group(4), 16))
                frames.setdefault(key, (pending, m.group(7)))
            pending = []
    return frames


def addr2line(vmlinux, addrs):
    """address -> [(func, loc)] as addr2line -f -i -a prints them."""
    inp = ''.join('%x\n' % a for a in addrs)
    out = subprocess.run(['addr2line', '-f', '-i', '-a', '-e', vmlinux],
                         input=inp, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    res, cur, i = {}, None, 0
    while i < len(out):
        if out[i].startswith('0x'):
            cur = int(out[i], 16)
            res[cur] = []
            i += 1
            continue
        func, loc = out[i], out[i + 1] if i + 1 < len(out) else '??:0'
        loc = re.sub(r' \(discriminator \d+\)$', '', loc)
        res[cur].append((func, loc))
        i += 2
    return res


def base_path(vmlinux, by_name, sym='kernel_init', tail='init/main.c'):
    init = by_name.get(sym, [None])[0]
    if init is None:
        return ''
    # arm64's first instruction (BTI, PACIASP) may have no line: the next ones
    tries = [init + off for off in (0, 4, 8, 12, 16)]
    got = addr2line(vmlinux, tries)
    for a in tries:
        loc = got.get(a, [('', '')])[0][1]
        if '/' + tail + ':' in loc or loc.startswith(tail + ':'):
            return loc[:loc.rindex(tail + ':')]
    return ''


def main():
    vmlinux, decoded = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else 'kstack'
    module = sys.argv[4] if len(sys.argv) > 4 else None
    by_name, addrs = nm_symbols(vmlinux)
    base = base_path(vmlinux, by_name)
    # assembler files keep the absolute path gas was given
    asm_base = (base_path(vmlinux, by_name, 'entry_SYSCALL_64',
                          'arch/x86/entry/entry_64.S') or
                base_path(vmlinux, by_name, 'el0t_64_sync',
                          'arch/arm64/kernel/entry.S'))
    obj = vmlinux
    if module:
        obj = sys.argv[5]
        by_name, addrs = nm_symbols(obj)
    frames = parse_decoded(decoded, module)
    where = {}
    for key in frames:
        a = address(by_name, addrs, *key)
        if a is not None:
            where[key] = a
    want = addr2line(obj, list(where.values()))

    def strip(loc):
        for b in (base, asm_base):
            if b and loc.startswith(b):
                return loc[len(b):]
        return loc

    failed = checked = unplaced = bare = 0
    for key, addr in sorted(where.items()):
        inl, loc = frames[key]
        chain = [(f, strip(l)) for f, l in want.get(addr, [])]
        text = '%s+0x%x/0x%x' % key
        # an offset at or past the printed size (a call that is the
        # function's last instruction returns to its end): kstack leaves
        # such a frame bare by rule, while addr2line places the next bytes
        if key[2] and key[1] >= key[2]:
            if loc or inl:
                failed += 1
                print('FAIL: %s: %s is at or past its size, yet got %s' %
                      (name, text, loc))
            else:
                bare += 1
            continue
        # "??" or "file.c:?": addr2line has no line there either (for
        # the latter it names the ELF symbol table's FILE symbol)
        if not chain or chain[-1][1].startswith('??') or chain[-1][1].endswith(':?'):
            unplaced += 1
            if loc:
                failed += 1
                print('FAIL: %s: %s gave %s, addr2line places nothing' %
                      (name, text, loc))
            continue
        got = inl + [(key[0], loc)]
        # the frame's own line names the symbol, not DWARF's function name
        exp = chain[:-1] + [(key[0], chain[-1][1])]
        checked += 1
        if got != exp:
            failed += 1
            if failed <= 10:
                print('FAIL: %s: %s at %#x: %s, addr2line %s' %
                      (name, text, addr, got, exp))
    if checked and not failed:
        print('PASS: %s: %d frames give addr2line -f -i\'s file:line and '
              'inline chain (%d unplaced by both, %d at or past their size '
              'left bare)' % (name, checked, unplaced, bare))
    elif not checked:
        print('FAIL: %s: no frame to check in %s' % (name, decoded))
        failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

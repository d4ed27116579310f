#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Binary seeds for the harnesses whose input is kernel memory.

  make-seeds.py orc FIXTURE OUTDIR [MAX_TASKS]
      tests/fixtures/orc's recorded stacks, one task per seed, in the
      form tests/fuzz/fuzz_orc.c reads (its header comment)
  make-seeds.py kallsyms NM_OUTPUT OUTDIR
      kallsyms tables laid out as scripts/kallsyms.c lays them out, of the
      symbols nm -n lists, in each of the three address encodings, in the
      form tests/fuzz/fuzz_kallsyms_mem.c reads
  make-seeds.py kallsyms-scan NM_OUTPUT OUTDIR
      a kernel image from _stext with its kallsyms tables in each of
      scripts/kallsyms.c's orders (up to 6.3, with 6.2's seqs_of_names,
      and 6.4 on), for tests/fuzz/fuzz_kallsyms_scan.c
  make-seeds.py frames NM_OUTPUT MODULE_NM_S_OUTPUT OUTFILE
      every function nm -n lists at a few offsets, as /proc/PID/stack
      prints them, the other forms of a frame, and the module's, for
      tests/fuzz/fuzz_decode.c
  make-seeds.py dump OUTFILE
      a small x86-64 ELF core (VMCOREINFO, a PRSTATUS note, one PT_LOAD
      past the file's end) for tests/fuzz/fuzz_dump_open.c
  make-seeds.py diskdump OUTDIR
      a small kdump-compressed dump (makedumpfile's format, 16 zlib pages)
      and forged copies of it that crashed libkdumpfile 0.5.1 (issue 40):
      for tests/fuzz/fuzz_dump_open.c and
      tests/integration/test_forged_dumps.sh
"""
import zlib
import os
import struct
import sys

THREAD_SIZE = 16384
MODULES_ADDR = 0xffffffff83000000
MOD_STRUCT = 0xffff888000100000
SYMBOLS = ('_stext', '_etext', '_sinittext', '_einittext',
           '__sched_text_start', '__sched_text_end', '__lock_text_start',
           '__lock_text_end', 'ret_from_fork', 'return_to_handler',
           'arch_rethook_trampoline', 'modules')
TASK_MEMBERS = ('__state', 'curr_ret_stack', 'ret_stack', 'rethooks')


def orc_entry(e):
    """struct orc_entry of Linux 6.1: sp_reg:4 bp_reg:4 type:2 end:1."""
    _, sp_off, bp_off, sp_reg, bp_reg, typ, end = e
    flags = sp_reg | bp_reg << 4 | typ << 8 | end << 10
    return struct.pack('<hhH', sp_off, bp_off, flags)


def orc_tables(entries, ip_addr):
    """Sorted and without repeats, as the kernel searches them."""
    entries = sorted(set(entries))
    ips = b''.join(struct.pack('<i', e[0] - (ip_addr + 4 * i))
                   for i, e in enumerate(entries))
    return len(entries), ips, b''.join(orc_entry(e) for e in entries)


def read_fixture(path):
    fx = {'symbol': {}, 'member': {}, 'orc': [], 'module': [], 'morc': {},
          'task': [], 'mem': []}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith('#'):
                continue
            if w[0] == 'symbol':
                fx['symbol'][w[1]] = int(w[2], 16)
            elif w[0] == 'member' and w[1] == 'task_struct':
                fx['member'][w[2]] = int(w[3])
            elif w[0] == 'orc':
                fx['orc'].append((int(w[1], 16),) + tuple(map(int, w[2:8])))
            elif w[0] == 'module':
                fx['module'].append((w[1],) + tuple(int(x, 16) for x in w[2:5]))
            elif w[0] == 'morc':
                fx['morc'].setdefault(w[1], []).append(
                    (int(w[2], 16),) + tuple(map(int, w[3:9])))
            elif w[0] == 'task':
                task = int(w[4], 16) if len(w) > 4 else 0
                fx['task'].append((int(w[2], 16), int(w[3], 16), task))
            elif w[0] == 'mem':
                addr, data = int(w[1], 16), bytes.fromhex(w[2])
                last = fx['mem'][-1] if fx['mem'] else None
                if last and last[0] + len(last[1]) == addr:
                    fx['mem'][-1] = (last[0], last[1] + data)
                else:
                    fx['mem'].append((addr, data))
    return fx


def module_segments(fx):
    """Recorded modules on a `modules` list; struct module as in fuzz_orc.c."""
    segs, nxt = [], MODULES_ADDR
    for i in reversed(range(len(fx['module']))):
        name, base, text_end, _ = fx['module'][i]
        ip_addr = base + 0x10000000
        orc_addr = ip_addr + 0x100000
        n, ips, orcs = orc_tables(fx['morc'].get(name, []), ip_addr)
        mod = MOD_STRUCT + 0x400 * i
        m = bytearray(256)
        struct.pack_into('<Q', m, 8, nxt)
        m[24:24 + len(name)] = name.encode()
        struct.pack_into('<IxxxxQQ', m, 80, n, ip_addr, orc_addr)
        struct.pack_into('<QII', m, 112, base, orc_addr + 6 * n - base,
                         text_end - base)
        segs += [(mod, bytes(m)), (ip_addr, ips), (orc_addr, orcs)]
        nxt = mod + 8
    if segs:
        segs.append((MODULES_ADDR, struct.pack('<Q', nxt)))
    return segs


def orc_seeds(path, outdir, max_tasks):
    fx = read_fixture(path)
    first = min(e[0] for e in fx['orc'])
    ip_addr = (first & ~0xfff) - 0x10000000
    orc_addr = ip_addr + 0x100000
    n, ips, orcs = orc_tables(fx['orc'], ip_addr)
    syms = dict(fx['symbol'])
    mods = module_segments(fx)
    if mods:
        syms['modules'] = MODULES_ADDR
    stacks = [(t[0], t[0] + THREAD_SIZE) for t in fx['task']]
    base = os.path.splitext(os.path.basename(path))[0]
    for stack, sp, task in fx['task'][:max_tasks]:
        hdr = struct.pack('<BIQQ', 0, n, ip_addr, orc_addr)
        hdr += b''.join(struct.pack('<Q', syms.get(s, 0)) for s in SYMBOLS)
        hdr += b''.join(struct.pack('<H', fx['member'].get(m, 0))
                        for m in TASK_MEMBERS)
        hdr += struct.pack('<QQQQQ', stack, sp, task, 0, 0)
        segs = [(ip_addr, ips), (orc_addr, orcs)] + mods
        # this task's stack, and what no task's stack holds (task_structs)
        segs += [(a, d) for a, d in fx['mem']
                 if stack <= a < stack + THREAD_SIZE or
                 not any(lo <= a < hi for lo, hi in stacks)]
        body = b''.join(struct.pack('<QI', a, len(d)) + d for a, d in segs)
        name = '%s/%s-%x' % (outdir, base, sp)
        with open(name, 'wb') as f:
            f.write(hdr + body)


def tokens_for(names):
    """scripts/kallsyms.c's idea: unused byte values stand for frequent pairs."""
    used = set(b for nm in names for b in nm.encode())
    pairs = {}
    for nm in names:
        for i in range(len(nm) - 1):
            pairs[nm[i:i + 2]] = pairs.get(nm[i:i + 2], 0) + 1
    free = [b for b in range(1, 256) if b not in used]
    best = sorted(pairs, key=lambda p: -pairs[p])[:len(free)]
    table = {b: chr(b) for b in used}
    table.update(zip(free, best))
    return table


def encode_name(name, table):
    rev = {v: k for k, v in table.items()}
    out, i = [], 0
    while i < len(name):
        if name[i:i + 2] in rev and len(name[i:i + 2]) == 2:
            out.append(rev[name[i:i + 2]])
            i += 2
        else:
            out.append(rev[name[i]])
            i += 1
    n = len(out)
    head = bytes([0x80 | (n & 0x7f), n >> 7]) if n >= 0x80 else bytes([n])
    return head + bytes(out)


def kallsyms_seeds(nm_path, outdir):
    base = 0xffffffff81000000
    syms = [('D', 'fixed_percpu_data', 0x0), ('T', '_stext', base)]
    with open(nm_path) as f:
        rows = [l.split() for l in f if len(l.split()) == 3]
    text = [r for r in rows if r[1] in 'tT' and r[2][0] != '.']
    for i, (_, typ, name) in enumerate(text):
        syms.append((typ, name, base + 0x1000 * (i + 1)))
    etext = base + 0x1000 * (len(text) + 2)
    big = ''.join(chr(97 + i % 26) for i in range(400))
    syms += [('t', big, etext - 0x800), ('T', '_etext', etext),
             ('T', '_sinittext', etext + 0x1000),
             ('T', '_einittext', etext + 0x2000),
             ('D', 'linux_banner', base + 0x1000000),
             ('d', 'ext', base + 0x1000100), ('B', '_end', base + 0x2000000)]
    names = [t + n for t, n, _ in syms]
    table = tokens_for(names)
    tok_table, tok_index = b'', b''
    for i in range(256):
        tok_index += struct.pack('<H', len(tok_table))
        tok_table += table.get(i, '?').encode() + b'\0'
    for mode in ('abs_percpu', 'relative', 'absolute'):
        s = syms[1:] if mode == 'relative' else syms
        blob = bytearray(struct.pack('<I', len(s)).ljust(8, b'\0'))
        names_off = len(blob)
        blob += b''.join(encode_name(t + n, table) for t, n, _ in s)
        blob += b'\0' * (-len(blob) % 8)
        tt_off = len(blob)
        blob += tok_table + b'\0' * (-len(tok_table) % 8)
        ti_off = len(blob)
        blob += tok_index
        addr_off = len(blob)
        if mode == 'absolute':
            blob += b''.join(struct.pack('<Q', a) for _, _, a in s)
        elif mode == 'relative':
            blob += b''.join(struct.pack('<I', a - base) for _, _, a in s)
        else:
            blob += b''.join(struct.pack('<i', a if a < base else base - 1 - a)
                             for _, _, a in s)
        blob += b'\0' * (-len(blob) % 8)
        rel_off = len(blob)
        blob += struct.pack('<Q', base)
        hdr = struct.pack('<BQIIIIII', mode == 'absolute', base, names_off, 0,
                          tt_off, ti_off, addr_off, rel_off)
        with open('%s/%s' % (outdir, mode), 'wb') as f:
            f.write(hdr + bytes(blob))


def scan_image(text, order, data):
    """The image from _stext: a little text, then the tables in order."""
    base = 0xffffffff81000000
    syms = [('T', '_stext', base)]
    # 8 bytes a function: _etext stays below init_uts_ns, the image's end
    syms += [('T', n, base + 8 * (i + 1)) for i, n in enumerate(text)]
    syms += [('T', '_etext', base + 8 * (len(text) + 1)),
             ('D', 'init_uts_ns', base + data),
             ('D', 'swapper_pg_dir', base + data + 0x1000),
             ('B', '_end', base + data + 0x10000)]
    names = [t + n for t, n, _ in syms]
    table = tokens_for(names)
    n = len(syms)
    img = bytearray(b'\xcc' * 0x100)

    def align():
        img.extend(b'\0' * (-len(img) % 8))

    for kind in order:
        align()
        if kind == 'num':
            img.extend(struct.pack('<I', n))
        elif kind == 'names':
            start, marks = len(img), []
            for i, nm in enumerate(names):
                if i % 256 == 0:
                    marks.append(len(img) - start)
                img.extend(encode_name(nm, table))
            align()
            img.extend(b''.join(struct.pack('<I', m) for m in marks))
        elif kind == 'tokens':
            tt, index = b'', b''
            for i in range(256):
                index += struct.pack('<H', len(tt))
                tt += table.get(i, '?').encode() + b'\0'
            img.extend(tt)
            align()
            img.extend(index)
        elif kind == 'offsets':
            img.extend(b''.join(struct.pack('<I', a - base) for _, _, a in syms))
            align()
            img.extend(struct.pack('<Q', base))
        elif kind == 'seqs':
            img.extend(b''.join(struct.pack('>I', i)[1:] for i in range(n)))
    return bytes(img)


def scan_seeds(nm_path, outdir):
    """Symbols enough for three markers; init_uts_ns just past the image."""
    with open(nm_path) as f:
        rows = [l.split() for l in f if len(l.split()) == 3]
    text = [r[2] for r in rows if r[1] in 'tT' and r[2][0] != '.']
    text += ['fn_%d' % i for i in range(600 - len(text))]
    orders = {'old': ('offsets', 'num', 'names', 'tokens'),
              'old-seqs': ('offsets', 'num', 'names', 'seqs', 'tokens'),
              'new': ('num', 'names', 'tokens', 'offsets', 'seqs')}
    for name, order in orders.items():
        size = len(scan_image(text, order, 0))
        data = size + (-size % 4096)
        assert 8 * (len(text) + 1) < data
        img = scan_image(text, order, data)
        with open('%s/%s' % (outdir, name), 'wb') as f:
            f.write(struct.pack('<II', data, data + 0x1000) + img)


def frames(nm_path, mod_nm_path, out):
    with open(nm_path) as f:
        rows = [l.split() for l in f if len(l.split()) == 3]
    addr = {r[2]: int(r[0], 16) for r in rows}
    size_of = {rows[i][2]: int(rows[i + 1][0], 16) - int(rows[i][0], 16)
               for i in range(len(rows) - 1)}
    with open(out, 'w') as f:
        for i in range(len(rows) - 1):
            if rows[i][1] not in 'tT':
                continue
            size = int(rows[i + 1][0], 16) - int(rows[i][0], 16)
            for off in range(0, min(size, 64), 13):
                f.write('[<0>] %s+0x%x/0x%x\n' % (rows[i][2], off, size))
        # the other forms --decode reads: dmesg, old oopses, RIP, crash's bt
        frame = 'do_work+0x5/0x%x' % size_of.get('do_work', 0x10)
        f.write('[  245.321196]  %s\n[  245.321432]  ? %s\n'
                '[<ffffffff81234567>] %s\nRIP: 0010:%s\n'
                % (frame, frame, frame, frame))
        f.write(' #3 [ffffc90000a3fd98] do_work at %x\n'
                'not a frame: +0x10/0x20 and name+0xzz/0x10\n'
                % (addr.get('do_work', 0) + 5 + 0x1c000000))
    with open(mod_nm_path) as f:
        for l in f:
            w = l.split()
            if len(w) == 4 and w[3] == 'kstest_fn':
                with open(out, 'a') as o:
                    o.write('[<0>] kstest_fn+0x3/0x%x [kstest_mod]\n'
                            '[<0>] kstest_fn+0x3/0x%x [other_mod]\n'
                            % (int(w[1], 16), int(w[1], 16)))


def dump_seed(out):
    """A small x86-64 ELF core: VMCOREINFO and a PRSTATUS note, one PT_LOAD."""
    info = (b'OSRELEASE=9.9.9-kstack-test\nPAGESIZE=4096\n'
            b'SYMBOL(_stext)=ffffffff81000000\nKERNELOFFSET=0\n'
            b'SYMBOL(kallsyms_names)=ffffffff82000000\n'
            b'NUMBER(pgtable_l5_enabled)=0\n')

    def note(name, ntype, desc):
        name += b'\0'
        pad = lambda b: b + b'\0' * (-len(b) % 4)
        return struct.pack('<III', len(name), len(desc), ntype) + \
            pad(name) + pad(desc)

    notes = note(b'CORE', 1, b'\0' * 336) + note(b'VMCOREINFO', 0, info)
    phoff, nph = 64, 2
    noff = phoff + 56 * nph
    load = noff + len(notes)
    eh = struct.pack('<16sHHIQQQIHHHHHH', b'\x7fELF\x02\x01\x01',
                     4, 62, 1, 0, phoff, 0, 0, 64, 56, nph, 0, 0, 0)
    ph = struct.pack('<IIQQQQQQ', 4, 0, noff, 0, 0, len(notes), len(notes), 0)
    ph += struct.pack('<IIQQQQQQ', 1, 7, load, 0xffffffff81000000,
                      0x1000000, 0x100000, 0x100000, 0)
    with open(out, 'wb') as f:
        f.write(eh + ph + notes + b'\0' * 4096)


DD_BLOCK = 4096
DD_PAGES = 16


def diskdump_seed():
    """makedumpfile's layout, header_version 6: header, sub-header and
    notes (two blocks), two bitmaps, page descriptors, zlib pages.  The
    notes cross the page at 8192, so a copy cut at 8000 ends inside them
    with the page they go on to past its end (mapped: SIGBUS)."""
    info = (b'OSRELEASE=9.9.9-kstack-test\nPAGESIZE=4096\n'
            b'SYMBOL(_stext)=ffffffff81000000\nKERNELOFFSET=0\n')

    def note(name, ntype, desc):
        name += b'\0'
        pad = lambda b: b + b'\0' * (-len(b) % 4)
        return struct.pack('<III', len(name), len(desc), ntype) + \
            pad(name) + pad(desc)

    notes = note(b'CORE', 1, b'\0' * 336) + note(b'VMCOREINFO', 0, info)
    note_off = 2 * DD_BLOCK - (len(notes) // 2 & ~7)
    info_off = note_off + len(note(b'CORE', 1, b'\0' * 336)) + 12 + 12
    uts = b''.join(s.ljust(65, b'\0') for s in (
        b'Linux', b'kstack-test', b'9.9.9-kstack-test', b'#1', b'x86_64', b''))
    hdr = struct.pack('<8si390s6xqqIiiIIIIIIiQ', b'KDUMP   ', 6, uts,
                      1700000000, 0, 1, DD_BLOCK, 2, 2, DD_PAGES, DD_PAGES,
                      0, 0, 0, 1, 0)
    sub = struct.pack('<QiiQQQQQQQQQQQ', 0, 31, 0, 0, 0, info_off, len(info),
                      note_off, len(notes), 0, 0, 0, 0, DD_PAGES)
    sub = sub.ljust(note_off - DD_BLOCK, b'\0') + notes
    bits = (b'\xff' * (DD_PAGES // 8)).ljust(DD_BLOCK, b'\0')
    page = zlib.compress(b'\0' * DD_BLOCK)
    data = 5 * DD_BLOCK + 24 * DD_PAGES
    descs = b''.join(struct.pack('<QIIQ', data + i * len(page), len(page), 1, 0)
                     for i in range(DD_PAGES))
    return (hdr.ljust(DD_BLOCK, b'\0') + sub.ljust(2 * DD_BLOCK, b'\0') +
            bits + bits + descs + page * DD_PAGES)


def prstatus_short(good):
    """The CORE PRSTATUS note of 16 bytes: libkdumpfile's open fails."""
    note_off = struct.unpack_from('<Q', good, DD_BLOCK + 48)[0]
    dump = bytearray(good)
    struct.pack_into('<I', dump, note_off + 4, 16)
    return bytes(dump)


def diskdump_seeds(outdir):
    """The dump, and the forged copies of issue 40, items 17 to 19."""
    good = diskdump_seed()
    desc0 = 5 * DD_BLOCK

    def desc_size(size):
        return good[:desc0 + 8] + struct.pack('<I', size) + good[desc0 + 12:]

    seeds = {
        'diskdump-good': good,
        'diskdump-kdump-8-bytes': b'KDUMP   ',
        'diskdump-diskdump-8-bytes': b'DISKDUMP',
        'diskdump-cut-100': good[:100],
        'diskdump-cut-8000-notes': good[:8000],
        'diskdump-cut-data': good[:len(good) - 40],
        # inside the page descriptors: the rest of the file's size unknown
        'diskdump-cut-descs': good[:desc0 + 100],
        'diskdump-desc-size-4097': desc_size(4097),
        'diskdump-desc-size-65536': desc_size(65536),
        'diskdump-prstatus-short': prstatus_short(good),
    }
    os.makedirs(outdir, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(outdir, name), 'wb') as f:
            f.write(data)


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'orc':
        orc_seeds(sys.argv[2], sys.argv[3],
                  int(sys.argv[4]) if len(sys.argv) > 4 else 1000)
    elif len(sys.argv) == 4 and sys.argv[1] == 'kallsyms':
        kallsyms_seeds(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == 'dump':
        dump_seed(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == 'diskdump':
        diskdump_seeds(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == 'kallsyms-scan':
        scan_seeds(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == 'frames':
        frames(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()

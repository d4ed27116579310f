#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The panicking CPU's --cpus trace against the trace the dying kernel
# printed on its console: usage panic_trace_check.py CONSOLE CPUS
# Prints PASS/FAIL/N/A lines.
#
# The console's trace is the last "Call Trace:" block (arm64: "Call
# trace:") the kernel printed before "Kernel panic - not syncing":
# panic()'s own dump_stack(), or
# the oops's (panic() prints none during an oops).  The registers behind
# --cpus were saved later (in panic(), or where the CPU stopped), so the
# frames above panic() differ: both sides are compared from the frame
# after panic()'s (its caller) down, or, where the console's trace has
# no panic() frame (an oops), from its first frame.  The markers (<NMI>,
# <IRQ>, <TASK>, ...) count, frames marked "? " on either side do not.
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d{6}\]\s?')
TOKEN = re.compile(r'^\s*(</?[A-Z_#]+>|\S+\+0x[0-9a-f]+/0x[0-9a-f]+(?: \[[^\]]+\])?)\s*$')


def tokens(lines):
    out = []
    for l in lines:
        if re.match(r'^\s*\? ', l):
            continue
        m = TOKEN.match(l)
        if m:
            out.append(m.group(1))
    return out


def console_trace(path):
    lines = [TS.sub('', l.rstrip('\r\n'))
             for l in open(path, errors='replace')]
    end = next((i for i, l in enumerate(lines)
                if 'Kernel panic - not syncing' in l), None)
    if end is None:
        return None, None
    # panic() prints its message first and then its dump_stack(); an
    # oops's trace comes before the message
    starts = [i for i, l in enumerate(lines)
              if l.strip() in ('Call Trace:', 'Call trace:')]
    after = [i for i in starts if i > end]
    start = after[0] if after and any('panic+' in l for l in
                                      lines[after[0]:after[0] + 40]) else \
        max([i for i in starts if i < end], default=None)
    if start is None:
        return lines[end], None
    block = []
    for l in lines[start + 1:]:
        if not l.startswith(' ') and not l.startswith('RIP') and \
           not l.startswith('RSP') and not l.startswith('R') and \
           not l.startswith('Code'):
            break
        block.append(l)
        if l.strip() == '</TASK>':
            break
    return lines[end], block


def cpu_block(path, panic_re):
    text = open(path).read().split('\n\n')
    for b in text:
        if b.startswith('CPU: ') and panic_re.search(b):
            return b.split('\n')
    return None


msg, con = console_trace(sys.argv[1])
if msg is None:
    print('N/A: the console has no "Kernel panic" line: the guest did not die')
    sys.exit(0)
if not con:
    print('FAIL: the console has "%s" but no Call Trace before or after it' % msg)
    sys.exit(0)
c = tokens(con)
if any(t.startswith('panic+') for t in c):
    c = c[[i for i, t in enumerate(c) if t.startswith('panic+')][-1] + 1:]
while c and c[0].startswith('<'):
    c = c[1:]
if not c:
    print('FAIL: the console\'s trace has no frame below panic()')
    sys.exit(0)
# Older kernels' show_trace_log_lvl() (5.10's) print no <TASK> markers
# around the task's stack: kstack's own are then left out of the
# comparison, as the console cannot say where that section starts.
task_markers = any(t in ('<TASK>', '</TASK>') for t in tokens(con))
blocks = open(sys.argv[2]).read().split('\n\n')
best = None
for b in blocks:
    if not b.startswith('CPU: '):
        continue
    k = tokens(b.split('\n'))
    if not task_markers:
        k = [t for t in k if t not in ('<TASK>', '</TASK>')]
    if c[0] in k:
        j = k.index(c[0])
        best = (b.split('\n')[0], k[j:j + len(c)])
        break
if best is None:
    print('FAIL: no CPU\'s --cpus trace has the console\'s frame %s' % c[0])
    sys.exit(0)
head, k = best
if k == c:
    print('PASS: %s: the trace below panic() equals the console\'s, %d frames '
          'and markers (%s ... %s)' % (head, len(c), c[0], c[-1]))
else:
    diff = next((i for i in range(min(len(k), len(c))) if k[i] != c[i]),
                min(len(k), len(c)))
    print('FAIL: %s: differs from the console at %d of %d: ours %s, the '
          'console\'s %s' % (head, diff, len(c), k[diff:diff + 2],
                               c[diff:diff + 2]))

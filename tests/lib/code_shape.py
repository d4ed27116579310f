#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The shape the tree promises (docs/architecture.md), checked on the tree
and on the objects of a build: no function of shared/, live/ or extension/
over 60 lines, and no cycle among the core's objects (shared/'s: a file
that needs another's symbol may not be needed by it, through any chain).

usage: code_shape.py functions TOP
       code_shape.py cycles OBJ...
Prints PASS:/FAIL: lines, as tests/lib/check.sh's checkers do."""
import collections
import os
import re
import subprocess
import sys

MAX_LINES = 60


def function_lengths(path):
    """(lines, name) of each function: a body from a '{' alone in column 0
    after a line with '(' to the next '}' in column 0."""
    lines = open(path, errors='replace').read().split('\n')
    start = None
    name = '?'
    for i, line in enumerate(lines):
        if start is None and line == '{' and i > 0:
            j = i - 1
            while j >= 0 and '(' not in lines[j]:
                j -= 1
            m = re.search(r'(\w+)\s*\(', lines[j]) if j >= 0 else None
            name = m.group(1) if m else '?'
            start = i
        elif start is not None and line.startswith('}'):
            yield i - start - 1, name
            start = None


def check_functions(top):
    out = subprocess.run(['git', '-C', top, 'ls-files', '-co',
                          '--exclude-standard', 'shared', 'live',
                          'extension'], capture_output=True, text=True,
                         check=True).stdout.split()
    n = 0
    long = []
    for f in sorted(out):
        if not f.endswith('.c'):
            continue
        for lines, name in function_lengths(os.path.join(top, f)):
            n += 1
            if lines > MAX_LINES:
                long.append('%s %s() %d lines' % (f, name, lines))
    if n < 1000:
        print('FAIL: only %d functions found: the scan is broken' % n)
    for l in long:
        print('FAIL: over %d lines: %s' % (MAX_LINES, l))
    if not long:
        print('PASS: none of %d functions is over %d lines' % (n, MAX_LINES))


def symbols(obj):
    out = subprocess.run(['nm', '-g', obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for l in out.splitlines():
        f = l.split()
        if len(f) == 2 and f[0] == 'U':
            undefined.add(f[1])
        elif len(f) == 3 and f[1] in 'TDBRCVW':
            defined.add(f[2])
    return defined, undefined


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def check_cycles(objs):
    owner, needs = {}, {}
    for o in objs:
        d, u = symbols(o)
        needs[o] = u
        for s in d:
            owner[s] = o
    graph = collections.defaultdict(set)
    for o in objs:
        graph[o]
        for s in needs[o]:
            if owner.get(s, o) != o:
                graph[o].add(owner[s])
    found = cycles(graph)
    for comp in found:
        names = [os.path.basename(o) for o in comp]
        edges = []
        for a in comp:
            for b in sorted(graph[a] & set(comp)):
                syms = sorted(s for s in needs[a] if owner.get(s) == b)
                edges.append('%s -> %s (%s)' % (os.path.basename(a),
                                                os.path.basename(b), syms[0]))
        print('FAIL: a link cycle among %s: %s' % (' '.join(names),
                                                   '; '.join(edges)))
    if len(objs) < 50:
        print('FAIL: only %d objects given' % len(objs))
    elif not found:
        print('PASS: no link cycle among the core\'s %d objects' % len(objs))


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'functions':
        check_functions(sys.argv[2])
    elif len(sys.argv) > 2 and sys.argv[1] == 'cycles':
        check_cycles(sys.argv[2:])
    else:
        sys.exit(__doc__)

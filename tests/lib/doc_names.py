#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every file and function docs/architecture.md names is in the tree: a
`path/like/this.c` (or a bare `file.c`, found anywhere in the tree) must
exist, and a `function()` must be defined or declared in shared/, live/,
extension/ or tests/.  Prints PASS:/FAIL: lines.

usage: doc_names.py TOP DOC"""
import os
import re
import subprocess
import sys

top, doc = sys.argv[1], sys.argv[2]
text = open(doc).read()
files = subprocess.run(['git', '-C', top, 'ls-files', '-co',
                        '--exclude-standard'], capture_output=True,
                       text=True, check=True).stdout.split()
names = set(files) | {os.path.basename(f) for f in files}
dirs = {os.path.dirname(f) for f in files}
dirs |= {d.rsplit('/', i)[0] for d in list(dirs) for i in range(1, 5)
         if '/' in d}
code = ''
for f in files:
    if f.startswith(('shared/', 'live/', 'extension/', 'tests/')) and \
       f.endswith(('.c', '.h')):
        code += open(os.path.join(top, f), errors='replace').read()

# the kernel's own files, which the ports name as what they mirror
KERNEL = ('unwind_orc.c', 'unwind_frame.c', 'arch/', 'scripts/kallsyms', 'kernel/',
          'mm/', 'fs/', 'include/', 'defs.h')

bad = 0
seen_files = seen_funcs = 0
for tok in sorted(set(re.findall(r'`([^`\s]+)`', text))):
    path = tok.rstrip('/')
    # a pattern (task_NAME.c, ARCH_unwind.c) names no one file
    if re.search(r'NAME|ARCH', path) or path.startswith(KERNEL):
        continue
    if re.fullmatch(r'[\w./-]+\.(c|h|sh|py|md|in|8)', path):
        seen_files += 1
        if path not in names and not any(f.endswith('/' + path)
                                          for f in files):
            print('FAIL: docs names %s, which is not in the tree' % tok)
            bad += 1
    elif re.fullmatch(r'(shared|live|extension|tests|vmcores)(/[\w-]+)+',
                      path):
        seen_files += 1
        if path not in dirs and path not in names:
            print('FAIL: docs names the folder %s, which is not in the '
                  'tree' % tok)
            bad += 1
for fn in sorted(set(re.findall(r'`(?:[\w.]+\'s )?(\w+)\(\)`', text))):
    if 'NAME' in fn:
        continue
    if not fn.startswith('ks_') and not re.search(
            r'\b%s\b' % re.escape(fn), code):
        continue        # a kernel or crash function the port names
    seen_funcs += 1
    if not re.search(r'\b%s\s*\(' % re.escape(fn), code):
        print('FAIL: docs names %s(), which nothing defines' % fn)
        bad += 1
if seen_files < 20:
    print('FAIL: only %d file names found in %s' % (seen_files, doc))
elif not bad:
    print('PASS: the %d files and folders and %d functions of ours that '
          '%s names are in the tree' % (seen_files, seen_funcs,
                                        os.path.basename(doc)))

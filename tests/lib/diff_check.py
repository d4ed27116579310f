#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check `kstack diff A --vmcore DUMP --json` against compare_capture.py.

usage: diff_check.py VMCORE_DIR A DIFF_JSON DIFF_RC DUMP_JSON

compare_capture.py knows which tasks moved between the guest's capture and
the dump (switch counts, the capture's own processes, tasks born while it
ran) and sets them aside (set_aside()).  A is the guest's kstack-a.json or
kstack-a.txt.  DUMP_JSON is `kstack --vmcore DUMP -a -H --json` (its
switch counts and signatures).  Prints PASS:/FAIL: lines.

- A is the JSON: both sides have the switch counts that set_aside() uses,
  so kstack diff must name (moved, appeared, vanished, ran) exactly the
  set-aside tasks that are in a capture and in R on neither side (running
  tasks diff sets aside by count, as the tests do), and nothing else.
- A is the text: it has no switch counts, so kstack diff can only see the
  set-aside tasks whose signature changed or that are on one side only;
  it must name exactly those.
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import compare_capture as cc  # noqa: E402

top = os.path.dirname(os.path.dirname(here))
code = open(os.path.join(top, 'docs/signature.md')).read()
env = {}
exec(code.split("```python\n")[1].split("```")[0], env)
signature = env['signature']


def side_a(path):
    """{pid: (state, signature)} of A."""
    if path.endswith('.json'):
        with open(path) as f:
            return {t['pid']: (t['state'], t['signature'])
                    for g in json.loads(f.read())['groups'] for t in g['tasks']}
    return {p: (t[1], signature(t[1], ''.join(f + '\n' for f in t[4])))
            for p, t in cc.parse_text(path).items()}


def wanted(aside, a, dump, with_counts):
    want = set()
    for pid in aside:
        at, dt = a.get(pid), dump.get(pid)
        if (at and at[0] == 'R') or (dt and dt['state'] == 'R'):
            continue
        if at is None and dt is None:
            continue
        if with_counts or at is None or dt is None or at[1] != dt['signature']:
            want.add(pid)
    return want


def main(vdir, a_path, diff_path, rc, dump_path):
    ok = True
    live = cc.parse_text(os.path.join(vdir, 'live/kstack-a.txt'))
    dump = {}
    with open(dump_path) as f:
        for g in json.loads(f.read())['groups']:
            for t in g['tasks']:
                dump[t['pid']] = t
    counts = {p: (t['tgid'], t.get('nvcsw'), t.get('nivcsw'), t.get('on_cpu'))
              for p, t in dump.items()}
    aside = cc.set_aside(vdir, live, dump, counts)['all']
    with_counts = a_path.endswith('.json')
    want = wanted(aside, side_a(a_path), dump, with_counts)
    with open(diff_path) as f:
        d = json.loads(f.read())
    keys = ('moved', 'appeared', 'vanished') + (('ran',) if with_counts else ())
    listed = {t['pid'] for k in keys for t in d[k]}
    if not with_counts and d['ran']:
        ok = False
        print('FAIL: kstack diff says %d tasks ran, with no switch counts in A' % len(d['ran']))
    extra = sorted(listed - aside)
    if extra:
        ok = False
        print('FAIL: kstack diff lists tasks compare_capture.py does not set aside: %s' % extra)
    else:
        print('PASS: every task kstack diff lists (%d) is one compare_capture.py sets aside (%d)'
              % (len(listed), len(aside)))
    what = ('the set-aside tasks in a capture and in R on neither side' if with_counts
            else 'the set-aside tasks that changed')
    if listed != want:
        ok = False
        print('FAIL: kstack diff lists %s, %s are %s' % (sorted(listed), what, sorted(want)))
    else:
        print('PASS: kstack diff lists exactly %s: %s' % (what, sorted(want) or 'none'))
    exp_rc = 1 if d['changed'] else 0
    if int(rc) == exp_rc and (d['changed'] or not d['groups']):
        print('PASS: exit %s, changed %s' % (rc, d['changed']))
    else:
        ok = False
        print('FAIL: exit %s, changed %s' % (rc, d['changed']))
    return ok


if __name__ == '__main__':
    if len(sys.argv) != 6:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if main(*sys.argv[1:6]) else 1)

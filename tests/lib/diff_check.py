#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check `kstack diff LIVE --vmcore DUMP --json` against compare_capture.py.

usage: diff_check.py VMCORE_DIR DIFF_JSON DIFF_RC DUMP_JSON

compare_capture.py knows which tasks moved between the guest's capture and
the dump (switch counts, running.txt, the capture's own processes, tasks
born while it ran) and sets them aside.  kstack diff must list (moved,
appeared, vanished) exactly those of them that it can see changed: in
neither capture in R, and in another signature or on one side only; and
nothing else.  DUMP_JSON is `kstack --vmcore DUMP -a -H --json` (its
switch counts and signatures).  Prints PASS:/FAIL: lines.
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


def aside_of(vdir, live, counts):
    """compare_capture.py's set-aside tasks, by its rules."""
    running, own = cc.capture_pids(vdir)
    running |= {p for p, t in live.items() if t[1] == 'R'}
    moved, born = set(), set()
    for pid in set(live) | set(counts):
        if pid in running or pid in own:
            continue
        ls, dc = cc.live_status(vdir, pid), counts.get(pid)
        if ls is None and not os.path.exists(os.path.join(vdir, 'live/proc/%d' % pid)):
            born.add(pid)
        elif ls is not None and dc is not None and dc[1] is not None and ls[1:] != dc[1:]:
            moved.add(pid)
    return running | own | moved | born


def main(vdir, diff_path, rc, dump_path):
    ok = True
    live = cc.parse_text(os.path.join(vdir, 'live/kstack-a.txt'))
    dump = {}
    with open(dump_path) as f:
        for g in json.loads(f.read())['groups']:
            for t in g['tasks']:
                dump[t['pid']] = t
    counts = {p: (t['tgid'], t.get('nvcsw'), t.get('nivcsw')) for p, t in dump.items()}
    aside = aside_of(vdir, live, counts)
    with open(diff_path) as f:
        d = json.loads(f.read())
    listed = {t['pid'] for k in ('moved', 'appeared', 'vanished') for t in d[k]}
    want = set()
    for pid in aside:
        lt, dt = live.get(pid), dump.get(pid)
        if (lt and lt[1] == 'R') or (dt and dt['state'] == 'R'):
            continue
        if lt is None and dt is None:
            continue
        if lt is None or dt is None:
            want.add(pid)
        elif signature(lt[1], ''.join(f + '\n' for f in lt[4])) != dt['signature']:
            want.add(pid)
    extra = sorted(listed - aside)
    if extra:
        ok = False
        print('FAIL: kstack diff lists tasks compare_capture.py does not set aside: %s' % extra)
    else:
        print('PASS: every task kstack diff lists (%d) is one compare_capture.py sets aside (%d)'
              % (len(listed), len(aside)))
    if listed != want:
        ok = False
        print('FAIL: kstack diff lists %s, the set-aside tasks that changed are %s'
              % (sorted(listed), sorted(want)))
    else:
        print('PASS: kstack diff lists exactly the set-aside tasks that changed: %s'
              % (sorted(want) or 'none'))
    exp_rc = 1 if d['changed'] else 0
    if int(rc) == exp_rc and (d['changed'] or not d['groups']):
        print('PASS: exit %s, changed %s' % (rc, d['changed']))
    else:
        ok = False
        print('FAIL: exit %s, changed %s' % (rc, d['changed']))
    return ok


if __name__ == '__main__':
    if len(sys.argv) != 5:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if main(*sys.argv[1:5]) else 1)

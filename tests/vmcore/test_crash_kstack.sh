#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack -a -H in crash on a real vmcore against the live tool's output in
# the same guest a moment before the dump (live/kstack-a.txt):
#  - every task that was not running during the capture: PID, state, start
#    time, Cmd and every stack line equal;
#  - the whole grouped text equal once the running tasks are set aside
#    (regrouped on both sides, so a group that loses its first member
#    keeps the order the tools would give it);
#  - the header names the same host, at a crash time not before the
#    capture.
# Set aside: live/running.txt (tasks in R while proc/ was copied), the
# capture helper (running in the dump), the kstack process (exited), and
# tasks in R in the dump (woken between the capture and the pause, like a
# timer-driven rcu_preempt).  A kworker's Cmd ends in the description of
# the last work item it ran (wq_worker_comm()), which moves on between
# the capture and the dump: only the part before it must be equal.  A
# dump filtered without user pages (makedumpfile -d with bit 8) has no
# command lines: there Cmd must be the comm of live/proc/TID/stat.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
so=${KSTACK_SO:-$top/build/kstack.so}

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ] || [ ! -s "$dir/manifest" ]; then
	echo "SKIP: no vmcore"
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -s "$dir/live/kstack-a.txt" ]; then
	echo "SKIP: $dir has no live/kstack-a.txt (made without the static kstack)"
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -s "$so" ]; then
	echo "FAIL: no crash extension at $so"
	echo "0 passed, 1 failed"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One crash session: opening the dump is most of the time.  Each command
# writes to a file of its own (crash's redirection), and the walk is timed
# with the shell's clock around it.
cat >"$tmp/cmds" <<CMDS
extend $so
!date +%s.%N >$tmp/t0
kstack -a -H >$tmp/crash.txt
!date +%s.%N >$tmp/t1
kstack -a -H >$tmp/crash2.txt
!date +%s.%N >$tmp/t2
kstack -a -H --json >$tmp/json.txt
kstack -a -H -c >$tmp/summary.txt
kstack -a -H --folded >$tmp/folded.txt
kstack -D >$tmp/D.txt
quit
CMDS
TZ=UTC timeout 600 crash -s "$dir/vmlinux" "$dir/vmcore" -i "$tmp/cmds" \
	</dev/null >"$tmp/out" 2>&1
if [ -s "$tmp/t0" ] && [ -s "$tmp/t1" ] && [ -s "$tmp/t2" ]; then
	echo "kstack -a -H in crash: $(awk -v a="$(cat "$tmp/t0")" -v b="$(cat "$tmp/t1")" \
		'BEGIN { printf "%.3f", b - a }') s (first run: reads the ORC tables)," \
		"then $(awk -v a="$(cat "$tmp/t1")" -v b="$(cat "$tmp/t2")" \
		'BEGIN { printf "%.3f", b - a }') s"
fi
if [ ! -s "$tmp/crash.txt" ]; then
	echo "FAIL: kstack -a -H printed nothing in crash:"
	sed -n '1,40p' "$tmp/out"
	echo "0 passed, 1 failed"
	exit 1
fi

python3 - "$dir" "$tmp/crash.txt" "$tmp/crash2.txt" "$tmp" <<'PY'
import os
import re
import sys
from datetime import datetime

vdir, crash_path, crash2_path, tmp = sys.argv[1:5]
task_re = re.compile(r'^PID: +(\d+)   State: +(\S)   Start Time: (\S+ \S+)   Cmd: (.*)$')
passed = failed = 0


def ok(msg):
    global passed
    passed += 1
    print('PASS: ' + msg)


def bad(msg, detail=''):
    global failed
    failed += 1
    print('FAIL: ' + msg)
    if detail:
        print(detail.rstrip('\n'))


def parse(path):
    """Header line, then tasks in walk order: (pid, state, start, cmd, stack)."""
    with open(path, errors='surrogateescape') as f:
        lines = f.read().split('\n')
    header, tasks, pending, noise = None, [], [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = task_re.match(line)
        if line.startswith('zzz <') and header is None:
            header = line
        elif m:
            pending.append(m.groups())
        elif line == 'Stack:':
            stack = []
            i += 1
            while i < len(lines) and lines[i].startswith('[<'):
                stack.append(lines[i])
                i += 1
            for p in pending:
                tasks.append((int(p[0]), p[1], p[2], p[3], tuple(stack)))
            pending = []
            continue
        elif line.strip():
            noise.append(line)
        i += 1
    return header, tasks, noise


def render(tasks):
    groups, order = {}, []
    for t in tasks:
        if t[4] not in groups:
            groups[t[4]] = []
            order.append(t[4])
        groups[t[4]].append(t)
    out = []
    for st in order:
        for t in groups[st]:
            out.append('PID: %5d   State: %2s   Start Time: %s   Cmd: %s' % t[:4])
        out.append('Stack:')
        out.extend(st)
        out.append('')
    return out


aside = set()
with open(os.path.join(vdir, 'live/running.txt')) as f:
    for line in f:
        if line.strip() and not line.startswith('#'):
            aside.add(int(line.split()[0]))
with open(os.path.join(vdir, 'live/capture.txt')) as f:
    for line in f:
        k, _, v = line.partition(':')
        if k in ('helper_pid', 'kstack_a_pid', 'kstack_K_pid', 'kstack_F_pid'):
            aside.add(int(v))

lhead, live, _ = parse(os.path.join(vdir, 'live/kstack-a.txt'))
chead, crash, noise = parse(crash_path)
if not crash:
    bad('crash printed no tasks', open(crash_path, errors='replace').read()[:3000])
    print('%d passed, %d failed' % (passed, failed))
    sys.exit(1)
# the live tool marks tasks in R as running: their stacks are moving;
# a task in R in the dump was woken after the capture
aside |= {t[0] for t in live if t[1] == 'R'}
aside |= {t[0] for t in crash if t[1] == 'R'}
kworker = re.compile(r'^(kworker/[^-+]*)[-+].*$')
moved = []


def stable(t):
    """The record without a kworker's last work description."""
    m = kworker.match(t[3])
    return t[:3] + (m.group(1) if m else t[3],) + t[4:]


def note_moved(lt, ct):
    if lt[3] != ct[3] and stable(lt)[3] == stable(ct)[3]:
        moved.append('%d (%s -> %s)' % (lt[0], lt[3], ct[3]))
print('set aside (running during the capture): %s' % ' '.join(map(str, sorted(aside))))
if noise:
    print('crash also said:\n  ' + '\n  '.join(noise[:20]))

hm = re.compile(r'^zzz <(.*) - (.*)$')
lm, cm = hm.match(lhead or ''), hm.match(chead or '')
if not lm or not cm:
    bad('header', 'live: %r\ncrash: %r' % (lhead, chead))
else:
    fmt = '%a %b %d %H:%M:%S %Z %Y'
    lt, ct = datetime.strptime(lm.group(1), fmt), datetime.strptime(cm.group(1), fmt)
    delta = (ct - lt).total_seconds()
    if lm.group(2) == cm.group(2) and 0 <= delta <= 60:
        ok('header: host %s, crash time %+d s after the capture' % (cm.group(2), delta))
    else:
        bad('header', 'live:  %s\ncrash: %s' % (lhead, chead))

# makedumpfile -d N: bit 8 drops user data pages, command lines with them
no_user = False
with open(os.path.join(vdir, 'manifest')) as f:
    for line in f:
        m = re.match(r'^vmcore_format:.* -d (\d+)', line)
        if m and int(m.group(1)) & 8:
            no_user = True
comm_only = []


def live_comm(pid):
    try:
        with open(os.path.join(vdir, 'live/proc/%d/stat' % pid), errors='surrogateescape') as f:
            st = f.read()
        return st[st.index('(') + 1:st.rindex(')')]
    except (OSError, ValueError):
        return None


by_pid = {}
for t in crash:
    by_pid.setdefault(t[0], t)
names = ('PID', 'State', 'Start Time', 'Cmd')
nr_ok = 0
for t in live:
    if t[0] in aside:
        continue
    c = by_pid.get(t[0])
    if c is None:
        bad('PID %d (%s) is missing in crash' % (t[0], t[3]))
        continue
    diffs = []
    if no_user and t[3] != c[3] and c[3] == live_comm(t[0]):
        comm_only.append(t[0])
        t = t[:3] + (c[3],) + t[4:]
    note_moved(t, c)
    t, c = stable(t), stable(c)
    for i, n in enumerate(names):
        if t[i] != c[i]:
            diffs.append('  %s: live %r, crash %r' % (n, t[i], c[i]))
    if t[4] != c[4]:
        diffs.append('  stack, live:\n    ' + '\n    '.join(t[4]) +
                     '\n  stack, crash:\n    ' + '\n    '.join(c[4]))
    if diffs:
        bad('PID %d (%s)' % (t[0], t[3]), '\n'.join(diffs))
    else:
        nr_ok += 1
live_pids = {t[0] for t in live}
extra = [t for t in crash if t[0] not in live_pids and t[0] not in aside]
for t in extra:
    bad('PID %d (%s) is in crash but not in the live capture' % (t[0], t[3]))
if open(crash_path, 'rb').read() == open(crash2_path, 'rb').read():
    ok('a second kstack -a -H in the same session prints the same text')
else:
    bad('a second kstack -a -H in the same session printed other text')
if comm_only:
    print('%d tasks print their comm: the dump has no user pages' % len(comm_only))
    live = [t[:3] + (c[3],) + t[4:] if t[0] in comm_only and c is not None else t
            for t in live for c in [by_pid.get(t[0])]]
if moved:
    print('kworkers whose last work item changed: ' + ', '.join(moved))
if nr_ok:
    passed += nr_ok
    print('PASS: %d tasks equal in PID, state, start time, Cmd and stack' % nr_ok)

lr = render([stable(t) for t in live if t[0] not in aside])
cr = render([stable(t) for t in crash if t[0] not in aside])
if lr == cr:
    ok('the whole grouped text (%d tasks, %d lines) equals the live text' %
       (len([t for t in live if t[0] not in aside]), len(lr)))
else:
    import difflib
    bad('the whole grouped text differs',
        '\n'.join(difflib.unified_diff(lr, cr, 'live', 'crash', lineterm='')))

# The other formats and a selection reach crash through the same parser.
def read(name):
    try:
        with open(os.path.join(tmp, name), errors='surrogateescape') as f:
            return f.read()
    except OSError:
        return ''


import json
try:
    j = json.loads(read('json.txt'))
    nj = sum(len(g['tasks']) for g in j['groups'])
    if j['tasks'] == len(crash) == nj and j['host'] == cm.group(2):
        ok('--json: %d tasks in %d groups' % (nj, len(j['groups'])))
    else:
        bad('--json: %d tasks (%d in groups), the text has %d' % (j['tasks'], nj, len(crash)))
except (ValueError, KeyError, TypeError, AttributeError) as ex:
    bad('--json is not the sample as JSON: %s' % ex, read('json.txt')[:500])
groups = len({t[4] for t in crash})
want = '%d tasks, %d distinct stacks' % (len(crash), groups)
if want in read('summary.txt').split('\n'):
    ok('-c: ' + want)
else:
    bad('-c: expected "%d tasks, %d distinct stacks"' % (len(crash), groups),
        read('summary.txt')[:500])
folded = [l for l in read('folded.txt').split('\n') if l.strip()]
if folded and all(re.match(r'^.+ \d+$', l) for l in folded):
    ok('--folded: %d lines' % len(folded))
else:
    bad('--folded', read('folded.txt')[:500])
dl = [t for t in live if t[1] == 'D' and t[0] not in aside]
_, dc, _ = parse(os.path.join(tmp, 'D.txt'))
if [t[0] for t in dc] == [t[0] for t in crash if t[1] == 'D']:
    ok('-D: %d tasks in D (%d in the live capture)' % (len(dc), len(dl)))
else:
    bad('-D: %s, the -a -H text has %s in D' % ([t[0] for t in dc],
        [t[0] for t in crash if t[1] == 'D']))

print('%d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
PY

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare kstack -a -H read from a dump with the live capture of the guest.

usage: compare_capture.py VMCORE_DIR DUMP_TEXT DUMP_JSON NAME

VMCORE_DIR/live holds what the guest saw a moment before the dump: the
live tool's JSON (kstack-a.json, with every task's context switch counts)
and then its text (kstack-a.txt), a raw copy of every task's proc files
(proc/TID/status, with the counts too) and the tasks in R while they were
copied (running.txt).  The counts are the JSON's where the dump has it
(set_aside() says why), else the proc copy's.  DUMP_TEXT and DUMP_JSON are `kstack -a -H`
and `kstack -a -H --json` from the dump (crash or --vmcore).

Which tasks moved between the capture and the dump is known, not guessed:
a task whose voluntary or involuntary context switch count differs between
the capture and the dump's task_struct ran in between, and is set aside.  So is a task on a CPU in the dump: it was switched in
since, and only the switch out is counted.  So are the tasks in R during
the capture and the capture's own processes.  Every other task must print the same PID, state, start time,
Cmd and stack, with one exception that is reported: a task woken after the
capture that has not run yet is R in the dump (a wakeup is not a context
switch); its stack must still be equal.

The grouped text is then compared whole, with the set-aside tasks removed
before grouping, on both sides, in the walk order both tools use (thread
group id, then thread id), so that a removed task cannot move a group.

Prints PASS:/FAIL: lines and notes; exits 1 if anything failed.
"""
import json
import os
import re
import sys

TASK_RE = re.compile(r'^PID: +(\d+)   State: +(\S)   Start Time: (\S+ \S+)   Cmd: (.*)$')


class Result:
    def __init__(self):
        self.passed = self.failed = 0

    def ok(self, msg):
        self.passed += 1
        print('PASS: ' + msg)

    def bad(self, msg, detail=''):
        self.failed += 1
        print('FAIL: ' + msg)
        if detail:
            print(detail.rstrip('\n'))


def parse_text(path):
    """Tasks in output order: {pid: (pid, state, start, cmd, stack)}."""
    with open(path, errors='surrogateescape') as f:
        lines = f.read().split('\n')
    tasks, pending, i = {}, [], 0
    while i < len(lines):
        m = TASK_RE.match(lines[i])
        if m:
            pending.append(m.groups())
        elif lines[i] == 'Stack:':
            stack = []
            i += 1
            while i < len(lines) and lines[i].startswith('[<'):
                stack.append(lines[i])
                i += 1
            for p in pending:
                tasks[int(p[0])] = (int(p[0]), p[1], p[2], p[3], tuple(stack))
            pending = []
            continue
        i += 1
    return tasks


def live_status(vdir, pid):
    """(tgid, nvcsw, nivcsw) from the copied status, or None."""
    try:
        with open(os.path.join(vdir, 'live/proc/%d/status' % pid),
                  errors='surrogateescape') as f:
            kv = dict(line.split(':', 1) for line in f if ':' in line)
        return (int(kv['Tgid']), int(kv['voluntary_ctxt_switches']),
                int(kv['nonvoluntary_ctxt_switches']))
    except (OSError, KeyError, ValueError):
        return None


def dump_counts(path):
    """{pid: (tgid, nvcsw, nivcsw, on_cpu)} from the dump's --json sample."""
    with open(path) as f:
        sample = json.loads(f.read())
    out = {}
    for g in sample['groups']:
        for t in g['tasks']:
            out[t['pid']] = (t['tgid'], t.get('nvcsw'), t.get('nivcsw'),
                             t.get('on_cpu'))
    return out


def json_counts(vdir):
    """{pid: (tgid, nvcsw, nivcsw, state)} from the guest's kstack -a -H
    --json (run before its text), or None when it has none."""
    try:
        with open(os.path.join(vdir, 'live/kstack-a.json')) as f:
            sample = json.loads(f.read())
    except (OSError, ValueError):
        return None
    out = {}
    for g in sample['groups']:
        for t in g['tasks']:
            out[t['pid']] = (t['tgid'], t.get('nvcsw'), t.get('nivcsw'), t['state'])
    return out


def set_aside(vdir, live, dump, counts):
    """The tasks whose stack may differ between the capture and the dump.

    A task ran in between when its context switch counts moved between
    the capture's and the dump's.  With the guest's JSON capture, the
    counts are its own: read before the text's stacks, so a task whose
    counts did not move since did not run while its text stack was read
    either, and kstack diff compares the very same counts.  Without it,
    the counts are the proc copy's, read before both (a task in R then is
    set aside too).  Tasks in R in the text, the capture's own processes
    and tasks born after the counts were read are set aside.  So are the
    tasks on a CPU in the dump (DUMP's fourth member): __schedule() counts
    the switch out of prev, never the switch in of next, so a task woken
    and switched in after the capture ran with its counts unmoved.
    """
    jc = json_counts(vdir)
    running, own = capture_pids(vdir)
    if jc is not None:
        running = {p for p, t in jc.items() if t[3] == 'R'}
        count_of, counts_from = (lambda p: jc.get(p)), 'JSON capture'
        known = lambda p: p in jc  # noqa: E731
    else:
        count_of, counts_from = (lambda p: live_status(vdir, p)), 'proc copy'
        known = lambda p: os.path.exists(os.path.join(vdir, 'live/proc/%d' % p))  # noqa: E731
    # The live tool prints R for a task it found on a CPU: moving too.
    running |= {p for p, t in live.items() if t[1] == 'R'}
    moved, born, unknown, gone, on_cpu = set(), set(), set(), set(), set()
    for pid in set(live) | set(dump):
        ls, dc = count_of(pid), counts.get(pid)
        if pid in running or pid in own:
            continue
        if dc is not None and len(dc) > 3 and dc[3]:
            on_cpu.add(pid)
            continue
        # A task the capture does not have was born after it, while the
        # capture ran (a kworker the pool adds): it ran, so it moved.
        if ls is None and not known(pid):
            born.add(pid)
        elif ls is None or dc is None or dc[1] is None or ls[1] is None:
            unknown.add(pid)
        elif ls[1:3] != dc[1:3]:
            moved.add(pid)
    if jc is not None:
        # in the JSON capture only: it exited before the text and the dump
        gone = {p for p in jc if p not in live and p not in dump} - running - own
    return {'running': running, 'own': own, 'moved': moved, 'born': born,
            'unknown': unknown, 'gone': gone, 'on_cpu': on_cpu,
            'counts': count_of, 'counts_from': counts_from,
            'all': running | own | moved | born | gone | on_cpu}


def live_comm(vdir, pid):
    try:
        with open(os.path.join(vdir, 'live/proc/%d/stat' % pid),
                  errors='surrogateescape') as f:
            st = f.read()
        return st[st.index('(') + 1:st.rindex(')')]
    except (OSError, ValueError):
        return None


def no_user_pages(vdir):
    """makedumpfile -d with bit 8 drops user pages, command lines with them."""
    try:
        with open(os.path.join(vdir, 'manifest')) as f:
            for line in f:
                m = re.match(r'^vmcore_format:.* -d (\d+)', line)
                if m and int(m.group(1)) & 8:
                    return True
    except OSError:
        pass
    return False


def capture_pids(vdir):
    """Tasks in R while proc/ was copied, and the capture's own processes."""
    running, own = set(), set()
    with open(os.path.join(vdir, 'live/running.txt')) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                running.add(int(line.split()[0]))
    with open(os.path.join(vdir, 'live/capture.txt')) as f:
        for line in f:
            k, _, v = line.partition(':')
            if k in ('helper_pid', 'kstack_a_pid', 'kstack_json_pid', 'kstack_K_pid', 'kstack_F_pid',
                     'kstack_Kv_pid', 'kstack_Fv_pid'):
                own.add(int(v))
    return running, own


def render(tasks, order):
    groups, first = {}, []
    for pid in order:
        t = tasks[pid]
        if t[4] not in groups:
            groups[t[4]] = []
            first.append(t[4])
        groups[t[4]].append(t)
    out = []
    for st in first:
        for t in groups[st]:
            out.append('PID: %5d   State: %2s   Start Time: %s   Cmd: %s' % t[:4])
        out.append('Stack:')
        # format_text.c: an empty stack is an empty line of its own
        out.extend(st if st else [''])
        out.append('')
    return out


def printed_groups(path):
    """The task and stack lines as printed, without the header and
    without crash's messages (error(INFO) lines, "kstack: ...", which the
    walk says before the text: a task on a CPU whose stack ends early)."""
    with open(path, errors='surrogateescape') as f:
        lines = f.read().split('\n')
    body = [line for line in lines
            if not line.startswith('zzz <') and not line.startswith('kstack: ')]
    while body and body[0] == '':
        body.pop(0)
    while body and body[-1] == '':
        body.pop()
    return body


def diff_task(lt, dt):
    names = ('PID', 'State', 'Start Time', 'Cmd')
    diffs = ['  %s: live %r, dump %r' % (n, lt[i], dt[i])
             for i, n in enumerate(names) if lt[i] != dt[i]]
    if lt[4] != dt[4]:
        diffs.append('  stack, live:\n    ' + '\n    '.join(lt[4]) +
                     '\n  stack, dump:\n    ' + '\n    '.join(dt[4]))
    return diffs


def main(vdir, text_path, json_path, name):
    r = Result()
    live = parse_text(os.path.join(vdir, 'live/kstack-a.txt'))
    dump = parse_text(text_path)
    if not dump:
        r.bad('%s printed no tasks' % name)
        return r
    try:
        counts = dump_counts(json_path)
    except (OSError, ValueError, KeyError, TypeError) as ex:
        r.bad('%s --json is not a sample: %s' % (name, ex))
        return r
    no_user = no_user_pages(vdir)
    a = set_aside(vdir, live, dump, counts)
    running, own, moved, born, unknown = (a['running'], a['own'], a['moved'],
                                          a['born'], a['unknown'])
    aside = a['all']
    woken, comm_only = [], []
    tgid = {}
    for pid in set(live) | set(dump):
        ls, dc = a['counts'](pid), counts.get(pid)
        tgid[pid] = dc[0] if dc else ls[0] if ls else pid

    nr_ok = 0
    for pid in sorted(set(live) | set(dump)):
        if pid in aside:
            continue
        lt, dt = live.get(pid), dump.get(pid)
        if lt is None or dt is None:
            r.bad('PID %d is only in the %s' % (pid, 'dump' if lt is None else 'live capture'),
                  '  ' + '%s' % ((dt or lt)[:4],))
            continue
        if pid in unknown:
            r.bad('PID %d (%s): no context switch counts on one side' % (pid, lt[3]))
            continue
        if no_user and lt[3] != dt[3] and dt[3] == live_comm(vdir, pid):
            comm_only.append(pid)
            lt = lt[:3] + (dt[3],) + lt[4:]
            live[pid] = lt
        if dt[1] == 'R' and lt[1] != 'R':
            woken.append('%d (%s -> R)' % (pid, lt[1]))
            lt = lt[:1] + ('R',) + lt[2:]
            live[pid] = lt
        diffs = diff_task(lt, dt)
        if diffs:
            r.bad('PID %d (%s) did not run between the capture and the dump,'
                  ' yet differs' % (pid, lt[3]), '\n'.join(diffs))
        else:
            nr_ok += 1

    print('set aside: %d in R during the capture (%s), %d of the capture itself,'
          ' %d that ran between the capture and the dump (switch counts moved: %s)' %
          (len(running - own), ' '.join(map(str, sorted(running - own))), len(own),
           len(moved - running - own), ' '.join(map(str, sorted(moved - running - own)))))
    if born:
        print('born while the capture ran (not in its %s): ' % a['counts_from'] +
              ' '.join(map(str, sorted(born))))
    if a['on_cpu']:
        print('on a CPU in the dump, switched in since the capture (a switch in'
              ' is not counted): ' + ' '.join(map(str, sorted(a['on_cpu']))))
    if a['gone']:
        print('in the JSON capture, gone before the text and the dump: ' +
              ' '.join(map(str, sorted(a['gone']))))
    if woken:
        print('woken after the capture, not yet run (state compared as R): ' +
              ', '.join(woken))
    if comm_only:
        print('%d tasks print their comm: the dump has no user pages' % len(comm_only))
    if nr_ok:
        r.ok('%s: %d tasks that did not run equal the live capture in PID, state,'
             ' start time, Cmd and stack' % (name, nr_ok))
    else:
        r.bad('%s: no task could be compared' % name)

    # The dump's own grouping: groups in first-seen order of the walk
    # (thread group id, then thread id), tasks in walk order inside each.
    walk = sorted(dump, key=lambda p: (tgid[p], p))
    mine = render(dump, walk)
    while mine and mine[-1] == '':
        mine.pop()
    if printed_groups(text_path) == mine:
        r.ok('%s: groups in first-seen walk order, %d tasks in %d groups' %
             (name, len(walk), len({t[4] for t in dump.values()})))
    else:
        import difflib
        r.bad('%s: the text is not grouped in walk order' % name,
              '\n'.join(difflib.unified_diff(mine, printed_groups(text_path),
                                              'regrouped', 'printed', lineterm='')))

    keep = [p for p in live if p not in aside and p in dump]
    order = sorted(keep, key=lambda p: (tgid[p], p))
    lr = render(live, order)
    dr = render(dump, order)
    if lr == dr:
        r.ok('%s: the whole grouped text (%d tasks, %d lines) equals the live text' %
             (name, len(order), len(lr)))
    else:
        import difflib
        r.bad('%s: the whole grouped text differs' % name,
              '\n'.join(difflib.unified_diff(lr, dr, 'live', 'dump', lineterm='')))
    return r


if __name__ == '__main__':
    if len(sys.argv) != 5:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        sys.exit(2)
    res = main(*sys.argv[1:5])
    sys.exit(1 if res.failed else 0)

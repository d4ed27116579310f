# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of kstack --log's output, for tests/vmcore/test_log.sh and
tests/integration/test_log_live.sh.

  log_check.py console LOG CONSOLE   the console's kernel lines, in order
  log_check.py json JSON             every object parses, with its fields
  log_check.py common LOG DMESG      the lines both have agree, in order

Each prints PASS:/FAIL: lines (tests/lib/check.sh counts them)."""
import json
import re
import sys

STAMP = re.compile(r'^\[ *(\d+)\.(\d{6})\] ')


def expanded(path):
    """kstack --log's lines, a record's later lines under its prefix, as
    the console prints them."""
    out, prefix = [], ''
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        m = STAMP.match(line)
        if m:
            prefix = m.group(0)
            out.append(line)
        elif prefix and line.startswith(' ' * len(prefix)):
            out.append(prefix + line[len(prefix):])
        else:
            out.append(line)
    return out


def stamp(line):
    m = STAMP.match(line)
    return int(m.group(1)) * 1000000 + int(m.group(2)) if m else None


def console(log_path, console_path):
    log = expanded(log_path)
    stamps = [s for s in map(stamp, log) if s is not None]
    if not stamps:
        print('FAIL: --log printed no record')
        return
    first, last = stamps[0], stamps[-1]
    want = []
    for line in open(console_path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\r\n')
        s = stamp(line)
        # the ring's oldest records may be overwritten; later lines
        # were printed after the dump
        if s is not None and first <= s <= last:
            want.append(line)
    at, missing = 0, []
    for line in want:
        try:
            at = log.index(line, at) + 1
        except ValueError:
            missing.append(line)
    if not want:
        print('N/A: the console printed no kernel line in the log\'s time '
              '(loglevel=4: the only ones came after the dump)')
    elif missing:
        print('FAIL: %d of %d console kernel lines not in --log in order, '
              'first: %r' % (len(missing), len(want), missing[0]))
    else:
        print('PASS: all %d console kernel lines are in --log, in order'
              % len(want))


def check_json(path):
    fields = ('seq', 'ts_nsec', 'level', 'facility', 'caller', 'text')
    n, safe, bad, tail = 0, 0, [], None
    for i, line in enumerate(open(path, encoding='utf-8'), 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            bad.append('line %d: %s' % (i, e))
            continue
        if 'not_read' in obj:
            tail = obj['not_read']
            continue
        if 'buffer' in obj:
            # a line left in a printk_safe buffer (5.10 to 5.14)
            safe += 1
            if (obj['buffer'] not in ('nmi_print_seq', 'safe_print_seq')
                    or not isinstance(obj.get('cpu'), int)
                    or not isinstance(obj.get('text'), str)):
                bad.append('line %d: not a printk_safe line' % i)
            continue
        n += 1
        lack = [f for f in fields if f not in obj]
        if lack or not re.match(r'^[TC]\d+$', obj.get('caller', '')):
            bad.append('line %d lacks %s' % (i, lack or 'a T/C caller'))
    if bad or not n:
        print('FAIL: --log --json: %d records, %s' % (n, bad[:3]))
    else:
        print('PASS: --log --json: %d records parse with %s%s'
              % (n, ', '.join(fields),
                 ', and %d printk_safe line(s)' % safe if safe else ''))
    if tail is None or set(tail) != {'reserved', 'lost_records', 'lost_ranges',
                                     'unreadable', 'invalid'}:
        print('FAIL: --log --json: no last not_read object: %r' % tail)
    else:
        print('PASS: --log --json ends with what was not read: %r' % tail)


def common(log_path, dmesg_path):
    a = [l.rstrip('\n') for l in open(log_path, errors='replace')]
    b = [l.rstrip('\n') for l in open(dmesg_path, errors='replace')]
    # the log moves on between the two reads: compare from the first line
    # both have, as far as the shorter goes
    start = next((i for i, l in enumerate(a) if b and l == b[0]), None)
    if start is None:
        start_b = next((i for i, l in enumerate(b) if a and l == a[0]), None)
        if start_b is None:
            print('FAIL: kstack --log and dmesg share no first line')
            return
        b = b[start_b:]
    else:
        a = a[start:]
    n = min(len(a), len(b))
    diff = [i for i in range(n) if a[i] != b[i]]
    if n < 10 or diff:
        print('FAIL: kstack --log and dmesg: %d lines compared, %d differ%s'
              % (n, len(diff), ', first: %r / %r' % (a[diff[0]], b[diff[0]])
                 if diff else ''))
    else:
        print('PASS: kstack --log and dmesg agree on the %d lines both have' % n)


if __name__ == '__main__':
    kind = sys.argv[1]
    if kind == 'console':
        console(sys.argv[2], sys.argv[3])
    elif kind == 'json':
        check_json(sys.argv[2])
    else:
        common(sys.argv[2], sys.argv[3])

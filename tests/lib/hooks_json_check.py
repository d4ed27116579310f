# SPDX-License-Identifier: GPL-2.0-or-later
"""Does kstack -K/-F --json say what the text says?

usage: hooks_json_check.py NAME K|F TEXT JSON

TEXT is `kstack -K` or `-F` (the kernel-format lines, then the "== "
sections), JSON the same run with --json.  Every JSON object is one
record; the kernel's line is rebuilt from its fields as
hooks_format.c prints it and must be the text's line in the same place.
Prints PASS:/FAIL: lines.
"""
import json
import sys


def kprobe_line(o):
    flags = ''.join('[%s]' % f for f in o['flags'])
    if o['symbol'] is None:
        return '%s  %s  0x%s %s' % (o['addr'], o['type'], o['addr'].lstrip('0') or '0', flags)
    return '%s  %s  %s+0x%x  %s %s' % (o['addr'], o['type'], o['symbol'], o['offset'],
                                       o['module'] or ' ', flags)


def ftrace_lines(o):
    head = o['func'] + (' [%s]' % o['module'] if o['module'] else '')
    if o.get('invalid'):
        return [head]
    f = o['flags']
    line = '%s (%d)%s%s%s' % (head, o['refcount'], ' R' if 'R' in f else '  ',
                              ' I' if 'I' in f else '  ', ' D' if 'D' in f else '  ')
    return [line, f]


def main(name, kind, text_path, json_path):
    text = open(text_path).read().split('\n')
    end = next((i for i, l in enumerate(text) if l.startswith('== ')), len(text))
    lines = text[:end]
    if lines and lines[-1] == '':
        lines.pop()
    objs = [json.loads(l) for l in open(json_path) if l.strip()]
    want = 'kprobe' if kind == 'K' else 'ftrace'
    bad = [o for o in objs if o.get('kind') != want]
    if bad:
        print('FAIL: %s: objects of another kind: %s' % (name, bad[:2]))
        return
    # an ftrace record's direct line is a text line of its own
    n_text = len([l for l in lines if not l.startswith('\tdirect-->')])
    if not objs and not n_text:
        # a scenario that hooked nothing (locks): nothing to rebuild
        print('N/A: %s: the dump has no such hooks, and no object says otherwise' % name)
        return
    if len(objs) != n_text:
        print('FAIL: %s: %d JSON objects, %d records in the text' % (name, len(objs), n_text))
        return
    i, wrong = 0, []
    for o in objs:
        line = lines[i]
        i += 1
        if 'unparsed' in o:
            ok = o['unparsed'] == line
        elif kind == 'K':
            ok = kprobe_line(o) == line
        else:
            head, *rest = ftrace_lines(o)
            ok = line.startswith(head)
            if ok and rest:
                f = rest[0]
                if 'O' in f and ' O' not in line[len(head):len(head) + 6]:
                    ok = False
                for t in o.get('tramps', []):
                    ok = ok and ('\ttramp: %s (%s)' % (t['tramp'], t['func'])) in line
                    ok = ok and (not t['target'] or (' ->' + t['target']) in line)
                if o.get('target'):
                    ok = ok and line.endswith(' ->' + o['target'])
                if o.get('tramp_error'):
                    ok = ok and '\ttramp: ERROR!' in line
            if o.get('direct'):
                ok = ok and i < len(lines) and lines[i] == '\tdirect-->' + o['direct']
                i += 1
        if not ok:
            wrong.append((line, o))
    if wrong:
        print('FAIL: %s: %d of %d records differ from the text, first: %r vs %s'
              % (name, len(wrong), len(objs), wrong[0][0], json.dumps(wrong[0][1])))
    else:
        print('PASS: %s: %d JSON records, each the text line' % (name, len(objs)))


if __name__ == '__main__':
    try:
        main(*sys.argv[1:5])
    except (ValueError, KeyError, IndexError) as ex:
        print('FAIL: %s: --json is not one record per line: %s' % (sys.argv[1], ex))

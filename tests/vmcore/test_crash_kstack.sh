#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack -a -H in crash on a real vmcore against the live tool's output in
# the same guest a moment before the dump (live/kstack-a.txt), through
# tests/lib/compare_capture.py: every task that did not run between the
# capture and the dump (its context switch counts did not move) must print
# the same PID, state, start time, Cmd and stack, and the grouped text of
# those tasks must be equal.  Also: the header names the same host at a
# crash time not before the capture, a second run prints the same text,
# and --json, -c, --folded and -D agree with the text.
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
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"
KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/out"
if sanitizer_report "$tmp/out"; then
	echo "FAIL: a sanitizer report in crash with $so"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ -s "$tmp/t0" ] && [ -s "$tmp/t1" ] && [ -s "$tmp/t2" ]; then
	echo "kstack -a -H in crash: $(awk -v a="$(cat "$tmp/t0")" -v b="$(cat "$tmp/t1")" \
		'BEGIN { printf "%.3f", b - a }') s (first run: reads the ORC tables)," \
		"then $(awk -v a="$(cat "$tmp/t1")" -v b="$(cat "$tmp/t2")" \
		'BEGIN { printf "%.3f", b - a }') s"
fi
if crash_refused "$tmp/out" "$dir"; then
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -s "$tmp/crash.txt" ]; then
	echo "FAIL: kstack -a -H printed nothing in crash:"
	sed -n '1,40p' "$tmp/out"
	echo "0 passed, 1 failed"
	exit 1
fi

# The same walk with gdb as the type finder: kstack.so asks the vmlinux's
# BTF first and crash's gdb only when there is no .BTF, so a vmlinux
# without one (the section renamed) must print the same text.
# The host's objcopy knows its own machine only: an arm64 vmlinux takes
# the cross binutils' (gcc-aarch64-linux-gnu, which the arm64 guests need).
nobtf_pass=0
nobtf_fail=0
objcopy=objcopy
if readelf -h "$dir/vmlinux" 2>/dev/null | grep -q '^ *Machine: *AArch64$'; then
	objcopy=${AARCH64_OBJCOPY:-aarch64-linux-gnu-objcopy}
fi
if "$objcopy" --rename-section .BTF=.BTF_hidden "$dir/vmlinux" "$tmp/vmlinux-nobtf" 2>"$tmp/objcopy.err"; then
	printf 'extend %s\nkstack -a -H >%s\nquit\n' "$so" "$tmp/nobtf.txt" >"$tmp/cmds-nobtf"
	KSTACK_SO=$so run_crash "$tmp/vmlinux-nobtf" "$dir/vmcore" "$tmp/cmds-nobtf" "$tmp/out-nobtf"
	rm -f "$tmp/vmlinux-nobtf"
	if [ -s "$tmp/nobtf.txt" ] && cmp -s "$tmp/crash.txt" "$tmp/nobtf.txt"; then
		echo "PASS: types from crash's gdb (a vmlinux without .BTF) print the same text as from BTF"
		nobtf_pass=1
	else
		echo "FAIL: types from crash's gdb (a vmlinux without .BTF) print other text than from BTF:"
		diff "$tmp/crash.txt" "$tmp/nobtf.txt" | head -20
		sed -n '1,20p' "$tmp/out-nobtf"
		nobtf_fail=1
	fi
else
	echo "FAIL: $objcopy could not hide .BTF: $(head -1 "$tmp/objcopy.err")"
	nobtf_fail=1
fi

python3 - "$dir" "$tmp/crash.txt" "$tmp/crash2.txt" "$tmp" "$top/tests/lib" "$nobtf_pass" "$nobtf_fail" <<'PY'
import os
import re
import sys
from datetime import datetime

vdir, crash_path, crash2_path, tmp, lib = sys.argv[1:6]
extra_pass, extra_fail = int(sys.argv[6]), int(sys.argv[7])
sys.path.insert(0, lib)
import compare_capture  # noqa: E402

res = compare_capture.main(vdir, crash_path, os.path.join(tmp, 'json.txt'), 'crash')
passed, failed = res.passed, res.failed
ok, bad = res.ok, res.bad
crash = list(compare_capture.parse_text(crash_path).values())
live = compare_capture.parse_text(os.path.join(vdir, 'live/kstack-a.txt'))


def header(path):
    with open(path, errors='surrogateescape') as f:
        for line in f:
            if line.startswith('zzz <'):
                return line.rstrip('\n')
    return None


hm = re.compile(r'^zzz <(.*) - (.*)$')
lm = hm.match(header(os.path.join(vdir, 'live/kstack-a.txt')) or '')
cm = hm.match(header(crash_path) or '')
if not lm or not cm:
    bad('header', 'live: %r\ncrash: %r' % (lm and lm.group(0), cm and cm.group(0)))
else:
    fmt = '%a %b %d %H:%M:%S %Z %Y'
    lt, ct = datetime.strptime(lm.group(1), fmt), datetime.strptime(cm.group(1), fmt)
    delta = (ct - lt).total_seconds()
    if lm.group(2) == cm.group(2) and 0 <= delta <= 60:
        ok('header: host %s, crash time %+d s after the capture' % (cm.group(2), delta))
    else:
        bad('header', 'live:  %s\ncrash: %s' % (lm.group(0), cm.group(0)))
if open(crash_path, 'rb').read() == open(crash2_path, 'rb').read():
    ok('a second kstack -a -H in the same session prints the same text')
else:
    bad('a second kstack -a -H in the same session printed other text')


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
    if j['tasks'] == len(crash) == nj and cm and j['host'] == cm.group(2):
        ok('--json: %d tasks in %d groups' % (nj, len(j['groups'])))
    else:
        bad('--json: %d tasks (%d in groups), the text has %d' % (j['tasks'], nj, len(crash)))
except (ValueError, KeyError, TypeError, AttributeError) as ex:
    bad('--json is not the sample as JSON: %s' % ex, read('json.txt')[:500])
groups = len({t[4] for t in crash})
plural = lambda n: '' if n == 1 else 's'
want = '%d task%s, %d distinct stack%s' % (len(crash), plural(len(crash)),
                                          groups, plural(groups))
if want in read('summary.txt').split('\n'):
    ok('-c: ' + want)
else:
    bad('-c: expected "%s"' % want, read('summary.txt')[:500])
folded = [l for l in read('folded.txt').split('\n') if l.strip()]
if folded and all(re.match(r'^.+ \d+$', l) for l in folded):
    ok('--folded: %d lines' % len(folded))
else:
    bad('--folded', read('folded.txt')[:500])
dc = compare_capture.parse_text(os.path.join(tmp, 'D.txt'))
want_d = sorted(t[0] for t in crash if t[1] == 'D')
if sorted(dc) == want_d:
    ok('-D: %d tasks in D (%d in the live capture)' %
       (len(dc), len([t for t in live.values() if t[1] == 'D'])))
else:
    bad('-D: %s, the -a -H text has %s in D' % (sorted(dc), want_d))

passed, failed = res.passed + extra_pass, res.failed + extra_fail
print('%d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
PY

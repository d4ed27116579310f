#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore on a dump cut short, as a full disk or an interrupted
# copy leaves it: sparse copies of the vmcore cut short.
#  - 50% (or 75% or 90%, the first that keeps the kernel image, which
#    KASLR places anywhere): the walk ends within seconds, without a
#    sanitizer report, says
#    the dump is truncated, gives every task whose stack is in the
#    missing part a reason (-v), and prints every other task's stack as
#    the intact dump does;
#  - 1%: linux_banner is in the missing part: the run fails saying the
#    dump is truncated, not that the vmlinux does not match it.
# crash itself stops on such a dump (it needs the per-CPU areas, at the
# top of memory), and says it "may be truncated or incomplete".
# Damage inside memory (looping lists, bad pointers, garbage stack
# pointers) is the unit test test_corrupt_vmcore, on the same dump.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	echo "SKIP: no vmcore in $dir"
	finish
fi
if [ ! -x "$kstack" ]; then
	fail "no kstack binary at $kstack"
	finish
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
size=$(stat -c %s "$dir/vmcore")

# A sparse copy of the first PERCENT of the dump: only that much is read.
cut_copy() {
	local percent=$1 out=$2 bytes=$((size * $1 / 100))

	dd if="$dir/vmcore" of="$out" bs=1M count=$((bytes / 1048576 + 1)) \
		conv=sparse status=none && truncate -s "$bytes" "$out"
}

# kstack --vmcore COPY ARGS...: OUT and ERR in $tmp, the status in $rc.
run() {
	local copy=$1 name=$2
	shift 2
	timeout 60 "$kstack" --vmcore "$copy" --vmlinux "$dir/vmlinux" "$@" \
		>"$tmp/$name.txt" 2>"$tmp/$name.err"
	rc=$?
	if [ "$rc" -eq 124 ]; then
		fail "$name: kstack did not end within 60 s"
		return 1
	fi
	if sanitizer_report "$tmp/$name.err"; then
		fail "$name: a sanitizer report"
		return 1
	fi
	return 0
}

run "$dir/vmcore" intact -a -H
if [ "$rc" -ne 0 ]; then
	fail "the intact dump: exit $rc: $(head -c 300 "$tmp/intact.err")"
	finish
fi

# KASLR places the kernel image anywhere in physical memory: the first cut
# that keeps it (50%, else 75%, 90%, 99%) is compared with the intact dump;
# a cut that loses it must say so and stop (the 1% case below).
cut=
for pc in 50 75 90 99; do
	cut_copy "$pc" "$tmp/v$pc" && run "$tmp/v$pc" "v$pc" -a -H -v || continue
	# Refused: the kernel image or what libkdumpfile needs to translate
	# addresses is in the missing part; it must say the dump is truncated.
	if [ "$rc" -ne 0 ]; then
		if grep -q "v$pc is truncated" "$tmp/v$pc.err" &&
			! grep -q 'does not match' "$tmp/v$pc.err"; then
			pass "$pc%: refused (exit $rc), saying the dump is truncated:" \
				"$(grep -v 'is truncated' "$tmp/v$pc.err" | head -n 1)"
		else
			fail "$pc%: exit $rc without saying the dump is truncated:"
			head -n 3 "$tmp/v$pc.err" | sed 's/^/  | /'
		fi
		continue
	fi
	cut=$pc
	break
done
if [ -z "$cut" ]; then
	not_applicable "the kernel image is in the last 1% of this dump; no cut keeps it"
elif true; then
	if [ "$cut" != 50 ]; then
		mv "$tmp/v$cut.txt" "$tmp/v50.txt"
		mv "$tmp/v$cut.err" "$tmp/v50.err"
		mv "$tmp/v$cut" "$tmp/v50"
	fi
	if [ "$rc" -eq 0 ] && grep -q "v$cut is truncated: it has $((size * cut / 100)) of the" "$tmp/v50.err"; then
		pass "$cut%: exit 0 and 'is truncated' ($(grep -m1 'is truncated' "$tmp/v50.err" | sed 's/.*truncated: //'))"
	else
		fail "$cut%: exit $rc, no 'is truncated':"
		head -n 5 "$tmp/v50.err" | sed 's/^/  | /'
	fi
	python3 - "$tmp/intact.txt" "$tmp/v50.txt" "$tmp/v50.err" "$cut" <<'PY'
import re
import sys

task_re = re.compile(r'^PID: +(\d+) ')


def stacks(path):
    """pid -> tuple of stack lines, from the grouped text."""
    out, pending, stack = {}, [], None
    for line in open(path, errors='surrogateescape').read().split('\n'):
        m = task_re.match(line)
        if m:
            if stack is not None:
                pending, stack = [], None
            pending.append(int(m.group(1)))
        elif line == 'Stack:':
            stack = []
            for pid in pending:
                out[pid] = stack
        elif stack is not None and line.startswith('[<'):
            stack.append(line)
        elif stack is not None and not line:
            pending, stack = [], None
    # a group without "Stack:" has the empty stack
    for pid in pending:
        out.setdefault(pid, [])
    return {pid: tuple(s) for pid, s in out.items()}


intact, cut = stacks(sys.argv[1]), stacks(sys.argv[2])
err = open(sys.argv[3], errors='replace').read()
# a cut inside the kernel image may keep linux_banner and lose the ORC
# tables: then one line says why every stack is empty
no_orc = re.search(r'^kstack: the ORC unwind tables cannot be read', err, re.M)
# modules whose struct module the cut took away, said as such
modules_cut = re.search(r'^kstack: (module at 0x[0-9a-f]+: its struct module '
                        r'cannot be read|.*the module list \(modules\) breaks off)',
                        err, re.M)

# modules whose ORC table the cut took away (their frames are unwound
# without ORC): a stack through one may end early there, said for its PID
orc_cut = re.findall(r'^kstack: module (\S+) at 0x[0-9a-f]+: its ORC table '
                     r'.* cannot be read', err, re.M)
# modules whose symbols the cut took away, named: their frames print as
# bare addresses, the stack otherwise whole
unread = set(re.findall(r'(\S+) at 0x[0-9a-f]+ \([^)]*\)',
                        ''.join(re.findall(r'^kstack: module symbols: cannot read (.*): '
                                           r'their frames print as addresses$', err, re.M))))


def module_frame(line):
    return line.endswith(']')


def unnamed(have, want):
    """have is want with the frames of unread modules as bare addresses."""
    return any(a != b for a, b in zip(have, want)) and all(
        a == b or (re.match(r'^\[<0>\] 0x[0-9a-f]+$', a) and
                   any(b.endswith(' [%s]' % m) for m in unread))
        for a, b in zip(have, want))
same = noted = 0
bad = []
for pid, st in sorted(cut.items()):
    want = intact.get(pid)
    if want is None:
        bad.append('PID %d is not in the intact dump' % pid)
    elif st == want:
        same += 1
    elif unread and len(st) == len(want) and unnamed(st, want):
        noted += 1
    elif not st and (no_orc or re.search(
            r'^kstack: PID %d: no stack: .*not (readable|in the image)' % pid, err, re.M)):
        noted += 1
    elif (modules_cut and st == want[:len(st)] and module_frame(want[len(st)])
          and re.search(r'^kstack: PID %d: (the stack ends early|no stack): '
                        r'return address outside known kernel text$' % pid,
                        err, re.M)):
        # its next frame is in a module whose struct module lies in the
        # missing part: the frames before it, and a note that says so
        noted += 1
    elif (st and st == want[:len(st)] and len(st) < len(want)
          and any(st[-1].endswith(' [%s]' % m) for m in orc_cut)
          and re.search(r'^kstack: PID %d: the stack ends early: ' % pid, err, re.M)):
        # it ends in a module that lost its ORC table to the cut
        noted += 1
    else:
        bad.append('PID %d: %r, intact %r' % (pid, st[:3], want[:3]))
# a cut may miss no stack at all (99% of a dump with the image at its end)
ok = not bad and (same > 10 or (no_orc and noted > 10))
print('%s: %s%%: %d tasks print the intact stack, %d print what the dump keeps of it and say why%s'
      % ('PASS' if ok else 'FAIL', sys.argv[4], same, noted,
         '' if ok else ':\n  ' + '\n  '.join(bad[:10])))
sys.exit(0 if ok else 1)
PY
	if [ $? -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	# a Cmd the cut shortened or emptied is marked, never passed off as whole
	cmds=$(python3 - "$tmp/intact.txt" "$tmp/v50.txt" "$tmp/v50.err" <<'PY'
import re
import sys


def cmds(path):
    out = {}
    for line in open(path, errors='surrogateescape'):
        m = re.match(r'^PID: +(\d+) .*?   Cmd: (.*)$', line.rstrip('\n'))
        if m:
            out[int(m.group(1))] = m.group(2)
    return out


intact, cut = cmds(sys.argv[1]), cmds(sys.argv[2])
err = open(sys.argv[3], errors='replace').read()
changed = [p for p in cut if p in intact and cut[p] != intact[p]]
unmarked = [p for p in changed if not re.search(
    r'^kstack: PID %d: .*(command line|name) not all in the image' % p, err, re.M)]
print(len(changed), ' '.join(map(str, unmarked[:5])))
PY
)
	if [ -n "$cmds" ] && [ -z "${cmds#* }" ]; then
		pass "$cut%: ${cmds% *} Cmd(s) the cut changed, each marked 'command line' or 'name not all in the image'"
	else
		fail "$cut%: Cmd changed by the cut without a mark, PIDs: ${cmds#* }"
	fi
	# -v: each trouble of a task once, not once as found and again after
	# (the stack's note and a short command line are two lines)
	twice=$(grep '^kstack: PID [0-9]*: ' "$tmp/v50.err" | sed 's/: no stack: /: /; s/: the stack ends early: /: /' |
		sort | uniq -d | head -n 3)
	if [ -z "$twice" ]; then
		pass "$cut% -v: $(grep -c '^kstack: PID ' "$tmp/v50.err") PID lines, each said once"
	else
		fail "$cut% -v: said twice: $twice"
	fi
	# without -v: a count and where to look
	if run "$tmp/v50" v50q -a -H; then
		# the stacks whose own memory the cut took, as -v names them,
		# are the count of those in memory the dump does not hold; a
		# stack cut short for another reason (a module's ORC table or
		# struct module in the missing part) is counted apart
		unread=$(grep -cE '^kstack: PID [0-9]+: (no stack|the stack ends early): stack memory is not readable in the image' \
			"$tmp/v50.err")
		held=$(sed -n 's/^kstack: \([0-9]*\) stacks\? \(is\|are\) in memory the dump does not hold (-v says which)$/\1/p' \
			"$tmp/v50q.err")
		if [ "${held:-0}" -eq "$unread" ]; then
			pass "$cut% without -v: $unread stack(s) in memory the dump does not hold, counted as such" \
				"($(grep -c 'could not be unwound' "$tmp/v50q.err") line(s) for the others)"
		else
			fail "$cut% without -v: -v names $unread stack(s) whose memory is missing, the count says ${held:-none}"
			sed 's/^/  | /' "$tmp/v50q.err" | head -n 5
		fi
		# #40 item 2: the text itself marks a stack or Cmd the cut took,
		# naming the cause, and such a stack groups apart from whole ones
		marks=$(python3 - "$tmp/v50.err" "$tmp/v50q.txt" <<'PY'
import re
import sys

err = open(sys.argv[1], errors='replace').read()
cut = {int(p) for p in re.findall(
    r'^kstack: PID (\d+): (?:no stack|the stack ends early): stack memory is '
    r'not readable in the image', err, re.M)}
cut |= {int(p) for p in re.findall(
    r'^kstack: PID (\d+): .*(?:command line|name) not all in the image', err, re.M)}
groups, cur, prev, bad = [], [], None, []
for line in open(sys.argv[2], errors='surrogateescape').read().split('\n'):
    m = re.match(r'^PID: +(\d+) ', line)
    if m:
        prev = int(m.group(1))
        cur.append([prev, None])
    elif line.startswith('Note: ') and cur:
        cur[-1][1] = line[6:]
    elif line == 'Stack:':
        groups.append(cur)
        cur = []
for g in groups:
    for pid, note in g:
        if pid in cut and not (note and 'not' in note and 'image' in note):
            bad.append('PID %d unmarked' % pid)
    stack_cut = [p for p, n in g if n and 'stack memory is not readable' in n]
    if stack_cut and len(stack_cut) != len(g):
        bad.append('PIDs %s grouped with whole stacks' % stack_cut[:3])
print(len(cut), '; '.join(bad[:4]))
PY
)
		if [ -n "$marks" ] && [ -z "${marks#* }" ]; then
			pass "$cut% without -v: ${marks% *} task(s) the cut touched, each with its Note, cut stacks grouped apart"
		else
			fail "$cut% without -v: ${marks#* }"
		fi
	fi
fi

# 1%: about 10 MB of a 1 GB guest, below the 16 MB where x86_64 places
# the kernel at the lowest, so the image is always in the missing part.
if cut_copy 1 "$tmp/v1" && run "$tmp/v1" v1 -a; then
	if [ "$rc" -ne 0 ] && grep -q 'v1 is truncated' "$tmp/v1.err" &&
		! grep -q 'does not match' "$tmp/v1.err"; then
		pass "1%: exit $rc, the dump is truncated: $(grep -v 'is truncated' "$tmp/v1.err" | head -n 1)"
	else
		fail "1%: exit $rc:"
		sed 's/^/  | /' "$tmp/v1.err" | head -n 5
	fi
fi
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --waits against what the kslock module (vmcores/modules/kslock,
# the locks scenario) printed on the guest's console before the dump: each
# "kslock: edge WAITER KIND 0xLOCK SYMBOL OWNER|none" must be the
# waits_for of that task in --json (kind, address, owner's PID, the symbol
# the lock lies in, with " [kslock]" after a symbol of the module; KIND
# wait_queue and folio_lock are kstack's "wait
# queue" and "folio lock", SYMBOL "-" none), and an edge of the "== waits"
# text, a queue's ending in "no owner recorded", a semaphore's owner (its
# last_holder, where the kernel keeps one) "(last holder)"; the mutex waiter in S
# (mutex_lock_interruptible) must be found as those in D are; the ABBA pair of
# "kslock: deadlock" must be the one deadlock reported and nothing else a
# deadlock; the chain of three one chain, in order; the waiters of one
# lock whom nobody waits for one chain (one holder, one chain: #40).
# Checked with the
# vmlinux, from the dump alone, and inside crash where crash opens the
# dump, and live through /proc/kcore in the guest just before the dump
# (live/kstack-waits.*); and -a -H's text with --waits must begin with the
# text without it, byte for byte.  On a PREEMPT_RT kernel a mutex or an rwsem is an
# rt_mutex, at or just inside the lock's address.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/locks).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/locks}
so=${KSTACK_SO:-$top/build/kstack.so}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	skip "no vmcore in $dir (vmcores/make-vmcore default locks $dir)"
	finish
fi
if ! grep -aq 'kslock: ready' "$dir/console.log" 2>/dev/null; then
	not_applicable "this scenario does not load the kslock module (no 'kslock: ready' in $dir/console.log)"
	finish
fi
[ -x "$kstack" ] || { fail "no $kstack (make)"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check RUN JSON TEXT: the module's edges and deadlock against one run
check() {
	{ python3 - "$dir/console.log" "$2" "$3" <<'PY' || echo "FAIL: the checker stopped (exit $?)"
import json, re, sys
edges, deadlock = {}, None
for line in open(sys.argv[1], errors='replace'):
    m = re.search(r'kslock: edge (\d+) (\S+) 0x([0-9a-f]+) (\S+) (\d+|none)', line)
    if m:
        kind = {'wait_queue': 'wait queue', 'folio_lock': 'folio lock'}.get(
            m.group(2), m.group(2))
        edges[int(m.group(1))] = (kind, int(m.group(3), 16),
                                  '' if m.group(4) == '-' else m.group(4),
                                  None if m.group(5) == 'none' else int(m.group(5)))
    m = re.search(r'kslock: deadlock (\d+) (\d+)', line)
    if m:
        deadlock = {int(m.group(1)), int(m.group(2))}
if not edges or not deadlock:
    print('FAIL: no kslock edges or deadlock on the console')
    sys.exit()
tasks = {}
for line in open(sys.argv[2]):
    for g in json.loads(line)['groups']:
        for t in g['tasks']:
            tasks[t['pid']] = t
def same_kind(want, got, lock, addr):
    if want == got and lock == addr:
        return True
    # PREEMPT_RT: struct mutex is an rt_mutex_base, an rwsem's is inside it
    return (got == 'rt_mutex' and want in ('mutex', 'rwsem') and
            lock <= addr < lock + 64)
for w, (kind, lock, sym, owner) in sorted(edges.items()):
    t = tasks.get(w)
    wf = t.get('waits_for') if t else None
    what = 'PID %d (%s %#x %s, owner %s)' % (w, kind, lock, sym, owner)
    if not wf:
        print('FAIL: %s: no waits_for in --json%s' % (what, '' if t else ' (no such task)'))
        continue
    got = (wf['kind'], int(wf['addr'], 16), wf['where'], wf['owner'])
    # a module's lock is named as its frames are: "kslock_m [kslock]"
    where = got[2] or ''
    # (kslock_cache is the module's slab cache, named as a cache is)
    module_ok = (not sym.startswith('kslock_') or sym == 'kslock_cache' or
                 where.endswith(' [kslock]'))
    ok = (same_kind(kind, got[0], lock, got[1]) and got[3] == owner and
          re.sub(r' \[[^\]]*\]$', '', where).split('+')[0] == sym and module_ok and
          wf.get('last_holder', False) == (kind == 'semaphore' and owner is not None))
    print('%s: %s: waits_for %s' % ('PASS' if ok else 'FAIL', what, wf))
extra = sorted(p for p, t in tasks.items() if 'waits_for' in t and p not in edges)
print('%s: waits_for only on the tasks the module blocked%s' %
      ('PASS' if not extra else 'FAIL', '' if not extra else ': also %s' % extra))
# the text's section: blocks of "deadlock N, ..." / "chain N, ..." lines
blocks, cur, seen = [], None, False
for line in open(sys.argv[3], errors='replace'):
    if line == '== waits\n':
        seen = True
        continue
    if not seen:
        continue
    m = re.match(r'(deadlock|chain) \d+, \d+ tasks?:$', line)
    if m:
        cur = (m.group(1), [])
        blocks.append(cur)
        continue
    m = re.match(r'  (\d+) (.*)$', line)
    if m and cur:
        cur[1].append((int(m.group(1)), m.group(2)))
print('%s: the text has a == waits section' % ('PASS' if seen else 'FAIL'))
dls = [set(p for p, _ in b) for k, b in blocks if k == 'deadlock']
print('%s: the one deadlock is the module\'s ABBA %s (reported: %s)' %
      ('PASS' if dls == [deadlock] else 'FAIL', sorted(deadlock), [sorted(d) for d in dls]))
bad = []
for k, b in blocks:
    for (p, rest), nxt in zip(b, b[1:] + ([b[0]] if k == 'deadlock' else [None])):
        if p in edges and edges[p][3] is not None:
            want = ', held by %d' % edges[p][3]
            # a semaphore's owner is its last_holder (7.x)
            if edges[p][0] == 'semaphore':
                want += ' (last holder)'
            if not rest.endswith(want):
                bad.append('%d: %s' % (p, rest))
print('%s: every edge of the text names the owner the module set%s' %
      ('PASS' if not bad else 'FAIL', '' if not bad else ': ' + '; '.join(bad[:3])))
queues = [p for p, e in edges.items() if e[0] in ('completion', 'wait queue', 'folio lock')]
said = {p: rest for k, b in blocks for p, rest in b}
bad = ['%d: %s' % (p, said.get(p)) for p in queues
       if not (said.get(p) or '').endswith(', no owner recorded')]
if not queues:
    print('N/A: no queue among the edges: a kslock of before its completion')
else:
    print('%s: the queues\' waiters (%d) end in "no owner recorded"%s' %
          ('PASS' if not bad else 'FAIL', len(queues),
           '' if not bad else ': ' + '; '.join(bad[:3])))
by_comm = {}
for p, t in tasks.items():
    by_comm[t['comm']] = p
intr = tasks.get(by_comm.get('ksl_simple_intr'))
if intr is None:
    print('N/A: no ksl_simple_intr: a kslock of before its waiter in S')
else:
    print('%s: ksl_simple_intr waits in S, found as a waiter in D is (state %s, %s)' %
          ('PASS' if intr['state'] == 'S' and 'waits_for' in intr else 'FAIL',
           intr['state'], intr.get('waits_for')))
chain3 = [by_comm.get(c) for c in ('ksl_chain_a', 'ksl_chain_b', 'ksl_chain_c')]
found = any(k == 'chain' and [p for p, _ in b] == chain3 for k, b in blocks)
print('%s: the chain of three is one chain, a -> b -> c %s' %
      ('PASS' if found else 'FAIL', chain3))
# the waiters of one lock that nobody waits for: one chain, one holder
owners = {e[3] for e in edges.values()}
by_lock = {}
for p, e in edges.items():
    if p not in owners:
        by_lock.setdefault(e[1], []).append(p)
shared = {l: sorted(ps) for l, ps in by_lock.items() if len(ps) > 1}
in_block = {}
for i, (k, b) in enumerate(blocks):
    for p, _ in b:
        in_block.setdefault(p, set()).add(i)
bad = ['%#x: %s in chains %s' % (l, ps, sorted(set().union(*(in_block.get(p, set()) for p in ps))))
       for l, ps in shared.items()
       if len(set().union(*(in_block.get(p, set()) for p in ps))) != 1 or
       any(len(in_block.get(p, ())) != 1 for p in ps)]
if not shared:
    print('N/A: no lock with two waiters among the edges: a kslock of before its readers')
else:
    print('%s: the waiters of one lock are one chain (%d lock%s)%s' %
          ('PASS' if not bad else 'FAIL', len(shared), '' if len(shared) == 1 else 's',
           '' if not bad else ': ' + '; '.join(bad[:3])))
PY
	} | sed "s#^\(PASS\|FAIL\): #\1: $1: #"
}

# run NAME ARGS...: --json and text with --waits
run() {
	local name=$1
	shift
	TZ=UTC "$kstack" --vmcore "$dir/vmcore" "$@" -a -H --waits --json \
		>"$tmp/$name.json" 2>"$tmp/$name.jerr" || fail "$name: --json exits $?: $(head -c 300 "$tmp/$name.jerr")"
	TZ=UTC "$kstack" --vmcore "$dir/vmcore" "$@" -a -H --waits \
		>"$tmp/$name.txt" 2>"$tmp/$name.err" || fail "$name: text exits $?: $(head -c 300 "$tmp/$name.err")"
	TZ=UTC "$kstack" --vmcore "$dir/vmcore" "$@" -a -H >"$tmp/$name.plain" 2>/dev/null
	if [ -s "$tmp/$name.plain" ] &&
		cmp -s "$tmp/$name.plain" <(head -c "$(stat -c %s "$tmp/$name.plain")" "$tmp/$name.txt"); then
		pass "$name: -a -H --waits begins with -a -H's text, byte for byte"
	else
		fail "$name: -a -H --waits changes the text before its section"
	fi
	count_checks < <(check "$name" "$tmp/$name.json" "$tmp/$name.txt")
}
run "with the vmlinux" --vmlinux "$dir/vmlinux"
run "the dump alone"

# the guest's own kstack --waits, live through /proc/kcore, just before
# the dump (the locks scenario keeps it in live/)
if [ -s "$dir/live/kstack-waits.json" ] && [ -s "$dir/live/kstack-waits.txt" ]; then
	count_checks < <(check "live through /proc/kcore" "$dir/live/kstack-waits.json" \
		"$dir/live/kstack-waits.txt")
	if grep -q '^(read live from /proc/kcore: a snapshot of memory that moved while it was read)$' \
		"$dir/live/kstack-waits.txt"; then
		pass "live: the section says its locks are a snapshot of moving memory"
	else
		fail "live: the section does not say it was read from moving memory:" \
			"$(sed -n '/^== waits/,+1p' "$dir/live/kstack-waits.txt" | tail -1)"
	fi
else
	not_applicable "no live/kstack-waits.{json,txt} in $dir (a locks dump made before the guest ran kstack --waits)"
fi

# inside crash
if [ ! -s "$so" ]; then
	fail "no crash extension at $so"
	finish
fi
{
	echo "extend $so"
	echo "kstack -a -H --waits --json >$tmp/crash.json"
	echo "kstack -a -H --waits >$tmp/crash.txt"
	echo quit
} >"$tmp/cmds"
KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/out"
if sanitizer_report "$tmp/out"; then
	fail "a sanitizer report in crash with $so"
	finish
fi
crash_refused "$tmp/out" "$dir" && finish
if [ ! -s "$tmp/crash.json" ] || [ ! -s "$tmp/crash.txt" ]; then
	fail "crash printed no kstack --waits: $(head -c 400 "$tmp/out")"
	finish
fi
count_checks < <(check "kstack in crash" "$tmp/crash.json" "$tmp/crash.txt")
finish

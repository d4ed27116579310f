#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack -K / -F --json: one object per probe and per ftrace record, with
# the fields of the text.  The same run as text and as JSON, and each JSON
# record must rebuild its text line (tests/lib/hooks_json_check.py): on
# the live fixtures (tests/fixtures/hooks), with --vmcore on a dump whose
# scenario set hooks (default cache/vmcores/hooks), and in crash.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/hooks}
so=${KSTACK_SO:-$top/build/kstack.so}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fix=$top/tests/fixtures/hooks
check() { count_checks < <(python3 "$top/tests/lib/hooks_json_check.py" "$@"); }

# A dump's probes that a trace event made (their handler is the trace's
# dispatcher) name it as the guest's kprobe_events did, and carry their
# handlers: -K --json of a dump says who made each probe.
kprobe_events() {
	local json=$1 ev=$dir/live/kprobe_events.txt
	if [ ! -e "$ev" ]; then
		echo "SKIP: no $ev (a dump made before the capture kept it): trace events not checked"
		return
	fi
	count_checks < <(python3 - "$json" "$ev" <<'PY'
import json
import sys

recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
events = {l.split()[0] for l in open(sys.argv[2]) if l.strip()}
probes = [r for r in recs if r.get('kind') == 'kprobe' and 'kprobe' in r]
if not probes:
    # a guest that set no probe: nothing to name
    print('%s: no probe in the dump, %d trace event(s) in the guest\'s file'
          % ('FAIL' if any(e.startswith(('p', 'r')) for e in events) and
             any(r.get('kind') == 'kprobe' for r in recs) else 'PASS',
             len(events)))
    sys.exit()
nohandler = [r['addr'] for r in probes if 'pre_handler' not in r
             or 'post_handler' not in r]
print('%s: %d probes, each with its pre_handler and post_handler%s'
      % ('FAIL' if nohandler else 'PASS', len(probes),
         ': missing on ' + ' '.join(nohandler) if nohandler else ''))
traced = [r for r in probes
          if (r.get('pre_handler') or '').startswith('kprobe_dispatcher+')
          or (r.get('ret_handler') or '').startswith('kretprobe_dispatcher+')]
named = [r['event'] for r in traced if r.get('event')]
print('%s: %d of the %d probes a trace event made name it'
      % ('PASS' if len(named) == len(traced) else 'FAIL',
         len(named), len(traced)))
wrong = [e for e in named if e not in events]
print('%s: each named event is a line of the guest\'s kprobe_events (%s)%s'
      % ('FAIL' if wrong else 'PASS', ' '.join(sorted(named)),
         ': not there: ' + ' '.join(wrong) if wrong else ''))
others = [r['addr'] for r in probes if r not in traced and r.get('event')]
print('%s: no event named for a probe no trace event made%s'
      % ('FAIL' if others else 'PASS', ': ' + ' '.join(others) if others else ''))
PY
)
}

# --- the live tool on the fixture files -------------------------------------
for o in K F; do
	KSTACK_TEST_DEBUGFS=$fix/debugfs KSTACK_TEST_TRACEFS=$fix/tracefs \
		"$kstack" -$o >"$tmp/live$o.txt" 2>/dev/null
	KSTACK_TEST_DEBUGFS=$fix/debugfs KSTACK_TEST_TRACEFS=$fix/tracefs \
		"$kstack" -$o --json >"$tmp/live$o.json" 2>/dev/null
	check "live -$o --json" $o "$tmp/live$o.txt" "$tmp/live$o.json"
done
# a line the parser does not know stays as read, as a record of its own
KSTACK_TEST_DEBUGFS=$fix/debugfs-bad KSTACK_TEST_TRACEFS=$fix/tracefs \
	"$kstack" -K --json >"$tmp/bad.json" 2>/dev/null
if grep -qx '{"kind":"kprobe","unparsed":"ffffffff81000000  k  strange line from a future kernel"}' \
	"$tmp/bad.json"; then
	pass "live -K --json: an unknown line kept as read"
else
	fail "live -K --json: the unknown line: $(head -c 300 "$tmp/bad.json")"
fi

# --- the dump ------------------------------------------------------------------
if [ ! -s "$dir/vmcore" ]; then
	echo "SKIP: no vmcore in $dir: -K/-F --json of a dump not tested"
	finish
fi
if "$kstack" --vmcore /dev/null -a 2>&1 | grep -q 'built without libkdumpfile'; then
	echo "SKIP: this kstack has no --vmcore (built without libkdumpfile)"
else
	# The dump alone; where kstack cannot read it alone, with its vmlinux.
	src=(--vmcore "$dir/vmcore")
	"$kstack" "${src[@]}" -K >/dev/null 2>"$tmp/alone.err"
	if text_only_kallsyms "$tmp/alone.err" && [ -e "$dir/vmlinux" ]; then
		not_applicable "--vmcore alone: $(grep -m1 'text symbols only' "$tmp/alone.err");" \
			"checked with --vmlinux"
		src+=(--vmlinux "$dir/vmlinux")
	fi
	for o in K F; do
		"$kstack" "${src[@]}" -$o >"$tmp/dump$o.txt" 2>/dev/null
		"$kstack" "${src[@]}" -$o --json >"$tmp/dump$o.json" 2>/dev/null
		check "--vmcore -$o --json" $o "$tmp/dump$o.txt" "$tmp/dump$o.json"
	done
	kprobe_events "$tmp/dumpK.json"
fi

# --- crash ---------------------------------------------------------------------
if ! command -v crash >/dev/null || [ ! -s "$so" ] || [ ! -e "$dir/vmlinux" ]; then
	echo "SKIP: no crash, kstack.so or $dir/vmlinux: -K/-F --json in crash not tested"
	finish
fi
cat >"$tmp/cmds" <<CMDS
extend $so
kstack -K >$tmp/crashK.txt
kstack -K --json >$tmp/crashK.json
kstack -F >$tmp/crashF.txt
kstack -F --json >$tmp/crashF.json
quit
CMDS
KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/crash.out"
if crash_refused "$tmp/crash.out" "$dir"; then
	finish
fi
if sanitizer_report "$tmp/crash.out"; then
	fail "a sanitizer report in crash"
fi
for o in K F; do
	check "crash kstack -$o --json" $o "$tmp/crash$o.txt" "$tmp/crash$o.json"
	if [ -s "$tmp/dump$o.json" ]; then
		if cmp -s "$tmp/crash$o.json" "$tmp/dump$o.json"; then
			pass "crash kstack -$o --json: the same bytes as kstack --vmcore"
		else
			fail "crash kstack -$o --json differs from kstack --vmcore:"
			diff "$tmp/crash$o.json" "$tmp/dump$o.json" | head -5
		fi
	fi
done
finish

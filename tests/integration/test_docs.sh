#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The docs say what the tool does: every key --json prints is in
# docs/json-schema.md (linked from the README), the man pages' synopses
# and -c describe the tool as it is, state P and build/kstack-static are
# documented, and the README's examples name what make demo leaves behind.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"

# --- every key of --json documented (samples, -K and -F) --------------------
"$kstack" --proc-root "$tmp/proc" -a -H --json >"$tmp/json" 2>/dev/null
if cat /proc/self/stack >/dev/null 2>&1; then
	"$kstack" -p $$ --json >>"$tmp/json" 2>/dev/null
fi
fix=tests/fixtures/hooks
for o in K F; do
	KSTACK_TEST_DEBUGFS=$fix/debugfs KSTACK_TEST_TRACEFS=$fix/tracefs \
		"$kstack" -$o --json >>"$tmp/json" 2>/dev/null
done
vmdir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
if [ -s "$vmdir/vmcore" ]; then
	for o in "-a -H" -K -F; do
		# shellcheck disable=SC2086 # the options are words
		"$kstack" --vmcore "$vmdir/vmcore" $o --json >>"$tmp/json" 2>/dev/null
	done
else
	echo "note: no vmcore in $vmdir: the dump's keys (task_struct) come from the fixtures only"
fi
count_checks < <(python3 - "$tmp/json" docs/json-schema.md <<'PY'

import json, re, sys
keys = set()
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            keys.add(k)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
for line in open(sys.argv[1]):
    if line.strip():
        walk(json.loads(line))
doc = open(sys.argv[2]).read()
documented = set(re.findall(r'`(?:groups\[\]\.)?([a-z_]+)`', doc))
missing = sorted(keys - documented)
if missing:
    print('FAIL: --json keys not in docs/json-schema.md: %s' % ', '.join(missing))
else:
    print('PASS: all %d --json keys are in docs/json-schema.md' % len(keys))
for k in ('task_struct', 'cpu', 'on_cpu', '(inlined)'):
    print(('PASS: ' if k in doc else 'FAIL: ') + 'docs/json-schema.md describes %s' % k)
PY
)
if grep -q '](docs/json-schema.md)' README.md && [ -s docs/json-schema.md ]; then
	pass "the README links docs/json-schema.md"
else
	fail "the README does not link docs/json-schema.md"
fi

# --- the man pages and help kstack -----------------------------------------
render() { MANWIDTH=300 man -l "$1" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g'; }
if ! command -v man >/dev/null; then
	echo "SKIP: no man to render the man pages"
else
	render docs/kstack.8 >"$tmp/kstack.txt"
	render docs/kstack-crash.8 >"$tmp/crash.txt"
	syn=$(sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$tmp/kstack.txt")
	grep -q -- '-K | -F \[--touched\]' <<<"$syn" &&
		pass "man synopsis: -K/-F with --touched" ||
		fail "man synopsis lacks --touched: $syn"
	grep -q -- 'kstack --vmcore VMCORE \[--vmlinux VMLINUX\] -K | -F' <<<"$syn" &&
		pass "man synopsis: --vmcore ... -K/-F" ||
		fail "man synopsis lacks --vmcore ... -K/-F"
	if grep -q -- '--version.*kstack --snoop' <<<"$syn"; then
		fail "man synopsis runs --version and kstack --snoop together"
	else
		pass "man synopsis: --version and --snoop on lines of their own"
	fi
	grep -q 'P parked' "$tmp/kstack.txt" && pass "state P documented" ||
		fail "state P is not documented in kstack.8"
	if grep -q 'not supported in crash' "$tmp/crash.txt"; then
		fail "kstack-crash.8 still says -l is not supported in crash"
	else
		pass "kstack-crash.8: no 'not supported in crash'"
	fi
fi
if grep -q 'one line per group' docs/kstack.8 docs/kstack-crash.8 extension/kstack_crash.c; then
	fail "-c is still 'one line per group': $(grep -l 'one line per group' docs/*.8 extension/*.c)"
else
	pass "-c is a paragraph per stack in the man pages and help kstack"
fi

# --- README --------------------------------------------------------------------
grep -q 'build/kstack-static' README.md && pass "README documents build/kstack-static" ||
	fail "README does not document build/kstack-static"
grep -q 'libdevel-nytprof-perl' README.md && grep -q 'NYTProf/flamegraph.pl' README.md &&
	pass "README says where flamegraph.pl comes from" ||
	fail "README pipes into flamegraph.pl without saying where it comes from"
grep -q 'it is `build/kstack`' README.md && grep -q 'build/kstack' scripts/demo.sh &&
	pass "README and make demo say the tool is build/kstack" ||
	fail "README or make demo does not say the tool is build/kstack"
# the --decode example's files are the ones make demo leaves
demo_dir=$(sed -n 's/^dir=//p' scripts/demo.sh)
ex=$(grep -o 'kstack --decode --vmlinux [^ ]* [^ ]*' README.md | head -1)
vm=$(awk '{ print $4 }' <<<"$ex")
if [ -n "$demo_dir" ] && [ "$vm" = "$demo_dir/vmlinux" ]; then
	pass "README's --decode example uses make demo's vmlinux ($vm)"
else
	fail "README's --decode example names $vm, make demo makes $demo_dir/vmlinux"
fi
# #40 item 16: a reader who copies the examples one by one gets the install
# line right above the flame graph, and make demo named right above --decode
before() { grep -B1 -F -- "$1" README.md | head -1; }
if before '| /usr/share/perl5/Devel/NYTProf/flamegraph.pl' | grep -q '^apt-get install libdevel-nytprof-perl'; then
	pass "README: the flame-graph example has its install line right above it"
else
	fail "README: the flame-graph example without its install line above it"
fi
if before 'kstack --decode --vmlinux cache/' | grep -q 'make demo'; then
	pass "README: the --decode example says make demo comes first"
else
	fail "README: the --decode example does not say make demo comes first"
fi

finish

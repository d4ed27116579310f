#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack diff (#41) on real captures: two background runs over a child
# moved from S to D (tests/integration/helpers/s_to_d.c) name that child
# as moved, S -> D, in the text and in --json, and exit 1; a capture
# against itself, and a fixture tree's text against its --json, are the
# same and exit 0; input that is no capture exits 2 with a message.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/s_to_d.sh
. "$top/tests/lib/s_to_d.sh"

tmp=$(mktemp -d)
child=
cleanup() {
	stop_s_to_d
	rm -rf "$tmp"
}
trap cleanup EXIT
export TZ=UTC

# diff A B [OPTION...]: its exit status in $rc, stdout and stderr in files
diff_of() {
	rc=0
	"$kstack" diff "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
}

# --- the same sample as text and as --json: the same signatures ------------
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"
"$kstack" --proc-root "$tmp/proc" -a -H >"$tmp/fix.txt" 2>/dev/null
"$kstack" --proc-root "$tmp/proc" -a -H --json >"$tmp/fix.json" 2>/dev/null
diff_of "$tmp/fix.txt" "$tmp/fix.json"
if [ "$rc" = 0 ] && grep -q '^the same: ' "$tmp/out"; then
	pass "text against its --json: the same, exit 0"
else
	fail "text against its --json: exit $rc"; cat "$tmp/out" "$tmp/err"
fi
diff_of "$tmp/fix.txt" "$tmp/fix.txt" --json
if [ "$rc" = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(1 if d["changed"] or d["moved"] or d["groups"] else 0)' "$tmp/out"; then
	pass "a capture against itself: --json says unchanged, exit 0"
else
	fail "a capture against itself: exit $rc: $(head -c 300 "$tmp/out")"
fi
"$kstack" --proc-root "$tmp/proc" -a -H -c >"$tmp/fix.c" 2>/dev/null
diff_of "$tmp/fix.c" "$tmp/fix.txt"
if [ "$rc" = 0 ]; then pass "-c against the text: the same counts, exit 0"; else
	fail "-c against the text: exit $rc"; cat "$tmp/out"; fi

# --- trouble: exit 2 and a message -----------------------------------------
echo "this is not a capture" >"$tmp/junk"
diff_of "$tmp/junk" "$tmp/fix.txt"
if [ "$rc" = 2 ] && grep -q "diff: .*junk: no kstack sample in it" "$tmp/err"; then
	pass "no capture: exit 2, '$(tail -1 "$tmp/err")'"
else
	fail "no capture: exit $rc, stderr '$(cat "$tmp/err")'"
fi
diff_of "$tmp/fix.txt" "$tmp/missing"
if [ "$rc" = 2 ] && grep -q "diff: .*missing.*No such file" "$tmp/err"; then
	pass "a missing file: exit 2, named"
else
	fail "a missing file: exit $rc, stderr '$(cat "$tmp/err")'"
fi
diff_of "$tmp/fix.txt"
if [ "$rc" = 2 ] && grep -q "two captures are needed" "$tmp/err"; then
	pass "one operand: exit 2, the usage"
else
	fail "one operand: exit $rc, stderr '$(cat "$tmp/err")'"
fi
diff_of "$tmp/fix.txt" --vmcore "$tmp/junk"
if [ "$rc" = 2 ] && [ -s "$tmp/err" ] && [ ! -s "$tmp/out" ]; then
	pass "a dump that is none: exit 2, '$(head -1 "$tmp/err")'"
else
	fail "a dump that is none: exit $rc, stderr '$(cat "$tmp/err")'"
fi

# --- two background runs over a child moved from S to D --------------------
if [ "$(id -u)" != 0 ] || ! cat /proc/self/stack >/dev/null 2>&1; then
	skip "background runs need root (/proc/PID/stack)"
	finish
fi
start_s_to_d "$tmp" || { fail "the S-to-D child did not build or sleep"; finish; }
export KSTACK_TEST_INTERVAL_MS=200 KSTACK_TEST_DURATION_MS=500
timeout 30 "$kstack" --foreground -a -H -d "$tmp/run1" 2>/dev/null
kill -USR1 "$child"
wait_state D || { fail "the child did not go to D"; finish; }
timeout 30 "$kstack" --foreground -a -H -d "$tmp/run2" 2>/dev/null
timeout 30 "$kstack" --foreground -a -H --json -d "$tmp/run2j" 2>/dev/null

diff_of "$tmp/run1" "$tmp/run2"
want=$(printf 'moved     PID: %5d   State: S -> D   ' "$child")
if [ "$rc" = 1 ] && grep -q "^$want" "$tmp/out"; then
	pass "two runs: exit 1, '$(grep "^$want" "$tmp/out")'"
else
	fail "two runs: exit $rc, no '$want' line"; cat "$tmp/out" "$tmp/err" | head -40
fi
diff_of "$tmp/run1" "$tmp/run2j" --json
got=$(python3 - "$tmp/out" "$child" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pid = int(sys.argv[2])
m = [t for t in d["moved"] if t["pid"] == pid]
print("%s %s" % (m[0]["a"]["state"], m[0]["b"]["state"]) if m else "none")
PY
)
if [ "$rc" = 1 ] && [ "$got" = "S D" ]; then
	pass "two runs, text against --json: --json names the child moved S -> D"
else
	fail "two runs, --json: exit $rc, the child: $got"
fi
diff_of "$tmp/run2" "$tmp/run2"
if [ "$rc" = 0 ]; then pass "a log directory against itself: exit 0"; else fail "a log directory against itself: exit $rc"; fi
finish

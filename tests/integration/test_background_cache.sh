#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Background mode takes a task's stack from the sample before when its
# /proc/PID/schedstat line has not moved (live/proc/proc_cache.h).  Here
# that is checked on the real /proc while tasks change under it
# (tests/integration/helpers/churn_children.c: they block in one call
# after another with CPU bursts between, get renamed and have their argv
# rewritten by a sibling thread while they sleep, are stopped and
# continued, exec, exit and have their PID reused): with
# KSTACK_TEST_VERIFY_CACHE every task of every sample is read a second
# time in full right after, and no record may differ unless the task's
# stat or schedstat line shows it changed in between.  The samples are of
# these children (-p, -H: the short-lived ones all take the same PID in
# turn), so that they stay short whatever else runs on the machine.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
churn=
cleanup() {
	[ -n "$churn" ] && kill "$churn" 2>/dev/null && wait "$churn" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

if ! cat /proc/self/stack >/dev/null 2>&1; then
	skip "/proc/PID/stack is not readable here (needs root)"
	finish
fi
if ! grep -qE '^[0-9]+ [0-9]+ [1-9][0-9]*$' /proc/self/schedstat 2>/dev/null; then
	skip "no /proc/PID/schedstat run count here (CONFIG_SCHED_INFO): nothing is cached"
	finish
fi

${CC:-cc} -O0 -pthread -o "$tmp/churn" "$top/tests/integration/helpers/churn_children.c"
"$tmp/churn" 8 >"$tmp/churn.out" &
churn=$!
for _ in $(seq 50); do
	grep -q '^pids ' "$tmp/churn.out" && break
	sleep 0.1
done
pids=$(sed -n 's/^pids //p' "$tmp/churn.out")
[ -n "$pids" ] || { fail "the children did not start"; finish; }

samples=${KSTACK_TEST_CACHE_SAMPLES:-60}
mkdir "$tmp/log"
rc=0
KSTACK_TEST_VERIFY_CACHE=1 KSTACK_TEST_OLED_LOCK="$tmp/oled.lock" \
	KSTACK_TEST_INTERVAL_MS=100 KSTACK_TEST_DURATION_MS=$((samples * 100)) \
	"$kstack" -b --foreground -H -p "$pids" -v -d "$tmp/log" 2>"$tmp/err" || rc=$?
kill "$churn"
wait "$churn" || true
churn=

verdict=$(sed -n 's/.*cache check: \([0-9]*\) task(s) read again in full: \([0-9]*\) differ although they did not change, \([0-9]*\) changed while read; \([0-9]*\) stack(s) from the sample before$/\1 \2 \3 \4/p' "$tmp/err")
read -r verified mismatched raced reused <<<"${verdict:-x x x x}"
if [ "$rc" = 0 ]; then
	pass "kstack -b ran ($samples samples)"
else
	fail "kstack -b exit $rc: $(tail -3 "$tmp/err")"
fi
if [ "$mismatched" = 0 ]; then
	pass "cache check: $verified record(s) equal a full read taken at once ($raced changed while read)"
else
	fail "cache check: $mismatched of $verified record(s) differ from a full read:"
	grep 'cache check' "$tmp/err" | head -5
fi
# a check that compared nothing, or a cache never used, proves nothing
# (14 tasks and more in each sample)
# a number, or the end line was missing
num() { [[ $1 =~ ^[0-9]+$ ]]; }
if num "$verified" && [ "$verified" -ge $((samples * 13)) ]; then
	pass "every task of every sample compared ($verified)"
else
	fail "too few records compared: $verified"
fi
if num "$reused" && [ "$reused" -ge $((verified / 4)) ]; then
	pass "stacks from the sample before: $reused of $verified"
else
	fail "the cache was hardly used: $reused of $verified"
fi
# what changed without running must still have been seen changing (the
# text has no comm: the check above compared it)
cmds=$({ grep -aoE 'Cmd: ([a-z])\1{8,} 8$' "$tmp/log"/kstack_*.out || true; } | sort -u | wc -l)
if [ "$cmds" -ge 2 ]; then
	pass "argv rewritten by a sibling thread: $cmds Cmd texts in the log"
else
	fail "argv rewritten by a sibling thread: only $cmds Cmd texts in the log"
fi
stops=$(grep -ac 'State:  T' "$tmp/log"/kstack_*.out || true)
reused_pids=$(sed -n 's/^reused //p' "$tmp/churn.out")
if num "$reused_pids" && [ "$reused_pids" -ge 5 ]; then
	pass "one PID taken by task after task under the sampler: $reused_pids times"
else
	fail "the PID was hardly reused (ns_last_pid raced with other forks): ${reused_pids:-none} times"
fi
echo "stopped tasks seen: $stops"
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack report by signature over time (#41): one --json log directory
# written by two background runs around a child moved from S to D
# (tests/integration/helpers/s_to_d.c).  The truth is the logs' own
# samples, each task with the signature -b --json gave it, so the test
# holds with other tasks on the host coming and going:
#   - the child is in its D signature in the last sample and not in the
#     first (the setup worked);
#   - each listed row's first, last and most equal the samples' counts,
#     and its stayed the tasks (PID and start) in it in every sample;
#   - every signature that grew is listed, and above every row that did
#     not grow;
#   - over the second run alone (--since) the child stayed in its D
#     signature;
#   - text and --json give the same rows.
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
if [ "$(id -u)" != 0 ] || ! cat /proc/self/stack >/dev/null 2>&1; then
	skip "background runs need root (/proc/PID/stack)"
	finish
fi
start_s_to_d "$tmp" || { fail "the S-to-D child did not build or sleep"; finish; }
export KSTACK_TEST_INTERVAL_MS=200 KSTACK_TEST_DURATION_MS=600 TZ=UTC
timeout 30 "$kstack" --foreground -a --json -d "$tmp/run" 2>/dev/null
kill -USR1 "$child"
wait_state D || { fail "the child did not go to D"; finish; }
# a second later: --since splits the runs on the headers' whole seconds
sleep 1.1
since=$(date '+%Y-%m-%d %H:%M:%S')
timeout 30 "$kstack" --foreground -a --json -d "$tmp/run" 2>/dev/null

# check.py LOGDIR REPORT.txt REPORT.json PID SINCE: the checks, one
# "PASS: ..." or "FAIL: ..." line each
cat >"$tmp/check.py" <<'PY'
import calendar, glob, gzip, json, re, sys, time
logdir, text, jsonl, pid, since = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
t0 = calendar.timegm(time.strptime(since, "%Y-%m-%d %H:%M:%S")) if since else 0
samples = []
# the archives in the order of their EPOCH and SEQ, then the live file
def order(f):
    m = re.search(r"\.out-(\d+)(?:-(\d+))?\.gz$", f)
    return (0, int(m.group(1)), int(m.group(2) or 0)) if m else (1, 0, 0)
for f in sorted(glob.glob(logdir + "/kstack_*.out*"), key=order):
    for line in (gzip.open(f, "rt") if f.endswith(".gz") else open(f)):
        s = json.loads(line)
        if s["time"] >= t0:
            samples.append(s)
def tasks(s):
    for g in s["groups"]:
        for t in g["tasks"]:
            yield (t["pid"], t["start_time"]), t["signature"], t["state"]
def counts(s):
    c = {}
    for _, sig, _ in tasks(s):
        c[sig] = c.get(sig, 0) + 1
    return c
per = [counts(s) for s in samples]
first, last = per[0], per[-1]
most = {}
for c in per:
    for k, v in c.items():
        most[k] = max(most.get(k, 0), v)
where = [dict((k, sig) for k, sig, _ in tasks(s)) for s in samples]
stayed = {}
for k, sig in where[0].items():
    if all(w.get(k) == sig for w in where):
        stayed[sig] = stayed.get(sig, 0) + 1
rows = [l.split() for l in open(text).read().split("== signatures")[1].split("\n== ")[0].splitlines()[2:] if l and not l.startswith("(")]
js = [json.loads(l) for l in open(jsonl)]
js = [(r["signature"], r["state"], r["first"], r["last"], r["most"], r["stayed"]) for r in js if r["type"] == "signature"]
got = [(r[0], r[1], int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows]
def say(ok, what):
    print("%s: %s" % ("PASS" if ok else "FAIL", what))
child = [sig for k, sig, st in tasks(samples[-1]) if k[0] == pid and st == "D"]
return_code = 0
if not since:
    say(child and first.get(child[0], 0) < last.get(child[0], 0) and all(k[0] != pid or sig != child[0] for k, sig in where[0].items()),
        "the child %d is in its D signature %s in the last sample, not the first" % (pid, child[0] if child else "?"))
bad = [r for r in got if (first.get(r[0], 0), last.get(r[0], 0), most.get(r[0], 0), stayed.get(r[0], 0)) != r[2:]]
say(got and not bad, "%d rows equal the %d samples' counts%s" % (len(got), len(samples), (": not " + str(bad[:3])) if bad else ""))
grown = set(k for k in last if last[k] > first.get(k, 0))
listed = [r[0] for r in got]
say(grown <= set(listed), "the %d signatures that grew are listed%s" % (len(grown), "" if grown <= set(listed) else ": missing " + str(sorted(grown - set(listed))[:3])))
order = [r[3] > r[2] for r in got]
say(order == sorted(order, reverse=True), "the grown rows come first")
say(js == got, "--json gives the same %d rows" % len(js))
if since and child:
    say(stayed.get(child[0], 0) >= 1 and any(r[0] == child[0] and r[5] >= 1 for r in got),
        "the second run alone: the child stayed in %s the whole period" % child[0])
PY
"$kstack" report --top 100000 "$tmp/run" >"$tmp/all.txt" 2>/dev/null
"$kstack" report --json --top 100000 "$tmp/run" >"$tmp/all.json" 2>/dev/null
"$kstack" report --top 100000 --since "$since" "$tmp/run" >"$tmp/late.txt" 2>/dev/null
"$kstack" report --json --top 100000 --since "$since" "$tmp/run" >"$tmp/late.json" 2>/dev/null
while IFS= read -r line; do
	case $line in
	PASS:*) pass "whole period: ${line#PASS: }" ;;
	*) fail "whole period: ${line#FAIL: }" ;;
	esac
done < <(python3 "$tmp/check.py" "$tmp/run" "$tmp/all.txt" "$tmp/all.json" "$child" "" 2>&1)
while IFS= read -r line; do
	case $line in
	PASS:*) pass "second run: ${line#PASS: }" ;;
	*) fail "second run: ${line#FAIL: }" ;;
	esac
done < <(python3 "$tmp/check.py" "$tmp/run" "$tmp/late.txt" "$tmp/late.json" "$child" "$since" 2>&1)
finish

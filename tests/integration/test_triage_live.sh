#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack triage on the running system, as root, with real children in
# every state (tests/lib/state_children.sh):
#   - it exits 0, says nothing on stderr, and prints every section of the
#     dump's triage in the dump's order;
#   - the machine's facts are uname's and /proc's (the uptime within a
#     few seconds, the load one of the two /proc/loadavg reads around
#     the run), and it says it read a running system, not a panic;
#   - the taint is /proc/sys/kernel/tainted's, with every module whose
#     /sys/module/NAME/taint has letters;
#   - the D child (a vfork parent) is in the stuck section, and without
#     /proc/kcore the "== waits" paragraph says once what needs it;
#   - the memory: MemTotal and SwapTotal /proc/meminfo's, the largest
#     slab cache one of /proc/slabinfo's (or, not root, said unreadable);
#   - a line per present CPU;
#   - --json parses (python3 -m json.tool) with every key, validates
#     against docs/triage.schema.json (python3-jsonschema), and its
#     machine and stuck tasks say the same;
#   - as nobody (setpriv, where it can drop to 65534): it still prints
#     every section, exits 0, and says in its sections what it cannot
#     read (the stacks, and /dev/kmsg where dmesg_restrict is set).
# Also run inside the vmcore guests (vmcores/scenarios/livetests.sh),
# under bash with busybox's tools.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/triage_schema.sh
. "$top/tests/lib/triage_schema.sh"
# "WHAT: N passed, N failed", the last line tests/guest/test_guest_live.sh reads
finish() {
	echo "triage live: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
# shellcheck source=tests/lib/state_children.sh
. "$top/tests/lib/state_children.sh"
tmp=$(mktemp -d)
cleanup() {
	stop_state_children
	rm -rf "$tmp"
}
trap cleanup EXIT

if ! cat /proc/self/stack >/dev/null 2>&1; then
	skip "/proc/PID/stack is not readable here (needs root): the live triage not tested"
	finish
fi
start_state_children "$tmp" || { fail "the state children did not start"; finish; }
dpid=$(pid_of D)
for _ in $(seq 50); do
	[ "$(sed 's/.*) //' "/proc/$dpid/stat" | cut -d' ' -f1)" = D ] && break
	sleep 0.1
done

sections='# The machine
# What killed it
# Taint
# Memory
# Who is stuck
# Every CPU
# Who touched the kernel
# The log'

# the text of section $2 ("# Who is stuck") of file $1
section() {
	awk -v h="$2" '/^# / { on = ($0 == h); next } on' "$1"
}

check_sections() {
	if [ "$(grep '^# ' "$1")" = "$sections" ]; then
		pass "$2: every section, in the dump's order"
	else
		fail "$2: the sections are: $(grep '^# ' "$1" | tr '\n' '|')"
	fi
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
up0=$(cut -d. -f1 /proc/uptime)
"$kstack" triage >"$tmp/triage.txt" 2>"$tmp/triage.err"
rc=$?
load1=$(cut -d' ' -f1-3 /proc/loadavg)
up1=$(cut -d. -f1 /proc/uptime)
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/triage.err" ]; then
	pass "kstack triage exits 0 and says nothing on stderr"
else
	fail "kstack triage: exit $rc: $(head -3 "$tmp/triage.err")"
fi
check_sections "$tmp/triage.txt" "kstack triage"

# The machine: what uname and /proc say
field() { sed -n "s/^$1: *//p" "$tmp/triage.txt" | head -1; }
# the count of CPUs in a /sys list such as 0-3,8
cpus_in() {
	tr ',' '\n' <"$1" | awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n }'
}
present=$(cpus_in /sys/devices/system/cpu/present)
online=$(cpus_in /sys/devices/system/cpu/online)
want_m="$(uname -n)|$(uname -r)|$(uname -m)|$present present, $online online|$(cat /proc/cmdline)"
got_m="$(field 'Node name')|$(field Release)|$(field Machine)|$(field CPUs)|$(field 'Command line')"
[ "$got_m" = "$want_m" ] && pass "the machine is uname's, /sys's and /proc's" ||
	fail "the machine: got '$got_m' want '$want_m'"
up=$(field Uptime | sed 's/.*(\([0-9]*\)\..*/\1/')
[ -n "$up" ] && [ "$up" -ge "$up0" ] && [ "$up" -le "$up1" ] &&
	pass "the uptime is /proc/uptime's ($up s)" ||
	fail "the uptime: '$(field Uptime)', /proc/uptime $up0..$up1"
load=$(field 'Load average')
[ "$load" = "$load0" ] || [ "$load" = "$load1" ] &&
	pass "the load is /proc/loadavg's ($load)" ||
	fail "the load: '$load', /proc/loadavg '$load0' then '$load1'"
grep -q '^Read from:    a running system (live, not a panic)$' "$tmp/triage.txt" &&
	grep -q '^Panic: none (the system is running)$' <<<"$(section "$tmp/triage.txt" '# What killed it')" &&
	pass "it says it read a running system, and no panic" ||
	fail "the running system or the panic line is missing"

# The taint: /proc/sys/kernel/tainted and /sys/module/*/taint
tainted=$(cat /proc/sys/kernel/tainted)
taint=$(section "$tmp/triage.txt" '# Taint')
if [ "$tainted" = 0 ]; then
	grep -qx 'Not tainted' <<<"$taint" && pass "not tainted, as /proc says" ||
		fail "the taint: '$taint' with /proc/sys/kernel/tainted 0"
else
	missing=
	for f in /sys/module/*/taint; do
		[ -s "$f" ] || continue
		m=$(basename "$(dirname "$f")")
		grep -qw -- "$m" <<<"$taint" || missing="$missing $m"
	done
	grep -q '^Tainted: ' <<<"$taint" && [ -z "$missing" ] &&
		pass "tainted ($tainted), with every module that set a letter" ||
		fail "the taint: '$taint' (mask $tainted, modules missing:$missing)"
fi

# The memory: /proc/meminfo's lines (MemTotal and SwapTotal do not move;
# the rest may between the read and this check), /proc/slabinfo's caches
mem=$(section "$tmp/triage.txt" '# Memory')
want=$(grep -E '^(MemTotal|SwapTotal):' /proc/meminfo | tr -s ' ')
got=$(grep -E '^(MemTotal|SwapTotal):' <<<"$mem" | tr -s ' ')
[ -n "$want" ] && [ "$got" = "$want" ] &&
	pass "MemTotal and SwapTotal are /proc/meminfo's" ||
	fail "the memory: '$got', /proc/meminfo '$want'"
first=$(printf '%s\n' "$mem" | sed -n '/^The largest slab caches (of [0-9]*):$/{n;p}' |
	sed 's/^ *[0-9]* kB  \([^:]*\):.*/\1/')
if [ -r /proc/slabinfo ]; then
	[ -n "$first" ] && grep -q "^$first " /proc/slabinfo &&
		pass "the largest slab cache, $first, is one of /proc/slabinfo's" ||
		fail "the slab caches: $(grep -m 1 'slab caches' <<<"$mem")"
else
	grep -q '^The largest slab caches: unknown (/proc/slabinfo: ' <<<"$mem" &&
		pass "/proc/slabinfo is not readable here, and the section says so" ||
		fail "the slab caches: $(grep -m 1 'slab caches' <<<"$mem")"
fi

# Who is stuck: the D child, and what needs /proc/kcore said once
stuck=$(section "$tmp/triage.txt" '# Who is stuck')
if grep -q '^[0-9]* tasks* in D' <<<"$stuck"; then
	pass "the stuck section counts the tasks in D"
else
	fail "the stuck section: $(printf '%s\n' "$stuck" | head -3)"
fi
if [ -r /proc/kcore ] && head -c 1 /proc/kcore >/dev/null 2>&1; then
	not_applicable "/proc/kcore is readable: the blockers are read, not refused"
else
	n=$(grep -c 'need /proc/kcore' <<<"$stuck")
	[ "$n" = 1 ] && pass "without /proc/kcore the section says once what needs it" ||
		fail "'need /proc/kcore' said $n times"
fi

# Every CPU: a line per present CPU
n=$(grep -c '^CPU [0-9]*: PID [0-9]* (' <<<"$(section "$tmp/triage.txt" '# Every CPU')")
[ "$n" = "$present" ] && pass "a line per present CPU ($n)" ||
	fail "$n CPU lines for $present present CPUs"
grep -q '^(live: .*is a snapshot)$' <<<"$(section "$tmp/triage.txt" '# Every CPU')" &&
	pass "the CPUs' section says a live stack is a snapshot" ||
	fail "the CPUs' section does not say its stacks are snapshots"

# Who touched the kernel: -K's and -F's parts, or why not
hooks=$(section "$tmp/triage.txt" '# Who touched the kernel')
grep -q -e '^kprobes: ' -e '^== summary' <<<"$hooks" &&
	grep -q -e '^ftrace: ' -e '^== current_tracer' <<<"$hooks" &&
	pass "the hooks section has kprobes and ftrace" ||
	fail "the hooks section: $(printf '%s\n' "$hooks" | head -3)"

# The log: /dev/kmsg's last lines
grep -q '^The last [0-9]* of [0-9]* lines:$' <<<"$(section "$tmp/triage.txt" '# The log')" &&
	pass "the log has its last lines" || fail "the log: $(section "$tmp/triage.txt" '# The log' | head -2)"

# --json: one document with every key, saying what the text says
"$kstack" triage --json >"$tmp/triage.json" 2>"$tmp/json.err"
rc=$?
if ! command -v python3 >/dev/null; then
	skip "python3 missing: kstack triage --json not parsed"
elif ! python3 -c 'import json' 2>/dev/null; then
	not_applicable "this python3 has no json module (a guest's): --json is parsed on the host"
elif [ "$rc" -eq 0 ] && python3 -m json.tool "$tmp/triage.json" >/dev/null; then
	pass "kstack triage --json exits 0 and parses"
	count_checks < <(python3 - "$tmp/triage.json" "$dpid" "$(uname -n)" "$(uname -r)" "$present" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
dpid, node, release, present = int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
keys = ["schema", "version", "machine", "panic", "report", "panic_cpu",
        "memory", "stuck", "root_blocker", "cpus", "kprobes", "ftrace", "log"]
mkeys = ["nodename", "release", "machine", "cpus_present", "cpus_online",
         "uptime_ns", "loadavg", "cmdline", "panicked", "not_read"]
def check(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what)
check(list(d) == keys, "--json has every key in order: %s" % list(d))
m = d["machine"]
check(list(m) == mkeys and m["nodename"] == node and m["release"] == release
      and m["cpus_present"] == present and m["panicked"] is False,
      "--json's machine is uname's, and no panic")
def pids(o):
    if isinstance(o, dict):
        if "pid" in o:
            yield o["pid"]
        for v in o.values():
            yield from pids(v)
    elif isinstance(o, list):
        for v in o:
            yield from pids(v)
check(d["stuck"] is not None and dpid in set(pids(d["stuck"])),
      "--json's stuck tasks have the D child %d" % dpid)
check(isinstance(d["cpus"], list) and len(d["cpus"]) == present,
      "--json has every present CPU")
check(d["panic"]["panic_cpu"] == -1 and d["panic_cpu"] is None,
      "--json's panic: none")
mem = d["memory"]["meminfo"] or {}
total = [l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal:")]
check(total and mem.get("MemTotal") == int(total[0]),
      "--json's memory: MemTotal is /proc/meminfo's")
PY
)
	check_triage_schema "$tmp/triage.json"
else
	fail "kstack triage --json: exit $rc, or it does not parse: $(head -3 "$tmp/json.err")"
fi

# the D child in the text: named among its group's examples, or (many
# tasks in D share a vfork's stack on a busy host) its stack's group is
top_frame=$(head -1 "/proc/$dpid/stack" 2>/dev/null)
if grep -q "[ ,] *$dpid (" <<<"$stuck" ||
	{ [ -n "$top_frame" ] && grep -qF -- "$top_frame" <<<"$stuck"; }; then
	pass "the text's stuck section has the D child $dpid or its stack"
else
	fail "the text's stuck section misses the D child $dpid"
fi

# not root: every section still, and what it cannot read said in them
if command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	# shellcheck source=tests/lib/nobody.sh
	. "$top/tests/lib/nobody.sh"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$(nobody_kstack "$kstack" "$tmp")" triage >"$tmp/nobody.txt" 2>"$tmp/nobody.err" || rc=$?
	[ "$rc" = 0 ] && [ ! -s "$tmp/nobody.err" ] &&
		pass "as nobody: exit 0, nothing on stderr" ||
		fail "as nobody: exit $rc: $(head -3 "$tmp/nobody.err")"
	check_sections "$tmp/nobody.txt" "as nobody"
	grep -q '^MemTotal: ' <<<"$(section "$tmp/nobody.txt" '# Memory')" &&
		grep -q '^The largest slab caches: unknown (/proc/slabinfo: ' <<<"$(section "$tmp/nobody.txt" '# Memory')" &&
		pass "as nobody: /proc/meminfo's lines, and the slab caches said unreadable" ||
		fail "as nobody: the memory: $(section "$tmp/nobody.txt" '# Memory' | grep -m 1 'slab')"
	grep -q 'unknown (.*needs root' <<<"$(section "$tmp/nobody.txt" '# Who is stuck')" &&
		pass "as nobody: the stuck section says the stacks need root" ||
		fail "as nobody: $(section "$tmp/nobody.txt" '# Who is stuck' | head -2)"
	grep -q '^(not all of it could be read: the stacks: ' <<<"$(section "$tmp/nobody.txt" '# Every CPU')" &&
		pass "as nobody: the CPUs' section says their stacks cannot be read" ||
		fail "as nobody: the CPUs' section does not say its stacks are unread"
	if [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" = 1 ]; then
		grep -q '^unknown (/dev/kmsg: ' <<<"$(section "$tmp/nobody.txt" '# The log')" &&
			pass "as nobody: the log says /dev/kmsg is refused" ||
			fail "as nobody: the log: $(section "$tmp/nobody.txt" '# The log' | head -1)"
	fi
	[ "$(field 'Node name')" = "$(sed -n 's/^Node name: *//p' "$tmp/nobody.txt")" ] &&
		pass "as nobody: the machine is read all the same" ||
		fail "as nobody: the machine differs"
else
	# busybox's setpriv (a vmcore guest's) has no --reuid
	not_applicable "no setpriv that drops to uid 65534: the unprivileged triage is not checked"
fi
finish

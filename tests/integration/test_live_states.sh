#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The live tool on the real /proc: children really sleeping (S), stopped
# (T), traced (t), zombie (Z), a vfork parent (D), a busy loop (R) and a
# threaded process.  For each, the state, start time and Cmd printed must
# be what /proc says, and the printed stack what /proc/PID/stack says.
# It also runs inside vmcore guests (the livetests scenario, under bash with
# busybox's tools, tests/guest/test_guest_live.sh reads the result).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/state_children.sh
. "$top/tests/lib/state_children.sh"
tmp=$(mktemp -d)
cleanup() {
	stop_state_children
	rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

if ! cat /proc/self/stack >/dev/null 2>&1; then
	echo "SKIP: /proc/PID/stack is not readable here (needs root)"
	echo "live states: 0 passed, 0 failed"
	exit 0
fi

start_state_children "$tmp" || { bad "children did not start"; exit 1; }

# wait until every child has reached its state (the kernel needs a moment)
state_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1; }
for l in S T t Z D R; do
	for _ in $(seq 50); do
		[ "$(state_of "$(pid_of "$l")")" = "$l" ] && break
		sleep 0.1
	done
done

export TZ=UTC
# getconf where there is one; a vmcore guest's busybox has none.  The
# kernel hands every process USER_HZ as AT_CLKTCK (17) in its aux vector,
# which is where glibc's sysconf(_SC_CLK_TCK) reads it (64-bit entries).
clk_tck() {
	if command -v getconf >/dev/null; then
		getconf CLK_TCK
		return
	fi
	od -An -v -tu8 -w16 /proc/self/auxv | awk '$1 == 17 { print $2; f = 1; exit } END { exit !f }'
}
clk=$(clk_tck)
btime=$(awk '/^btime/ { print $2 }' /proc/stat)

# expected "PID: ..." line computed independently of the tool
expect_line() {
	local pid=$1 letter=$2 ticks start cmd
	ticks=$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f20)
	start=$(date -d "@$((btime + ticks / clk))" '+%Y/%m/%d %H:%M:%S')
	cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" | sed 's/ $//')
	[ -n "$cmd" ] || cmd=$(sed 's/^[0-9]* (\(.*\)) .*/\1/' "/proc/$pid/stat")
	printf 'PID: %5d   State: %2s   Start Time: %s   Cmd: %s\n' "$pid" "$letter" "$start" "$cmd"
}

for l in S T t Z D R; do
	pid=$(pid_of "$l")
	"$kstack" -p "$pid" >"$tmp/out.$l" 2>"$tmp/err.$l" || { bad "$l: exit $?"; cat "$tmp/err.$l"; continue; }
	want=$(expect_line "$pid" "$l")
	got=$(grep '^PID:' "$tmp/out.$l")
	[ "$got" = "$want" ] && ok || bad "$l: got '$got' want '$want'"
	[ "$l" = R ] && continue	# a running task's stack changes under us
	sed -n '/^Stack:$/,$p' "$tmp/out.$l" | sed '1d' | sed '/^$/d' >"$tmp/stack.$l"
	sed '/^$/d' "/proc/$pid/stack" >"$tmp/want.$l"
	if cmp -s "$tmp/stack.$l" "$tmp/want.$l"; then ok; else
		bad "$l: stack differs"; diff "$tmp/want.$l" "$tmp/stack.$l" || true
	fi
done

# every state selector finds its child
for sel in "-S S" "-T T" "-T t" "-Z Z" "-D D" "-R R"; do
	set -- $sel
	pid=$(pid_of "$2")
	# Into a file first: under pipefail, a grep -q that stops reading early
	# (SIGPIPE) or an exit status for some other task (this host's PID 1,
	# running under load, may not let its stack be read) is no miss.
	"$kstack" "$1" >"$tmp/sel" 2>/dev/null
	if grep -q "^PID: *$pid   State: *$2 " "$tmp/sel"; then ok; else bad "selector $1 misses $2 $pid"; fi
done

# -a lists processes in ascending PID order, each once
"$kstack" -a >"$tmp/all" 2>/dev/null
grep '^PID:' "$tmp/all" | awk '{ print $2 }' >"$tmp/pids.all"
if sort -n "$tmp/pids.all" | uniq -d | grep -q .; then bad "-a lists a PID twice"; else ok; fi
for l in S T t Z D R M; do
	grep -qx "$(pid_of "$l")" "$tmp/pids.all" && ok || bad "-a misses $l"
done

# -H shows the three threads of M; without it, one line
m=$(pid_of M)
n1=$("$kstack" -p "$m" | grep -c '^PID:')
n3=$("$kstack" -H -p "$m" | grep -c '^PID:')
[ "$n1" = 1 ] && [ "$n3" = 3 ] && ok || bad "threads: -p gives $n1, -H -p gives $n3"

# grouping: the three sleeping threads share one stack
g=$("$kstack" -H -p "$m" | grep -c '^Stack:')
[ "$g" = 1 ] && ok || bad "threads not grouped: $g stacks"

# a PID that vanished before the read
"$kstack" -p 999999999 >/dev/null 2>"$tmp/err" && bad "missing PID gave 0" ||
	{ grep -q 'does not exist' "$tmp/err" && ok || bad "missing PID message"; }

# not root: exit 3 and say why (only where setpriv can drop capabilities)
if command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	# shellcheck source=tests/lib/nobody.sh
	. "$top/tests/lib/nobody.sh"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$(nobody_kstack "$kstack" "$tmp")" -p "$(pid_of S)" >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 3 ] && grep -q CAP_SYS_ADMIN "$tmp/err" && ok ||
		bad "unprivileged: exit $rc: $(cat "$tmp/err")"
else
	# busybox's setpriv (a vmcore guest's) has no --reuid
	echo "N/A: no setpriv that drops to uid 65534: the unprivileged refusal is not checked"
fi

echo "live states: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Background mode under systemd when journald stops reading (issue #40,
# item 20).  The kernel queues net.unix.max_dgram_qlen datagrams for a
# socket that does not read; a blocking send() past that waited for
# journald: sampling stopped, -t and SIGTERM were ignored, only SIGKILL
# ended it.  Here a journal socket of our own (KSTACK_TEST_JOURNAL_SOCKET,
# selected as under systemd: JOURNAL_STREAM names kstack's stderr) never
# reads, or reads only after the queue overflowed, while kstack runs as
# kstack.service does (--foreground) with -v: two DEBUG lines a sample,
# a sample every 5 ms.  Each run is bounded: a kstack that hangs is a
# FAIL, then killed.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

if [ "$(id -u)" != 0 ] || ! cat /proc/self/stack >/dev/null 2>&1; then
	skip "background mode needs root (/proc/PID/stack)"
	finish
fi
if ! command -v python3 >/dev/null; then
	skip "python3 missing: no journal socket to block"
	finish
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
sleep 1000 &
sleeper=$!
disown	# no "Killed" line when cleanup ends it
pids+=("$sleeper")

name="kstack_$(uname -n | tr / _).out"
count_samples() {
	local n
	n=$(grep -c '^zzz <' "$1" 2>/dev/null || true)
	echo "${n:-0}"
}
alive() { [ -d "/proc/$1" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" != Z ]; }
gone() { ! alive "$1"; }
# Polls "$@" every 50 ms for at most $1 seconds.
wait_until() {
	local tries=$(($1 * 20))
	shift
	while ! "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.05
	done
}

# Lines past the queue: a sample is two lines with -v, so qlen + 2
# samples are twice what the queue holds.  The socket's send buffer may
# stop the sender sooner; never later.
qlen=$(cat /proc/sys/net/unix/max_dgram_qlen 2>/dev/null || echo 512)
want=$((qlen + 2))
overflowed() { [ "$(count_samples "$1/$name")" -gt "$want" ]; }
# the time to take them at 5 ms, twice over for a busy machine
run_ms=$((want * 10))
[ "$run_ms" -ge 2000 ] || run_ms=2000
run_s=$(((run_ms + 999) / 1000))

# journal SOCK OUT GO: a datagram socket at SOCK that reads nothing until
# the file GO exists ("-": never), then appends each entry and "--" to OUT.
journal() {
	python3 - "$@" <<'PY' &
import os, socket, sys, time
sock, out, go = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sock)
while go == "-" or not os.path.exists(go):
	time.sleep(0.05)
s.settimeout(5)
with open(out, "ab", buffering=0) as f:
	while True:
		try:
			f.write(s.recv(65536) + b"--\n")
		except socket.timeout:
			break
PY
	jpid=$!
	pids+=("$jpid")
	wait_until 5 test -S "$1" || true
}

# start CASE DURATION_MS: the service's kstack --foreground -v logging to
# $tmp/CASE.sock, in the background, its PID in kpid.
start() {
	local err=$tmp/$1.err stream
	: >"$err"
	stream=$(stat -c %d:%i "$err")
	KSTACK_TEST_JOURNAL_SOCKET=$tmp/$1.sock KSTACK_TEST_OLED_LOCK=$tmp/oled.lock \
		KSTACK_TEST_INTERVAL_MS=5 KSTACK_TEST_DURATION_MS=$2 JOURNAL_STREAM=$stream \
		"$kstack" --foreground -v -p "$sleeper" -d "$tmp/$1" 2>>"$err" &
	kpid=$!
	pids+=("$kpid")
}

# --- a journal that never reads: -t still ends the run --------------------
journal "$tmp/deaf.sock" "$tmp/deaf.txt" -
: >"$tmp/deaf.err"
stream=$(stat -c %d:%i "$tmp/deaf.err")
start=$(date +%s)
rc=0
# the guard: a run that hangs is killed 10 s after its end
KSTACK_TEST_JOURNAL_SOCKET=$tmp/deaf.sock KSTACK_TEST_OLED_LOCK=$tmp/oled.lock \
	KSTACK_TEST_INTERVAL_MS=5 KSTACK_TEST_DURATION_MS=$run_ms JOURNAL_STREAM=$stream \
	timeout -s KILL $((run_s + 10)) "$kstack" --foreground -v -p "$sleeper" \
	-d "$tmp/deaf" 2>>"$tmp/deaf.err" || rc=$?
if [ "$rc" = 0 ]; then
	pass "deaf journal: the run ends by itself after $(($(date +%s) - start)) s (-t ${run_ms} ms)"
else
	fail "deaf journal: exit $rc after $(($(date +%s) - start)) s of a ${run_ms} ms run (137: killed by the guard)"
fi
n=$(count_samples "$tmp/deaf/$name")
if [ "$n" -gt "$want" ]; then
	pass "deaf journal: sampling went on past the full queue ($n samples, queue $qlen)"
else
	fail "deaf journal: sampling stopped at $n samples (queue $qlen, wanted more than $want)"
fi
kill "$jpid" 2>/dev/null || true

# --- a journal that never reads: SIGTERM still ends the run ---------------
journal "$tmp/term.sock" "$tmp/term.txt" -
start term 60000
if wait_until $((run_s + 10)) overflowed "$tmp/term"; then
	pass "SIGTERM: sampling went on past the full queue"
else
	fail "SIGTERM: sampling stopped at $(count_samples "$tmp/term/$name") samples (queue $qlen)"
fi
kill -TERM "$kpid" 2>/dev/null || true
if wait_until 5 gone "$kpid"; then
	rc=0
	wait "$kpid" || rc=$?
	if [ "$rc" = 0 ]; then
		pass "SIGTERM: ends the run with the journal full, exit 0"
	else
		fail "SIGTERM: exit $rc"
	fi
else
	fail "SIGTERM: still running 5 s later, in $(cat "/proc/$kpid/wchan" 2>/dev/null)"
	kill -KILL "$kpid" 2>/dev/null || true
fi
kill "$jpid" 2>/dev/null || true

# --- a journal that reads again: how many were dropped --------------------
journal "$tmp/late.sock" "$tmp/late.txt" "$tmp/late.go"
start late $((run_ms + 2000))
if wait_until $((run_s + 10)) overflowed "$tmp/late"; then
	pass "late journal: sampling went on past the full queue"
else
	fail "late journal: sampling stopped at $(count_samples "$tmp/late/$name") samples (queue $qlen)"
fi
touch "$tmp/late.go"
if ! wait_until $((run_s + 10)) gone "$kpid"; then
	fail "late journal: still running $((run_s + 10)) s after the start of a $((run_ms + 2000)) ms run"
	kill -KILL "$kpid" 2>/dev/null || true
fi
# the reader's last entries reach the file a moment later
t=$tmp/late.txt
if wait_until 5 grep -q "^MESSAGE=[0-9]* log line(s) dropped in all: the journal did not take them, the last: " "$t"; then
	pass "late journal: the run's end says how many lines were dropped"
else
	fail "late journal: no 'dropped in all' entry: $(grep '^MESSAGE=' "$t" 2>/dev/null | tail -3 | tr '\n' '|')"
fi
total=$(sed -n 's/^MESSAGE=\([0-9]*\) log line(s) dropped in all: .*/\1/p' "$t" 2>/dev/null | tail -1)
if grep -q "^MESSAGE=[1-9][0-9]* log line(s) dropped: the journal did not take them (" "$t" 2>/dev/null; then
	pass "late journal: the first entry taken again says how many were dropped before it"
else
	fail "late journal: no 'dropped' notice when the journal read again"
fi
# the notices' counts add up to the total (none of them was dropped:
# the reader kept up after the go)
sum=$(sed -n 's/^MESSAGE=\([0-9]*\) log line(s) dropped: the journal.*/\1/p' "$t" 2>/dev/null |
	awk '{ s += $1 } END { print s + 0 }')
if [ -n "$total" ] && [ "$total" -gt 0 ] && [ "$sum" = "$total" ]; then
	pass "late journal: $total line(s) dropped, as the notices say"
else
	fail "late journal: ${total:-no} line(s) dropped in all, the notices say $sum"
fi
if awk '/^MESSAGE=Finished/ { f = 1 } f && /^DROPPED=/ { print; exit }' "$t" 2>/dev/null | grep -qx "DROPPED=${total:-x}"; then
	pass "late journal: DROPPED=$total in the last entries"
else
	fail "late journal: no DROPPED=${total:-} field after the Finished entry"
fi
kill "$jpid" 2>/dev/null || true

# --- -b: the detached sampler logs to the journal, and is not held -------
# (its stderr is /dev/null after the fork: the journal is its only log)
journal "$tmp/daemon.sock" "$tmp/daemon.txt" "$tmp/daemon.go"
: >"$tmp/daemon.err"
stream=$(stat -c %d:%i "$tmp/daemon.err")
rc=0
KSTACK_TEST_JOURNAL_SOCKET=$tmp/daemon.sock KSTACK_TEST_OLED_LOCK=$tmp/oled.lock \
	KSTACK_TEST_INTERVAL_MS=5 KSTACK_TEST_DURATION_MS=$((run_ms + 2000)) \
	JOURNAL_STREAM=$stream timeout 20 "$kstack" -b -v -p "$sleeper" \
	-d "$tmp/daemon" 2>>"$tmp/daemon.err" || rc=$?
# the lock file names the sampler
dpid=$(cat "$tmp/daemon/.kstack.lock" 2>/dev/null || true)
if [ "$rc" = 0 ] && [ -n "$dpid" ]; then
	pids+=("$dpid")
	if wait_until $((run_s + 10)) overflowed "$tmp/daemon"; then
		pass "-b: sampling went on past the full queue"
	else
		fail "-b: sampling stopped at $(count_samples "$tmp/daemon/$name") samples (queue $qlen)"
	fi
	touch "$tmp/daemon.go"
	if wait_until $((run_s + 10)) gone "$dpid"; then
		pass "-b: the sampler ends by itself"
	else
		fail "-b: the sampler still runs $((run_s + 10)) s after the start of a $((run_ms + 2000)) ms run, in $(cat "/proc/$dpid/wchan" 2>/dev/null)"
		kill -KILL "$dpid" 2>/dev/null || true
	fi
	if wait_until 5 grep -q "^MESSAGE=[1-9][0-9]* log line(s) dropped in all: " "$tmp/daemon.txt"; then
		pass "-b: the sampler's end in the journal, with the lines it dropped"
	else
		fail "-b: the sampler's end is not in the journal: $(grep '^MESSAGE=' "$tmp/daemon.txt" 2>/dev/null | tail -3 | tr '\n' '|')"
	fi
else
	fail "-b: did not start (exit $rc): $(head -c 300 "$tmp/daemon.err")"
fi
kill "$jpid" 2>/dev/null || true

finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack where scripts expect oled kstack: oled's zeros (-t 0 one sample,
# -m 0 and -n 0 no rotation), its log line, the heartbeat header of a
# sample that matched nothing, oled's /run/lock/oled-kstack.lock, -h, the
# "Differences from oled kstack" sections, and kstack dropped in as
# /usr/libexec/oled-tools/kstack and run the way the oled wrapper runs its
# commands (execv with argv[0] "oled-kstack") from a scratch root.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

tmp=$(mktemp -d)
sleeper=
holder=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	for p in $sleeper $holder; do
		kill -KILL "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
name="kstack_$(uname -n | tr / _).out"
count() { grep -c '^zzz <' "$1" 2>/dev/null || true; }
archives() { find "$1" -name "$name-*.gz" | wc -l; }

# --- -h: oled's argparse prints its help and exits 0 -----------------------
rc=0
"$kstack" -h >"$tmp/help" 2>"$tmp/err" || rc=$?
check "-h exits 0 with the help on stdout" [ "$rc" = 0 ] && [ -s "$tmp/help" ] && [ ! -s "$tmp/err" ]
check "-h: -m with its default and range" grep -q '^  -m MB .*(default 1, 0-1048576; 0: never)$' "$tmp/help"
# (the range on the line after: -t's help fills its first line)
grep -A2 '^  -t TIME .*minutes with -b' "$tmp/help" >"$tmp/help-t"
check "-h: -t with its default and range" grep -q '(default 30, 0-525600; 0: one sample)$' "$tmp/help-t"

# --- the differences are written down where users look --------------------
# the section of README.md or kstack.8, roff's "\-" read as "-"
differences() {
	sed -n '/^\(## \|\.SH \)D[Ii][Ff][Ff][Ee][Rr][Ee][Nn][Cc][Ee][Ss]/,/^\(## [^D]\|\.SH EXIT\)/p' "$top/$1" |
		sed 's/\\-/-/g'
}
for f in README.md docs/kstack.8; do
	differences "$f" >"$tmp/differences"
	for what in "/run/lock/oled-kstack.lock" "/usr/libexec/oled-tools/kstack" \
		"%(msecs)d" "0600" "exit" "twice" "mean what"; do
		check "$f names '$what' among the differences" grep -qF -- "$what" "$tmp/differences"
	done
done

if [ "$(id -u)" != 0 ] || ! cat /proc/self/stack >/dev/null 2>&1; then
	echo "SKIP: background mode and the drop-in need root (/proc/PID/stack)"
	finish
fi
# stdout and stderr away: a pipe reading the test's output must not wait for it
sleep 1000 >/dev/null 2>&1 &
sleeper=$!
disown
# The tests' own oled lock: a real oled kstack (or another test run) must
# not see or block these runs.  One case below uses the real path.
export KSTACK_TEST_OLED_LOCK=$tmp/oled-kstack.lock

# --- -t 0: one sample and exit, whatever the interval ----------------------
d=$tmp/t0
rc=0
timeout 20 "$kstack" --foreground -t 0 -p "$sleeper" -d "$d" 2>"$tmp/t0.log" || rc=$?
check "-t 0: exit 0 at once, got $rc" [ "$rc" = 0 ]
check "-t 0: one sample, got $(count "$d/$name")" [ "$(count "$d/$name")" = 1 ]
check "-t 0: the sleeper in it" grep -q "^PID: *$sleeper   State:  S " "$d/$name"
check "log: oled's line, milliseconds as 3 digits" \
	grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} INFO - Finished: 1 sample\(s\) written' "$tmp/t0.log"

# --- -m 0 and -n 0: never rotated, not even the previous run's log --------
for opt in "-m 0" "-n 0"; do
	d=$tmp/zero${opt// /}
	# shellcheck disable=SC2086 # the option is two words
	for _ in 1 2; do
		KSTACK_TEST_INTERVAL_MS=20 KSTACK_TEST_DURATION_MS=200 KSTACK_TEST_MAX_BYTES=1 \
			timeout 20 "$kstack" --foreground $opt -p "$sleeper" -d "$d" 2>>"$tmp/zero.log"
	done
	n=$(count "$d/$name")
	check "$opt: no archive after two runs of tiny limits, got $(archives "$d")" [ "$(archives "$d")" = 0 ]
	check "$opt: both runs in the one log ($n samples)" [ "$n" -ge 16 ]
done
# the same runs without the zero rotate every sample: the limit is real
d=$tmp/nonzero
KSTACK_TEST_INTERVAL_MS=20 KSTACK_TEST_DURATION_MS=200 KSTACK_TEST_MAX_BYTES=1 \
	timeout 20 "$kstack" --foreground -n 3 -p "$sleeper" -d "$d" 2>/dev/null
check "-n 3 with the same limit: 3 archives, got $(archives "$d")" [ "$(archives "$d")" = 3 ]

# --- heartbeat: a sample that matched nothing still writes its header ------
# no task can have a PID above pid_max
gone=$(($(cat /proc/sys/kernel/pid_max) + 1))
d=$tmp/heartbeat
KSTACK_TEST_INTERVAL_MS=50 KSTACK_TEST_DURATION_MS=200 timeout 20 \
	"$kstack" --foreground -p "$gone" -d "$d" 2>/dev/null
check "heartbeat: 5 headers for 5 empty samples, got $(count "$d/$name")" [ "$(count "$d/$name")" = 5 ]
check "heartbeat: only headers" [ -z "$(grep -v -e '^zzz <' -e '^$' "$d/$name")" ]
d=$tmp/heartbeat-json
KSTACK_TEST_INTERVAL_MS=50 KSTACK_TEST_DURATION_MS=200 timeout 20 \
	"$kstack" --foreground --json -p "$gone" -d "$d" 2>/dev/null
check "heartbeat: 5 JSON lines with tasks 0" [ "$(grep -c '"tasks":0,"groups":\[\]}$' "$d/$name")" = 5 ]
# --folded has no header: nothing is written, and nothing is counted
d=$tmp/heartbeat-folded
KSTACK_TEST_INTERVAL_MS=50 KSTACK_TEST_DURATION_MS=200 timeout 20 \
	"$kstack" --foreground --folded -p "$gone" -d "$d" 2>"$tmp/folded.log"
check "--folded: no file for empty samples" [ ! -s "$d/$name" ]
check "--folded: 0 samples counted as written" grep -q "INFO - Finished: 0 sample(s) written" "$tmp/folded.log"

# --- the oled lock ---------------------------------------------------------
# oled kstack holds it: its own open(path, "w") and flock(LOCK_EX), in
# one process (flock(1) would leave the lock to its child): refused
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w")
fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
time.sleep(1000)' "$KSTACK_TEST_OLED_LOCK" >"$tmp/held" 2>&1 </dev/null &
holder=$!
for _ in $(seq 100); do
	[ -s "$tmp/held" ] && break
	sleep 0.05
done
d=$tmp/locked
rc=0
timeout 20 "$kstack" -b -t 0 -p "$sleeper" -d "$d" 2>"$tmp/locked.log" || rc=$?
check "oled lock held: -b refused with exit 4, got $rc" [ "$rc" = 4 ]
check "oled lock held: says so" grep -q "ERROR - oled kstack is running: $KSTACK_TEST_OLED_LOCK is locked" "$tmp/locked.log"
check "oled lock held: nothing written, nothing rotated" [ ! -e "$d/$name" ]
# #40 item 13: a refused start leaves no lock file of its own
check "oled lock held: no .kstack.lock left in DIR" [ ! -e "$d/.kstack.lock" ]
kill "$holder"
wait "$holder" 2>/dev/null
holder=
# kstack holds it shared: two runs on two directories go on together,
# and oled's exclusive attempt fails while they run
KSTACK_TEST_INTERVAL_MS=100 "$kstack" --foreground -p "$sleeper" -d "$tmp/a" 2>/dev/null &
a=$!
KSTACK_TEST_INTERVAL_MS=100 "$kstack" --foreground -p "$sleeper" -d "$tmp/b" 2>/dev/null &
b=$!
sleep 0.5
check "two kstacks on two directories run together" kill -0 "$a" "$b"
check "oled's flock(LOCK_EX|LOCK_NB) fails while they run" \
	python3 -c 'import fcntl, sys
f = open(sys.argv[1], "w")
try:
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
except OSError:
    sys.exit(0)
sys.exit(1)' "$KSTACK_TEST_OLED_LOCK"
kill -TERM "$a" "$b"
wait "$a" "$b"
check "and succeeds once they stopped" flock -n -x "$KSTACK_TEST_OLED_LOCK" true
# the real path, seen in /proc/locks (a shared flock: no one is blocked)
d=$tmp/real
KSTACK_TEST_OLED_LOCK='' KSTACK_TEST_INTERVAL_MS=100 "$kstack" --foreground \
	-p "$sleeper" -d "$d" 2>/dev/null &
kpid=$!
sleep 0.5
ino=$(stat -c %i /run/lock/oled-kstack.lock 2>/dev/null || echo none)
check "default: a shared flock on /run/lock/oled-kstack.lock" \
	grep -Eq "FLOCK +ADVISORY +READ +$kpid +[0-9a-f]+:[0-9a-f]+:$ino " /proc/locks
kill -TERM "$kpid"
wait "$kpid"

# --- dropped in as /usr/libexec/oled-tools/kstack --------------------------
# The oled wrapper (oled.py): oled COMMAND ARGS... runs
# os.execv("/usr/libexec/oled-tools/COMMAND", ["oled-COMMAND"] + ARGS).
root=$tmp/root
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/libexec/oled-tools"
cp "$kstack" "$root/usr/bin/kstack"
ln -s ../../bin/kstack "$root/usr/libexec/oled-tools/kstack"
cat >"$root/usr/sbin/oled" <<EOF
#!/usr/bin/env python3
import os, sys
BINDIR = "$root/usr/libexec/oled-tools"
cmd = sys.argv[1]
os.execv(os.path.join(BINDIR, cmd), ["oled-" + cmd] + sys.argv[2:])
EOF
chmod +x "$root/usr/sbin/oled"
oled=$root/usr/sbin/oled
rc=0
"$oled" kstack -p "$sleeper" >"$tmp/oled.out" 2>"$tmp/oled.err" || rc=$?
check "oled kstack -p: exit 0, got $rc" [ "$rc" = 0 ]
check "oled kstack -p: oled's text" grep -q "^PID: *$sleeper   State:  S   Start Time: " "$tmp/oled.out"
check "oled kstack -p: header first" grep -q '^zzz <' <(head -n 1 "$tmp/oled.out")
# the examples of oled's man page: bundled flags and -Dp PID,PID
rc=0
"$oled" kstack -SD >"$tmp/oled.out" 2>&1 || rc=$?
check "oled kstack -SD: exit 0, got $rc" [ "$rc" = 0 ]
rc=0
"$oled" kstack -Dp "$sleeper,$$" >"$tmp/oled.out" 2>&1 || rc=$?
check "oled kstack -Dp PID,PID: exit 0, got $rc" [ "$rc" = 0 ]
check "oled kstack -Dp PID,PID: the sleeper" grep -q "^PID: *$sleeper " "$tmp/oled.out"
# background: forks, says "Background PID", writes one sample for -t 0
d=$tmp/oled-bg
rc=0
"$oled" kstack -S -b -t 0 -i 10 -d "$d" -p "$sleeper" 2>"$tmp/oledbg.log" || rc=$?
check "oled kstack -b: exit 0, got $rc" [ "$rc" = 0 ]
check "oled kstack -b: Background PID line" grep -q 'INFO - Background PID: [0-9]*$' "$tmp/oledbg.log"
bgpid=$(sed -n 's/.*Background PID: \([0-9]*\)$/\1/p' "$tmp/oledbg.log")
for _ in $(seq 100); do
	if [ -z "$bgpid" ] || [ ! -d "/proc/$bgpid" ]; then break; fi
	sleep 0.1
done
check "oled kstack -b -t 0: one sample written" [ "$(count "$d/$name")" = 1 ]
rc=0
"$oled" kstack >/dev/null 2>"$tmp/oled.err" || rc=$?
check "oled kstack without selection: usage error, exit 2, got $rc" [ "$rc" = 2 ]
rc=0
"$oled" kstack -h >"$tmp/oled.out" 2>&1 || rc=$?
check "oled kstack -h: exit 0, got $rc" [ "$rc" = 0 ]
finish

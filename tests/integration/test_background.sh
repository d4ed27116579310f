#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Background mode end to end, in seconds rather than minutes thanks to the
# test-only knobs KSTACK_TEST_INTERVAL_MS, KSTACK_TEST_DURATION_MS and
# KSTACK_TEST_MAX_BYTES: the schedule, well-formed samples, rotation and
# retention, the disk guard on a small tmpfs, SIGTERM, the lock, daemonizing,
# SIGKILL during heavy rotation, symlinks and file modes.
#
# "Well formed" is checked by a grammar of oled's text (check_samples): a
# file is a run of samples, each "zzz <..." and an empty line, then groups
# of PID lines, "Stack:", frames and an empty line (two for an empty stack).
# A sample cut short can only be the last one in a file; that happens only
# when a kstack is killed inside the write() of that sample (the next run
# archives that file as it is).
#
# It also runs inside vmcore guests (the livetests scenario, under bash with
# busybox's tools: no GNU-only options here; tests/guest/test_guest_live.sh
# reads the result).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() {
	local what=$1
	shift
	if "$@"; then ok; else bad "$what"; fi
}

name="kstack_$(uname -n | tr / _).out"

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

alive() { [ -d "/proc/$1" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" != Z ]; }
gone() { ! alive "$1"; }
# "STATE PPID SID" of task $1, read from /proc/PID/stat as ps would: a
# vmcore guest's busybox ps has no -p and no sid column.  Prints nothing
# for a task that has gone.
task_stat() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1,2,4; }
# Sends signal $1 to our child $2 and returns its exit status, waiting at
# most $3 s; a child still there then is killed and reported as 124.  The
# watchdog is forked before the signal, so that nothing is forked between
# the child's exit and the wait: bash forgets the status of a child it
# reaped when a later child gets the same PID (seen once under a loaded
# run, PIDs wrapping: "wait: pid 2000 is not a child of this shell", 127).
# The watchdog is stopped with SIGKILL: a subshell that a catchable signal
# hits before it has reset the traps it was forked with runs this script's
# EXIT trap, cleanup(), which removed $tmp under the running test (seen in
# the arm64 guest, where the subshell starts slowly).
stop_child() {
	local rc=0 dog
	( sleep "$3"; kill -KILL "$2" ) >/dev/null 2>&1 &
	dog=$!
	kill -"$1" "$2"
	wait "$2" || rc=$?
	kill -KILL "$dog" 2>/dev/null || true
	wait "$dog" 2>/dev/null || true
	[ "$rc" != 137 ] || rc=124
	return "$rc"
}

# check_samples FILE: prints "SAMPLES TORN" (TORN 0 or 1: the last sample
# is cut short) or "BAD line N: ..." when the file is not a run of whole
# samples with at most a torn last one.
check_samples() {
	local partial=0
	[ -s "$1" ] && [ -n "$(tail -c1 "$1")" ] && partial=1
	awk -v partial="$partial" '
	function bad(msg) { if (!err) err = "BAD line " NR - 1 ": " msg ": " prev; }
	function step(line) {
		if (st == "H") { if (line ~ /^zzz </) { n++; st = "B" } else bad("no header"); return }
		if (st == "B") { if (line == "") st = "G"; else bad("no empty line after the header"); return }
		if (st == "G") {
			if (line ~ /^zzz </) { n++; st = "B" }
			else if (line ~ /^PID: +[0-9]+   State: +[A-Za-z]   Start Time: [0-9\/]+ [0-9:]+   Cmd: /) st = "P"
			else bad("sample or group expected")
			return
		}
		if (st == "P") {
			if (line ~ /^PID: +[0-9]+   State: /) return
			if (line == "Stack:") { st = "F"; frames = 0; return }
			bad("PID or Stack: expected"); return
		}
		if (st == "F") {
			if (line ~ /^\[<[0-9a-f]+>\] /) { frames++; return }
			if (line == "") { st = frames ? "G" : "E"; return }
			bad("frame expected"); return
		}
		if (st == "E") { if (line == "") st = "G"; else bad("second empty line expected") }
	}
	BEGIN { st = "H"; n = 0; err = "" }
	NR > 1 { step(prev) }
	{ prev = $0 }
	END {
		# a last line without its newline is a torn write: any prefix goes
		if (NR && !partial) step(prev)
		if (err) { print err; exit }
		print n, (partial || (NR && st != "G")) ? 1 : 0
	}' "$1"
}

# every archive and the live file: valid gzip, whole samples
check_dir_samples() {
	local dir=$1 f r
	for f in "$dir"/"$name"-*.gz; do
		[ -e "$f" ] || continue
		gzip -t "$f" || { echo "BAD gzip $f"; return 1; }
		gzip -dc "$f" >"$dir.check"
		r=$(check_samples "$dir.check")
		case $r in BAD*) echo "$f: $r"; return 1 ;; esac
	done
	if [ -e "$dir/$name" ]; then
		r=$(check_samples "$dir/$name")
		case $r in BAD*) echo "$dir/$name: $r"; return 1 ;; esac
	fi
	rm -f "$dir.check"
}

count_samples() {
	local f n total=0
	for f in "$@"; do
		[ -e "$f" ] || continue
		case $f in
		*.gz) n=$(gzip -dc "$f" 2>/dev/null | grep -c '^zzz <' || true) ;;
		*) n=$(grep -c '^zzz <' "$f" 2>/dev/null || true) ;;
		esac
		total=$((total + ${n:-0}))
	done
	echo "$total"
}

mode_of() { stat -c %a "$1"; }
between() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# ---------------------------------------------------------------------------
# Disk guard on a 2 MB tmpfs, run inside "unshare -m" by the main part.
if [ "${1:-}" = --tmpfs-part ]; then
	tmp=$2
	sleeper=$3
	mnt=$tmp/mnt
	mkdir -p "$mnt"
	mount -t tmpfs -o size=2m,mode=0755 tmpfs "$mnt"
	out=$mnt/out
	# fill FILE KB: pushes the file system to or past 50%
	fill() { dd if=/dev/zero of="$mnt/fill" bs=1k count="$1" status=none; }
	used_pct() {
		local b f
		read -r b f < <(stat -f -c '%b %f' "$mnt")
		echo $((((b - f) * 100 + b - 1) / b))
	}

	# refused at start, with oled's message and the used% oled computes
	fill 1400
	rc=0
	KSTACK_TEST_INTERVAL_MS=100 "$kstack" --foreground -x 50 -p "$sleeper" \
		-d "$out" 2>"$tmp/guard0.log" || rc=$?
	want="ERROR - Maximum filesystem space reached. Used: $(used_pct)%, Threshold: 50%"
	check "full at start: exit 4, got $rc" [ "$rc" = 4 ]
	check "full at start: '$want' in $(cat "$tmp/guard0.log")" grep -q -- "$want\$" "$tmp/guard0.log"
	check "full at start: nothing written" [ ! -e "$out/$name" ]
	rm -f "$mnt/fill"

	# running: writing stops with one line and resumes when space returns
	KSTACK_TEST_INTERVAL_MS=100 KSTACK_TEST_DURATION_MS=60000 \
		"$kstack" --foreground -v -x 50 -p "$sleeper" -d "$out" 2>"$tmp/guard.log" &
	kpid=$!
	nsamples() { count_samples "$out/$name"; }
	at_least() { [ "$(nsamples)" -ge "$1" ]; }
	check "guard: samples before the fill" wait_until 10 at_least 3
	fill 1400
	logged() { grep -q -- "$1" "$tmp/guard.log"; }
	check "guard: 'writing paused' logged" wait_until 10 logged "WARNING - Maximum filesystem space reached. Used: [0-9]*%, Threshold: 50%; writing paused"
	before=$(nsamples)
	sleep 1.2	# a dozen intervals
	check "guard: no sample written while full ($before -> $(nsamples))" [ "$(nsamples)" = "$before" ]
	n=$(grep -c "Maximum filesystem space reached" "$tmp/guard.log" || true)
	check "guard: logged once, not $n times" [ "$n" = 1 ]
	rm -f "$mnt/fill"
	check "guard: 'writing resumed' logged" wait_until 10 logged "INFO - Filesystem space below the threshold again. Used: [0-9]*%, Threshold: 50%; writing resumed"
	check "guard: samples written again" wait_until 10 at_least $((before + 3))
	rc=0
	stop_child TERM "$kpid" 10 || rc=$?
	check "guard: SIGTERM exit 0, got $rc" [ "$rc" = 0 ]
	check "guard: skipped samples counted" grep -q "INFO - [1-9][0-9]* sample(s) skipped: filesystem full" "$tmp/guard.log"
	# the guard's pause is a cause, not an error: nothing lost
	check "guard: skipped, not lost" grep -q "stopping after [1-9][0-9]* sample(s) written, 0 lost\$" "$tmp/guard.log"
	r=$(check_samples "$out/$name")
	check "guard: whole samples ($r)" [ "${r#* }" = 0 ]
	umount "$mnt"

	# Write errors: samples bigger than the space left (a 64 KB command
	# line in a fixture tree), under a threshold the guard lets through
	# (-x 100).  Every lost sample is counted, not only the first error.
	"$top/tests/fixtures/make-proc-tree.sh" "$tmp/bigproc"
	mkdir -p "$tmp/bigproc/30"
	printf '30 (big) S 1 30 30 0 -1 4194560 10 0 0 0 0 0 0 0 20 0 1 0 100 1000 10\n' >"$tmp/bigproc/30/stat"
	head -c 65536 /dev/zero | tr '\0' x >"$tmp/bigproc/30/cmdline"
	printf '[<0>] do_wait+0x114/0x320\n' >"$tmp/bigproc/30/stack"
	mount -t tmpfs -o size=256k,mode=0755 tmpfs "$mnt"
	mkdir -m 0700 "$out"
	: >"$out/.kstack.lock"	# the lock's block, before the fill
	fill 200
	lost() { sed -n 's/.*INFO - Finished: \([0-9]*\) sample(s) written, \([0-9]*\) lost$/\1 \2/p' "$1"; }
	rc=0
	KSTACK_TEST_INTERVAL_MS=100 KSTACK_TEST_DURATION_MS=1000 timeout 30 \
		"$kstack" --foreground -v -x 100 --proc-root "$tmp/bigproc" -a -d "$out" \
		2>"$tmp/enospc.log" || rc=$?
	check "ENOSPC: exit 0, got $rc" [ "$rc" = 0 ]
	read -r w l < <(lost "$tmp/enospc.log") || true
	n=$(grep -c "DEBUG - Sample [0-9]* not written: No space left on device" "$tmp/enospc.log" || true)
	all_lost() { [ "${w:-x}" = 0 ] && [ "${l:-0}" -ge 5 ]; }
	check "ENOSPC: finished line says ${w:-?} written, ${l:-?} lost" all_lost
	check "ENOSPC: every lost sample named ($n lines, ${l:-?} lost)" [ "$n" = "${l:-x}" ]
	n=$(grep -c "ERROR - writing $out/$name: No space left on device" "$tmp/enospc.log" || true)
	check "ENOSPC: the error logged once, not $n times" [ "$n" = 1 ]
	check "ENOSPC: the total with its last error" grep -q "WARNING - ${l:-x} sample(s) lost: not taken or not written because of errors, the last: No space left on device" "$tmp/enospc.log"
	check "ENOSPC: no partial sample left" [ ! -s "$out/$name" ]

	# space returns while running: writing resumes, the gap is counted
	KSTACK_TEST_INTERVAL_MS=100 KSTACK_TEST_DURATION_MS=60000 \
		"$kstack" --foreground -v -x 100 --proc-root "$tmp/bigproc" -a -d "$out" \
		2>"$tmp/enospc2.log" &
	kpid=$!
	some_lost() { [ "$(grep -c 'not written: No space' "$tmp/enospc2.log")" -ge 3 ]; }
	check "ENOSPC running: samples lost" wait_until 10 some_lost
	rm -f "$mnt/fill"
	logged() { grep -q -- "$1" "$tmp/enospc2.log"; }
	check "ENOSPC running: writing again, with the count" wait_until 10 logged "INFO - Writing samples again after [0-9]* sample(s) not written"
	rc=0
	stop_child TERM "$kpid" 10 || rc=$?
	check "ENOSPC running: SIGTERM exit 0, got $rc" [ "$rc" = 0 ]
	n=$(grep -c 'DEBUG - Sample [0-9]* not written' "$tmp/enospc2.log" || true)
	# the first gap: the samples lost before writing resumed (64 KB
	# samples can fill the 256 KB tmpfs again before the SIGTERM)
	gap=$(sed -n 's/.*Writing samples again after \([0-9]*\) sample(s) not written/\1/p' "$tmp/enospc2.log" | head -n 1)
	lost_before=$(awk '/Writing samples again after/ { exit }
		/DEBUG - Sample [0-9]* not written/ { c++ } END { print c + 0 }' "$tmp/enospc2.log")
	line=$(grep "INFO - Received SIGTERM: stopping after" "$tmp/enospc2.log")
	check "ENOSPC running: '$line' counts the $n lost" \
		grep -q "stopping after [1-9][0-9]* sample(s) written, $n lost\$" "$tmp/enospc2.log"
	check "ENOSPC running: the gap ($gap) is the samples lost before it ($lost_before of $n)" \
		[ "$gap" = "$lost_before" ]
	written=$(grep -c 'DEBUG - Sample [0-9]* at ' "$tmp/enospc2.log" || true)
	check "ENOSPC running: $written written, $(count_samples "$out/$name") in the file" \
		[ "$(count_samples "$out/$name")" = "$written" ]
	umount "$mnt"
	echo "$passed $failed" >"$tmp/tmpfs-counts"
	exit 0
fi

if [ "$(id -u)" != 0 ] || ! cat /proc/self/stack >/dev/null 2>&1; then
	echo "SKIP: background mode needs root (/proc/PID/stack)"
	echo "background: 0 passed, 0 failed"
	exit 0
fi

tmp=$(mktemp -d)
sleeper=
children=()
cleanup() {
	for p in "${children[@]}" $sleeper; do
		kill -KILL "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# a quiet task to sample with -p: small samples, a stable stack
sleep 1000 &
sleeper=$!
disown	# no "Killed" line when cleanup ends it
export KSTACK_TEST_INTERVAL_MS=200

# --- schedule, duration, well-formed samples, modes ------------------------
d=$tmp/sched/out
rc=0
KSTACK_TEST_INTERVAL_MS=100 KSTACK_TEST_DURATION_MS=2000 timeout 20 \
	"$kstack" --foreground -v -p "$sleeper" -d "$d" 2>"$tmp/sched.log" || rc=$?
check "duration: exits 0 by itself, got $rc" [ "$rc" = 0 ]
n=$(count_samples "$d/$name")
# deadlines 0, 100, ..., 2000 ms: 21 samples unless the machine stalled
check "duration: 21 samples, got $n" between "$n" 19 21
r=$(check_samples "$d/$name")
check "schedule: whole samples, none torn ($r)" [ "$r" = "$n 0" ]
check "schedule: the sleeper's line" grep -q "^PID: *$sleeper   State:  S   Start Time: " "$d/$name"
# no drift: each sample within 100 ms of its absolute deadline, the last too
drift=$(sed -n 's/.*DEBUG - Sample [0-9]* at +\([0-9]*\) ms (due +\([0-9]*\) ms).*/\1 \2/p' \
	"$tmp/sched.log" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0, NR }')
check "schedule: max lateness ${drift% *} ms over ${drift#* } samples" [ "${drift% *}" -lt 100 ]
check "schedule: last deadline +2000 ms" grep -q "(due +2000 ms)" "$tmp/sched.log"
check "log: start line" grep -Eq "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} INFO - This script will run up to: [0-9-]+ [0-9:]+$" "$tmp/sched.log"
check "log: directory line" grep -q "INFO - The requested data will be written to the directory: $d\$" "$tmp/sched.log"
check "log: finished line" grep -q "INFO - Finished: $n sample(s) written" "$tmp/sched.log"

# --- samples slower than the interval: skipped or late, never lost --------
# Each sample is made to last 5 ms (KSTACK_TEST_SAMPLE_MS: a fast machine
# samples every task in under 4 ms), over a 2 ms interval: each overruns.  The
# deadlines that pass while one runs are skipped, the next one is taken
# late and written; the log says which and why, and nothing is "lost".
od=$tmp/overrun/out
rc=0
KSTACK_TEST_INTERVAL_MS=2 KSTACK_TEST_SAMPLE_MS=5 KSTACK_TEST_DURATION_MS=400 timeout 20 \
	"$kstack" --foreground -v -a -m 100 -d "$od" 2>"$tmp/overrun.log" || rc=$?
check "overrun: exits 0, got $rc" [ "$rc" = 0 ]
w=$(sed -n 's/.*INFO - Finished: \([0-9]*\) sample(s) written, \([0-9]*\) lost$/\1 \2/p' "$tmp/overrun.log")
skipped=$(sed -n 's/.*INFO - \([0-9]*\) sample(s) skipped: sampling took longer than the interval$/\1/p' "$tmp/overrun.log")
late=$(sed -n 's/.*INFO - \([0-9]*\) sample(s) written late: .*/\1/p' "$tmp/overrun.log")
check "overrun: none lost (written, lost: ${w:-?})" [ "${w#* }" = 0 ]
check "overrun: ${skipped:-no} sample(s) skipped, counted apart" [ "${skipped:-0}" -gt 0 ]
check "overrun: ${late:-no} sample(s) written late" [ "${late:-0}" -gt 0 ]
# deadlines 0, 2, ..., 400 ms: each is written or skipped
check "overrun: written ${w% *} + skipped ${skipped:-?} = the 201 deadlines" \
	[ "$((${w% *} + ${skipped:-0}))" = 201 ]
check "overrun: the cause named" grep -q "WARNING - Sampling took longer than the interval: sample [0-9]* started [0-9]* ms after its time and took [0-9]* ms; [0-9]* sample(s) skipped" "$tmp/overrun.log"
check "overrun: samples written late are in the file" [ "$(count_samples "$od/$name")" = "${w% *}" ]
check "modes: new dir 0700, got $(mode_of "$d")" [ "$(mode_of "$d")" = 700 ]
check "modes: log 0600, got $(mode_of "$d/$name")" [ "$(mode_of "$d/$name")" = 600 ]
check "modes: lock 0600" [ "$(mode_of "$d/.kstack.lock")" = 600 ]
# a new run archives the previous log first (oled's forced rotation)
KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" --foreground -p "$sleeper" -d "$d" 2>/dev/null
gz=("$d/$name"-*.gz)
check "restart: previous log archived" test "${#gz[@]}" = 1 -a -e "${gz[0]}"
check "restart: archive 0600" [ "$(mode_of "${gz[0]}")" = 600 ]
check "restart: archive holds the previous samples" [ "$(count_samples "${gz[0]}")" = "$n" ]
check "restart: new log holds one sample" [ "$(count_samples "$d/$name")" = 1 ]
# an existing directory is used as it is
mkdir -m 0750 "$tmp/existing"
(umask 000 && KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" --foreground -p "$sleeper" \
	-d "$tmp/existing" 2>/dev/null)
check "modes: existing dir kept 0750" [ "$(mode_of "$tmp/existing")" = 750 ]
check "modes: log 0600 under umask 000" [ "$(mode_of "$tmp/existing/$name")" = 600 ]
check "modes: lock 0600 under umask 000" [ "$(mode_of "$tmp/existing/.kstack.lock")" = 600 ]

# --- rotation by size, retention, same-second names -----------------------
d=$tmp/rot
rc=0
KSTACK_TEST_INTERVAL_MS=50 KSTACK_TEST_DURATION_MS=3000 KSTACK_TEST_MAX_BYTES=1000 \
	timeout 30 "$kstack" --foreground -v -n 3 -p "$sleeper" -d "$d" 2>"$tmp/rot.log" || rc=$?
check "rotation: exit 0, got $rc" [ "$rc" = 0 ]
made=$(sed -n "s/.*DEBUG - Rotated $name to \\(.*\\) (.*/\\1/p" "$tmp/rot.log")
nmade=$(echo "$made" | grep -c . || true)
check "rotation: many rotations, got $nmade" [ "$nmade" -ge 10 ]
kept=$(cd "$d" && ls "$name"-*.gz | sort)
want=$(echo "$made" | tail -n 3 | sort)
check "retention: the newest 3 kept: '$kept' vs '$want'" [ "$kept" = "$want" ]
check "rotation: same-second archives get a suffix" grep -Eq "Rotated $name to $name-[0-9]+-[0-9]+\.gz" "$tmp/rot.log"
check "rotation: no archive overwritten" [ "$(echo "$made" | sort -u | wc -l)" = "$nmade" ]
check "rotation: archives valid, whole samples" check_dir_samples "$d"
size=$(stat -c %s "$d/$name")
check "rotation: log stays near the limit ($size bytes)" [ "$size" -le 1500 ]
check "rotation: no temporary file left" [ -z "$(cd "$d" && ls | grep -E '\.(pending|tmp)$' || true)" ]

# --- SIGTERM and SIGINT: the current sample finishes, exit 0 --------------
for sig in TERM INT; do
	d=$tmp/sig$sig
	"$kstack" --foreground -v -p "$sleeper" -d "$d" 2>"$tmp/sig$sig.log" &
	kpid=$!
	children+=("$kpid")
	has_two() { [ "$(count_samples "$d/$name")" -ge 2 ]; }
	check "SIG$sig: samples appear" wait_until 10 has_two
	rc=0
	stop_child "$sig" "$kpid" 10 || rc=$?
	check "SIG$sig: exit 0, got $rc" [ "$rc" = 0 ]
	check "SIG$sig: logged" grep -q "INFO - Received SIG$sig: stopping after [0-9]* sample(s)" "$tmp/sig$sig.log"
	r=$(check_samples "$d/$name")
	check "SIG$sig: whole samples only ($r)" [ "${r#* }" = 0 ]
done
# a signal during a long sleep ends the run at once, not at the next deadline
d=$tmp/sigsleep
KSTACK_TEST_INTERVAL_MS=60000 "$kstack" --foreground -p "$sleeper" -d "$d" 2>/dev/null &
kpid=$!
children+=("$kpid")
has_one() { [ "$(count_samples "$d/$name")" -ge 1 ]; }
check "SIGTERM in sleep: first sample" wait_until 10 has_one
rc=0
stop_child TERM "$kpid" 3 || rc=$?
check "SIGTERM in sleep: exit 0 within 3 s, got $rc" [ "$rc" = 0 ]

# --- daemonizing, the lock, SIGTERM to the daemon --------------------------
d=$tmp/daemon
rc=0
timeout 20 "$kstack" -b -p "$sleeper" -d "$d" 2>"$tmp/daemon.log" || rc=$?
check "daemon: parent exits 0, got $rc" [ "$rc" = 0 ]
check "daemon: spawning line" grep -q "INFO - Spawning process to run in background...$" "$tmp/daemon.log"
dpid=$(sed -n 's/.*INFO - Background PID: \([0-9]*\)$/\1/p' "$tmp/daemon.log")
check "daemon: Background PID line" [ -n "$dpid" ]
dpid=${dpid:-0}
children+=("$dpid")
check "daemon: running" alive "$dpid"
if alive "$dpid"; then
	read -r _ ppid sid < <(task_stat "$dpid")
	check "daemon: not our child (ppid $ppid)" [ "$ppid" != $$ ]
	check "daemon: not a session leader" [ "$sid" != "$dpid" ]
	check "daemon: stdin /dev/null" [ "$(readlink "/proc/$dpid/fd/0")" = /dev/null ]
	check "daemon: stdout /dev/null" [ "$(readlink "/proc/$dpid/fd/1")" = /dev/null ]
	check "daemon: stderr /dev/null (the caller's is let go)" [ "$(readlink "/proc/$dpid/fd/2")" = /dev/null ]
	check "daemon: lock names it" [ "$(cat "$d/.kstack.lock")" = "$dpid" ]
fi
check "daemon: samples appear" wait_until 10 has_one
# a second instance on the same directory is refused, naming the holder
rc=0
timeout 20 "$kstack" -b -p "$sleeper" -d "$d" 2>"$tmp/second.log" || rc=$?
check "lock: second instance exit 4, got $rc" [ "$rc" = 4 ]
check "lock: message names PID $dpid: $(cat "$tmp/second.log")" \
	grep -q "ERROR - Another kstack (PID $dpid) is already writing to $d: $d/.kstack.lock is locked" "$tmp/second.log"
rc=0
timeout 20 "$kstack" --foreground -p "$sleeper" -d "$d" 2>/dev/null || rc=$?
check "lock: --foreground refused too, got $rc" [ "$rc" = 4 ]
check "lock: the refused runs did not rotate" [ -z "$(ls "$d" | grep '\.gz$' || true)" ]
kill -TERM "$dpid" 2>/dev/null || true
check "daemon: SIGTERM stops it" wait_until 10 gone "$dpid"
check "daemon: stop logged in DIR/kstack.log" wait_until 5 grep -q "INFO - Received SIGTERM" "$d/kstack.log"
check "daemon: kstack.log 0600" [ "$(mode_of "$d/kstack.log")" = 600 ]
r=$(check_samples "$d/$name")
check "daemon: whole samples ($r)" [ "${r#* }" = 0 ]
# the lock is free again once it has gone
rc=0
KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" --foreground -p "$sleeper" -d "$d" 2>/dev/null || rc=$?
check "lock: free after the daemon stopped, got $rc" [ "$rc" = 0 ]

# --- #24: -b lets go of the caller at once; the sampler goes on -----------
d=$tmp/detach
# bash's clock, not date +%s%N: busybox's date has no %N
start=${EPOCHREALTIME/[.,]/}
timeout 20 "$kstack" -b -t 1 -i 10 -a -v -d "$d" 2>&1 | cat >"$tmp/detach.out"
ms=$(( (${EPOCHREALTIME/[.,]/} - start) / 1000 ))
check "detach: the pipe closed in under a second ($ms ms)" [ "$ms" -lt 1000 ]
n=$(grep -c " INFO - " "$tmp/detach.out" || true)
check "detach: the four INFO lines ($n)" [ "$n" = 4 ]
for l in "This script will run up to: " "The requested data will be written to the directory: $d\$" \
	"Spawning process to run in background...\$" "Background PID: [0-9]*\$"; do
	check "detach: '$l'" grep -q "INFO - $l" "$tmp/detach.out"
done
dpid=$(sed -n 's/.*INFO - Background PID: \([0-9]*\)$/\1/p' "$tmp/detach.out")
dpid=${dpid:-0}
children+=("$dpid")
check "detach: the sampler runs on" alive "$dpid"
read -r _ _ sid < <(task_stat "$dpid"; echo x x 0)
read -r _ _ oursid < <(task_stat $$)
check "detach: a session of its own ($sid, ours $oursid)" [ "$sid" != "$oursid" ]
# the middle process is reaped by the caller; the sampler has no child
# (one cat for every task: a fork per task takes seconds on a busy host,
# while the sampler's archives reach their retention limit).  Only a
# kstack counts: this shell's own process substitutions (task_stat above)
# may wait a moment for bash to reap them.
zombies=$({ cat /proc/[0-9]*/stat 2>/dev/null || true; } |
	sed -n 's/^[0-9]* (\(.*\)) \([A-Z]\) \([0-9]*\) .*/\1 \2 \3/p' |
	awk -v a=$$ -v b="$dpid" '$1 == "kstack" && $2 == "Z" && ($3 == a || $3 == b)' | wc -l)
check "detach: no zombie left ($zombies)" [ "$zombies" = 0 ]
size1=$(stat -c %s "$d/kstack.log" 2>/dev/null || echo 0)
# the archives too: -a samples may rotate meanwhile
n1=$(count_samples "$d/$name" "$d/$name"-*.gz)
sleep 1
size2=$(stat -c %s "$d/kstack.log" 2>/dev/null || echo 0)
n2=$(count_samples "$d/$name" "$d/$name"-*.gz)
check "detach: samples go on after the pipe closed ($n1 -> $n2)" [ "$n2" -gt "$n1" ]
check "detach: kstack.log grows after the pipe closed ($size1 -> $size2)" [ "$size2" -gt "$size1" ]
check "detach: kstack.log 0600" [ "$(mode_of "$d/kstack.log")" = 600 ]
kill -TERM "$dpid" 2>/dev/null || true
check "detach: SIGTERM stops it" wait_until 10 gone "$dpid"
check "detach: its end in kstack.log" wait_until 5 grep -q "INFO - Received SIGTERM: stopping after [1-9][0-9]* sample(s) written" "$d/kstack.log"
# errors before detaching still reach the caller, with their status
rc=0
chmod 0777 "$d"
KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" -b -a -d "$d" 2>"$tmp/detach-err.log" || rc=$?
chmod 0700 "$d"
check "detach: a refused -d is exit 4 to the caller, got $rc" [ "$rc" = 4 ]
check "detach: and its message" grep -q "ERROR - $d is writable by every user" "$tmp/detach-err.log"
# a new run archives the old kstack.log with the samples
KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" -b -p "$sleeper" -d "$d" 2>/dev/null
check "detach: the previous kstack.log archived" wait_until 5 eval 'ls "$d"/kstack.log-*.gz >/dev/null 2>&1'

# --- under systemd (JOURNAL_STREAM): log lines to the journal's socket ----
if command -v python3 >/dev/null; then
	d=$tmp/journal
	python3 - "$tmp/journal.sock" "$tmp/journal.txt" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
with open(sys.argv[2], "ab", buffering=0) as out:
    while True:
        try:
            out.write(s.recv(65536) + b"--\n")
        except socket.timeout:
            break
PY
	jpid=$!
	children+=("$jpid")
	wait_until 5 test -S "$tmp/journal.sock" || true
	: >"$tmp/journal.err"
	KSTACK_TEST_JOURNAL_SOCKET=$tmp/journal.sock KSTACK_TEST_DURATION_MS=400 \
		JOURNAL_STREAM=$(stat -c %d:%i "$tmp/journal.err") \
		timeout 20 "$kstack" --foreground -p "$sleeper" -d "$d" 2>>"$tmp/journal.err"
	check "journal: the end as a structured entry" wait_until 5 grep -q "^MESSAGE=Finished: [0-9]* sample(s) written, 0 lost" "$tmp/journal.txt"
	check "journal: PRIORITY=6 for INFO" grep -q "^PRIORITY=6$" "$tmp/journal.txt"
	check "journal: SAMPLES and LOST fields" grep -q "^LOST=0$" "$tmp/journal.txt"
	check "journal: LATE and SKIPPED fields" grep -q "^SKIPPED=0$" "$tmp/journal.txt"
	check "journal: LATE field" grep -q "^LATE=[0-9]*$" "$tmp/journal.txt"
	n=$(awk '/^MESSAGE=Finished/ { f = 1 } f && /^SAMPLES=/ { print substr($0, 9); exit }' "$tmp/journal.txt")
	check "journal: SAMPLES=$n is the samples written ($(count_samples "$d/$name"))" [ "$n" = "$(count_samples "$d/$name")" ]
	check "journal: nothing left on stderr: $(head -c 300 "$tmp/journal.err")" [ ! -s "$tmp/journal.err" ]
	kill "$jpid" 2>/dev/null || true
else
	echo "SKIP: python3 missing: the journal protocol not tested"
fi

# --- SIGKILL during heavy rotation, repeated ------------------------------
# Every sample of -a rotates (limit 1 byte): the kill lands in compression,
# fsync, renames or the append.  -n keeps every archive, so the samples
# can be counted: each sample logged as written must be in the files
# (nothing lost), and at most one unlogged sample per kill may be there
# (nothing archived twice).
d=$tmp/kill
kills=0
bad_gz=0
mid_rotation=0
for i in 1 2 3 4 5 6 7 8; do
	KSTACK_TEST_INTERVAL_MS=5 KSTACK_TEST_MAX_BYTES=1 "$kstack" --foreground -v \
		-n 10000 -a -d "$d" 2>>"$tmp/kill.log" &
	kpid=$!
	children+=("$kpid")
	wait_until 10 has_one || true
	sleep "0.$((RANDOM % 5 + 1))$((RANDOM % 10))"
	kill -KILL "$kpid"
	wait "$kpid" 2>/dev/null || true
	kills=$((kills + 1))
	ls "$d" | grep -Eq '\.(pending|gz\.tmp)$' && mid_rotation=$((mid_rotation + 1))
	# right after the kill: what is under a final name is valid
	for f in "$d/$name"-*.gz; do
		[ -e "$f" ] && ! gzip -t "$f" 2>/dev/null && bad_gz=$((bad_gz + 1))
	done
	# (it may be missing: killed between a rotation and the next append)
	r=$(if [ -e "$d/$name" ]; then check_samples "$d/$name"; fi)
	case $r in BAD*) bad "kill $i: live file: $r" ;; *) ok ;; esac
done
echo "info: $mid_rotation of $kills kills landed inside a rotation"
check "SIGKILL: every .gz valid after each kill ($bad_gz bad)" [ "$bad_gz" = 0 ]
# a clean run finishes what the kills interrupted
rc=0
KSTACK_TEST_DURATION_MS=0 KSTACK_TEST_MAX_BYTES=1 timeout 60 "$kstack" --foreground -v \
	-n 10000 -a -d "$d" 2>>"$tmp/kill.log" || rc=$?
check "SIGKILL: clean run after the kills, got $rc" [ "$rc" = 0 ]
check "SIGKILL: no pending or temporary file left" [ -z "$(ls "$d" | grep -E '\.(pending|tmp)$' || true)" ]
check "SIGKILL: all archives valid, whole samples" check_dir_samples "$d"
logged=$(grep -c "DEBUG - Sample [0-9]* at " "$tmp/kill.log" || true)
found=$(count_samples "$d/$name" "$d/$name"-*.gz)
check "SIGKILL: no sample lost ($logged logged, $found found)" [ "$found" -ge "$logged" ]
check "SIGKILL: none doubled ($found found <= $logged + $kills)" [ "$found" -le $((logged + kills)) ]
check "SIGKILL: rotations happened ($(ls "$d" | grep -c '\.gz$') archives)" [ "$(ls "$d" | grep -c '\.gz$')" -ge 10 ]

# --- symlinks --------------------------------------------------------------
d=$tmp/link
mkdir -m 0700 "$d"
echo precious >"$tmp/target"
ln -s "$tmp/target" "$d/$name"
rc=0
timeout 20 "$kstack" --foreground -p "$sleeper" -d "$d" 2>"$tmp/link.log" || rc=$?
check "symlink at start: refused with exit 4, got $rc" [ "$rc" = 4 ]
check "symlink at start: message" grep -q "ERROR - $d/$name is not a regular file but a symbolic link: refusing to use it" "$tmp/link.log"
check "symlink at start: target untouched" [ "$(cat "$tmp/target")" = precious ]
check "symlink at start: link left alone" [ -L "$d/$name" ]
rm "$d/$name"
# planted while running: not followed, logged once, writing resumes after
"$kstack" --foreground -v -p "$sleeper" -d "$d" 2>"$tmp/link2.log" &
kpid=$!
children+=("$kpid")
check "symlink: samples appear" wait_until 10 has_one
# Planted by rename, as an attacker would: the running kstack may write a
# new log between a mv and an ln, and ln would then find the name taken.
ln -s "$tmp/target" "$tmp/planted"
mv -Tf "$tmp/planted" "$d/$name"
sleep 1
check "symlink planted: target untouched" [ "$(cat "$tmp/target")" = precious ]
n=$(grep -c "ERROR - writing $d/$name: Too many levels of symbolic links" "$tmp/link2.log" || true)
check "symlink planted: write refused, logged once ($n)" [ "$n" = 1 ]
rm "$d/$name"
check "symlink removed: writing resumes" wait_until 10 has_one
check "symlink removed: logged" grep -q "INFO - writing $d/$name succeeded again" "$tmp/link2.log"
stop_child TERM "$kpid" 10 || true
# a symlink as the directory itself
ln -s "$tmp/sched/out" "$tmp/dirlink"
rc=0
timeout 20 "$kstack" --foreground -p "$sleeper" -d "$tmp/dirlink" 2>"$tmp/dirlink.log" || rc=$?
check "symlinked -d refused, got $rc" [ "$rc" = 4 ]
check "symlinked -d message" grep -q "ERROR - $tmp/dirlink is not a directory (a symbolic link is refused)" "$tmp/dirlink.log"
rc=0
timeout 20 "$kstack" --foreground -p "$sleeper" -d "$tmp/dirlink/" 2>/dev/null || rc=$?
check "symlinked -d/ refused too, got $rc" [ "$rc" = 4 ]

# --- hard links (#27): never truncate or append to another name's file ----
# one_run DIR LOG [ARGS...]: one sample of the sleeper into DIR, the status in $rc
one_run() {
	local dir=$1 log=$2
	shift 2
	rc=0
	KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" --foreground -d "$dir" -p "$sleeper" \
		"$@" 2>"$log" || rc=$?
}
echo IMPORTANT >"$tmp/victim"
d=$tmp/hl-lock
mkdir -m 0700 "$d"
ln "$tmp/victim" "$d/.kstack.lock"
one_run "$d" "$tmp/hl-lock.log"
check "hard-linked lock: refused with exit 4, got $rc" [ "$rc" = 4 ]
check "hard-linked lock: victim untouched" [ "$(cat "$tmp/victim")" = IMPORTANT ]
check "hard-linked lock: message" grep -q "ERROR - $d/.kstack.lock is not a regular file with one link" "$tmp/hl-lock.log"
d=$tmp/hl-log
mkdir -m 0700 "$d"
ln "$tmp/victim" "$d/$name"
one_run "$d" "$tmp/hl-log.log" -m 0
check "hard-linked log (-m 0): victim untouched" [ "$(cat "$tmp/victim")" = IMPORTANT ]
check "hard-linked log (-m 0): write refused" grep -q "ERROR - writing $d/$name: Too many links" "$tmp/hl-log.log"
one_run "$d" "$tmp/hl-log2.log"
check "hard-linked log (rotated at start): refused with exit 4, got $rc" [ "$rc" = 4 ]
check "hard-linked log: not archived" [ -z "$(ls "$d" | grep '\.gz$' || true)" ]
check "hard-linked log: victim still untouched" [ "$(cat "$tmp/victim")" = IMPORTANT ]
rm "$d/$name"
# replaced by a hard link while running: refused at each append, logged once
"$kstack" --foreground -v -d "$d" -m 0 -p "$sleeper" 2>"$tmp/hl-run.log" &
kpid=$!
children+=("$kpid")
check "hard link while running: samples appear" wait_until 10 has_one
ln "$tmp/victim" "$tmp/hl-planted"
mv -f "$tmp/hl-planted" "$d/$name"
sleep 1.5
stop_child TERM "$kpid" 10 || true
check "hard link while running: victim untouched ($(wc -c <"$tmp/victim") bytes)" \
	[ "$(cat "$tmp/victim")" = IMPORTANT ]
n=$(grep -c "ERROR - writing $d/$name: Too many links" "$tmp/hl-run.log" || true)
check "hard link while running: refused, logged once ($n)" [ "$n" = 1 ]
# kstack.log, the detached sampler's log, the same way, before detaching
d=$tmp/hl-klog
mkdir -m 0700 "$d"
ln "$tmp/victim" "$d/kstack.log"
rc=0
KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" -b -d "$d" -p "$sleeper" 2>"$tmp/hl-klog.log" || rc=$?
check "hard-linked kstack.log: -b refused with exit 4, got $rc" [ "$rc" = 4 ]
check "hard-linked kstack.log: message" grep -q "ERROR - $d/kstack.log is not a regular file with one link" "$tmp/hl-klog.log"
check "hard-linked kstack.log: victim untouched" [ "$(cat "$tmp/victim")" = IMPORTANT ]
# a -d every user may write: refused without the sticky bit, a warning with it
d=$tmp/open
mkdir "$d"
chmod 0777 "$d"
one_run "$d" "$tmp/open.log"
check "world-writable -d: refused with exit 4, got $rc" [ "$rc" = 4 ]
check "world-writable -d: message" grep -q "ERROR - $d is writable by every user and not sticky (mode 0777)" "$tmp/open.log"
check "world-writable -d: nothing written" [ -z "$(ls -A "$d")" ]
chmod 1777 "$d"
one_run "$d" "$tmp/open.log"
check "sticky world-writable -d: runs, got $rc" [ "$rc" = 0 ]
check "sticky world-writable -d: warned" grep -q "WARNING - $d is writable by other users (mode 1777)" "$tmp/open.log"

# --- the disk guard on a tmpfs of its own ---------------------------------
if unshare -m true 2>/dev/null; then
	rc=0
	unshare -m --propagation private bash "$self" --tmpfs-part "$tmp" "$sleeper" || rc=$?
	if [ -s "$tmp/tmpfs-counts" ]; then
		read -r p f <"$tmp/tmpfs-counts"
		passed=$((passed + p))
		failed=$((failed + f))
	else
		bad "tmpfs part did not finish (exit $rc)"
	fi
else
	echo "SKIP: unshare -m not permitted: disk guard on tmpfs not tested"
fi

echo "background: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

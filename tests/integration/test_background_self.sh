#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Background mode and what it says about itself (#40 items 4 and 13):
# the sampler is never one of its own samples' tasks (it showed as the
# most stuck task in kstack report), kstack.log has its first line as soon
# as -b detaches, and a -b refused for disk space leaves no lock file.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
sleep 600 &
sleeper=$!
daemon=0
cleanup() {
	kill "$sleeper" 2>/dev/null
	[ "$daemon" != 0 ] && kill "$daemon" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
name="kstack_$(uname -n | tr / _).out"

if ! cat "/proc/$$/stack" >/dev/null 2>&1; then
	skip "/proc/PID/stack is not readable here (not root)"
	finish
fi

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

# 1. -a samples list every task but the sampler (with -H, none of its threads).
for h in "" -H; do
	d=$tmp/all$h
	KSTACK_TEST_INTERVAL_MS=100 KSTACK_TEST_DURATION_MS=600 \
		"$kstack" --foreground -a $h -d "$d" 2>"$tmp/fg.err" &
	kpid=$!
	wait "$kpid"
	rc=$?
	nsamples=$(grep -c '^zzz <' "$d/$name" 2>/dev/null)
	self=$(grep -c "^PID: *$kpid " "$d/$name" 2>/dev/null)
	other=$(grep -c "^PID: *$sleeper " "$d/$name" 2>/dev/null)
	if [ "$rc" = 0 ] && [ "${nsamples:-0}" -ge 2 ] && [ "$self" = 0 ] &&
		[ "$other" = "$nsamples" ]; then
		pass "-b -a $h: $nsamples samples, the sampler ($kpid) in none, the sleeper in each"
	else
		fail "-b -a $h: rc $rc, $nsamples samples, the sampler in $self, the sleeper in $other"
		head -c 600 "$tmp/fg.err"
	fi
done

# 2. kstack.log has its first line at the detach, long before the run ends.
d=$tmp/detach
KSTACK_TEST_DURATION_MS=60000 timeout 20 "$kstack" -b -p "$sleeper" -d "$d" \
	>"$tmp/detach.out" 2>&1
daemon=$(sed -n 's/.*INFO - Background PID: \([0-9]*\)$/\1/p' "$tmp/detach.out")
daemon=${daemon:-0}
started() { grep -q "INFO - Sampler $daemon started: writing to $d/$name\$" "$d/kstack.log" 2>/dev/null; }
if [ "$daemon" != 0 ] && wait_until 5 started; then
	pass "-b: kstack.log starts with the sampler's line at the detach"
else
	fail "-b: no first line in kstack.log within 5 s of the detach (sampler ${daemon})"
	cat "$tmp/detach.out" "$d/kstack.log" 2>/dev/null
fi
[ "$daemon" != 0 ] && kill "$daemon" 2>/dev/null

# 3. A -b refused because the disk is over -x leaves no .kstack.lock.
used=$(df -P "$tmp" | awk 'NR == 2 { sub(/%/, "", $5); print $5 }')
if [ "${used:-0}" -ge 2 ]; then
	d=$tmp/full
	mkdir -m 0700 "$d"
	KSTACK_TEST_DURATION_MS=0 timeout 20 "$kstack" -b -x 1 -p "$sleeper" -d "$d" \
		>"$tmp/full.out" 2>&1
	rc=$?
	if [ "$rc" = 4 ] && grep -q "ERROR - Maximum filesystem space reached" "$tmp/full.out" &&
		[ ! -e "$d/.kstack.lock" ]; then
		pass "-b refused over -x: exit 4, its message, no .kstack.lock left"
	else
		fail "-b refused over -x: rc $rc, lock left: $(ls -A "$d")"
		cat "$tmp/full.out"
	fi
else
	skip "$tmp's filesystem is ${used:-?}% used: -x 1 cannot refuse there"
fi
finish

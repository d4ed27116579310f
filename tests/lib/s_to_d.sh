# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# A child that moves from S to D when told
# (tests/integration/helpers/s_to_d.c), for the tests of what changed
# between two captures (kstack diff, kstack report by signature).
#   start_s_to_d DIR   builds it into DIR and starts it asleep in S:
#                      $child is its PID; 1 when it did not build or sleep
#   wait_state STATE   waits up to 5 s for $child to be in STATE
#   stop_s_to_d        kills it (for the caller's EXIT trap)
# kill -USR1 "$child" sends it to D.

state_of() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }

wait_state() {
	for _ in $(seq 100); do
		[ "$(state_of "$child")" = "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

start_s_to_d() {
	${CC:-cc} -O0 -o "$1/s_to_d" "$top/tests/integration/helpers/s_to_d.c" || return 1
	"$1/s_to_d" >"$1/s_to_d.pid" &
	child=$!
	wait_state S
}

stop_s_to_d() {
	[ -n "${child:-}" ] && kill -KILL "$child" 2>/dev/null && wait "$child" 2>/dev/null
	return 0
}

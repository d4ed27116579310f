# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Real children in every state (tests/integration/helpers/state_children.c):
# source it, then start_state_children DIR builds and starts them in DIR,
# sets helper_pid (the caller kills it at the end) and waits for "ready";
# pid_of LETTER is the PID of the child in that state.
# KSTACK_STATE_CHILDREN names a build of the helper to run instead: a vmcore
# guest has no compiler, make-vmcore puts a static one there.
start_state_children() {
	local dir=$1 bin=${KSTACK_STATE_CHILDREN:-}
	if [ -z "$bin" ]; then
		bin=$dir/children
		${CC:-cc} -O0 -pthread -o "$bin" "$top/tests/integration/helpers/state_children.c"
	fi
	"$bin" >"$dir/pids" &
	helper_pid=$!
	state_pids=$dir/pids
	for _ in $(seq 100); do
		grep -q ready "$dir/pids" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
pid_of() { awk -v l="$1" '$1 == l { print $2 }' "$state_pids"; }
# For the caller's EXIT trap: the children go down with their parent.
stop_state_children() {
	[ -n "${helper_pid:-}" ] && kill "$helper_pid" 2>/dev/null && wait "$helper_pid" 2>/dev/null
	return 0
}

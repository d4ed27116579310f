# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by scenarios (". "$SCENARIO_LIB"") inside a vmcore guest; busybox sh.

# Tell the guest init (and the host watching the console) that every task the
# scenario wanted is in place: the live capture starts right after this.
scenario_ready() {
	echo "SCENARIO-READY"
	: >/run/scenario-ready
}

# Stop the scenario with a message the host prints; the pipeline then fails.
scenario_fail() {
	echo "SCENARIO-FAILED: $*"
	exit 1
}

# Wait until task $1 is in one of the states listed in $2 (letters, e.g. "D"),
# at most $3 tenths of a second (default 100): the capture must not start
# before a task has actually gone to sleep where the scenario meant it to.
wait_state() {
	_pid=$1 _want=$2 _n=${3:-100}
	while [ "$_n" -gt 0 ]; do
		_st=$(sed 's/.*) \(.\).*/\1/' "/proc/$_pid/stat" 2>/dev/null) || return 1
		case "$_want" in *"$_st"*) return 0 ;; esac
		usleep 100000
		_n=$((_n - 1))
	done
	echo "wait_state: task $_pid is in state $_st, not $_want"
	return 1
}

# Wait until task $1 has exec'd the program named $2 (its comm), at most $3
# tenths of a second: a signal sent right after "cmd &" may otherwise hit the
# shell's child before its exec.
wait_exec() {
	_pid=$1 _comm=$2 _n=${3:-100}
	while [ "$_n" -gt 0 ]; do
		[ "$(cat "/proc/$_pid/comm" 2>/dev/null)" = "$_comm" ] && return 0
		usleep 100000
		_n=$((_n - 1))
	done
	echo "wait_exec: task $_pid did not become $_comm"
	return 1
}

# Wait until some task named $1 (its comm) is in one of the states in $2, at
# most $3 tenths of a second: for tasks whose pid the scenario does not know,
# such as the children the helper forks (tracee, zombie-child).
wait_comm_state() {
	_comm=$1 _want=$2 _n=${3:-100}
	while [ "$_n" -gt 0 ]; do
		for _d in /proc/[0-9]*; do
			[ "$(cat "$_d/comm" 2>/dev/null)" = "$_comm" ] || continue
			_st=$(sed 's/.*) \(.\).*/\1/' "$_d/stat" 2>/dev/null)
			case "$_want" in *"$_st"*) return 0 ;; esac
		done
		usleep 100000
		_n=$((_n - 1))
	done
	echo "wait_comm_state: no task $_comm in state $_want"
	return 1
}

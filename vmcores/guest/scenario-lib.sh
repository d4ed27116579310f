# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by scenarios (". "$SCENARIO_LIB"") inside a vmcore guest; busybox sh.

# Tell the guest init (and the host watching the console) that every task the
# scenario wanted is in place: the live capture starts right after this.
scenario_ready() {
	echo "SCENARIO-READY"
	: >/run/scenario-ready
}

# A dying scenario's (mode: die) way to die: init runs the command line
# "$*" after the capture is written out, and the guest never comes back.
# After ksdie_setup, /proc's truth is printed first, in the same shell.
scenario_trigger() {
	{
		[ -z "${ksdie_truth:-}" ] || ksdie_truth
		printf '%s\n' "$*"
	} >/run/vmcore-trigger
}

# The commands that print what /proc says just before the trigger, a
# line per line of its file, for tests/vmcore/test_triage.sh:
# "ksdie-scenario: meminfo MemTotal: ...", "ksdie-scenario: loadavg ...",
# "ksdie-scenario: modules ksdie 16384 ...".  They run as the trigger's
# first lines, after the capture, so that little but the trigger itself
# runs between them and the panic.
ksdie_truth() {
	cat <<'EOF_TRUTH'
sed 's/^/ksdie-scenario: meminfo /' /proc/meminfo
echo "ksdie-scenario: loadavg $(cat /proc/loadavg)"
sed 's/^/ksdie-scenario: modules /' /proc/modules
EOF_TRUTH
}

# The dying scenarios' common start: the pvpanic driver (pause the VM at
# the panic, for the dump; "nopvpanic" leaves it out), the ksdie module,
# the taint /proc gave (and its memory, load and modules printed by the
# trigger, scenario_trigger), for the tests, and a sleeper.
ksdie_setup() {
	if [ "${1:-}" != nopvpanic ]; then
		modprobe pvpanic_mmio 2>/dev/null || modprobe pvpanic_pci 2>/dev/null ||
			echo "no pvpanic driver: the host stops the VM after the panic"
	fi
	insmod /modules/ksdie.ko || scenario_fail "insmod ksdie"
	echo "ksdie-scenario: tainted $(cat /proc/sys/kernel/tainted)"
	ksdie_truth=1
	sleep 1000000 &
}

# Stop the scenario with a message the host prints; the pipeline then fails.
scenario_fail() {
	echo "SCENARIO-FAILED: $*"
	exit 1
}

# Run "$2..." every tenth of a second until it succeeds, at most $1 times:
# the waits below are this loop with their own test.
retry_tenths() {
	_tries=$1
	shift
	while [ "$_tries" -gt 0 ]; do
		"$@" && return 0
		usleep 100000
		_tries=$((_tries - 1))
	done
	return 1
}

# Wait until task $1 is in one of the states listed in $2 (letters, e.g. "D"),
# at most $3 tenths of a second (default 100): the capture must not start
# before a task has actually gone to sleep where the scenario meant it to.
pid_in_state() {
	_st=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 2
	case "$2" in *"$_st"*) return 0 ;; esac
	return 1
}

wait_state() {
	_st=
	retry_tenths "${3:-100}" pid_in_state "$1" "$2" && return 0
	echo "wait_state: task $1 is in state $_st, not $2"
	return 1
}

# Wait until task $1 has exec'd the program named $2 (its comm), at most $3
# tenths of a second: a signal sent right after "cmd &" may otherwise hit the
# shell's child before its exec.
pid_has_comm() {
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]
}

wait_exec() {
	retry_tenths "${3:-100}" pid_has_comm "$1" "$2" && return 0
	echo "wait_exec: task $1 did not become $2"
	return 1
}

# Wait until some task named $1 (its comm) is in one of the states in $2, at
# most $3 tenths of a second: for tasks whose pid the scenario does not know,
# such as the children the helper forks (tracee, zombie-child).
comm_in_state() {
	for _d in /proc/[0-9]*; do
		[ "$(cat "$_d/comm" 2>/dev/null)" = "$1" ] || continue
		_st=$(sed 's/.*) \(.\).*/\1/' "$_d/stat" 2>/dev/null)
		case "$2" in *"$_st"*) return 0 ;; esac
	done
	return 1
}

wait_comm_state() {
	retry_tenths "${3:-100}" comm_in_state "$1" "$2" && return 0
	echo "wait_comm_state: no task $1 in state $2"
	return 1
}

# The kprobes the basic and hooks scenarios share, from tracefs (the shell
# stays there): a kprobe, a kretprobe, one defined but never enabled, and
# one past the ftrace call, allowed to fail on a kernel whose vfs_read
# starts differently ($1 names the scenario in that message).
add_test_kprobes() {
	cd /sys/kernel/tracing || scenario_fail "no tracefs"
	echo 'p:kstack_open do_sys_openat2' >>kprobe_events || scenario_fail "kprobe"
	echo 'r:kstack_read vfs_read' >>kprobe_events || scenario_fail "kretprobe"
	echo 'p:kstack_off do_nanosleep' >>kprobe_events || scenario_fail "kprobe"
	echo 'p:kstack_mid vfs_read+5' >>kprobe_events 2>/dev/null ||
		echo "$1: no kprobe at vfs_read+5 on this kernel"
	echo 1 >events/kprobes/kstack_open/enable
	echo 1 >events/kprobes/kstack_read/enable
}

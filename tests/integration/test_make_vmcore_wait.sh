#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-vmcore's console_wait() against the guest's last moments: in the
# kdump path the capture kernel prints KDUMP-DONE and powers off at once,
# so QEMU can be gone when the wait next looks.  The interleaving that
# lost a finished dump is replayed here without a guest: the wait's grep
# misses the line, the line arrives and QEMU exits before kill -0.  The
# function is taken from make-vmcore itself, so the test follows it.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sed -n '/^console_wait() {/,/^}/p' "$top/vmcores/make-vmcore" >"$tmp/wait.sh"
if ! grep -q '^}' "$tmp/wait.sh"; then
	fail "no console_wait() in vmcores/make-vmcore"
	finish
fi

# One run of the wait in a subshell of its own (die exits it).
# $1: what the console holds at the start; $2: the line that arrives
# just after the first grep for the awaited pattern.  The variables and
# functions are console_wait()'s, which shellcheck cannot see.
# shellcheck disable=SC2034,SC2317
run_wait() {
	(
		late=$2
		console=$tmp/console.log
		work=$tmp
		fail_re='GUEST-ERROR|KDUMP-FAILED'
		printf '%s\n' "$1" >"$console"
		: >"$work/qemu.out"
		# A QEMU that has already exited.
		true &
		qemu_pid=$!
		wait "$qemu_pid"
		die() { echo "died: $*"; exit 1; }
		arrived=
		grep() {
			local rc
			command grep "$@"
			rc=$?
			if [ -z "$arrived" ] && [ "${*: -2:1}" = KDUMP-DONE ]; then
				arrived=1
				printf '%s\n' "$late" >>"$console"
			fi
			return "$rc"
		}
		# shellcheck source=/dev/null
		. "$tmp/wait.sh"
		console_wait KDUMP-DONE 5 "makedumpfile" && echo returned
	) 2>&1
}

out=$(run_wait "KDUMP-KERNEL-UP" "KDUMP-DONE")
if [ "$out" = returned ]; then
	pass "a line printed just before QEMU exits still ends the wait"
else
	fail "the line arrived before QEMU exited, yet the wait said: $out"
fi

out=$(run_wait "KDUMP-KERNEL-UP" "something else")
case $out in
"died: QEMU exited while waiting for makedumpfile"*)
	pass "QEMU gone without the line: the wait dies and says so" ;;
*) fail "QEMU gone without the line: $out" ;;
esac

out=$(run_wait "KDUMP-FAILED" "")
case $out in
"died: the guest failed while waiting for makedumpfile") pass "a guest error ends the wait" ;;
*) fail "a guest error: $out" ;;
esac
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --snoop on this machine: what it refuses before touching tracefs
# (usage errors, PIDs that do not exist, no root), then either the clear
# exit 4 of a kernel without kprobe events or, where there are kprobes, a
# short real trace of sync(2) that must leave no kstack instance or probe.
# The full check of the traced stacks runs in a guest
# (tests/vmcore/test_snoop.sh).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() { # WANT_RC PATTERN DESCRIPTION -- ARGS...
	local want=$1 pattern=$2 what=$3 rc
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" "$tmp/err"; then
		pass "$what: exit $rc"
	else
		fail "$what: exit $rc, want $want and /$pattern/"
		cat "$tmp/err"
	fi
}

expect 2 'option -a does nothing with --snoop' "--snoop with -a" -- "$kstack" --snoop ksys_sync -a
expect 2 '-b and --snoop exclude each other' "--snoop with -b" -- "$kstack" --snoop ksys_sync -b
expect 2 'needs a value' "--snoop without FUNC" -- "$kstack" --snoop
expect 2 'wants a function' "--snoop of an empty FUNC" -- "$kstack" --snoop ''
expect 2 'wants a function' "--snoop of a FUNC that would add a second command" \
	-- "$kstack" --snoop "$(printf 'ksys_sync\n-:kprobes/x')" -t 1
expect 2 'wants a function' "--snoop of a FUNC with fetch arguments" \
	-- "$kstack" --snoop 'ksys_sync $arg1' -t 1
expect 1 'PID 2147483646 does not exist' "--snoop -p of a PID that does not exist" \
	-- "$kstack" --snoop ksys_sync -p 2147483646 -t 1
# shellcheck source=tests/lib/nobody.sh
. "$top/tests/lib/nobody.sh"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	expect 3 'needs root' "--snoop as nobody" -- \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$(nobody_kstack "$kstack" "$tmp")" --snoop ksys_sync -t 1
else
	echo "SKIP: --snoop as nobody needs root and setpriv"
fi
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the rest of --snoop needs root"
	finish
fi

# Where is tracefs (kstack mounts it privately when it is not)?
tfs=$(awk '$9 == "tracefs" { print $5; exit }' /proc/self/mountinfo)
if [ -z "$tfs" ] || [ ! -e "$tfs/kprobe_events" ]; then
	if unshare -m sh -c 'mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null &&
		test -e /sys/kernel/tracing/kprobe_events'; then
		echo "SKIP: tracefs with kprobe_events is not mounted; not mounting it for the real trace"
		finish
	fi
	expect 4 'no kprobe events' "a kernel without kprobe events" -- \
		"$kstack" --snoop ksys_sync -t 1
	finish
fi

# A real, short trace of sync(2), then nothing of ours left behind.
"$kstack" --snoop ksys_sync -t 3 -c >"$tmp/c.out" 2>"$tmp/c.err" &
snoop=$!
for _ in $(seq 100); do
	grep -q '^kstack: tracing ' "$tmp/c.err" && break
	sleep 0.1
done
sync
sync
wait "$snoop"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^ksys_sync: [0-9]* calls' "$tmp/c.out" &&
	grep -q '^\[<0>\] ksys_sync+0x' "$tmp/c.out"; then
	pass "--snoop ksys_sync -t 3 -c counted this shell's sync calls"
else
	fail "--snoop -c: exit $rc"
	cat "$tmp/c.out" "$tmp/c.err"
fi
if ls "$tfs/instances" | grep -q '^kstack-' || grep -q '^[pr][0-9]*:kstack/' "$tfs/kprobe_events"; then
	fail "a kstack instance or probe is left in $tfs"
else
	pass "no kstack instance or probe left in $tfs"
fi
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The live tool's refusals: each bad command line or bad input ends with
# the documented exit status and a message that names the problem, and
# prints no sample.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"

# shellcheck source=tests/lib/expect.sh
. "$top/tests/lib/expect.sh"

fx=(--proc-root "$tmp/proc")
# a background run that is not refused ends after one sample
export KSTACK_TEST_DURATION_MS=0

# --- usage: empty and missing values ---------------------------------------
expect "empty --cgroup" 2 "option --cgroup wants a non-empty value" "${fx[@]}" -a --cgroup ""
expect "empty --cgroup=" 2 "option --cgroup wants a non-empty value" "${fx[@]}" -a --cgroup=
expect "relative --cgroup" 2 "starting with /" "${fx[@]}" -a --cgroup system.slice
expect "empty -d" 2 "option -d wants a non-empty value" -b -a -d ""
expect "empty -o" 2 "option -o wants a non-empty value" "${fx[@]}" -a -o ""
expect "empty --proc-root" 2 "option --proc-root wants a non-empty value" -a --proc-root ""
expect "empty --vmcore" 2 "option --vmcore wants a non-empty value" -a --vmcore "" --vmlinux x
expect "empty --vmlinux" 2 "option --vmlinux wants a non-empty value" -a --vmcore x --vmlinux ""
expect "missing --cgroup value" 2 "option --cgroup needs a value" "${fx[@]}" -a --cgroup
expect "missing --proc-root value" 2 "option --proc-root needs a value" -a --proc-root
expect "missing --vmlinux value" 2 "option --vmlinux needs a value" -a --vmcore x --vmlinux
expect "missing -o value" 2 "option -o needs a value" "${fx[@]}" -a -o

# --- options where they do nothing: refused, saying where they apply -------
expect "one sample with -t" 2 "option -t does nothing with one sample; it is for -b and --snoop" \
	"${fx[@]}" -a -t 5
expect "--vmcore with --proc-root" 2 "option --proc-root does nothing with --vmcore; it is for one sample and -b" \
	--vmcore "$tmp/proc/stat" --proc-root /proc -a
expect "-K with -c" 2 "option -c does nothing with -K/-F" -K -c
expect "--decode with -v" 2 "option -v does nothing with --decode" --decode -v
expect "-b with -o" 2 "option -o does nothing with -b; it is for one sample, --vmcore and kstack triage --vmcore" \
	-b -a -o "$tmp/o"
expect "--all without -c" 2 "option --all goes with -c" "${fx[@]}" -a --all
expect "-t with a bad unit" 2 "option -t wants a number" --snoop ksys_sync -t 5d

# --- values named with the forms and units they take (#40 item 12) --------
for w in --since --until; do
	rc=0
	"$kstack" report "$tmp" $w yesterday >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && grep -q "^kstack: invalid $w 'yesterday': a local time (2026-11-24 23:10, .*, a day (2026-11-24) or seconds since the epoch (@[0-9]*)\$" "$tmp/err"; then
		pass "report $w yesterday: exit 2, the forms it takes"
	else
		fail "report $w yesterday: exit $rc, $(head -1 "$tmp/err")"
	fi
done
expect "--snoop -t past a year of seconds" 2 \
	"option -t wants a number of seconds from 0 to 31536000 with --snoop" \
	--snoop ksys_sync -t 31536001
expect "-b -t past a year of minutes" 2 \
	"option -t wants a number of minutes from 0 to 525600 with -b" -b -a -t 525601

# --- a usage error is one line and where to look, not the whole usage -----
rc=0
"$kstack" -a --bogus >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 2 ] &&
	[ "$(sed -n 2p "$tmp/err")" = "try 'kstack --help'" ]; then
	pass "usage error: two lines, $(head -1 "$tmp/err")"
else
	fail "usage error: exit $rc, $(wc -l <"$tmp/err") lines:"; head -5 "$tmp/err"
fi

# --- --cgroup paths: ".." leaves the cgroup tree, a path past PATH_MAX ------
expect "--cgroup /.." 2 "--cgroup /..: \"..\" leaves the cgroup tree" "${fx[@]}" -a --cgroup /..
expect "--cgroup /system.slice/../.." 2 '".." leaves the cgroup tree' "${fx[@]}" -a --cgroup /system.slice/../..
long=/$(printf 'a%.0s' $(seq 5000))
expect "--cgroup of 5001 bytes" 2 "--cgroup: the path is 5001 bytes, longer than any cgroup path" "${fx[@]}" -a --cgroup "$long"
# "/.", "/./" and "//" name the root as "/" does; "/x/./y/" names /x/y
# (the samples compared without their zzz time line)
"$kstack" "${fx[@]}" -a --cgroup / 2>&1 | grep -av '^zzz' >"$tmp/root.txt"
for c in /. /./ // /.//./; do
	rc=0
	"$kstack" "${fx[@]}" -a --cgroup "$c" >"$tmp/c.out" 2>&1 || rc=$?
	grep -av '^zzz' "$tmp/c.out" >"$tmp/c.txt"
	if [ "$rc" = 0 ] && [ -s "$tmp/root.txt" ] && cmp -s "$tmp/root.txt" "$tmp/c.txt"; then
		pass "--cgroup $c selects what --cgroup / selects"
	else
		fail "--cgroup $c: exit $rc, not what --cgroup / prints"; head -3 "$tmp/c.txt"
	fi
done
"$kstack" "${fx[@]}" -a --cgroup /system.slice/app.service 2>&1 | grep -av '^zzz' >"$tmp/app.txt"
rc=0
"$kstack" "${fx[@]}" -a --cgroup /system.slice/./app.service/ >"$tmp/c.out" 2>&1 || rc=$?
grep -av '^zzz' "$tmp/c.out" >"$tmp/c.txt"
if [ "$rc" = 0 ] && grep -q '^PID' "$tmp/app.txt" && cmp -s "$tmp/app.txt" "$tmp/c.txt"; then
	pass "--cgroup /system.slice/./app.service/ selects /system.slice/app.service"
else
	fail "--cgroup /system.slice/./app.service/: exit $rc"; head -3 "$tmp/c.txt"
fi

# --- --cgroup that names nothing, a host without cgroup v2 -----------------
# A fixture tree whose self/cgroup has only v1 lines: nothing could match.
cp -r "$tmp/proc" "$tmp/v1"
printf '2:cpu,cpuacct:/user.slice\n1:name=systemd:/user.slice\n' >"$tmp/v1/self/cgroup"
expect "cgroup v1 only" 2 "--cgroup needs cgroup v2: $tmp/v1/self/cgroup has no \"0::\" line" \
	--proc-root "$tmp/v1" -a --cgroup /user.slice
# With a v2 line, a fixture (not a procfs) is not checked against this host.
printf '0::/user.slice\n' >"$tmp/v1/self/cgroup"
rc=0
"$kstack" --proc-root "$tmp/v1" -a --cgroup /system.slice/app.service >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -q 'Cmd: cp big' "$tmp/out"; then
	pass "cgroup on a fixture with a v2 line: not checked against this host"
else
	fail "cgroup on a fixture with a v2 line: exit $rc"; cat "$tmp/out"
fi
if grep -q '^0::' /proc/self/cgroup && grep -q ' - cgroup2 ' /proc/self/mountinfo; then
	expect "cgroup that does not exist" 2 "--cgroup /no-such-cgroup-$$: no such cgroup (" \
		-a --cgroup "/no-such-cgroup-$$"
	# and background mode says so before creating its directory
	expect "-b with a cgroup that does not exist" 2 "ERROR - --cgroup /no-such-cgroup-$$: no such cgroup" \
		--foreground -a --cgroup "/no-such-cgroup-$$" -d "$tmp/bg"
	if [ ! -e "$tmp/bg" ]; then pass "-b: no directory made"; else fail "-b made $tmp/bg"; fi
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	rc=0
	"$kstack" -p $$ --cgroup "$own" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 0 ] && grep -q "^PID: *$$ " "$tmp/out"; then
		pass "our own cgroup $own selects us"
	else
		fail "our own cgroup $own: exit $rc"; cat "$tmp/err"
	fi
else
	echo "SKIP: no cgroup v2 mounted here: the existence check is not tested"
fi

# --- --cgroup refusals are usage errors: the hint EXIT STATUS promises ----
# (#40 item 11) the message, then "try 'kstack --help'" as the last line
hint() {	# hint NAME ARGS...
	local name=$1 rc=0
	shift
	timeout 30 "$kstack" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && [ "$(tail -n1 "$tmp/err")" = "try 'kstack --help'" ] &&
		grep -q -- '--cgroup' "$tmp/err"; then
		pass "$name: exit 2, the message and the hint"
	else
		fail "$name: exit $rc, no hint as the last line:"
		sed 's/^/    /' "$tmp/err" | head -5
	fi
}
printf '2:cpu,cpuacct:/user.slice\n' >"$tmp/v1-cgroup"
cp -r "$tmp/proc" "$tmp/v1h"
cp "$tmp/v1-cgroup" "$tmp/v1h/self/cgroup"
hint "--cgroup /.." "${fx[@]}" -a --cgroup /..
hint "--cgroup of 5001 bytes" "${fx[@]}" -a --cgroup "$long"
hint "--cgroup on cgroup v1" --proc-root "$tmp/v1h" -a --cgroup /user.slice
hint "-b --cgroup on cgroup v1" --foreground --proc-root "$tmp/v1h" -a \
	--cgroup /user.slice -d "$tmp/bgh"
if grep -q '^0::' /proc/self/cgroup && grep -q ' - cgroup2 ' /proc/self/mountinfo; then
	hint "--cgroup that does not exist" -a --cgroup "/no-such-cgroup-$$"
fi

# --- a kernel without the feature: one status, 4, for -K and --snoop ------
# (#40 item 11: --snoop said 3, "needs root", for what -K says 4)
mkdir "$tmp/nofeat"
rc=0
KSTACK_TEST_DEBUGFS=$tmp/nofeat KSTACK_TEST_TRACEFS=$tmp/nofeat \
	"$kstack" -K >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" = 4 ] && grep -q "this kernel has no kprobes" "$tmp/err"; then
	pass "-K on a kernel without kprobes: exit 4"
else
	fail "-K on a kernel without kprobes: exit $rc: $(cat "$tmp/err")"
fi
if [ "$(id -u)" = 0 ]; then
	rc=0
	KSTACK_TEST_TRACEFS=$tmp/nofeat timeout 30 "$kstack" --snoop ksys_sync -t 1 \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 4 ] && grep -q "this kernel has no kprobe events" "$tmp/err"; then
		pass "--snoop on a kernel without kprobe events: exit 4, as -K"
	else
		fail "--snoop on a kernel without kprobe events: exit $rc (want 4): $(cat "$tmp/err")"
	fi
else
	skip "--snoop gets past its root check only as root"
fi

# --- --vmcore and --vmlinux: not regular files, swapped -------------------
# (the checks come before libkdumpfile or the ELF reader open anything)
mkfifo "$tmp/fifo"
reg=$tmp/proc/stat
expect "--vmlinux FIFO" 4 "--vmlinux $tmp/fifo is a FIFO: a regular file is needed" \
	--vmcore "$reg" --vmlinux "$tmp/fifo" -a
expect "--vmcore FIFO" 4 "--vmcore $tmp/fifo is a FIFO: a regular file is needed" \
	--vmcore "$tmp/fifo" --vmlinux "$reg" -a
expect "--vmcore directory" 4 "--vmcore $tmp is a directory" --vmcore "$tmp" --vmlinux "$reg" -a
# elf TYPE FILE: an ELF64 little-endian header of that e_type, x86-64
elf() { { printf '\177ELF\2\1\1'; head -c 9 /dev/zero; printf "\\$(printf %03o "$1")\0>\0"; head -c 44 /dev/zero; } >"$2"; }
elf 2 "$tmp/exec"
elf 4 "$tmp/core"
expect "swapped (headers)" 2 "--vmcore and --vmlinux look swapped: $tmp/exec is a kernel image (ELF executable), $tmp/core is a dump" \
	--vmcore "$tmp/exec" --vmlinux "$tmp/core" -a
expect "a vmlinux as --vmcore" 4 "--vmcore $tmp/exec is a kernel image (ELF executable), not a dump" \
	--vmcore "$tmp/exec" --vmlinux "$tmp/exec" -a
expect "a dump as --vmlinux" 4 "--vmlinux $tmp/core is a dump, not a vmlinux" \
	--vmcore "$tmp/core" --vmlinux "$tmp/core" -a
# a packed dump and an empty file, named with what to do (#40 item 12)
printf 'x' | gzip -c >"$tmp/vmcore.gz"
: >"$tmp/empty-vmcore"
expect "--vmcore x.gz" 4 "$tmp/vmcore.gz is gzip-compressed: gunzip it first" \
	--vmcore "$tmp/vmcore.gz" -a
expect "--vmcore of an empty file" 4 "$tmp/empty-vmcore is empty: no dump was written to it" \
	--vmcore "$tmp/empty-vmcore" -a
vmdir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
if [ -r "$vmdir/vmcore" ] && [ -r "$vmdir/vmlinux" ]; then
	expect "swapped (real dump)" 2 "--vmcore and --vmlinux look swapped" \
		--vmcore "$vmdir/vmlinux" --vmlinux "$vmdir/vmcore" -a
	expect "--vmlinux FIFO with a real dump" 4 "--vmlinux $tmp/fifo is a FIFO" \
		--vmcore "$vmdir/vmcore" --vmlinux "$tmp/fifo" -a
else
	echo "SKIP: no vmcore in $vmdir: the real swapped pair is not tested"
fi

# --- not root: exit 3, nothing printed, nothing written --------------------
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# shellcheck source=tests/lib/nobody.sh
. "$top/tests/lib/nobody.sh"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	nobody true 2>/dev/null && ! nobody cat /proc/self/stack >/dev/null 2>&1; then
	nbk=$(nobody_kstack "$kstack" "$tmp")
	mkdir -m 1777 "$tmp/nb"
	nb() {	# nb NAME ARGS...: as nobody, exit 3 and the message
		local name=$1 rc=0
		shift
		nobody timeout 30 "$nbk" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
		if [ "$rc" = 3 ] && [ ! -s "$tmp/out" ] &&
			grep -q "needs root (CAP_SYS_ADMIN)" "$tmp/err"; then
			pass "as nobody, $name: exit 3, $(head -1 "$tmp/err")"
		else
			fail "as nobody, $name: exit $rc, stdout $(wc -l <"$tmp/out") lines, stderr:"
			sed 's/^/    /' "$tmp/err" | head -5
		fi
	}
	nb "-a" -a
	nb "-p self" -p $$
	# the message names the stack asked for, not the self/stack the
	# check read (#40 item 12)
	if grep -q "^kstack: /proc/$$/stack: " "$tmp/err" && ! grep -q 'self' "$tmp/err"; then
		pass "as nobody, -p $$: the message names /proc/$$/stack"
	else
		fail "as nobody, -p $$: the message names $(cut -d: -f2 "$tmp/err")"
	fi
	nb "-a -o FILE" -a -o "$tmp/nb/out"
	if [ ! -e "$tmp/nb/out" ] && [ -z "$(ls "$tmp/nb")" ]; then
		pass "as nobody, -o: no file written"
	else
		fail "as nobody, -o wrote: $(ls "$tmp/nb")"
	fi
	nb "--foreground" --foreground -a -d "$tmp/nb/bg"
	if [ ! -e "$tmp/nb/bg" ]; then
		pass "as nobody, -b: no directory made"
	else
		fail "as nobody, -b made $tmp/nb/bg"
	fi
else
	echo "SKIP: cannot run as nobody here (needs root and setpriv): no unprivileged run tested"
fi
# Root, but the stack of every selected task denied (a container's PID 1
# here is one, when a security module or another namespace guards it).
if cat /proc/self/stack >/dev/null 2>&1 && ! cat /proc/1/stack >/dev/null 2>&1; then
	expect "every selected stack denied" 3 "/proc/1/stack not permitted for any of the 1 selected task (" -p 1
	# one denied among others: its PID named, "1 of N tasks" (#40 item 12)
	rc=0
	timeout 30 "$kstack" -a >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 0 ] && grep -Eq '^kstack: /proc/1/stack not permitted( \(the first\))?: [0-9]+ of [0-9]+ tasks printed with (an empty stack|empty stacks)$' "$tmp/err"; then
		pass "-a with PID 1's stack denied: $(cat "$tmp/err")"
	else
		fail "-a with PID 1's stack denied: exit $rc, $(cat "$tmp/err")"
	fi
else
	not_applicable "no task here whose stack root may not read"
fi

finish

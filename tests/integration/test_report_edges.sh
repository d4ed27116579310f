#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack report on the logs of issue #40: every format -b writes (-c,
# --json, --folded) read back, a kernel thread's name with '/' kept whole
# in --folded, a NUL byte inside a line, a PID listed twice in a sample,
# escape sequences in frames, a header year of INT_MIN, an archive whose
# epoch is 2^64-1, and a FIFO given as DIR.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
has() { grep -qF -- "$2" "$1"; }

# the three formats -b writes besides the text, from a fixture /proc
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"
for f in c json folded; do
	opt=--$f
	[ "$f" = c ] && opt=-c
	KSTACK_TEST_INTERVAL_MS=200 KSTACK_TEST_DURATION_MS=700 timeout 30 \
		"$kstack" --foreground --proc-root "$tmp/proc" -a "$opt" -d "$tmp/$f" \
		2>/dev/null
	rc=0
	"$kstack" report "$tmp/$f" >"$tmp/$f.out" 2>"$tmp/$f.err" || rc=$?
	check "-b $opt log: report exits 0 (got $rc: $(head -c 200 "$tmp/$f.err"))" [ "$rc" = 0 ]
	# the D task of the fixture (14, cp big) and its stack are counted
	check "-b $opt log: the D stack is read" has "$tmp/$f.out" "nfs_wait_bit_killable"
done
check "-c log: the timeline counts 9 tasks and 1 in D" \
	grep -q "tasks     9   D    1   stacks    5" "$tmp/c.out"
check "--json log: the timeline counts 9 tasks and 1 in D" \
	grep -q "tasks     9   D    1   stacks    5" "$tmp/json.out"
check "--json log: the stuck D task is named with its command" \
	grep -q "^PID:    14   State: D .*Cmd: cp big" "$tmp/json.out"
check "--folded log: report says it has no sample times" \
	has "$tmp/folded.err" "no sample times"
"$kstack" report --folded "$tmp/folded" >"$tmp/folded.f" 2>/dev/null
n=$(sed -n 's/^nfsd;__wait_on_bit;nfs_wait_bit_killable \([0-9]*\)$/\1/p' "$tmp/folded.f")
samples=$(cat "$tmp/folded/"*.out | grep -c '^nfsd;')
check "--folded log: report --folded sums the lines (${n:-none} of $samples)" \
	[ "${n:-0}" = "$samples" ]

# text logs written by hand: each case a sample or two
hdr() { echo "zzz <$1 UTC 2026 - host"; echo; }
task() { printf 'PID: %5d   State:  %s   Start Time: 2026/01/01 00:00:00   Cmd: %s\n' "$@"; }
mkdir "$tmp/k"
{
	hdr "Thu Jan 01 00:00:00"
	task 7 S "kworker/0:1+events_freezable"
	printf 'Stack:\n[<0>] worker_thread+0x1/0x2\n\n'
} >"$tmp/k/kstack_h.out"
"$kstack" report --folded "$tmp/k" >"$tmp/k.out" 2>&1
check "report --folded keeps a kernel thread's name whole" \
	grep -qxF "kworker/0:1+events_freezable;worker_thread 1" "$tmp/k.out"
{
	hdr "Thu Jan 01 00:00:00"
	task 8 D "/usr/bin/cp big"
	printf 'Stack:\n[<0>] io_schedule+0x1/0x2\n\n'
} >"$tmp/k/kstack_h.out"
"$kstack" report --folded "$tmp/k" >"$tmp/k.out" 2>&1
check "report --folded still drops a command's path" grep -qx "cp;io_schedule 1" "$tmp/k.out"

# a NUL byte inside a line of the last sample
mkdir "$tmp/nul"
{
	hdr "Thu Jan 01 00:00:00"
	task 9 D "a"
	printf 'Stack:\n[<0>] io_schedule+0x1/0x2\n\n'
	hdr "Thu Jan 01 00:00:10"
	task 9 D "a"
	printf 'Stack:\n[<0>] io_sch\0edule+0x1/0x2\n\n'
} >"$tmp/nul/kstack_h.out"
"$kstack" report "$tmp/nul" >"$tmp/nul.out" 2>"$tmp/nul.err"
n=$(grep -c "^2026-01-01 00:00:[0-9]*   tasks" "$tmp/nul.out")
check "a NUL byte in the last sample: both samples read ($n)" [ "$n" = 2 ]
check "a NUL byte is named on stderr" grep -q "NUL" "$tmp/nul.err"

# a PID listed twice in each of two samples 10 s apart: one task, 2 samples
mkdir "$tmp/dup"
for t in 00 10; do
	hdr "Thu Jan 01 00:00:$t"
	task 11 D "x"
	task 11 D "x"
	printf 'Stack:\n[<0>] io_schedule+0x1/0x2\n\n'
done >"$tmp/dup/kstack_h.out"
"$kstack" report "$tmp/dup" >"$tmp/dup.out" 2>&1
check "a PID listed twice in a sample is one task: 2 samples" \
	grep -q "^PID:    11   State: D   for 10s (2 samples)" "$tmp/dup.out"

# escape sequences in frames are escaped as the other formats escape them
mkdir "$tmp/esc"
for t in 00 10; do
	hdr "Thu Jan 01 00:00:$t"
	task 12 D "x"
	printf 'Stack:\n[<0>] evil\033[2J+0x1/0x2\n\n'
done >"$tmp/esc/kstack_h.out"
"$kstack" report "$tmp/esc" >"$tmp/esc.out" 2>&1
check "no raw escape byte in report's frames" \
	bash -c "! grep -q \$'\\033' '$tmp/esc.out'"
check "the frame printed escaped" has "$tmp/esc.out" '[<0>] evil\x1b[2J+0x1/0x2'

# a header year of INT_MIN: a bad line, not a signed overflow
mkdir "$tmp/year"
{
	echo "zzz <Thu Jan 01 00:00:00 UTC -2147483648 - host"
	echo
	task 13 S "sleep 100"
	printf 'Stack:\n[<0>] a+0x1/0x2\n\n'
	hdr "Thu Jan 01 00:00:00"
	task 13 S "x"
	printf 'Stack:\n[<0>] a+0x1/0x2\n\n'
} >"$tmp/year/kstack_h.out"
rc=0
"$kstack" report "$tmp/year" >"$tmp/year.out" 2>"$tmp/year.err" || rc=$?
check "a year of INT_MIN: exit 0 (rc $rc)" [ "$rc" = 0 ]
check "a year of INT_MIN: one sample" grep -q "^1 sample(s)" "$tmp/year.out"
check "a year of INT_MIN: its tasks are not taken for --folded lines" \
	bash -c "! grep -q 'no sample times' '$tmp/year.err'"
check "a year of INT_MIN: no runtime error" bash -c "! grep -q 'runtime error' '$tmp/year.err'"

# an archive stamped 2^64-1 is still an archive: read before the live file
mkdir "$tmp/ep"
{
	hdr "Thu Jan 01 00:00:20"
	task 14 S "live"
	printf 'Stack:\n[<0>] a+0x1/0x2\n\n'
} >"$tmp/ep/kstack_h.out"
{
	hdr "Thu Jan 01 00:00:10"
	task 14 S "archive"
	printf 'Stack:\n[<0>] a+0x1/0x2\n\n'
} | gzip >"$tmp/ep/kstack_h.out-18446744073709551615.gz"
touch -d "2026-01-01 00:00:00" "$tmp/ep/kstack_h.out"
touch -d "2026-01-02 00:00:00" "$tmp/ep/kstack_h.out-18446744073709551615.gz"
"$kstack" report "$tmp/ep" >"$tmp/ep.out" 2>&1
order=$(sed -n 's/^2026-01-01 00:00:\([0-9]*\)   tasks.*/\1/p' "$tmp/ep.out" | tr '\n' ' ')
check "an archive of epoch 2^64-1 before the live file ($order)" [ "$order" = "10 20 " ]

# a FIFO as DIR: named as a FIFO, not "Invalid argument"
mkfifo "$tmp/fifo"
rc=0
timeout 10 "$kstack" report "$tmp/fifo" >/dev/null 2>"$tmp/fifo.err" || rc=$?
check "a FIFO as DIR: exit 4 as a missing one (got $rc)" [ "$rc" = 4 ]
check "a FIFO as DIR: said what it is ($(cat "$tmp/fifo.err"))" has "$tmp/fifo.err" "is a FIFO"
# PIDs no task can have (-1, 0, past PID_MAX_LIMIT, past 2^32), and a
# line of no log: the tasks counted but named by no PID, both said
mkdir "$tmp/pids"
{
	hdr "Thu Jan 01 00:00:00"
	task -1 D "minus"
	task 0 D "zero"
	task 4194305 D "past-limit"
	task 4294967297 D "wrapped"
	task 12 D "good"
	printf 'Stack:\n[<0>] io_schedule+0x1/0x2\n\n'
	echo "this is no line of a log"
} >"$tmp/pids/kstack_h.out"
rc=0
"$kstack" report --top 100 "$tmp/pids" >"$tmp/pids.out" 2>"$tmp/pids.err" || rc=$?
check "out-of-range PIDs: exit 0 (got $rc)" [ "$rc" = 0 ]
check "out-of-range PIDs: all 5 tasks counted" \
	grep -q "tasks     5   D    5" "$tmp/pids.out"
check "out-of-range PIDs: only PID 12 named" \
	sh -c "grep -q 'e.g. 12 (good)\$' '$tmp/pids.out' && ! grep -qE '(-1|4194305|4294967297|[^0-9]1) \\(' '$tmp/pids.out'"
check "out-of-range PIDs: said ($(cat "$tmp/pids.err"))" \
	has "$tmp/pids.err" "kstack_h.out: 4 task(s) with a PID out of range (1 to 4194304), counted but not named"
check "a line of no log: said" \
	has "$tmp/pids.err" "kstack_h.out: 1 line(s) not of a kstack or oled log, skipped"
finish

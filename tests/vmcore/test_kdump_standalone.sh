#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore (libkdumpfile, no crash) against the live capture made in
# the same guest just before the dump: every task that was not running
# while `kstack -a -H` ran in the guest must print the same task line
# (state, start time, command) and the same stack; -K and -F must print
# the guest's kprobes/list and enabled_functions.  With crash installed,
# the crash extension's text for the same dump must be the same bytes
# (KSTACK_SO, default build/kstack.so).  Also: a vmlinux that does not
# belong to the dump and a file that is not a dump are refused.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ] || [ ! -s "$dir/live/kstack-a.txt" ]; then
	echo "SKIP: no vmcore in $dir"
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -x "$kstack" ]; then
	fail "no kstack binary at $kstack"
	finish
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per task: "PID<TAB>task line<TAB>stack frames joined by |".
records() {
	awk '
	function flush(i) {
		for (i = 0; i < n; i++) {
			split(task[i], f, " +")
			printf "%s\t%s\t%s\n", f[2], task[i], stack
		}
		n = 0; stack = ""; instack = 0
	}
	/^zzz </ { next }
	/^PID:/ { if (instack) flush(); task[n++] = $0; next }
	/^Stack:$/ { instack = 1; stack = ""; next }
	/^$/ { if (instack) flush(); next }
	instack { stack = stack $0 "|" }
	END { if (instack) flush() }
	' "$1" | sort -n
}

start=$(date +%s.%N)
TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -a -H \
	>"$tmp/dump.txt" 2>"$tmp/err.txt"
rc=$?
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
if [ "$rc" -eq 0 ] && [ -s "$tmp/dump.txt" ]; then
	pass "kstack --vmcore -a -H exits 0 in ${secs}s"
else
	fail "kstack --vmcore -a -H exited $rc; stderr:"
	sed 's/^/  | /' "$tmp/err.txt" | head -n 20
	finish
fi

# The header names the guest.
live_host=$(sed -n '1s/^zzz <.* - //p' "$dir/live/kstack-a.txt")
dump_host=$(sed -n '1s/^zzz <.* - //p' "$tmp/dump.txt")
if [ -n "$live_host" ] && [ "$live_host" = "$dump_host" ]; then
	pass "header names host $dump_host"
else
	fail "header host '$dump_host', live capture '$live_host'"
fi

records "$dir/live/kstack-a.txt" >"$tmp/live.rec"
records "$tmp/dump.txt" >"$tmp/dump.rec"

# Tasks whose stack was not stable while the live capture ran: those the
# capture saw running (state R) and the capture's own helper processes.
{
	awk -F'\t' '$2 ~ /State: +R /' "$tmp/live.rec" | cut -f1
	grep -v '^#' "$dir/live/running.txt" 2>/dev/null | awk '{ print $1 }'
	sed -n 's/^\(helper_pid\|kstack_[A-Za-z]*_pid\): //p' "$dir/live/capture.txt" 2>/dev/null
} | sort -u >"$tmp/unstable"

# makedumpfile -d with bit 8 leaves out user pages: no command lines in
# the dump, so the walker prints the comm, as /proc does for a task
# without one.  Then only the rest of the line and the stack can match.
filtered=0
level=$(sed -n 's/^vmcore_format:.*-d \([0-9]*\).*/\1/p' "$dir/manifest" 2>/dev/null)
if [ -n "$level" ] && [ $((level & 8)) -ne 0 ]; then
	filtered=1
	echo "note: user pages filtered (makedumpfile -d $level): Cmd is not compared"
fi

# One pass: the dump's records by PID, then every live one against them.
# A kworker's name ends in the workqueue it last served
# (wq_worker_comm()), which changes whenever it runs, also between the
# capture and the dump: such a kworker is counted apart, not as a
# difference, when nothing else differs.
# A task only on one side, not set aside, is a difference too.
# Prints up to five differences, then "same differ skipped gone total
# renamed woken nocmd".
awk -F'\t' -v filtered="$filtered" '
	function no_cmd(line) {
		sub(/   Cmd: .*$/, "", line)
		return line
	}
	function kworker_base(line) {
		if (match(line, /Cmd: kworker\/[^ -]*/))
			line = substr(line, 1, RSTART + RLENGTH - 1)
		return line
	}
	FILENAME == ARGV[1] { unstable[$1] = 1; next }
	FILENAME == ARGV[2] { dump[$1] = $2 "\t" $3; next }
	{
		total++
		seen[$1] = 1
		if ($1 in unstable) { skipped++; next }
		if (!($1 in dump)) {
			gone++
			if (++differ <= 5)
				printf "  task %s is not in the dump: %s\n", $1, $2
			next
		}
		if (dump[$1] == $2 "\t" $3) { same++; next }
		split(dump[$1], d, "\t")
		# Runnable in the dump: woken since the capture (an RCU or
		# timer kthread), so it may have moved on.
		if (d[1] ~ /State: +R /) { woken++; next }
		if (filtered && d[2] == $3 && no_cmd(d[1]) == no_cmd($2)) {
			nocmd++
			next
		}
		if ($2 ~ /Cmd: kworker\// && d[2] == $3 &&
		    kworker_base(d[1]) == kworker_base($2)) {
			renamed++
			next
		}
		if (++differ <= 5) {
			split(dump[$1], d, "\t")
			sub(/\|$/, "", $3)
			sub(/\|$/, "", d[2])
			gsub(/\|/, "\n          ", $3)
			gsub(/\|/, "\n          ", d[2])
			printf "  task %s differs:\n    live: %s\n          %s\n", $1, $2, $3
			printf "    dump: %s\n          %s\n", d[1], d[2]
		}
	}
	END {
		for (pid in dump) {
			if (pid in seen || pid in unstable || dump[pid] ~ /State: +R /)
				continue
			split(dump[pid], d, "\t")
			if (++differ <= 5)
				printf "  task %s is only in the dump: %s\n", pid, d[1]
		}
		printf "%d %d %d %d %d %d %d %d\n", same, differ, skipped, gone,
			total, renamed, woken, nocmd
	}
' "$tmp/unstable" "$tmp/dump.rec" "$tmp/live.rec" >"$tmp/compare.txt"
head -n -1 "$tmp/compare.txt"
read -r same differ skipped gone total renamed woken nocmd < <(tail -n 1 "$tmp/compare.txt")
echo "tasks: $total live, $same match, $differ differ, $skipped running during the capture," \
	"$gone not in the dump, $woken runnable in the dump," \
	"$renamed kworkers served another workqueue since, $nocmd match but for Cmd"
if [ "$differ" -eq 0 ] && [ "$((same + nocmd))" -gt 0 ]; then
	pass "$((same + nocmd)) tasks print the same line and stack as in the live capture"
else
	fail "$differ tasks differ from the live capture or are on one side only"
fi

# The crash extension over the same dump runs the same walker: its text
# must be the same, byte for byte (only the targets differ), for the
# default selection and for every format.  One crash session for all.
# (A long option first makes crash print the usage: options come after -a.)
cross=("-a -H" "-D" "-a -H -c" "-a -H --json" "-a --folded" "-p 1,2 -H")
so=${KSTACK_SO:-$top/build/kstack.so}
# crash's command writes its messages into the text; ours go to stderr.
crash_text() { grep -v '^kstack: ' "$1" || true; }
if command -v crash >/dev/null && [ -s "$so" ]; then
	{
		echo "extend $so"
		for i in "${!cross[@]}"; do
			echo "kstack ${cross[$i]} >$tmp/crash.$i"
		done
		echo quit
	} >"$tmp/cmds"
	TZ=UTC timeout 600 crash -s "$dir/vmlinux" "$dir/vmcore" -i "$tmp/cmds" \
		</dev/null >"$tmp/crash.out" 2>&1
	if grep -q 'ASan runtime does not come first' "$tmp/crash.out"; then
		echo "SKIP: $so is an ASan build, which crash cannot load"
	elif [ ! -s "$tmp/crash.0" ]; then
		fail "crash's kstack -a -H printed nothing:"
		head -n 20 "$tmp/crash.out" | sed 's/^/  | /'
	else
		for i in "${!cross[@]}"; do
			# shellcheck disable=SC2086 # the options are words
			TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" \
				${cross[$i]} >"$tmp/mine.$i" 2>/dev/null
			if grep -q 'is for the live tool only' "$tmp/crash.$i"; then
				echo "SKIP: kstack ${cross[$i]} in crash: $(head -n 1 "$tmp/crash.$i")"
			elif crash_text "$tmp/crash.$i" | cmp -s - "$tmp/mine.$i"; then
				pass "kstack ${cross[$i]}: the same text as in crash" \
					"($(wc -l <"$tmp/mine.$i") lines)"
			else
				fail "kstack ${cross[$i]}: the text differs from crash's:"
				crash_text "$tmp/crash.$i" | diff - "$tmp/mine.$i" |
					head -n 20 | sed 's/^/  | /'
			fi
		done
	fi
else
	echo "note: no crash or no kstack.so; not compared with the crash extension"
fi

# -K / -F: the kernel-format lines (before "== summary") must be the
# guest's own kprobes/list and enabled_functions.
hooks() {
	local opt=$1 want=$2 name=$3
	[ -s "$want" ] || { echo "note: no $(basename "$want") in the capture; $opt not checked"; return; }
	"$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" "$opt" \
		>"$tmp/hooks.txt" 2>"$tmp/hooks.err"
	if ! grep -q '^== summary' "$tmp/hooks.txt"; then
		fail "$opt with --vmcore printed no report: $(head -c 300 "$tmp/hooks.err")"
		return
	fi
	if sed '/^== summary/,$d' "$tmp/hooks.txt" | cmp -s - "$want"; then
		pass "$opt prints the guest's $name"
	else
		fail "$opt differs from the guest's $name:"
		sed '/^== summary/,$d' "$tmp/hooks.txt" | diff - "$want" | head -n 10 | sed 's/^/  | /'
	fi
}
hooks -K "$dir/live/kprobes-list.txt" "kprobes/list"
hooks -F "$dir/live/enabled_functions.txt" "enabled_functions"

# Refusals: a file that is not a dump, and a vmlinux that is not this
# dump's (an ELF whose linux_banner is not where the dump has it).
printf 'not a dump\n' >"$tmp/notdump"
"$kstack" --vmcore "$tmp/notdump" --vmlinux "$dir/vmlinux" -a >/dev/null 2>"$tmp/err1.txt"
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'cannot read' "$tmp/err1.txt"; then
	pass "a file that is not a dump is refused (exit $rc)"
else
	fail "not-a-dump: exit $rc, stderr: $(head -c 300 "$tmp/err1.txt")"
fi

cat >"$tmp/fake.c" <<'EOF'
const char linux_banner[] = "Linux version 0.0.0-fake (nobody@nowhere) #1\n";
void _start(void) { for (;;); }
EOF
if gcc -nostdlib -static -o "$tmp/fake-vmlinux" "$tmp/fake.c" 2>/dev/null; then
	"$kstack" --vmcore "$dir/vmcore" --vmlinux "$tmp/fake-vmlinux" -a >/dev/null 2>"$tmp/err2.txt"
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q 'does not match' "$tmp/err2.txt"; then
		pass "a vmlinux of another kernel is refused (exit $rc)"
	else
		fail "wrong vmlinux: exit $rc, stderr: $(head -c 300 "$tmp/err2.txt")"
	fi
else
	echo "note: no gcc to build a fake vmlinux; mismatch check not run"
fi

finish

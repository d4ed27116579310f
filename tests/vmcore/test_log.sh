#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --log: the dump's kernel log from its printk ring buffer.
#  - with the vmlinux and from the dump alone, the same bytes;
#  - equal to crash's own `log` line for line, where crash reads the log
#    (crash 8.0.2 up to Linux 6.10);
#  - every kernel line the guest's console printed (loglevel=4: a few)
#    before the dump is in it, in order;
#  - crash's `kstack --log` prints the same bytes as --vmcore --log;
#  - --json parses, one object per record with its fields, and ends with
#    what could not be read.
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
so=${KSTACK_SO:-$top/build/kstack.so}
export KSTACK_SO=$so
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	skip "no vmcore in $dir (make vmcore)"
	finish
fi
[ -x "$kstack" ] || { fail "no $kstack (make)"; finish; }
[ -s "$so" ] || { fail "no crash extension at $so"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$dir")

if "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" --log \
	>"$tmp/with" 2>"$tmp/with.err" && [ -s "$tmp/with" ]; then
	pass "$name: --vmcore --log with the vmlinux: $(wc -l <"$tmp/with") lines"
else
	fail "$name: --vmcore --log with the vmlinux: $(head -c 300 "$tmp/with.err")"
fi
if "$kstack" --vmcore "$dir/vmcore" --log >"$tmp/alone" 2>"$tmp/alone.err" &&
	cmp -s "$tmp/with" "$tmp/alone"; then
	pass "$name: the dump alone gives the same log"
else
	fail "$name: the dump alone: $(head -c 300 "$tmp/alone.err")" \
		"$(diff "$tmp/with" "$tmp/alone" | head -n 4)"
fi
# kstack's own lines (the sanitizers' summaries are not its)
if grep -q '^kstack: ' "$tmp/with.err"; then
	fail "$name: --log said: $(grep -m3 '^kstack: ' "$tmp/with.err")"
else
	pass "$name: --log read every record (no message)"
fi

if [ -f "$dir/console.log" ]; then
	count_checks < <(python3 "$top/tests/lib/log_check.py" console "$tmp/with" \
		"$dir/console.log" | sed "s/^\([A-Z/]*: \)/\1$name: /")
else
	skip "$name: no console.log"
fi

"$kstack" --vmcore "$dir/vmcore" --log --json >"$tmp/json" 2>"$tmp/json.err"
count_checks < <(python3 "$top/tests/lib/log_check.py" json "$tmp/json" |
	sed "s/^\([A-Z/]*: \)/\1$name: /")

# crash: its own log and the extension's, each into a file of its own
printf 'log > %s\nextend %s\nkstack --log > %s\nquit\n' "$tmp/crash.log" "$so" \
	"$tmp/crash.kstack" >"$tmp/cmds"
run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/crash.out"
if rep=$(sanitizer_report "$tmp/crash.out"); then
	fail "$name: a sanitizer report inside crash: $rep"
elif crash_refused "$tmp/crash.out" "$dir"; then
	:
elif [ ! -s "$tmp/crash.kstack" ]; then
	fail "$name: crash's kstack --log printed nothing: $(tail -n 5 "$tmp/crash.out")"
else
	if cmp -s "$tmp/crash.kstack" "$tmp/with"; then
		pass "$name: crash's kstack --log equals --vmcore --log byte for byte"
	else
		fail "$name: crash's kstack --log differs from --vmcore --log:" \
			"$(diff "$tmp/with" "$tmp/crash.kstack" | head -n 4)"
	fi
	if [ ! -s "$tmp/crash.log" ]; then
		not_applicable "$name: crash's own log printed nothing (crash 8.0.2 reads the log up to 6.10)"
	elif cmp -s "$tmp/crash.log" "$tmp/with"; then
		pass "$name: --log equals crash's log, $(wc -l <"$tmp/with") lines"
	else
		fail "$name: --log differs from crash's log:" \
			"$(diff "$tmp/crash.log" "$tmp/with" | head -n 4)"
	fi
fi
finish

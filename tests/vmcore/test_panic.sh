#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore DUMP --panic and crash's kstack --panic: the panicking
# CPU and its task, and the taint as print_tainted() spells it.
#   - A dump that died (vmcores/scenarios/oops.sh, nmi.sh; default
#     cache/vmcores/oops): the CPU, PID and Comm of the console's
#     "CPU: N PID: P Comm: C Tainted: ..." line and its Tainted: text.
#     An Oops (or BUG()'s "invalid opcode") taints the kernel with D after
#     it printed that line, so there the dump's D is set aside.
#   - Any other dump: "Panic: none (panic_cpu is -1)".
#   - Everywhere crash opens the dump: tainted_mask and panic_cpu as
#     crash's own print reads them, and crash's kstack --panic (text and
#     --json) byte for byte what kstack --vmcore --panic prints.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/oops}
so=${KSTACK_SO:-$top/build/kstack.so}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -s "$dir/vmcore" ] || [ ! -f "$dir/console.log" ]; then
	skip "no vmcore and console.log in $dir (make vmcore-oops or vmcore-nmi): --panic not tested"
	finish
fi
if "$kstack" --vmcore /dev/null -a 2>&1 | grep -q 'built without libkdumpfile'; then
	skip "this kstack has no --vmcore (built without libkdumpfile)"
	finish
fi
release=$(sed -n 's/^release: //p' "$dir/manifest" 2>/dev/null)

# The dump alone; where it names no panic_cpu (kallsyms of text symbols
# only), with its vmlinux.
src=(--vmcore "$dir/vmcore")
"$kstack" "${src[@]}" --panic >"$tmp/panic.txt" 2>"$tmp/alone.err"
if grep -q 'panic_cpu' "$tmp/alone.err" && [ -e "$dir/vmlinux" ]; then
	not_applicable "--vmcore alone: $(head -n 1 "$tmp/alone.err"); checked with --vmlinux"
	src+=(--vmlinux "$dir/vmlinux")
	"$kstack" "${src[@]}" --panic >"$tmp/panic.txt" 2>"$tmp/panic.err"
else
	cp "$tmp/alone.err" "$tmp/panic.err"
fi
"$kstack" "${src[@]}" --panic --json >"$tmp/panic.json" 2>/dev/null
# (the sanitizers' own lines, such as a suppression used, are not kstack's)
if grep -q '^kstack: ' "$tmp/panic.err"; then
	fail "--panic said: $(grep -m 2 '^kstack: ' "$tmp/panic.err")"
else
	pass "--panic read the dump without a complaint"
fi

# The console's dump_stack() header: "CPU: 1 PID: 126 Comm: sh Tainted:
# G           OE      6.1.0-56-cloud-amd64 #1 ..." (6.10+: "CPU: 1 UID: 0
# PID: ..."); print_tainted()'s text runs up to " RELEASE".
# The first after the guest pulled its trigger (DIE-TRIGGER): a WARN at
# boot prints one too.
header=$(sed -n '/^DIE-TRIGGER/,$p' "$dir/console.log" |
	grep -a -m 1 -E 'CPU: [0-9]+ (UID: [0-9]+ )?PID: [0-9]+ Comm: ' |
	sed 's/^\[[^]]*\] //')
if grep -aq 'Kernel panic - not syncing' "$dir/console.log" && [ -n "$header" ]; then
	cpu=$(sed -E 's/.*CPU: ([0-9]+) .*/\1/' <<<"$header")
	pid=$(sed -E 's/.* PID: ([0-9]+) .*/\1/' <<<"$header")
	comm=$(sed -E 's/.* Comm: (.*) (Not tainted|Tainted: ).*/\1/' <<<"$header")
	want="Panic: CPU $cpu, PID $pid ($comm)"
	got=$(head -n 1 "$tmp/panic.txt")
	if [ "$got" = "$want" ]; then
		pass "the panicking CPU and task are the console's: $got"
	else
		fail "the panic: '$got', the console says '$want'"
	fi
	taint=$(sed -E 's/.* Comm: .* (Not tainted|Tainted: .*)$/\1/' <<<"$header")
	taint=${taint% "$release"*}
	got=$(grep -m 1 -E '^(Tainted: |Not tainted)' "$tmp/panic.txt")
	# die()'s "Oops: 0002 [#1]", "invalid opcode: 0000 [#1]" (BUG()),
	# arm64's "Internal error: Oops: ... [#1]"
	# (grep reads it all: -q would end the pipe early, and pipefail fail it)
	if sed -n '/^DIE-TRIGGER/,$p' "$dir/console.log" |
		grep -aE ': .*\[#[0-9]+\]' >/dev/null; then
		# oops_end() adds TAINT_DIE after __die() printed the header
		got=${got//D/ }
		[ "$got" != "Tainted:                    " ] || got="Not tainted"
	fi
	if [ "$got" = "$taint" ]; then
		pass "the Tainted: line is the console's: '$taint'"
	else
		fail "the Tainted: line '$got', the console says '$taint'"
	fi
else
	not_applicable "$dir did not die (no panic on its console): panic_cpu must be -1"
	if [ "$(head -n 1 "$tmp/panic.txt")" = "Panic: none (panic_cpu is -1)" ]; then
		pass "a dump without a panic says Panic: none"
	else
		fail "a dump without a panic: $(head -n 1 "$tmp/panic.txt")"
	fi
fi
# The scenario's own "cat /proc/sys/kernel/tainted" before the trigger.
proc_taint=$(sed -n 's/^ksdie-scenario: tainted //p' "$dir/console.log" | tr -d '\r' | head -n 1)
mask=$(sed -n 's/.*"tainted_mask":\([0-9]*\).*/\1/p' "$tmp/panic.json")
if [ -n "$proc_taint" ]; then
	if [ $((mask & ~128)) = "$proc_taint" ]; then
		pass "tainted_mask $mask is /proc/sys/kernel/tainted's $proc_taint (D aside)"
	else
		fail "tainted_mask $mask, /proc/sys/kernel/tainted said $proc_taint"
	fi
fi

# --- crash ---------------------------------------------------------------------
if ! command -v "$CRASH" >/dev/null || [ ! -s "$so" ] || [ ! -e "$dir/vmlinux" ]; then
	skip "no crash, kstack.so or $dir/vmlinux: --panic in crash not tested"
	finish
fi
cat >"$tmp/cmds" <<CMDS
extend $so
kstack --panic >$tmp/crash.txt
kstack --panic --json >$tmp/crash.json
p/d tainted_mask
p/d panic_cpu.counter
quit
CMDS
KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/crash.out"
if crash_refused "$tmp/crash.out" "$dir"; then
	finish
fi
if sanitizer_report "$tmp/crash.out"; then
	fail "a sanitizer report in crash"
fi
for f in txt json; do
	what="kstack --panic"
	[ "$f" = txt ] || what="$what --json"
	if [ -s "$tmp/crash.$f" ] && cmp -s "$tmp/crash.$f" "$tmp/panic.$f"; then
		pass "crash's $what: the same bytes as kstack --vmcore's"
	else
		fail "crash's $what differs from kstack --vmcore's:"
		diff "$tmp/crash.$f" "$tmp/panic.$f" | head -5
	fi
done
crash_mask=$(sed -n 's/^[$]1 = //p' "$tmp/crash.out")
crash_cpu=$(sed -n 's/^[$]2 = //p' "$tmp/crash.out")
if [ -n "$crash_mask" ] && [ "$crash_mask" = "$mask" ]; then
	pass "tainted_mask $mask is what crash reads"
else
	fail "tainted_mask $mask, crash reads '${crash_mask}'"
fi
cpu=$(sed -n 's/.*"panic_cpu":\(-\{0,1\}[0-9]*\).*/\1/p' "$tmp/panic.json")
if [ -n "$crash_cpu" ] && [ "$crash_cpu" = "$cpu" ]; then
	pass "panic_cpu $cpu is what crash reads"
else
	fail "panic_cpu $cpu, crash reads '${crash_cpu}'"
fi
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore DUMP --cpus on a real dump: one block per vCPU (QEMU
# writes an NT_PRSTATUS note for each, offline ones too), each block's
# task is the one its runqueue ran, or for a CPU caught inside
# __schedule() the one whose stack it is still on, with a Switching: line
# naming rq->curr (the default view's -v says the same task was on that
# CPU; crash's runq names rq->curr current there), every trace
# either reaches the end of the task's stack or says why, and a CPU's
# frames in kernel mode agree with the default view of its task; the
# same bytes with and without --vmlinux, and from crash's kstack --cpus
# (text and --json).  crash's own bt -a is compared where it unwinds;
# crash 8.0.2 does not on these dumps (it cannot read the CPUs'
# exception stacks: "bt: read of stack at fffffe0000014000 failed").
# KSTACK_VMCORE_DIR picks the vmcore folder (default cache/vmcores/basic).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
kstack=${KSTACK:-$top/build/kstack}
so=${KSTACK_SO:-$top/build/kstack.so}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	skip "no vmcore in $dir"
	finish
fi
if [ ! -x "$kstack" ]; then
	fail "no kstack binary at $kstack"
	finish
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$kstack" --vmcore "$dir/vmcore" --cpus >"$tmp/alone" 2>"$tmp/alone.err"
rc=$?
if grep -q 'does not read .* CPUs yet' "$tmp/alone.err"; then
	not_applicable "--cpus does not read this dump's architecture: $(cat "$tmp/alone.err")"
	finish
fi
"$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" --cpus \
	>"$tmp/cpus" 2>"$tmp/cpus.err"
vrc=$?
if [ "$vrc" -ne 0 ] || [ ! -s "$tmp/cpus" ]; then
	fail "--vmcore --vmlinux --cpus exited $vrc:"
	sed 's/^/  | /' "$tmp/cpus.err" | head -n 5
	finish
fi
if [ "$rc" -ne 0 ] && grep -q '^kstack: --cpus needs the symbols' "$tmp/alone.err"; then
	# a kallsyms without data symbols (arm64's 6.1 cloud kernel): the
	# finders of image/data_finder.c do not find these yet
	not_applicable "the dump alone lacks symbols --cpus needs: $(grep -m1 "^kstack: " "$tmp/alone.err")"
	alone=no
	with=(--vmlinux "$dir/vmlinux")
elif [ "$rc" -eq 0 ] && [ -s "$tmp/alone" ]; then
	pass "--vmcore --cpus without the vmlinux exits 0"
	alone=yes
	with=()
else
	fail "--vmcore --cpus exited $rc:"
	sed 's/^/  | /' "$tmp/alone.err" | head -n 5
	finish
fi
if [ "$alone" = no ]; then
	:
elif cmp -s "$tmp/cpus" "$tmp/alone"; then
	pass "--cpus prints the same bytes with and without --vmlinux"
else
	fail "--cpus with --vmlinux differs from the dump alone:"
	diff "$tmp/alone" "$tmp/cpus" | head -n 10 | sed 's/^/  | /'
fi

# One block per vCPU: QEMU's -smp, or the dump's NT_PRSTATUS notes.
want=$(sed -n 's/^qemu: .* -smp \([0-9]*\).*/\1/p' "$dir/manifest" 2>/dev/null)
[ -n "$want" ] || want=$(readelf -n "$dir/vmcore" 2>/dev/null | grep -c NT_PRSTATUS)
got=$(grep -c '^CPU: [0-9]* PID: [0-9]* Comm: ' "$tmp/cpus")
if [ -n "$want" ] && [ "$want" -gt 0 ] && [ "$got" -eq "$want" ]; then
	pass "$got blocks, one per vCPU"
else
	fail "$got blocks for ${want:-?} vCPUs"
fi

# The blocks, for the checks below: CPU PID MODE FRAMES (reliable ones,
# RIP or pc first), MODE user, idle, note or whole.  x86-64's trace is
# whole at </TASK>; arm64's (its dump has no markers, "pc : " heads it) at
# the frame of the task's entry: a kernel thread's ret_from_fork, a
# CPU's __primary_switched or __secondary_switched, an EL0 exception.
awk '
function flush() {
	if (cpu != "") print cpu, pid, mode, frames, all
}
function ended() {
	if (arm) return lastframe ~ /^(ret_from_fork|__primary_switched|__secondary_switched|el0t_(64|32)_[a-z]+)\+/
	# entered from user mode: the regs of user mode close the trace
	return last == "</TASK>" || (user && last ~ /^<\//)
}
/^CPU: / { flush(); cpu = $2; pid = $4; mode = "whole"; frames = ""; all = ""; last = ""; arm = 0; lastframe = ""; user = 0 }
# the function of the registers first (a module name in brackets follows it)
/^RIP: [^0-9]/ && !intrace { frames = $2; all = $2 }
/^pc : [^0-9]/ && !intrace { frames = $3; all = $3 }
/^pc : / { arm = 1 }
/^Call [Tt]race:/ { intrace = 1 }
/^User mode:/ { mode = "user" }
/^The trace ends here:/ { mode = "note" }
/^ [^<?]/ && intrace { frames = frames "," $1; all = all "," $1; lastframe = $1 }
/^ \? / && intrace { all = all "," $2 }
# the kernel-mode registers saved at a crossing: their RIP is a frame too
/^RIP: 0010:/ && intrace { f = $2; sub(/^0010:/, "", f); frames = frames "," f; all = all "," f }
/^ </ { last = $1 }
/^RIP: [0-9a-f][0-9a-f][0-9a-f][0-9a-f]:/ && intrace { user = $2 !~ /^0010:/ }
/^$/ { if (mode == "whole" && !ended() && intrace) mode = "short"; intrace = 0 }
END { flush() }' "$tmp/cpus" >"$tmp/blocks"

short=$(awk '$3 == "short" { print "CPU " $1 }' "$tmp/blocks" | paste -sd, -)
if [ -z "$short" ]; then
	pass "every trace ends at the task's entry (</TASK> on x86-64), in user mode, or says why it ends early"
else
	fail "traces cut short without a word: $short"
fi
grep -h '^The trace ends here' "$tmp/cpus" | sed 's/^/  note: /'

# Registers saved where a trace crosses an entry (x86-64) are a context:
# their CS is __KERNEL_CS, __USER_CS or __USER32_CS.  Read 15 words off
# (the ORC entry after "call error_entry", a CPU stopped in sync_regs)
# they were RIP: 0000:0x0.
if grep -q '^RIP: ' "$tmp/cpus"; then
	odd=$(awk '/^Call Trace:/ { t = 1 } /^$/ { t = 0 }
		t && /^RIP: [0-9a-f][0-9a-f][0-9a-f][0-9a-f]:/ && $2 !~ /^00(10|33|23):/' \
		"$tmp/cpus" | paste -sd, -)
	if [ -z "$odd" ]; then
		pass "every register set shown at a crossing has the kernel's or user mode's CS"
	else
		fail "registers with no kernel or user CS shown at a crossing: $odd"
	fi
fi

# The task is the runqueue's: the default view says it was on that CPU.
# A task that exits as the dump is taken is still the runqueue's current
# after release_task() took it off the task list: -p cannot find it, and
# that is said, not failed (the locks dump caught the guest's own kstack so).
bad=0 n=0
while read -r cpu pid _mode _frames; do
	[ "$pid" -eq 0 ] && continue
	n=$((n + 1))
	"$kstack" --vmcore "$dir/vmcore" "${with[@]}" -p "$pid" -v \
		>"$tmp/p.out" 2>"$tmp/p.err"
	if grep -q "PID $pid does not exist in the dump" "$tmp/p.err"; then
		echo "  CPU $cpu: PID $pid is off the task list (exiting)"
		n=$((n - 1))
	elif ! grep -q "CPU: $cpu (on CPU)" "$tmp/p.out"; then
		bad=$((bad + 1))
		echo "  CPU $cpu: PID $pid not on it"
	fi
done <"$tmp/blocks"
if [ "$bad" -eq 0 ]; then
	pass "the task of each of $n busy CPUs is on that CPU in the default view too"
else
	fail "$bad CPUs' tasks are not on them in the default view"
fi

# A CPU in kernel mode running a task: the default view's frames of that
# task, unwound from the same registers, come in the same order in --cpus.
n=0 bad=0
while read -r cpu pid mode frames _all; do
	[ "$pid" -eq 0 ] || [ "$mode" = user ] && continue
	n=$((n + 1))
	"$kstack" --vmcore "$dir/vmcore" "${with[@]}" -p "$pid" 2>/dev/null |
		sed -n 's/^\[<0>\] //p' >"$tmp/want.$cpu"
	tr ',' '\n' <<<"$frames" | awk -v want="$tmp/want.$cpu" '
		BEGIN { i = nw = 0; while ((getline l < want) > 0) { split(l, a, " "); w[nw++] = a[1] } }
		{ if (i < nw && $0 == w[i]) i++ }
		END { exit i == nw ? 0 : 1 }' ||
		{ bad=$((bad + 1)); echo "  CPU $cpu: PID $pid's frames differ"; }
done <"$tmp/blocks"
if [ "$n" -eq 0 ]; then
	not_applicable "no CPU ran a task in kernel mode in this dump"
elif [ "$bad" -eq 0 ]; then
	pass "$n CPUs' kernel frames agree with the default view of their task"
else
	fail "$bad of $n CPUs' frames disagree with the default view"
fi

# --json: one object per CPU, each parseable, the same CPUs, tasks and
# frames as the text, and the registers the text shows.
"$kstack" --vmcore "$dir/vmcore" "${with[@]}" --cpus --json >"$tmp/json" 2>/dev/null
if python3 - "$tmp/json" "$tmp/blocks" "$tmp/cpus" <<'PY'
import json, re, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
blocks = [l.split()[:2] for l in open(sys.argv[2])]
assert [[str(o["cpu"]), str(o["pid"])] for o in objs] == blocks, (objs, blocks)
texts = open(sys.argv[3]).read().split("\n\n")
for o, text in zip(objs, texts):
    for k in ("comm", "idle", "online", "user", "trace", "note"):
        assert k in o, k
    frames = [l[1:] for l in text.split("\n") if re.match(r" [^<]", l)]
    want = [("" if t["reliable"] else "? ") + t["frame"]
            for t in o["trace"] if "frame" in t]
    assert frames == want, (o["cpu"], frames, want)
    m = re.search(r"^lr : (.*)$", text, re.M)
    if m and not o["user"]:
        assert o["lr_symbol"] == m.group(1), (o["cpu"], m.group(1))
    m = re.search(r"^(?:pc :|RIP:) (.*)$", text, re.M)
    if m and not o["user"]:
        assert o["rip_symbol"] == m.group(1), (o["cpu"], m.group(1))
PY
then
	pass "--json: one object per CPU, the same CPUs, tasks, frames and registers"
else
	fail "--json does not match the text"
fi

# crash: kstack --cpus is the same bytes; its runq has the same current
# tasks; its bt -a, where it unwinds, has our frames.
if [ ! -s "$so" ] || ! command -v "$CRASH" >/dev/null; then
	skip "no crash or no extension at $so"
	finish
fi
cat >"$tmp/cmds" <<CMDS
extend $so
echo ==KS-CPUS==
kstack --cpus
echo ==KS-JSON==
kstack --cpus --json
echo ==KS-RUNQ==
runq
echo ==KS-BT==
bt -a
echo ==KS-END==
quit
CMDS
KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/crash"
if sanitizer_report "$tmp/crash"; then
	fail "a sanitizer report in crash with $so"
	finish
fi
crash_refused "$tmp/crash" "$dir" && finish
section() {
	sed -n "/^==KS-$1==\$/,/^==KS-/p" "$tmp/crash" | sed '1d;$d' |
		grep -v ': shared object loaded$'
}
section CPUS >"$tmp/c.cpus"
section JSON >"$tmp/c.json"
if cmp -s "$tmp/c.cpus" "$tmp/cpus"; then
	pass "crash's kstack --cpus prints the bytes of --vmcore --cpus"
else
	fail "crash's kstack --cpus differs from --vmcore --cpus:"
	diff "$tmp/cpus" "$tmp/c.cpus" | head -n 10 | sed 's/^/  | /'
fi
if cmp -s "$tmp/c.json" "$tmp/json"; then
	pass "crash's kstack --cpus --json prints the bytes of --vmcore's"
else
	fail "crash's kstack --cpus --json differs from --vmcore's"
fi
# crash writes runq's and bt's lines late, past the next echo: they are
# read from the whole session, by their own shapes.
awk '/^CPU [0-9]* RUNQUEUE/ { cpu = $2 }
	/^ *CURRENT: PID:/ { print cpu, $3 }' "$tmp/crash" | sort -n >"$tmp/c.active"
# a CPU caught switching names rq->curr on its Switching: line
awk '/^CPU: / { if (cpu != "") print cpu, pid; cpu = $2; pid = $4 }
	/^Switching: to PID / { pid = $4 }
	END { if (cpu != "") print cpu, pid }' "$tmp/cpus" | sort -n >"$tmp/active"
if [ -s "$tmp/c.active" ] && cmp -s "$tmp/c.active" "$tmp/active"; then
	pass "crash's runq has the same current task on each CPU"
else
	fail "crash's runq current tasks (CPU PID) differ:"
	diff "$tmp/active" "$tmp/c.active" | sed 's/^/  | /'
fi
grep -E '^PID: |^ *#[0-9]+ \[|^bt: ' "$tmp/crash" >"$tmp/c.bt"
if ! grep -q '^ *#[0-9]* \[' "$tmp/c.bt"; then
	why=$(grep -m1 '^bt: read of' "$tmp/c.bt")
	not_applicable "crash's bt -a unwinds no CPU of this dump (${why:-no frames})"
	finish
fi
# Per CPU that crash unwound: every frame crash found is one of ours, in
# crash's order (ours may hold more: crash's scan misses some, as
# nmi_panic.cold on an NMI panic; the frames we mark "? " count here, as
# crash prints such words without a mark; the function of the registers
# we head the block with is crash's frame #0, as stop_this_cpu on a CPU
# that panic() stopped).
bad=0 n=0
unclone='s/\.(isra|constprop|part|cold)(\.[0-9]+)*$//'
while read -r cpu _pid mode _frames all; do
	[ "$mode" = user ] && continue
	# crash names a GCC clone without its suffix (do_execveat_common for
	# do_execveat_common.isra.0): both sides are compared without it
	awk -v cpu="$cpu" '/^PID: / { on = ($6 == cpu) } on && /^ *#[0-9]* \[/ { print $3 }' \
		"$tmp/c.bt" | sed -E "$unclone" | uniq >"$tmp/c.bt.$cpu"	# crash names the frame that left for the IRQ stack on both sides
	[ -s "$tmp/c.bt.$cpu" ] || continue
	n=$((n + 1))
	tr ',' '\n' <<<"$all" | sed '/^$/d; s/+.*//' | sed -E "$unclone" >"$tmp/ours.$cpu"
	awk -v ours="$tmp/ours.$cpu" '
		BEGIN { i = no = 0; while ((getline l < ours) > 0) o[no++] = l }
		{ while (i < no && o[i] != $0) i++; if (i == no) { bad = 1; print "  missing: " $0 }; i++ }
		END { exit bad + 0 }' "$tmp/c.bt.$cpu" || { bad=$((bad + 1)); echo "  CPU $cpu: crash's frames are not all ours, in order"; }
done <"$tmp/blocks"
if [ "$n" -eq 0 ]; then
	not_applicable "crash's bt -a unwound no CPU in kernel mode"
elif [ "$bad" -eq 0 ]; then
	pass "$n CPUs: every frame of crash's bt -a is ours, in order"
else
	fail "$bad of $n CPUs' frames differ from crash's bt -a"
fi
finish

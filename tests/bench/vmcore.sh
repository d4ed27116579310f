#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The vmcore half of make bench: `kstack -a -H` inside crash on the
# `many` scenario (>= 10,000 threads), timed after crash has opened the dump,
# with crash's memory before and after; the same walk and unwind done by drgn
# (python3-drgn: for_each_task + stack_trace) on the same dump; and the
# standalone `kstack --vmcore`, with and without the vmlinux.  Targets:
# under 3 s, ahead of drgn, crash within 1.2x of the standalone, first run
# and again, and the same bytes, the dump alone no slower than with the
# vmlinux, and --waits (who blocks whom) within 1.3x of plain -a -H.
#
# drgn 0.0.22 cannot translate addresses in QEMU's plain ELF dumps, so the
# dump is taken with paging (-p) from a nokaslr guest: a scenario made here
# from many.sh with those two settings added.  crash reads that form too.
#
# usage: tests/bench/vmcore.sh [BUILD]   (KSTACK_BENCH_DRGN=0: without
# drgn's three minutes)
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
cache=${KSTACK_CACHE:-$top/cache}
dir=$cache/vmcores/many-drgn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$cache/bench"
scenario=$cache/bench/many-drgn.sh
{ cat vmcores/scenarios/many.sh; printf '#@ dump-paging: yes\n#@ append: nokaslr\n'; } >"$tmp/s.sh"
cmp -s "$tmp/s.sh" "$scenario" 2>/dev/null || cp "$tmp/s.sh" "$scenario"
vmcores/make-vmcore default "$scenario" "$dir" >&2

threads=$(grep -c '^PID:' "$dir/live/kstack-a.txt" || true)
echo "vmcore: $dir ($threads tasks in the guest's live capture)"

# crash: time the command alone with crash's own shell escapes around it;
# two sessions, the better of each run, since one sample on a shared
# machine says little
cat >"$tmp/cmds" <<CMDS
extend $top/$build/kstack.so
!grep -E '^VmRSS' /proc/\$PPID/status >$tmp/rss0
!date +%s.%N >$tmp/t0
kstack -a -H > $tmp/crash.out
!date +%s.%N >$tmp/t1
!grep -E '^Vm(RSS|HWM)' /proc/\$PPID/status >$tmp/rss1
kstack -a -H > $tmp/crash2.out
!date +%s.%N >$tmp/t2
quit
CMDS
first=
second=
for _ in 1 2; do
	rm -f "$tmp/t1"
	TZ=UTC timeout 900 crash -s "$dir/vmlinux" "$dir/vmcore" -i "$tmp/cmds" </dev/null >"$tmp/crash.log" 2>&1 || true
	if [ ! -s "$tmp/t1" ]; then
		echo "crash run failed:"; tail -20 "$tmp/crash.log"; exit 1
	fi
	f=$(awk -v a="$(cat "$tmp/t0")" -v b="$(cat "$tmp/t1")" 'BEGIN { printf "%.2f", b - a }')
	s=$(awk -v a="$(cat "$tmp/t1")" -v b="$(cat "$tmp/t2")" 'BEGIN { printf "%.2f", b - a }')
	first=$(awk -v a="${first:-$f}" -v b="$f" 'BEGIN { print (b < a ? b : a) }')
	second=$(awk -v a="${second:-$s}" -v b="$s" 'BEGIN { print (b < a ? b : a) }')
done
rss0=$(awk '{ print $2 }' "$tmp/rss0")
rss1=$(awk '/VmRSS/ { print $2 }' "$tmp/rss1")
printed=$(grep -c '^PID:' "$tmp/crash.out" || true)
echo "crash kstack -a -H: $first s first run, $second s again (best of 2 sessions); $printed tasks printed;" \
	"crash RSS $((rss0 / 1024)) -> $((rss1 / 1024)) MiB (+$(((rss1 - rss0) / 1024)) MiB)"

# drgn: the same walk and unwind, formatted as text
cat >"$tmp/walk_drgn.py" <<'PY'
import resource, sys, time
import drgn
from drgn.helpers.linux.pid import for_each_task
t0 = time.monotonic()
prog = drgn.Program()
prog.set_core_dump(sys.argv[1])
prog.load_debug_info([sys.argv[2]], default=False, main=True)
t1 = time.monotonic()
n = frames = failed = 0
for task in for_each_task(prog):
    n += 1
    try:
        trace = prog.stack_trace(task)
    except Exception:
        failed += 1
        continue
    for f in trace:
        frames += 1
        try:
            f.symbol().name	# what a stack listing needs per frame
        except LookupError:
            pass	# a user-space pc ends the kernel trace
t2 = time.monotonic()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(f"{t1 - t0:.2f} {t2 - t1:.2f} {n} {frames} {failed} {rss}")
PY
if [ "${KSTACK_BENCH_DRGN:-1}" = 0 ]; then
	echo "drgn: skipped (KSTACK_BENCH_DRGN=0)"
elif /usr/bin/python3 -c "import drgn" 2>/dev/null; then
	if out=$(timeout 900 /usr/bin/python3 "$tmp/walk_drgn.py" "$dir/vmcore" "$dir/vmlinux" 2>"$tmp/drgn.err"); then
		read -r dload dwalk dn dframes dfail drss <<<"$out"
		echo "drgn for_each_task + stack_trace: $dwalk s for $dn tasks ($dframes frames, $dfail failed) after a $dload s load; peak RSS $drss MiB"
		awk -v k="$first" -v d="$dwalk" 'BEGIN { printf "ratio drgn / kstack (first run): %.1fx\n", d / k }'
	else
		echo "drgn failed: $(tail -1 "$tmp/drgn.err")"
	fi
else
	echo "drgn: python3-drgn is not installed"
fi

# standalone, no crash at all: with the vmlinux, and with the dump alone
# (kallsyms from VMCOREINFO, BTF and ORC from memory); best of 3 each
standalone() {
	local best= e m
	for _ in 1 2 3; do
		/usr/bin/time -o "$tmp/kd" -f '%e %M' env TZ=UTC "$build/kstack" --vmcore "$dir/vmcore" \
			"$@" -a -H >"$tmp/kd.out" 2>"$tmp/kd.err" || true
		read -r e m <"$tmp/kd" || true
		best=$(awk -v a="${best:-$e}" -v b="$e" 'BEGIN { print (b < a ? b : a) }')
	done
	echo "$best $m $(grep -c '^PID:' "$tmp/kd.out" || true) $(md5sum <"$tmp/kd.out" | cut -c1-32)"
}
if [ -x "$build/kstack" ]; then
	read -r kde kdm kdn kdsum <<<"$(standalone --vmlinux "$dir/vmlinux")"
	# the runs below write kd.out again (--waits prints more): keep this one
	cp "$tmp/kd.out" "$tmp/kd-vmlinux.out"
	echo "kstack --vmcore --vmlinux -a -H: $kde s in all (open + symbols + walk), peak RSS $((kdm / 1024)) MiB, $kdn tasks"
	read -r kne knm knn knsum <<<"$(standalone)"
	same=differs
	[ "$knsum" = "$kdsum" ] && same="the same bytes"
	echo "kstack --vmcore -a -H (no vmlinux): $kne s in all, peak RSS $((knm / 1024)) MiB, $knn tasks, $same as with it"
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
	read -r kwe kwm kwn _ <<<"$(standalone --vmlinux "$dir/vmlinux" --waits)"
	echo "kstack --vmcore --vmlinux -a -H --waits: $kwe s in all, peak RSS $((kwm / 1024)) MiB, $kwn tasks"
	target "crash kstack -a -H on many, first run" "$first" '<' 3 s
	target "crash / standalone -a -H on many, first run" "$(ratio "$first" "$kde")" '<=' 1.2
	target "crash / standalone -a -H on many, again" "$(ratio "$second" "$kde")" '<=' 1.2
	target "--vmcore without / with the vmlinux on many" "$(ratio "$kne" "$kde")" '<' 1
	target "--waits / plain -a -H with the vmlinux on many" "$(ratio "$kwe" "$kde")" '<=' 1.3
	target "crash and --vmcore print the same bytes (1: yes)" \
		"$(cmp -s "$tmp/crash.out" "$tmp/kd-vmlinux.out" && echo 1 || echo 0)" = 1
	# an if, not [ ] &&: without drgn the script must still end with 0
	if [ -n "${dwalk:-}" ]; then
		awk -v d="$dwalk" -v n="$kne" \
			'BEGIN { printf "ratio drgn walk / kstack --vmcore without vmlinux (all of it): %.0fx\n", d / n }'
	fi
fi

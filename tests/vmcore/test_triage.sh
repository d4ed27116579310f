#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack triage --vmcore DUMP and crash's kstack triage, against what
# the guest said of itself:
#   - every section is there, --json is one document with every key,
#     valid against docs/triage.schema.json (python3-jsonschema),
#     and nothing is said on stderr;
#   - the machine: the release is the manifest's and VMCOREINFO's
#     OSRELEASE, the node name the live capture's host, the command line
#     the one the kernel logged at boot, the CPUs present QEMU's -smp,
#     the uptime the console's time of the panic (within a second);
#   - a guest that died (vmcores/scenarios/oops.sh, hung.sh, nmi.sh...):
#     the panic's CPU, task and message and the Tainted: text are the
#     console's (D set aside where an oops set it after its header, as
#     test_panic.sh does), and every line of the report before the panic
#     is a line the console printed after the trigger; a dump that did
#     not die says it is of a running system;
#   - the memory: MemTotal within QEMU's -m, the lines adding up; where
#     the console has the guest's /proc/meminfo (scenario-lib.sh's
#     ksdie_truth), its lines (MemTotal, SwapTotal, huge pages exactly,
#     the rest within a tolerance named below); the last OOM victim the
#     console's last "Killed process" or "oom-kill:" line; the same
#     section with and without the vmlinux where the dump alone reads it;
#   - the load average within 0.1 of the guest's /proc/loadavg, and the
#     modules each taint letter names those /proc/modules flags with it
#     (both printed by the trigger's first lines, as the meminfo);
#   - the tasks in D: as many as -D -c counts, and the "== waits"
#     section the same bytes as -D -c --waits prints;
#   - crash's kstack triage, text and --json: the same bytes.
# KSTACK_VMCORE_DIR picks the dump (default cache/vmcores/oops).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/oops}
so=${KSTACK_SO:-$top/build/kstack.so}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/triage_schema.sh
. "$top/tests/lib/triage_schema.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -s "$dir/vmcore" ]; then
	skip "no vmcore in $dir (make vmcore-oops): kstack triage not tested"
	finish
fi
if "$kstack" --vmcore /dev/null -a 2>&1 | grep -q 'built without libkdumpfile'; then
	skip "this kstack has no --vmcore (built without libkdumpfile)"
	finish
fi
release=$(sed -n 's/^release: //p' "$dir/manifest" 2>/dev/null)
console=$dir/console.log

# The dump alone; where it lacks the data symbols (kallsyms of text
# symbols only), with its vmlinux.
src=(--vmcore "$dir/vmcore")
"$kstack" triage "${src[@]}" >"$tmp/triage.txt" 2>"$tmp/triage.err"
rc=$?
# (the triage says in its sections what it could not read)
if grep -q 'panic_cpu cannot be read' "$tmp/triage.txt" && [ -e "$dir/vmlinux" ]; then
	not_applicable "the dump alone: $(grep -m 1 'not all of it could be read' "$tmp/triage.txt"); checked with --vmlinux"
	src+=(--vmlinux "$dir/vmlinux")
	"$kstack" triage "${src[@]}" >"$tmp/triage.txt" 2>"$tmp/triage.err"
	rc=$?
fi
"$kstack" triage "${src[@]}" --json >"$tmp/triage.json" 2>/dev/null
if [ "$rc" -eq 0 ] && ! grep -q '^kstack: ' "$tmp/triage.err"; then
	pass "kstack triage ${src[*]} exits 0 and says nothing"
else
	fail "kstack triage exited $rc: $(grep -m 2 '^kstack: ' "$tmp/triage.err")"
fi
# "Key: value" of the machine section
field() { sed -n "/^# The machine/,/^\$/s/^$1: *//p" "$tmp/triage.txt"; }

sections=$(grep -E '^# (The machine|What killed it|Taint|Memory|Who is stuck|Every CPU|Who touched the kernel|The log)$' "$tmp/triage.txt" |
	tr '\n' ',')
if [ "$sections" = "# The machine,# What killed it,# Taint,# Memory,# Who is stuck,# Every CPU,# Who touched the kernel,# The log," ]; then
	pass "the text has its 8 sections, in order"
else
	fail "the text's sections: $sections"
fi
count_checks < <(python3 - "$tmp/triage.json" "$top/docs/triage-json.md" <<'PY'
import json, re, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    print('FAIL: --json is not one JSON document: %s' % e)
    sys.exit()
want = ['schema', 'version', 'machine', 'panic', 'report', 'panic_cpu',
        'memory', 'stuck', 'cpus', 'kprobes', 'ftrace', 'log']
missing = [k for k in want if k not in d]
print(('FAIL: --json lacks %s' % missing) if missing else
      'PASS: --json is one document with its %d keys' % len(want))
doc = set(re.findall(r'`([a-z_]+)`', open(sys.argv[2]).read()))
keys = set(d) | set(d.get('machine') or {}) | set(d.get('log') or {}) | \
    set(d.get('memory') or {})
undoc = sorted(keys - doc)
print(('FAIL: keys not in docs/triage-json.md: %s' % undoc) if undoc else
      'PASS: its %d keys of its own are in docs/triage-json.md' % len(keys))
PY
)
check_triage_schema "$tmp/triage.json"

# --- the machine ------------------------------------------------------------
osrelease=$(head -c 8388608 "$dir/vmcore" | tr -c '[:print:]' '\n' |
	sed -n 's/^OSRELEASE=//p' | head -n 1)
got=$(field Release)
if [ -n "$release" ] && [ "$got" = "$release" ] && { [ -z "$osrelease" ] || [ "$got" = "$osrelease" ]; }; then
	pass "Release: $got, the manifest's and VMCOREINFO's (OSRELEASE=${osrelease:-none})"
else
	fail "Release: '$got', the manifest says '$release', VMCOREINFO '$osrelease'"
fi
host=$(head -n 1 "$dir/live/kstack-a.txt" 2>/dev/null | sed -n 's/^zzz <.* - //p')
if [ -n "$host" ]; then
	got=$(field 'Node name')
	[ "$got" = "$host" ] && pass "Node name: $got, the live capture's" ||
		fail "Node name: '$got', the live capture says '$host'"
else
	skip "no live capture in $dir/live: the node name is not compared"
fi
boot_cmdline=$(grep -a -m 1 -E '\] (Kernel )?[Cc]ommand line: ' "$console" 2>/dev/null |
	sed -E 's/.*\] (Kernel )?[Cc]ommand line: //' | tr -d '\r')
if [ -n "$boot_cmdline" ]; then
	got=$(field 'Command line')
	[ "$got" = "$boot_cmdline" ] && pass "the command line is the one the kernel logged at boot" ||
		fail "Command line: '$got', the boot log says '$boot_cmdline'"
fi
smp=$(sed -n 's/.* -smp \([0-9]*\).*/\1/p' "$dir/manifest" 2>/dev/null)
if [ -n "$smp" ]; then
	got=$(field CPUs | sed 's/ present.*//')
	[ "$got" = "$smp" ] && pass "CPUs: $got present, QEMU's -smp $smp" ||
		fail "CPUs: '$(field CPUs)', QEMU ran -smp $smp"
fi

# --- what killed it -----------------------------------------------------------
after=$(sed -n '/^DIE-TRIGGER/,$p' "$console" 2>/dev/null | tr -d '\r')
# the panic's own line, not its "---[ end Kernel panic ... ]---"
panic=$(grep -a '^\[[^]]*\] Kernel panic - not syncing' <<<"$after" | tail -n 1 |
	sed 's/^\[[^]]*\] //')
if [ -n "$panic" ]; then
	got=$(sed -n 's/^Message: //p' "$tmp/triage.txt")
	[ "$got" = "$panic" ] && pass "Message: the console's '$panic'" ||
		fail "Message: '$got', the console says '$panic'"
	header=$(grep -a -m 1 -E 'CPU: [0-9]+ (UID: [0-9]+ )?PID: [0-9]+ Comm: ' <<<"$after" |
		sed 's/^\[[^]]*\] //')
	cpu=$(sed -E 's/.*CPU: ([0-9]+) .*/\1/' <<<"$header")
	pid=$(sed -E 's/.* PID: ([0-9]+) .*/\1/' <<<"$header")
	comm=$(sed -E 's/.* Comm: (.*) (Not tainted|Tainted: ).*/\1/' <<<"$header")
	got=$(grep -m 1 '^Panic: ' "$tmp/triage.txt")
	[ "$got" = "Panic: CPU $cpu, PID $pid ($comm)" ] &&
		pass "the panicking CPU and task are the console's: $got" ||
		fail "'$got', the console says CPU $cpu, PID $pid ($comm)"
	taint=$(sed -E 's/.* Comm: .* (Not tainted|Tainted: .*)$/\1/' <<<"$header")
	taint=${taint% "$release"*}
	got=$(sed -n '/^# Taint/,/^$/p' "$tmp/triage.txt" | grep -m 1 -E '^(Tainted: |Not tainted)')
	if grep -aqE ': .*\[#[0-9]+\]' <<<"$after"; then
		got=${got//D/ }
		[ "$got" != "Tainted:                    " ] || got="Not tainted"
	fi
	[ "$got" = "$taint" ] && pass "the taint is the console's: '$taint'" ||
		fail "the taint '$got', the console says '$taint'"
	got=$(field Uptime | sed -E 's/.*\(([0-9.]+) s\)/\1/')
	at=$(grep -a '^\[[^]]*\] Kernel panic - not syncing' <<<"$after" | tail -n 1 |
		sed -E 's/^\[ *([0-9.]+)\].*/\1/')
	if awk -v u="$got" -v p="$at" 'BEGIN { d = u - p; exit !(d > -1 && d < 1) }'; then
		pass "Uptime $got s: within a second of the console's panic at $at s"
	else
		fail "Uptime '$got' s, the console panicked at $at s"
	fi
	report=$(sed -n '/^The log.s report before the panic:/,/^The panicking CPU:/p' "$tmp/triage.txt" |
		sed '1d;$d' | sed 's/^\[[^]]*\] //')
	if [ -z "$report" ]; then
		not_applicable "no oops, BUG, hung task, lockup, stall or OOM report before this panic"
	else
		bad=0
		while IFS= read -r line; do
			grep -aqF -- "$line" <<<"$after" || { bad=1; fail "report line not on the console: $line"; }
		done <<<"$report"
		[ "$bad" = 0 ] && pass "the $(wc -l <<<"$report") lines of the report are the console's, after the trigger"
	fi
else
	got=$(field 'Dump of')
	[ "$got" = "a running system (no CPU panicked)" ] &&
		pass "a dump without a panic: Dump of: $got" ||
		fail "a dump without a panic says: Dump of: '$got'"
fi

# --- memory -------------------------------------------------------------------
# "Key: N" of the memory section's /proc/meminfo lines
mem() { sed -n "/^# Memory/,/^\$/s/^$1: *\([0-9][0-9]*\).*/\1/p" "$tmp/triage.txt"; }
sed -n '/^# Memory/,/^$/p' "$tmp/triage.txt" >"$tmp/mem.txt"
if grep -q '^MemTotal: ' "$tmp/mem.txt"; then
	total=$(mem MemTotal) free=$(mem MemFree) slab=$(mem Slab)
	srec=$(mem SReclaimable) sunrec=$(mem SUnreclaim)
	ram=$(sed -n 's/.* -m \([0-9]*\) .*/\1/p' "$dir/manifest" 2>/dev/null)
	if [ -n "$ram" ] && [ -n "$total" ] && [ "$total" -le $((ram * 1024)) ] &&
		[ "$total" -ge $((ram * 1024 * 3 / 4)) ]; then
		pass "MemTotal $total kB: within QEMU's -m $ram (at least 3/4 of it)"
	elif [ -n "$ram" ]; then
		fail "MemTotal '$total' kB, QEMU ran -m $ram"
	fi
	if [ -n "$free" ] && [ -n "$slab" ] && [ -n "$srec" ] && [ -n "$sunrec" ] &&
		[ "$free" -le "$total" ] && [ "$slab" = $((srec + sunrec)) ]; then
		pass "MemFree is within MemTotal, Slab is SReclaimable + SUnreclaim"
	else
		fail "the memory's lines do not add up: $(tr '\n' ' ' <"$tmp/mem.txt")"
	fi
else
	fail "the memory section has no meminfo lines: $(sed -n 2p "$tmp/mem.txt")"
fi
# The guest's /proc/meminfo, printed by the trigger's first lines
# (scenario-lib.sh's ksdie_truth), after the capture.  MemTotal, SwapTotal
# and the huge pages do not change after boot.  Between the print and the
# panic the trigger's shell runs its last command and the kernel dies
# (the oops or hung-task report, a hung task's 2 s wait, the panic); and
# both /proc/meminfo and the triage read the global counters, which leave
# out up to a few hundred kB of per-CPU differences not yet folded.  So
# the others are compared within 4096 kB.
truth=$(sed -n 's/^ksdie-scenario: meminfo //p' "$console" 2>/dev/null | tr -d '\r')
if [ -z "$truth" ]; then
	not_applicable "console.log has no 'ksdie-scenario: meminfo' lines (a dump older than ksdie_truth, or one that did not die): the memory is not compared with the guest's /proc/meminfo"
else
	bad=0 n=0
	for key in MemTotal SwapTotal HugePages_Total HugePages_Free Hugepagesize MemFree MemAvailable \
		Buffers Cached SwapFree AnonPages Shmem Slab SReclaimable SUnreclaim; do
		want=$(sed -n "s/^$key: *\([0-9][0-9]*\).*/\1/p" <<<"$truth" | head -n 1)
		[ -n "$want" ] || continue
		got=$(mem "$key")
		tol=4096
		case $key in MemTotal | SwapTotal | HugePages_Total | HugePages_Free | Hugepagesize) tol=0 ;; esac
		n=$((n + 1))
		if [ -z "$got" ] || [ $((got - want)) -gt "$tol" ] || [ $((want - got)) -gt "$tol" ]; then
			bad=1
			fail "$key: '${got:-unknown}', the guest's /proc/meminfo said $want (within $tol)"
		fi
	done
	[ "$bad" = 0 ] && pass "the $n meminfo lines are the guest's: MemTotal, SwapTotal and the huge pages exactly, the rest within 4096 kB"
fi
# The log's last OOM victim: the console's last "Killed process" line or
# "oom-kill:" summary
oom=$(grep -a -E '(: Killed process [0-9]+ |^\[[^]]*\] oom-kill:)' "$console" 2>/dev/null |
	tail -n 1 | tr -d '\r' |
	sed 's/^\[[^]]*\] //')
got=$(sed -n '/^The last OOM victim, from the log:/{n;p}' "$tmp/mem.txt" | sed 's/^\[[^]]*\] //')
if [ -z "$oom" ]; then
	grep -q '^The log has no OOM kill\.$' "$tmp/mem.txt" &&
		pass "no OOM kill on the console, none in the triage" ||
		fail "no OOM kill on the console, the triage says: $(grep -m 1 'OOM' "$tmp/mem.txt")"
else
	[ "$got" = "$oom" ] && pass "the last OOM victim is the console's: $oom" ||
		fail "the last OOM victim '$got', the console's '$oom'"
fi
# the guest's CPUs, as the triage's machine section says them
nproc_guest() { sed -n 's/^CPUs: *\([0-9]*\) present.*/\1/p' "$tmp/triage.txt" | head -n 1; }
# /proc/loadavg, printed by the trigger's first lines: avenrun moves once
# per LOAD_FREQ (5 s).  The 5- and 15-minute figures within 0.1; the
# 1-minute one moves by up to 0.08 a runnable task each 5 s, and the NMI
# scenario's trigger spins on a CPU until the host's NMI comes (72-nmi
# read 0.24 after 0.00): within 0.1 more per CPU.
truth=$(sed -n 's/^ksdie-scenario: loadavg //p' "$console" 2>/dev/null | tr -d '\r' | cut -d' ' -f1-3)
got=$(sed -n 's/^Load average: //p' "$tmp/triage.txt")
if [ -z "$truth" ]; then
	not_applicable "console.log has no 'ksdie-scenario: loadavg' line: the load is not compared with the guest's /proc/loadavg"
elif awk -v a="$truth" -v b="$got" -v ncpu="$(nproc_guest)" 'BEGIN {
	n = split(a, x, " "); if (split(b, y, " ") != 3 || n != 3) exit 1
	for (i = 1; i <= 3; i++) {
		tol = i == 1 ? 0.1 + 0.1 * ncpu : 0.1
		if (x[i] - y[i] > tol || y[i] - x[i] > tol) exit 1
	} }'; then
	pass "the load average is the guest's: $got (/proc/loadavg $truth)"
else
	fail "the load average '$got', the guest's /proc/loadavg '$truth'"
fi
# /proc/modules: the modules whose taint flags it shows are those the
# triage names for O, E, P, F, C and K, letter by letter
truth=$(tr -d '\r' <"$console" 2>/dev/null |
	sed -n 's/^ksdie-scenario: modules \([^ ]*\) .*(\([A-Z]*\))$/\1 \2/p')
if [ -z "$(grep -c '^ksdie-scenario: modules ' "$console" 2>/dev/null | grep -v '^0$')" ]; then
	not_applicable "console.log has no 'ksdie-scenario: modules' lines: the modules are not compared with the guest's /proc/modules"
else
	bad=0
	for letter in O E P F C K; do
		want=$(printf '%s\n' "$truth" | awk -v l="$letter" 'index($2, l) { print $1 }' | sort | tr '\n' ' ')
		have=$(sed -n "s/^$letter, [^:]*: //p" "$tmp/triage.txt" | tr ', ' '\n\n' | sed '/^$/d' | sort | tr '\n' ' ')
		[ "$want" = "$have" ] || { bad=$((bad + 1)); echo "  $letter: /proc/modules '$want', the triage '$have'"; }
	done
	[ "$bad" = 0 ] && pass "the modules /proc/modules flags (O E P F C K) are the triage's: $(printf '%s' "$truth" | tr '\n' ';')" ||
		fail "$bad taint letters name other modules than /proc/modules"
fi
# The same numbers from the dump alone as with its vmlinux, where the
# dump alone has its data symbols.
if [ "${#src[@]}" = 2 ] && [ -e "$dir/vmlinux" ]; then
	"$kstack" triage "${src[@]}" --vmlinux "$dir/vmlinux" 2>/dev/null |
		sed -n '/^# Memory/,/^$/p' >"$tmp/mem-vmlinux.txt"
	cmp -s "$tmp/mem.txt" "$tmp/mem-vmlinux.txt" &&
		pass "the memory section is the same bytes with --vmlinux" ||
		fail "the memory section differs with --vmlinux: $(diff "$tmp/mem.txt" "$tmp/mem-vmlinux.txt" | head -3 | tr '\n' ' ')"
else
	not_applicable "the dump alone lacks its data symbols: the memory section read with --vmlinux only"
fi

# --- who is stuck -------------------------------------------------------------
"$kstack" "${src[@]}" -D -c --waits >"$tmp/dc.txt" 2>/dev/null
want=$(sed -n '2s/^\([0-9]*\) task.*/\1/p' "$tmp/dc.txt")
got=$(sed -n 's/^\([0-9]*\) tasks\{0,1\} in D, .*/\1/p' "$tmp/triage.txt")
[ -n "$got" ] || grep -q '^No task is in D' "$tmp/triage.txt" && got=${got:-0}
if [ "$got" = "${want:-0}" ]; then
	pass "$got task(s) in D, as -D -c counts them"
else
	fail "'$got' tasks in D, -D -c counts '$want'"
fi
if [ "${want:-0}" != 0 ]; then
	sed -n '/^== waits/,$p' "$tmp/dc.txt" >"$tmp/dc.waits"
	sed -n '/^== waits/,/^$/p' "$tmp/triage.txt" | sed '$d' >"$tmp/tr.waits"
	if cmp -s "$tmp/dc.waits" "$tmp/tr.waits"; then
		pass "the waits are -D -c --waits' bytes ($(wc -l <"$tmp/tr.waits") lines)"
	else
		fail "the waits differ from -D -c --waits':"
		diff "$tmp/dc.waits" "$tmp/tr.waits" | head -5
	fi
fi

# --- crash --------------------------------------------------------------------
if ! command -v "$CRASH" >/dev/null || [ ! -s "$so" ] || [ ! -e "$dir/vmlinux" ]; then
	skip "no crash, kstack.so or $dir/vmlinux: kstack triage in crash not tested"
	finish
fi
cat >"$tmp/cmds" <<CMDS
extend $so
kstack triage >$tmp/crash.txt
kstack triage --json >$tmp/crash.json
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
	what="kstack triage"
	[ "$f" = txt ] || what="$what --json"
	if [ -s "$tmp/crash.$f" ] && cmp -s "$tmp/crash.$f" "$tmp/triage.$f"; then
		pass "crash's $what: the same bytes as kstack --vmcore's"
	else
		fail "crash's $what differs from kstack --vmcore's:"
		diff "$tmp/crash.$f" "$tmp/triage.$f" | head -5
	fi
done
finish

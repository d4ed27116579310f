#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --vmcore (libkdumpfile, no crash) against the live capture made in
# the same guest just before the dump: every task that did not run between
# the two must print the same task line (state, start time, command) and
# the same stack; -K and -F must print
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
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

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

# Every task that did not run between the capture and the dump, against
# the live capture (tests/lib/compare_capture.py says how it knows).
TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -a -H --json \
	>"$tmp/dump.json" 2>/dev/null
count_checks < <(python3 "$top/tests/lib/compare_capture.py" "$dir" \
	"$tmp/dump.txt" "$tmp/dump.json" "kstack --vmcore")

# The crash extension over the same dump runs the same walker: its text
# must be the same, byte for byte (only the targets differ), for the
# default selection and for every format.  One crash session for all.
# (A long option first makes crash print the usage: options come after -a.)
# (crash reads "|" as a pipe: --comm's regex here has none)
cross=("-a -H" "-D" "-a -H -c" "-a -H --json" "-a --folded" "-p 1,2 -H"
	"-a -H -c --all" "-D --comm ^s[hl]")
so=${KSTACK_SO:-$top/build/kstack.so}
# crash's command writes its messages into the text; ours go to stderr.
crash_text() { grep -v '^kstack: ' "$1" || true; }
if command -v "$CRASH" >/dev/null && [ -s "$so" ]; then
	{
		echo "extend $so"
		for i in "${!cross[@]}"; do
			echo "kstack ${cross[$i]} >$tmp/crash.$i"
		done
		echo "kstack --version >$tmp/crash.version"
		echo "help kstack >$tmp/crash.help"
		echo quit
	} >"$tmp/cmds"
	KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" \
		"$tmp/crash.out"
	if crash_refused "$tmp/crash.out" "$dir"; then
		:
	elif sanitizer_report "$tmp/crash.out"; then
		fail "a sanitizer report in crash with $so"
	elif [ ! -s "$tmp/crash.0" ]; then
		fail "crash's kstack -a -H printed nothing:"
		head -n 20 "$tmp/crash.out" | sed 's/^/  | /'
	else
		for i in "${!cross[@]}"; do
			# shellcheck disable=SC2086 # the options are words
			TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" \
				${cross[$i]} >"$tmp/mine.$i" 2>/dev/null
			if grep -q 'is for the live tool only' "$tmp/crash.$i"; then
				not_applicable "kstack ${cross[$i]} in crash: $(head -n 1 "$tmp/crash.$i")"
			elif crash_text "$tmp/crash.$i" | cmp -s - "$tmp/mine.$i"; then
				pass "kstack ${cross[$i]}: the same text as in crash" \
					"($(wc -l <"$tmp/mine.$i") lines)"
			else
				fail "kstack ${cross[$i]}: the text differs from crash's:"
				crash_text "$tmp/crash.$i" | diff - "$tmp/mine.$i" |
					head -n 20 | sed 's/^/  | /'
			fi
		done
		# help kstack: the option table's lines, the new ones too
		if grep -q '^    --comm REGEX  ' "$tmp/crash.help" &&
			grep -q '^    --all  ' "$tmp/crash.help" &&
			! grep -q -- '--proc-root' "$tmp/crash.help"; then
			pass "help kstack in crash: the table's options (--comm, --all), no live-only one"
		else
			fail "help kstack in crash:"; head -n 30 "$tmp/crash.help" | sed 's/^/  | /'
		fi
		if [ "$(cat "$tmp/crash.version")" = "kstack $(cat "$top/VERSION")" ]; then
			pass "kstack --version in crash names this build"
		else
			fail "kstack --version in crash: $(head -c 200 "$tmp/crash.version")"
		fi
	fi
else
	echo "note: no crash or no kstack.so; not compared with the crash extension"
fi

# The dump alone.  A kernel built without CONFIG_KALLSYMS_ALL (Debian 12's
# arm64 6.1) names text only in its kallsyms: init_task and the other
# variables are found in the dump (shared/kernel/image/data_finder.c), and
# -v says so.
alone=("--vmcore" "$dir/vmcore")

# --comm selects by the comm the JSON shows, OR-ed with a state; -c --all
# names every task of -a once.
TZ=UTC "$kstack" "${alone[@]}" -a --json >"$tmp/a.json" 2>/dev/null
TZ=UTC "$kstack" "${alone[@]}" -D --comm '^(sh|sleep)$' >"$tmp/comm.txt" 2>/dev/null
TZ=UTC "$kstack" "${alone[@]}" -D --json >"$tmp/D.json" 2>/dev/null
want=$(python3 - "$tmp/a.json" "$tmp/D.json" <<'PY'
import json, re, sys
pids = set()
for f, keep in ((sys.argv[1], lambda t: re.search(r"^(sh|sleep)$", t["comm"])),
                (sys.argv[2], lambda t: True)):
    line = open(f).readline()
    if not line:	# no task matched (a dump without D tasks): exit 1, no sample
        continue
    s = json.loads(line)
    pids |= {t["pid"] for g in s["groups"] for t in g["tasks"] if keep(t)}
print(" ".join(str(p) for p in sorted(pids)))
PY
)
got=$(sed -n 's/^PID: *\([0-9]*\) .*/\1/p' "$tmp/comm.txt" | sort -n | tr '\n' ' ' | sed 's/ $//')
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass "kstack --vmcore -D --comm '^(sh|sleep)\$': the D tasks and every sh and sleep ($(wc -w <<<"$got") tasks)"
else
	fail "kstack --vmcore -D --comm: PIDs '$got', want '$want'"
fi
TZ=UTC "$kstack" "${alone[@]}" -a -c --all >"$tmp/all.txt" 2>/dev/null
got=$(sed -n 's/^[0-9]* tasks\{0,1\}   States:.*   all: //p' "$tmp/all.txt" |
	grep -oE '(^|, )[0-9]+ \(' | tr -dc '0-9\n' | sort -n | tr '\n' ' ' | sed 's/ $//')
want=$(python3 -c 'import json,sys; s=json.loads(open(sys.argv[1]).readline()); print(" ".join(str(p) for p in sorted(t["pid"] for g in s["groups"] for t in g["tasks"])))' "$tmp/a.json")
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass "kstack --vmcore -a -c --all: each of the $(wc -w <<<"$want") tasks named once"
else
	fail "kstack --vmcore -a -c --all: '$got', want '$want'"
fi

# The dump alone (kallsyms from VMCOREINFO, BTF and ORC from memory) must
# print the same bytes as with the debug vmlinux, for every view.
all_views=("-a -H" "-D" "-a -H -c" "-a -H --json" "-a --folded" "-p 1,2 -H" "-K" "-F" "-K -v" "-F -v")
for opts in "${all_views[@]}"; do
	# shellcheck disable=SC2086 # the options are words
	TZ=UTC "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" $opts \
		>"$tmp/with.txt" 2>"$tmp/with.err"
	rc_with=$?
	# shellcheck disable=SC2086
	TZ=UTC "$kstack" --vmcore "$dir/vmcore" $opts >"$tmp/alone.txt" 2>"$tmp/alone.err"
	rc_alone=$?
	if [ "$rc_with" -ne "$rc_alone" ]; then
		fail "kstack --vmcore $opts: exit $rc_alone without --vmlinux, $rc_with with it:" \
			"$(head -c 300 "$tmp/alone.err")"
	elif cmp -s "$tmp/with.txt" "$tmp/alone.txt" &&
		{ [ -s "$tmp/alone.txt" ] || cmp -s "$tmp/with.err" "$tmp/alone.err"; }; then
		pass "kstack --vmcore $opts without --vmlinux: the same bytes as with it" \
			"($(wc -l <"$tmp/alone.txt") lines, exit $rc_alone)"
	else
		fail "kstack --vmcore $opts without --vmlinux differs from the run with it:"
		diff "$tmp/with.txt" "$tmp/alone.txt" | head -n 10 | sed 's/^/  | /'
	fi
done
TZ=UTC "$kstack" --vmcore "$dir/vmcore" -p 1 -v >/dev/null 2>"$tmp/v.err"
# (before 6.0 VMCOREINFO lists no tables: they are found by their shape;
# a kallsyms of text only says "text only: data found in the dump")
if grep -q 'symbols (kallsyms in memory[^)]*), BTF from the kernel'"'"'s memory' "$tmp/v.err"; then
	pass "-v says the symbols and types came from the dump itself"
else
	fail "-v does not say where the symbols and types came from"
fi

# --json names the dumped kernel (init_uts_ns.name.release) and this build;
# -v says the same on stderr.
release=$(sed -n 's/^release: //p' "$dir/manifest" 2>/dev/null)
version=$(cat "$top/VERSION")
"$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" -p 1 --json -v \
	>"$tmp/json1.txt" 2>"$tmp/json1.err"
if [ -z "$release" ]; then
	echo "note: no release in $dir/manifest; --json's kernel not checked"
elif grep -q "^{\"schema\":1,\"version\":\"$version\",\"time\":[0-9]*,\"host\":\"[^\"]*\",\"kernel\":\"$release\"," "$tmp/json1.txt"; then
	pass "--json: schema 1, version $version, kernel $release"
else
	fail "--json header: $(head -c 200 "$tmp/json1.txt")"
fi
if [ -n "$release" ] && grep -q "^kstack: kstack $version, kernel $release: [0-9]* tasks on the lists" "$tmp/json1.err"; then
	pass "-v names the version and the dumped kernel"
elif [ -n "$release" ]; then
	fail "-v: no version line in: $(head -c 300 "$tmp/json1.err")"
fi

# -K / -F: the kernel-format lines (before "== summary") must be the
# guest's own kprobes/list and enabled_functions.
hooks() {
	local opt=$1 want=$2 name=$3
	[ -s "$want" ] || { echo "note: no $(basename "$want") in the capture; $opt not checked"; return; }
	# shellcheck disable=SC2086 # the options are words
	"$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" $opt \
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
# 6.4+: every function any ftrace user ever patched, a gone hook included
hooks "-F --touched" "$dir/live/touched_functions.txt" "touched_functions"
if [ -s "$dir/live/touched_functions.txt" ] && [ "$(sed -n 's/^scenario: //p' "$dir/manifest")" = hooks ]; then
	if grep -q '^vfs_statx (0) ' "$dir/live/touched_functions.txt"; then
		pass "touched_functions keeps the hook that has gone (vfs_statx (0))"
	else
		fail "the guest's touched_functions does not list the gone vfs_statx hook"
	fi
fi

# The guest's live -K -v and -F -v read the running kernel's memory
# (/proc/kcore, its kallsyms and BTF): the same view as --vmcore's of the
# dump, but for the counters that move between the two (nmissed).
for v in K F; do
	want=$dir/live/kstack-${v}v.txt
	if [ ! -s "$want" ]; then
		echo "note: no live/kstack-${v}v.txt (the guest's kstack -$v -v failed or is older)"
		continue
	fi
	"$kstack" --vmcore "$dir/vmcore" "-$v" -v >"$tmp/${v}v.txt" 2>/dev/null
	if cmp -s <(sed 's/nmissed [0-9]*/nmissed N/' "$want") \
		<(sed 's/nmissed [0-9]*/nmissed N/' "$tmp/${v}v.txt"); then
		pass "the guest's live -$v -v (from /proc/kcore) equals --vmcore -$v -v" \
			"($(wc -l <"$want") lines)"
	else
		fail "the guest's live -$v -v differs from --vmcore -$v -v:"
		diff "$want" "$tmp/${v}v.txt" | head -n 10 | sed 's/^/  | /'
	fi
done

# Refusals: a file that is not a dump, and a vmlinux that is not this
# dump's (an ELF whose linux_banner is not where the dump has it).
printf 'not a dump\n' >"$tmp/notdump"
"$kstack" --vmcore "$tmp/notdump" --vmlinux "$dir/vmlinux" -a >/dev/null 2>"$tmp/err1.txt"
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'is not a kernel dump: the formats read are' "$tmp/err1.txt"; then
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
	# #40 item 8: refused, as the user named it, but told that the
	# dump reads without it
	if [ "$rc" -eq 4 ] && grep -q 'does not match' "$tmp/err2.txt" &&
		grep -q '; or drop --vmlinux: this dump reads without it$' "$tmp/err2.txt"; then
		pass "a vmlinux of another kernel is refused (exit $rc), naming the remedy"
	else
		fail "wrong vmlinux: exit $rc, stderr: $(head -c 600 "$tmp/err2.txt")"
	fi
else
	echo "note: no gcc to build a fake vmlinux; mismatch check not run"
fi
# a vmlinuz (compressed, not ELF) given as --vmlinux
printf 'MZ\0\0 a compressed kernel image' >"$tmp/vmlinuz"
"$kstack" --vmcore "$dir/vmcore" --vmlinux "$tmp/vmlinuz" -a >/dev/null 2>"$tmp/err3.txt"
rc=$?
if [ "$rc" -eq 4 ] && grep -q "cannot read symbols from $tmp/vmlinuz: not an ELF64 file (the uncompressed debug vmlinux is needed, not vmlinuz); or drop --vmlinux: this dump reads without it\$" "$tmp/err3.txt"; then
	pass "a vmlinuz as --vmlinux is refused (exit $rc), naming the remedy"
else
	fail "vmlinuz as --vmlinux: exit $rc, stderr: $(head -c 600 "$tmp/err3.txt")"
fi

finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The vmcore pipeline itself: a vmcore folder made by vmcores/make-vmcore must
# open in crash with the kernel release its manifest names, and its live
# capture must be complete, because every other vmcore test compares against
# it. KSTACK_VMCORE_DIR picks the folder (check-more points it at another
# flavour); without it the basic vmcore is made or reused like `make vmcore`.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ -n "${KSTACK_VMCORE_DIR:-}" ]; then
	dir=$KSTACK_VMCORE_DIR
else
	dir=$top/cache/vmcores/basic
	# As `make vmcore`, except that a static live tool that fails to build
	# only costs the kstack-a.txt check, not the vmcore.
	make -s -C "$top" static >/dev/null 2>&1 ||
		echo "note: make static failed; the vmcore is made without the live tool"
	if "$top/vmcores/make-vmcore" default basic "$dir"; then
		pass "make-vmcore default basic $dir"
	else
		fail "make-vmcore default basic $dir"
		finish
	fi
fi

# A disk without room for the dump (a 32 MiB tmpfs in a mount namespace of
# its own): make-vmcore says so before it boots the guest, and leaves no
# dump behind.  The kernel is cached by now, so this takes seconds.
if [ -z "${KSTACK_VMCORE_DIR:-}" ]; then
	small=$(mktemp -d)
	if ! unshare -m true 2>/dev/null; then
		not_applicable "no mount namespace (unshare -m needs root): a full disk not tried"
	else
		said=$(unshare -m sh -c 'mount -t tmpfs -o size=32m kstack-small "$1" &&
			"$2" default basic "$1/out" 2>&1; echo "exit $?";
			ls -A "$1/out" 2>/dev/null' sh "$small" "$top/vmcores/make-vmcore")
		if grep -q "^make-vmcore: error: $small/out: [0-9]* MiB free, and the dump of this [0-9]* MiB guest needs about [0-9]* MiB\$" <<<"$said" &&
		   grep -qx "exit 1" <<<"$said" && ! grep -q "booting\|^vmcore" <<<"$said"; then
			pass "a disk without room: make-vmcore refuses before booting, no dump left"
		else
			fail "a disk without room: make-vmcore said:" "$(tail -n 5 <<<"$said")"
		fi
	fi
	rmdir "$small"
fi

for f in manifest vmcore vmlinux live/capture.txt; do
	if [ -s "$dir/$f" ]; then pass "$f present"; else fail "$f missing in $dir"; fi
done
[ -s "$dir/manifest" ] || finish
release=$(sed -n 's/^release: //p' "$dir/manifest")
scenario=$(sed -n 's/^scenario: //p' "$dir/manifest")

# The dump is in the format the manifest names.  A kdump folder asked for
# as a copy of /proc/vmcore ("elf") once held makedumpfile's output: the
# level never reached the capture kernel, whose makedumpfile 1.7.2 then
# dropped pages of 6.12 memory, and kstack was blamed for them.
format=$(sed -n 's/^vmcore_format: //p' "$dir/manifest")
case $format in
elf*) magic='\177ELF' len=4 name="an ELF file" ;;
kdump-compressed*) magic='KDUMP   ' len=8 name="makedumpfile's compressed format" ;;
*) magic='' ;;
esac
if [ -z "$magic" ]; then
	fail "manifest: unknown vmcore_format '$format'"
elif cmp -s -n "$len" <(printf '%b' "$magic") "$dir/vmcore"; then
	pass "the vmcore is $name, as the manifest says ($format)"
else
	fail "the manifest says '$format', but the vmcore is not $name:" \
		"$(head -c 8 "$dir/vmcore" | od -An -c | tr -s ' ')"
fi

# crash: `sys` must name the release the manifest says (a wrong vmlinux or an
# unreadable dump fails here).
cmds=$(mktemp)
out=$(mktemp)
trap 'rm -f "$cmds" "$out"' EXIT
printf 'sys\nquit\n' >"$cmds"
timeout 300 "$CRASH" -s "$dir/vmlinux" "$dir/vmcore" -i "$cmds" </dev/null >"$out" 2>&1 || true
# (compared as a string: a release such as 6.12.117+deb12 is no regex)
shown=$(sed -n 's/^ *RELEASE: //p' "$out" | head -n 1)
if [ -n "$release" ] && [ "$shown" = "$release" ]; then
	pass "crash opens the vmcore, RELEASE $release"
elif crash_refused "$out" "$dir"; then
	:
else
	fail "crash did not show RELEASE $release; its output ends with:"
	tail -n 15 "$out" | sed 's/^/  | /'
fi

# The raw copy: one folder per task, with the four files.
proc=$dir/live/proc
tids=$(find "$proc" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -n)
ntids=$(echo "$tids" | grep -c . || true)
copied=$(sed -n 's/^tasks_copied: //p' "$dir/live/capture.txt" 2>/dev/null)
if [ "$ntids" -gt 0 ] && [ "$ntids" = "$copied" ]; then
	pass "live/proc holds $ntids tasks, as the capture counted"
else
	fail "live/proc holds $ntids tasks, the capture counted ${copied:-?}"
fi
incomplete=0
for t in $tids; do
	for f in stat status cmdline stack; do
		[ -e "$proc/$t/$f" ] || { incomplete=$((incomplete + 1)); break; }
	done
done
if [ "$incomplete" -eq 0 ]; then
	pass "every task has stat, status, cmdline and stack"
else
	fail "$incomplete tasks lack some of stat, status, cmdline, stack"
fi

# The capture is PID directories alone, without stat's btime: kstack
# --proc-root reads it, start times "?", said once (#40 item 14).
rc=0
"$kstack" --proc-root "$proc" -a -H >"$out" 2>"$out.err" || rc=$?
nrec=$(grep -c '^PID: ' "$out" || true)
nq=$(grep -c '^PID: .*Start Time: ?   ' "$out" || true)
if [ "$rc" = 0 ] && [ "$nrec" -gt 0 ] && [ "$nq" = "$nrec" ] &&
	[ "$(cat "$out.err")" = "kstack: cannot read $proc/stat: No such file or directory: start times are unknown" ]; then
	pass "--proc-root on live/proc: $nrec tasks, each 'Start Time: ?', one note"
else
	fail "--proc-root on live/proc: exit $rc, $nrec tasks, $nq with '?':" \
		"$(head -n 2 "$out.err")"
fi
rm -f "$out.err"

# Every task of the guest's /proc must have a record in kstack -a -H.
# Skipped only when the guest had no kstack; a kstack that ran and failed is
# a failure.
ka=$dir/live/kstack-a.txt
in_guest=$(sed -n 's/^kstack: //p' "$dir/live/capture.txt" 2>/dev/null)
rc_a=$(sed -n 's/^kstack_a_rc: //p' "$dir/live/capture.txt" 2>/dev/null)
if [ "${in_guest:-absent}" = absent ]; then
	echo "SKIP: live/kstack-a.txt was not made (no static kstack when the vmcore was made)"
elif [ "$rc_a" != 0 ] || [ ! -s "$ka" ]; then
	fail "kstack -a -H in the guest exited with ${rc_a:-?}; its stderr:"
	head -n 10 "$ka.err" 2>/dev/null | sed 's/^/  | /'
else
	missing=$(for t in $tids; do
		grep -Eq "^PID: +$t " "$ka" || echo "$t"
	done)
	if [ -z "$missing" ]; then
		pass "every task in live/proc has a record in kstack-a.txt"
	else
		fail "tasks without a record in kstack-a.txt: $(echo "$missing" | tr '\n' ' ' | head -c 300)"
	fi
fi

# The basic scenario promises one task in every reported state.
if [ "$scenario" = basic ]; then
	states=$(for t in $tids; do
		s=$(cat "$proc/$t/stat" 2>/dev/null) || continue
		s=${s##*) }
		echo "${s%% *}"
	done | sort -u | tr -d '\n')
	for want in R S D T t Z P I; do
		case $states in
		*"$want"*) pass "a task in state $want" ;;
		*) fail "no task in state $want (states seen: $states)" ;;
		esac
	done
	if grep -q '  k  ' "$dir/live/kprobes-list.txt" 2>/dev/null &&
		grep -q '  r  ' "$dir/live/kprobes-list.txt"; then
		pass "kprobes-list.txt lists a kprobe and a kretprobe"
	else
		fail "kprobes-list.txt lacks a kprobe or a kretprobe"
	fi
	# The tracer's function shows where the kernel names its trampoline
	# (x86) or its call ops (arm64 6.12); arm64 6.1 has neither, and the
	# scenario's filter (vfs_write ksys_write) is what shows it there.
	ef=$dir/live/enabled_functions.txt
	if grep -q 'function_trace_call' "$ef" 2>/dev/null; then
		pass "enabled_functions.txt shows the function tracer"
	elif ! grep -q 'tramp:\|ops:' "$ef" 2>/dev/null &&
		grep -q '^vfs_write (1)' "$ef" && grep -q '^ksys_write (1)' "$ef"; then
		pass "enabled_functions.txt lists the tracer's filter, vfs_write and ksys_write" \
			"(this kernel names no trampoline or call ops)"
	else
		fail "enabled_functions.txt does not show the function tracer"
	fi
fi
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack -K / -F on the live system: first on fixture debugfs/tracefs
# directories (KSTACK_TEST_DEBUGFS / KSTACK_TEST_TRACEFS), where the output
# is known exactly; then on this kernel, testing what it offers and
# printing SKIP for what it lacks (kprobes, an unlocked tracefs, root).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
kstack=${KSTACK:-$top/build/kstack}
fix=tests/fixtures/hooks
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "SKIP: $*"; }
# what this host's kernel cannot show (no kprobes, a locked tracefs)
not_applicable() { echo "N/A: $*"; }

fixture_run() {
	KSTACK_TEST_DEBUGFS=$1 KSTACK_TEST_TRACEFS=$2 "$kstack" "${@:3}"
}

# 1. Fixture files: every kernel line printed back byte for byte, then
#    the summary and the live sections.
for opt in K F; do
	if fixture_run "$fix/debugfs" "$fix/tracefs" "-$opt" >"$tmp/$opt.out" 2>"$tmp/$opt.err" &&
		cmp -s "$tmp/$opt.out" "$fix/expected-$opt.out" && [ ! -s "$tmp/$opt.err" ]; then
		ok "-$opt on fixtures matches expected-$opt.out"
	else
		bad "-$opt on fixtures"
		diff -u "$fix/expected-$opt.out" "$tmp/$opt.out" | head -20
		cat "$tmp/$opt.err"
	fi
done

# The kernel-format part is the input file itself.
sed '/^== /,$d' "$tmp/K.out" >"$tmp/K.lines"
if cmp -s "$tmp/K.lines" "$fix/debugfs/kprobes/list"; then
	ok "-K kernel lines equal kprobes/list"
else
	bad "-K kernel lines differ from kprobes/list"
fi
sed '/^== /,$d' "$tmp/F.out" >"$tmp/F.lines"
if cmp -s "$tmp/F.lines" "$fix/tracefs/enabled_functions"; then
	ok "-F kernel lines equal enabled_functions"
else
	bad "-F kernel lines differ from enabled_functions"
fi

# 2. A line the parser does not know is shown as read, with a warning.
if fixture_run "$fix/debugfs-bad" "$fix/tracefs" -K >"$tmp/bad.out" 2>"$tmp/bad.err" &&
	grep -qx 'ffffffff81000000  k  strange line from a future kernel' "$tmp/bad.out" &&
	grep -q 'not in the expected format' "$tmp/bad.err" &&
	grep -q '^1 line not in the kernel' "$tmp/bad.out"; then
	ok "an unknown line is passed through and counted"
else
	bad "an unknown line"
	cat "$tmp/bad.out" "$tmp/bad.err"
fi

# 3. Missing files: a clear message and a nonzero status.
if fixture_run "$tmp/none" "$tmp/none" -K >"$tmp/no.out" 2>"$tmp/no.err"; then
	bad "-K without kprobes/list exited 0"
elif grep -q 'does not exist' "$tmp/no.err"; then
	ok "-K without kprobes/list says so"
else
	bad "-K without kprobes/list: $(cat "$tmp/no.err")"
fi

# 3b. Without root, when nothing is mounted: exit 3 and say why.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	! grep -qE ' - debugfs ' /proc/self/mountinfo; then
	# shellcheck source=tests/lib/nobody.sh
	. "$top/tests/lib/nobody.sh"
	if setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$(nobody_kstack "$kstack" "$tmp")" -K \
		>"$tmp/np.out" 2>"$tmp/np.err"; then
		bad "-K as nobody exited 0"
	else
		rc=$?
		if [ $rc -eq 3 ] && grep -q 'not permitted' "$tmp/np.err"; then
			ok "-K as nobody: exit 3, $(head -1 "$tmp/np.err")"
		else
			bad "-K as nobody: rc $rc, $(head -1 "$tmp/np.err")"
		fi
	fi
elif [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "-K as nobody needs root and setpriv"
else
	not_applicable "-K as nobody: debugfs is mounted here, so nobody may find kprobes/list"
fi

# 4. This kernel.
mounts_before=$(grep -cE ' - (debugfs|tracefs) ' /proc/self/mountinfo)
if [ "$(id -u)" != 0 ]; then
	skip "live -K/-F need root"
else
	for opt in K F; do
		"$kstack" "-$opt" >"$tmp/live$opt.out" 2>"$tmp/live$opt.err"
		rc=$?
		if [ $rc -eq 0 ]; then
			if grep -q '^== summary$' "$tmp/live$opt.out"; then
				ok "live -$opt ran ($(sed -n '/^== summary$/{n;p}' "$tmp/live$opt.out"))"
			else
				bad "live -$opt has no summary"
			fi
			# Compare with the kernel's own file, read in a namespace of ours.
			case $opt in
			K) file=/sys/kernel/debug/kprobes/list fs=debugfs dir=/sys/kernel/debug ;;
			F) file=/sys/kernel/tracing/enabled_functions fs=tracefs dir=/sys/kernel/tracing ;;
			esac
			# The kernel's file, read before and after kstack: a
			# difference while the file stood still is kstack's.
			read_file() {
				unshare -m sh -c "mount --make-rprivate / 2>/dev/null;
					grep -q ' - $fs ' /proc/self/mountinfo || mount -t $fs -o ro $fs $dir;
					cat $file" >"$1" 2>/dev/null
			}
			verdict=moved
			for _ in 1 2 3; do
				read_file "$tmp/before$opt" || { verdict=unreadable; break; }
				"$kstack" "-$opt" 2>/dev/null | sed '/^== /,$d' >"$tmp/live$opt.lines"
				read_file "$tmp/kernel$opt" || { verdict=unreadable; break; }
				cmp -s "$tmp/before$opt" "$tmp/kernel$opt" || continue
				if cmp -s "$tmp/kernel$opt" "$tmp/live$opt.lines"; then
					verdict=equal
				else
					verdict=differs
				fi
				break
			done
			case $verdict in
			equal) ok "live -$opt kernel lines equal $file" ;;
			differs)
				bad "live -$opt: the lines differ from $file, which stood still:"
				diff "$tmp/kernel$opt" "$tmp/live$opt.lines" | head -n 10
				;;
			moved) not_applicable "live -$opt: $file changed during each of 3 reads" ;;
			*) not_applicable "cannot read $file for comparison" ;;
			esac
		elif [ $rc -eq 3 ] || [ $rc -eq 4 ]; then
			if [ -s "$tmp/live$opt.err" ] && ! grep -q '^== ' "$tmp/live$opt.out"; then
				ok "live -$opt unavailable here, with a message (rc $rc)"
				not_applicable "live -$opt: $(head -1 "$tmp/live$opt.err")"
			else
				bad "live -$opt failed without a message"
			fi
		else
			bad "live -$opt exited $rc"
			cat "$tmp/live$opt.err"
		fi
	done
fi
mounts_after=$(grep -cE ' - (debugfs|tracefs) ' /proc/self/mountinfo)
if [ "$mounts_before" = "$mounts_after" ]; then
	ok "the system's mount table is unchanged ($mounts_after debugfs/tracefs mounts)"
else
	bad "debugfs/tracefs mounts went from $mounts_before to $mounts_after"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

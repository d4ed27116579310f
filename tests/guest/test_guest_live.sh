#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The live tool's /proc tests as a guest ran them: make-vmcore's livetests
# scenario runs tests/integration/test_live_states.sh,
# test_background.sh and test_triage_live.sh inside the guest (bash-static, busybox, the guest's
# static kstack, real children in S, T, t, Z, D, R) and brings back
# live/guest-tests/: NAME.log per script and "NAME STATUS SECONDS" lines in
# status.  Every script the manifest says the guest was asked to run must
# have run, exited 0 and counted at least one pass and no failure; the
# guest's FAIL: lines are this test's own.  The guest must have run the
# kstack that is built here now (its sha256 in the manifest), or the
# results are about another binary.
#
# KSTACK_VMCORE_DIR: the folder (default cache/vmcores/arm64-livetests,
# make vmcore-arm64-livetests); KSTACK_STATIC: the static kstack the guest
# should have run (default build/arm64/kstack-static for an arm64 guest,
# build/kstack-static otherwise).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/arm64-livetests}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

m=$dir/manifest
if [ ! -f "$m" ]; then
	skip "no vmcore folder at $dir (make vmcore-arm64-livetests)"
	finish
fi
field() { sed -n "s/^$1: //p" "$m"; }
read -ra asked <<<"$(field guest_tests)"
if [ ${#asked[@]} -eq 0 ]; then
	fail "$dir (scenario $(field scenario)) ran no guest tests: its manifest has no guest_tests"
	finish
fi

# The results are about the kstack the guest ran: the one built here now.
case $(field kernel_arg) in
*arm64*) bin=${KSTACK_STATIC:-$top/build/arm64/kstack-static} ;;
*) bin=${KSTACK_STATIC:-$top/build/kstack-static} ;;
esac
ran=$(field kstack_sha256)
if [ ! -f "$bin" ]; then
	echo "note: no $bin here to compare with the guest's kstack ($ran)"
elif [ "$(sha256sum "$bin" | cut -d' ' -f1)" = "$ran" ]; then
	pass "the guest ran $bin (sha256 ${ran:0:16})"
else
	fail "the guest ran kstack ${ran:0:16}, not today's $bin: remake $dir"
fi

out=$dir/live/guest-tests
if [ ! -f "$out/status" ]; then
	fail "the guest wrote no $out/status: its tests did not run"
	finish
fi
for t in "${asked[@]}"; do
	rc='' secs=''
	read -r _ rc secs < <(awk -v t="$t" '$1 == t { print; exit }' "$out/status")
	log=$out/$t.log
	if [ -z "${rc:-}" ] || [ ! -f "$log" ]; then
		fail "$t: the guest did not run it (no status line or no log)"
		continue
	fi
	# The guest's own verdicts, one by one, as this test's.
	while IFS= read -r line; do
		fail "in the guest: $t: ${line#FAIL: }"
	done < <(grep '^FAIL: ' "$log")
	# What the guest could not check (busybox has no python3, its setpriv
	# no --reuid) is said, not hidden; it is no missing input of make check.
	while IFS= read -r line; do
		line=${line#SKIP: }
		not_applicable "in the guest: $t: ${line#N/A: }"
	done < <(grep -E '^(SKIP|N/A): ' "$log")
	# The scripts end with "WHAT: N passed, N failed".
	last=$(tail -n 1 "$log")
	if ! [[ $last =~ ^[a-z\ ]+:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		fail "$t: exit $rc after ${secs}s, no count at the end: $last"
		continue
	fi
	p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
	if [ "$rc" = 0 ] && [ "$f" = 0 ] && [ "$p" -gt 0 ]; then
		pass "$t in the guest: $p passed, $f failed, exit 0 in ${secs}s"
	else
		fail "$t in the guest: $p passed, $f failed, exit $rc in ${secs}s"
	fi
done
finish

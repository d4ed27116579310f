#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Messages that send the user the right way: a file that is no dump says
# so and lists what is read; root refused by the kernel is not told to be
# root; -o names the missing directory and the full device.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"
fx=(--proc-root "$tmp/proc")

# shellcheck source=tests/lib/expect.sh
. "$top/tests/lib/expect.sh"

# --- --vmcore of a file that is no dump ------------------------------------
if "$kstack" --vmcore /dev/null -a 2>&1 | grep -q 'built without libkdumpfile'; then
	echo "SKIP: this kstack has no --vmcore (built without libkdumpfile)"
else
	printf 'root:x:0:0:root:/root:/bin/sh\n%.0s' $(seq 200) >"$tmp/passwd"
	expect_re "--vmcore of a text file" 4 \
		"$tmp/passwd is not a kernel dump: the formats read are an ELF vmcore .*kdump-compressed" \
		--vmcore "$tmp/passwd" -a
	if grep -q 'Cannot set file\|Unknown file format' "$tmp/err"; then
		fail "--vmcore of a text file: libkdumpfile's words still shown"
	else
		pass "--vmcore of a text file: no 'Unknown file format'"
	fi
	# makedumpfile -F's header: the signature in a 16-byte field
	{ printf 'makedumpfile\0\0\0\0'; head -c 4096 /dev/zero; } >"$tmp/flat"
	expect_re "--vmcore of a flattened dump" 4 \
		"flattened format \(makedumpfile -F\).*makedumpfile -R" \
		--vmcore "$tmp/flat" -a
fi

# --- root the kernel refuses: uid 0 in a user namespace ---------------------
if cat /proc/self/stack >/dev/null 2>&1 && command -v unshare >/dev/null &&
	unshare -U -r true 2>/dev/null &&
	! unshare -U -r cat /proc/self/stack >/dev/null 2>&1; then
	rc=0
	unshare -U -r "$kstack" -a >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 3 ] && [ ! -s "$tmp/out" ] &&
		grep -q 'the kernel refused it although kstack runs as root' "$tmp/err" &&
		grep -q 'user namespace' "$tmp/err" && ! grep -q 'needs root' "$tmp/err"; then
		pass "root in a user namespace: exit 3, $(head -1 "$tmp/err")"
	else
		fail "root in a user namespace: exit $rc, stderr:"
		sed 's/^/    /' "$tmp/err" | head -5
	fi
else
	echo "SKIP: no user namespace here whose root the kernel refuses (needs root, unshare -U -r)"
fi

# --- -o: the missing directory named, the full device ----------------------
expect_re "-o into a missing directory" 4 \
	"cannot write $tmp/none/deeper/out: the directory $tmp/none/deeper does not exist" \
	"${fx[@]}" -a -o "$tmp/none/deeper/out"
expect_re "-o into a missing relative directory" 4 \
	"the directory nodir-$$ does not exist" "${fx[@]}" -a -o "nodir-$$/out"
if [ -w /dev/full ]; then
	expect_re "-o /dev/full" 4 "/dev/full: No space left on device" "${fx[@]}" -a -o /dev/full
	expect_re "-o /dev/full --json" 4 "/dev/full: No space left on device" \
		"${fx[@]}" -a --json -o /dev/full
	# a sample larger than stdio's buffer fails inside the writer, not at
	# the last flush: the reason must survive that too (it said EIO)
	if cat /proc/self/stack >/dev/null 2>&1; then
		expect_re "-o /dev/full, this host's every thread" 4 \
			"/dev/full: No space left on device" -a -H -o /dev/full
	else
		echo "SKIP: the real /proc sample needs root (/proc/PID/stack)"
	fi
else
	echo "SKIP: no writable /dev/full"
fi

finish

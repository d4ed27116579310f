#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the build promises: kstack.so exports its constructor and nothing
# of the core, does not pull in zlib (background mode's), and the guests'
# static objects are built with CFLAGS and header dependencies like the
# others, so a changed header cannot leave a stale binary behind.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
so=${KSTACK_SO:-$top/build/kstack.so}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

exports=$(nm -D --defined-only "$so" 2>"$tmp/nm.err" | awk '{print $3}' | sort)
if [ "$exports" = kstack_init ]; then
	pass "kstack.so exports only kstack_init"
else
	fail "kstack.so exports $(echo "$exports" | wc -l) symbols:" \
		"$(echo "$exports" | head -5 | tr '\n' ' ')$(cat "$tmp/nm.err")"
fi
if readelf -d "$so" | grep -q 'NEEDED.*libz\.'; then
	fail "kstack.so needs libz"
else
	pass "kstack.so does not need libz"
fi
# (nm's whole output first: a grep -q that matched early would leave nm
# to die of SIGPIPE, and pipefail would turn the match into a pass)
nm "$so" >"$tmp/nm.out" 2>/dev/null
if grep -qE ' (ks_rotate|ks_disk_guard)' "$tmp/nm.out"; then
	fail "kstack.so contains background mode's rotate or disk guard"
else
	pass "kstack.so has no rotate or disk guard"
fi

# The tests' knobs are read by live/main.c alone, never in the core
if grep -rn 'getenv' "$top/shared" >"$tmp/getenv"; then
	fail "shared/ reads the environment: $(head -1 "$tmp/getenv")"
else
	pass "nothing in shared/ reads the environment"
fi

# One static object into a build folder of our own: its .d must name the
# headers it includes, and CFLAGS must reach its compile line.
cd "$top" || exit 1
obj=$tmp/b/static/shared/core/grow.o
if make -s BUILD="$tmp/b" "$obj" >"$tmp/make.out" 2>&1 &&
	grep -q 'shared/core/grow\.h' "${obj%.o}.d" 2>/dev/null; then
	pass "static objects have header dependencies"
else
	fail "static objects have no header dependencies: $(tail -3 "$tmp/make.out")"
fi
# (the whole output first: under pipefail, grep -q leaving early made a
# sub-make's "Leaving directory" line die of SIGPIPE and the check fail)
make -n BUILD="$tmp/c" CFLAGS="-O2 -DKS_CFLAGS_PROBE" "$tmp/c/static/shared/core/grow.o" \
	>"$tmp/make-n.out" 2>&1
if grep -q KS_CFLAGS_PROBE "$tmp/make-n.out"; then
	pass "static objects are compiled with CFLAGS"
else
	fail "static objects ignore CFLAGS: $(grep -m1 'grow\.c' "$tmp/make-n.out")"
fi
finish

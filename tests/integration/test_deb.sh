#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The Debian packages: make deb builds kstack and crash-kstack from a copy
# of the tree in build/deb (or reuses them when no file changed); they are
# unpacked into a scratch root with dpkg -x and the tool is run from
# there; the extension must sit where crash searches, depend on the crash
# release it was built against, and lintian must find no error or
# warning.  Skips when dpkg-buildpackage or a build dependency is missing
# (scripts/install-deps.sh installs them).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
cd "$top" || exit 1
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

if ! command -v dpkg-buildpackage >/dev/null; then
	echo "SKIP: no dpkg-buildpackage (dpkg-dev): the packages are not built"
	finish
fi
if ! missing=$(dpkg-checkbuilddeps 2>&1); then
	echo "SKIP: $missing"
	finish
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(cat VERSION)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
debs=build/deb
before=$(git status --porcelain --ignored=matching -- debian 2>/dev/null)

if ! make -s deb >"$tmp/make.log" 2>&1; then
	fail "make deb:"
	tail -n 30 "$tmp/make.log" | sed 's/^/  | /'
	finish
fi
tool=$debs/kstack_${version}_$arch.deb
ext=$debs/crash-kstack_${version}_$arch.deb
check "make deb: kstack and crash-kstack $version" test -s "$tool" -a -s "$ext"
check "no build output in the tree's debian/" \
	[ "$(git status --porcelain --ignored=matching -- debian)" = "$before" ]
for d in "$tool" "$ext"; do
	check "$(basename "$d"): version $version" [ "$(dpkg-deb -f "$d" Version)" = "$version" ]
done

# --- unpacked into a scratch root: the tool runs from there --------------
root=$tmp/root
dpkg -x "$tool" "$root" && dpkg -x "$ext" "$root"
bin=$root/usr/bin/kstack
out=$("$bin" --version 2>&1)
check "the packaged kstack --version: '$out'" [ "$out" = "kstack $version" ]
if [ "$(id -u)" = 0 ] && cat /proc/self/stack >/dev/null 2>&1; then
	rc=0
	"$bin" -p 1 >"$tmp/p1" 2>"$tmp/p1.err" || rc=$?
	if cat /proc/1/stack >/dev/null 2>&1; then
		check "the packaged kstack -p 1: exit 0, got $rc" [ "$rc" = 0 ]
		check "the packaged kstack -p 1: PID 1's line" grep -q '^PID:     1   State: ' "$tmp/p1"
	else
		# where even root may not read init's stack (a sandbox), kstack
		# says so and exits 3 (not permitted), as it should
		check "the packaged kstack -p 1: exit 3 (init's stack is not readable here), got $rc" [ "$rc" = 3 ]
		check "the packaged kstack -p 1: says why" grep -q 'the kernel refused it although kstack runs as root' "$tmp/p1.err"
	fi
else
	echo "SKIP: kstack -p 1 needs root"
fi
check "kstack.8 in kstack" [ -s "$root/usr/share/man/man8/kstack.8.gz" ]
check "kstack-crash.8 in crash-kstack" [ -s "$root/usr/share/man/man8/kstack-crash.8.gz" ]
unit=$(find "$root" -path '*/systemd/system/kstack.service')
check "the unit is packaged ($unit)" [ -n "$unit" ]
check "the unit runs /usr/bin/kstack" grep -q '^ExecStart=/usr/bin/kstack ' "${unit:-/dev/null}"

# --- the extension: where "extend kstack.so" finds it, for this crash ---
so=$root/usr/lib/crash/extensions/kstack.so
check "kstack.so in /usr/lib/crash/extensions" [ -s "$so" ]
if command -v crash >/dev/null; then
	check "crash searches /usr/lib/crash/extensions" \
		grep -qaF '/usr/lib/crash/extensions/%s' "$(command -v crash)"
fi
# shellcheck disable=SC2317 # run by check
exports() { nm -D --defined-only "$so" | grep -q " T $1\$"; }
check "kstack.so has its constructor" exports kstack_init
crash_ver=$(dpkg-query -W -f='${Version}' crash 2>/dev/null)
deps=$(dpkg-deb -f "$ext" Depends)
check "crash-kstack depends on a crash range: $deps" grep -Eq 'crash \(>= [^)]+\), crash \(<< [^)]+\)' <<<"$deps"
if [ -n "$crash_ver" ]; then
	lo=$(sed -n 's/.*crash (>= \([^)]*\)).*/\1/p' <<<"$deps")
	hi=$(sed -n 's/.*crash (<< \([^)]*\)).*/\1/p' <<<"$deps")
	check "the crash built against ($crash_ver) is in [$lo, $hi)" \
		dpkg --compare-versions "$crash_ver" ge "$lo"
	check "... and below $hi" dpkg --compare-versions "$crash_ver" lt "$hi"
	check "the next crash release (${lo%.*}.$((${lo##*.} + 1))) is not" \
		dpkg --compare-versions "${lo%.*}.$((${lo##*.} + 1))" ge "$hi"
fi

# --- lintian: no error, no warning ---------------------------------------
if command -v lintian >/dev/null; then
	lintian "$debs/kstack_${version}_$arch.changes" >"$tmp/lintian" 2>&1
	if grep -Eq '^[EW]: ' "$tmp/lintian"; then
		fail "lintian:"
		grep -E '^[EW]: ' "$tmp/lintian" | sed 's/^/  | /'
	else
		pass "lintian: no error or warning"
	fi
else
	echo "SKIP: no lintian"
fi
finish

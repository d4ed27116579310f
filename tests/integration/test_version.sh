#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One version, from the VERSION file: kstack --version, -v, --json (with
# the JSON schema and the running kernel's release) and debian/changelog
# all say the same.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
version=$(cat "$top/VERSION")
release=$(uname -r)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
"$kstack" --version >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "kstack $version" ] && [ ! -s "$tmp/err" ]; then
	pass "--version prints 'kstack $version'"
else
	fail "--version: exit $rc, '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")'"
fi
# debian/changelog's newest entry is the same version (make deb refuses
# to build otherwise)
cl=$(sed -n '1s/^kstack (\([^)]*\)) .*/\1/p' "$top/debian/changelog")
if [ "$cl" = "$version" ]; then
	pass "debian/changelog is at $version"
else
	fail "debian/changelog is at '$cl', VERSION says $version"
fi
# --version wins over a missing selection, as --help does
rc=0
"$kstack" --version -b >/dev/null 2>&1 || rc=$?
if [ "$rc" = 0 ]; then pass "--version needs no selection"; else fail "--version -b: exit $rc"; fi

if [ "$(id -u)" != 0 ] || ! cat /proc/self/stack >/dev/null 2>&1; then
	echo "SKIP: -v and --json on the real /proc need root"
	finish
fi
sleep 100 &
sleeper=$!
rc=0
"$kstack" -p "$sleeper" --json >"$tmp/json" 2>"$tmp/err" || rc=$?
want="{\"schema\":1,\"version\":\"$version\",\"time\":[0-9]*,\"host\":\"[^\"]*\",\"kernel\":\"$release\",\"tasks\":1,"
if [ "$rc" = 0 ] && grep -q "^$want" "$tmp/json"; then
	pass "--json: schema 1, version $version, kernel $release"
else
	fail "--json: exit $rc, $(head -c 200 "$tmp/json") $(cat "$tmp/err")"
fi
rc=0
"$kstack" -p "$sleeper" -v >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" = 0 ] && grep -qx "kstack: kstack $version on kernel $release, 1 task(s)" "$tmp/err"; then
	pass "-v names the version and the kernel"
else
	fail "-v: exit $rc, stderr: $(cat "$tmp/err")"
fi
kill "$sleeper" 2>/dev/null
wait "$sleeper" 2>/dev/null
finish

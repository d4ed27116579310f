#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install into scratch roots: the tool and the unit follow PREFIX,
# kstack.so goes where crash 8 searches for "extend kstack.so" whatever
# PREFIX is, and the unit passes systemd-analyze verify (when present).
# Builds the default build folder (make all) if it is not built yet.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1

# install NAME MAKE-ARGS...: make install into $tmp/NAME
install_to() {
	local name=$1
	shift
	if make -s install DESTDIR="$tmp/$name" "$@" >"$tmp/$name.log" 2>&1; then
		return 0
	fi
	fail "make install $*:"
	tail -n 20 "$tmp/$name.log" | sed 's/^/  | /'
	return 1
}

# has ROOT FILE MODE: FILE is in ROOT with MODE
has() {
	if [ -f "$1$2" ] && [ "$(stat -c %a "$1$2")" = "$3" ]; then
		pass "${1#"$tmp"/}: $2 ($3)"
	else
		fail "${1#"$tmp"/}: no $2 with mode $3: $(ls -l "$1$2" 2>&1)"
	fi
}

# the default PREFIX: /usr/local, but the extension where crash looks
if install_to default; then
	r=$tmp/default
	has "$r" /usr/local/bin/kstack 755
	has "$r" /usr/lib/crash/extensions/kstack.so 644
	has "$r" /usr/local/share/man/man8/kstack.8 644
	has "$r" /usr/local/share/man/man8/kstack-crash.8 644
	has "$r" /usr/local/lib/systemd/system/kstack.service 644
	if grep -qx 'ExecStart=/usr/local/bin/kstack .*' "$r/usr/local/lib/systemd/system/kstack.service"; then
		pass "default: the unit runs /usr/local/bin/kstack"
	else
		fail "default: $(grep ExecStart "$r/usr/local/lib/systemd/system/kstack.service")"
	fi
	if [ -z "$(find "$r/usr/local/lib" -name '*.so')" ]; then
		pass "default: nothing in /usr/local/lib/crash, which crash does not search"
	else
		fail "default: $(find "$r/usr/local/lib" -name '*.so')"
	fi
	if "$r/usr/local/bin/kstack" --version | grep -qx "kstack $(cat VERSION)"; then
		pass "default: the installed kstack runs"
	else
		fail "default: the installed kstack --version failed"
	fi
fi

# crash's own list of directories for a bare "extend NAME.so"; the man
# page's example must load what make install put there
if command -v crash >/dev/null; then
	if grep -qaF '/usr/lib/crash/extensions/%s' "$(command -v crash)"; then
		pass "crash searches /usr/lib/crash/extensions"
	else
		fail "crash does not name /usr/lib/crash/extensions: CRASH_EXTDIR is wrong"
	fi
fi
if grep -q '^crash> extend kstack.so$' docs/kstack-crash.8 &&
	grep -q '^\.IR /usr/lib/crash/extensions ,$' docs/kstack-crash.8; then
	pass "man page: 'extend kstack.so' and the directory it loads from"
else
	fail "docs/kstack-crash.8 does not show a bare 'extend kstack.so' from /usr/lib/crash/extensions"
fi

# a distribution's PREFIX, and CRASH_EXTDIR on its own
if install_to usr PREFIX=/usr CRASH_EXTDIR=/usr/lib64/crash/extensions; then
	r=$tmp/usr
	has "$r" /usr/bin/kstack 755
	has "$r" /usr/lib64/crash/extensions/kstack.so 644
	has "$r" /usr/share/man/man8/kstack.8 644
	has "$r" /usr/lib/systemd/system/kstack.service 644
	if grep -qx 'ExecStart=/usr/bin/kstack .*' "$r/usr/lib/systemd/system/kstack.service"; then
		pass "PREFIX=/usr: the unit runs /usr/bin/kstack"
	else
		fail "PREFIX=/usr: $(grep ExecStart "$r/usr/lib/systemd/system/kstack.service")"
	fi
fi

# systemd-analyze verify checks that ExecStart's binary exists and that
# Documentation's man page is found: install to a real PREFIX for it
if ! command -v systemd-analyze >/dev/null; then
	echo "SKIP: no systemd-analyze: the unit is not verified"
elif install_to verify PREFIX="$tmp/prefix" CRASH_EXTDIR="$tmp/prefix/ext" DESTDIR=; then
	unit=$tmp/prefix/lib/systemd/system/kstack.service
	rc=0
	(cd "$tmp" && MANPATH="$tmp/prefix/share/man" SYSTEMD_LOG_COLOR=0 \
		systemd-analyze verify "$unit") >"$tmp/verify.out" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/verify.out" ]; then
		pass "systemd-analyze verify accepts the unit"
	else
		fail "systemd-analyze verify: exit $rc:"
		sed 's/^/  | /' "$tmp/verify.out"
	fi
fi
finish

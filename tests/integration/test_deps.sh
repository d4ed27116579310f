#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/install-deps.sh is the one list of what the project needs from
# Debian.  make check-fresh proves that it is enough (the README's
# commands pass in a new root); this checks the other direction: every
# package on it is used.  Each line names a WORD that the tree outside the
# list calls, includes or links, and the package, where it is installed,
# installs a file of that name.  And each make target that installs
# packages asks for a group the list has.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
cd "$top" || exit 1
deps=scripts/install-deps.sh

# the tree's files, tracked or new, less the list itself
names_word() {
	git ls-files -co --exclude-standard -z -- . ":!$deps" |
		xargs -0 grep -l -F -w -e "$1" -- 2>/dev/null | grep . >/dev/null
}

lines=0
while read -r groups pkg word; do
	lines=$((lines + 1))
	case $word in
	@*)
		file=${word#@}
		if [ -f "$file" ] && grep -q "install-deps.sh[\" ].*$groups" "$file"; then
			pass "$pkg ($groups): $file installs group $groups"
		else
			fail "$pkg ($groups): $file does not call install-deps.sh $groups"
		fi
		continue
		;;
	esac
	if names_word "$word"; then
		pass "$pkg ($groups): the tree uses '$word'"
	else
		fail "$pkg ($groups): nothing outside $deps names '$word': drop the package, or name what uses it"
	fi
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		case ",$groups," in
		*,check,*) fail "$pkg is not installed, though make check installs its group" ;;
		*) not_applicable "$pkg ($groups) is not installed here: make check does not install its group" ;;
		esac
		continue
	fi
	# grep reads all: -q would close the pipe on dpkg (pipefail)
	if dpkg -L "$pkg" | grep -F -e "$word" >/dev/null; then
		pass "$pkg installs a file named for '$word'"
	else
		fail "$pkg installs no file named for '$word': the line names another package's file"
	fi
done < <("$deps" list)
[ "$lines" -gt 20 ] || fail "install-deps.sh list printed $lines lines"

# Every group a make target or a script asks for is one the list knows.
known=$("$deps" list | awk '{ n = split($1, g, ","); for (i = 1; i <= n; i++) print g[i] }' | sort -u)
while read -r g; do
	if grep -qx -- "$g" <<<"$known"; then
		pass "install-deps.sh $g: a group of the list"
	else
		fail "install-deps.sh $g is asked for, and the list has no such group"
	fi
done < <(git grep -h -E 'install-deps\.sh' -- Makefile vmcores scripts tests \
	':!tests/integration/test_deps.sh' |
	grep -v -E '^[[:space:]]*#' |
	grep -o -E 'install-deps\.sh"?( missing)? [a-z0-9]+' |
	awk '{ print $NF }' | grep -v -x -e missing -e list | sort -u)

# An unknown group is refused, not taken as "everything".
if "$deps" no-such-group >/dev/null 2>"$top/.deps-err.$$"; then
	fail "install-deps.sh no-such-group exits 0"
elif grep -q "unknown group 'no-such-group'" "$top/.deps-err.$$"; then
	pass "install-deps.sh refuses an unknown group by name"
else
	fail "install-deps.sh no-such-group: $(cat "$top/.deps-err.$$")"
fi
rm -f "$top/.deps-err.$$"
finish

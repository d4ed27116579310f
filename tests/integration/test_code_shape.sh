#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The shape docs/architecture.md promises, kept: no function over 60
# lines in shared/, live/ or extension/, and no link cycle among the
# core's objects (those of the build under test, one per source of
# shared/, so that an object left from a moved file does not count).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${KSTACK_BUILD:-$top/build}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
cd "$top" || exit 1

count_checks < <(python3 tests/lib/code_shape.py functions "$top")

objs=()
missing=0
while read -r src; do
	o=$build/${src%.c}.o
	if [ -f "$o" ]; then
		objs+=("$o")
	else
		missing=$((missing + 1))
	fi
done < <(git ls-files -co --exclude-standard -- 'shared/*.c')
if [ "$missing" -gt 0 ]; then
	skip "$missing objects of shared/ not built in $build (make BUILD=... all)"
else
	count_checks < <(python3 tests/lib/code_shape.py cycles "${objs[@]}")
fi
finish

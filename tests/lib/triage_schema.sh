# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# check_triage_schema FILE: kstack triage --json's FILE validated against
# docs/triage.schema.json by Debian's python3-jsonschema, as PASS/FAIL
# lines counted by check.sh.  Without the package: SKIP, naming it (a
# FAIL under KSTACK_REQUIRE_INPUTS=1, as make check runs).
check_triage_schema() {
	local out rc

	out=$(/usr/bin/python3 "$top/tests/lib/triage_schema_check.py" \
		"$top/docs/triage.schema.json" "$1" 2>&1)
	rc=$?
	if [ "$rc" -eq 3 ] || [ ! -x /usr/bin/python3 ]; then
		if [ "${KSTACK_REQUIRE_INPUTS:-0}" = 1 ]; then
			fail "python3-jsonschema is not installed (scripts/install-deps.sh check)"
		else
			skip "python3-jsonschema is not installed (scripts/install-deps.sh check): --json not validated"
		fi
		return
	fi
	[ -n "$out" ] || out="FAIL: the schema check said nothing (exit $rc)"
	count_checks <<<"$out"
}

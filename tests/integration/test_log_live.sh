#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack --log on this host: /dev/kmsg written as dmesg writes it, so the
# lines both print agree (the log may grow between the two reads: only
# the lines both have are compared); --json parses with its fields; the
# options --log does not take are refused.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/expect.sh
. "$top/tests/lib/expect.sh"

expect "--log with -a" 2 "option -a does nothing with --log" --log -a
expect "--log with --vmlinux" 2 "option --vmlinux does nothing with --log" \
	--log --vmlinux x
expect "--vmcore --log with -K" 2 "-K and --vmcore --log exclude each other" \
	--vmcore x --log -K
expect "--log with --decode" 2 "--decode and --log exclude each other" --log --decode

if ! command -v dmesg >/dev/null; then
	skip "no dmesg (util-linux) to compare with"
	finish
fi
if ! dmesg >"$tmp/dmesg" 2>"$tmp/dmesg.err"; then
	skip "dmesg cannot read the log here ($(head -c 200 "$tmp/dmesg.err"); run as root)"
	finish
fi
rc=0
"$kstack" --log >"$tmp/log" 2>"$tmp/log.err" || rc=$?
if [ "$rc" = 0 ] && [ -s "$tmp/log" ]; then
	pass "kstack --log: $(wc -l <"$tmp/log") lines"
else
	fail "kstack --log: exit $rc: $(head -c 300 "$tmp/log.err")"
fi
count_checks < <(python3 "$top/tests/lib/log_check.py" common "$tmp/log" "$tmp/dmesg")
"$kstack" --log --json >"$tmp/json" 2>"$tmp/json.err"
# caller= is in /dev/kmsg only with CONFIG_PRINTK_CALLER
if grep -q '"caller"' "$tmp/json"; then
	count_checks < <(python3 "$top/tests/lib/log_check.py" json "$tmp/json")
elif python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
recs = [o for o in objs if "not_read" not in o]
need = ("seq", "ts_nsec", "level", "facility", "text")
sys.exit(0 if recs and all(all(k in o for k in need) for o in recs)
         and "not_read" in objs[-1] else 1)' "$tmp/json"; then
	pass "kstack --log --json: $(wc -l <"$tmp/json") objects parse (no caller: this kernel lacks CONFIG_PRINTK_CALLER)"
else
	fail "kstack --log --json does not parse: $(head -c 300 "$tmp/json")"
fi
finish

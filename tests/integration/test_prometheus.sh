#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# -b --prometheus FILE over real children in real states: after each
# sample the file holds the text format node_exporter's textfile
# collector reads (every line a comment or a sample), written whole
# (renamed into place: no temporary file left), readable by others (0644);
# the D child is counted, its stack's signature is the one --json gives
# it, the time it stayed in D grows over the run, and the sample counts
# equal the log's.  Debian's prometheus-node-exporter, its textfile
# collector alone on the file's directory, serves every kstack_ series
# with the file's value (scraped on localhost).  A FILE that cannot be
# written refuses the start.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/state_children.sh
. "$top/tests/lib/state_children.sh"
tmp=$(mktemp -d)
trap 'stop_state_children; rm -rf "$tmp"' EXIT

if ! start_state_children "$tmp"; then
	fail "the state children did not start"
	finish
fi
dpid=$(pid_of D)
prom=$tmp/metrics/kstack.prom
mkdir -p "$tmp/metrics"
rc=0
KSTACK_TEST_INTERVAL_MS=200 KSTACK_TEST_DURATION_MS=1600 \
	"$kstack" --foreground -D -d "$tmp/out" --prometheus "$prom" 2>"$tmp/bg.log" || rc=$?
if [ "$rc" = 0 ] && [ -s "$prom" ]; then
	pass "-b --prometheus: exit 0, $(wc -l <"$prom") lines"
else
	fail "-b --prometheus: exit $rc, file $(ls -l "$prom" 2>&1): $(tail -n 3 "$tmp/bg.log")"
	finish
fi
mode=$(stat -c %a "$prom")
if [ "$mode" = 644 ]; then pass "mode 0644 for node_exporter"; else fail "mode $mode, want 644"; fi
left=$(find "$tmp/metrics" -name '*.tmp.*' | wc -l)
if [ "$left" = 0 ]; then pass "no temporary file left"; else fail "$left temporary files left"; fi
bad=$(grep -Evc '^(# (HELP|TYPE) [a-z_]+ .*|[a-z_]+(\{[a-z_]+="([^"\\]|\\.)*"(,[a-z_]+="([^"\\]|\\.)*")*\})? [0-9.]+)$' "$prom")
if [ "$bad" = 0 ]; then pass "every line is a comment or a sample"; else fail "$bad lines of neither form: $(head -n 3 "$prom")"; fi

metric() { sed -n "s/^$1 \\([0-9.]*\\)\$/\\1/p" "$prom"; }
nd=$(metric 'kstack_tasks{state="D"}')
if [ "${nd:-0}" -ge 1 ]; then pass "kstack_tasks{state=\"D\"} $nd"; else fail "kstack_tasks{state=\"D\"}: '${nd:-}'"; fi
sig=$("$kstack" -p "$dpid" --json 2>/dev/null | grep -o '"signature":"[0-9a-f]*"' | head -n 1 | cut -d'"' -f4)
if [ -n "$sig" ] && grep -q "^kstack_d_tasks{signature=\"$sig\",top=\"[^\"]*\"} [1-9]" "$prom"; then
	pass "the D child's signature $sig is a kstack_d_tasks series"
else
	fail "no kstack_d_tasks series for the D child's signature '$sig'"
fi
ns=$(metric kstack_d_signatures)
if [ "${ns:-0}" -ge 1 ]; then pass "kstack_d_signatures $ns"; else fail "kstack_d_signatures '${ns:-}'"; fi
long=$(metric kstack_d_longest_seconds)
if awk -v l="${long:-0}" 'BEGIN { exit !(l >= 0.8 && l <= 10) }'; then
	pass "kstack_d_longest_seconds $long over a 1.6 s run"
else
	fail "kstack_d_longest_seconds '${long:-}' over a 1.6 s run"
fi
written=$(sed -n 's/.*INFO - Finished: \([0-9]*\) sample(s) written.*/\1/p' "$tmp/bg.log")
if [ -n "$written" ] && [ "$(metric 'kstack_samples_total{result="written"}')" = "$written" ]; then
	pass "samples written: $written, as the log says"
else
	fail "samples written: $(metric 'kstack_samples_total{result="written"}'), the log says '${written:-}'"
fi

# node_exporter's textfile collector serves the file as written
node_exporter=$(command -v prometheus-node-exporter || true)
if [ -z "$node_exporter" ]; then
	skip "no prometheus-node-exporter (apt install prometheus-node-exporter): not scraped"
else
	python3 "$top/tests/integration/helpers/scrape_textfile.py" "$node_exporter" \
		"$tmp/metrics" "$prom" >"$tmp/scrape.out" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		pass "node_exporter serves the file: $(tail -n 1 "$tmp/scrape.out")"
	else
		fail "node_exporter: exit $rc: $(tail -n 5 "$tmp/scrape.out")"
	fi
fi

# a FILE that cannot be written refuses the start, before any sample
rc=0
KSTACK_TEST_INTERVAL_MS=200 KSTACK_TEST_DURATION_MS=400 \
	"$kstack" --foreground -D -d "$tmp/out2" --prometheus "$tmp/no/such/dir/k.prom" 2>"$tmp/no.err" || rc=$?
if [ "$rc" != 0 ] && grep -q -- "--prometheus $tmp/no/such/dir/k.prom" "$tmp/no.err" &&
	[ ! -e "$tmp/out2/.kstack.lock" ]; then
	pass "an unwritable FILE: exit $rc, said, no lock left"
else
	fail "an unwritable FILE: exit $rc: $(head -c 300 "$tmp/no.err")"
fi
rc=0
"$kstack" -D --prometheus "$prom" >/dev/null 2>"$tmp/one.err" || rc=$?
if [ "$rc" = 2 ]; then pass "--prometheus without -b: refused (exit 2)"; else fail "--prometheus without -b: exit $rc"; fi
finish

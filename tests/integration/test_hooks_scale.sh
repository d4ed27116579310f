#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack -F on a kernel that traces every function: a fixture tracefs
# whose enabled_functions holds 60,000 records made from the guest's real
# lines (tests/lib/gen_enabled_functions.awk).  Every line must print back
# as read and the summary count all of them, with the memory of a few
# records: kstack runs with no single allocation over 64 MiB (ASan's
# max_allocation_size_mb) or, without ASan, 256 MiB of address space in
# all.  Keeping every record (17 KB each, 1 GB for 60,000) fails both.
# Nothing here is timed; tests/bench/ftrace.sh measures.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=60000
fs=$tmp/tracefs
mkdir -p "$fs"
awk -v n="$n" -f tests/lib/gen_enabled_functions.awk \
	tests/fixtures/hooks/enabled_functions-guest.txt >"$fs/enabled_functions"
echo function >"$fs/current_tracer"
echo '#### all functions enabled ####' >"$fs/set_ftrace_filter"
: >"$fs/set_ftrace_notrace"

# kstack -F with its memory bounded as the build allows (ASan reserves its
# shadow memory at start-up: an address space limit would stop it there)
asan=false
case $(ldd "$kstack" 2>/dev/null) in *libasan*) asan=true ;; esac
bounded_F() {
	if $asan; then
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=64:allocator_may_return_null=1" \
			KSTACK_TEST_TRACEFS="$fs" "$kstack" -F
	else
		(ulimit -v $((256 * 1024)) && KSTACK_TEST_TRACEFS="$fs" exec "$kstack" -F)
	fi
}

rc=0
bounded_F >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ]; then
	pass "-F on $n records: exit 0, nothing on stderr"
else
	fail "-F on $n records: exit $rc, stderr: $(head -3 "$tmp/err")"
fi

sed '/^== /,$d' "$tmp/out" >"$tmp/lines"
if cmp -s "$tmp/lines" "$fs/enabled_functions"; then
	pass "the $(wc -l <"$tmp/lines") kernel lines equal enabled_functions"
else
	fail "the kernel lines differ from enabled_functions ($(wc -l <"$tmp/lines") lines)"
fi

# 600 records of the guest's 13 in turn (46 rounds and 2), the rest the
# function tracer's: R 9 a round, I 2, D 1, a trampoline 12 of 13.
mods=$(seq 0 39 | awk '{ printf "%sbenchmod%02d", (NR > 1 ? ", " : ""), $1 }')
want="$n functions enabled: 416 R, 92 I, 46 D, 59954 with a trampoline; "
want+="patched modules: $mods; handlers: function_trace_call, "
want+="kprobe_ftrace_handler, call_direct_funcs, kshook_direct_tramp, "
want+="arch_ftrace_ops_list_func, kshook_ftrace_func, ftrace_ops_assist_func; "
want+="handler modules: kshook"
got=$(sed -n '/^== summary$/{n;p}' "$tmp/out")
if [ "$got" = "$want" ]; then
	pass "the summary counts every record"
else
	fail "summary: '$got', want '$want'"
fi

if sed -n '/^== current_tracer$/{n;p}' "$tmp/out" | grep -qx function &&
	[ "$(tail -2 "$tmp/out")" = $'== set_ftrace_notrace\n(none)' ]; then
	pass "the tracefs sections follow the summary"
else
	fail "the sections after the summary: $(sed -n '/^== current/,$p' "$tmp/out" | head -6)"
fi

# A line kstack does not understand in the middle is still shown as read
# and counted apart, with its number.
sed -i '30000s/.*/strange line from a future kernel/' "$fs/enabled_functions"
rc=0
bounded_F >"$tmp/out2" 2>"$tmp/err2" || rc=$?
if [ "$rc" = 0 ] && grep -qx 'strange line from a future kernel' "$tmp/out2" &&
	grep -q 'enabled_functions line 30000 is not in the expected format' "$tmp/err2" &&
	grep -qx '1 line not in the kernel.s format (shown as read)' "$tmp/out2" &&
	sed -n '/^== summary$/{n;p}' "$tmp/out2" | grep -q "^$((n - 1)) functions enabled: "; then
	pass "an unknown line among $n is shown as read, named by its number and counted"
else
	fail "an unknown line among $n: exit $rc, $(head -2 "$tmp/err2")"
fi
finish

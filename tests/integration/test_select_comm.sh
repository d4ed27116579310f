#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --comm REGEX and -c --all on the real /proc, one sample and background
# mode: five sleeping children whose comm no other task has are selected
# by name, OR-ed with -p, and -c --all names all five where -c names
# three.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

if ! cat /proc/self/stack >/dev/null 2>&1; then
	echo "SKIP: /proc/PID/stack is not readable here (needs root)"
	finish
fi
tmp=$(mktemp -d)
kids=()
cleanup() {
	[ ${#kids[@]} -gt 0 ] && kill "${kids[@]}" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# comm is the executable's name: a copy of sleep under a name of ours
comm=kscomm$$
cp "$(command -v sleep)" "$tmp/$comm"
for _ in 1 2 3 4 5; do
	"$tmp/$comm" 1000 &
	kids+=($!)
done
for pid in "${kids[@]}"; do
	for _ in $(seq 50); do
		grep -q '^State:.*S' "/proc/$pid/status" 2>/dev/null && break
		sleep 0.1
	done
done
want=$(printf '%s\n' "${kids[@]}" | sort -n)
pids_of() { sed -n 's/^PID: *\([0-9]*\) .*/\1/p' "$1" | sort -n; }

rc=0
"$kstack" --comm "^$comm\$" >"$tmp/one" 2>"$tmp/err" || rc=$?
if [ "$rc" = 0 ] && [ "$(pids_of "$tmp/one")" = "$want" ]; then
	pass "--comm ^$comm\$: the five children and nothing else"
else
	fail "--comm: exit $rc, PIDs $(pids_of "$tmp/one" | tr '\n' ' ') (want $(echo $want))"
	cat "$tmp/err"
fi
# an extended regex, unanchored, OR-ed with -p
"$kstack" -p $$ --comm "scomm($$|x)" >"$tmp/or" 2>"$tmp/err" || true
if [ "$(pids_of "$tmp/or")" = "$(printf '%s\n' $$ "${kids[@]}" | sort -n)" ]; then
	pass "-p \$\$ --comm: OR-ed, six tasks"
else
	fail "-p --comm: $(pids_of "$tmp/or" | tr '\n' ' ')"
fi
rc=0
"$kstack" --comm "^nosuchcomm$$\$" >"$tmp/none" 2>"$tmp/err" || rc=$?
if [ "$rc" = 1 ] && [ ! -s "$tmp/none" ]; then
	pass "--comm matching nothing: exit 1, nothing printed"
else
	fail "--comm matching nothing: exit $rc"
fi
rc=0
"$kstack" --comm "a(" >"$tmp/bad" 2>"$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -q "is not an extended regular expression" "$tmp/err"; then
	pass "--comm 'a(': exit 2, $(head -1 "$tmp/err")"
else
	fail "--comm 'a(': exit $rc"; cat "$tmp/err"
fi

# -c names three examples; --all every task, on the group's line
"$kstack" --comm "^$comm\$" -c >"$tmp/c" 2>/dev/null || true
"$kstack" --comm "^$comm\$" -c --all >"$tmp/all" 2>/dev/null || true
line=$(grep "^5 tasks" "$tmp/c")
if [ "$(grep -o '[0-9]* (' <<<"$line" | wc -l)" = 3 ] && [[ $line == *" ..." ]]; then
	pass "-c: three examples and '...'"
else
	fail "-c: '$line'"
fi
line=$(grep "^5 tasks" "$tmp/all")
got=$(grep -o "[0-9]* ($comm)" <<<"$line" | cut -d' ' -f1 | sort -n)
if [ "$got" = "$want" ] && [[ $line == *"   all: "* ]] && [[ $line != *"..." ]]; then
	pass "-c --all: all five PIDs on the line"
else
	fail "-c --all: '$line'"
fi

# background mode: one sample (-t 0) with --comm and -c --all
d=$tmp/bg
KSTACK_TEST_DURATION_MS=0 timeout 60 "$kstack" --foreground -x 100 -t 0 \
	--comm "^$comm\$" -c --all -d "$d" 2>"$tmp/bg.log" || true
log=$d/kstack_$(uname -n | tr / _).out
line=$(grep "^5 tasks" "$log" 2>/dev/null)
got=$(grep -o "[0-9]* ($comm)" <<<"$line" | cut -d' ' -f1 | sort -n)
if [ "$got" = "$want" ] && grep -q "^5 tasks, 1 distinct stack$" "$log"; then
	pass "-b --comm -c --all: the five children, all named"
else
	fail "-b --comm -c --all: '$line'"; cat "$tmp/bg.log"
fi
finish

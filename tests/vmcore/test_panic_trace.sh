#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A dump whose guest died (cache/vmcores/oops by default; make check runs
# it on every dump of vmcore-die): the panicking CPU's --cpus trace, from
# panic()'s caller down, equals the trace the kernel printed on its
# console (tests/lib/panic_trace_check.py says how), and so does the
# panic message --log and --panic give.  A dump of a guest that did not die: N/A.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/oops}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -s "$dir/vmcore" ] || [ ! -f "$dir/console.log" ]; then
	skip "no vmcore and console.log in $dir (make vmcore-die): the panic's trace not tested"
	finish
fi
with=()
if ! "$kstack" --vmcore "$dir/vmcore" --cpus >"$tmp/cpus" 2>"$tmp/cpus.err"; then
	# the arm64 6.1 dump alone: its kallsyms hold no data symbols
	if grep -q 'does not read arm64 CPUs yet\|--vmlinux\|--cpus needs the symbols' \
		"$tmp/cpus.err" && [ -e "$dir/vmlinux" ]; then
		not_applicable "the dump alone: $(head -n 1 "$tmp/cpus.err"); checked with --vmlinux"
		with=(--vmlinux "$dir/vmlinux")
		"$kstack" --vmcore "$dir/vmcore" "${with[@]}" --cpus >"$tmp/cpus" 2>"$tmp/cpus.err"
	fi
fi
if [ ! -s "$tmp/cpus" ]; then
	fail "--cpus printed nothing: $(head -c 300 "$tmp/cpus.err")"
	finish
fi
count_checks < <(python3 "$top/tests/lib/panic_trace_check.py" "$dir/console.log" "$tmp/cpus")

# The message: the console's "Kernel panic - not syncing: ..." is in --log.
msg=$(grep -a -o 'Kernel panic - not syncing: .*' "$dir/console.log" | head -n 1 | tr -d '\r')
if [ -z "$msg" ]; then
	not_applicable "no panic message on the console: the guest did not die"
# into a file first: grep -q stops reading at its match, and under
# pipefail kstack's SIGPIPE then failed the pipe (1 run in 9 on 612-nmi)
elif "$kstack" --vmcore "$dir/vmcore" --log >"$tmp/log" 2>/dev/null;
	grep -qF -- "$msg" "$tmp/log"; then
	pass "--log has the console's panic message: $msg"
else
	fail "--log lacks the console's panic message: $msg"
fi
# and --panic names it, as the console printed it
if [ -n "$msg" ]; then
	got=$("$kstack" --vmcore "$dir/vmcore" ${with[@]+"${with[@]}"} --panic 2>/dev/null | sed -n 's/^Message: //p')
	if [ "$got" = "$msg" ]; then
		pass "--panic's Message: is the console's"
	else
		fail "--panic's Message: '$got', the console's '$msg'"
	fi
fi
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack -K / -F in crash on a real vmcore: the kernel-format lines and the
# summary must equal what the guest's own kstack -K / -F printed just before
# the dump (live/kstack-K.txt, live/kstack-F.txt), line for line; -v must
# name every probe's handlers, the test module's (kshook) when the scenario
# loaded it, and find every armed probe's code in place.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
so=${KSTACK_SO:-$top/build/kstack.so}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
# shellcheck source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"

if [ ! -s "$dir/vmcore" ] || [ ! -e "$dir/vmlinux" ]; then
	echo "SKIP: no vmcore"
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -s "$so" ]; then
	echo "SKIP: no crash extension at $so"
	echo "0 passed, 0 failed"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One crash session (opening the dump is most of the time): markers split it.
cat >"$tmp/cmds" <<CMDS
extend $so
echo ==KS-K==
kstack -K
echo ==KS-F==
kstack -F
echo ==KS-KV==
kstack -K -v
echo ==KS-FV==
kstack -F -v
echo ==KS-END==
quit
CMDS
KSTACK_SO=$so run_crash "$dir/vmlinux" "$dir/vmcore" "$tmp/cmds" "$tmp/out"
if sanitizer_report "$tmp/out"; then
	fail "a sanitizer report in crash with $so"
	finish
fi
# crash may print extend's own message late, inside the first section.
section() {
	sed -n "/^==KS-$1==\$/,/^==KS-/p" "$tmp/out" | sed '1d;$d' |
		grep -v ': shared object loaded$'
}
for s in K F KV FV; do section "$s" >"$tmp/$s"; done
crash_refused "$tmp/out" "$dir" && finish

if ! grep -q '^==KS-K==$' "$tmp/out"; then
	fail "crash did not run the commands with $so:"
	grep -v '^$' "$tmp/out" | tail -n 3 | sed 's/^/  | /'
	finish
fi
if grep -q 'command not found' "$tmp/K"; then
	fail "$so did not register the kstack command:"
	sed -n '1,5p' "$tmp/K" | sed 's/^/  | /'
	finish
fi

# The kernel-format part and the summary line, as both tools print them.
kernel_and_summary() {
	awk 'found { print; exit } { print } /^== summary$/ { found = 1 }' "$1"
}
for opt in K F; do
	want=$dir/live/kstack-$opt.txt
	kernel_and_summary "$tmp/$opt" >"$tmp/got$opt"
	if [ ! -s "$want" ]; then
		# a capture older than the live -K/-F: the raw files below still count
		echo "SKIP: no $want (the guest's kstack had no -$opt)"
		continue
	fi
	kernel_and_summary "$want" >"$tmp/want$opt"
	if cmp -s "$tmp/want$opt" "$tmp/got$opt"; then
		pass "crash kstack -$opt equals the guest's kstack -$opt ($(($(wc -l <"$tmp/got$opt") - 2)) lines and the summary)"
	else
		fail "crash kstack -$opt differs from the guest's:"
		diff -u "$tmp/want$opt" "$tmp/got$opt" | head -30 | sed 's/^/  | /'
	fi
done

# The standalone --vmcore mode prints the same (libkdumpfile, no crash).
kstack=${KSTACK:-$top/build/kstack}
if [ -x "$kstack" ]; then
	for opt in K F; do
		[ -s "$tmp/want$opt" ] || continue
		if "$kstack" --vmcore "$dir/vmcore" --vmlinux "$dir/vmlinux" "-$opt" \
			>"$tmp/vm$opt" 2>"$tmp/vm$opt.err"; then
			kernel_and_summary "$tmp/vm$opt" >"$tmp/vmhead$opt"
			if cmp -s "$tmp/want$opt" "$tmp/vmhead$opt"; then
				pass "kstack --vmcore -$opt equals the guest's kstack -$opt"
			else
				fail "kstack --vmcore -$opt differs from the guest's:"
				diff -u "$tmp/want$opt" "$tmp/vmhead$opt" | head -20 | sed 's/^/  | /'
			fi
		elif grep -q 'no --vmcore mode' "$tmp/vm$opt.err"; then
			echo "SKIP: $kstack has no --vmcore mode"
		else
			fail "kstack --vmcore -$opt failed: $(head -2 "$tmp/vm$opt.err")"
		fi
	done
fi

# The guest's raw kernel files agree with its kstack output too.
for pair in "K kprobes-list.txt" "F enabled_functions.txt"; do
	set -- $pair
	if [ -f "$dir/live/$2" ]; then
		sed '/^== summary$/,$d' "$tmp/got$1" >"$tmp/lines$1"
		if cmp -s "$dir/live/$2" "$tmp/lines$1"; then
			pass "crash kstack -$1 lines equal the guest's $2"
		else
			fail "crash kstack -$1 lines differ from the guest's $2"
			diff -u "$dir/live/$2" "$tmp/lines$1" | head -20 | sed 's/^/  | /'
		fi
	fi
done

# -v: handlers for every probe, no probe whose code is missing.
nprobes=$(sed '/^== summary$/,$d' "$tmp/gotK" | wc -l)
nhandlers=$(grep -c '^    pre_handler: ' "$tmp/KV")
if [ "$nprobes" -eq "$nhandlers" ]; then
	pass "-K -v names the handlers of all $nprobes probes"
else
	fail "-K -v: $nhandlers handler lines for $nprobes probes"
fi
if grep -q 'NOT IN PLACE' "$tmp/KV"; then
	fail "-K -v finds a probe whose code is not in place:"
	grep -B3 'NOT IN PLACE' "$tmp/KV" | sed 's/^/  | /'
else
	pass "-K -v finds every armed probe's code in place"
fi
# a scenario that traced nothing (locks) has no ops with a filter
if [ ! -s "$dir/live/enabled_functions.txt" ]; then
	if grep -q '^0 functions enabled: ' "$tmp/FV" && grep -q '^== ftrace_ops$' "$tmp/FV"; then
		pass "-F -v: no function enabled, as the guest's enabled_functions had none"
	else
		fail "-F -v does not say that no function is enabled, as the guest's enabled_functions"
	fi
elif grep -q '^== ftrace_ops$' "$tmp/FV" && grep -q '^    filter (' "$tmp/FV"; then
	pass "-F -v lists the ftrace_ops with their hashes"
else
	fail "-F -v has no ftrace_ops section"
fi

# The test module, when the scenario loaded it (its ftrace_ops then shows
# in the guest's enabled_functions, or, where the kernel names no owner
# there (arm64 has no ftrace trampolines), its probe in the guest's
# kprobes/list; being built is not being loaded).
if grep -q '\[kshook\]' "$dir/live/enabled_functions.txt" 2>/dev/null ||
	grep -Eq '^[0-9a-f]{16}  [kr]  kshook_pre\+0x[0-9a-f]+  kshook ' "$dir/live/kprobes-list.txt" 2>/dev/null; then
	for h in kshook_pre kshook_post kshook_ret; do
		if grep -q "$h+0x0/0x[0-9a-f]* \[kshook\]" "$tmp/KV"; then
			pass "-K -v names $h [kshook]"
		else
			fail "-K -v does not name $h [kshook]"
		fi
	done
	if grep -q '^handler owners: .*kshook (' "$tmp/KV"; then
		pass "-K summary names kshook as a handler owner"
	else
		fail "-K summary does not name kshook"
	fi
	if grep -q 'kshook_ftrace_func+0x0/0x[0-9a-f]* \[kshook\]' "$tmp/FV" &&
		grep -q 'IPMODIFY' "$tmp/FV"; then
		pass "-F -v shows kshook's IPMODIFY ftrace_ops"
	else
		fail "-F -v does not show kshook's ftrace_ops"
	fi
	# kshook leaves a kprobe in its own freed init text: the guest's list
	# names it from ftrace_mod_maps, and so must crash and --vmcore.  The
	# offset is +0x0 on 6.1 and +0x4 on 6.12, whose kprobes skip the
	# function's endbr64 (arch_adjust_kprobe_addr() with IBT).
	gone='^[0-9a-f]{16}  k  kshook_init_probed\+0x[0-9a-f]+  kshook \[GONE\]'
	if ! grep -Eq "$gone" "$dir/live/kprobes-list.txt"; then
		fail "the guest's kprobes/list has no GONE probe in kshook's freed init text"
	elif grep -Eq "$gone" "$tmp/K" && grep -Eq "$gone" "$tmp/vmK"; then
		pass "-K names the GONE probe in freed init text as the kernel does:" \
			"$(grep -E "$gone" "$tmp/K")"
	else
		fail "-K does not name the GONE probe in kshook's freed init text:"
		grep -E ' \[GONE\]' "$tmp/K" "$tmp/vmK" | sed 's/^/  | /'
	fi
	if grep -q 'direct-->kshook_direct_tramp' "$dir/live/enabled_functions.txt"; then
		if grep -q '^handler owners: .*kshook_direct_tramp' "$tmp/F"; then
			pass "-F names kshook's direct trampoline as a hook owner"
		else
			fail "-F does not name kshook's direct trampoline"
		fi
	fi
elif [ "$(sed -n 's/^scenario: //p' "$dir/manifest")" = hooks ]; then
	fail "the hooks scenario's dump has no kshook module in live/kstack-K.txt"
else
	not_applicable "the $(sed -n 's/^scenario: //p' "$dir/manifest") scenario does not load the kshook module"
fi
finish

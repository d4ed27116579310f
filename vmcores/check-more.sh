#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-more: the vmcore tests against more kernels than `make check`
# reads: other flavours exercise other configs, module sets and layouts.
# By default every vmcore test on the basic and hooks dumps of 6.12, 5.10
# and 7.2, on 6.1's hooks and locks dumps (make check runs only the
# suites of their scenario there) and on the locks dumps of 6.12 and
# 6.1 PREEMPT_RT: the dumps make check made before it had to fit in 40
# minutes.  Then the 6.1 generic kernel, the 6.12 PREEMPT_RT kernel, the
# 6.12 cloud kernel, 7.2's locks (first_waiter, task->blocker) and
# trixie's 6.12, and arm64's hooks on 6.1 and 6.12 (qemu-system-aarch64;
# make check makes and checks their basic dumps).  The cloud kernel has no
# qemu_fw_cfg, so only the kdump
# path can give its dump a VMCOREINFO, and as a copy of /proc/vmcore
# ("elf"): Debian 12's makedumpfile 1.7.2 does not know 6.12's page types
# and leaves pages in use out of its dump.
#
# KSTACK_MORE        "FLAVOUR:SCENARIO[:DUMP_LEVEL[:DIR]] ..." (default
#                    "6.12:basic::612-basic ... generic:basic 6.12-rt:basic
#                    6.12-cloud:kdump:elf 7.2:locks 6.12+deb13:basic
#                    cloud-arm64:hooks::arm64-hooks
#                    6.12-cloud-arm64:hooks::arm64-612-hooks");
#                    FLAVOUR is any
#                    make-vmcore KERNEL_PACKAGE, DUMP_LEVEL makedumpfile's -d
#                    or "elf" (a copy of /proc/vmcore) for a kdump scenario,
#                    DIR the folder under cache/vmcores (default
#                    SCENARIO-FLAVOUR[-dDUMP_LEVEL]): the make targets' own
#                    (make vmcore-612, vmcore-arm64-hooks, ...)
# KSTACK_MORE_FLAVOUR  one flavour with the basic scenario (the old knob)
# KSTACK_MORE_DIR    the output folder when one pair is asked for
# KSTACK_MORE_DIE    "FLAVOUR:SCENARIO:DIR ..." of dumps that die, checked as
#                    make check's vmcore-die are (default none: make check
#                    makes every dump that dies, arm64's too)
# KSTACK_CRASH9_DIE_DIRS  make check's dumps that die read in crash 9.0.2
#                    (default 612-oops 612-nmi 72-oops 72-nmi)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -n "${KSTACK_MORE_FLAVOUR:-}" ]; then
	pairs="$KSTACK_MORE_FLAVOUR:basic"
else
	pairs=${KSTACK_MORE:-"6.12:basic::612-basic 6.12:hooks::612-hooks 5.10:basic::510-basic
		5.10:hooks::510-hooks 7.2:basic::72-basic 7.2:hooks::72-hooks default:hooks::hooks
		default:locks::locks 6.12:locks::612-locks rt:locks::rt-locks
		generic:basic 6.12-rt:basic 6.12-cloud:kdump:elf 7.2:locks 6.12+deb13:basic
		cloud-arm64:hooks::arm64-hooks 6.12-cloud-arm64:hooks::arm64-612-hooks"}
fi

# The guest's live capture needs the static tool; a missing one only costs
# kstack-a.txt, which the tests report as a SKIP.  An arm64 guest's is
# cross-built (make static-arm64).
make -s -C "$top" static >/dev/null 2>&1 ||
	echo "check-more: make static failed; the vmcores are made without the live tool" >&2
case $pairs in
*arm64*)
	make -s -C "$top" static-arm64 >/dev/null 2>&1 ||
		echo "check-more: make static-arm64 failed; the arm64 vmcores are made without the live tool" >&2
	;;
esac
# The hooks walkers on each dump, against the guest's own -K and -F.
hooks_unit=$top/build/tests/test_hooks_vmcore
make -s -C "$top" "${hooks_unit#"$top"/}" >/dev/null ||
	echo "check-more: cannot build $hooks_unit" >&2

failed=0
ran=0
for pair in $pairs; do
	IFS=: read -r flavour scenario level name <<<"$pair"
	out=${KSTACK_MORE_DIR:-$top/cache/vmcores/${name:-$scenario-$flavour${level:+-d$level}}}
	if ! VMCORE_DUMP_LEVEL=$level "$top/vmcores/make-vmcore" "$flavour" "$scenario" "$out"; then
		echo "check-more: cannot make the $scenario vmcore of $flavour"
		failed=$((failed + 1))
		continue
	fi
	echo "=== test_hooks_vmcore on $out"
	ran=$((ran + 1))
	if ! KSTACK_VMCORE_DIR=$out "$hooks_unit"; then
		failed=$((failed + 1))
	fi
	for t in "$top"/tests/vmcore/*.sh; do
		echo "=== $(basename "$t") on $out"
		ran=$((ran + 1))
		if ! KSTACK_VMCORE_DIR=$out bash "$t"; then
			failed=$((failed + 1))
		fi
	done
done
# Dumps that die beyond make check's vmcore-die (5.10, 6.1, 6.12 and 7.2
# on x86-64, 6.1 and 6.12 on arm64), when asked for, with the tests
# tests/run-all.sh runs on make check's ("FLAVOUR:SCENARIO:DIR", as
# arm64_crash below).
die_more=${KSTACK_MORE_DIE:-}
die_tests="test_panic.sh test_panic_trace.sh test_log.sh test_cpus.sh test_triage.sh"
run_die_tests() {	# DIR [ENV=VALUE...]: the die tests on DIR; counts
	local d=$1
	shift
	for t in $die_tests; do
		echo "=== $t on $(basename "$d")${CRASH:+ with $CRASH}"
		ran=$((ran + 1))
		if ! env "$@" KSTACK_VMCORE_DIR="$d" bash "$top/tests/vmcore/$t"; then
			failed=$((failed + 1))
		fi
	done
}
for triple in $die_more; do
	IFS=: read -r flavour scenario d <<<"$triple"
	if ! "$top/vmcores/make-vmcore" "$flavour" "$scenario" "$top/cache/vmcores/$d"; then
		echo "check-more: cannot make the $scenario vmcore of $flavour"
		failed=$((failed + 1))
		continue
	fi
	run_die_tests "$top/cache/vmcores/$d"
done

# crash 9.0.2 (built once from sid's source, cached) with kstack.so built
# against its defs.h, on the dumps crash 8.0.2 cannot open and on those it
# can (the README's crash 9 column). Where crash 9 cannot open one either
# (7.2), the crash tests say N/A with crash's own reason.
crash_dirs=${KSTACK_CRASH9_DIRS:-"basic hooks 510-basic 510-hooks 612-basic 612-hooks 72-basic 72-hooks
	locks 612-locks"}
crash9_die_dirs=${KSTACK_CRASH9_DIE_DIRS:-"612-oops 612-nmi 72-oops 72-nmi"}
# The make target that makes cache/vmcores/DIR.
vmcore_target() {
	case $1 in
	basic) echo vmcore ;;
	*-basic) echo "vmcore-${1%-basic}" ;;
	*) echo "vmcore-$1" ;;
	esac
}
if [ "${KSTACK_CRASH9:-1}" != 0 ]; then
	if ! tree=$("$top/vmcores/build-crash"); then
		echo "check-more: cannot build crash 9.0.2"
		failed=$((failed + 1))
	elif ! make -s -C "$top" CRASH_SRC="$tree" extension >/dev/null; then
		echo "check-more: kstack.so does not build against $tree/defs.h"
		failed=$((failed + 1))
	else
		so=$top/build/$(basename "$tree")/kstack.so
		for d in $crash_dirs; do
			make -s -C "$top" "$(vmcore_target "$d")" >/dev/null ||
				{ failed=$((failed + 1)); continue; }
			for t in test_crash_kstack.sh test_crash_hooks.sh test_kdump_standalone.sh \
				test_last_ran.sh test_hooks_json.sh test_vmcore_pipeline.sh \
				test_waits.sh; do
				echo "=== $t on $d with crash 9.0.2"
				ran=$((ran + 1))
				if ! CRASH=$tree/crash KSTACK_SO=$so \
					KSTACK_VMCORE_DIR=$top/cache/vmcores/$d bash "$top/tests/vmcore/$t"; then
					failed=$((failed + 1))
				fi
			done
		done
		# the dumps that die, where crash 8.0.2 cannot open them
		for d in $crash9_die_dirs; do
			make -s -C "$top" "$(vmcore_target "$d")" >/dev/null ||
				{ failed=$((failed + 1)); continue; }
			CRASH=$tree/crash run_die_tests "$top/cache/vmcores/$d" \
				CRASH="$tree/crash" KSTACK_SO="$so"
		done
	fi
fi
# crash 9.0.2 built for the ARM64 target (crash's own "make target=ARM64",
# a tree of its own) with kstack.so built against its defs.h (-DARM64, the
# Makefile reads the target from the tree), on arm64 dumps made here:
# "FLAVOUR:SCENARIO:DIR" for make-vmcore, which reuses a complete DIR.
# No 6.12 hooks: crash 9.0.2 cannot open 6.12 arm64 dumps (its arm64
# walk knows no five-level tables; the basic one says N/A in crash's
# words, see vmcores/README.md).
arm64_crash=${KSTACK_CRASH9_ARM64:-"cloud-arm64:basic:arm64-basic 6.12-cloud-arm64:basic:arm64-612-basic
	cloud-arm64:hooks:arm64-hooks"}
if [ "${KSTACK_CRASH9:-1}" != 0 ] && [ -n "${arm64_crash// /}" ]; then
	if ! tree=$("$top/vmcores/build-crash" --target ARM64); then
		echo "check-more: cannot build crash 9.0.2 for ARM64"
		failed=$((failed + 1))
	elif ! make -s -C "$top" CRASH_SRC="$tree" extension >/dev/null; then
		echo "check-more: kstack.so does not build against $tree/defs.h (ARM64)"
		failed=$((failed + 1))
	elif ! make -s -C "$top" static-arm64 >/dev/null; then
		echo "check-more: make static-arm64 failed: no arm64 guest capture"
		failed=$((failed + 1))
	else
		so=$top/build/$(basename "$tree")/kstack.so
		for triple in $arm64_crash; do
			IFS=: read -r flavour scenario d <<<"$triple"
			out=$top/cache/vmcores/$d
			if ! "$top/vmcores/make-vmcore" "$flavour" "$scenario" "$out"; then
				echo "check-more: cannot make the $scenario vmcore of $flavour"
				failed=$((failed + 1))
				continue
			fi
			for t in test_crash_kstack.sh test_crash_hooks.sh test_kdump_standalone.sh; do
				echo "=== $t on $d with crash 9.0.2 (ARM64)"
				ran=$((ran + 1))
				if ! CRASH=$tree/crash KSTACK_SO=$so \
					KSTACK_VMCORE_DIR=$out bash "$top/tests/vmcore/$t"; then
					failed=$((failed + 1))
				fi
			done
		done
		# arm64's 6.1 dumps that die (make check's, made again if gone)
		for d in arm64-oops arm64-hung; do
			make -s -C "$top" "vmcore-$d" >/dev/null ||
				{ failed=$((failed + 1)); continue; }
			CRASH=$tree/crash run_die_tests "$top/cache/vmcores/$d" \
				CRASH="$tree/crash" KSTACK_SO="$so"
		done
	fi
fi
echo "check-more: $((ran - failed)) of $ran vmcore test scripts passed ($pairs)"
[ "$failed" -eq 0 ]

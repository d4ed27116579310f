# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# For test scripts that run crash on a vmcore: source it after check.sh.
#
# run_crash VMLINUX VMCORE CMDS OUT [SECONDS] runs crash with the
# extension under test.  `make check` builds kstack.so under ASan and
# UBSan, and an ASan-built shared object loads only into a process whose
# first library is the ASan runtime.  crash is not built that way, so the
# runtime the .so was linked against is preloaded into crash.  crash
# itself leaks and mixes new[] with free() (not our code): leak and
# alloc-dealloc checks are off there; every other ASan and UBSan report
# stops crash, and sanitizer_report finds it in the output.

# CRASH: the crash binary (default: crash on PATH, Debian 12's 8.0.2);
# vmcores/check-more.sh points it at crash 9 from vmcores/build-crash.
CRASH=${CRASH:-crash}

# crash_refused OUT DIR: crash did not open DIR's dump at all because it
# is too old for its kernel (crash 8.0.2 cannot read Linux 6.11+: it says
# the vmlinux and an ELF dump "do not match", or, when it missed the KASLR
# offset, that it "cannot determine base kernel version" after failing to
# read linux_banner, or that vmalloc_base is at an invalid address, and
# prints nothing at all for a compressed kdump file); prints an N/A line with the reason and returns 0, else 1.  Only a
# kernel that crash's version is known not to read is skipped: a refusal
# of a dump crash should read is a failure.
crash_refused() {
	local out=$1 dir=$2 release version
	release=$(sed -n 's/^release: //p' "$dir/manifest" 2>/dev/null)
	version=$("$CRASH" --version 2>/dev/null | awk '/^crash / { print $2; exit }')
	# crash 9.0.2 stops on 7.x's struct module (measured on 7.2.13:
	# "crash: invalid structure member offset: module_num_gpl_syms"): the
	# dump is there, crash cannot read its kind, so N/A with crash's words.
	local why
	# A crash built for x86_64 opens no arm64 dump ("machine type
	# mismatch"): N/A with crash's words, the dump is kstack --vmcore's.
	why=$(grep -m1 -A2 'WARNING: machine type mismatch:' "$out" | sed -n 's/^ *\([^ ].*: [A-Z0-9_]*\)$/\1/p' |
		tr '\n' ';' | sed 's/;$//; s/;/, /')
	if [ -n "$why" ]; then
		echo "N/A: crash ${version:-?} cannot open this dump ($why); kstack --vmcore reads it"
		return 0
	fi
	# crash 9.0.2's arm64 walk knows 3 or 4 levels with 4 KiB pages
	# (VM_L3_4K, VM_L4_4K in arm64.c): an arm64 kernel that runs 52-bit
	# virtual addresses with them (LPA2: Debian's 6.12 arm64 kernels on a
	# CPU with FEAT_LPA2) has five, and crash cannot translate one vmalloc
	# address: it stops on the first vmapped stack.
	why=$(sed -n 's/^crash: \(invalid kernel virtual address: .*\)$/\1/p' "$out" | head -n 1)
	if [ -n "$why" ] && [ "$(arm64_4k_va_bits "$dir/vmcore")" = 52 ]; then
		echo "N/A: crash ${version:-?} cannot open this dump (its arm64 kernel runs" \
			"52-bit virtual addresses with 4 KiB pages, five levels of page tables," \
			"and crash walks 3 or 4 with 4 KiB pages; crash: $why); kstack --vmcore reads it"
		return 0
	fi
	why=$(sed -n 's/^crash: \(invalid structure member offset: .*\)$/\1/p' "$out" | head -n 1)
	if [ -n "$why" ] && [ "${release%%.*}" -ge 7 ] 2>/dev/null; then
		echo "N/A: crash ${version:-?} cannot open this dump of Linux ${release:-?}" \
			"(crash: $why; 7.x needs a crash newer than 9.0.2); kstack --vmcore reads it"
		return 0
	fi
	# Which of these crash says depends on the dump's KASLR offset: on
	# 6.12 with one offset it reads vmalloc_base at a wrong address and
	# stops ("invalid kernel virtual address: ... type: \"vmalloc_base\"").
	grep -qE '^crash: (.* do not match!|cannot determine base kernel version|invalid kernel virtual address: .*type: "vmalloc_base")$' "$out" ||
		! grep -q '[^[:space:]]' "$out" || return 1
	too_new_for_crash "$release" "$version" || return 1
	echo "N/A: crash ${version:-?} cannot open this dump of Linux ${release:-?}" \
		"(crash needs 8.0.6 or later for 6.11+); kstack --vmcore reads it"
	return 0
}

# arm64_4k_va_bits VMCORE: the kernel virtual address bits an arm64 dump's
# VMCOREINFO says are in use (64 - TCR_EL1_T1SZ, else VA_BITS) when its
# pages are 4 KiB; nothing for another dump.  VMCOREINFO is in the notes
# at the start of the file (an ELF dump's, a compressed kdump's header).
arm64_4k_va_bits() {
	local info t1sz
	info=$(head -c 4194304 "$1" 2>/dev/null | tr -c '[:print:]' '\n' |
		grep -E '^(PAGESIZE|NUMBER\(TCR_EL1_T1SZ\)|NUMBER\(VA_BITS\))=')
	grep -qx 'PAGESIZE=4096' <<<"$info" || return 0
	t1sz=$(sed -n 's/^NUMBER(TCR_EL1_T1SZ)=//p' <<<"$info" | head -n 1)
	if [ -n "$t1sz" ]; then
		echo $((64 - t1sz))
	else
		sed -n 's/^NUMBER(VA_BITS)=//p' <<<"$info" | head -n 1
	fi
}

# too_new_for_crash RELEASE CRASH_VERSION: Linux 6.11+ with crash < 8.0.6
too_new_for_crash() {
	local IFS=.- k c
	read -r -a k <<<"$1"
	read -r -a c <<<"$2"
	[ "${k[0]:-0}" -gt 6 ] || { [ "${k[0]:-0}" -eq 6 ] && [ "${k[1]:-0}" -ge 11 ]; } ||
		return 1
	[ "${c[0]:-0}" -lt 8 ] ||
		{ [ "${c[0]:-0}" -eq 8 ] && [ "${c[1]:-0}" -eq 0 ] && [ "${c[2]:-0}" -lt 6 ]; }
}

# The ASan runtime a shared object needs, or nothing for a plain build.
asan_runtime() {
	ldd "$1" 2>/dev/null | awk '$1 ~ /^libasan\.so/ { print $3; exit }'
}

run_crash() {
	local vmlinux=$1 vmcore=$2 cmds=$3 out=$4 secs=${5:-600}
	local so=${KSTACK_SO:?KSTACK_SO names the extension} rt
	local -a env=(TZ=UTC)

	rt=$(asan_runtime "$so")
	if [ -n "$rt" ]; then
		env+=("LD_PRELOAD=$rt"
		      "ASAN_OPTIONS=detect_leaks=0:alloc_dealloc_mismatch=0:abort_on_error=0:halt_on_error=1"
		      "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
	fi
	timeout "$secs" env "${env[@]}" "$CRASH" -s "$vmlinux" "$vmcore" -i "$cmds" \
		</dev/null >"$out" 2>&1
}

# Prints the first sanitizer report in OUT (and succeeds) if there is one.
sanitizer_report() {
	grep -q -E '^==[0-9]+==ERROR: |: runtime error: ' "$1" || return 1
	grep -E -A 12 '^==[0-9]+==ERROR: |: runtime error: ' "$1" | head -n 24
}

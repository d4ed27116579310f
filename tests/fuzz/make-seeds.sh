#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Seeds too big to keep in git, made from the fixtures and a small
# kernel stand-in built here, into DIR/seeds/NAME (DIR is BUILD/fuzz);
# also the stand-in's vmlinux and module for fuzz_decode (DIR/decode-*).
#
# usage: tests/fuzz/make-seeds.sh DIR
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
dir=${1:?usage: $0 DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
seeds=$dir/seeds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$seeds" "$dir/decode-debug"
for name in tests/fuzz/fuzz_*.c; do
	mkdir -p "$seeds/$(basename "$name" .c)"
done

# decode's stand-in kernel, as tests/integration/test_decode.sh builds it
cp -r tests/fixtures/decode/src "$tmp/src"
(cd "$tmp/src" && gcc -g -O2 -fno-pie -no-pie -nostdlib -static \
	-Wl,-e,kernel_init -o "$dir/decode-vmlinux" init/main.c kernel/work.c &&
	gcc -g -O2 -c -o "$tmp/kstest_mod.ko" mod/kstest_mod.c)
mod=$dir/decode-debug/lib/modules/9.9.9-kstack-test/extra
mkdir -p "$mod"
cp "$tmp/kstest_mod.ko" "$mod/kstest-mod.ko"
nm -n "$dir/decode-vmlinux" >"$tmp/nm.txt"

# ELF: the stand-in without DWARF, and packed (-N) with _stext and _end
objcopy --strip-debug "$dir/decode-vmlinux" "$seeds/fuzz_elf_symtab/stand-in"
(cd "$tmp/src" && gcc -O2 -fno-pie -no-pie -nostdlib -static -Wl,-N \
	-Wl,--no-warn-rwx-segments -Wl,--build-id=none -Wl,-e,kernel_init \
	-Wl,--defsym=_stext=ext -o "$seeds/fuzz_elf_symtab/packed" \
	init/main.c kernel/work.c)

# decode: every function of the stand-in at a few offsets, as kstack prints them
nm -S "$tmp/kstest_mod.ko" >"$tmp/mod-nm.txt"
python3 tests/fuzz/make-seeds.py frames "$tmp/nm.txt" "$tmp/mod-nm.txt" \
	"$seeds/fuzz_decode/stand-in-frames"
cp tests/fixtures/decode/hung-sync-6.1.0-56-cloud.txt "$seeds/fuzz_decode/"

# BTF as gcc writes it (-gbtf): kernel-like types, and kstack's own
incs=$(find shared live -name '*.h' -printf '-I%h\n' | sort -u)
for src in tests/fuzz/btf-types.c live/proc/proc_tasks.c shared/kernel/arch/orc/orc_tables.c; do
	out=$seeds/fuzz_btf/$(basename "$src" .c)
	# shellcheck disable=SC2086 # one word per flag
	gcc -gbtf -O2 -D_GNU_SOURCE $incs -Itests/support -c "$src" \
		-o "$tmp/btf.o" 2>/dev/null &&
		objcopy --dump-section .BTF="$out" "$tmp/btf.o" 2>/dev/null ||
		rm -f "$out"
done

# kernel memory: recorded ORC stacks, kallsyms tables of the stand-in
for fx in tests/fixtures/orc/*.txt; do
	python3 tests/fuzz/make-seeds.py orc "$fx" "$seeds/fuzz_orc" 6
done
python3 tests/fuzz/make-seeds.py kallsyms "$tmp/nm.txt" \
	"$seeds/fuzz_kallsyms_mem"
python3 tests/fuzz/make-seeds.py kallsyms-scan "$tmp/nm.txt" \
	"$seeds/fuzz_kallsyms_scan"

# dumps: a small ELF core, and the first 64 KiB (headers and notes) of
# the basic vmcore when there is one (KSTACK_VMCORE_DIR)
python3 tests/fuzz/make-seeds.py dump "$seeds/fuzz_dump_open/small-core"
vmcore=${KSTACK_VMCORE_DIR:-cache/vmcores/basic}/vmcore
if [ -s "$vmcore" ]; then
	head -c 65536 "$vmcore" >"$seeds/fuzz_dump_open/basic-head"
fi

# /proc files of the fixture tree (comms with ')', newlines, tabs)
bash tests/fixtures/make-proc-tree.sh "$tmp/proc"
cp "$tmp/proc/stat" "$seeds/fuzz_proc_stat/proc-stat"
n=0
while IFS= read -r -d '' task; do
	n=$((n + 1))
	cp "$task/stat" "$seeds/fuzz_proc_stat/stat-$n"
	[ -f "$task/cmdline" ] && cp "$task/cmdline" "$seeds/fuzz_cmdline/cmdline-$n"
	[ -f "$task/cgroup" ] &&
		{ echo /system.slice/app.service; cat "$task/cgroup"; } \
			>"$seeds/fuzz_proc_status/cgroup-$n"
done < <(find "$tmp/proc" -name stat -path '*/[0-9]*' -printf '%h\0')

# trace_pipe, in each output form (the first byte), as our own event
for fx in tests/fixtures/snoop/*.txt; do
	for form in T A B C; do
		{ printf %s "$form"; sed 's/kstack_[0-9]*_0:/kstack_290_0:/' "$fx"; } \
			>"$seeds/fuzz_snoop_trace/$form-$(basename "$fx")"
	done
done

# text: the fixtures as they are
cp tests/fixtures/hooks/kprobes-list-*.txt \
	tests/fixtures/hooks/debugfs/kprobes/list \
	"$seeds/fuzz_kprobes/" 2>/dev/null || true
cp tests/fixtures/hooks/enabled_functions-*.txt \
	tests/fixtures/hooks/tracefs/enabled_functions "$seeds/fuzz_ftrace/"
cp tests/fixtures/hooks/proc/* "$seeds/fuzz_mountinfo/"

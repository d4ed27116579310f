#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make demo: the main job end to end.  First the live tool on this machine,
# then a real vmcore of a Debian kernel made in QEMU, read by the crash
# extension, and compared with what the live tool printed inside that guest
# just before the dump.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kstack=build/kstack
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "live: the kernel stack of this shell (kstack -p $$)"
"$kstack" -p $$

# head stops reading after 30 lines: on a busy machine kstack then dies
# of SIGPIPE, which pipefail would make the demo's failure.  Its output
# goes to a file first, and head reads that.
live=$(mktemp)
trap 'rm -f "$live"' EXIT

say "live: what are all tasks doing? (kstack -a -c, first 30 lines)"
"$kstack" -a -c >"$live" 2>/dev/null || true
head -30 "$live"

say "live: tasks stuck in D or running (kstack -D -R)"
if "$kstack" -D -R >"$live" 2>/dev/null; then
	head -30 "$live"
else
	echo "(none)"
fi

say "vmcore: make or reuse a dump of Debian's kernel in QEMU (make vmcore)"
make --no-print-directory vmcore
dir=cache/vmcores/basic
cat "$dir/manifest"

say "crash: extend build/kstack.so; kstack -a -H (first 40 lines)"
out=$(mktemp -d)
trap 'rm -rf "$out" "$live"' EXIT
# crash 8.0.2 warns at start-up that it cannot find these kernels' active
# tasks (the reason the extension walks them itself): each command writes
# to a file of its own so those warnings stay out of the way.
cat >"$out/cmds" <<CMDS
extend $top/build/kstack.so
kstack -a -H > $out/a.txt
kstack -K -v > $out/k.txt
kstack -F > $out/f.txt
quit
CMDS
TZ=UTC crash -s "$dir/vmlinux" "$dir/vmcore" -i "$out/cmds" </dev/null >"$out/crash.log" 2>&1 || true
head -40 "$out/a.txt"

say "crash: who hooked the kernel? kstack -K -v, then kstack -F"
cat "$out/k.txt" "$out/f.txt"

say "the same moment, as the live tool printed it inside the guest (first 40 lines)"
head -40 "$dir/live/kstack-a.txt"

say "does the dump say what the live system said? (running tasks set aside)"
if [ -x tests/vmcore/test_crash_kstack.sh ] || [ -f tests/vmcore/test_crash_kstack.sh ]; then
	KSTACK_VMCORE_DIR=$dir bash tests/vmcore/test_crash_kstack.sh | tail -5
fi

say "next: the tool is build/kstack here (make install puts kstack on PATH)"
echo "  build/kstack -a -c | head"
echo "  build/kstack --decode --vmlinux $dir/vmlinux $dir/live/kstack-a.txt | head"
echo "  crash> extend $top/build/kstack.so"

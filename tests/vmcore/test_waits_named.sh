#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --waits names two common waits (#40 item 6).  A vfork parent's child:
# every task in D of
# the dump whose stack waits in a vfork (wait_for_vfork_done(), or
# kernel_clone() on top where it is inlined; the basic
# scenario's vfork parent) waits for a "vfork completion" held by its
# child, and that child is the task the guest's /proc (live/proc/*/stat,
# captured before the dump) gave that parent as its PPID, alone.  A
# writer on a frozen filesystem: every task in D in percpu_rwsem_wait()
# waits for a "percpu_rwsem" that lies in "s_writers of ext4 ram0,
# frozen" where its captured command line writes under /mnt/frozen (the
# basic scenario mounts ext4 from /dev/ram0 there and fsfreezes it).
# With and without the vmlinux.  A dump with neither wait in D, or with
# no /proc capture: N/A, naming it.
# KSTACK_VMCORE_DIR picks the dump (default cache/vmcores/basic).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/basic}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -s "$dir/vmcore" ]; then
	skip "no vmcore in $dir (make vmcore): the vfork parent's wait not tested"
	finish
fi
if [ ! -d "$dir/live/proc" ]; then
	not_applicable "$dir has no /proc capture (live/proc): no truth for a vfork child"
	finish
fi
check_way() {	# WAY ARGS...: --json's waits_for of every vfork parent
	local way=$1
	shift
	if ! "$kstack" --vmcore "$dir/vmcore" "$@" -D --waits --json >"$tmp/w.json" 2>"$tmp/w.err"; then
		if grep -q 'no task matched the selection' "$tmp/w.err"; then
			not_applicable "$way: no task in D"
			return
		fi
		if grep -q 'not all of it could be read\|give its vmlinux' "$tmp/w.err"; then
			not_applicable "$way: $(head -n 1 "$tmp/w.err")"
			return
		fi
		fail "$way: kstack exited non-zero: $(head -c 300 "$tmp/w.err")"
		return
	fi
	count_checks < <(python3 - "$tmp/w.json" "$dir/live/proc" "$way" <<'PY'
import glob, json, sys
doc, proc, way = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
children = {}
for f in glob.glob(proc + "/*/stat"):
    try:
        s = open(f).read()
    except OSError:
        continue
    fields = s[s.rindex(")") + 2:].split()
    children.setdefault(int(fields[1]), []).append(int(s.split()[0]))
# wait_for_vfork_done() is inlined into kernel_clone() on some builds,
# where kernel_clone() sleeps for nothing else (arm64 vforks by clone())
def vfork_wait(stack):
    return any(f.startswith("wait_for_vfork_done") for f in stack) or \
        bool(stack and stack[0].startswith("kernel_clone+"))
parents = [t for g in doc["groups"] for t in g["tasks"] if vfork_wait(g["stack"])]
if not parents:
    print("N/A: %s: no task of the dump waits in a vfork" % way)
writers = [t for g in doc["groups"] for t in g["tasks"]
           if any(f.startswith("percpu_rwsem_wait") for f in g["stack"])]
if not writers:
    print("N/A: %s: no task of the dump waits in percpu_rwsem_wait()" % way)
for t in writers:
    w = t.get("waits_for") or {}
    try:
        cmd = open("%s/%d/cmdline" % (proc, t["pid"])).read().replace("\0", " ")
    except OSError:
        cmd = ""
    want = "s_writers of ext4 ram0, frozen" if "/mnt/frozen/" in cmd else None
    ok = w.get("kind") == "percpu_rwsem" and (want is None or w.get("where") == want)
    print("%s: %s: %d %s waits for %s in %r (the scenario's: %r)" %
          ("PASS" if ok else "FAIL", way, t["pid"], t["comm"], w.get("kind"), w.get("where"), want))
for t in parents:
    w = t.get("waits_for") or {}
    want = children.get(t["pid"], [])
    ok = w.get("kind") == "vfork completion" and len(want) == 1 and w.get("owner") == want[0]
    print("%s: %s: %d %s waits for %s held by %s; the capture's children of it: %s" %
          ("PASS" if ok else "FAIL", way, t["pid"], t["comm"], w.get("kind"), w.get("owner"), want))
PY
)
}
check_way "the dump alone"
[ -e "$dir/vmlinux" ] && check_way "with the vmlinux" --vmlinux "$dir/vmlinux"
finish

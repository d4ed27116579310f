#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The hooks scenario: every kind of kprobe and ftrace user kstack -K/-F must
# find, from the tracing interface and from a module. kprobe_events: a probe
# at a function entry (an ftrace site: [FTRACE]), a kretprobe, a probe inside
# a function (a plain int3, then [OPTIMIZED]) and one defined but never
# enabled ([DISABLED]); a function tracer filtered to three functions, one
# shared with the kretprobe; and the
# kshook module (vmcores/modules/kshook): a kprobe with pre and post handlers
# (through kprobe_ipmodify_ops), a kretprobe and its own IPMODIFY ftrace_ops.
# Runs as busybox sh inside the guest; see vmcores/README.md.
#
# Module probes: one on a kshook function (the list names the module), one
# on brd, which is then unloaded: its probe stays, [GONE]; and the one kshook
# puts on its own init text, [GONE] once that text is freed, which only
# ftrace_mod_maps names (kshook_init_probed+0x0  kshook).
#
#@ memory: 1024
#@ kernel-modules: brd
#@ require-modules: kshook
. "$SCENARIO_LIB"

add_test_kprobes hooks.sh
# A hook that has come and gone: touched_functions (6.4+) still lists
# vfs_statx, with a reference count of 0, and enabled_functions does not.
echo 'p:kstack_gone_hook vfs_statx' >>kprobe_events &&
	echo 1 >events/kprobes/kstack_gone_hook/enable &&
	echo 0 >events/kprobes/kstack_gone_hook/enable &&
	echo '-:kstack_gone_hook' >>kprobe_events ||
	echo "hooks.sh: no kprobe on vfs_statx"
[ -d events/kprobes/kstack_mid ] && echo 1 >events/kprobes/kstack_mid/enable
# vfs_read is also under the kretprobe: a record two ops share calls the
# list function, not a trampoline (the " ->" form of enabled_functions).
echo 'vfs_write ksys_write vfs_read' >set_ftrace_filter
echo function >current_tracer
# Where kprobes do not go through ftrace (arm64 has no KPROBES_ON_FTRACE)
# the probe above touched no ftrace record: the tracer takes vfs_statx
# and leaves it, which does.
if [ -r touched_functions ] && ! grep -q '^vfs_statx ' touched_functions; then
	echo vfs_statx >>set_ftrace_filter && echo '!vfs_statx' >>set_ftrace_filter ||
		echo "hooks.sh: the tracer did not take vfs_statx"
fi
cd /

# 7.x renamed do_unlinkat, do_mkdirat and do_rmdir to filename_*: kshook
# hooks whichever of the two the kernel has.
ksym() {
	for f; do
		grep -q " $f\$" /proc/kallsyms && { echo "$f"; return; }
	done
	echo "$1"
}
insmod /modules/kshook.ko kprobe_func="$(ksym do_unlinkat filename_unlinkat)" \
	kretprobe_func="$(ksym do_mkdirat filename_mkdirat)" \
	ftrace_func="$(ksym do_rmdir filename_rmdir)" || scenario_fail "insmod kshook"
cd /sys/kernel/tracing
echo 'p:kstack_mod kshook:kshook_pre' >>kprobe_events &&
	echo 1 >events/kprobes/kstack_mod/enable ||
	echo "hooks.sh: no kprobe on kshook_pre"
modprobe brd rd_nr=1 rd_size=1024 &&
	echo 'p:kstack_gone brd:brd_submit_bio' >>kprobe_events &&
	echo 1 >events/kprobes/kstack_gone/enable &&
	rmmod brd ||
	echo "hooks.sh: no gone probe on brd"
cd /
# Run the hooked functions once, so the handlers have something to count.
mkdir /tmp/kshook-dir && rmdir /tmp/kshook-dir
: >/tmp/kshook-file && rm /tmp/kshook-file

sleep 1000000 &
# The optimizer turns an int3 kprobe into a jump after a few jiffies.
sleep 1
scenario_ready

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The default vmcore scenario: one or more tasks in every state the kernel
# reports, the awkward names and command lines the text format must survive,
# and live kprobes, kretprobes and a filtered function tracer for the hooks
# views. Runs as busybox sh inside the guest; see vmcores/README.md.
#
#@ memory: 1024
# Three vCPUs, one taken offline at the end: its per-CPU kthreads are parked
# (P); the busy loop and the capture still have a CPU each.
#@ cpus: 3
#@ kernel-modules: brd crc32c_generic? ext4
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

# R: a busy loop. It owns one online vCPU, the capture runs on the other.
sh -c 'while :; do :; done' &
busy=$!

# S: plain sleepers in different places (nanosleep, pipe read, fifo open, wait4).
sleep 1000000 &
sleep 1000000 | cat &
mkfifo /run/fifo
cat /run/fifo &
sh -c 'sleep 1000000; echo never' &

# T: stopped by a signal.
sleep 1000000 &
stopped=$!
wait_exec "$stopped" sleep || scenario_fail "sleep did not start"
kill -STOP "$stopped"

# t: stopped under ptrace.
vmcore-helper traced &

# Z: a zombie whose parent never reaps it.
vmcore-helper hold -n 'zombie parent' -z &

# D (1): a vfork parent, in wait_for_vfork_done (TASK_KILLABLE).
vmcore-helper vfork &
vforker=$!

# D (2): a writer blocked on a frozen ext4 file system, in sb_start_write.
# busybox mke2fs makes ext2; the ext4 driver mounts it.
modprobe brd rd_nr=1 rd_size=16384 || scenario_fail "modprobe brd"
# ext4 and crc32c are built into the cloud kernel and modules in the generic
# one, where ext4 asks for crc32c through an alias busybox cannot resolve.
modprobe crc32c_generic 2>/dev/null
modprobe ext4 2>/dev/null
mke2fs -q /dev/ram0 >/dev/null || scenario_fail "mke2fs"
mkdir -p /mnt/frozen
mount -t ext4 /dev/ram0 /mnt/frozen || scenario_fail "mount ext4"
fsfreeze --freeze /mnt/frozen || scenario_fail "fsfreeze"
sh -c 'echo data >/mnt/frozen/file' &
writer=$!

# A process with many threads, thread names with spaces and parentheses.
vmcore-helper threads -n 'threads (64)' -t 'worker) (x' 64 &

# Names with spaces and parentheses, arguments with spaces, and a command line
# longer than a page (the kernel reads cmdline across page boundaries).
vmcore-helper hold -n 'a b (c) d)' 'arg with spaces' '(parens)' &
vmcore-helper hold -n ') (' &
# shellcheck disable=SC2046 # one argument per word is the point
vmcore-helper hold -n 'long cmdline' $(i=0; while [ $i -lt 400 ]; do
	printf 'argument-%04d ' $i; i=$((i + 1)); done) &

# kprobes: one at a function entry (an ftrace site, listed [FTRACE]), one
# kretprobe, one defined but never enabled ([DISABLED]), and one past the
# ftrace call (a plain int3, later [OPTIMIZED]); the offset probe is allowed
# to fail on a kernel whose vfs_read starts differently.
add_test_kprobes basic.sh
[ -d events/kprobes/kstack_mid ] && echo 1 >events/kprobes/kstack_mid/enable
# A function tracer limited to two functions: their records show up in
# enabled_functions next to the kprobes' ftrace records.
echo 'vfs_write ksys_write' >set_ftrace_filter
echo function >current_tracer
cd /

# Do not let the capture start before the sleepers are where they should be.
wait_state "$writer" D || scenario_fail "the writer on the frozen fs is not in D"
wait_state "$vforker" D || scenario_fail "the vfork parent is not in D"
wait_state "$stopped" T || scenario_fail "the stopped sleep is not in T"
wait_state "$busy" R || scenario_fail "the busy loop is not in R"
wait_comm_state tracee t || scenario_fail "the tracee is not in t"
wait_comm_state zombie-child Z || scenario_fail "the zombie is not in Z"
# P: the per-CPU kthreads of an offline CPU are parked (cpuhp/2, migration/2,
# ksoftirqd/2). The sleep also lets the kprobe optimizer turn the int3 probe
# into a jump, which takes a few jiffies.
echo 0 >/sys/devices/system/cpu/cpu2/online || scenario_fail "cannot offline cpu2"
sleep 1
scenario_ready

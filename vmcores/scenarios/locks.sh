#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The locks scenario: the kslock module (vmcores/modules/kslock) leaves
# kernel threads blocked on locks at addresses it prints: a mutex held by a
# sleeping thread, a chain of three (mutex, then an rwsem's writer), an
# ABBA deadlock, two readers behind an rwsem's writer, a semaphore, and a
# mutex in a slab cache of its own (kslock_cache), a second waiter of the
# simple mutex in S (mutex_lock_interruptible), a completion, a wait queue
# head in wait_event(), a page's lock, and a semaphore a sleeping thread
# took.
# Its "kslock:" lines are copied to the console, whence console.log keeps
# them for tests/vmcore/test_waits.sh to compare kstack --waits with; the
# guest's own kstack --waits, live through /proc/kcore, is kept in
# live/kstack-waits.{txt,json}.
# Runs as busybox sh inside the guest; see vmcores/README.md.
#
#@ memory: 1024
#@ require-modules: kslock
. "$SCENARIO_LIB"

insmod /modules/kslock.ko || scenario_fail "insmod kslock"
# Every waiter must be asleep on its lock before the capture.
for c in ksl_simple_wait ksl_chain_a ksl_chain_b ksl_abba_x ksl_abba_y \
	ksl_rw_reader1 ksl_rw_reader2 ksl_sem_wait ksl_heap_wait \
	ksl_compl_wait ksl_wq_wait ksl_page_wait ksl_sem_wait2; do
	wait_comm_state "$c" D || scenario_fail "$c is not in D"
done
wait_comm_state ksl_simple_intr S || scenario_fail "ksl_simple_intr is not in S"
# The readers, last to block, are queued once both are in D; a second more
# lets each thread's last switch settle.
sleep 1
dmesg | grep 'kslock: '
# kstack --waits on the running kernel (/proc/kcore), kept with the capture
mkdir -p /capture
/bin/kstack -a -H --waits >/capture/kstack-waits.txt 2>/capture/kstack-waits.err
/bin/kstack -a -H --waits --json >/capture/kstack-waits.json 2>>/capture/kstack-waits.err
scenario_ready

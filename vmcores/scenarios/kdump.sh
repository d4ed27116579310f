#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The real kdump path: this kernel loads a crash kernel with kexec-tools, the
# guest init makes the live capture and panics with sysrq-c, and makedumpfile
# in the capture kernel writes a compressed, filtered (-d 31) vmcore to a
# virtio disk. The capture kernel is the same vmlinuz; its initrd is a copy of
# this initramfs (init tells the two roles apart by /proc/vmcore).
#
#@ mode: kdump
#@ memory: 1024
#@ append: crashkernel=256M
#@ host-binaries: /sbin/kexec /usr/bin/makedumpfile
#@ dump-level: 31
#@ ready-timeout: 300
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

if [ ! -r /boot/vmlinuz ] || [ ! -r /boot/kdump-initrd.img ]; then
	scenario_fail "no /boot/vmlinuz or /boot/kdump-initrd.img in the initramfs"
fi
grep -q crashkernel= /proc/cmdline || scenario_fail "booted without crashkernel="
# One CPU and reset devices in the capture kernel: the usual kdump options,
# and irqpoll because interrupts routed to the dead CPU never arrive.
kexec -p /boot/vmlinuz --initrd=/boot/kdump-initrd.img \
	--append="console=ttyS0 loglevel=4 panic=-1 irqpoll nr_cpus=1 reset_devices" ||
	scenario_fail "kexec -p failed"
[ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ] || scenario_fail "no crash kernel loaded"

# Tasks in a few states, so that the filtered dump has something to show.
sleep 1000000 &
sleep 1000000 &
stopped=$!
wait_exec "$stopped" sleep || scenario_fail "sleep did not start"
kill -STOP "$stopped"
vmcore-helper vfork &
vforker=$!
vmcore-helper traced &
vmcore-helper hold -n 'zombie parent' -z &
vmcore-helper hold -n 'a b (c) d)' 'arg with spaces' &
vmcore-helper threads -n 'threads (16)' -t 'worker) (x' 16 &
wait_state "$vforker" D || scenario_fail "the vfork parent is not in D"
wait_state "$stopped" T || scenario_fail "the stopped sleep is not in T"
wait_comm_state tracee t || scenario_fail "the tracee is not in t"
wait_comm_state zombie-child Z || scenario_fail "the zombie is not in Z"
scenario_ready

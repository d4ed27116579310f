#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A guest that dies of an NMI: unknown_nmi_panic=1 makes an NMI nobody
# claims a panic, and make-vmcore sends QEMU's inject-nmi once the ksdie
# module (vmcores/modules/ksdie) says a CPU loops in the kernel with
# preemption off ("ksdie: spinning on CPU N").  The capture (live/) is
# taken before the trigger; console.log (printk.time=1 ignore_loglevel) is the truth
# tests/vmcore/test_panic.sh compares with.
#
#@ mode: die
#@ memory: 256
#@ cpus: 2
#@ append: printk.time=1 ignore_loglevel unknown_nmi_panic=1 panic=0 nmi_watchdog=0
#@ kernel-modules: pvpanic_mmio? pvpanic_pci?
#@ require-modules: ksdie
#@ capture-proc: no
#@ nmi-after: ksdie: spinning on CPU
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

# No pvpanic driver here: its notifier runs before panic() flushes the
# console, and an NMI's printk only reaches the console at that flush, so
# a pause there would leave console.log without the panic.  panic=0 keeps
# the CPU in panic()'s last loop; the host stops the VM once the console
# says "---[ end Kernel panic".
ksdie_setup nopvpanic
scenario_trigger 'echo spin 600 >/proc/ksdie'
scenario_ready

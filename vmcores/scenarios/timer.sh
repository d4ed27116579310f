#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A guest that dies of panic() in a timer callback, in softirq context.
# The ksdie module (vmcores/modules/ksdie) pulls the trigger; the panic
# pauses the VM through pvpanic for the dump.  The capture (live/) is
# taken before the trigger; console.log (printk.time=1 ignore_loglevel) is
# the truth tests/vmcore/test_panic.sh compares with.
#
#@ mode: die
#@ memory: 256
#@ cpus: 2
#@ append: printk.time=1 ignore_loglevel panic=0 nmi_watchdog=0
#@ kernel-modules: pvpanic_mmio? pvpanic_pci?
#@ require-modules: ksdie
#@ capture-proc: no
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

ksdie_setup
scenario_trigger 'echo timer >/proc/ksdie; sleep 30'
scenario_ready

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A guest that dies of an Oops in process context: the shell's write to
# /proc/ksdie stores through a NULL pointer in the ksdie module
# (vmcores/modules/ksdie), and oops=panic makes the Oops a panic, which
# pauses the VM through pvpanic for the dump.  The capture (live/) is taken
# before the trigger; console.log, printed with printk.time=1 and
# ignore_loglevel, is the truth tests/vmcore/test_panic.sh compares with.
#
#@ mode: die
#@ memory: 256
#@ cpus: 2
#@ append: printk.time=1 ignore_loglevel oops=panic panic=0 nmi_watchdog=0
#@ kernel-modules: pvpanic_mmio? pvpanic_pci?
#@ require-modules: ksdie
#@ capture-proc: no
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

ksdie_setup
scenario_trigger 'echo oops >/proc/ksdie'
scenario_ready

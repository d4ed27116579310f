#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A guest that dies of a hung task: the shell sleeps in D for good in the
# ksdie module, and with hung_task_panic=1 and a 2 s timeout khungtaskd
# panics.
# The ksdie module (vmcores/modules/ksdie) pulls the trigger; the panic
# pauses the VM through pvpanic for the dump.  The capture (live/) is
# taken before the trigger; console.log (printk.time=1 ignore_loglevel) is
# the truth tests/vmcore/test_panic.sh compares with.
#
#@ mode: die
#@ memory: 256
#@ cpus: 2
#@ append: printk.time=1 ignore_loglevel panic=0 nmi_watchdog=0 hung_task_panic=1
#@ kernel-modules: pvpanic_mmio? pvpanic_pci?
#@ require-modules: ksdie
#@ capture-proc: no
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

ksdie_setup
# khungtaskd reads its timeout at each check: 2 s, not the default 120
echo 2 >/proc/sys/kernel/hung_task_timeout_secs ||
	scenario_fail "no hung task detector"
scenario_trigger 'echo hung >/proc/ksdie'
scenario_ready

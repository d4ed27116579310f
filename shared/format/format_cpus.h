/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --cpus written: a block per CPU as the kernel writes a stack dump
 * ("CPU: N PID: P Comm: NAME", the registers, "Call Trace:" and its
 * lines), or with --json one object per CPU, a line each.
 */
#ifndef KS_FORMAT_CPUS_H
#define KS_FORMAT_CPUS_H

#include <stdbool.h>
#include <stdio.h>

#include "cpu_record.h"

/* One CPU's block (the triage's CPUs one by one): a line of JSON with json. */
void ks_format_cpu(FILE *out, const struct ks_cpus *cs, const struct ks_cpu *c,
		   bool json);
/* Returns 0, or -EIO when out failed. */
int ks_format_cpus(FILE *out, const struct ks_cpus *cs, bool json);

#endif /* KS_FORMAT_CPUS_H */

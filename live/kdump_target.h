/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libkdumpfile target behind struct ks_target (live/target_kdump.c):
 * a vmcore read with libkdumpfile, symbols and types from its vmlinux.
 * Not in the static build, which has no libkdumpfile.
 */
#ifndef KS_KDUMP_TARGET_H
#define KS_KDUMP_TARGET_H

#include <stdbool.h>

#include "target.h"

struct ks_kdump;

/*
 * Opens vmcore and vmlinux and checks that they belong together (the
 * vmlinux's linux_banner must be in the dump, KASLR-shifted).  Prints
 * the reason on stderr and returns -1 on failure.
 */
int ks_kdump_open(const char *vmcore, const char *vmlinux, bool verbose,
		  struct ks_kdump **kd_ret, struct ks_target *t_ret);
void ks_kdump_close(struct ks_kdump *kd);

#endif /* KS_KDUMP_TARGET_H */

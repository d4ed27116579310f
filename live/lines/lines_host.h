/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What shared/lines/lines.c needs from this host and does not read
 * itself: KSTACK_DEBUG_DIR, uname -r, and the running kernel's build ids.
 */
#ifndef KS_LINES_HOST_H
#define KS_LINES_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "lines.h"

/*
 * cfg for the debug files of vmlinux (NULL: those of the running kernel's
 * release, written into release, len bytes) under KSTACK_DEBUG_DIR;
 * running: the running kernel's, whose build ids the files must carry.
 */
void ks_lines_host_config(struct ks_lines_config *cfg, const char *vmlinux,
			  bool running, char *release, size_t len);

#endif /* KS_LINES_HOST_H */

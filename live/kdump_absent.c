// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The static binary that goes into vmcore guests is built without
 * libkdumpfile (-DKS_NO_KDUMP); --vmcore then says so instead of linking.
 */
#ifdef KS_NO_KDUMP
#include <stdio.h>

#include "target_kdump.h"

int ks_kdump_run(const struct ks_options *opts)
{
	(void)opts;
	fprintf(stderr, "kstack: this build has no --vmcore mode (built without libkdumpfile)\n");
	return 4;
}
#endif

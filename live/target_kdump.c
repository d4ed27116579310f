// SPDX-License-Identifier: GPL-2.0-or-later
/* Placeholder until --vmcore lands: fails loudly rather than pretending. */
#include <stdio.h>

#include "target_kdump.h"

int ks_kdump_run(const struct ks_options *opts)
{
	(void)opts;
	fprintf(stderr, "kstack: --vmcore is not available in this build\n");
	return 4;
}

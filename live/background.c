// SPDX-License-Identifier: GPL-2.0-or-later
/* Placeholder until background mode lands: fails loudly rather than pretending. */
#include <stdio.h>

#include "background.h"

int ks_background_run(const struct ks_options *opts)
{
	(void)opts;
	fprintf(stderr, "kstack: background mode is not available in this build\n");
	return 4;
}

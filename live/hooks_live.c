// SPDX-License-Identifier: GPL-2.0-or-later
/* Placeholder until -K/-F lands: fails loudly rather than pretending. */
#include <stdio.h>

#include "hooks_live.h"

int ks_hooks_live(const struct ks_options *opts)
{
	(void)opts;
	fprintf(stderr, "kstack: -K/-F is not available in this build\n");
	return 4;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "said.h"

void said_collect(void *arg, const char *msg)
{
	struct said *d = arg;
	size_t len = strlen(d->text);

	snprintf(d->text + len, sizeof(d->text) - len, "%s\n", msg);
	d->calls++;
}

void said_file(void *arg, const char *msg)
{
	fprintf(arg, "kstack: %s\n", msg);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "said.h"

void said_collect(void *arg, enum ks_say_level level, const char *text)
{
	struct said *d = arg;
	size_t len = strlen(d->text);

	(void)level;
	snprintf(d->text + len, sizeof(d->text) - len, "%s\n", text);
	d->calls++;
}

void said_file(void *arg, enum ks_say_level level, const char *text)
{
	(void)level;
	fprintf(arg, "kstack: %s\n", text);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>

#include "live_say.h"

void ks_live_vsay(const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "kstack: %s\n", msg);
}

void ks_live_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_live_vsay(fmt, ap);
	va_end(ap);
}

void ks_say_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void say_stderr(void *arg, enum ks_say_level level, const char *text)
{
	(void)arg;
	(void)level;
	fprintf(stderr, "kstack: %s\n", text);
}

const struct ks_reporter ks_live_reporter = { .say = say_stderr };

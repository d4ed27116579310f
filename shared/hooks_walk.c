// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobe and ftrace walkers share: how a complaint reaches the
 * caller's reporter.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks_walk.h"

#define MSG_PREFIX	"kstack: "

void ks_hooks_report_file(void *arg, const char *msg)
{
	fprintf(arg, MSG_PREFIX "%s\n", msg);
}

void ks_hooks_say(ks_report_fn report, void *arg, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!report)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	report(arg, msg);
}

/*
 * member_table.c writes its one complaint to a stream: catch it and hand
 * the message itself (without "kstack: " and the newline) to report.
 */
int ks_hooks_members(const struct ks_target *t,
		     const struct ks_member_spec *specs, size_t nr,
		     ks_report_fn report, void *arg)
{
	char *text = NULL, *msg;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		return ks_member_table_resolve(t, specs, nr, stderr);
	ret = ks_member_table_resolve(t, specs, nr, f);
	fclose(f);
	if (text && len) {
		msg = text;
		if (!strncmp(msg, MSG_PREFIX, strlen(MSG_PREFIX)))
			msg += strlen(MSG_PREFIX);
		msg[strcspn(msg, "\n")] = '\0';
		ks_hooks_say(report, arg, "%s", msg);
	}
	free(text);
	return ret;
}

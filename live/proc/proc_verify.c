// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One task's record against a full read of it (KSTACK_TEST_VERIFY_CACHE):
 * every field a format prints is compared.
 */
#include <stdio.h>
#include <string.h>

#include "proc_verify.h"

static bool str_differs(const char *what, const char *a, const char *b,
			char *buf, size_t len)
{
	if (!a)
		a = "";
	if (!b)
		b = "";
	if (!strcmp(a, b))
		return false;
	snprintf(buf, len, "%s: '%s' against a full read's '%s'", what, a, b);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = '|';
	return true;
}

static bool num_differs(const char *what, long long a, long long b, char *buf,
			size_t len)
{
	if (a == b)
		return false;
	snprintf(buf, len, "%s: %lld against a full read's %lld", what, a, b);
	return true;
}

bool ks_proc_task_differs(const struct ks_task *a, const struct ks_task *b,
			  char *buf, size_t len)
{
	char sa[2] = { a->state, 0 }, sb[2] = { b->state, 0 };

	return num_differs("tgid", a->tgid, b->tgid, buf, len) ||
	       str_differs("state", sa, sb, buf, len) ||
	       str_differs("comm", a->comm, b->comm, buf, len) ||
	       num_differs("start time", a->start_time, b->start_time, buf, len) ||
	       num_differs("has cpu", a->has_cpu, b->has_cpu, buf, len) ||
	       num_differs("cpu", a->cpu, b->cpu, buf, len) ||
	       str_differs("cmd", a->cmd, b->cmd, buf, len) ||
	       str_differs("stack", a->stack, b->stack, buf, len) ||
	       str_differs("note", a->note, b->note, buf, len) ||
	       num_differs("running", a->running, b->running, buf, len) ||
	       num_differs("switches", a->has_switches, b->has_switches, buf, len) ||
	       num_differs("nvcsw", (long long)a->nvcsw, (long long)b->nvcsw, buf, len) ||
	       num_differs("nivcsw", (long long)a->nivcsw, (long long)b->nivcsw, buf, len);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "task.h"

void ks_sample_init(struct ks_sample *s, time_t when, const char *host)
{
	memset(s, 0, sizeof(*s));
	s->when = when;
	if (host)
		strncpy(s->host, host, sizeof(s->host) - 1);
}

int ks_sample_add(struct ks_sample *s, struct ks_task *t)
{
	struct ks_task *n = ks_grow_min(s->tasks, &s->cap, s->nr_tasks + 1,
					sizeof(*n), 256);

	if (!n)
		return -ENOMEM;
	s->tasks = n;
	s->tasks[s->nr_tasks++] = *t;
	return 0;
}

void ks_sample_release(struct ks_sample *s)
{
	for (size_t i = 0; i < s->nr_tasks; i++) {
		free(s->tasks[i].cmd);
		free(s->tasks[i].stack);
		free(s->tasks[i].note);
	}
	free(s->tasks);
	s->tasks = NULL;
	s->nr_tasks = s->cap = 0;
}

char *ks_cmd_from_cmdline(const char *buf, size_t len, const char *comm)
{
	char *cmd;

	while (len && buf[len - 1] == '\0')
		len--;
	if (!len)
		return strdup(comm);
	cmd = malloc(len + 1);
	if (!cmd)
		return NULL;
	for (size_t i = 0; i < len; i++)
		cmd[i] = buf[i] ? buf[i] : ' ';
	cmd[len] = '\0';
	return cmd;
}

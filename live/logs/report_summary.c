// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -c's samples read back (shared/format/format_summary.c writes them):
 *
 *   93 tasks   States: S 92, D 1   e.g. 12 (sleep), 15 (sleep) ...
 *   [<0>] hrtimer_nanosleep+0x9e/0x170
 *   (a blank line)
 *
 * A group names its tasks' states by count and a few of them by PID
 * (all of them with --all).  The named PIDs are tasks of the sample when
 * the group is in one state, so that report can follow them from sample
 * to sample; in a group of mixed states which PID is in which state is
 * not written, so its tasks stay unnamed (counted, not followed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_parse.h"

#define MAX_STATES	16

struct counts {
	char state[MAX_STATES];
	unsigned long n[MAX_STATES];
	size_t nr;
	unsigned long total;
};

/* "   States: S 92, D 1" */
static int read_states(const char *line, struct counts *c)
{
	const char *p = strstr(line, "   States:");

	if (!p)
		return -EINVAL;
	p += strlen("   States:");
	while (*p == ' ' && p[1] && p[1] != ' ' && c->nr < MAX_STATES) {
		char *end;

		c->state[c->nr] = p[1];
		c->n[c->nr] = strtoul(p + 2, &end, 10);
		if (end == p + 2)
			return -EINVAL;
		c->total += c->n[c->nr++];
		p = end + (*end == ',');
	}
	return c->nr ? 0 : -EINVAL;
}

/* The end of "(comm)": the ')' before ", PID (", " ..." or the line's end. */
static const char *comm_end(const char *p)
{
	const char *q;

	for (q = strchr(p, ')'); q; q = strchr(q + 1, ')')) {
		if (!q[1] || !strcmp(q + 1, " ...") ||
		    (!strncmp(q + 1, ", ", 2) && q[3] >= '0' && q[3] <= '9'))
			return q;
	}
	return NULL;
}

/* One named task, "PID (comm)"; the next one's start or NULL. */
static const char *named_task(struct ks_rp_parser *p, const char *s,
			      char state, int *ret)
{
	struct ks_rp_task t = { .state = state, .weight = 1, .start = "?" };
	const char *end;
	char *q;
	long pid = strtol(s, &q, 10);

	if (q == s || strncmp(q, " (", 2) || !(end = comm_end(q + 2)))
		return NULL;
	if (!ks_rp_pid_valid(pid)) {
		p->nr_bad_pid++;
		return NULL;
	}
	t.pid = (int)pid;
	snprintf(t.cmd, sizeof(t.cmd), "%.*s", (int)(end - (q + 2)), q + 2);
	*ret = ks_rp_task_add(p, &t);
	return *ret || strncmp(end + 1, ", ", 2) ? NULL : end + 3;
}

/* The named tasks of a group in one state: how many were added. */
static unsigned long named_tasks(struct ks_rp_parser *p, const char *line,
				 char state, int *ret)
{
	const char *s = strstr(line, "   e.g. ");
	unsigned long n = 0;

	if (!s)
		s = strstr(line, "   all: ");
	if (!s)
		return 0;
	s += 8;
	while (s && !*ret) {
		size_t before = p->s.nr_tasks;

		s = named_task(p, s, state, ret);
		n += p->s.nr_tasks > before;
	}
	return n;
}

/* "N tasks   States: ...   e.g. ...": the group and its tasks. */
static int group_line(struct ks_rp_parser *p, const char *line)
{
	struct counts c = { .nr = 0 };
	unsigned long n, named = 0;
	int ret = 0;

	if (sscanf(line, "%lu task", &n) != 1 || read_states(line, &c) ||
	    c.total != n)
		return -EINVAL;
	ret = ks_rp_group_new(p);
	if (!ret && c.nr == 1)
		named = named_tasks(p, line, c.state[0], &ret);
	for (size_t i = 0; i < c.nr && !ret; i++) {
		struct ks_rp_task t = { .state = c.state[i], .weight = c.n[i],
					.start = "?" };

		if (c.nr == 1)
			t.weight -= named < t.weight ? named : t.weight;
		if (t.weight)
			ret = ks_rp_task_add(p, &t);
	}
	p->in_stack = true;
	return ret;
}

int ks_rp_summary_line(struct ks_rp_parser *p, const char *line)
{
	if (!*line) {
		ks_rp_group_close(p);
		return 0;
	}
	if (p->group_open)
		return ks_rp_group_frame(p, line, strlen(line));
	return group_line(p, line);
}

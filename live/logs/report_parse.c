// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnv1a.h"
#include "grow.h"
#include "report_parse.h"

#define HEADER		"zzz <"
#define FRAME		"[<"

uint64_t ks_rp_hash(const char *s, size_t len)
{
	return ks_fnv1a(KS_FNV1A_INIT, s, len);
}

/*
 * The header's time is the sampling host's local time with its zone's
 * abbreviation (format_text.c's strftime "%a %b %d %H:%M:%S %Z %Y"):
 * UTC and GMT are exact, any other zone is taken as this host's.
 */
int ks_rp_header_time(const char *line, time_t *t, char *host, size_t hlen)
{
	struct tm tm = { .tm_isdst = -1 };
	char zone[16];
	const char *p;
	int year, n = 0;

	if (strncmp(line, HEADER, strlen(HEADER)))
		return -EINVAL;
	p = strptime(line + strlen(HEADER), "%a %b %d %H:%M:%S", &tm);
	/* a forged year must not overflow tm_year: strftime's %Y has 4 digits */
	if (!p || sscanf(p, " %15s %d%n", zone, &year, &n) != 2 || year < 1 ||
	    year > 9999)
		return -EINVAL;
	tm.tm_year = year - 1900;
	p += n;
	if (!strncmp(p, " - ", 3))
		snprintf(host, hlen, "%s", p + 3);
	else
		*host = '\0';
	if (!strcmp(zone, "UTC") || !strcmp(zone, "GMT")) {
		tm.tm_isdst = 0;
		*t = timegm(&tm);
	} else {
		*t = mktime(&tm);
	}
	return *t == (time_t)-1 ? -EINVAL : 0;
}

void ks_rp_init(struct ks_rp_parser *p, ks_rp_sample_fn fn, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->ctx = ctx;
}

int ks_rp_group_new(struct ks_rp_parser *p)
{
	struct ks_rp_sample *s = &p->s;
	struct ks_rp_group *g;

	if (s->nr_groups == s->cap_groups) {
		size_t old = s->cap_groups;

		g = ks_grow(s->groups, &s->cap_groups, s->nr_groups + 1,
			    sizeof(*g));
		if (!g)
			return -ENOMEM;
		memset(g + old, 0, (s->cap_groups - old) * sizeof(*g));
		s->groups = g;
	}
	g = &s->groups[s->nr_groups++];
	g->len = 0;
	g->hash = 0;
	p->group_open = true;
	p->in_stack = false;
	return 0;
}

/* The PID set's slot for pid: its own, or the empty one it would take. */
static int *pid_slot(struct ks_rp_parser *p, int pid)
{
	size_t j = (size_t)pid & (p->nr_pid_slots - 1);

	while (p->pids[j] && p->pids[j] != pid)
		j = (j + 1) & (p->nr_pid_slots - 1);
	return &p->pids[j];
}

static int grow_pids(struct ks_rp_parser *p)
{
	size_t n = p->nr_pid_slots ? p->nr_pid_slots * 2 : 64;
	int *v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	free(p->pids);
	p->pids = v;
	p->nr_pid_slots = n;
	for (size_t i = 0; i < p->s.nr_tasks; i++)
		*pid_slot(p, p->s.tasks[i].pid) = p->s.tasks[i].pid;
	return 0;
}

/*
 * A PID listed twice in one sample (oled's "-p 11,11" does that) is one
 * task: the second listing would count as another sample of it.  1 if
 * pid was listed before in this sample, else 0 (and it is now), or
 * -ENOMEM.
 */
static int listed_before(struct ks_rp_parser *p, int pid)
{
	int *slot;

	if (pid <= 0)
		return 0;
	if ((p->s.nr_tasks + 1) * 2 > p->nr_pid_slots && grow_pids(p))
		return -ENOMEM;
	slot = pid_slot(p, pid);
	if (*slot)
		return 1;
	*slot = pid;
	return 0;
}

int ks_rp_task_add(struct ks_rp_parser *p, const struct ks_rp_task *k)
{
	struct ks_rp_sample *s = &p->s;
	struct ks_rp_task *t;
	int ret = listed_before(p, k->pid);

	if (ret)
		return ret < 0 ? ret : 0;
	if (!p->group_open || p->in_stack) {
		ret = ks_rp_group_new(p);
		if (ret)
			return ret;
	}
	if (s->nr_tasks == s->cap_tasks) {
		t = ks_grow(s->tasks, &s->cap_tasks, s->nr_tasks + 1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		s->tasks = t;
	}
	t = &s->tasks[s->nr_tasks++];
	*t = *k;
	t->group = s->nr_groups - 1;
	s->total += t->weight;
	if (t->state == 'D')
		s->nr_d += t->weight;
	return 0;
}

/* "PID: %5d   State: %2s   Start Time: %s %s   Cmd: %s" */
static int task_line(struct ks_rp_parser *p, const char *line)
{
	struct ks_rp_task t = { .weight = 1 };
	char state[4], day[11], clock[9];
	const char *cmd;
	long long pid;

	if (sscanf(line, "PID: %lld State: %3s Start Time: %10s %8s", &pid,
		   state, day, clock) != 4)
		return -EINVAL;
	/* counted but named by no PID, and the line said to be bad */
	if (!ks_rp_pid_valid(pid))
		p->nr_bad_pid++;
	else
		t.pid = (int)pid;
	t.state = state[0];
	snprintf(t.start, sizeof(t.start), "%s %s", day, clock);
	cmd = strstr(line, "   Cmd: ");
	snprintf(t.cmd, sizeof(t.cmd), "%s", cmd ? cmd + 8 : "");
	return ks_rp_task_add(p, &t);
}

int ks_rp_group_frame(struct ks_rp_parser *p, const char *line, size_t n)
{
	struct ks_rp_group *g = &p->s.groups[p->s.nr_groups - 1];
	char *nb;

	if (g->len + n + 2 > g->cap) {
		size_t cap = g->cap;

		nb = ks_grow(g->stack, &cap, g->len + n + 2, 1);
		if (!nb)
			return -ENOMEM;
		g->stack = nb;
		g->cap = cap;
	}
	memcpy(g->stack + g->len, line, n);
	g->len += n;
	g->stack[g->len++] = '\n';
	g->stack[g->len] = '\0';
	return 0;
}

static int frame_line(struct ks_rp_parser *p, const char *line)
{
	return ks_rp_group_frame(p, line, strlen(line));
}

void ks_rp_group_close(struct ks_rp_parser *p)
{
	struct ks_rp_group *g;

	if (!p->group_open)
		return;
	g = &p->s.groups[p->s.nr_groups - 1];
	if (!g->stack || !g->len) {
		/* an empty stack is a stack too: "" */
		if (frame_line(p, "") == 0)
			g->len = 0;
	}
	if (g->stack)
		g->stack[g->len] = '\0';
	g->hash = ks_rp_hash(g->stack, g->len);
	p->group_open = false;
	p->in_stack = false;
}

/* What the sample's arrays hold, in bytes. */
static size_t sample_bytes(const struct ks_rp_sample *s)
{
	size_t n = s->cap_groups * sizeof(*s->groups) +
		   s->cap_tasks * sizeof(*s->tasks);

	for (size_t i = 0; i < s->cap_groups; i++)
		n += s->groups[i].cap;
	return n;
}

static void release_sample(struct ks_rp_sample *s)
{
	for (size_t i = 0; i < s->cap_groups; i++)
		free(s->groups[i].stack);
	free(s->groups);
	free(s->tasks);
	s->groups = NULL;
	s->tasks = NULL;
	s->cap_groups = s->cap_tasks = 0;
}

/*
 * A sample counted is forgotten: its PIDs leave the set, and arrays grown
 * by a wide sample are freed (the next samples may be small ones).  The
 * set is emptied whole: emptying slot by slot would cut the probe chain
 * of a PID that collided with one emptied before it, which then stayed
 * in the set and was taken for a repeat in the next sample (its task
 * dropped, its group's lines said to be of no log).
 */
static void forget_sample(struct ks_rp_parser *p)
{
	struct ks_rp_sample *s = &p->s;

	if (p->nr_pid_slots)
		memset(p->pids, 0, p->nr_pid_slots * sizeof(*p->pids));
	if (p->nr_pid_slots > 1024) {
		free(p->pids);
		p->pids = NULL;
		p->nr_pid_slots = 0;
	}
	if (sample_bytes(s) > KS_RP_KEEP_BYTES)
		release_sample(s);
	s->nr_tasks = s->nr_groups = s->nr_d = s->total = 0;
	s->untimed = false;
	p->summary = false;
}

int ks_rp_flush(struct ks_rp_parser *p, bool hand_over)
{
	int ret = 0;

	ks_rp_group_close(p);
	if (p->in_sample && hand_over)
		ret = p->fn(&p->s, p->ctx);
	p->in_sample = false;
	forget_sample(p);
	return ret;
}

static int header_line(struct ks_rp_parser *p, const char *line)
{
	int ret = ks_rp_flush(p, true);

	if (ret)
		return ret;
	if (ks_rp_header_time(line, &p->s.time, p->s.host, sizeof(p->s.host))) {
		p->nr_bad++;
		return 0;
	}
	p->in_sample = true;
	return 0;
}

/* A line of a text sample. */
static int text_line(struct ks_rp_parser *p, const char *line)
{
	if (!*line) {
		if (p->in_stack)
			ks_rp_group_close(p);
		return 0;
	}
	if (!strncmp(line, "PID:", 4))
		return task_line(p, line);
	if (!strcmp(line, "Stack:") && p->group_open) {
		p->in_stack = true;
		return 0;
	}
	if (p->in_stack && !strncmp(line, FRAME, 2))
		return frame_line(p, line);
	return -EINVAL;
}

/* A -c sample: its "N tasks, M distinct stacks" line after the header. */
static bool summary_start(const struct ks_rp_parser *p, const char *line)
{
	unsigned long n;

	if (p->s.nr_groups || p->group_open)
		return false;
	return sscanf(line, "%lu task", &n) == 1 &&
	       strstr(line, " distinct stack");
}

int ks_rp_line(struct ks_rp_parser *p, const char *line)
{
	int ret;

	if (!strncmp(line, HEADER, strlen(HEADER)))
		return header_line(p, line);
	if (*line == '{')
		ret = ks_rp_json_line(p, line);
	else if (!p->in_sample)
		ret = ks_rp_folded_line(p, line);
	else if (p->summary)
		ret = ks_rp_summary_line(p, line);
	else if (summary_start(p, line))
		ret = 0, p->summary = true;
	else
		ret = text_line(p, line);
	if (ret == -EINVAL) {
		p->nr_bad++;
		ret = 0;
	}
	return ret;
}

int ks_rp_end(struct ks_rp_parser *p, bool torn)
{
	return ks_rp_flush(p, !torn);
}

void ks_rp_release(struct ks_rp_parser *p)
{
	release_sample(&p->s);
	free(p->pids);
	memset(p, 0, sizeof(*p));
}

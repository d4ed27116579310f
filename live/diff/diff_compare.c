// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two captures compared by stack signature: records in, records out,
 * nothing printed.  A task is known by its PID.  A task in R on either
 * side is set aside (counted): its stack was not stable when read, as
 * tests/lib/compare_capture.py sets such tasks aside.  The other tasks
 * are counted per signature on each side (the groups that appeared,
 * vanished, grew or shrank); a named task is one that moved, appeared or
 * vanished, or stayed in one signature: it ran in between when its
 * context switch counts, known on both sides, moved, and it is stuck
 * across both when they did not and that is a D or T stack.  A task
 * named on one side only appeared or vanished only where the other side
 * names every task: a -c capture names a few of each group and counts
 * the rest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* One side's named tasks by PID, and which of its tasks are set aside. */
struct side {
	const struct ks_diff_capture *c;
	const struct ks_diff_task **by_pid;
	size_t nr;
	bool *aside;
	bool all_named;		/* no task counted only (-c, --folded) */
};

static int by_pid(const void *x, const void *y)
{
	const struct ks_diff_task *a = *(const struct ks_diff_task *const *)x;
	const struct ks_diff_task *b = *(const struct ks_diff_task *const *)y;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int side_init(struct side *s, const struct ks_diff_capture *c,
		     struct ks_diff_result *r)
{
	s->c = c;
	s->nr = 0;
	s->all_named = true;
	s->by_pid = malloc((c->nr ? c->nr : 1) * sizeof(*s->by_pid));
	s->aside = calloc(c->nr ? c->nr : 1, sizeof(*s->aside));
	if (!s->by_pid || !s->aside)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr; i++) {
		const struct ks_diff_task *t = &c->tasks[i];

		if (t->pid > 0)
			s->by_pid[s->nr++] = t;
		else
			s->all_named = false;
		if (t->pid <= 0 && t->state == 'R')
			s->aside[i] = true, r->running += t->weight;
	}
	qsort(s->by_pid, s->nr, sizeof(*s->by_pid), by_pid);
	return 0;
}

static void side_release(struct side *s)
{
	free(s->by_pid);
	free(s->aside);
}

static int push(struct ks_diff_pair **v, size_t *nr,
		const struct ks_diff_task *a, const struct ks_diff_task *b,
		const char *stack)
{
	struct ks_diff_pair *n;

	/* 16 first, then a power of two is full: double it */
	if (!*nr || (*nr >= 16 && !(*nr & (*nr - 1)))) {
		n = realloc(*v, (*nr ? *nr * 2 : 16) * sizeof(**v));
		if (!n)
			return -ENOMEM;
		*v = n;
	}
	(*v)[(*nr)++] = (struct ks_diff_pair){ a, b, stack };
	return 0;
}

static const char *stack_of(const struct side *s, const struct ks_diff_task *t)
{
	return s->c->stacks[t->stack];
}

static void set_aside(struct side *s, const struct ks_diff_task *t)
{
	s->aside[t - s->c->tasks] = true;
}

static bool stopped_or_d(char state)
{
	return state == 'D' || state == 'T' || state == 't';
}

/* A PID on both sides, neither in R. */
static int both(struct ks_diff_result *r, const struct side *sb,
		const struct ks_diff_task *a,
		const struct ks_diff_task *b)
{
	if (strcmp(a->sig, b->sig))
		return push(&r->moved, &r->nr_moved, a, b, stack_of(sb, b));
	r->same++;
	if (!a->has_switches || !b->has_switches)
		return 0;
	if (stopped_or_d(a->state))
		r->switches_known++;
	/* one stack on both sides, yet it ran: compare_capture.py's "moved" */
	if (a->nvcsw != b->nvcsw || a->nivcsw != b->nivcsw)
		return push(&r->ran, &r->nr_ran, a, b, stack_of(sb, b));
	if (!stopped_or_d(a->state))
		return 0;
	return push(&r->stuck, &r->nr_stuck, a, b, stack_of(sb, b));
}

/* The named tasks, PID by PID. */
static int match(struct ks_diff_result *r, struct side *sa, struct side *sb)
{
	size_t i = 0, j = 0;
	int ret = 0;

	while (!ret && (i < sa->nr || j < sb->nr)) {
		const struct ks_diff_task *a = i < sa->nr ? sa->by_pid[i] : NULL;
		const struct ks_diff_task *b = j < sb->nr ? sb->by_pid[j] : NULL;

		if (a && b && a->pid != b->pid) {
			if (a->pid < b->pid)
				b = NULL;
			else
				a = NULL;
		}
		i += a != NULL;
		j += b != NULL;
		if ((a && a->state == 'R') || (b && b->state == 'R')) {
			r->running++;
			if (a)
				set_aside(sa, a);
			if (b)
				set_aside(sb, b);
		} else if (a && b) {
			ret = both(r, sb, a, b);
		} else if (a && sb->all_named) {
			ret = push(&r->vanished, &r->nr_vanished, a, NULL, stack_of(sa, a));
		} else if (b && sa->all_named) {
			ret = push(&r->appeared, &r->nr_appeared, NULL, b, stack_of(sb, b));
		}
	}
	return ret;
}

/* One task's count toward its signature on one side. */
struct count {
	const char *sig;
	const char *stack;
	char state;
	bool b;
	unsigned long weight;
};

static int by_sig(const void *x, const void *y)
{
	const struct count *a = x, *b = y;
	int d = strcmp(a->sig, b->sig);

	return d ? d : (int)a->b - (int)b->b;
}

static size_t counts_of(struct count *v, const struct side *s, bool b,
			unsigned long *total)
{
	size_t n = 0;

	for (size_t i = 0; i < s->c->nr; i++) {
		const struct ks_diff_task *t = &s->c->tasks[i];

		if (s->aside[i])
			continue;
		v[n++] = (struct count){ t->sig, stack_of(s, t), t->state, b,
					 t->weight };
		*total += t->weight;
	}
	return n;
}

static enum ks_diff_change change_of(unsigned long a, unsigned long b)
{
	if (!a)
		return KS_DIFF_APPEARED;
	if (!b)
		return KS_DIFF_VANISHED;
	return b > a ? KS_DIFF_GREW : KS_DIFF_SHRANK;
}

/* Runs of one signature into groups where the counts differ. */
static void fold_counts(struct ks_diff_result *r, const struct count *v,
			size_t n)
{
	for (size_t i = 0; i < n; ) {
		struct ks_diff_group g = { .sig = v[i].sig, .state = v[i].state };
		size_t k = i;

		for (; k < n && !strcmp(v[k].sig, v[i].sig); k++) {
			/* A's come first: B's stack, where it has one, last */
			if (v[k].b)
				g.b += v[k].weight;
			else
				g.a += v[k].weight;
			if (v[k].b || !g.stack)
				g.stack = v[k].stack;
		}
		i = k;
		if (g.a == g.b)
			continue;
		g.change = change_of(g.a, g.b);
		r->groups[r->nr_groups++] = g;
	}
}

static unsigned long delta(const struct ks_diff_group *g)
{
	return g->a > g->b ? g->a - g->b : g->b - g->a;
}

/* By change, the biggest first, then by signature. */
static int group_order(const void *x, const void *y)
{
	const struct ks_diff_group *a = x, *b = y;
	unsigned long da = delta(a), db = delta(b);

	if (a->change != b->change)
		return (int)a->change - (int)b->change;
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->sig, b->sig);
}

static int groups(struct ks_diff_result *r, const struct side *sa,
		  const struct side *sb)
{
	size_t n = sa->c->nr + sb->c->nr;
	struct count *v = malloc((n ? n : 1) * sizeof(*v));

	r->groups = malloc((n ? n : 1) * sizeof(*r->groups));
	if (!v || !r->groups) {
		free(v);
		return -ENOMEM;
	}
	n = counts_of(v, sa, false, &r->a_total);
	n += counts_of(v + n, sb, true, &r->b_total);
	qsort(v, n, sizeof(*v), by_sig);
	fold_counts(r, v, n);
	qsort(r->groups, r->nr_groups, sizeof(*r->groups), group_order);
	free(v);
	return 0;
}

int ks_diff_compare(const struct ks_diff_capture *a,
		    const struct ks_diff_capture *b, struct ks_diff_result *r)
{
	struct side sa = { 0 }, sb = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	ret = side_init(&sa, a, r);
	if (!ret)
		ret = side_init(&sb, b, r);
	if (!ret)
		ret = match(r, &sa, &sb);
	if (!ret)
		ret = groups(r, &sa, &sb);
	r->changed = r->nr_groups || r->nr_moved || r->nr_appeared ||
		     r->nr_vanished;
	side_release(&sa);
	side_release(&sb);
	return ret;
}

void ks_diff_result_release(struct ks_diff_result *r)
{
	free(r->groups);
	free(r->moved);
	free(r->appeared);
	free(r->vanished);
	free(r->ran);
	free(r->stuck);
	memset(r, 0, sizeof(*r));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The root blocker (wait_root.h): each task's length to where its path
 * of owners ends, found once per task as wait_chains.c finds depths, so
 * that thousands of waiters on one long chain cost a pass, not a square.
 */
#include <errno.h>
#include <stdlib.h>

#include "wait_root.h"

#define NO_CYCLE	((size_t)-1)

struct paths {
	const size_t *next;
	const bool *outside;
	size_t nr;
	size_t *cycle_of;	/* the deadlock of c a task is in, or NO_CYCLE */
	size_t *len;		/* 0: not known yet */
	size_t *end;		/* the last task of its path, or one of a cycle */
	const struct ks_wait_chains *c;
};

static bool is_task(size_t next, size_t nr)
{
	return next != KS_WAIT_NONE && next != KS_WAIT_END && next < nr;
}

/* A path's last task: a task of a deadlock, or one that waits on no task. */
static bool terminal(const struct paths *p, size_t i)
{
	return p->cycle_of[i] != NO_CYCLE || !is_task(p->next[i], p->nr);
}

static void terminal_len(struct paths *p, size_t i)
{
	if (p->cycle_of[i] != NO_CYCLE)
		p->len[i] = p->c->v[p->cycle_of[i]].nr;
	else
		p->len[i] = 1 + (p->outside && p->outside[i]);
	p->end[i] = i;
}

/* len[] and end[] of every task, each path walked once */
static void find_lengths(struct paths *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		size_t j = i, n = 0;

		while (!p->len[j] && !terminal(p, j) && n < p->nr) {
			j = p->next[j];
			n++;
		}
		if (!p->len[j])
			terminal_len(p, j);
		for (size_t k = 0, t = i; k < n; k++, t = p->next[t]) {
			p->len[t] = p->len[j] + n - k;
			p->end[t] = p->end[j];
		}
	}
}

static void pick(struct paths *p, struct ks_wait_root *r)
{
	for (size_t i = 0; i < p->c->nr; i++) {
		const struct ks_wait_chain *ch = &p->c->v[i];
		size_t head = ch->task[0], end;
		size_t len = ch->deadlock ? ch->nr : p->len[head];

		if (r->found && len <= r->length)
			continue;
		end = p->end[head];
		*r = (struct ks_wait_root){ .found = true, .length = len,
					    .chain = i, .task = end };
		if (ch->deadlock || p->cycle_of[end] != NO_CYCLE) {
			r->deadlock = true;
			r->chain = ch->deadlock ? i : p->cycle_of[end];
		} else {
			r->beyond = p->outside && p->outside[end];
		}
	}
}

int ks_wait_root_find(const struct ks_wait_chains *c, const size_t *next,
		      const bool *outside, size_t nr, struct ks_wait_root *r)
{
	size_t n = nr ? nr : 1;
	struct paths p = { next, outside, nr, malloc(n * sizeof(size_t)),
			   calloc(n, sizeof(size_t)), malloc(n * sizeof(size_t)),
			   c };
	int ret = -ENOMEM;

	*r = (struct ks_wait_root){ 0 };
	if (!p.cycle_of || !p.len || !p.end)
		goto out;
	for (size_t i = 0; i < nr; i++)
		p.cycle_of[i] = NO_CYCLE;
	for (size_t i = 0; i < c->nr && c->v[i].deadlock; i++)
		for (size_t j = 0; j < c->v[i].nr; j++)
			p.cycle_of[c->v[i].task[j]] = i;
	find_lengths(&p);
	pick(&p, r);
	ret = 0;
out:
	free(p.cycle_of);
	free(p.len);
	free(p.end);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_stuck.h"

int ks_rp_stuck_init(struct ks_rp_stuck *st, size_t max)
{
	memset(st, 0, sizeof(*st));
	st->max = max;
	st->nr_slots = 1024;
	st->open = calloc(st->nr_slots, sizeof(*st->open));
	st->kept = calloc(max ? max : 1, sizeof(*st->kept));
	return st->open && st->kept ? 0 : -ENOMEM;
}

/* a before b in the report */
static bool better(const struct ks_rp_streak *a, const struct ks_rp_streak *b)
{
	bool ad = a->state == 'D', bd = b->state == 'D';

	if (ad != bd)
		return ad;
	if (a->last - a->first != b->last - b->first)
		return a->last - a->first > b->last - b->first;
	return a->pid < b->pid;
}

/* A streak that ended: kept if it spans two samples and ranks. */
static void keep(struct ks_rp_stuck *st, const struct ks_rp_streak *s)
{
	size_t worst = 0;

	if (s->samples < 2 || !st->max)
		return;
	if (st->nr_kept < st->max) {
		st->kept[st->nr_kept++] = *s;
		return;
	}
	for (size_t i = 1; i < st->nr_kept; i++)
		if (better(&st->kept[worst], &st->kept[i]))
			worst = i;
	if (better(s, &st->kept[worst]))
		st->kept[worst] = *s;
}

static int grow_open(struct ks_rp_stuck *st)
{
	size_t n = st->nr_slots * 2;
	struct ks_rp_streak *v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < st->nr_slots; i++) {
		size_t j;

		if (!st->open[i].pid)
			continue;
		for (j = (size_t)st->open[i].pid & (n - 1); v[j].pid;
		     j = (j + 1) & (n - 1))
			;
		v[j] = st->open[i];
	}
	free(st->open);
	st->open = v;
	st->nr_slots = n;
	return 0;
}

static struct ks_rp_streak *slot_of(struct ks_rp_stuck *st, int pid)
{
	size_t j = (size_t)pid & (st->nr_slots - 1);

	while (st->open[j].pid && st->open[j].pid != pid)
		j = (j + 1) & (st->nr_slots - 1);
	return &st->open[j];
}

static void start(struct ks_rp_streak *s, const struct ks_rp_task *t,
		  time_t when, size_t stack)
{
	s->pid = t->pid;
	memcpy(s->start, t->start, sizeof(s->start));
	memcpy(s->cmd, t->cmd, sizeof(s->cmd));
	s->state = t->state;
	s->first = s->last = when;
	s->samples = 1;
	s->stack = stack;
}

/*
 * The table's size for n open streaks: at most half full, at least 1024
 * slots.  Sized anew after every sample, so that after a wide sample the
 * small ones that follow walk a small table (end_absent walks it all).
 */
static size_t slots_for(size_t n)
{
	size_t slots = 1024;

	while ((n + 1) * 2 > slots)
		slots *= 2;
	return slots;
}

/*
 * Streaks of tasks absent from sample seq end; the others are put back
 * in a fresh table (removing from linear probing in place would cut
 * entries off from their home slot).
 */
static int end_absent(struct ks_rp_stuck *st, unsigned long seq)
{
	struct ks_rp_streak *old = st->open;
	size_t gone = 0, old_slots = st->nr_slots;

	for (size_t i = 0; i < old_slots; i++)
		if (old[i].pid && old[i].seen_seq != seq)
			gone++;
	if (!gone && slots_for(st->nr_open) == old_slots)
		return 0;
	st->nr_slots = slots_for(st->nr_open - gone);
	st->open = calloc(st->nr_slots, sizeof(*st->open));
	if (!st->open) {
		st->open = old;
		st->nr_slots = old_slots;
		return -ENOMEM;
	}
	st->nr_open = 0;
	for (size_t i = 0; i < old_slots; i++) {
		if (!old[i].pid)
			continue;
		if (old[i].seen_seq != seq) {
			keep(st, &old[i]);
			continue;
		}
		*slot_of(st, old[i].pid) = old[i];
		st->nr_open++;
	}
	free(old);
	return 0;
}

int ks_rp_stuck_sample(struct ks_rp_stuck *st, struct ks_rp_stacks *stacks,
		       const struct ks_rp_sample *s, unsigned long seq)
{
	for (size_t i = 0; i < s->nr_tasks; i++) {
		const struct ks_rp_task *t = &s->tasks[i];
		const struct ks_rp_group *g = &s->groups[t->group];
		struct ks_rp_stack *e;
		struct ks_rp_streak *o;
		size_t idx;

		if (t->pid <= 0)
			continue;
		e = ks_rp_stacks_get(stacks, g->hash, g->stack ? g->stack : "", g->len);
		if (!e)
			return -ENOMEM;
		idx = (size_t)(e - stacks->v);
		if ((st->nr_open + 1) * 2 > st->nr_slots && grow_open(st))
			return -ENOMEM;
		o = slot_of(st, t->pid);
		if (o->pid && o->stack == idx && !strcmp(o->start, t->start)) {
			o->last = s->time;
			o->samples++;
			if (t->state == 'D')
				o->state = 'D';
		} else {
			if (o->pid)
				keep(st, o);
			else
				st->nr_open++;
			start(o, t, s->time, idx);
		}
		o->seen_seq = seq;
	}
	return end_absent(st, seq);
}

static int cmp_streak(const void *a, const void *b)
{
	if (better(a, b))
		return -1;
	return better(b, a) ? 1 : 0;
}

void ks_rp_stuck_finish(struct ks_rp_stuck *st)
{
	for (size_t i = 0; i < st->nr_slots; i++)
		if (st->open[i].pid)
			keep(st, &st->open[i]);
	memset(st->open, 0, st->nr_slots * sizeof(*st->open));
	st->nr_open = 0;
	qsort(st->kept, st->nr_kept, sizeof(*st->kept), cmp_streak);
}

void ks_rp_stuck_release(struct ks_rp_stuck *st)
{
	free(st->open);
	free(st->kept);
	memset(st, 0, sizeof(*st));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Background mode's per-task stack memory (see proc_cache.h for why a
 * schedstat line that did not change vouches for a stack): two tables
 * keyed by TID, the last sample's and this one's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "proc_cache.h"

#define INDEX_MIN	1024

int ks_proc_parse_sched(const char *line, struct ks_sched *s)
{
	uint64_t v[3];
	const char *p = line;
	char *end;

	for (int i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno || *end != (i < 2 ? ' ' : '\n'))
			return -EINVAL;
		p = end + 1;
	}
	if (*p || !v[2])
		return -EINVAL;
	s->sum_exec_runtime = v[0];
	s->run_delay = v[1];
	s->pcount = v[2];
	return 0;
}

void ks_proc_cache_init(struct ks_proc_cache *c, size_t max_kept)
{
	memset(c, 0, sizeof(*c));
	c->max_kept = max_kept;
}

static void close_kept(struct ks_proc_cache *c, struct ks_proc_cache_entry *e,
		       enum ks_kept_file which)
{
	if (!e->kept[which])
		return;
	close(e->kept[which] - 1);
	e->kept[which] = 0;
	c->nr_kept--;
}

/* Empties t and keeps its room, so that a sample allocates nothing new. */
static void table_clear(struct ks_proc_cache *c, struct ks_proc_cache_table *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		free(t->entries[i].stack);
		for (int k = 0; k < KS_KEPT_NR; k++)
			close_kept(c, &t->entries[i], k);
	}
	t->nr = 0;
	if (t->index)
		memset(t->index, 0, t->index_cap * sizeof(*t->index));
}

static void table_free(struct ks_proc_cache *c, struct ks_proc_cache_table *t)
{
	table_clear(c, t);
	free(t->entries);
	free(t->index);
	memset(t, 0, sizeof(*t));
}

void ks_proc_cache_free(struct ks_proc_cache *c)
{
	table_free(c, &c->last);
	table_free(c, &c->cur);
}

/* The index slot holding tid, or the free one where it would go. */
static uint32_t *slot_of(const struct ks_proc_cache_table *t, int32_t tid)
{
	size_t mask = t->index_cap - 1;

	for (size_t i = ((uint32_t)tid * 2654435761u) & mask;; i = (i + 1) & mask) {
		uint32_t *s = &t->index[i];

		if (!*s || t->entries[*s - 1].tid == tid)
			return s;
	}
}

static struct ks_proc_cache_entry *find(const struct ks_proc_cache_table *t,
					int32_t tid)
{
	uint32_t *s;

	if (!t->index_cap)
		return NULL;
	s = slot_of(t, tid);
	return *s ? &t->entries[*s - 1] : NULL;
}

/* Room for one more entry, the index at most half full. */
static int table_reserve(struct ks_proc_cache_table *t)
{
	size_t cap = t->index_cap ? t->index_cap : INDEX_MIN;
	uint32_t *index;

	if (t->nr == t->entries_cap) {
		void *e = ks_grow_min(t->entries, &t->entries_cap, t->nr + 1,
				      sizeof(*t->entries), 256);

		if (!e)
			return -ENOMEM;
		t->entries = e;
	}
	while (cap < 2 * (t->nr + 1))
		cap *= 2;
	if (cap == t->index_cap)
		return 0;
	index = calloc(cap, sizeof(*index));
	if (!index)
		return -ENOMEM;
	free(t->index);
	t->index = index;
	t->index_cap = cap;
	for (size_t i = 0; i < t->nr; i++)
		*slot_of(t, t->entries[i].tid) = (uint32_t)i + 1;
	return 0;
}

/*
 * This sample's entry for tid started at start, holding the files the
 * last sample kept for that same task; NULL when out of memory.
 */
static struct ks_proc_cache_entry *carry(struct ks_proc_cache *c, int32_t tid,
					 unsigned long long start)
{
	struct ks_proc_cache_table *t = &c->cur;
	struct ks_proc_cache_entry *e = find(t, tid), *old;
	uint32_t *s;

	/* -p 5,6 -H where 6 is a thread of 5: seen twice */
	if (e && e->start == start)
		return e;
	if (e) {
		free(e->stack);
		for (int k = 0; k < KS_KEPT_NR; k++)
			close_kept(c, e, k);
		goto fill;
	}
	if (table_reserve(t))
		return NULL;
	s = slot_of(t, tid);
	*s = (uint32_t)++t->nr;
	e = &t->entries[*s - 1];
fill:
	memset(e, 0, sizeof(*e));
	e->tid = tid;
	e->start = start;
	old = find(&c->last, tid);
	if (old && old->start == start) {
		memcpy(e->kept, old->kept, sizeof(e->kept));
		memset(old->kept, 0, sizeof(old->kept));
	}
	return e;
}

static bool same_sched(const struct ks_sched *a, const struct ks_sched *b)
{
	return a->sum_exec_runtime == b->sum_exec_runtime &&
	       a->run_delay == b->run_delay && a->pcount == b->pcount;
}

const char *ks_proc_cache_take(struct ks_proc_cache *c, int32_t tid,
			       unsigned long long start,
			       const struct ks_sched *sched, size_t *len_ret)
{
	struct ks_proc_cache_entry *old = find(&c->last, tid), *e;

	if (!old || !old->stack || old->start != start ||
	    !same_sched(&old->sched, sched))
		return NULL;
	e = carry(c, tid, start);
	if (!e)
		return NULL;
	free(e->stack);
	e->sched = *sched;
	e->stack = old->stack;
	e->len = old->len;
	old->stack = NULL;
	*len_ret = e->len;
	return e->stack;
}

int ks_proc_cache_keep(struct ks_proc_cache *c, int32_t tid,
		       unsigned long long start, const struct ks_sched *sched,
		       const char *stack, size_t len)
{
	struct ks_proc_cache_entry *e;
	char *copy;

	if (!len)
		return 0;
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, stack, len);
	copy[len] = '\0';
	e = carry(c, tid, start);
	if (!e) {
		free(copy);
		return -ENOMEM;
	}
	free(e->stack);
	e->sched = *sched;
	e->stack = copy;
	e->len = len;
	return 0;
}

int ks_proc_cache_file(struct ks_proc_cache *c, int32_t tid,
		       unsigned long long start, enum ks_kept_file which)
{
	struct ks_proc_cache_entry *e;

	if (!c->max_kept)
		return -1;
	e = carry(c, tid, start);
	return e && e->kept[which] ? e->kept[which] - 1 : -1;
}

void ks_proc_cache_drop_file(struct ks_proc_cache *c, int32_t tid,
			     enum ks_kept_file which)
{
	struct ks_proc_cache_entry *e = find(&c->cur, tid);

	if (e)
		close_kept(c, e, which);
}

int ks_proc_cache_keep_file(struct ks_proc_cache *c, int32_t tid,
			    unsigned long long start, enum ks_kept_file which,
			    int fd)
{
	struct ks_proc_cache_entry *e;

	if (c->nr_kept >= c->max_kept)
		return -EMFILE;
	e = carry(c, tid, start);
	if (!e)
		return -ENOMEM;
	close_kept(c, e, which);
	e->kept[which] = fd + 1;
	c->nr_kept++;
	return 0;
}

void ks_proc_cache_end(struct ks_proc_cache *c)
{
	struct ks_proc_cache_table t = c->last;

	table_clear(c, &t);
	c->last = c->cur;
	c->cur = t;
}

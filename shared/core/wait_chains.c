// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chains and deadlocks of waits (wait_chains.h).  Each task waits for at
 * most one lock, and a lock records at most one owner, so the waits form
 * a graph where every task has at most one edge out: a cycle is found by
 * walking on from each task until a task of this walk comes back (a
 * deadlock) or one of an earlier walk or the end is reached.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "u64_map.h"
#include "wait_chains.h"

enum { UNSEEN, ON_PATH, DONE };

static bool waits(size_t next)
{
	return next != KS_WAIT_NONE;
}

static bool is_task(size_t next)
{
	return next != KS_WAIT_NONE && next != KS_WAIT_END;
}

static struct ks_wait_chain *chain_add(struct ks_wait_chains *c, size_t cap_nr)
{
	struct ks_wait_chain *v = ks_grow(c->v, &c->cap, c->nr + 1, sizeof(*v));

	if (!v)
		return NULL;
	c->v = v;
	v += c->nr;
	memset(v, 0, sizeof(*v));
	v->task = malloc(cap_nr * sizeof(*v->task));
	if (!v->task)
		return NULL;
	c->nr++;
	return v;
}

/* The cycle through start, begun at its oldest waiter: cycle_of marks it. */
static int add_cycle(const size_t *next, const uint64_t *age, size_t start,
		     size_t *cycle_of, struct ks_wait_chains *c)
{
	size_t oldest = start, i = start, n = 0;
	struct ks_wait_chain *ch;

	do {
		if (age[i] > age[oldest])
			oldest = i;
		n++;
		i = next[i];
	} while (i != start);
	ch = chain_add(c, n);
	if (!ch)
		return -ENOMEM;
	ch->deadlock = true;
	i = oldest;
	do {
		cycle_of[i] = c->nr - 1;
		ch->task[ch->nr++] = i;
		if (age[i] > ch->age)
			ch->age = age[i];
		i = next[i];
	} while (i != oldest);
	return 0;
}

static int find_cycles(const size_t *next, const uint64_t *age, size_t nr,
		       size_t *cycle_of, struct ks_wait_chains *c)
{
	unsigned char *mark = calloc(nr ? nr : 1, 1);
	size_t i, j;
	int ret = 0;

	if (!mark)
		return -ENOMEM;
	for (i = 0; i < nr && !ret; i++) {
		for (j = i; j < nr && mark[j] == UNSEEN; j = next[j]) {
			mark[j] = ON_PATH;
			if (!is_task(next[j]))
				break;
		}
		if (j < nr && mark[j] == ON_PATH && is_task(next[j]) &&
		    cycle_of[j] == KS_WAIT_NONE)
			ret = add_cycle(next, age, j, cycle_of, c);
		for (j = i; j < nr && mark[j] == ON_PATH; j = next[j]) {
			mark[j] = DONE;
			if (!is_task(next[j]))
				break;
		}
	}
	free(mark);
	return ret;
}

/* What building the chains keeps per task. */
struct walk {
	const size_t *next;
	const uint64_t *age;
	size_t nr;
	const size_t *cycle_of;
	size_t *chain_of;	/* the chain that showed the task first */
	size_t *depth;		/* tasks from it to where its chains end */
};

/* Where a chain ends whatever came before: a deadlock, or no next task. */
static bool terminal(const struct walk *w, size_t i)
{
	return w->cycle_of[i] != KS_WAIT_NONE || !is_task(w->next[i]);
}

/*
 * depth[] of every task, each walked once: a path is followed to a task
 * whose depth is known or to its end, then numbered back.  The paths
 * outside the deadlocks have no cycle, so each walk ends.
 */
static void find_depths(struct walk *w)
{
	for (size_t i = 0; i < w->nr; i++) {
		size_t j = i, n = 0, known;

		while (!w->depth[j] && !terminal(w, j) && n < w->nr) {
			j = w->next[j];
			n++;
		}
		known = w->depth[j] ? w->depth[j] : 1;
		w->depth[j] = known;
		for (size_t k = 0, t = i; k < n; k++, t = w->next[t])
			w->depth[t] = known + n - k;
	}
}

/* Whether the chain, shown tasks in, stops at i. */
static bool stops_at(const struct walk *w, size_t i, size_t shown)
{
	return terminal(w, i) || shown == w->nr ||
	       (shown > 1 && w->chain_of[i] != KS_WAIT_NONE &&
		w->depth[i] > KS_WAIT_SHARED_MAX);
}

/* The chain from head, a waiter nobody waits for, owner to owner. */
static int add_chain(struct walk *w, size_t head, struct ks_wait_chains *c)
{
	size_t n = 1, i = head;
	struct ks_wait_chain *ch;

	while (!stops_at(w, i, n)) {
		i = w->next[i];
		n++;
	}
	ch = chain_add(c, n);
	if (!ch)
		return -ENOMEM;
	ch->age = w->age[head];
	for (i = head;; i = w->next[i]) {
		ch->task[ch->nr++] = i;
		if (w->cycle_of[i] != KS_WAIT_NONE) {
			ch->into_deadlock = true;
			ch->deadlock_of = w->cycle_of[i];
			return 0;
		}
		if (ch->nr == n && !terminal(w, i) && ch->nr < w->nr) {
			ch->joins = true;
			ch->joins_of = w->chain_of[i];
			return 0;
		}
		if (w->chain_of[i] == KS_WAIT_NONE)
			w->chain_of[i] = c->nr - 1;
		if (waits(w->next[i]) && w->age[i] > ch->age)
			ch->age = w->age[i];
		if (ch->nr == n)
			return 0;
	}
}

static int by_age(const void *a, const void *b)
{
	const struct ks_wait_chain *x = a, *y = b;

	return x->age > y->age ? -1 : x->age < y->age;
}

/*
 * Deadlocks first, each group longest first; chains keep their deadlock
 * and the chain they join.
 */
static int sort_chains(struct ks_wait_chains *c, size_t nr_deadlocks)
{
	size_t *where = malloc((c->nr ? c->nr : 1) * sizeof(*where));
	size_t i, j;

	if (!where)
		return -ENOMEM;
	if (!c->nr)	/* c->v is NULL: qsort() wants a pointer */
		goto out;
	for (i = 0; i < nr_deadlocks; i++)
		c->v[i].deadlock_of = i;
	qsort(c->v, nr_deadlocks, sizeof(*c->v), by_age);
	for (i = 0; i < nr_deadlocks; i++)
		where[c->v[i].deadlock_of] = i;
	for (i = 0; i < nr_deadlocks; i++)
		c->v[i].deadlock_of = i;
	for (j = nr_deadlocks; j < c->nr; j++)
		if (c->v[j].into_deadlock)
			c->v[j].deadlock_of = where[c->v[j].deadlock_of];
	for (j = nr_deadlocks; j < c->nr; j++)
		c->v[j].built = j;
	qsort(c->v + nr_deadlocks, c->nr - nr_deadlocks, sizeof(*c->v), by_age);
	for (j = nr_deadlocks; j < c->nr; j++)
		where[c->v[j].built] = j;
	for (j = nr_deadlocks; j < c->nr; j++)
		if (c->v[j].joins)
			c->v[j].joins_of = where[c->v[j].joins_of];
out:
	free(where);
	return 0;
}

int ks_wait_chains_build(const size_t *next, const uint64_t *age, size_t nr,
			 struct ks_wait_chains *ret)
{
	size_t *cycle_of = malloc((nr ? nr : 1) * sizeof(*cycle_of));
	bool *waited = calloc(nr ? nr : 1, sizeof(*waited));
	struct walk w = { next, age, nr, cycle_of,
			  malloc((nr ? nr : 1) * sizeof(size_t)),
			  calloc(nr ? nr : 1, sizeof(size_t)) };
	size_t i, nr_deadlocks;
	int err = -ENOMEM;

	memset(ret, 0, sizeof(*ret));
	if (!cycle_of || !waited || !w.chain_of || !w.depth)
		goto out;
	for (i = 0; i < nr; i++) {
		cycle_of[i] = w.chain_of[i] = KS_WAIT_NONE;
		if (is_task(next[i]) && next[i] < nr)
			waited[next[i]] = true;
	}
	err = find_cycles(next, age, nr, cycle_of, ret);
	nr_deadlocks = ret->nr;
	find_depths(&w);
	for (i = 0; i < nr && !err; i++)
		if (waits(next[i]) && !waited[i] && cycle_of[i] == KS_WAIT_NONE)
			err = add_chain(&w, i, ret);
	if (!err)
		err = sort_chains(ret, nr_deadlocks);
	ret->nr_deadlocks = nr_deadlocks;
out:
	free(cycle_of);
	free(waited);
	free(w.chain_of);
	free(w.depth);
	if (err)
		ks_wait_chains_release(ret);
	return err;
}

/* The earlier chain that chain j folds into, or j itself. */
static size_t fold_into(const struct ks_wait_chains *c, size_t j,
			const struct ks_u64_map *first,
			const struct ks_wait_fold *f)
{
	const struct ks_wait_chain *ch = &c->v[j], *k;
	uint64_t key = f->key(f->arg, ch->task[0]), into;

	if (!key || !ks_u64_map_get(first, key, &into) || into == j)
		return j;
	k = &c->v[into];
	/* the same owner: the same next task, or both end at their lock */
	if ((k->nr > 1) != (ch->nr > 1) || (k->nr > 1 && k->task[1] != ch->task[1]) ||
	    !f->same(f->arg, k->task[0], ch->task[0]))
		return j;
	return into;
}

/*
 * Chain ch's head becomes one of k's other waiters.  Where ch shows more
 * of the way on (k stopped where ch had shown it: "as in chain N"), k
 * takes ch's way, so that what joins either still finds it shown.
 */
static int absorb(struct ks_wait_chain *k, struct ks_wait_chain *ch)
{
	size_t head = ch->task[0], *v;

	if (ch->nr > k->nr) {
		struct ks_wait_chain was = *k;

		ch->task[0] = was.task[0];
		k->task = ch->task;
		k->nr = ch->nr;
		k->joins = ch->joins;
		k->joins_of = ch->joins_of;
		k->into_deadlock = ch->into_deadlock;
		k->deadlock_of = ch->deadlock_of;
		/* freed with ch */
		ch->task = was.task;
		ch->nr = was.nr;
	}
	v = ks_grow(k->also, &k->cap_also, k->nr_also + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	k->also = v;
	v[k->nr_also++] = head;
	return 0;
}

/* Chain j's index once the chains folded away are gone: where[] */
static int fold_where(struct ks_wait_chains *c, const struct ks_wait_fold *f,
		      size_t *where)
{
	struct ks_u64_map first = { 0 };
	int ret = 0;

	for (size_t j = 0; j < c->nr && !ret; j++) {
		uint64_t key = f->key(f->arg, c->v[j].task[0]);

		where[j] = j;
		if (j < c->nr_deadlocks || !key)
			continue;
		ret = ks_u64_map_put(&first, key, j);
		if (!ret)
			where[j] = fold_into(c, j, &first, f);
	}
	for (size_t j = c->nr_deadlocks; j < c->nr && !ret; j++)
		if (where[j] != j)
			ret = absorb(&c->v[where[j]], &c->v[j]);
	ks_u64_map_release(&first);
	return ret;
}

int ks_wait_chains_fold(struct ks_wait_chains *c, const struct ks_wait_fold *f)
{
	size_t *where = malloc((c->nr ? c->nr : 1) * sizeof(*where));
	size_t kept = c->nr_deadlocks;
	int ret = -ENOMEM;

	if (!where)
		return ret;
	ret = fold_where(c, f, where);
	if (ret)
		goto out;
	/* keep the chains not folded, in order; number them anew */
	for (size_t j = c->nr_deadlocks; j < c->nr; j++) {
		if (where[j] != j) {
			/* its chain is earlier, and where[] has its new place */
			where[j] = where[where[j]];
			free(c->v[j].task);
			free(c->v[j].also);
			continue;
		}
		where[j] = kept;
		c->v[kept++] = c->v[j];
	}
	for (size_t j = c->nr_deadlocks; j < kept; j++)
		if (c->v[j].joins)
			c->v[j].joins_of = where[c->v[j].joins_of];
	c->nr = kept;
out:
	free(where);
	return ret;
}

void ks_wait_chains_release(struct ks_wait_chains *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].task);
		free(c->v[i].also);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

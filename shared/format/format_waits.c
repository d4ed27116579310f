// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --waits: the "== waits" section after the grouped stacks, who blocks
 * whom.  Deadlocks first, then chains, the longest wait first; one line
 * per edge, the waiter and the lock it waits for, and then the owner:
 *
 *   == waits
 *   deadlock 1, 2 tasks:
 *     301 abba_a D last ran 12.345s ago waits for mutex 0xffffffffc0a02000 ks_m1, held by 302
 *     302 abba_b D last ran 12.301s ago waits for mutex 0xffffffffc0a02040 ks_m2, held by 301
 *   chain 1, 4 tasks:
 *     201 chain_a D last ran 10.000s ago waits for mutex 0xffff888003a1c000, held by 202
 *     204 chain_d D last ran 8.000s ago waits for mutex 0xffff888003a1c000, held by 202
 *     202 chain_b D last ran 9.000s ago waits for rwsem 0xffff888003a1c100, held by 203
 *     203 chain_c S last ran 9.500s ago holds it
 *
 * The waiters of one lock whom nobody waits for (201 and 204) are one
 * chain, each on its line after the first (ks_wait_chains_fold()): one
 * holder, one chain.
 *
 * The time is how long ago the task last ran ("last ran ?" where the
 * dump does not tell); "held by readers (N)" for an rwsem its readers hold, "held
 * by N (last holder)" for a semaphore whose last_holder is kept (7.x),
 * "no owner" for a semaphore or a lock between owners, "no owner
 * recorded" for a wait queue, a completion, a folio's lock or a
 * percpu_rwsem, whose kernel keeps none; a vfork parent's completion is
 * "held by" its child; "no task waits for a lock" when none does, so the
 * section is always there to be read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "format_time.h"
#include "text_escape.h"
#include "wait_chains.h"

static void task_head(FILE *out, const struct ks_task *t)
{
	char a[KS_TIME_LEN];

	fprintf(out, "  %d ", t->pid);
	ks_fputs_escaped(t->comm, out);
	fprintf(out, " %c ", t->state);
	/* the time is the runqueue clock's since it last ran: say so */
	if (t->has_last_ran)
		fprintf(out, "last ran %s ago",
			ks_time_ms(a, sizeof(a), t->last_ran_ns));
	else
		fputs("last ran ?", out);
}

static void edge(FILE *out, const struct ks_task *t)
{
	const struct ks_task_wait *w = &t->wait;

	task_head(out, t);
	fprintf(out, " waits for %s %#llx", w->kind,
		(unsigned long long)w->addr);
	if (*w->where)
		fprintf(out, " %s", w->where);
	if (w->readers)
		fprintf(out, ", held by readers (%llu)\n",
			(unsigned long long)w->nr_readers);
	else if (w->owner_pid)
		fprintf(out, ", held by %d%s\n", w->owner_pid,
			w->last_holder ? " (last holder)" : "");
	else if (w->owner)
		fprintf(out, ", held by %#llx, no task of the dump\n",
			(unsigned long long)w->owner);
	else if (w->ownerless)
		fputs(", no owner recorded\n", out);
	else
		fputs(", no owner\n", out);
}

/* Task i's line of chain c: an edge, where it ends, or the holder. */
static void chain_line(FILE *out, const struct ks_sample *s,
		       const struct ks_wait_chain *c, size_t i,
		       size_t nr_deadlocks)
{
	const struct ks_task *t = &s->tasks[c->task[i]];
	bool last = i + 1 == c->nr;

	if (last && c->into_deadlock) {
		task_head(out, t);
		fprintf(out, " in deadlock %zu\n", c->deadlock_of + 1);
	} else if (last && c->joins) {
		task_head(out, t);
		fprintf(out, " waits on as in chain %zu\n",
			c->joins_of + 1 - nr_deadlocks);
	} else if (t->has_wait) {
		edge(out, t);
	} else {
		task_head(out, t);
		fputs(" holds it\n", out);
	}
}

/*
 * Chain n of its kind; chains are numbered after the nr_deadlocks.  The
 * other waiters for its first task's lock follow that task, each on its
 * own line, before the chain goes on to the lock's holder.
 */
static void chain(FILE *out, const struct ks_sample *s,
		  const struct ks_wait_chain *c, size_t n, size_t nr_deadlocks)
{
	size_t nr = c->nr + c->nr_also;

	fprintf(out, "%s %zu, %zu task%s:\n", c->deadlock ? "deadlock" : "chain",
		n, nr, nr == 1 ? "" : "s");
	for (size_t i = 0; i < c->nr; i++) {
		chain_line(out, s, c, i, nr_deadlocks);
		for (size_t j = 0; i == 0 && j < c->nr_also; j++)
			edge(out, &s->tasks[c->also[j]]);
	}
}

struct by_pid {
	int pid;
	size_t i;
};

static int cmp_pid(const void *a, const void *b)
{
	const struct by_pid *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * The sample index of each task's owner, as wait_chains.h wants it, by
 * PID (a live sample knows no task_struct), through the tasks sorted by
 * PID: a dump with thousands of waiters in 100,000 threads costs a
 * search each, not a pass.
 */
static int owners(const struct ks_sample *s, size_t *next)
{
	struct by_pid *v = malloc((s->nr_tasks ? s->nr_tasks : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_tasks; i++)
		v[i] = (struct by_pid){ s->tasks[i].pid, i };
	qsort(v, s->nr_tasks, sizeof(*v), cmp_pid);
	for (size_t i = 0; i < s->nr_tasks; i++) {
		const struct ks_task *t = &s->tasks[i];
		struct by_pid key = { t->wait.owner_pid, 0 }, *o;

		next[i] = t->has_wait ? KS_WAIT_END : KS_WAIT_NONE;
		if (!t->has_wait || t->wait.readers || !t->wait.owner_pid)
			continue;
		o = bsearch(&key, v, s->nr_tasks, sizeof(*v), cmp_pid);
		if (o)
			next[i] = o->i;
	}
	free(v);
	return 0;
}

/* The lock a task waits for, which the waiters of one lock share */
static uint64_t lock_key(void *arg, size_t i)
{
	const struct ks_task *t = &((const struct ks_sample *)arg)->tasks[i];

	return t->has_wait ? t->wait.addr : 0;
}

/* Two waiters of one lock whose lines would name one holder */
static bool same_wait(void *arg, size_t a, size_t b)
{
	const struct ks_sample *s = arg;
	const struct ks_task_wait *x = &s->tasks[a].wait, *y = &s->tasks[b].wait;

	return x->addr == y->addr && !strcmp(x->kind, y->kind) &&
	       !strcmp(x->where, y->where) && x->owner == y->owner &&
	       x->owner_pid == y->owner_pid && x->readers == y->readers &&
	       x->nr_readers == y->nr_readers &&
	       x->last_holder == y->last_holder && x->ownerless == y->ownerless;
}

int ks_sample_wait_chains(const struct ks_sample *s, size_t *next,
			  struct ks_wait_chains *c)
{
	const struct ks_wait_fold fold = { lock_key, same_wait, (void *)s };
	uint64_t *age = calloc(s->nr_tasks ? s->nr_tasks : 1, sizeof(*age));
	int ret = -ENOMEM;

	memset(c, 0, sizeof(*c));
	if (!age)
		return ret;
	ret = owners(s, next);
	if (ret)
		goto out;
	for (size_t i = 0; i < s->nr_tasks; i++)
		age[i] = s->tasks[i].has_last_ran ? s->tasks[i].last_ran_ns : 0;
	ret = ks_wait_chains_build(next, age, s->nr_tasks, c);
	if (!ret)
		ret = ks_wait_chains_fold(c, &fold);
	if (ret)
		ks_wait_chains_release(c);
out:
	free(age);
	return ret;
}

int ks_wait_chains_of(const struct ks_sample *s, struct ks_wait_chains *c)
{
	size_t *next = malloc((s->nr_tasks ? s->nr_tasks : 1) * sizeof(*next));
	int ret;

	if (!next) {
		memset(c, 0, sizeof(*c));
		return -ENOMEM;
	}
	ret = ks_sample_wait_chains(s, next, c);
	free(next);
	return ret;
}

int ks_format_waits(FILE *out, const struct ks_sample *s)
{
	size_t n = s->nr_tasks ? s->nr_tasks : 1, ch = 0;
	size_t *next = malloc(n * sizeof(*next));
	struct ks_wait_chains c = { 0 };
	int ret = -ENOMEM;

	if (!next)
		goto out;
	ret = ks_sample_wait_chains(s, next, &c);
	if (ret)
		goto out;
	fputs("== waits\n", out);
	if (s->waits_note)
		fprintf(out, "(%s)\n", s->waits_note);
	for (size_t i = 0; i < c.nr; i++)
		chain(out, s, &c.v[i], c.v[i].deadlock ? i + 1 : ++ch,
		      c.nr_deadlocks);
	if (!c.nr && !s->waits_unread)
		fputs("no task waits for a lock\n", out);
	ret = ferror(out) ? -EIO : 0;
out:
	ks_wait_chains_release(&c);
	free(next);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --waits: the lock each blocked task of the sample waits for, its
 * owner as a PID of the dump and the symbol or slab cache the lock lies
 * in, from shared/kernel/waits/.  Every task of the dump is listed for it (the
 * owner may be a task not selected, and a waiter's list node is told
 * from the lock's head by lying on some task's stack), so the walk lists
 * threads with --waits even without -H.  A task in D may wait in a
 * queue (a wait queue, a completion, a folio's lock); one in S is looked
 * at for the locks of mutex_lock_interruptible() and down_*_killable()
 * only, as one in S sleeps in a queue as a matter of course.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lock_wait.h"
#include "lock_where.h"
#include "task_walk.h"

static int cmp_task(const void *a, const void *b)
{
	const struct ks_walk_entry *x = a, *y = b;

	return x->task < y->task ? -1 : x->task > y->task;
}

static void fill(struct ks_walk *w, const struct ks_walk_entry *by_task,
		 const struct ks_lock_where *where, struct ks_task *t,
		 const struct ks_lock_wait *lw)
{
	struct ks_walk_entry key = { .task = lw->owner };
	const struct ks_walk_entry *o;

	t->has_wait = true;
	t->wait.kind = ks_lock_kind_name(lw->kind);
	t->wait.addr = lw->lock;
	t->wait.owner = lw->owner;
	t->wait.last_holder = lw->last_holder;
	t->wait.ownerless = ks_lock_kind_ownerless(lw->kind);
	t->wait.readers = lw->readers;
	t->wait.nr_readers = lw->nr_readers;
	o = lw->owner ? bsearch(&key, by_task, w->nr, sizeof(*by_task),
				cmp_task) : NULL;
	t->wait.owner_pid = o ? o->pid : 0;
	if (*lw->where)
		snprintf(t->wait.where, sizeof(t->wait.where), "%s", lw->where);
	else
		ks_lock_where(where, lw->lock, t->wait.where,
			      sizeof(t->wait.where));
}

/* thread.sp of a task off every CPU, else 0: its whole stack is read. */
static uint64_t saved_sp(const struct ks_walk *w, uint64_t task)
{
	const struct ks_kernel_layout *l = &w->k->l;
	uint64_t on_cpu = 0, sp;

	if ((ks_field_ok(&l->on_cpu) &&
	     ks_field_read(w->k->t, task, &l->on_cpu, 4, &on_cpu)) || on_cpu ||
	    !ks_field_ok(&l->sw.sp) ||
	    ks_field_read(w->k->t, task, &l->sw.sp, 8, &sp))
		return 0;
	return sp;
}

int ks_task_waits(struct ks_walk *w)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_reporter *rep = w->opts->verbose ? w->rep : NULL;
	struct ks_wait_task *tasks = malloc((w->nr ? w->nr : 1) * sizeof(*tasks));
	struct ks_walk_entry *by_task = malloc((w->nr ? w->nr : 1) *
					       sizeof(*by_task));
	struct ks_lock_waits *lw = NULL;
	struct ks_lock_where *where = NULL;
	size_t i, n = 0;
	int ret = -ENOMEM;

	if (!tasks || !by_task)
		goto out;
	for (i = 0; i < w->nr; i++) {
		uint64_t stack;

		if (ks_field_read(w->k->t, w->e[i].task, &l->stack, 8, &stack))
			continue;
		tasks[n].task = w->e[i].task;
		tasks[n++].stack = stack;
	}
	memcpy(by_task, w->e, w->nr * sizeof(*by_task));
	qsort(by_task, w->nr, sizeof(*by_task), cmp_task);
	ret = ks_lock_waits_open(w->k->t, l->thread_size, tasks, n, &lw,
				 w->rep);
	if (!ret)
		ret = ks_lock_where_open(w->k->t, &where);
	if (ret)
		goto out;
	for (i = 0; i < w->s->nr_tasks; i++) {
		struct ks_task *t = &w->s->tasks[i];
		struct ks_lock_wait found;
		int r;

		if ((t->state != 'D' && t->state != 'S') || !t->task_addr)
			continue;
		r = ks_lock_wait_find(lw, t->task_addr,
				      saved_sp(w, t->task_addr),
				      t->state == 'D', &found, rep);
		if (r == 1)
			fill(w, by_task, where, t, &found);
		else if (r < 0)
			ks_say(rep, KS_WARN, "PID %d: its stack cannot be "
			       "read for --waits: %s", t->pid, strerror(-r));
	}
	/* forged or damaged lists: said once, -v names each candidate */
	if (ks_lock_waits_spent(lw))
		ks_say(w->rep, KS_WARN, "--waits walked as many list nodes as "
		       "it will for one run: the waits of some tasks are not "
		       "named (-v says which)");
out:
	ks_lock_where_close(where);
	ks_lock_waits_close(lw);
	free(tasks);
	free(by_task);
	return ret == -ENOENT ? 0 : ret;
}

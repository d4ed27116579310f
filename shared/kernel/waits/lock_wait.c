// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One blocked task's lock, found as the kernel links it (lock_wait.h).
 * In order: task->blocker names the lock (hung_task.h), then
 * task->pi_blocked_on names an rt_mutex_waiter (rtmutex.c), then the
 * waiter records of mutex.c, rwsem.c and semaphore.c are looked for on
 * the task's own stack: a struct whose task member is the task and
 * whose list node is on a ring that holds exactly one node off every
 * task's stack, the lock's wait_list, or (7.x, whose locks keep only a
 * first_waiter) a ring of stack nodes only, whose first waiter a lock
 * the stack holds names.  The lock is believed only when its own state
 * agrees (the waiters flag of a mutex or an rwsem, a semaphore's count
 * of 0) and, for a lock found on the stack alone, when its address is
 * on that stack too: the waiting function keeps it live across
 * schedule().  With them, for a task in D, the queues it may sleep in
 * as the same kind of record: a wait_queue_entry (wait.h) whose private
 * is the task on a wait_queue_head's ring, a swait_queue (swait.h) on a
 * swait_queue_head's.  The entry of a folio's lock is recognised by its
 * func, wake_page_function(), and its head by the slot of
 * folio_wait_table that folio_waitqueue() hashes the folio to; a swait
 * head is a completion's when a symbol begins at the struct completion
 * around it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lock_wait.h"
#include "kernel_string.h"
#include "grow.h"
#include "list_walk.h"
#include "u64_map.h"
#include "member_table.h"

/* __mutex_owner(): mutex.owner's low bits are MUTEX_FLAG_*. */
#define MUTEX_FLAGS		0x07ULL
#define MUTEX_FLAG_WAITERS	0x01ULL
/* rwsem.c: owner's RWSEM_OWNER_FLAGS_MASK and count's bits. */
#define RWSEM_READER_OWNED	0x01ULL
#define RWSEM_OWNER_FLAGS	0x03ULL
#define RWSEM_WRITER_LOCKED	0x01ULL
#define RWSEM_FLAG_WAITERS	0x02ULL
#define RWSEM_READER_SHIFT	8
#define RWSEM_READER_BITS	55	/* below RWSEM_FLAG_READFAIL, bit 63 */
#define RWSEM_READERS_MAX	(4ULL << 20)	/* PID_MAX_LIMIT on 64-bit */
/* rtmutex.c: RT_MUTEX_HAS_WAITERS in owner's low bit. */
#define RT_MUTEX_HAS_WAITERS	0x01ULL
/* hung_task.h: BLOCKER_TYPE_* in blocker's two low bits. */
#define BLOCKER_TYPE_MASK	0x03ULL
/* filemap.c: PAGE_WAIT_TABLE_BITS; hash_64()'s GOLDEN_RATIO_64 */
#define PAGE_WAIT_TABLE_BITS	8
#define GOLDEN_RATIO_64		0x61C8864680B583EBULL
/* page-flags.h: PG_locked is bit 0 */
#define PG_LOCKED		0
enum { BLOCKER_MUTEX, BLOCKER_SEM, BLOCKER_RWSEM_READER, BLOCKER_RWSEM_WRITER };

/* More waiters on one lock than this is a damaged list. */
#define MAX_WAITERS	65536
/*
 * The list nodes one run walks at most: every ring is walked once, so a
 * real kernel needs about one node per task; a forged stack of hundreds
 * of candidates, each on its own long list, stops here.
 */
#define NODES_BUDGET(nr)	((size_t)(1u << 22) + 16 * (nr))
#define BUDGET_SPENT	"is not followed: --waits has walked as many list " \
			"nodes as it will for one run"
/* An rb tree deeper than this is damaged (2 log2 of 2^63 nodes). */
#define MAX_RB_DEPTH	128

/*
 * A lock whose waiters sit on their stacks, on a ring of list links: in
 * the lock's wait_list, or (7.x) a ring of their own whose first waiter
 * the lock's first_waiter names.
 */
struct list_lock {
	enum ks_lock_kind kind;
	const char *type, *waiter;
	struct ks_field wait_list, first_waiter, owner, count, last_holder;
	struct ks_field w_list, w_task;
	bool queue;	/* no owner, no state, no address kept on the stack */
	bool ok;
};

enum { L_MUTEX, L_RWSEM, L_SEM, L_WAITQ, L_SWAIT, NR_LIST_LOCKS };

/* The names of one list_lock's type, its list head and its waiter's. */
struct list_names {
	enum ks_lock_kind kind;
	const char *type, *head, *waiter, *list, *task, *count;
};

static const struct list_names list_names[NR_LIST_LOCKS] = {
	[L_MUTEX] = { KS_LOCK_MUTEX, "mutex", "wait_list", "mutex_waiter",
		      "list", "task", "count" },
	[L_RWSEM] = { KS_LOCK_RWSEM, "rw_semaphore", "wait_list",
		      "rwsem_waiter", "list", "task", "count" },
	[L_SEM] = { KS_LOCK_SEMAPHORE, "semaphore", "wait_list",
		    "semaphore_waiter", "list", "task", "count" },
	[L_WAITQ] = { KS_LOCK_WAITQ, "wait_queue_head", "head",
		      "wait_queue_entry", "entry", "private", NULL },
	[L_SWAIT] = { KS_LOCK_SWAIT, "swait_queue_head", "task_list",
		      "swait_queue", "task_list", "task", NULL },
};

struct ks_lock_waits {
	const struct ks_target *t;
	uint64_t thread_size;
	uint64_t kernel_start;		/* ks_kernel_start(t): arm64's is lower */
	struct list_lock ll[NR_LIST_LOCKS];
	struct ks_field t_stack, t_blocker, t_pi_blocked_on, t_vfork_done;
	/* each child's vfork_done and the child, read once when first asked */
	struct vfork_child *vfork;
	size_t nr_vfork, cap_vfork;
	bool vfork_read;
	struct ks_field rt_owner, rt_waiters, rt_w_task, rt_w_lock, rt_w_tree;
	struct ks_field rb_left, rb_right, rb_parent;
	bool rt_ok;
	/* folio locks and completions, from the queues' records */
	struct ks_field wq_func, wpq_wait, wpq_folio, wpq_bit;
	struct ks_field c_done, c_wait;
	/* percpu_rwsem waiters, and the superblock's s_writers around one */
	struct ks_field pcs_waiters, sb_writers, sbw_frozen, sbw_rw_sem;
	struct ks_field sb_s_type, sb_s_id, sb_s_list, fst_name;
	long pcs_size;
	uint64_t percpu_rwsem_wake_function;
	uint64_t wake_page_function, folio_wait_table;
	long wqh_size, completion_size;
	bool pass_queues;		/* this pass of the stack: queues */
	struct ks_wait_task *by_stack;	/* sorted by stack */
	uint64_t *by_task;		/* sorted */
	size_t nr;
	uint64_t *buf;			/* one stack */
	/*
	 * Each ring walked once: its stack nodes -> an index of verdicts,
	 * per kind of lock (their offsets differ).
	 */
	struct ks_u64_map rings[NR_LIST_LOCKS];
	struct ring_verdict *verdicts;
	size_t nr_verdicts, cap_verdicts;
	/* each lock's wait list walked once: its head -> its waiters */
	struct ks_u64_map lists;
	struct lock_waiters *waiters;
	size_t nr_waiters, cap_waiters;
	/* list nodes the whole run may still walk: forged lists end there */
	size_t nodes_left;
	bool spent;
};

/* A task whose vfork_done is set: its parent sleeps on that completion. */
struct vfork_child {
	uint64_t done, child;
};

/* The tasks on one lock's wait list, sorted. */
struct lock_waiters {
	uint64_t *task;
	size_t nr, cap;
};

/* What a ring's walk found: the lock it leads to, or why none. */
struct ring_verdict {
	const char *why;
	uint64_t lock;
};

const char *ks_lock_kind_name(enum ks_lock_kind kind)
{
	switch (kind) {
	case KS_LOCK_MUTEX:
		return "mutex";
	case KS_LOCK_RWSEM:
		return "rwsem";
	case KS_LOCK_SEMAPHORE:
		return "semaphore";
	case KS_LOCK_RT_MUTEX:
		return "rt_mutex";
	case KS_LOCK_VFORK:
		return "vfork completion";
	case KS_LOCK_WAITQ:
		return "wait queue";
	case KS_LOCK_SWAIT:
		return "swait queue";
	case KS_LOCK_COMPLETION:
		return "completion";
	case KS_LOCK_FOLIO:
		return "folio lock";
	case KS_LOCK_FOLIO_BIT:
		return "folio bit";
	case KS_LOCK_PERCPU_RWSEM:
		return "percpu_rwsem";
	default:
		return "none";
	}
}

static void list_lock_resolve(const struct ks_target *t, struct list_lock *l,
			      const struct list_names *n)
{
	const struct ks_field_spec specs[] = {
		KS_OPTIONAL(&l->wait_list, n->type, n->head),
		KS_OPTIONAL(&l->first_waiter, n->type, "first_waiter"),
		KS_OPTIONAL(&l->owner, n->type, "owner"),
		/* 7.x, CONFIG_DETECT_HUNG_TASK_BLOCKER: semaphore's */
		KS_OPTIONAL(&l->last_holder, n->type, "last_holder"),
		KS_OPTIONAL(&l->w_list, n->waiter, n->list),
		KS_OPTIONAL(&l->w_task, n->waiter, n->task),
	};

	l->kind = n->kind;
	l->type = n->type;
	l->waiter = n->waiter;
	l->queue = !n->count;
	ks_field_table_resolve(t, specs, sizeof(specs) / sizeof(specs[0]));
	if (n->count)
		l->count = ks_field_find(t, n->type, n->count);
	/* a PREEMPT_RT mutex or rwsem is an rt_mutex and has neither */
	l->ok = (ks_field_ok(&l->wait_list) || ks_field_ok(&l->first_waiter)) &&
		ks_field_ok(&l->w_list) &&
		ks_field_ok(&l->w_task) && l->w_task.size == 8 &&
		(l->queue || (n->kind == KS_LOCK_SEMAPHORE
				      ? ks_field_ok(&l->count)
				      : ks_field_ok(&l->owner))) &&
		(n->kind != KS_LOCK_RWSEM || ks_field_ok(&l->count));
	if (l->queue)
		l->ok = l->ok && ks_field_ok(&l->wait_list);
	if (!ks_field_ok(&l->last_holder) || l->last_holder.size != 8)
		l->last_holder.off = -1;
}

/*
 * What tells a folio's lock and a completion from another queue:
 * wait_page_queue around a wait_queue_entry whose func is
 * wake_page_function(), on folio_wait_table (page_wait_table before
 * 5.16); struct completion around a swait_queue_head.
 */
static void queue_resolve(const struct ks_target *t, struct ks_lock_waits *lw)
{
	const struct ks_field_spec specs[] = {
		KS_OPTIONAL(&lw->wq_func, "wait_queue_entry", "func"),
		KS_OPTIONAL(&lw->wpq_wait, "wait_page_queue", "wait"),
		/* struct page *page before 5.16's folios */
		KS_OPTIONAL_AS(&lw->wpq_folio, "wait_page_queue", "folio",
			       "page"),
		KS_OPTIONAL(&lw->wpq_bit, "wait_page_queue", "bit_nr"),
		KS_OPTIONAL(&lw->c_done, "completion", "done"),
		KS_OPTIONAL(&lw->c_wait, "completion", "wait"),
		KS_OPTIONAL(&lw->pcs_waiters, "percpu_rw_semaphore", "waiters"),
		KS_OPTIONAL(&lw->sb_writers, "super_block", "s_writers"),
		KS_OPTIONAL(&lw->sbw_frozen, "sb_writers", "frozen"),
		KS_OPTIONAL(&lw->sbw_rw_sem, "sb_writers", "rw_sem"),
		KS_OPTIONAL(&lw->sb_s_type, "super_block", "s_type"),
		KS_OPTIONAL(&lw->sb_s_id, "super_block", "s_id"),
		KS_OPTIONAL(&lw->sb_s_list, "super_block", "s_list"),
		KS_OPTIONAL(&lw->fst_name, "file_system_type", "name"),
	};

	ks_field_table_resolve(t, specs, sizeof(specs) / sizeof(specs[0]));
	lw->pcs_size = t->ops->type_size(t->ctx, "percpu_rw_semaphore");
	if (t->ops->symbol(t->ctx, "percpu_rwsem_wake_function",
			   &lw->percpu_rwsem_wake_function))
		lw->percpu_rwsem_wake_function = 0;
	lw->wqh_size = t->ops->type_size(t->ctx, "wait_queue_head");
	lw->completion_size = t->ops->type_size(t->ctx, "completion");
	if (t->ops->symbol(t->ctx, "wake_page_function",
			   &lw->wake_page_function))
		lw->wake_page_function = 0;
	if (t->ops->symbol(t->ctx, "folio_wait_table", &lw->folio_wait_table) &&
	    t->ops->symbol(t->ctx, "page_wait_table", &lw->folio_wait_table))
		lw->folio_wait_table = 0;
}

static void rt_resolve(const struct ks_target *t, struct ks_lock_waits *lw)
{
	struct ks_field f = ks_field_find(t, "rt_mutex_base", "owner");
	/* struct rt_mutex_base of 5.15+, struct rt_mutex before */
	const char *base = ks_field_ok(&f) ? "rt_mutex_base" : "rt_mutex";
	const struct ks_field_spec specs[] = {
		KS_OPTIONAL(&lw->rt_owner, base, "owner"),
		KS_OPTIONAL(&lw->rt_waiters, base, "waiters"),
		KS_OPTIONAL(&lw->rt_w_task, "rt_mutex_waiter", "task"),
		KS_OPTIONAL(&lw->rt_w_lock, "rt_mutex_waiter", "lock"),
		/* 6.6's struct rt_waiter_node begins with its rb_node */
		KS_OPTIONAL_AS(&lw->rt_w_tree, "rt_mutex_waiter", "tree",
			       "tree_entry"),
		KS_OPTIONAL(&lw->rb_parent, "rb_node", "__rb_parent_color"),
		KS_OPTIONAL(&lw->rb_right, "rb_node", "rb_right"),
		KS_OPTIONAL(&lw->rb_left, "rb_node", "rb_left"),
	};

	ks_field_table_resolve(t, specs, sizeof(specs) / sizeof(specs[0]));
	lw->rt_ok = ks_field_ok(&lw->t_pi_blocked_on) &&
		    ks_field_ok(&lw->rt_owner) && ks_field_ok(&lw->rt_waiters) &&
		    ks_field_ok(&lw->rt_w_task) && ks_field_ok(&lw->rt_w_lock) &&
		    ks_field_ok(&lw->rt_w_tree) && ks_field_ok(&lw->rb_parent) &&
		    ks_field_ok(&lw->rb_right) && ks_field_ok(&lw->rb_left);
}

static int cmp_stack(const void *a, const void *b)
{
	const struct ks_wait_task *x = a, *y = b;

	return x->stack < y->stack ? -1 : x->stack > y->stack;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

int ks_lock_waits_open(const struct ks_target *t, uint64_t thread_size,
		       const struct ks_wait_task *tasks, size_t nr,
		       struct ks_lock_waits **ret,
		       const struct ks_reporter *rep)
{
	struct ks_lock_waits *lw = calloc(1, sizeof(*lw));
	const struct ks_field_spec specs[] = {
		KS_NEED(&lw->t_stack, "task_struct", "stack"),
	};
	size_t i;

	if (!lw)
		return -ENOMEM;
	lw->t = t;
	lw->thread_size = thread_size;
	lw->kernel_start = ks_kernel_start(t);
	if (ks_field_table_report(t, specs, 1, rep))
		goto enoent;
	lw->t_blocker = ks_field_find(t, "task_struct", "blocker");
	lw->t_pi_blocked_on = ks_field_find(t, "task_struct", "pi_blocked_on");
	lw->t_vfork_done = ks_field_find(t, "task_struct", "vfork_done");
	for (i = 0; i < NR_LIST_LOCKS; i++)
		list_lock_resolve(t, &lw->ll[i], &list_names[i]);
	queue_resolve(t, lw);
	rt_resolve(t, lw);
	for (i = 0; i < NR_LIST_LOCKS && !lw->ll[i].ok; i++)
		;
	if (i == NR_LIST_LOCKS && !lw->rt_ok) {
		ks_say(rep, KS_WARN, "no lock's waiters in this kernel's "
		       "types (mutex_waiter, rwsem_waiter, "
		       "semaphore_waiter, rt_mutex_waiter, "
		       "wait_queue_entry, swait_queue)");
		goto enoent;
	}
	lw->by_stack = malloc((nr ? nr : 1) * sizeof(*lw->by_stack));
	lw->by_task = malloc((nr ? nr : 1) * sizeof(*lw->by_task));
	lw->buf = malloc(thread_size);
	if (!lw->by_stack || !lw->by_task || !lw->buf) {
		ks_lock_waits_close(lw);
		return -ENOMEM;
	}
	memcpy(lw->by_stack, tasks, nr * sizeof(*tasks));
	for (i = 0; i < nr; i++)
		lw->by_task[i] = tasks[i].task;
	lw->nr = nr;
	lw->nodes_left = NODES_BUDGET(nr);
	qsort(lw->by_stack, nr, sizeof(*lw->by_stack), cmp_stack);
	qsort(lw->by_task, nr, sizeof(*lw->by_task), cmp_u64);
	*ret = lw;
	return 0;
enoent:
	ks_lock_waits_close(lw);
	return -ENOENT;
}

bool ks_lock_waits_spent(const struct ks_lock_waits *lw)
{
	return lw && lw->spent;
}

void ks_lock_waits_close(struct ks_lock_waits *lw)
{
	if (!lw)
		return;
	for (size_t i = 0; i < NR_LIST_LOCKS; i++)
		ks_u64_map_release(&lw->rings[i]);
	free(lw->verdicts);
	for (size_t i = 0; i < lw->nr_waiters; i++)
		free(lw->waiters[i].task);
	free(lw->waiters);
	ks_u64_map_release(&lw->lists);
	free(lw->by_stack);
	free(lw->by_task);
	free(lw->buf);
	free(lw->vfork);
	free(lw);
}

bool ks_lock_waits_is_task(const struct ks_lock_waits *lw, uint64_t task)
{
	return task && bsearch(&task, lw->by_task, lw->nr,
			       sizeof(*lw->by_task), cmp_u64);
}

/* Whether addr lies on one of the sample's task stacks. */
static bool on_a_stack(const struct ks_lock_waits *lw, uint64_t addr)
{
	size_t lo = 0, hi = lw->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lw->by_stack[mid].stack <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr - lw->by_stack[lo - 1].stack < lw->thread_size;
}

/*
 * The owner of the lock l at lock, from its owner and count words: NULL,
 * or why the lock does not check out.
 */
static const char *list_lock_owner(struct ks_lock_waits *lw,
				   const struct list_lock *l, uint64_t lock,
				   struct ks_lock_wait *w)
{
	uint64_t owner = 0, count = 0;

	if ((ks_field_ok(&l->owner) &&
	     ks_field_read(lw->t, lock, &l->owner, 8, &owner)) ||
	    (ks_field_ok(&l->count) &&
	     ks_field_read(lw->t, lock, &l->count, 8, &count)))
		return "cannot be read";
	switch (l->kind) {
	case KS_LOCK_MUTEX:
		/* __mutex_add_waiter() sets it with the first waiter */
		if (!(owner & MUTEX_FLAG_WAITERS))
			return "has no MUTEX_FLAG_WAITERS in its owner";
		w->owner = owner & ~MUTEX_FLAGS;
		break;
	case KS_LOCK_RWSEM:
		if (!(count & RWSEM_FLAG_WAITERS))
			return "has no RWSEM_FLAG_WAITERS in its count";
		w->nr_readers = (count >> RWSEM_READER_SHIFT) &
				((1ULL << RWSEM_READER_BITS) - 1);
		/* each reader is a task: no more than PID_MAX_LIMIT of them */
		if (w->nr_readers > RWSEM_READERS_MAX)
			return "has a reader count larger than there can be "
			       "tasks";
		/* rwsem_owner_flags(): a writer is recorded, readers not */
		if (count & RWSEM_WRITER_LOCKED)
			w->owner = owner & ~RWSEM_OWNER_FLAGS;
		else
			w->readers = w->nr_readers > 0 ||
				     (owner & RWSEM_READER_OWNED);
		break;
	case KS_LOCK_SEMAPHORE:
		/* down() queues only at 0; __up() hands over, not counts */
		if ((uint32_t)count)
			return "has waiters but a count of its own";
		/* hung_task_sem_set_holder(): the task that took it last */
		if (ks_field_ok(&l->last_holder) &&
		    !ks_field_read(lw->t, lock, &l->last_holder, 8, &owner) &&
		    owner) {
			w->owner = owner;
			w->last_holder = true;
		}
		break;
	default:
		break;
	}
	return NULL;
}

struct ring {
	const struct ks_lock_waits *lw;
	const struct ks_u64_map *walked;	/* rings walked before */
	bool joins;		/* it ran into one of them */
	uint64_t head;
	size_t heads;
	/* its stack nodes (a headless ring's sorted once it is whole) */
	uint64_t *nodes;
	size_t nr, cap;
};

static int ring_keep(struct ring *r, uint64_t node)
{
	uint64_t *n = ks_grow_min(r->nodes, &r->cap, r->nr + 1, sizeof(*n),
				  64);

	if (!n)
		return -ENOMEM;
	r->nodes = n;
	r->nodes[r->nr++] = node;
	return 0;
}

/* A node off every task's stack is the lock's head, not a waiter. */
static int ring_node(void *arg, uint64_t node)
{
	struct ring *r = arg;
	uint64_t v;

	/*
	 * A node of a ring walked before, reached from outside it: the
	 * start is on no ring (a ring's nodes were all kept), as the walk
	 * would find at its end.
	 */
	if (r->walked && ks_u64_map_get(r->walked, node, &v)) {
		r->joins = true;
		return 1;
	}
	if (on_a_stack(r->lw, node))
		return ring_keep(r, node);
	r->head = node;
	return ++r->heads > 1 ? -EINVAL : 0;
}

/* The waiter of each node of a lock's wait list, kept. */
struct waiters_walk {
	const struct ks_lock_waits *lw;
	uint64_t task_off;
	struct lock_waiters *w;
};

static int wait_list_node(void *arg, uint64_t node)
{
	struct waiters_walk *ww = arg;
	uint64_t task, *v;

	if (ks_read_u64(ww->lw->t, node + ww->task_off, &task))
		return 0;
	v = ks_grow(ww->w->task, &ww->w->cap, ww->w->nr + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ww->w->task = v;
	v[ww->w->nr++] = task;
	return 0;
}

/* Whether the word val is on the stack read into lw->buf. */
static bool on_stack(const struct ks_lock_waits *lw, uint64_t val)
{
	size_t i;

	for (i = 0; i < lw->thread_size / 8; i++)
		if (lw->buf[i] == val)
			return true;
	return false;
}

/*
 * The lock of a headless ring (7.x): a word of the stack whose
 * first_waiter is a waiter of the ring, or 0.
 */
static uint64_t lock_from_stack(const struct ks_lock_waits *lw,
				const struct list_lock *l, const struct ring *r)
{
	for (size_t i = 0; i < lw->thread_size / 8; i++) {
		uint64_t v = lw->buf[i], fw, node;

		if (v < lw->kernel_start || (i && v == lw->buf[i - 1]) ||
		    on_a_stack(lw, v) ||
		    ks_read_u64(lw->t, v + (uint64_t)l->first_waiter.off, &fw) ||
		    !fw)
			continue;
		node = fw + (uint64_t)l->w_list.off;
		if (bsearch(&node, r->nodes, r->nr, sizeof(*r->nodes), cmp_u64))
			return v;
	}
	return 0;
}

/*
 * The lock of the ring through node, its head's or a headless ring's,
 * into *lock: NULL, or why there is none.
 */
static const char *walk_ring(struct ks_lock_waits *lw,
			     const struct list_lock *l, uint64_t node,
			     uint64_t *lock);

/* The walk's verdict kept for every stack node of the ring; -ENOMEM. */
static int keep_verdict(struct ks_lock_waits *lw, struct ks_u64_map *walked,
			const struct ring *r, uint64_t node, const char *why,
			uint64_t lock)
{
	struct ring_verdict *v = ks_grow(lw->verdicts, &lw->cap_verdicts,
					 lw->nr_verdicts + 1, sizeof(*v));
	int ret;

	if (!v)
		return -ENOMEM;
	lw->verdicts = v;
	v[lw->nr_verdicts] = (struct ring_verdict){ why, lock };
	ret = ks_u64_map_put(walked, node, lw->nr_verdicts);
	for (size_t i = 0; i < r->nr && !ret; i++)
		ret = ks_u64_map_put(walked, r->nodes[i], lw->nr_verdicts);
	lw->nr_verdicts++;
	return ret;
}

/*
 * The lock of the ring through node, its head's or a headless ring's,
 * into *lock: NULL, or why there is none.  A ring is walked once: the
 * next node of it asks the verdict kept (but a headless ring's lock,
 * which is found on the stack that asks).
 */
static const char *ring_lock(struct ks_lock_waits *lw,
			     const struct list_lock *l, uint64_t node,
			     uint64_t *lock)
{
	struct ks_u64_map *walked = &lw->rings[l - lw->ll];
	uint64_t v;

	*lock = 0;
	if (ks_u64_map_get(walked, node, &v)) {
		*lock = lw->verdicts[v].lock;
		return lw->verdicts[v].why;
	}
	if (!lw->nodes_left) {
		lw->spent = true;
		return BUDGET_SPENT;
	}
	return walk_ring(lw, l, node, lock);
}

static const char *walk_ring(struct ks_lock_waits *lw,
			     const struct list_lock *l, uint64_t node,
			     uint64_t *lock)
{
	struct ks_u64_map *walked = &lw->rings[l - lw->ll];
	struct ring r = { .lw = lw, .walked = walked };
	struct ks_list_state st = { .t = lw->t, .max = MAX_WAITERS };
	bool headless = !ks_field_ok(&l->wait_list), keep = true;
	const char *why = NULL;

	if (st.max > lw->nodes_left)
		st.max = lw->nodes_left;
	if (ks_list_for_each(&st, node, ring_node, &r) == -ENOMEM)
		why = "cannot be followed: out of memory";
	lw->nodes_left -= st.count < lw->nodes_left ? st.count : lw->nodes_left;
	if (why) {
		keep = false;
	} else if (st.stop == KS_LIST_LONG && st.max < MAX_WAITERS) {
		lw->spent = true;
		why = BUDGET_SPENT;
		keep = false;
	} else if (r.joins) {
		why = "lies on no ring of list links";
	} else if (st.stop != KS_LIST_END || r.heads > 1)
		why = r.heads > 1 ? "lies on a ring with two nodes off the "
				    "tasks' stacks"
				  : "lies on no ring of list links";
	else if (!headless && !r.heads)
		why = "lies on a ring of stack nodes only, with no lock";
	else if (headless && r.heads)
		why = "lies on a ring with a node off the tasks' stacks, "
		      "where the lock keeps no list head";
	else if (!headless)
		*lock = r.head - (uint64_t)l->wait_list.off;
	else if (ring_keep(&r, node))
		why = "cannot be followed: out of memory", keep = false;
	else {
		qsort(r.nodes, r.nr, sizeof(*r.nodes), cmp_u64);
		*lock = lock_from_stack(lw, l, &r);
		if (!*lock)
			why = "is the first_waiter of no lock the stack holds";
		keep = false;	/* the lock is the stack's that asked */
	}
	if (!why && !*lock)
		why = "lies on a ring whose head is at no lock";
	if (keep && keep_verdict(lw, walked, &r, node, why, *lock))
		why = "cannot be followed: out of memory", *lock = 0;
	free(r.nodes);
	return why;
}

/*
 * A folio's lock: the wait_page_queue around the entry at node names
 * the folio, and the head is the slot of folio_wait_table that
 * folio_waitqueue() hashes it to (hash_ptr(folio, PAGE_WAIT_TABLE_BITS)).
 */
static const char *folio_wait(struct ks_lock_waits *lw,
			      const struct list_lock *l, uint64_t node,
			      uint64_t head, struct ks_lock_wait *w)
{
	uint64_t wpq = node - (uint64_t)l->w_list.off -
		       (uint64_t)lw->wpq_wait.off;
	uint64_t folio, bit = 0, slot;

	if (!ks_field_ok(&lw->wpq_wait) || !ks_field_ok(&lw->wpq_folio) ||
	    !lw->folio_wait_table || lw->wqh_size <= 0)
		return "is a page's waiter, in a kernel without wait_page_queue "
		       "or folio_wait_table";
	if (ks_field_read(lw->t, wpq, &lw->wpq_folio, 8, &folio) ||
	    (ks_field_ok(&lw->wpq_bit) &&
	     ks_field_read(lw->t, wpq, &lw->wpq_bit, 4, &bit)))
		return "is a wait_page_queue that cannot be read";
	slot = (folio * GOLDEN_RATIO_64) >> (64 - PAGE_WAIT_TABLE_BITS);
	if (head != lw->folio_wait_table + slot * (uint64_t)lw->wqh_size)
		return "is a page's waiter on a head that is not its folio's "
		       "slot of folio_wait_table";
	w->kind = bit == PG_LOCKED ? KS_LOCK_FOLIO : KS_LOCK_FOLIO_BIT;
	w->lock = folio;
	return NULL;
}

/*
 * A swait head is a completion's when a symbol begins at the struct
 * completion around it and spans one, and its done is 0, as
 * do_wait_for_common() sleeps only then.
 */
static void completion_of(struct ks_lock_waits *lw, struct ks_lock_wait *w)
{
	const struct ks_target *t = lw->t;
	uint64_t c = w->lock - (uint64_t)lw->c_wait.off, done;
	struct ks_sym sym;

	if (!ks_field_ok(&lw->c_wait) || !ks_field_ok(&lw->c_done) ||
	    lw->completion_size <= 0 || !t->ops->lookup ||
	    t->ops->lookup(t->ctx, c, &sym) || sym.addr != c ||
	    sym.size < (uint64_t)lw->completion_size ||
	    ks_field_read(t, c, &lw->c_done, 4, &done) || done)
		return;
	w->kind = KS_LOCK_COMPLETION;
	w->lock = c;
}

/*
 * The superblock whose s_writers.rw_sem[] holds the percpu_rwsem at sem
 * (sb_start_write() and its kin wait there on a frozen filesystem),
 * named into w->where: its type, s_id and freeze state.  Believed only
 * where the super_block's s_list links back to it.
 */
static void superblock_of(struct ks_lock_waits *lw, uint64_t sem,
			  struct ks_lock_wait *w)
{
	const struct ks_target *t = lw->t;
	long levels;

	if (!ks_field_ok(&lw->sb_writers) || !ks_field_ok(&lw->sbw_rw_sem) ||
	    !ks_field_ok(&lw->sb_s_list) || lw->pcs_size <= 0)
		return;
	levels = lw->sbw_rw_sem.size / lw->pcs_size;
	for (long i = 0; i < levels; i++) {
		uint64_t sb = sem - (uint64_t)(i * lw->pcs_size) -
			      (uint64_t)lw->sbw_rw_sem.off -
			      (uint64_t)lw->sb_writers.off;
		uint64_t node = sb + (uint64_t)lw->sb_s_list.off, next, prev;
		uint64_t type = 0, name = 0, frozen = 0;
		char fs[24] = "?", id[32] = "?";

		if (ks_read_u64(t, node, &next) || ks_read_u64(t, next + 8, &prev) ||
		    prev != node)
			continue;
		if (!ks_field_read(t, sb, &lw->sb_s_type, 8, &type) && type &&
		    !ks_field_read(t, type, &lw->fst_name, 8, &name) && name)
			ks_read_kstring(t, name, fs, sizeof(fs));
		if (ks_field_ok(&lw->sb_s_id))
			ks_read_kstring(t, sb + (uint64_t)lw->sb_s_id.off, id,
					sizeof(id));
		ks_field_read(t, sb + (uint64_t)lw->sb_writers.off,
			      &lw->sbw_frozen, 4, &frozen);
		/* SB_FREEZE_COMPLETE is 4; 1 to 3 a freeze under way */
		snprintf(w->where, sizeof(w->where), "s_writers of %s %s%s", fs,
			 id, frozen >= 4 ? ", frozen" : frozen ? ", freezing" : "");
		return;
	}
}

/*
 * A percpu_rw_semaphore's waiter: percpu_rwsem_wait() queues a
 * wait_queue_entry whose func is percpu_rwsem_wake_function on the
 * semaphore's waiters head.
 */
static void percpu_rwsem_of(struct ks_lock_waits *lw, uint64_t func,
			    struct ks_lock_wait *w)
{
	if (!lw->percpu_rwsem_wake_function ||
	    func != lw->percpu_rwsem_wake_function ||
	    !ks_field_ok(&lw->pcs_waiters))
		return;
	w->kind = KS_LOCK_PERCPU_RWSEM;
	w->lock -= (uint64_t)lw->pcs_waiters.off;
	superblock_of(lw, w->lock, w);
}

/* Whether func is a function's address, as a wait_queue_entry's is. */
static bool is_function(const struct ks_target *t, uint64_t func)
{
	struct ks_sym sym;

	return t->ops->lookup && !t->ops->lookup(t->ctx, func, &sym) &&
	       sym.addr == func;
}

/* What a queue's record at node, on the head at head, waits for. */
static const char *queue_wait(struct ks_lock_waits *lw,
			      const struct list_lock *l, uint64_t node,
			      struct ks_lock_wait *w)
{
	uint64_t head = w->lock, func;

	if (l->kind == KS_LOCK_SWAIT) {
		completion_of(lw, w);
		return NULL;
	}
	/* a wait_queue_entry's func is the start of a function */
	if (ks_field_ok(&lw->wq_func) &&
	    (ks_read_u64(lw->t, node - (uint64_t)l->w_list.off +
				    (uint64_t)lw->wq_func.off, &func) ||
	     !is_function(lw->t, func)))
		return "has a func that is no function's address";
	if (ks_field_ok(&lw->wq_func))
		percpu_rwsem_of(lw, func, w);
	if (!lw->wake_page_function || !ks_field_ok(&lw->wq_func) ||
	    func != lw->wake_page_function)
		return NULL;
	return folio_wait(lw, l, node, head, w);
}

/*
 * The waiter candidate of l whose list node is at node, on the stack
 * read into lw->buf: NULL and *w when it leads to a lock that checks
 * out, else why it does not.
 */
static const char *stack_candidate(struct ks_lock_waits *lw,
				   const struct list_lock *l, uint64_t node,
				   struct ks_lock_wait *w)
{
	uint64_t lock;
	const char *why = ring_lock(lw, l, node, &lock);

	if (why)
		return why;
	memset(w, 0, sizeof(*w));
	w->kind = l->kind;
	w->lock = lock;
	w->found = "stack";
	/* a queue's head may be gone from the stack: its ring is the proof */
	if (l->queue)
		return queue_wait(lw, l, node, w);
	if (!on_stack(lw, lock))
		return "leads to a lock whose address is not on the stack";
	return list_lock_owner(lw, l, lock, w);
}

static void drop(const struct ks_reporter *rep, uint64_t task,
		 const char *what, uint64_t addr, const char *why)
{
	ks_say(rep, KS_WARN, "task 0x%llx: %s at 0x%llx dropped: it %s",
	       (unsigned long long)task, what, (unsigned long long)addr,
	       why);
}

enum link { NOT_A_NODE, LINKED, NOT_LINKED_BACK };

/*
 * Whether node's neighbours link back to it: list_del() has not run.
 * A lone waiter of a lock without a list head (7.x) is a ring of one.
 * Words that are no list node at all (most of a stack) are NOT_A_NODE;
 * a node one of whose neighbours links back to it and the other not is
 * a waiter the dump caught mid-update or damaged, named under -v.
 */
static enum link linked(const struct ks_lock_waits *lw,
			const struct list_lock *l, uint64_t node, uint64_t base)
{
	uint64_t next = lw->buf[(node - base) / 8];
	uint64_t prev = lw->buf[(node - base) / 8 + 1], back;
	bool from_next, from_prev;

	if (next == node && prev == node)
		return ks_field_ok(&l->wait_list) ? NOT_A_NODE : LINKED;
	if (next < lw->kernel_start || next == node || prev < lw->kernel_start)
		return NOT_A_NODE;
	from_next = !ks_read_u64(lw->t, next + 8, &back) && back == node;
	from_prev = !ks_read_u64(lw->t, prev, &back) && back == node;
	if (from_next && from_prev)
		return LINKED;
	/* neither: random words of the stack, not a node */
	return from_next || from_prev ? NOT_LINKED_BACK : NOT_A_NODE;
}

/*
 * The waiter at word i of the stack, tried as each lock's waiter: 1 and
 * *ret for the first that checks out, else 0 with each reason reported.
 */
static int stack_word(struct ks_lock_waits *lw, uint64_t task, uint64_t base,
		      uint64_t i, struct ks_lock_wait *ret,
		      const struct ks_reporter *rep)
{
	const char *why[NR_LIST_LOCKS] = { NULL };
	uint64_t node[NR_LIST_LOCKS];
	enum link link;
	int k;

	for (k = 0; k < NR_LIST_LOCKS; k++) {
		const struct list_lock *l = &lw->ll[k];
		uint64_t at = i * 8;

		if (!l->ok || at < (uint64_t)l->w_task.off ||
		    l->queue != lw->pass_queues)
			continue;
		node[k] = base + at - (uint64_t)l->w_task.off +
			  (uint64_t)l->w_list.off;
		if (node[k] < base || node[k] - base + 16 > lw->thread_size ||
		    (node[k] - base) % 8)
			continue;
		link = linked(lw, l, node[k], base);
		if (link == NOT_LINKED_BACK)
			why[k] = "is on no list: its neighbours do not link "
				 "back to it";
		if (link != LINKED)
			continue;
		why[k] = stack_candidate(lw, l, node[k], ret);
		if (!why[k])
			return 1;
	}
	for (k = 0; k < NR_LIST_LOCKS; k++) {
		char what[64];

		if (!why[k])
			continue;
		snprintf(what, sizeof(what), "a %s candidate",
			 lw->ll[k].waiter);
		drop(rep, task, what, node[k], why[k]);
	}
	return 0;
}

/*
 * The waiter record of the task on its stack, as each lock lays it out:
 * above sp only, where the frames of a sleeping task live (the rest of
 * the buffer zeroed), which spares most of the stack of most tasks.
 */
static int from_stack(struct ks_lock_waits *lw, uint64_t task, uint64_t sp,
		      bool queues, struct ks_lock_wait *ret,
		      const struct ks_reporter *rep)
{
	uint64_t base, i, off = 0;
	int err;

	err = ks_field_read(lw->t, task, &lw->t_stack, 8, &base);
	if (err)
		return err;
	if (sp > base && sp - base < lw->thread_size)
		off = (sp - base) & ~7ULL;
	memset(lw->buf, 0, off);
	err = ks_read(lw->t, base + off, (char *)lw->buf + off,
		      lw->thread_size - off);
	if (err)
		return err;
	/*
	 * Locks first, over the whole stack: a lock's wait_list looks like
	 * a queue's head to a copy of the task pointer below its waiter.
	 */
	for (int pass = 0; pass < (queues ? 2 : 1); pass++) {
		lw->pass_queues = pass;
		for (i = off / 8; i < lw->thread_size / 8; i++)
			if (lw->buf[i] == task &&
			    stack_word(lw, task, base, i, ret, rep))
				return 1;
	}
	return 0;
}

/*
 * Whether the task waits on l's lock at lock: its wait_list, or (7.x)
 * the ring of its first_waiter.
 */
/*
 * The waiters of the list at head, walked once for every task that asks
 * (thousands of waiters on one lock would walk it thousands of times):
 * NULL without memory or budget.
 */
static const struct lock_waiters *list_waiters(struct ks_lock_waits *lw,
					       uint64_t head, uint64_t task_off)
{
	struct ks_list_state st = { .t = lw->t, .max = MAX_WAITERS };
	struct lock_waiters *w;
	struct waiters_walk ww = { lw, task_off, NULL };
	uint64_t v;

	if (ks_u64_map_get(&lw->lists, head, &v))
		return &lw->waiters[v];
	if (!lw->nodes_left) {
		lw->spent = true;
		return NULL;
	}
	w = ks_grow(lw->waiters, &lw->cap_waiters, lw->nr_waiters + 1,
		    sizeof(*w));
	if (!w)
		return NULL;
	lw->waiters = w;
	ww.w = &w[lw->nr_waiters];
	memset(ww.w, 0, sizeof(*ww.w));
	if (st.max > lw->nodes_left)
		st.max = lw->nodes_left;
	if (ks_list_for_each(&st, head, wait_list_node, &ww) ||
	    ks_u64_map_put(&lw->lists, head, lw->nr_waiters)) {
		free(ww.w->task);
		return NULL;
	}
	lw->nodes_left -= st.count < lw->nodes_left ? st.count : lw->nodes_left;
	if (ww.w->nr)
		qsort(ww.w->task, ww.w->nr, sizeof(*ww.w->task), cmp_u64);
	return &lw->waiters[lw->nr_waiters++];
}

static bool task_on_lock(struct ks_lock_waits *lw, const struct list_lock *l,
			 uint64_t lock, uint64_t task)
{
	uint64_t task_off = (uint64_t)(l->w_task.off - l->w_list.off);
	const struct lock_waiters *w;
	uint64_t head, fw, wtask;

	if (ks_field_ok(&l->wait_list)) {
		head = lock + (uint64_t)l->wait_list.off;
	} else {
		if (ks_read_u64(lw->t, lock + (uint64_t)l->first_waiter.off, &fw) ||
		    !fw)
			return false;
		head = fw + (uint64_t)l->w_list.off;
		if (!ks_read_u64(lw->t, head + task_off, &wtask) &&
		    wtask == task)
			return true;
	}
	w = list_waiters(lw, head, task_off);
	return w && w->nr && bsearch(&task, w->task, w->nr, sizeof(*w->task),
				     cmp_u64);
}

/* The lock named by task->blocker, checked against its waiters. */
static int from_blocker(struct ks_lock_waits *lw, uint64_t task,
			struct ks_lock_wait *ret, const struct ks_reporter *rep)
{
	static const int kind_of[] = {
		[BLOCKER_MUTEX] = L_MUTEX, [BLOCKER_SEM] = L_SEM,
		[BLOCKER_RWSEM_READER] = L_RWSEM,
		[BLOCKER_RWSEM_WRITER] = L_RWSEM,
	};
	const struct list_lock *l;
	uint64_t blocker, lock;
	const char *why;

	if (ks_field_read(lw->t, task, &lw->t_blocker, 8, &blocker) || !blocker)
		return 0;
	l = &lw->ll[kind_of[blocker & BLOCKER_TYPE_MASK]];
	lock = blocker & ~BLOCKER_TYPE_MASK;
	if (!l->ok)
		return 0;
	memset(ret, 0, sizeof(*ret));
	ret->kind = l->kind;
	ret->lock = lock;
	ret->found = "blocker";
	if (!task_on_lock(lw, l, lock, task))
		why = "has no waiter of the task among its waiters";
	else if (!(why = list_lock_owner(lw, l, lock, ret)))
		return 1;
	drop(rep, task, l->type, lock, why);
	return 0;
}

/* Every task's vfork_done that is set, once; -ENOMEM. */
static int read_vfork(struct ks_lock_waits *lw)
{
	lw->vfork_read = true;
	for (size_t i = 0; i < lw->nr; i++) {
		uint64_t done;
		struct vfork_child *v;

		if (ks_field_read(lw->t, lw->by_task[i], &lw->t_vfork_done, 8,
				  &done) || !done)
			continue;
		v = ks_grow(lw->vfork, &lw->cap_vfork, lw->nr_vfork + 1,
			    sizeof(*v));
		if (!v)
			return -ENOMEM;
		lw->vfork = v;
		v[lw->nr_vfork++] = (struct vfork_child){ done, lw->by_task[i] };
	}
	return 0;
}

/*
 * A vfork parent: kernel_clone() sleeps in wait_for_vfork_done() on a
 * completion in its own frame, which the child's vfork_done points to
 * until complete_vfork_done() at the child's exec or exit.  The child
 * whose vfork_done lies on task's stack, with the completion not done,
 * holds it.
 */
static int from_vfork(struct ks_lock_waits *lw, uint64_t task,
		      struct ks_lock_wait *ret)
{
	uint64_t base, done;

	if (!ks_field_ok(&lw->t_vfork_done) ||
	    (!lw->vfork_read && read_vfork(lw)) || !lw->nr_vfork ||
	    ks_field_read(lw->t, task, &lw->t_stack, 8, &base))
		return 0;
	for (size_t i = 0; i < lw->nr_vfork; i++) {
		const struct vfork_child *v = &lw->vfork[i];

		if (v->done < base || v->done >= base + lw->thread_size ||
		    (ks_field_ok(&lw->c_done) &&
		     (ks_field_read(lw->t, v->done, &lw->c_done, 4, &done) ||
		      done)))
			continue;
		memset(ret, 0, sizeof(*ret));
		ret->kind = KS_LOCK_VFORK;
		ret->lock = v->done;
		ret->owner = v->child;
		ret->found = "vfork_done";
		return 1;
	}
	return 0;
}

/* Whether the rb_node at node hangs, parent by parent, from root. */
static bool in_rb_tree(const struct ks_lock_waits *lw, uint64_t node,
		       uint64_t root)
{
	int depth;

	for (depth = 0; depth < MAX_RB_DEPTH; depth++) {
		uint64_t pc, parent, left, right;

		if (node == root)
			return true;
		if (ks_field_read(lw->t, node, &lw->rb_parent, 8, &pc))
			return false;
		parent = pc & ~3ULL;	/* rb_parent(): color in the low bits */
		if (!parent ||
		    ks_field_read(lw->t, parent, &lw->rb_left, 8, &left) ||
		    ks_field_read(lw->t, parent, &lw->rb_right, 8, &right) ||
		    (left != node && right != node))
			return false;
		node = parent;
	}
	return false;
}

/* task->pi_blocked_on: the rt_mutex_waiter, in its lock's waiter tree. */
static int from_pi_blocked_on(struct ks_lock_waits *lw, uint64_t task,
			      struct ks_lock_wait *ret,
			      const struct ks_reporter *rep)
{
	uint64_t waiter, wtask, lock, root, owner;
	const char *why;

	if (ks_field_read(lw->t, task, &lw->t_pi_blocked_on, 8, &waiter) ||
	    !waiter)
		return 0;
	if (ks_field_read(lw->t, waiter, &lw->rt_w_task, 8, &wtask) ||
	    ks_field_read(lw->t, waiter, &lw->rt_w_lock, 8, &lock)) {
		why = "cannot be read";
		goto drop;
	}
	if (wtask != task) {
		why = "names another task";
		goto drop;
	}
	/* rb_root_cached begins with the rb_root, the root node */
	if (ks_read_u64(lw->t, lock + (uint64_t)lw->rt_waiters.off, &root) ||
	    ks_field_read(lw->t, lock, &lw->rt_owner, 8, &owner) ||
	    !root || !in_rb_tree(lw, waiter + (uint64_t)lw->rt_w_tree.off,
				 root)) {
		why = "is not in its lock's waiter tree";
		goto drop;
	}
	memset(ret, 0, sizeof(*ret));
	ret->kind = KS_LOCK_RT_MUTEX;
	ret->lock = lock;
	ret->owner = owner & ~RT_MUTEX_HAS_WAITERS;
	ret->found = "pi_blocked_on";
	return 1;
drop:
	drop(rep, task, "rt_mutex_waiter", waiter, why);
	return 0;
}

bool ks_lock_kind_ownerless(enum ks_lock_kind kind)
{
	return kind >= KS_LOCK_WAITQ;
}

int ks_lock_wait_find(struct ks_lock_waits *lw, uint64_t task, uint64_t sp,
		      bool queues, struct ks_lock_wait *ret,
		      const struct ks_reporter *rep)
{
	if (ks_field_ok(&lw->t_blocker) &&
	    from_blocker(lw, task, ret, rep))
		return 1;
	if (lw->rt_ok && from_pi_blocked_on(lw, task, ret, rep))
		return 1;
	if (from_vfork(lw, task, ret))
		return 1;
	if (!lw->ll[L_MUTEX].ok && !lw->ll[L_RWSEM].ok && !lw->ll[L_SEM].ok &&
	    !(queues && (lw->ll[L_WAITQ].ok || lw->ll[L_SWAIT].ok)))
		return 0;
	return from_stack(lw, task, sp, queues, ret, rep);
}

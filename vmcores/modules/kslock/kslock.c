// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kslock: kernel threads blocked on locks at known addresses, for
 * kstack --waits to find in a vmcore and the test to compare with what
 * this module printed (tests/vmcore/test_waits.sh):
 *
 *   - a thread in D on a mutex held by a sleeping thread;
 *   - a chain of three: a waits for a mutex b holds, b for an rwsem c
 *     holds for writing, c sleeps;
 *   - an ABBA deadlock between two threads over two mutexes;
 *   - two readers waiting behind an rwsem's writer;
 *   - a thread waiting on a semaphore (no owner);
 *   - a thread waiting on a semaphore a sleeping thread took, whose
 *     owner the kernel records (semaphore.last_holder) only with
 *     CONFIG_DETECT_HUNG_TASK_BLOCKER;
 *   - a thread in D on a mutex in a slab cache of its own (kslock_cache,
 *     not merged with another: it has a constructor), held by a sleeping
 *     thread;
 *   - a thread in S on the simple mutex (mutex_lock_interruptible);
 *   - a thread in D on a completion never completed;
 *   - a thread in D in wait_event() on a wait queue head never woken;
 *   - a thread in D on a page's lock (lock_page()) a sleeping thread
 *     took (trylock_page()), a folio of no file.
 *
 * Each edge is printed as
 *   kslock: edge WAITER_PID KIND 0xLOCK SYMBOL|- OWNER_PID|none
 * (KIND wait_queue and folio_lock for kstack's "wait queue" and
 * "folio lock"; "-": the lock lies in no symbol or slab cache),
 * each deadlock as "kslock: deadlock PID PID", and "kslock: ready" last.
 * The threads never end: the module cannot be unloaded.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/wait.h>

static DEFINE_MUTEX(kslock_simple);
static DEFINE_MUTEX(kslock_chain_m);
static DECLARE_RWSEM(kslock_chain_r);
static DEFINE_MUTEX(kslock_ab);
static DEFINE_MUTEX(kslock_ba);
static DECLARE_RWSEM(kslock_readers);
static struct semaphore kslock_sem;
static struct semaphore kslock_sem_held;
static struct kmem_cache *kslock_cache;
static struct mutex *kslock_heap;
static DECLARE_COMPLETION(kslock_never);
static DECLARE_WAIT_QUEUE_HEAD(kslock_wq);
static struct page *kslock_page;

static DECLARE_COMPLETION(simple_held);
static DECLARE_COMPLETION(chain_c_held);
static DECLARE_COMPLETION(chain_b_held);
static DECLARE_COMPLETION(ab_held);
static DECLARE_COMPLETION(ba_held);
static DECLARE_COMPLETION(writer_held);
static DECLARE_COMPLETION(heap_held);
static DECLARE_COMPLETION(page_held);
static DECLARE_COMPLETION(sem_held);

/* A holder sleeps in S for good, its lock held. */
/*
 * An hour a sleep: a holder that woke every second was caught running at
 * the dump now and then, its switch counts not yet moved, and the
 * comparison with the guest's capture then failed (a clean-clone run).
 */
static void sleep_forever(void)
{
	for (;;)
		msleep_interruptible(3600 * 1000);
}

static int simple_hold(void *unused)
{
	mutex_lock(&kslock_simple);
	/* two wait for it: simple_wait in D, simple_intr in S */
	complete_all(&simple_held);
	sleep_forever();
	return 0;
}

static int simple_wait(void *unused)
{
	wait_for_completion(&simple_held);
	mutex_lock(&kslock_simple);
	return 0;
}

static int simple_intr(void *unused)
{
	wait_for_completion(&simple_held);
	if (mutex_lock_interruptible(&kslock_simple))
		return 0;
	return 0;
}

static int chain_c(void *unused)
{
	down_write(&kslock_chain_r);
	complete(&chain_c_held);
	sleep_forever();
	return 0;
}

static int chain_b(void *unused)
{
	wait_for_completion(&chain_c_held);
	mutex_lock(&kslock_chain_m);
	complete(&chain_b_held);
	down_write(&kslock_chain_r);
	return 0;
}

static int chain_a(void *unused)
{
	wait_for_completion(&chain_b_held);
	mutex_lock(&kslock_chain_m);
	return 0;
}

static int abba_x(void *unused)
{
	mutex_lock(&kslock_ab);
	complete(&ab_held);
	wait_for_completion(&ba_held);
	mutex_lock(&kslock_ba);
	return 0;
}

static int abba_y(void *unused)
{
	mutex_lock(&kslock_ba);
	complete(&ba_held);
	wait_for_completion(&ab_held);
	mutex_lock(&kslock_ab);
	return 0;
}

static int rw_writer(void *unused)
{
	down_write(&kslock_readers);
	complete_all(&writer_held);
	sleep_forever();
	return 0;
}

static int rw_reader(void *unused)
{
	wait_for_completion(&writer_held);
	down_read(&kslock_readers);
	return 0;
}

static int sem_wait(void *unused)
{
	down(&kslock_sem);
	return 0;
}

static int sem_hold(void *unused)
{
	down(&kslock_sem_held);
	complete(&sem_held);
	sleep_forever();
	return 0;
}

static int sem_wait_held(void *unused)
{
	wait_for_completion(&sem_held);
	down(&kslock_sem_held);
	return 0;
}

static int heap_hold(void *unused)
{
	mutex_lock(kslock_heap);
	complete(&heap_held);
	sleep_forever();
	return 0;
}

static int heap_wait(void *unused)
{
	wait_for_completion(&heap_held);
	mutex_lock(kslock_heap);
	return 0;
}

static int compl_wait(void *unused)
{
	wait_for_completion(&kslock_never);
	return 0;
}

static int wq_wait(void *unused)
{
	wait_event(kslock_wq, READ_ONCE(kslock_page) == NULL);
	return 0;
}

static int page_hold(void *unused)
{
	if (trylock_page(kslock_page))
		complete(&page_held);
	sleep_forever();
	return 0;
}

static int page_wait(void *unused)
{
	wait_for_completion(&page_held);
	lock_page(kslock_page);
	return 0;
}

static void kslock_ctor(void *obj)
{
	mutex_init((struct mutex *)obj);
}

enum { SIMPLE_H, SIMPLE_W, CHAIN_A, CHAIN_B, CHAIN_C, ABBA_X, ABBA_Y,
       RW_WRITER, RW_READER1, RW_READER2, SEM_WAIT, HEAP_H, HEAP_W,
       SIMPLE_I, COMPL_W, WQ_W, PAGE_H, PAGE_W, SEM_H, SEM_W2, NR_THREADS };

static const struct {
	int (*fn)(void *);
	const char *name;
} threads[NR_THREADS] = {
	[SIMPLE_H] = { simple_hold, "ksl_simple_hold" },
	[SIMPLE_W] = { simple_wait, "ksl_simple_wait" },
	[CHAIN_A] = { chain_a, "ksl_chain_a" },
	[CHAIN_B] = { chain_b, "ksl_chain_b" },
	[CHAIN_C] = { chain_c, "ksl_chain_c" },
	[ABBA_X] = { abba_x, "ksl_abba_x" },
	[ABBA_Y] = { abba_y, "ksl_abba_y" },
	[RW_WRITER] = { rw_writer, "ksl_rw_writer" },
	[RW_READER1] = { rw_reader, "ksl_rw_reader1" },
	[RW_READER2] = { rw_reader, "ksl_rw_reader2" },
	[SEM_WAIT] = { sem_wait, "ksl_sem_wait" },
	[HEAP_H] = { heap_hold, "ksl_heap_hold" },
	[HEAP_W] = { heap_wait, "ksl_heap_wait" },
	[SIMPLE_I] = { simple_intr, "ksl_simple_intr" },
	[COMPL_W] = { compl_wait, "ksl_compl_wait" },
	[WQ_W] = { wq_wait, "ksl_wq_wait" },
	[PAGE_H] = { page_hold, "ksl_page_hold" },
	[PAGE_W] = { page_wait, "ksl_page_wait" },
	[SEM_H] = { sem_hold, "ksl_sem_hold" },
	[SEM_W2] = { sem_wait_held, "ksl_sem_wait2" },
};

static pid_t pid[NR_THREADS];

static void edge(int waiter, const char *kind, void *lock, const char *sym,
		 int owner)
{
	if (owner < 0)
		pr_info("kslock: edge %d %s 0x%px %s none\n", pid[waiter], kind,
			lock, sym);
	else
		pr_info("kslock: edge %d %s 0x%px %s %d\n", pid[waiter], kind,
			lock, sym, pid[owner]);
}

static int __init kslock_init(void)
{
	int i;

	sema_init(&kslock_sem, 0);
	sema_init(&kslock_sem_held, 1);
	kslock_cache = kmem_cache_create("kslock_cache", sizeof(struct mutex),
					 0, 0, kslock_ctor);
	if (!kslock_cache)
		return -ENOMEM;
	kslock_heap = kmem_cache_alloc(kslock_cache, GFP_KERNEL);
	if (!kslock_heap)
		return -ENOMEM;
	kslock_page = alloc_page(GFP_KERNEL);
	if (!kslock_page)
		return -ENOMEM;
	for (i = 0; i < NR_THREADS; i++) {
		struct task_struct *t = kthread_run(threads[i].fn, NULL, "%s",
						    threads[i].name);

		if (IS_ERR(t))
			return PTR_ERR(t);
		pid[i] = task_pid_nr(t);
	}
	edge(SIMPLE_W, "mutex", &kslock_simple, "kslock_simple", SIMPLE_H);
	edge(CHAIN_A, "mutex", &kslock_chain_m, "kslock_chain_m", CHAIN_B);
	edge(CHAIN_B, "rwsem", &kslock_chain_r, "kslock_chain_r", CHAIN_C);
	edge(ABBA_X, "mutex", &kslock_ba, "kslock_ba", ABBA_Y);
	edge(ABBA_Y, "mutex", &kslock_ab, "kslock_ab", ABBA_X);
	edge(RW_READER1, "rwsem", &kslock_readers, "kslock_readers", RW_WRITER);
	edge(RW_READER2, "rwsem", &kslock_readers, "kslock_readers", RW_WRITER);
	edge(SEM_WAIT, "semaphore", &kslock_sem, "kslock_sem", -1);
	edge(HEAP_W, "mutex", kslock_heap, "kslock_cache", HEAP_H);
	edge(SIMPLE_I, "mutex", &kslock_simple, "kslock_simple", SIMPLE_H);
	edge(COMPL_W, "completion", &kslock_never, "kslock_never", -1);
	edge(WQ_W, "wait_queue", &kslock_wq, "kslock_wq", -1);
	edge(PAGE_W, "folio_lock", page_folio(kslock_page), "-", -1);
	edge(SEM_W2, "semaphore", &kslock_sem_held, "kslock_sem_held",
	     IS_ENABLED(CONFIG_DETECT_HUNG_TASK_BLOCKER) ? SEM_H : -1);
	pr_info("kslock: deadlock %d %d\n", pid[ABBA_X], pid[ABBA_Y]);
	pr_info("kslock: ready\n");
	return 0;
}
module_init(kslock_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tasks blocked on locks, a chain and a deadlock, for kstack --waits");

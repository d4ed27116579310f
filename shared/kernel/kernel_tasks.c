// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The task walk of kernel_tasks.h.  It first lists every task (address,
 * pid, tgid) from init_task.tasks and the thread lists, then sorts that
 * list the way the live tool reads /proc (numerically), then reads each
 * selected task whole and turns it into the record /proc would have given.
 *
 * Kernel memory is not trusted: every list walk is bounded and checks for
 * nodes it has seen, a task that cannot be read is reported and skipped,
 * and an unwinder that stops early leaves the frames it had, as the
 * kernel's own does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "kernel_stack.h"
#include "kernel_string.h"
#include "kernel_tasks.h"
#include "list_walk.h"
#include "orc.h"
#include "select.h"

/* PID_MAX_LIMIT on 64-bit: no list can hold more tasks than that. */
#define MAX_TASKS	(4u * 1024 * 1024)
/* The top half of the address space is the kernel's (x86_64). */
#define KERNEL_HALF	0xffff800000000000ULL
/* A command line longer than this is cut (the live read has no cap). */
#define MAX_CMDLINE	(16u * 1024 * 1024)
/* proc_task_name()'s buffer: char tcomm[64]. */
#define TCOMM_LEN	64

/* include/linux/sched.h, 6.1 */
#define TASK_REPORT		0x7fu
#define TASK_REPORT_IDLE	0x80u
#define TASK_IDLE		0x402u
#define TASK_RTLOCK_WAIT	0x1000u
#define TASK_FROZEN		0x8000u
#define TASK_UNINTERRUPTIBLE	0x2u

struct ks_kernel {
	const struct ks_target *t;
	struct ks_kernel_layout l;
	struct ks_orc *orc;
	int orc_err;
	uint8_t *tbuf;		/* one task_struct */
};

struct entry {
	uint64_t task;
	int32_t pid, tgid;
};

/* A task stack seen in this sample, and the task it was printed for. */
struct stack_owner {
	uint64_t stack;
	int32_t pid;
};

struct walk {
	struct ks_kernel *k;
	const struct ks_options *opts;
	struct ks_sample *s;
	struct ks_kernel_status *st;
	ks_report_fn report;
	void *arg;
	struct ks_seen seen;	/* every list node so far, for loops */
	struct entry *e;
	size_t nr, cap;
	bool threads;		/* list thread groups too */
	int64_t btime;
	bool cgroup_hidden;	/* no "0::" line in /proc/PID/cgroup */
	/* every stack printed so far: two tasks on one stack are named */
	struct ks_seen stacks;
	struct stack_owner *owners;
	size_t nr_owners, owners_cap;
	/* the threads of a process share one mm: its command line, once */
	uint64_t cmd_mm;
	char *cmd_buf;
	size_t cmd_len;
};

static void report(struct walk *w, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!w->report)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	w->report(w->arg, msg);
}

/* fls(): the 1-based index of the highest bit set, 0 for none. */
static unsigned int fls32(uint32_t v)
{
	unsigned int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* fs/proc/array.c get_task_state() -> __task_state_index() */
char ks_task_state_letter(const struct ks_kernel_layout *l, uint64_t state,
			  uint64_t exit_state)
{
	uint32_t tsk = (uint32_t)state;
	uint32_t idx = (tsk | (uint32_t)exit_state) & TASK_REPORT;
	unsigned int i;

	if ((tsk & TASK_IDLE) == TASK_IDLE)
		idx = TASK_REPORT_IDLE;
	/* An rtlock or freezer sleeper looks like a plain D sleeper. */
	if (tsk & (TASK_RTLOCK_WAIT | TASK_FROZEN))
		idx = TASK_UNINTERRUPTIBLE;
	i = fls32(idx);
	return i < l->nr_states ? l->state_letters[i] : '?';
}

static int add_entry(struct walk *w, uint64_t task, int32_t pid, int32_t tgid)
{
	struct entry *n = ks_grow_min(w->e, &w->cap, w->nr + 1, sizeof(*n), 512);

	if (!n)
		return -ENOMEM;
	w->e = n;
	w->e[w->nr++] = (struct entry){ task, pid, tgid };
	return 0;
}

static int read_i32(const struct ks_target *t, uint64_t addr, int32_t *v)
{
	return ks_read(t, addr, v, sizeof(*v));
}

/* pid and tgid of the task at task: 0, or -EFAULT after reporting it. */
static int task_ids(struct walk *w, uint64_t task, int32_t *pid, int32_t *tgid)
{
	const struct ks_kernel_layout *l = &w->k->l;
	int32_t both[2];

	/* pid and tgid sit side by side in every kernel: one read */
	if (l->tgid.off == l->pid.off + 4 &&
	    !ks_read(w->k->t, task + (uint64_t)l->pid.off, both, sizeof(both))) {
		*pid = both[0];
		*tgid = both[1];
		return 0;
	}
	if (read_i32(w->k->t, task + (uint64_t)l->pid.off, pid) ||
	    read_i32(w->k->t, task + (uint64_t)l->tgid.off, tgid)) {
		w->st->nr_unreadable++;
		report(w, "task at %#llx cannot be read; skipped",
		       (unsigned long long)task);
		return -EFAULT;
	}
	return 0;
}

typedef int (*node_fn)(struct walk *w, uint64_t node, void *ctx);

struct node_call {
	struct walk *w;
	node_fn fn;
	void *ctx;
};

static int call_node(void *arg, uint64_t node)
{
	struct node_call *c = arg;

	return c->fn(c->w, node, c->ctx);
}

/*
 * Calls fn for each node of the circular list whose head is at head
 * (not for head itself).  Stops, reporting it, at an unreadable link, a
 * node seen before or more than MAX_TASKS nodes: the nodes before that
 * point are kept.  Returns 0 or -ENOMEM.
 */
static int list_walk(struct walk *w, uint64_t head, const char *what,
		     node_fn fn, void *ctx)
{
	struct ks_list_state lw = { .t = w->k->t, .max = MAX_TASKS,
				   .seen = &w->seen };
	struct node_call call = { w, fn, ctx };
	char msg[256];
	int ret;

	ret = ks_list_for_each(&lw, head, call_node, &call);
	if (ret < 0 || lw.stop == KS_LIST_END)
		return ret;
	w->st->nr_list_errors++;
	ks_list_stop_text(&lw, what, msg, sizeof(msg));
	report(w, "%s", msg);
	return 0;
}

static int thread_node(struct walk *w, uint64_t node, void *ctx)
{
	const struct ks_kernel_layout *l = &w->k->l;
	uint64_t leader = *(uint64_t *)ctx;
	uint64_t task = node - (uint64_t)(l->thread_head ? l->thread_node.off
							 : l->thread_group.off);
	int32_t pid, tgid;

	if (task == leader || task_ids(w, task, &pid, &tgid))
		return 0;
	w->st->nr_seen++;
	return add_entry(w, task, pid, tgid);
}

/* The threads of the group led by leader, but for the leader. */
static int list_threads(struct walk *w, uint64_t leader, int32_t tgid)
{
	const struct ks_kernel_layout *l = &w->k->l;
	uint64_t head, signal;
	char what[64];

	snprintf(what, sizeof(what), "the thread list of PID %d", tgid);
	if (!l->thread_head)
		return list_walk(w, leader + (uint64_t)l->thread_group.off, what,
				 thread_node, &leader);
	if (ks_read_u64(w->k->t, leader + (uint64_t)l->signal.off, &signal) ||
	    !signal) {
		w->st->nr_list_errors++;
		report(w, "PID %d: signal_struct cannot be read; its threads are not listed",
		       tgid);
		return 0;
	}
	head = signal + (uint64_t)l->signal_thread_head.off;
	return list_walk(w, head, what, thread_node, &leader);
}

static int process_node(struct walk *w, uint64_t node, void *ctx)
{
	uint64_t task = node - (uint64_t)w->k->l.tasks.off;
	int32_t pid, tgid;
	int ret;

	(void)ctx;
	if (task_ids(w, task, &pid, &tgid))
		return 0;
	if (!pid)
		return 0;	/* an idle task: not in /proc */
	w->st->nr_seen++;
	ret = add_entry(w, task, pid, tgid);
	if (ret || !w->threads)
		return ret;
	return list_threads(w, task, tgid);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* ---- one task's record ---- */

static void copy_str(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t n = strnlen(src, srclen < len ? srclen : len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * fs/proc/array.c proc_task_name() as /proc/PID/stat prints it: a
 * workqueue worker's comm with "+desc" or "-desc" (wq_worker_comm()), a
 * kernel thread's full name (get_kthread_comm()), else the comm.
 */
/*
 * format_worker_id() (6.10+) names a rescuer "kworker/R-" and its
 * workqueue's whole name, of which the comm holds only the first 15
 * bytes; older kernels name rescuers after the workqueue alone, so the
 * prefix in the comm is what tells that the longer name is printed.
 */
static void rescuer_name(struct walk *w, uint64_t worker, struct ks_task *t)
{
	static const char prefix[] = "kworker/R-";
	const struct ks_kernel_layout *l = &w->k->l;
	const size_t plen = sizeof(prefix) - 1;
	uint64_t wq;

	if (strncmp(t->comm, prefix, plen) ||
	    !ks_field_ok(&l->worker_rescue_wq) || !ks_field_ok(&l->wq_name) ||
	    ks_read_u64(w->k->t, worker + (uint64_t)l->worker_rescue_wq.off, &wq) ||
	    !wq)
		return;
	(void)ks_read_kstring(w->k->t, wq + (uint64_t)l->wq_name.off,
			      t->comm + plen,
			      (size_t)l->wq_name.size + 1 < TCOMM_LEN - plen ?
				      (size_t)l->wq_name.size + 1 : TCOMM_LEN - plen);
}

static void task_name(struct walk *w, const uint8_t *tb, struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *tg = w->k->t;
	uint32_t flags = (uint32_t)ks_field_get(tb, &l->flags);
	uint64_t kthread, worker, pool, cur, name;
	char desc[TCOMM_LEN] = "";
	size_t off;

	copy_str(t->comm, sizeof(t->comm), (const char *)tb + l->comm.off,
		 (size_t)l->comm.size);
	if (!(flags & (KS_PF_WQ_WORKER | KS_PF_KTHREAD)) ||
	    !ks_field_ok(&l->worker_private))
		return;
	kthread = ks_field_get(tb, &l->worker_private);
	if (!kthread)
		return;
	if (!(flags & KS_PF_WQ_WORKER)) {
		if (!ks_field_ok(&l->kthread_full_name) ||
		    ks_read_u64(tg, kthread + (uint64_t)l->kthread_full_name.off, &name) ||
		    !name)
			return;
		(void)ks_read_kstring(tg, name, t->comm, TCOMM_LEN);
		return;
	}
	if (!ks_field_ok(&l->kthread_data) ||
	    ks_read_u64(tg, kthread + (uint64_t)l->kthread_data.off, &worker))
		return;
	rescuer_name(w, worker, t);
	if (!ks_field_ok(&l->worker_desc) ||
	    !ks_field_ok(&l->worker_pool) || !ks_field_ok(&l->worker_current_work) ||
	    ks_read_u64(tg, worker + (uint64_t)l->worker_pool.off, &pool) || !pool ||
	    ks_read_u64(tg, worker + (uint64_t)l->worker_current_work.off, &cur))
		return;
	(void)ks_read_kstring(tg, worker + (uint64_t)l->worker_desc.off, desc,
			      (size_t)l->worker_desc.size < sizeof(desc) ?
				      (size_t)l->worker_desc.size : sizeof(desc));
	if (!desc[0])
		return;
	off = strlen(t->comm);
	snprintf(t->comm + off, TCOMM_LEN - off, "%c%s", cur ? '+' : '-', desc);
}

/* mm's arg_start, arg_end, env_start and env_end, in one read if they are close. */
static int read_mm_args(const struct ks_target *t, const struct ks_kernel_layout *l,
			uint64_t mm, uint64_t v[4])
{
	const struct ks_field *f[4] = { &l->mm_arg_start, &l->mm_arg_end,
					&l->mm_env_start, &l->mm_env_end };
	long lo = f[0]->off, hi = f[0]->off + 8;
	uint8_t buf[64];

	for (int i = 1; i < 4; i++) {
		lo = f[i]->off < lo ? f[i]->off : lo;
		hi = f[i]->off + 8 > hi ? f[i]->off + 8 : hi;
	}
	if (hi - lo <= (long)sizeof(buf)) {
		if (ks_read(t, mm + (uint64_t)lo, buf, (size_t)(hi - lo)))
			return -EFAULT;
		for (int i = 0; i < 4; i++)
			memcpy(&v[i], buf + (f[i]->off - lo), 8);
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (ks_read_u64(t, mm + (uint64_t)f[i]->off, &v[i]))
			return -EFAULT;
	return 0;
}

/*
 * fs/proc/base.c get_mm_cmdline(): [arg_start, arg_end), unless the last
 * byte of that was overwritten by setproctitle(), in which case the text
 * runs on into the environment up to its first NUL, within one page.  Bytes that are not
 * in the image end the text where they start; none at all gives "".
 */
static char *read_cmdline(struct walk *w, uint64_t task, uint64_t mm,
			  size_t *len_ret)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *t = w->k->t;
	uint64_t as, ae, es, ee, end;
	size_t len, got = 0;
	char last, *buf;
	uint64_t v[4];

	*len_ret = 0;
	if (read_mm_args(t, l, mm, v))
		return NULL;
	as = v[0];
	ae = v[1];
	es = v[2];
	ee = v[3];
	if (!ee || as >= ae)
		return NULL;
	if (es != ae || ee < es)
		es = ee = ae;
	if (t->ops->read_user(t->ctx, task, ae - 1, &last, 1))
		return NULL;
	end = last ? ee : ae;
	len = end - as > MAX_CMDLINE ? MAX_CMDLINE : (size_t)(end - as);
	/* get_mm_proctitle() reads one page from arg_start, no more */
	if (last && len > 4096)
		len = 4096;
	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	/* Page by page: a page missing from the image ends the text there. */
	while (got < len) {
		uint64_t a = as + got;
		size_t n = 4096 - (size_t)(a & 4095);

		if (n > len - got)
			n = len - got;
		if (t->ops->read_user(t->ctx, task, a, buf + got, n))
			break;
		got += n;
	}
	if (last) {
		char *nul = memchr(buf, '\0', got);

		if (nul)
			got = (size_t)(nul - buf) + 1;
	}
	*len_ret = got;
	return buf;
}

/* /proc/PID/cmdline -> Cmd: the comm for kernel threads and without an mm. */
static char *task_cmd(struct walk *w, const uint8_t *tb, uint64_t task,
		      const struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	uint32_t flags = (uint32_t)ks_field_get(tb, &l->flags);
	uint64_t mm = ks_field_get(tb, &l->mm);

	/* get_task_mm() gives no mm for a kernel thread. */
	if (!mm || (flags & KS_PF_KTHREAD))
		return ks_cmd_from_cmdline("", 0, t->comm);
	if (mm != w->cmd_mm) {
		free(w->cmd_buf);
		w->cmd_buf = read_cmdline(w, task, mm, &w->cmd_len);
		w->cmd_mm = mm;
	}
	return ks_cmd_from_cmdline(w->cmd_buf ? w->cmd_buf : "", w->cmd_len,
				   t->comm);
}

/*
 * Each task has a stack of its own (dup_task_struct() allocates it): a
 * task_struct whose stack (and thread.sp) are another task's prints that
 * task's frames under its own name.  Returns the PID already printed from
 * base, 0 for a stack not seen before, or -ENOMEM.
 */
static int32_t stack_owner(struct walk *w, uint64_t base, int32_t pid)
{
	struct stack_owner *o;
	int ret = ks_seen_add(&w->stacks, base);

	if (ret < 0)
		return ret;
	for (size_t i = 0; ret && i < w->nr_owners; i++)
		if (w->owners[i].stack == base)
			return w->owners[i].pid;
	o = ks_grow_min(w->owners, &w->owners_cap, w->nr_owners + 1,
			sizeof(*o), 512);
	if (!o)
		return -ENOMEM;
	w->owners = o;
	w->owners[w->nr_owners++] = (struct stack_owner){ base, pid };
	return 0;
}

/* The stack is another task's too: said, and the note names both. */
static int shared_stack(struct walk *w, uint64_t base, struct ks_task *t)
{
	int32_t other = stack_owner(w, base, t->pid);
	char buf[160];

	if (other <= 0)
		return other;
	snprintf(buf, sizeof(buf), "task->stack %#llx is PID %d's stack too: "
		 "one of the two task_structs is damaged",
		 (unsigned long long)base, other);
	w->st->nr_stack_notes++;
	report(w, "PID %d: %s", t->pid, buf);
	free(t->note);
	t->note = strdup(buf);
	return t->note ? 0 : -ENOMEM;
}

/*
 * The stack of /proc/PID/stack.  A task that was on a CPU has no saved
 * frame; the kernel would print nothing for it (task_on_another_cpu()),
 * but a dump keeps its registers, so its stack is unwound from them, as
 * crash's bt does, and the record says it was running.
 */
static int task_stack(struct walk *w, const uint8_t *tb, uint64_t task,
		      struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *tg = w->k->t;
	struct ks_stack_start st = { 0 };
	const char *note = NULL;
	char buf[128];
	int ret, cpu;

	st.stack_base = ks_field_get(tb, &l->stack);
	st.stack_size = l->thread_size;
	st.thread_sp = ks_field_get(tb, &l->thread_sp);
	/* where kretprobes and the graph tracer keep the return addresses they replaced */
	st.task = task;
	/* try_get_task_stack(): a dead task's stack is already freed. */
	if (ks_field_ok(&l->stack_refcount) && !ks_field_get(tb, &l->stack_refcount)) {
		st.stack_base = 0;
	} else if (!st.stack_base && ks_field_ok(&l->stack_refcount)) {
		snprintf(buf, sizeof(buf), "task->stack is NULL, yet the stack is not freed");
		goto unusual;
	}
	if (st.stack_base && ks_field_ok(&l->on_cpu) && ks_field_get(tb, &l->on_cpu)) {
		t->running = true;
		w->st->nr_on_cpu++;
		cpu = ks_field_ok(&l->cpu) ? (int)ks_field_get(tb, &l->cpu) : -1;
		if (cpu < 0 || tg->ops->cpu_regs(tg->ctx, cpu, &st.regs)) {
			snprintf(buf, sizeof(buf),
				 "on CPU %d; its registers are not in the image", cpu);
			goto unusual;
		}
		if (st.regs.ip < KERNEL_HALF) {
			snprintf(buf, sizeof(buf), "in user mode on CPU %d", cpu);
			goto empty;
		}
		st.on_cpu = true;
	}
	if (!w->k->orc) {
		snprintf(buf, sizeof(buf), "no ORC unwind tables: %s",
			 strerror(-w->k->orc_err));
		goto empty;
	}
	ret = ks_stack_text(tg, w->k->orc, &st, &t->stack, &note);
	if (ret)
		return ret;
	if (note && st.stack_base) {
		w->st->nr_stack_notes++;
		report(w, "PID %d: %s: %s", t->pid,
		       *t->stack ? "the stack ends early" : "no stack", note);
		t->note = strdup(note);
	}
	return st.stack_base ? shared_stack(w, st.stack_base, t) : 0;
unusual:	/* an empty stack the kernel would not have printed empty */
	w->st->nr_stack_notes++;
	report(w, "PID %d: no stack: %s", t->pid, buf);
empty:
	t->stack = strdup("");
	t->note = strdup(buf);
	return t->stack ? 0 : -ENOMEM;
}

/* The cgroup v2 path of the task (/proc/PID/cgroup's "0::" line). */
static int task_cgroup_path(struct walk *w, const uint8_t *tb, char *path,
			    size_t len)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *t = w->k->t;
	uint64_t cset, cgrp, kn, parent, name, chain[64];
	size_t depth = 0, used = 0;
	char part[256];

	cset = ks_field_get(tb, &l->cgroups);
	if (ks_read_u64(t, cset + (uint64_t)l->css_set_dfl_cgrp.off, &cgrp) ||
	    ks_read_u64(t, cgrp + (uint64_t)l->cgroup_kn.off, &kn))
		return -EFAULT;
	/* kernfs_path_from_node() up to the root, which has no parent */
	for (;;) {
		if (ks_read_u64(t, kn + (uint64_t)l->kn_parent.off, &parent))
			return -EFAULT;
		if (!parent)
			break;
		if (depth == sizeof(chain) / sizeof(chain[0]))
			return -ELOOP;
		chain[depth++] = kn;
		kn = parent;
	}
	path[0] = '\0';
	if (!depth)
		snprintf(path, len, "/");
	while (depth--) {
		if (ks_read_u64(t, chain[depth] + (uint64_t)l->kn_name.off, &name))
			return -EFAULT;
		(void)ks_read_kstring(t, name, part, sizeof(part));
		used += (size_t)snprintf(path + used, used < len ? len - used : 0,
					 "/%s", part);
	}
	return used < len ? 0 : -ENAMETOOLONG;
}

/* live/proc/proc_tasks.c in_cgroup(): the path is cgroup or below it. */
static bool in_cgroup(struct walk *w, const uint8_t *tb, int32_t pid)
{
	const char *cg = w->opts->cgroup;
	size_t clen = strlen(cg);
	char path[4096];

	if (w->cgroup_hidden)
		return false;
	if (task_cgroup_path(w, tb, path, sizeof(path))) {
		report(w, "PID %d: cgroup cannot be read; not selected", pid);
		return false;
	}
	while (clen > 1 && cg[clen - 1] == '/')
		clen--;
	if (clen == 1 && cg[0] == '/')
		return true;
	return !strncmp(path, cg, clen) && (path[clen] == '/' || !path[clen]);
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

/*
 * Reads the task whole and adds its record if opts selects it by its PID,
 * its TGID or asked (the PID of the /proc/PID directory it was read
 * from: with -p TID -H the live tool lists /proc/TID/task, the whole
 * group, and selects each thread by TID, so asked may be neither).
 */
static int emit(struct walk *w, const struct entry *e, int32_t asked)
{
	struct ks_kernel *k = w->k;
	const struct ks_kernel_layout *l = &k->l;
	struct ks_task t = { 0 };
	const uint8_t *tb = k->tbuf;
	int ret;

	if (ks_read(k->t, e->task, k->tbuf, (size_t)l->task_read_size)) {
		w->st->nr_unreadable++;
		report(w, "PID %d: task_struct at %#llx cannot be read; skipped",
		       e->pid, (unsigned long long)e->task);
		return 0;
	}
	t.pid = (int32_t)ks_field_get(tb, &l->pid);
	t.tgid = (int32_t)ks_field_get(tb, &l->tgid);
	t.state = ks_task_state_letter(l, ks_field_get(tb, &l->state),
				       ks_field_get(tb, &l->exit_state));
	if (!ks_select_match(w->opts, t.pid, t.state) &&
	    !ks_select_match(w->opts, t.tgid, t.state) &&
	    !ks_select_match(w->opts, asked, t.state))
		return 0;
	if (w->opts->cgroup && !in_cgroup(w, tb, t.pid))
		return 0;
	t.start_time = w->btime +
		       (int64_t)(ks_field_get(tb, &l->start_boottime) / 1000000000ull);
	if (ks_field_ok(&l->nvcsw) && ks_field_ok(&l->nivcsw)) {
		t.has_switches = true;
		t.nvcsw = ks_field_get(tb, &l->nvcsw);
		t.nivcsw = ks_field_get(tb, &l->nivcsw);
	}
	task_name(w, tb, &t);
	t.cmd = task_cmd(w, tb, e->task, &t);
	ret = t.cmd ? task_stack(w, tb, e->task, &t) : -ENOMEM;
	if (!ret && (!t.stack || ks_sample_add(w->s, &t)))
		ret = -ENOMEM;
	if (ret) {
		free(t.cmd);
		free(t.stack);
		free(t.note);
	}
	return ret;
}

/* ---- order ---- */

static const struct entry *find_pid(const struct walk *w, int32_t pid)
{
	for (size_t i = 0; i < w->nr; i++)
		if (w->e[i].pid == pid)
			return &w->e[i];
	return NULL;
}

/* -p alone: each PID in the order given, like reading /proc/PID. */
static int emit_pids(struct walk *w)
{
	for (size_t i = 0; i < w->opts->nr_pids; i++) {
		const struct entry *e = find_pid(w, w->opts->pids[i]);
		int ret = 0;

		if (!e)
			continue;	/* the caller reports PIDs that do not exist */
		if (!w->opts->threads) {
			ret = emit(w, e, e->pid);
		} else {
			/* /proc/TID/task lists the whole group of TID */
			int32_t tgid = e->tgid;

			for (size_t j = 0; j < w->nr && !ret; j++)
				if (w->e[j].tgid == tgid)
					ret = emit(w, &w->e[j], e->pid);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int emit_all(struct walk *w)
{
	for (size_t i = 0; i < w->nr; i++) {
		int ret;

		/* without -H only /proc/PID itself: thread group leaders */
		if (!w->opts->threads && w->e[i].pid != w->e[i].tgid)
			continue;
		ret = emit(w, &w->e[i], w->e[i].tgid);
		if (ret)
			return ret;
	}
	return 0;
}

static int sample_setup(struct walk *w)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *t = w->k->t;
	int64_t real, boot;
	uint64_t vis;
	uint8_t v;

	if (ks_read(t, l->timekeeper + (uint64_t)l->tk_offs_real.off, &real, 8) ||
	    ks_read(t, l->timekeeper + (uint64_t)l->tk_offs_boot.off, &boot, 8))
		return -EFAULT;
	/* getboottime64(): offs_real - offs_boot, in whole seconds */
	w->btime = floor_div(real - boot, 1000000000);
	if (!w->opts->cgroup)
		return 0;
	if (!ks_field_ok(&l->cgroups) || !ks_field_ok(&l->css_set_dfl_cgrp) ||
	    !ks_field_ok(&l->cgroup_kn) || !ks_field_ok(&l->kn_parent) ||
	    !ks_field_ok(&l->kn_name))
		return -ENOENT;
	/* proc_cgroup_show() hides the v2 line until cgroup2 is mounted. */
	if (!t->ops->symbol(t->ctx, "cgrp_dfl_visible", &vis) &&
	    !ks_read(t, vis, &v, 1))
		w->cgroup_hidden = !v;
	return 0;
}

int ks_kernel_sample(struct ks_kernel *k, const struct ks_options *opts,
		     struct ks_sample *s, struct ks_kernel_status *st,
		     ks_report_fn report_fn, void *arg)
{
	struct walk w = { .k = k, .opts = opts, .s = s, .st = st,
			  .report = report_fn, .arg = arg };
	const struct ks_kernel_layout *l = &k->l;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = sample_setup(&w);
	if (ret)
		return ret;
	/* A truncated dump may keep the kernel's text and lose its tables. */
	if (!k->orc && k->orc_err == -EFAULT)
		report(&w, "the ORC unwind tables cannot be read (the image lacks "
		       "their memory): every stack is empty");
	else if (!k->orc)
		report(&w, "no ORC unwind tables in this kernel (%s): every stack is empty",
		       strerror(-k->orc_err));
	for (size_t i = 0; k->orc && i < k->orc->nr_problems; i++)
		report(&w, "%s", k->orc->problems[i]);
	st->nr_module_errors = k->orc ? k->orc->nr_problems : 0;
	/* -p may name a thread: /proc/TID exists even though it is not listed. */
	w.threads = opts->threads || opts->nr_pids;
	ret = list_walk(&w, l->init_task + (uint64_t)l->tasks.off,
			"the task list (init_task.tasks)", process_node, NULL);
	if (ret)
		goto out;
	if (w.nr)	/* w.e is NULL for an empty list: qsort() wants a pointer */
		qsort(w.e, w.nr, sizeof(*w.e), cmp_entry);
	ret = ks_select_pids_only(opts) ? emit_pids(&w) : emit_all(&w);
out:
	free(w.cmd_buf);
	free(w.e);
	free(w.owners);
	ks_seen_release(&w.stacks);
	ks_seen_release(&w.seen);
	return ret;
}

int ks_kernel_when_host(struct ks_kernel *k, time_t *when_ret, char *host,
			size_t hostlen)
{
	const struct ks_kernel_layout *l = &k->l;
	int64_t sec;
	char node[256];
	size_t n = (size_t)l->nodename_size < sizeof(node) ?
			   (size_t)l->nodename_size : sizeof(node);

	if (ks_read(k->t, l->timekeeper + (uint64_t)l->tk_xtime_sec.off, &sec, 8) ||
	    ks_read(k->t, l->nodename, node, n))
		return -EFAULT;
	*when_ret = (time_t)sec;
	copy_str(host, hostlen, node, n);
	return 0;
}

int ks_kernel_release(struct ks_kernel *k, char *buf, size_t len)
{
	const struct ks_kernel_layout *l = &k->l;
	char rel[256];
	size_t n = (size_t)l->release_size < sizeof(rel) ?
			   (size_t)l->release_size : sizeof(rel);

	if (!l->release)
		return -ENOENT;
	if (ks_read(k->t, l->release, rel, n))
		return -EFAULT;
	copy_str(buf, len, rel, n);
	return 0;
}

int ks_kernel_open(const struct ks_target *t, struct ks_kernel **k_ret,
		   char *err, size_t errlen)
{
	struct ks_kernel *k = calloc(1, sizeof(*k));
	int ret;

	if (!k)
		return -ENOMEM;
	k->t = t;
	ret = ks_layout_init(t, &k->l, err, errlen);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	k->tbuf = malloc((size_t)k->l.task_size);
	if (!k->tbuf)
		goto fail;
	/* Without ORC the tasks are still worth listing; each stack says why. */
	k->orc_err = ks_orc_load(t, &k->orc);
	if (k->orc_err)
		k->orc = NULL;
	*k_ret = k;
	return 0;
fail:
	ks_kernel_close(k);
	return ret;
}

void ks_kernel_close(struct ks_kernel *k)
{
	if (!k)
		return;
	if (k->orc)
		ks_orc_free(k->orc);
	free(k->tbuf);
	free(k);
}

const struct ks_kernel_layout *ks_kernel_layout(const struct ks_kernel *k)
{
	return &k->l;
}

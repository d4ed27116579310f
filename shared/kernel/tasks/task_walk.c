// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The task walk of kernel_tasks.h.  It first lists every task (address,
 * pid, tgid) from init_task.tasks and the thread lists, then sorts that
 * list the way the live tool reads /proc (numerically), then reads each
 * selected task whole and turns it into the record /proc would have given
 * (the comm, command line, cgroup and stack each in their own file).
 *
 * Kernel memory is not trusted: every list walk is bounded and checks for
 * nodes it has seen, a task that cannot be read is reported and skipped,
 * and an unwinder that stops early leaves the frames it had, as the
 * kernel's own does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "select.h"
#include "task_walk.h"

/* PID_MAX_LIMIT on 64-bit: no list can hold more tasks than that. */
#define MAX_TASKS	(4u * 1024 * 1024)

static int add_entry(struct ks_walk *w, uint64_t task, int32_t pid, int32_t tgid)
{
	struct ks_walk_entry *n = ks_grow_min(w->e, &w->cap, w->nr + 1,
					      sizeof(*n), 512);

	if (!n)
		return -ENOMEM;
	w->e = n;
	w->e[w->nr++] = (struct ks_walk_entry){ task, pid, tgid };
	return 0;
}

static int read_i32(const struct ks_target *t, uint64_t addr, int32_t *v)
{
	return ks_read(t, addr, v, sizeof(*v));
}

/* pid and tgid of the task at task: 0, or -EFAULT after reporting it. */
static int task_ids(struct ks_walk *w, uint64_t task, int32_t *pid, int32_t *tgid)
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
		ks_say(w->rep, KS_WARN, "task at %#llx cannot be read; skipped",
		       (unsigned long long)task);
		return -EFAULT;
	}
	return 0;
}

typedef int (*node_fn)(struct ks_walk *w, uint64_t node, void *ctx);

struct node_call {
	struct ks_walk *w;
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
static int list_walk(struct ks_walk *w, uint64_t head, const char *what,
		     node_fn fn, void *ctx)
{
	struct ks_list_state lw = { .t = w->k->t, .max = MAX_TASKS,
				   .seen = &w->seen };
	struct node_call call = { w, fn, ctx };
	int ret;

	ret = ks_list_for_each(&lw, head, call_node, &call);
	if (ret < 0 || lw.stop == KS_LIST_END)
		return ret;
	w->st->nr_list_errors++;
	ks_list_stop_say(w->rep, &lw, what);
	return 0;
}

static int thread_node(struct ks_walk *w, uint64_t node, void *ctx)
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
static int list_threads(struct ks_walk *w, uint64_t leader, int32_t tgid)
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
		ks_say(w->rep, KS_WARN,
		       "PID %d: signal_struct cannot be read; its threads are not listed",
		       tgid);
		return 0;
	}
	head = signal + (uint64_t)l->signal_thread_head.off;
	return list_walk(w, head, what, thread_node, &leader);
}

static int process_node(struct ks_walk *w, uint64_t node, void *ctx)
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
	const struct ks_walk_entry *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* ---- one task's record ---- */

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

/*
 * -a, the states and -p, then --comm, whose name is read only then: a
 * kworker's takes reads of its worker.
 */
static bool selected(struct ks_walk *w, const uint8_t *tb, struct ks_task *t,
		     int32_t asked)
{
	const struct ks_selection *o = w->opts->sel;

	if (ks_select_match(o, t->pid, t->state) ||
	    ks_select_match(o, t->tgid, t->state) ||
	    ks_select_match(o, asked, t->state))
		return true;
	if (!o->comm)
		return false;
	ks_task_comm(w, tb, t);
	return ks_select_comm(o, t->comm);
}

/*
 * A Cmd or a name that stops where the image does (a dump cut short, a
 * page left out) says so beside any note on the stack, rather than
 * passing for the task's whole command line or name.
 */
static int note_unread(struct ks_walk *w, struct ks_task *t,
			   const char *what)
{
	char *note;

	t->missing = true;
	/* the stack's note is said already: this part is said on its own */
	if (t->note_said)
		ks_say(w->rep, KS_WARN, "PID %d: %s", t->pid, what);
	if (!t->note) {
		t->note = strdup(what);
		return t->note ? 0 : -ENOMEM;
	}
	if (asprintf(&note, "%s; %s", t->note, what) < 0)
		return -ENOMEM;
	free(t->note);
	t->note = note;
	return 0;
}

/*
 * Reads the task whole and adds its record if opts selects it by its PID,
 * its TGID or asked (the PID of the /proc/PID directory it was read
 * from: with -p TID -H the live tool lists /proc/TID/task, the whole
 * group, and selects each thread by TID, so asked may be neither).
 */
static int emit(struct ks_walk *w, const struct ks_walk_entry *e, int32_t asked)
{
	struct ks_kernel *k = w->k;
	const struct ks_kernel_layout *l = &k->l;
	struct ks_task t = { 0 };
	const uint8_t *tb = k->tbuf;
	int ret;

	if (ks_read(k->t, e->task, k->tbuf, (size_t)l->task_read_size)) {
		w->st->nr_unreadable++;
		ks_say(w->rep, KS_WARN,
		       "PID %d: task_struct at %#llx cannot be read; skipped",
		       e->pid, (unsigned long long)e->task);
		return 0;
	}
	t.pid = (int32_t)ks_field_get(tb, &l->pid);
	t.tgid = (int32_t)ks_field_get(tb, &l->tgid);
	t.state = ks_task_state_letter(l, ks_field_get(tb, &l->state),
				       ks_field_get(tb, &l->exit_state));
	if (!selected(w, tb, &t, asked))
		return 0;
	if (w->opts->sel->cgroup && !ks_task_in_cgroup(w, tb, t.pid))
		return 0;
	t.start_time = w->no_clock ? KS_START_UNKNOWN : w->btime +
		       (int64_t)(ks_field_get(tb, &l->start_boottime) / 1000000000ull);
	t.task_addr = e->task;
	/* task_cpu(): where it runs, or ran last and would run next */
	if (ks_field_ok(&l->cpu)) {
		t.has_cpu = true;
		t.cpu = (int32_t)ks_field_get(tb, &l->cpu);
	}
	if (ks_field_ok(&l->nvcsw) && ks_field_ok(&l->nivcsw)) {
		t.has_switches = true;
		t.nvcsw = ks_field_get(tb, &l->nvcsw);
		t.nivcsw = ks_field_get(tb, &l->nivcsw);
	}
	ks_task_last_ran(w, tb, &t);
	ks_task_blocked(w, tb, &t);
	ks_task_comm(w, tb, &t);
	t.cmd = ks_task_cmd(w, tb, e->task, &t);
	ret = t.cmd ? ks_task_stack(w, tb, e->task, &t) : -ENOMEM;
	if (!ret && w->cmd_mm && w->cmd_unread &&
	    w->cmd_mm == ks_field_get(tb, &w->k->l.mm))
		ret = note_unread(w, &t, "command line not all in the image");
	if (!ret && w->name_unread)
		ret = note_unread(w, &t, "name not all in the image");
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

static const struct ks_walk_entry *find_pid(const struct ks_walk *w, int32_t pid)
{
	for (size_t i = 0; i < w->nr; i++)
		if (w->e[i].pid == pid)
			return &w->e[i];
	return NULL;
}

/* -p alone: each PID in the order given, like reading /proc/PID. */
static int emit_pids(struct ks_walk *w)
{
	for (size_t i = 0; i < w->opts->sel->nr_pids; i++) {
		const struct ks_walk_entry *e = find_pid(w, w->opts->sel->pids[i]);
		int ret = 0;

		if (!e)
			continue;	/* the caller reports PIDs that do not exist */
		if (!w->opts->sel->threads) {
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

static int emit_all(struct ks_walk *w)
{
	for (size_t i = 0; i < w->nr; i++) {
		int ret;

		/* without -H only /proc/PID itself: thread group leaders */
		if (!w->opts->sel->threads && w->e[i].pid != w->e[i].tgid)
			continue;
		ret = emit(w, &w->e[i], w->e[i].tgid);
		if (ret)
			return ret;
	}
	return 0;
}

static int sample_setup(struct ks_walk *w)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *t = w->k->t;
	int64_t real, boot;

	/*
	 * Only the start times need the clock: a dump that lacks its page
	 * (cut short) still has every task, each started at "?".
	 */
	if (ks_read(t, l->timekeeper + (uint64_t)l->tk_offs_real.off, &real, 8) ||
	    ks_read(t, l->timekeeper + (uint64_t)l->tk_offs_boot.off, &boot, 8)) {
		w->no_clock = true;
		w->st->no_clock = l->timekeeper;
		return ks_task_cgroup_setup(w);
	}
	/* getboottime64(): offs_real - offs_boot, in whole seconds */
	w->btime = floor_div(real - boot, 1000000000);
	return ks_task_cgroup_setup(w);
}


int ks_kernel_each_task(struct ks_kernel *k,
			int (*fn)(uint64_t task, void *arg), void *arg)
{
	struct ks_kernel_status st = { 0 };
	struct ks_walk w = { .k = k, .st = &st, .threads = true };
	const struct ks_kernel_layout *l = &k->l;
	int ret;

	ret = list_walk(&w, l->init_task + (uint64_t)l->tasks.off,
			"the task list (init_task.tasks)", process_node, NULL);
	for (size_t i = 0; !ret && i < w.nr; i++)
		ret = fn(w.e[i].task, arg);
	free(w.e);
	ks_seen_release(&w.seen);
	return ret;
}

int ks_kernel_walk(struct ks_kernel *k, const struct ks_walk_opts *opts,
		     struct ks_sample *s, struct ks_kernel_status *st,
		     const struct ks_reporter *rep)
{
	struct ks_walk w = { .k = k, .opts = opts, .s = s, .st = st,
			     .rep = rep,
			     .cpu_sw.each_task = ks_kernel_each_task };
	const struct ks_kernel_layout *l = &k->l;
	int ret;

	memset(st, 0, sizeof(*st));
	st->no_last_ran = ks_task_last_ran_missing(l);
	ret = sample_setup(&w);
	if (ret)
		return ret;
	st->nr_module_errors = k->arch->unwinder->report(k->unw, k->unw_err,
						      rep);
	if (k->unw && k->arch->unwinder->note)
		st->unwinder = k->arch->unwinder->note(k->unw);
	/* -p may name a thread: /proc/TID exists even though it is not listed. */
	w.threads = opts->sel->threads || opts->sel->nr_pids || opts->waits;
	ret = list_walk(&w, l->init_task + (uint64_t)l->tasks.off,
			"the task list (init_task.tasks)", process_node, NULL);
	if (ret)
		goto out;
	if (w.nr)	/* w.e is NULL for an empty list: qsort() wants a pointer */
		qsort(w.e, w.nr, sizeof(*w.e), cmp_entry);
	ret = ks_select_pids_only(opts->sel) ? emit_pids(&w) : emit_all(&w);
	if (!ret && opts->waits)
		ret = ks_task_waits(&w);
out:
	free(w.cmd_buf);
	free(w.e);
	free(w.owners);
	ks_task_last_ran_release(&w);
	ks_cpu_switch_release(&w.cpu_sw);
	ks_seen_release(&w.stacks);
	ks_seen_release(&w.seen);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fs/proc/array.c proc_task_name() as /proc/PID/stat prints it: a
 * workqueue worker's comm with "+desc" or "-desc" (wq_worker_comm()), a
 * kernel thread's full name (get_kthread_comm()), else the comm.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel_string.h"
#include "task_walk.h"

/*
 * format_worker_id() (6.10+) names a rescuer "kworker/R-" and its
 * workqueue's whole name, of which the comm holds only the first 15
 * bytes; older kernels name rescuers after the workqueue alone, so the
 * prefix in the comm is what tells that the longer name is printed.
 */
static void rescuer_name(struct ks_walk *w, uint64_t worker, struct ks_task *t)
{
	static const char prefix[] = "kworker/R-";
	const struct ks_kernel_layout *l = &w->k->l;
	const size_t plen = sizeof(prefix) - 1;
	uint64_t wq;

	if (strncmp(t->comm, prefix, plen) ||
	    !ks_field_ok(&l->worker_rescue_wq) || !ks_field_ok(&l->wq_name))
		return;
	if (ks_read_u64(w->k->t, worker + (uint64_t)l->worker_rescue_wq.off, &wq)) {
		w->name_unread = true;
		return;
	}
	if (wq && ks_read_kstring(w->k->t, wq + (uint64_t)l->wq_name.off,
				  t->comm + plen,
				  (size_t)l->wq_name.size + 1 < KS_TCOMM_LEN - plen ?
					  (size_t)l->wq_name.size + 1 :
					  KS_TCOMM_LEN - plen) == -EFAULT)
		w->name_unread = true;
}

/* a worker's "+desc" or "-desc", as wq_worker_comm() appends it */
static void worker_desc(struct ks_walk *w, uint64_t worker, struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *tg = w->k->t;
	char desc[KS_TCOMM_LEN] = "";
	uint64_t pool, cur;
	size_t off;

	if (!ks_field_ok(&l->worker_desc) ||
	    !ks_field_ok(&l->worker_pool) || !ks_field_ok(&l->worker_current_work))
		return;
	if (ks_read_u64(tg, worker + (uint64_t)l->worker_pool.off, &pool) ||
	    ks_read_u64(tg, worker + (uint64_t)l->worker_current_work.off, &cur)) {
		w->name_unread = true;
		return;
	}
	if (!pool)
		return;
	if (ks_read_kstring(tg, worker + (uint64_t)l->worker_desc.off, desc,
			    (size_t)l->worker_desc.size < sizeof(desc) ?
				    (size_t)l->worker_desc.size : sizeof(desc)) == -EFAULT)
		w->name_unread = true;
	if (!desc[0])
		return;
	off = strlen(t->comm);
	snprintf(t->comm + off, KS_TCOMM_LEN - off, "%c%s", cur ? '+' : '-', desc);
}

/*
 * Each read that fails for memory the image lacks leaves a name that
 * passes for the whole one (the comm, or part of it): w->name_unread
 * says so, and the walk notes it.
 */
void ks_task_comm(struct ks_walk *w, const uint8_t *tb, struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *tg = w->k->t;
	uint32_t flags = (uint32_t)ks_field_get(tb, &l->flags);
	uint64_t kthread, worker, name;

	w->name_unread = false;
	ks_copy_kstr(t->comm, sizeof(t->comm), (const char *)tb + l->comm.off,
		     (size_t)l->comm.size);
	if (!(flags & (KS_PF_WQ_WORKER | KS_PF_KTHREAD)) ||
	    !ks_field_ok(&l->worker_private))
		return;
	kthread = ks_field_get(tb, &l->worker_private);
	if (!kthread)
		return;
	if (!(flags & KS_PF_WQ_WORKER)) {
		if (!ks_field_ok(&l->kthread_full_name))
			return;
		if (ks_read_u64(tg, kthread + (uint64_t)l->kthread_full_name.off, &name))
			w->name_unread = true;
		else if (name && ks_read_kstring(tg, name, t->comm, KS_TCOMM_LEN) == -EFAULT)
			w->name_unread = true;
		return;
	}
	if (!ks_field_ok(&l->kthread_data))
		return;
	if (ks_read_u64(tg, kthread + (uint64_t)l->kthread_data.off, &worker)) {
		w->name_unread = true;
		return;
	}
	rescuer_name(w, worker, t);
	worker_desc(w, worker, t);
}

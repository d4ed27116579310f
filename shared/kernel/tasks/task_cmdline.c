// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A task's command line as /proc/PID/cmdline gives it, read from its mm
 * and its user pages, and the Cmd of the record made from it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "task_walk.h"

/* A command line longer than this is cut (the live read has no cap). */
#define MAX_CMDLINE	(16u * 1024 * 1024)

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
static char *read_cmdline(struct ks_walk *w, uint64_t task, uint64_t mm,
			  size_t *len_ret)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *t = w->k->t;
	uint64_t as, ae, es, ee, end;
	size_t len, got = 0;
	char last, *buf;
	uint64_t v[4];

	*len_ret = 0;
	if (read_mm_args(t, l, mm, v)) {
		w->cmd_unread = true;
		return NULL;
	}
	as = v[0];
	ae = v[1];
	es = v[2];
	ee = v[3];
	if (!ee || as >= ae)
		return NULL;
	if (es != ae || ee < es)
		es = ee = ae;
	if (t->ops->read_user(t->ctx, task, ae - 1, &last, 1)) {
		w->cmd_unread = true;
		return NULL;
	}
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
		if (t->ops->read_user(t->ctx, task, a, buf + got, n)) {
			w->cmd_unread = true;
			break;
		}
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
char *ks_task_cmd(struct ks_walk *w, const uint8_t *tb, uint64_t task,
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
		w->cmd_unread = false;
		w->cmd_buf = read_cmdline(w, task, mm, &w->cmd_len);
		w->cmd_mm = mm;
	}
	return ks_cmd_from_cmdline(w->cmd_buf ? w->cmd_buf : "", w->cmd_len,
				   t->comm);
}

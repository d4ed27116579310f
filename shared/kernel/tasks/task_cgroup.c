// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --cgroup for a kernel image: a task's cgroup v2 path, read as
 * /proc/PID/cgroup's "0::" line shows it, against select.c's rule.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel_string.h"
#include "select.h"
#include "task_walk.h"

/* The cgroup v2 path of the task (/proc/PID/cgroup's "0::" line). */
static int task_cgroup_path(struct ks_walk *w, const uint8_t *tb, char *path,
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

bool ks_task_in_cgroup(struct ks_walk *w, const uint8_t *tb, int32_t pid)
{
	char path[4096];

	if (w->cgroup_hidden)
		return false;
	if (task_cgroup_path(w, tb, path, sizeof(path))) {
		ks_say(w->rep, KS_WARN,
		       "PID %d: cgroup cannot be read; not selected", pid);
		return false;
	}
	return ks_select_cgroup(path, w->opts->sel->cgroup);
}

int ks_task_cgroup_setup(struct ks_walk *w)
{
	const struct ks_kernel_layout *l = &w->k->l;
	const struct ks_target *t = w->k->t;
	uint64_t vis;
	uint8_t v;

	if (!w->opts->sel->cgroup)
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

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hook records' lists: one way to add a zeroed slot (through the one
 * growable array, shared/core/grow.h) for kprobes, ftrace records and ftrace_ops.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hooks_records.h"

/*
 * A zeroed slot at the end of v (n elements of size bytes, room for *cap):
 * returns the array, moved if it grew, with *slot set and *n counted; or,
 * without memory, v as it was and *slot NULL.
 */
static void *add_slot(void *v, size_t *n, size_t *cap, size_t size,
		      void **slot)
{
	char *nv = ks_grow(v, cap, *n + 1, size);

	*slot = NULL;
	if (!nv)
		return v;
	*slot = memset(nv + *n * size, 0, size);
	(*n)++;
	return nv;
}

struct ks_kprobe *ks_kprobe_list_add(struct ks_kprobe_list *l)
{
	void *slot;

	l->v = add_slot(l->v, &l->n, &l->cap, sizeof(*l->v), &slot);
	return slot;
}

struct ks_ftrace_ops *ks_ftrace_ops_list_add(struct ks_ftrace_ops_list *l)
{
	void *slot;

	l->v = add_slot(l->v, &l->n, &l->cap, sizeof(*l->v), &slot);
	return slot;
}

void ks_kprobe_list_free(struct ks_kprobe_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void ks_ftrace_ops_list_free(struct ks_ftrace_ops_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].filter);
		free(l->v[i].notrace);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void ks_ftrace_rec_clear(struct ks_ftrace_rec *r)
{
	/* zeroing 17 KB of text per record would cost more than all the rest */
	memset(r, 0, offsetof(struct ks_ftrace_rec, func));
	r->func[0] = '\0';
	r->module[0] = '\0';
	r->target[0] = '\0';
	r->direct_to[0] = '\0';
	r->call_ops_text.tramp[0] = '\0';
	r->call_ops_text.func[0] = '\0';
}

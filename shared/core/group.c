// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Group tasks by byte-identical stack text.  An open-addressing table of
 * group indexes keeps this linear in the number of tasks; groups keep the
 * order in which their stack was first seen, as oled kstack's dict did.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "fnv1a.h"
#include "grow.h"

static int add_member(struct ks_group *g, size_t idx)
{
	size_t *m = ks_grow_min(g->members, &g->cap, g->nr_members + 1,
				sizeof(*m), 4);

	if (!m)
		return -ENOMEM;
	g->members = m;
	g->members[g->nr_members++] = idx;
	return 0;
}

/*
 * Tasks group by their stack's text, and a text the dump's missing memory
 * made (an empty or short stack) apart from the same text whole: a
 * sleeping task whose stack is gone is no running task with none.
 */
static bool same_group(const struct ks_group *grp, const char *stack,
		       bool missing)
{
	return grp->missing == missing && !strcmp(grp->stack, stack);
}

static size_t table_size(size_t n)
{
	size_t size = 16;

	while (size < n * 2)
		size *= 2;
	return size;
}

int ks_group_build(const struct ks_sample *s, struct ks_groups *g_ret)
{
	size_t size = table_size(s->nr_tasks);
	size_t *slots = calloc(size, sizeof(*slots));	/* group index + 1 */
	struct ks_groups g = { 0 };
	int ret = -ENOMEM;

	if (!slots)
		return -ENOMEM;
	g.groups = calloc(s->nr_tasks ? s->nr_tasks : 1, sizeof(*g.groups));
	if (!g.groups)
		goto out;
	for (size_t i = 0; i < s->nr_tasks; i++) {
		const char *stack = s->tasks[i].stack ? s->tasks[i].stack : "";
		bool missing = s->tasks[i].stack_missing;
		size_t h = (ks_fnv1a_str(KS_FNV1A_INIT, stack) + missing) &
			   (size - 1);

		while (slots[h] && !same_group(&g.groups[slots[h] - 1], stack,
					       missing))
			h = (h + 1) & (size - 1);
		if (!slots[h]) {
			g.groups[g.nr_groups].stack = stack;
			g.groups[g.nr_groups].missing = missing;
			slots[h] = ++g.nr_groups;
		}
		if (add_member(&g.groups[slots[h] - 1], i))
			goto out;
	}
	*g_ret = g;
	g.groups = NULL;
	ret = 0;
out:
	if (g.groups)
		ks_group_release(&g);
	free(slots);
	return ret;
}

void ks_group_release(struct ks_groups *g)
{
	for (size_t i = 0; i < g->nr_groups; i++)
		free(g->groups[i].members);
	free(g->groups);
	g->groups = NULL;
	g->nr_groups = 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A capture's records: its tasks, and its stacks each kept once however
 * many tasks share it (a log's group, a dump's task).  A task's signature
 * is computed as it is added, so that the comparison only compares.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "grow.h"

int ks_diff_stack(struct ks_diff_capture *c, const char *stack, size_t *idx)
{
	char **v, *copy;

	if (c->nr_stacks == c->cap_stacks) {
		v = ks_grow(c->stacks, &c->cap_stacks, c->nr_stacks + 1,
			    sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->stacks = v;
	}
	copy = strdup(stack ? stack : "");
	if (!copy)
		return -ENOMEM;
	c->stacks[c->nr_stacks] = copy;
	*idx = c->nr_stacks++;
	return 0;
}

int ks_diff_add(struct ks_diff_capture *c, const struct ks_diff_task *t)
{
	struct ks_diff_task *v;

	if (c->nr == c->cap) {
		v = ks_grow(c->tasks, &c->cap, c->nr + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->tasks = v;
	}
	v = &c->tasks[c->nr++];
	*v = *t;
	ks_stack_signature(v->state, c->stacks[v->stack], v->sig);
	return 0;
}

void ks_diff_clear(struct ks_diff_capture *c)
{
	for (size_t i = 0; i < c->nr_stacks; i++)
		free(c->stacks[i]);
	c->nr_stacks = 0;
	c->nr = 0;
	c->time = 0;
	c->host[0] = '\0';
}

void ks_diff_release(struct ks_diff_capture *c)
{
	ks_diff_clear(c);
	free(c->stacks);
	free(c->tasks);
	c->stacks = NULL;
	c->tasks = NULL;
	c->cap = c->cap_stacks = 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_stacks.h"

static int rehash(struct ks_rp_stacks *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 256;
	size_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t j = (size_t)t->v[i].hash & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nr_slots = n;
	return 0;
}

static struct ks_rp_stack *insert(struct ks_rp_stacks *t, size_t slot,
				  uint64_t hash, const char *text, size_t len)
{
	struct ks_rp_stack *v, *e;

	if (t->nr == t->cap) {
		v = ks_grow(t->v, &t->cap, t->nr + 1, sizeof(*v));
		if (!v)
			return NULL;
		t->v = v;
	}
	e = &t->v[t->nr];
	memset(e, 0, sizeof(*e));
	e->text = malloc(len + 1);
	if (!e->text)
		return NULL;
	memcpy(e->text, text, len);
	e->text[len] = '\0';
	e->len = len;
	e->hash = hash;
	t->slots[slot] = ++t->nr;
	return e;
}

struct ks_rp_stack *ks_rp_stacks_get(struct ks_rp_stacks *t, uint64_t hash,
				     const char *text, size_t len)
{
	size_t j;

	/* at most half full: probes stay short */
	if ((t->nr + 1) * 2 > t->nr_slots && rehash(t))
		return NULL;
	for (j = (size_t)hash & (t->nr_slots - 1); t->slots[j];
	     j = (j + 1) & (t->nr_slots - 1)) {
		struct ks_rp_stack *e = &t->v[t->slots[j] - 1];

		if (e->hash == hash && e->len == len && !memcmp(e->text, text, len))
			return e;
	}
	return insert(t, j, hash, text, len);
}

void ks_rp_stack_add_state(struct ks_rp_stack *e, char state,
			   unsigned long n)
{
	const char *k = state ? strchr(KS_RP_STATES, state) : NULL;

	if (k) {
		e->states[k - KS_RP_STATES] += n;
	} else if (!e->other || e->other == state) {
		e->other = state ? state : '?';
		e->states[KS_RP_NR_STATES] += n;
	} else {
		e->states[KS_RP_NR_STATES + 1] += n;
	}
}

void ks_rp_stack_states(const struct ks_rp_stack *e,
			void (*fn)(char state, unsigned long n, void *arg),
			void *arg)
{
	for (size_t i = 0; i < KS_RP_NR_STATES; i++)
		if (e->states[i])
			fn(KS_RP_STATES[i], e->states[i], arg);
	if (e->states[KS_RP_NR_STATES])
		fn(e->other, e->states[KS_RP_NR_STATES], arg);
	if (e->states[KS_RP_NR_STATES + 1])
		fn('?', e->states[KS_RP_NR_STATES + 1], arg);
}

/* A task's PID and command as one of e's examples, the command interned. */
static int add_example(struct ks_rp_stacks *t, struct ks_rp_stack *e,
		       const struct ks_rp_task *k)
{
	struct ks_rp_stack *c;
	size_t len;

	if (k->pid <= 0)
		return 0;	/* -c's and --folded's unnamed tasks */
	for (size_t x = 0; x < e->nr_examples; x++)
		if (e->examples[x] == k->pid)
			return 0;
	if (!t->cmds) {
		t->cmds = calloc(1, sizeof(*t->cmds));
		if (!t->cmds)
			return -ENOMEM;
	}
	len = strlen(k->cmd);
	c = ks_rp_stacks_get(t->cmds, ks_rp_hash(k->cmd, len), k->cmd, len);
	if (!c)
		return -ENOMEM;
	e->examples[e->nr_examples] = k->pid;
	e->example_cmd[e->nr_examples++] = c->text;
	return 0;
}

int ks_rp_stacks_count(struct ks_rp_stacks *t, const struct ks_rp_sample *s,
		       unsigned long seq)
{
	for (size_t i = 0; i < s->nr_tasks; i++) {
		const struct ks_rp_task *k = &s->tasks[i];
		const struct ks_rp_group *g = &s->groups[k->group];
		struct ks_rp_stack *e;

		e = ks_rp_stacks_get(t, g->hash, g->stack ? g->stack : "", g->len);
		if (!e)
			return -ENOMEM;
		e->tasks += k->weight;
		ks_rp_stack_add_state(e, k->state, k->weight);
		/* --folded: no sample to count it in */
		if (!s->untimed && e->last_seq != seq + 1) {
			e->samples++;
			e->last_seq = seq + 1;
		}
		if (e->nr_examples < KS_RP_EXAMPLES && add_example(t, e, k))
			return -ENOMEM;
	}
	return 0;
}

static const struct ks_rp_stacks *sort_table;

static int by_tasks(const void *a, const void *b)
{
	const struct ks_rp_stack *x = &sort_table->v[*(const size_t *)a];
	const struct ks_rp_stack *y = &sort_table->v[*(const size_t *)b];

	if (x->tasks != y->tasks)
		return x->tasks > y->tasks ? -1 : 1;
	return x < y ? -1 : x > y;	/* first seen first */
}

size_t *ks_rp_stacks_sorted(const struct ks_rp_stacks *t)
{
	size_t *idx = malloc((t->nr ? t->nr : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < t->nr; i++)
		idx[i] = i;
	sort_table = t;
	qsort(idx, t->nr, sizeof(*idx), by_tasks);
	return idx;
}

void ks_rp_stacks_release(struct ks_rp_stacks *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->v[i].text);
	free(t->v);
	free(t->slots);
	if (t->cmds) {
		ks_rp_stacks_release(t->cmds);
		free(t->cmds);
	}
	memset(t, 0, sizeof(*t));
}

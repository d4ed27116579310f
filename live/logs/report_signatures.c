// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack report by signature over time.  A stack's tasks usually share
 * one state, so a signature is computed once per distinct stack and
 * state of the period (the stacks table's entry keeps it), not once per
 * task or sample.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_signatures.h"
#include "u64_map.h"

static int new_sig(struct ks_rp_sigs *t, const char *sig, char state,
		   const char *stack, size_t *idx_ret)
{
	struct ks_rp_sig *e;

	if (t->nr == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct ks_rp_sig *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	e = &t->v[t->nr];
	memset(e, 0, sizeof(*e));
	memcpy(e->sig, sig, KS_SIGNATURE_LEN);
	e->state = state;
	ks_stack_top_frame(stack, e->top, sizeof(e->top));
	if (!*e->top)
		snprintf(e->top, sizeof(e->top), "(empty stack)");
	*idx_ret = t->nr++;
	return 0;
}

/* The signature of stack in state: its index, made if new. */
static int find_sig(struct ks_rp_sigs *t, char state, const char *stack,
		    size_t *idx_ret)
{
	char sig[KS_SIGNATURE_LEN];
	uint64_t key, val;
	int ret;

	ks_stack_signature(state, stack, sig);
	key = strtoull(sig, NULL, 16) | 1ull << 63;
	if (ks_u64_map_get(&t->index, key, &val)) {
		*idx_ret = val - 1;
		return 0;
	}
	ret = new_sig(t, sig, state, stack, idx_ret);
	if (!ret)
		ret = ks_u64_map_put(&t->index, key, *idx_ret + 1);
	return ret;
}

/*
 * A task's signature, hashed once per distinct stack and state of the
 * whole period: the stacks table's entry keeps the last one.
 */
static int task_sig(struct ks_rp_sigs *t, struct ks_rp_stacks *stacks,
		    const struct ks_rp_sample *s, const struct ks_rp_task *k,
		    struct ks_rp_stack **by_group, size_t *idx_ret)
{
	const struct ks_rp_group *g = &s->groups[k->group];
	struct ks_rp_stack *e = by_group[k->group];
	int ret;

	if (!e)
		e = by_group[k->group] = ks_rp_stacks_get(stacks, g->hash,
					g->stack ? g->stack : "", g->len);
	if (!e)
		return -ENOMEM;
	if (e->sig_state != k->state) {
		ret = find_sig(t, k->state, e->text, idx_ret);
		if (ret)
			return ret;
		e->sig_idx = (uint32_t)*idx_ret;
		e->sig_state = k->state;
	}
	*idx_ret = e->sig_idx;
	return 0;
}

static void count(struct ks_rp_sig *e, const struct ks_rp_task *k,
		  unsigned long seq)
{
	if (e->now_seq != seq)
		e->now = 0;
	e->now_seq = seq;
	e->now += k->weight;
	if (e->now > e->most)
		e->most = e->now;
	if (!seq)
		e->first = e->now;
}

static struct ks_rp_stayer *stayer(struct ks_rp_sigs *t, int pid)
{
	size_t j = (size_t)pid & (t->nr_slots - 1);

	while (t->stay[j].pid && t->stay[j].pid != pid)
		j = (j + 1) & (t->nr_slots - 1);
	return &t->stay[j];
}

static int grow_stay(struct ks_rp_sigs *t)
{
	struct ks_rp_stayer *old = t->stay;
	size_t nr_old = t->nr_slots;

	t->nr_slots = nr_old ? 2 * nr_old : 1024;
	t->stay = calloc(t->nr_slots, sizeof(*t->stay));
	if (!t->stay) {
		t->stay = old;
		t->nr_slots = nr_old;
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr_old; i++)
		if (old[i].pid)
			*stayer(t, old[i].pid) = old[i];
	free(old);
	return 0;
}

/* The first sample's tasks are candidates; later ones only keep them. */
static int track(struct ks_rp_sigs *t, const struct ks_rp_task *k,
		 size_t idx, unsigned long seq)
{
	struct ks_rp_stayer *p;

	if (!k->pid)
		return 0;
	if (!seq && 2 * (t->nr_stay + 1) > t->nr_slots && grow_stay(t))
		return -ENOMEM;
	if (!t->nr_slots)
		return 0;
	p = stayer(t, k->pid);
	if (!seq && !p->pid) {
		p->pid = k->pid;
		memcpy(p->start, k->start, sizeof(p->start));
		memcpy(p->cmd, k->cmd, sizeof(p->cmd));
		p->sig = idx;
		t->nr_stay++;
		return 0;
	}
	if (p->pid && p->seen_seq + 1 == seq && p->sig == idx &&
	    !strcmp(p->start, k->start))
		p->seen_seq = seq;
	return 0;
}

int ks_rp_sigs_sample(struct ks_rp_sigs *t, struct ks_rp_stacks *stacks,
		      const struct ks_rp_sample *s, unsigned long seq)
{
	/* each group's entry of the stacks table, looked up once a sample */
	struct ks_rp_stack **by_group = calloc(s->nr_groups ? s->nr_groups : 1,
					       sizeof(*by_group));
	int ret = 0;

	if (!by_group)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_tasks && !ret; i++) {
		const struct ks_rp_task *k = &s->tasks[i];
		size_t idx;

		ret = task_sig(t, stacks, s, k, by_group, &idx);
		if (!ret) {
			count(&t->v[idx], k, seq);
			ret = track(t, k, idx, seq);
		}
	}
	free(by_group);
	t->seq = seq + 1;
	return ret;
}

static const struct ks_rp_sigs *sort_sigs;

static long grown(const struct ks_rp_sig *e)
{
	return e->last > e->first ? (long)(e->last - e->first) : 0;
}

/* D first, then stopped or traced, then the rest */
static int state_rank(char state)
{
	return state == 'D' ? 0 : state == 'T' || state == 't' ? 1 : 2;
}

static int by_growth(const void *a, const void *b)
{
	const struct ks_rp_sig *x = &sort_sigs->v[*(const size_t *)a];
	const struct ks_rp_sig *y = &sort_sigs->v[*(const size_t *)b];

	if (grown(x) != grown(y))
		return grown(x) > grown(y) ? -1 : 1;
	if (state_rank(x->state) != state_rank(y->state))
		return state_rank(x->state) - state_rank(y->state);
	if (x->stayed != y->stayed)
		return x->stayed > y->stayed ? -1 : 1;
	return strcmp(x->sig, y->sig);
}

static void count_stayers(struct ks_rp_sigs *t)
{
	for (size_t i = 0; i < t->nr_slots; i++) {
		const struct ks_rp_stayer *p = &t->stay[i];
		struct ks_rp_sig *e;

		if (!p->pid || p->seen_seq + 1 != t->seq)
			continue;
		e = &t->v[p->sig];
		if (!e->stayed++ || p->pid < e->example) {
			e->example = p->pid;
			e->example_cmd = p->cmd;
		}
	}
}

size_t *ks_rp_sigs_finish(struct ks_rp_sigs *t, size_t *nr_ret)
{
	size_t *idx = malloc((t->nr ? t->nr : 1) * sizeof(*idx));
	size_t n = 0;

	if (!idx)
		return NULL;
	count_stayers(t);
	for (size_t i = 0; i < t->nr; i++) {
		struct ks_rp_sig *e = &t->v[i];

		e->last = e->now_seq + 1 == t->seq ? e->now : 0;
		if (e->last > e->first || e->stayed)
			idx[n++] = i;
	}
	sort_sigs = t;
	qsort(idx, n, sizeof(*idx), by_growth);
	*nr_ret = n;
	return idx;
}

void ks_rp_sigs_release(struct ks_rp_sigs *t)
{
	free(t->v);
	free(t->stay);
	ks_u64_map_release(&t->index);
	memset(t, 0, sizeof(*t));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack report by signature over time.  A group's tasks usually share
 * one state, so a sample's signatures are computed once per group and
 * state (the last one kept), not once per task.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_signatures.h"
#include "u64_map.h"

/* A group's last signature in this sample: its state and index. */
struct group_sig {
	char state;
	size_t idx;
};

/* The innermost frame, without "[<0>] " and its offset. */
static char *top_frame(const char *stack)
{
	const char *s = stack ? stack : "";
	size_t n;

	if (!strncmp(s, "[<", 2) && strstr(s, "] "))
		s = strstr(s, "] ") + 2;
	n = strcspn(s, "+ \n");
	if (!n)
		return strdup("(empty stack)");
	return strndup(s, n);
}

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
	e->top = top_frame(stack);
	if (!e->top)
		return -ENOMEM;
	*idx_ret = t->nr++;
	return 0;
}

static int find_sig(struct ks_rp_sigs *t, char state, const char *stack,
		    size_t *idx_ret)
{
	char sig[KS_SIGNATURE_LEN];
	uint64_t key, val;
	int ret;

	ks_stack_signature(state, stack ? stack : "", sig);
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

static int task_sig(struct ks_rp_sigs *t, const struct ks_rp_sample *s,
		    const struct ks_rp_task *k, struct group_sig *gs,
		    size_t *idx_ret)
{
	struct group_sig *g = &gs[k->group];
	int ret;

	if (g->state != k->state) {
		ret = find_sig(t, k->state, s->groups[k->group].stack, &g->idx);
		if (ret)
			return ret;
		g->state = k->state;
	}
	*idx_ret = g->idx;
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

int ks_rp_sigs_sample(struct ks_rp_sigs *t, const struct ks_rp_sample *s,
		      unsigned long seq)
{
	struct group_sig *gs = calloc(s->nr_groups ? s->nr_groups : 1,
				      sizeof(*gs));
	int ret = 0;

	if (!gs)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_tasks && !ret; i++) {
		const struct ks_rp_task *k = &s->tasks[i];
		size_t idx;

		ret = task_sig(t, s, k, gs, &idx);
		if (!ret) {
			count(&t->v[idx], k, seq);
			ret = track(t, k, idx, seq);
		}
	}
	free(gs);
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
	for (size_t i = 0; i < t->nr; i++)
		free(t->v[i].top);
	free(t->v);
	free(t->stay);
	ks_u64_map_release(&t->index);
	memset(t, 0, sizeof(*t));
}

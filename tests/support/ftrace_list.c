// SPDX-License-Identifier: GPL-2.0-or-later
/* The list forms of ftrace_list.h, over the tool's streaming API. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace_list.h"

struct ks_ftrace_rec *ks_ftrace_list_add(struct ks_ftrace_list *l)
{
	struct ks_ftrace_rec *v = l->v;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;

		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	return memset(&l->v[l->n++], 0, sizeof(*v));
}

void ks_ftrace_list_free(struct ks_ftrace_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Each record copied into a list. */
static int list_rec(void *arg, const struct ks_ftrace_rec *r)
{
	struct ks_ftrace_rec *slot = ks_ftrace_list_add(arg);

	if (!slot)
		return -ENOMEM;
	*slot = *r;
	return 0;
}

int ks_ftrace_walk(const struct ks_ftrace_walker *w,
		   const struct ks_ftrace_ops_list *ops,
		   struct ks_ftrace_list *out)
{
	return ks_ftrace_walk_each(w, ops, false, list_rec, out);
}

int ks_ftrace_walk_touched(const struct ks_ftrace_walker *w,
			   const struct ks_ftrace_ops_list *ops,
			   struct ks_ftrace_list *out)
{
	return ks_ftrace_walk_each(w, ops, true, list_rec, out);
}

void ks_ftrace_summary(FILE *out, const struct ks_ftrace_list *l)
{
	struct ks_ftrace_stats s = { 0 };

	for (size_t i = 0; i < l->n; i++)
		ks_ftrace_stats_add(&s, &l->v[i]);
	ks_ftrace_stats_print(out, &s);
	ks_ftrace_stats_free(&s);
}

void ks_ftrace_print_all(FILE *out, const struct ks_ftrace_list *l)
{
	char *line = malloc(KS_FTRACE_LINE_MAX);

	if (!line)
		return;
	for (size_t i = 0; i < l->n; i++) {
		ks_ftrace_format(&l->v[i], line, KS_FTRACE_LINE_MAX);
		fprintf(out, "%s\n", line);
	}
	free(line);
}

/* The records' direct-call targets, in record order, are the owners'. */
void ks_ftrace_ops_owners(FILE *out, const struct ks_target *t,
			  const struct ks_ftrace_ops_list *l,
			  const struct ks_ftrace_list *recs)
{
	uint64_t *direct = calloc(recs && recs->n ? recs->n : 1, sizeof(*direct));
	size_t n = 0;

	if (!direct)
		return;
	for (size_t i = 0; recs && i < recs->n; i++)
		direct[n++] = recs->v[i].direct_addr;
	ks_ftrace_ops_owners_direct(out, t, l, direct, n);
	free(direct);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -c: one paragraph per distinct stack, the most common first, so that
 * "what are most tasks doing" is the first thing on the screen:
 *
 *   93 tasks   States: S 92, D 1   Signatures: S 5d1c..., D 0a9e...   e.g. 12 (sleep), ...
 *   [<0>] hrtimer_nanosleep+0x9e/0x170
 *
 * With --all the line names every task of the group ("all: 12 (sleep),
 * ...") in place of three examples, still one line, so that grep finds
 * a PID with its stack below.  With --waits or -D (a dump) the line
 * gives the group's oldest and youngest wait, the time since each task
 * last ran, after its states; with -D also the longest a task of it has
 * been blocked by the hung-task detector's record, where the kernel
 * keeps one ("blocked 5.120s (301, last_switch_time)").  A group none
 * of whose tasks has a time (the live /proc) prints as without them.
 * Then the group's signature, one per state, as --json names stacks.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "format_time.h"
#include "report.h"
#include "stack_signature.h"
#include "text_escape.h"

#define EXAMPLES 3

static const struct ks_groups *sort_groups;

static int by_count(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	size_t na = sort_groups->groups[ia].nr_members;
	size_t nb = sort_groups->groups[ib].nr_members;

	if (na != nb)
		return na > nb ? -1 : 1;
	return ia < ib ? -1 : ia > ib;	/* stable: first seen first */
}

static void print_states(FILE *out, const struct ks_sample *s,
			 const struct ks_group *grp)
{
	size_t count[128] = { 0 };
	const char *sep = "";

	for (size_t j = 0; j < grp->nr_members; j++)
		count[(unsigned char)s->tasks[grp->members[j]].state & 127]++;
	fputs("   States:", out);
	/* the order of the kernel's task_state_array, then anything else */
	for (const char *c = "RSDTtXZPI"; *c; c++) {
		if (!count[(int)*c])
			continue;
		fprintf(out, "%s %c %zu", sep, *c, count[(int)*c]);
		count[(int)*c] = 0;
		sep = ",";
	}
	for (int c = 1; c < 128; c++)
		if (count[c]) {
			fprintf(out, "%s %c %zu", sep, c, count[c]);
			sep = ",";
		}
}

const struct ks_task *ks_group_oldest(const struct ks_sample *s,
				      const struct ks_group *grp, bool youngest)
{
	const struct ks_task *best = NULL;

	for (size_t j = 0; j < grp->nr_members; j++) {
		const struct ks_task *t = &s->tasks[grp->members[j]];

		if (!t->has_last_ran)
			continue;
		if (!best || (youngest ? t->last_ran_ns < best->last_ran_ns :
					 t->last_ran_ns > best->last_ran_ns))
			best = t;
	}
	return best;
}

const struct ks_task *ks_group_blocked_longest(const struct ks_sample *s,
					       const struct ks_group *grp)
{
	const struct ks_task *best = NULL;

	for (size_t j = 0; j < grp->nr_members; j++) {
		const struct ks_task *t = &s->tasks[grp->members[j]];

		if (t->has_blocked && (!best || t->blocked_ns > best->blocked_ns))
			best = t;
	}
	return best;
}

/* -c --waits: the oldest and the youngest wait of the group, as pykdump. */
static void print_waits(FILE *out, const struct ks_sample *s,
			const struct ks_group *grp)
{
	const struct ks_task *old = ks_group_oldest(s, grp, false);
	const struct ks_task *young = ks_group_oldest(s, grp, true);
	char a[KS_TIME_LEN], b[KS_TIME_LEN];

	if (!old)
		return;
	fprintf(out, "   oldest %s (%d), youngest %s (%d)",
		ks_time_ms(a, sizeof(a), old->last_ran_ns), old->pid,
		ks_time_ms(b, sizeof(b), young->last_ran_ns), young->pid);
}

/* -D -c: the task of the group blocked longest, by last_switch_time */
static void print_blocked(FILE *out, const struct ks_sample *s,
			  const struct ks_group *grp)
{
	const struct ks_task *t = ks_group_blocked_longest(s, grp);
	char a[KS_TIME_LEN];

	if (t)
		fprintf(out, "   blocked %s (%d, last_switch_time)",
			ks_time_ms(a, sizeof(a), t->blocked_ns), t->pid);
}

size_t ks_group_states(const struct ks_sample *s, const struct ks_group *grp,
		       char states[128])
{
	bool seen[128] = { false };
	size_t nr = 0;

	for (size_t j = 0; j < grp->nr_members; j++)
		seen[(unsigned char)s->tasks[grp->members[j]].state & 127] = true;
	/* print_states()'s order: task_state_array's, then anything else */
	for (const char *c = "RSDTtXZPI"; *c; c++)
		if (seen[(int)*c]) {
			states[nr++] = *c;
			seen[(int)*c] = false;
		}
	for (int c = 1; c < 128; c++)
		if (seen[c])
			states[nr++] = (char)c;
	return nr;
}

static void put_state(FILE *out, char state)
{
	fputc(state, out);
}

static const struct ks_sig_style text_sigs = {
	"   Signature:", "   Signatures:", "", "", put_state
};

/*
 * The group's signature (docs/signature.md), as --json gives it: one per
 * state of its tasks, in the order of the States, "Signature: 1a2b..."
 * for one state and "Signatures: S 1a2b..., D 3c4d..." for more.
 */
void ks_format_signatures(FILE *out, const struct ks_sample *s,
			  const struct ks_group *grp,
			  const struct ks_sig_style *st)
{
	char states[128], sig[KS_SIGNATURE_LEN];
	size_t nr = ks_group_states(s, grp, states);

	fputs(nr == 1 ? st->one : st->many, out);
	for (size_t i = 0; i < nr; i++) {
		ks_stack_signature(states[i], grp->stack, sig);
		if (nr > 1) {
			fputs(i ? ", " : " ", out);
			st->state(out, states[i]);
		}
		fprintf(out, " %s%s%s", st->open, sig, st->close);
	}
}

static void print_group(FILE *out, const struct ks_sample *s,
			const struct ks_group *grp, size_t examples,
			bool waits, bool stuck)
{
	size_t n = grp->nr_members;

	fprintf(out, "%zu task%s", n, n == 1 ? "" : "s");
	print_states(out, s, grp);
	if (waits || stuck)
		print_waits(out, s, grp);
	if (stuck)
		print_blocked(out, s, grp);
	ks_format_signatures(out, s, grp, &text_sigs);
	fputs(examples == SIZE_MAX ? "   all:" : "   e.g.", out);
	for (size_t j = 0; j < n && j < examples; j++) {
		const struct ks_task *t = &s->tasks[grp->members[j]];

		fprintf(out, "%s %d (", j ? "," : "", t->pid);
		ks_fputs_escaped(t->comm, out);
		fputc(')', out);
	}
	fprintf(out, "%s\n%s\n", n > examples ? " ..." : "", grp->stack);
}

static int summary(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g, size_t examples, bool waits,
		   bool stuck)
{
	char header[KS_HOST_LEN + 160];
	size_t *order;
	int ret = ks_format_header(header, sizeof(header), s->when, s->host);

	if (ret)
		return ret;
	order = malloc((g->nr_groups ? g->nr_groups : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_groups; i++)
		order[i] = i;
	sort_groups = g;
	qsort(order, g->nr_groups, sizeof(*order), by_count);
	fprintf(out, "%s\n%zu task%s, %zu distinct stack%s\n\n", header,
		s->nr_tasks, ks_plural(s->nr_tasks), g->nr_groups,
		ks_plural(g->nr_groups));
	for (size_t i = 0; i < g->nr_groups; i++)
		print_group(out, s, &g->groups[order[i]], examples, waits,
			    stuck);
	free(order);
	return ferror(out) ? -EIO : 0;
}

/* -c --all: every task of a group, not three examples */
int ks_format_summary(FILE *out, const struct ks_sample *s,
		      const struct ks_groups *g, const struct ks_format_opts *opts)
{
	return summary(out, s, g, opts->summary_all ? SIZE_MAX : EXAMPLES,
		       opts->waits, opts->stuck_time);
}

/* the longest time since a task of the group last ran; 0 if none says */
static uint64_t group_age(const struct ks_sample *s, const struct ks_group *grp)
{
	uint64_t age = 0;

	for (size_t j = 0; j < grp->nr_members; j++) {
		const struct ks_task *t = &s->tasks[grp->members[j]];

		if (t->has_last_ran && t->last_ran_ns > age)
			age = t->last_ran_ns;
	}
	return age;
}

static const struct ks_sample *sort_sample;

static int by_age(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	uint64_t x = group_age(sort_sample, &sort_groups->groups[ia]);
	uint64_t y = group_age(sort_sample, &sort_groups->groups[ib]);

	if (x != y)
		return x > y ? -1 : 1;
	return by_count(a, b);
}

int ks_format_summary_by_age(FILE *out, const struct ks_sample *s,
			     const struct ks_groups *g)
{
	size_t *order = malloc((g->nr_groups ? g->nr_groups : 1) * sizeof(*order));

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_groups; i++)
		order[i] = i;
	sort_groups = g;
	sort_sample = s;
	qsort(order, g->nr_groups, sizeof(*order), by_age);
	for (size_t i = 0; i < g->nr_groups; i++)
		print_group(out, s, &g->groups[order[i]], EXAMPLES, true,
			    true);
	free(order);
	return ferror(out) ? -EIO : 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack diff's text: the two captures, what was set aside, then the
 * groups whose count changed, the tasks that moved, appeared or
 * vanished, those that ran in between back into one stack, and those
 * stuck across both, each with its stack as the captures print stacks
 * ("[<0>] frame").
 */
#include <stdio.h>
#include <time.h>

#include "diff_write.h"
#include "text_escape.h"

static const char *const change_names[] = {
	[KS_DIFF_APPEARED] = "appeared",
	[KS_DIFF_VANISHED] = "vanished",
	[KS_DIFF_GREW] = "grew",
	[KS_DIFF_SHRANK] = "shrank",
};

const char *ks_diff_change_name(enum ks_diff_change c)
{
	return change_names[c];
}

static void capture_line(FILE *out, const char *mark,
			 const struct ks_diff_capture *c)
{
	char when[64] = "no time";
	struct tm tm;

	if (c->time && localtime_r(&c->time, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
	fprintf(out, "%s ", mark);
	ks_fputs_escaped(c->name, out);
	fprintf(out, " (%s, %s)\n", *c->host ? c->host : "no host", when);
}

/* The stack's lines, or one empty line for an empty stack. */
static void stack_lines(FILE *out, const char *stack)
{
	fputs(*stack ? stack : "\n", out);
	fputc('\n', out);
}

static void groups(FILE *out, const struct ks_diff_result *r)
{
	unsigned long n[4] = { 0 };

	for (size_t i = 0; i < r->nr_groups; i++)
		n[r->groups[i].change]++;
	fprintf(out, "\n== groups: %lu appeared, %lu vanished, %lu grew, %lu shrank\n\n",
		n[0], n[1], n[2], n[3]);
	for (size_t i = 0; i < r->nr_groups; i++) {
		const struct ks_diff_group *g = &r->groups[i];

		fprintf(out, "%-8s  %s  State: %c   %lu -> %lu tasks\n",
			change_names[g->change], g->sig, g->state, g->a, g->b);
		stack_lines(out, g->stack);
	}
}

static void task_line(FILE *out, const char *what,
		      const struct ks_diff_task *a, const struct ks_diff_task *b)
{
	const struct ks_diff_task *t = b ? b : a;

	fprintf(out, "%-8s  PID: %5d   ", what, (int)t->pid);
	if (a && b)
		fprintf(out, "State: %c -> %c   %s -> %s", a->state, b->state,
			a->sig, b->sig);
	else
		fprintf(out, "State: %c   %s", t->state, t->sig);
	fputs("   Cmd: ", out);
	ks_fputs_escaped(t->cmd, out);
	fputc('\n', out);
}

static void pairs(FILE *out, const char *what, const struct ks_diff_pair *v,
		  size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		task_line(out, what, v[i].a, v[i].b);
		stack_lines(out, v[i].stack);
	}
}

static void tasks(FILE *out, const struct ks_diff_result *r)
{
	fprintf(out, "== tasks: %zu moved, %zu appeared, %zu vanished\n\n",
		r->nr_moved, r->nr_appeared, r->nr_vanished);
	pairs(out, "moved", r->moved, r->nr_moved);
	pairs(out, "appeared", r->appeared, r->nr_appeared);
	pairs(out, "vanished", r->vanished, r->nr_vanished);
}

static void switches(FILE *out, const struct ks_diff_task *t)
{
	fprintf(out, "%llu+%llu", (unsigned long long)t->nvcsw,
		(unsigned long long)t->nivcsw);
}

/* A task in one stack on both sides, with its switch counts. */
static void same_stack(FILE *out, const char *what, const struct ks_diff_pair *p)
{
	const struct ks_diff_task *t = p->b;

	fprintf(out, "%-8s  PID: %5d   State: %c   %s   switches: ", what,
		(int)t->pid, t->state, t->sig);
	if (p->a->nvcsw != t->nvcsw || p->a->nivcsw != t->nivcsw) {
		switches(out, p->a);
		fputs(" -> ", out);
	}
	switches(out, t);
	fputs("   Cmd: ", out);
	ks_fputs_escaped(t->cmd, out);
	fputc('\n', out);
	stack_lines(out, p->stack);
}

static void ran(FILE *out, const struct ks_diff_result *r)
{
	fprintf(out, "== ran in between: %zu in the same stack on both sides "
		"whose switch counts moved\n\n", r->nr_ran);
	for (size_t i = 0; i < r->nr_ran; i++)
		same_stack(out, "ran", &r->ran[i]);
}

static void stuck(FILE *out, const struct ks_diff_result *r)
{
	fprintf(out, "== stuck across both: %zu in the same D or T stack "
		"without a context switch, of %lu whose switch counts both "
		"sides have\n\n", r->nr_stuck, r->switches_known);
	for (size_t i = 0; i < r->nr_stuck; i++)
		same_stack(out, "stuck", &r->stuck[i]);
}

void ks_diff_text(FILE *out, const struct ks_diff_capture *a,
		  const struct ks_diff_capture *b,
		  const struct ks_diff_result *r)
{
	capture_line(out, "---", a);
	capture_line(out, "+++", b);
	fprintf(out, "%lu tasks compared in A, %lu in B; %lu set aside: "
		"running (R) on either side\n", r->a_total, r->b_total,
		r->running);
	if (!r->changed)
		fprintf(out, "the same: every task in the same signature "
			"(%lu named)\n", r->same);
	groups(out, r);
	tasks(out, r);
	ran(out, r);
	stuck(out, r);
}

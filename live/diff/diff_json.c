// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack diff --json: one document on one line, its keys as
 * docs/diff-json.md lists them; the stacks' frames as --json writes
 * them (without "[<0>] ").
 */
#include <stdio.h>

#include "diff_write.h"
#include "format.h"
#include "version.h"

static void capture(FILE *out, const char *key, const struct ks_diff_capture *c,
		    unsigned long tasks)
{
	fprintf(out, "\"%s\":{\"name\":", key);
	ks_json_str(out, c->name);
	fputs(",\"host\":", out);
	ks_json_str(out, c->host);
	if (c->time)
		fprintf(out, ",\"time\":%lld", (long long)c->time);
	else
		fputs(",\"time\":null", out);
	fprintf(out, ",\"tasks\":%lu}", tasks);
}

static void groups(FILE *out, const struct ks_diff_result *r)
{
	fputs(",\"groups\":[", out);
	for (size_t i = 0; i < r->nr_groups; i++) {
		const struct ks_diff_group *g = &r->groups[i];

		fprintf(out, "%s{\"change\":\"%s\",\"signature\":\"%s\","
			"\"state\":\"%c\",\"a\":%lu,\"b\":%lu,\"stack\":",
			i ? "," : "", ks_diff_change_name(g->change), g->sig,
			g->state, g->a, g->b);
		ks_json_frames(out, g->stack);
		fputc('}', out);
	}
	fputc(']', out);
}

/* A task's keys on one side: its state and signature, its switches. */
static void side(FILE *out, const char *key, const struct ks_diff_task *t)
{
	fprintf(out, ",\"%s\":{\"state\":\"%c\",\"signature\":\"%s\"", key,
		t->state, t->sig);
	if (t->has_switches)
		fprintf(out, ",\"nvcsw\":%llu,\"nivcsw\":%llu",
			(unsigned long long)t->nvcsw,
			(unsigned long long)t->nivcsw);
	fputc('}', out);
}

static void pairs(FILE *out, const char *key, const struct ks_diff_pair *v,
		  size_t nr)
{
	fprintf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < nr; i++) {
		const struct ks_diff_task *t = v[i].b ? v[i].b : v[i].a;

		fprintf(out, "%s{\"pid\":%d,\"cmd\":", i ? "," : "", (int)t->pid);
		ks_json_str(out, t->cmd);
		if (v[i].a)
			side(out, "a", v[i].a);
		if (v[i].b)
			side(out, "b", v[i].b);
		fputs(",\"stack\":", out);
		ks_json_frames(out, v[i].stack);
		fputc('}', out);
	}
	fputc(']', out);
}

void ks_diff_json(FILE *out, const struct ks_diff_capture *a,
		  const struct ks_diff_capture *b,
		  const struct ks_diff_result *r)
{
	fprintf(out, "{\"schema\":1,\"version\":\"%s\",", KS_VERSION);
	capture(out, "a", a, r->a_total);
	fputc(',', out);
	capture(out, "b", b, r->b_total);
	fprintf(out, ",\"changed\":%s,\"running\":%lu,\"same\":%lu,"
		"\"switches_known\":%lu", r->changed ? "true" : "false",
		r->running, r->same, r->switches_known);
	groups(out, r);
	pairs(out, "moved", r->moved, r->nr_moved);
	pairs(out, "appeared", r->appeared, r->nr_appeared);
	pairs(out, "vanished", r->vanished, r->nr_vanished);
	pairs(out, "ran", r->ran, r->nr_ran);
	pairs(out, "stuck", r->stuck, r->nr_stuck);
	fputs("}\n", out);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack --snoop's output.  Text and --json go out call by call, so that
 * a pipe sees each call at once; -c (bcc's stackcount view) and --folded
 * count calls by stack (and by comm for --folded) in a hash table, so a
 * long run keeps one copy of each distinct stack, not one per call.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fnv1a.h"
#include "format.h"
#include "snoop_format.h"
#include "text_escape.h"

#define EXAMPLES 3

struct agg_ent {
	char *comm;		/* --folded: part of the key; -c: NULL */
	char *stack;
	uint64_t count;
	size_t first;		/* arrival order, for stable ties */
	int32_t pids[EXAMPLES];	/* -c: the first distinct callers */
	char comms[EXAMPLES][KS_COMM_LEN];
	size_t nr_pids;
};

struct snoop_agg {
	struct agg_ent *ents;	/* open addressing */
	size_t cap, nr;
};

void ks_snoop_out_init(struct ks_snoop_out *o, FILE *out, enum ks_format format,
		       const char *func, int64_t wall_offset_ns)
{
	memset(o, 0, sizeof(*o));
	o->out = out;
	o->format = format;
	o->func = func;
	o->wall_offset_ns = wall_offset_ns;
}

static uint64_t hash(const char *comm, const char *stack)
{
	uint64_t h = ks_fnv1a_str(KS_FNV1A_INIT, comm ? comm : "");

	/* a byte no comm holds between the two: "ab"+"c" is not "a"+"bc" */
	h = ks_fnv1a(h, "\xff", 1);
	return ks_fnv1a_str(h, stack);
}

static struct agg_ent *slot(struct snoop_agg *a, const char *comm,
			    const char *stack)
{
	size_t i = hash(comm, stack) & (a->cap - 1);

	while (a->ents[i].stack &&
	       (strcmp(a->ents[i].stack, stack) ||
		(comm && strcmp(a->ents[i].comm, comm))))
		i = (i + 1) & (a->cap - 1);
	return &a->ents[i];
}

static int grow(struct snoop_agg *a)
{
	struct snoop_agg n = { .cap = a->cap ? a->cap * 2 : 64, .nr = a->nr };
	size_t i;

	n.ents = calloc(n.cap, sizeof(*n.ents));
	if (!n.ents)
		return -ENOMEM;
	for (i = 0; i < a->cap; i++)
		if (a->ents[i].stack)
			*slot(&n, a->ents[i].comm, a->ents[i].stack) = a->ents[i];
	free(a->ents);
	*a = n;
	return 0;
}

static void add_example(struct agg_ent *e, const struct ks_snoop_rec *r)
{
	for (size_t i = 0; i < e->nr_pids; i++)
		if (e->pids[i] == r->pid)
			return;
	if (e->nr_pids == EXAMPLES)
		return;
	e->pids[e->nr_pids] = r->pid;
	memcpy(e->comms[e->nr_pids++], r->comm, KS_COMM_LEN);
}

static int count(struct ks_snoop_out *o, const struct ks_snoop_rec *r)
{
	const char *comm = o->format == KS_FMT_FOLDED ? r->comm : NULL;
	struct snoop_agg *a = o->agg;
	struct agg_ent *e;

	if (!a && !(a = o->agg = calloc(1, sizeof(*a))))
		return -ENOMEM;
	if ((a->nr + 1) * 2 > a->cap && grow(a))
		return -ENOMEM;
	e = slot(a, comm, r->stack);
	if (!e->stack) {
		e->stack = strdup(r->stack);
		e->comm = comm ? strdup(comm) : NULL;
		if (!e->stack || (comm && !e->comm)) {
			free(e->stack);
			free(e->comm);
			memset(e, 0, sizeof(*e));
			return -ENOMEM;
		}
		e->first = a->nr++;
	}
	e->count++;
	add_example(e, r);
	return 0;
}

/*
 * The wall clock's nanoseconds since the epoch at trace time ts_ns, or
 * false when they are before the epoch or past int64_t (a trace line's
 * time is whatever the line says).
 */
static bool wall_ns(const struct ks_snoop_out *o, uint64_t ts_ns, int64_t *ns)
{
	if (ts_ns > INT64_MAX ||
	    __builtin_add_overflow((int64_t)ts_ns, o->wall_offset_ns, ns))
		return false;
	return *ns >= 0;
}

/* "2026/11/22 15:56:57.118934" in local time, else the trace clock's seconds */
static void wall_time(const struct ks_snoop_out *o, uint64_t ts_ns, char *buf,
		      size_t len)
{
	int64_t ns = 0;
	bool known = wall_ns(o, ts_ns, &ns);
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;
	char date[64];

	if (!known || !localtime_r(&sec, &tm) ||
	    !strftime(date, sizeof(date), "%Y/%m/%d %H:%M:%S", &tm)) {
		snprintf(buf, len, "%llu.%06llu", (unsigned long long)ts_ns / 1000000000,
			 (unsigned long long)ts_ns % 1000000000 / 1000);
		return;
	}
	snprintf(buf, len, "%s.%06lld", date, (long long)(ns % 1000000000 / 1000));
}

static void text_rec(struct ks_snoop_out *o, const struct ks_snoop_rec *r)
{
	char when[96];

	wall_time(o, r->ts_ns, when, sizeof(when));
	fprintf(o->out, "PID: %5d   CPU: %3d   Time: %s   Comm: ", (int)r->pid,
		r->cpu, when);
	ks_fputs_escaped(r->comm, o->out);
	fprintf(o->out, "\n%s\n", r->stack);
}

static void json_rec(struct ks_snoop_out *o, const struct ks_snoop_rec *r)
{
	int64_t ns;
	uint64_t t = wall_ns(o, r->ts_ns, &ns) ? (uint64_t)ns : r->ts_ns;

	fprintf(o->out, "{\"time\":%llu.%06llu,\"function\":",
		(unsigned long long)(t / 1000000000),
		(unsigned long long)(t % 1000000000 / 1000));
	ks_json_str(o->out, o->func);
	fprintf(o->out, ",\"pid\":%d,\"cpu\":%d,\"comm\":", (int)r->pid, r->cpu);
	ks_json_str(o->out, r->comm);
	fputs(",\"stack\":", o->out);
	ks_json_frames(o->out, r->stack);
	fputs("}\n", o->out);
}

int ks_snoop_out_rec(struct ks_snoop_out *o, const struct ks_snoop_rec *r)
{
	o->calls++;
	switch (o->format) {
	case KS_FMT_SUMMARY:
	case KS_FMT_FOLDED:
		return count(o, r);
	case KS_FMT_JSON:
		json_rec(o, r);
		break;
	default:
		text_rec(o, r);
		break;
	}
	return ferror(o->out) ? -EIO : 0;
}

static const struct snoop_agg *sorting;

/* the most calls first; ties in the order first seen */
static int by_count(const void *a, const void *b)
{
	const struct agg_ent *x = &sorting->ents[*(const size_t *)a];
	const struct agg_ent *y = &sorting->ents[*(const size_t *)b];

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void summary_ent(FILE *out, const struct agg_ent *e)
{
	fprintf(out, "%llu call%s   e.g.", (unsigned long long)e->count,
		e->count == 1 ? "" : "s");
	for (size_t i = 0; i < e->nr_pids; i++) {
		fprintf(out, "%s %d (", i ? "," : "", (int)e->pids[i]);
		ks_fputs_escaped(e->comms[i], out);
		fputc(')', out);
	}
	fprintf(out, "\n%s\n", e->stack);
}

int ks_snoop_out_end(struct ks_snoop_out *o, double seconds)
{
	struct snoop_agg *a = o->agg;
	size_t *order, i, n = 0;

	if (o->format != KS_FMT_SUMMARY && o->format != KS_FMT_FOLDED)
		return 0;
	order = malloc((a && a->nr ? a->nr : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; a && i < a->cap; i++)
		if (a->ents[i].stack)
			order[n++] = i;
	sorting = a;
	qsort(order, n, sizeof(*order), by_count);
	if (o->format == KS_FMT_SUMMARY)
		fprintf(o->out, "%s: %llu call%s in %.1f s, %zu distinct stack%s\n\n",
			o->func, (unsigned long long)o->calls,
			o->calls == 1 ? "" : "s", seconds, n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		const struct agg_ent *e = &a->ents[order[i]];

		if (o->format == KS_FMT_SUMMARY) {
			summary_ent(o->out, e);
			continue;
		}
		ks_folded_comm(o->out, e->comm);
		ks_folded_frames(o->out, e->stack);
		fprintf(o->out, " %llu\n", (unsigned long long)e->count);
	}
	free(order);
	return ferror(o->out) ? -EIO : 0;
}

void ks_snoop_out_release(struct ks_snoop_out *o)
{
	struct snoop_agg *a = o->agg;

	for (size_t i = 0; a && i < a->cap; i++) {
		free(a->ents[i].stack);
		free(a->ents[i].comm);
	}
	if (a)
		free(a->ents);
	free(a);
	o->agg = NULL;
}

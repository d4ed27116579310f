// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live_say.h"
#include "format.h"
#include "exit_status.h"
#include "report_run.h"
#include "report_files.h"
#include "report_lines.h"
#include "report_opts.h"
#include "report_parse.h"
#include "report_read.h"
#include "report_signatures.h"
#include "report_stacks.h"
#include "report_stuck.h"
#include "report_write.h"

struct run {
	const struct ks_report_opts *o;
	struct ks_rp_writer w;
	struct ks_rp_stacks stacks;
	struct ks_rp_stacks folded;	/* "comm\nstack" keys for --folded */
	struct ks_rp_stuck stuck;
	struct ks_rp_sigs sigs;
	unsigned long seq;		/* samples taken in */
	unsigned long nr_untimed;	/* --folded lines: samples without a time */
	time_t first, last;
	time_t interval;		/* the shortest step seen: the -i */
	bool pid_present;		/* --pid: in the last sample */
	bool pid_seen;			/* --pid: in any sample */
	uint64_t pid_hash;
	char key[KS_RP_CMD_MAX + 8192];
	int err;
};

/*
 * Gaps: kstack writes a header every interval even when no task
 * matched (oled's heartbeat), so a step of more than twice the shortest
 * one (and more than a second: headers have seconds) is time without
 * kstack.
 */
static void timeline(struct run *r, const struct ks_rp_sample *s)
{
	time_t step = s->time - r->last;

	if (r->seq && step > 0 && (!r->interval || step < r->interval))
		r->interval = step;
	if (r->seq && r->interval && step > 2 * r->interval && step > r->interval + 1)
		ks_rpw_gap(&r->w, r->last, s->time);
	ks_rpw_sample(&r->w, s);
}

static void pid_history(struct run *r, const struct ks_rp_sample *s)
{
	const struct ks_rp_task *t = NULL;
	const struct ks_rp_group *g;

	for (size_t i = 0; i < s->nr_tasks && !t; i++)
		if (s->tasks[i].pid == r->o->pid)
			t = &s->tasks[i];
	if (!t) {
		if (r->pid_present)
			ks_rpw_change(&r->w, r->o->pid, s->time, NULL, NULL);
		r->pid_present = false;
		return;
	}
	g = &s->groups[t->group];
	if (r->pid_present && r->pid_hash == g->hash)
		return;
	ks_rpw_change(&r->w, r->o->pid, s->time, t, g->stack ? g->stack : "");
	r->pid_present = true;
	r->pid_seen = true;
	r->pid_hash = g->hash;
}

/*
 * comm for a flame graph: the command's first word, without its path.
 * Only a path is cut: the Cmd of a kernel thread is its name, which may
 * hold '/' ("kworker/0:1+events_freezable"), and a program's path starts
 * with '/' or '.'.
 */
static size_t folded_key(struct run *r, const struct ks_rp_task *t,
			 const struct ks_rp_group *g)
{
	size_t n = strcspn(t->cmd, " "), len;
	const char *c = t->cmd, *slash = NULL;

	if (*c == '/' || *c == '.')
		slash = memrchr(c, '/', n);
	if (slash && slash + 1 < c + n) {
		n -= (size_t)(slash + 1 - c);
		c = slash + 1;
	}
	len = g->len < sizeof(r->key) - n - 2 ? g->len : sizeof(r->key) - n - 2;
	memcpy(r->key, c, n);
	r->key[n] = '\n';
	memcpy(r->key + n + 1, g->stack ? g->stack : "", len);
	r->key[n + 1 + len] = '\0';
	return n + 1 + len;
}

static int count_folded(struct run *r, const struct ks_rp_sample *s)
{
	for (size_t i = 0; i < s->nr_tasks; i++) {
		size_t len = folded_key(r, &s->tasks[i], &s->groups[s->tasks[i].group]);
		struct ks_rp_stack *e;

		e = ks_rp_stacks_get(&r->folded, ks_rp_hash(r->key, len), r->key, len);
		if (!e)
			return -ENOMEM;
		e->tasks += s->tasks[i].weight;
	}
	return 0;
}

/*
 * A --folded log's line: no time, so no timeline, no stuck task and no
 * --pid history; its stacks are counted, for --folded and the most common.
 */
static int on_untimed(struct run *r, const struct ks_rp_sample *s)
{
	r->nr_untimed++;
	if (r->o->folded)
		return count_folded(r, s);
	if (r->o->pid)
		return 0;
	return ks_rp_stacks_count(&r->stacks, s, r->seq);
}

static int on_sample(const struct ks_rp_sample *s, void *ctx)
{
	struct run *r = ctx;
	const struct ks_report_opts *o = r->o;
	int ret = 0;

	if (s->untimed)
		return on_untimed(r, s);
	if ((o->since && s->time < o->since) || (o->until && s->time > o->until))
		return 0;
	if (o->folded)
		ret = count_folded(r, s);
	else if (o->pid)
		pid_history(r, s);
	else
		timeline(r, s);
	if (!ret && !o->folded && !o->pid)
		ret = ks_rp_stacks_count(&r->stacks, s, r->seq);
	if (!ret && !o->folded && !o->pid)
		ret = ks_rp_stuck_sample(&r->stuck, &r->stacks, s, r->seq);
	if (!ret && !o->folded && !o->pid)
		ret = ks_rp_sigs_sample(&r->sigs, &r->stacks, s, r->seq);
	if (!r->seq)
		r->first = s->time;
	r->last = s->time;
	r->seq++;
	return ret;
}

/* "kstack: report: TEXT" on stderr. */
static void say_report(void *arg, enum ks_say_level level, const char *text)
{
	(void)arg;
	(void)level;
	ks_live_say("report: %s", text);
}

static const struct ks_reporter report_reporter = { .say = say_report };

/* One file, streamed through the parser; a cut is named, not fatal. */
static int read_file(struct run *r, int dirfd, const char *name,
		     bool *cut)
{
	struct ks_rp_parser p;
	struct ks_report_lines l;
	int ret;

	ret = ks_report_lines_open(&l, dirfd, name);
	if (ret) {
		ks_live_say("report: %s: %s", name, strerror(-ret));
		*cut = true;
		return 0;
	}
	ks_rp_init(&p, on_sample, r);
	ret = ks_rp_read_all(&p, &l);
	if (*l.cut) {
		ks_rpw_cut(&r->w, name, l.cut);
		*cut = true;
	}
	ks_rp_read_notes(&report_reporter, name, &l, &p);
	ks_rp_release(&p);
	ks_report_lines_close(&l);
	return ret;
}

static void write_folded(struct run *r)
{
	for (size_t i = 0; i < r->folded.nr; i++) {
		const struct ks_rp_stack *e = &r->folded.v[i];
		char *nl = strchr(e->text, '\n');

		*nl = '\0';
		ks_folded_comm(r->w.out, e->text);
		ks_folded_frames(r->w.out, nl + 1);
		fprintf(r->w.out, " %lu\n", e->tasks);
		*nl = '\n';
	}
}

/*
 * By signature over time: what grew from the first sample to the last,
 * and what tasks stayed in for the whole period.
 */
static int write_signatures(struct run *r)
{
	size_t nr, *idx = ks_rp_sigs_finish(&r->sigs, &nr);

	if (!idx)
		return -ENOMEM;
	ks_rpw_section(&r->w, "signatures: tasks per stack signature over the period, grown first");
	if (!r->w.json)
		fprintf(r->w.out, "%-12s  S  %6s %6s %6s %7s  %s\n", "SIGNATURE",
			"FIRST", "LAST", "MOST", "STAYED", "TOP FRAME");
	for (size_t i = 0; i < nr && i < (size_t)r->o->top; i++)
		ks_rpw_signature(&r->w, &r->sigs.v[idx[i]]);
	if (!r->w.json && nr > (size_t)r->o->top)
		fprintf(r->w.out, "(%zu more; --top N)\n", nr - (size_t)r->o->top);
	free(idx);
	return 0;
}

static int write_end(struct run *r)
{
	size_t *idx;

	if (r->o->folded) {
		write_folded(r);
		return 0;
	}
	if (r->o->pid)
		return 0;
	ks_rp_stuck_finish(&r->stuck);
	ks_rpw_section(&r->w, "stuck: the same stack in consecutive samples, D first, longest first");
	for (size_t i = 0; i < r->stuck.nr_kept; i++)
		ks_rpw_stuck(&r->w, &r->stuck.kept[i],
			     &r->stacks.v[r->stuck.kept[i].stack]);
	if (write_signatures(r))
		return -ENOMEM;
	idx = ks_rp_stacks_sorted(&r->stacks);
	if (!idx)
		return -ENOMEM;
	ks_rpw_section(&r->w, "the most common stacks over the period");
	for (size_t i = 0; i < r->stacks.nr && i < (size_t)r->o->top; i++)
		ks_rpw_stack(&r->w, &r->stacks.v[idx[i]]);
	free(idx);
	return 0;
}

static int run_report(struct run *r, const struct ks_report_files *f)
{
	bool cut = false;
	int ret = 0;

	if (!r->o->folded && !r->o->pid)
		ks_rpw_section(&r->w, "timeline");
	for (size_t i = 0; i < f->nr && !ret; i++)
		ret = read_file(r, f->dirfd, f->names[i], &cut);
	if (!ret && !r->o->folded && r->seq) {
		ks_rpw_section(&r->w, "period");
		ks_rpw_summary(&r->w, r->seq, r->first, r->last, f->nr);
	}
	if (!ret)
		ret = write_end(r);
	if (ret) {
		ks_live_say("report: %s", strerror(-ret));
		return KS_EXIT_ERROR;
	}
	if (fflush(r->w.out) || ferror(r->w.out)) {
		ks_live_say("report: writing: %s", strerror(errno));
		return KS_EXIT_ERROR;
	}
	if (cut)
		return KS_EXIT_ERROR;
	if (r->nr_untimed && !r->o->folded)
		ks_live_say("report: %lu line(s) of --folded logs: such logs have no sample times, so their stacks are counted but make no timeline and no stuck task",
			    r->nr_untimed);
	if (!r->seq && !r->nr_untimed) {
		ks_live_say("report: no sample in %s", r->o->path);
		return KS_EXIT_NONE;
	}
	if (r->o->pid && !r->pid_seen) {
		ks_live_say("report: PID %ld is in none of the %lu sample(s)",
			    r->o->pid, r->seq);
		return KS_EXIT_NONE;
	}
	return KS_EXIT_OK;
}

void ks_report_usage(FILE *out)
{
	ks_options_usage(out, KS_CTX_REPORT, &ks_live_opt_table);
	ks_options_help(out, KS_CTX_REPORT, &ks_live_opt_table);
}

int ks_report_run(const struct ks_options *opts,
		  const struct ks_live_options *live)
{
	struct ks_report_opts o;
	struct ks_report_files f;
	struct run r = { 0 };
	int status;

	if (opts->help) {
		ks_report_usage(stdout);
		return KS_EXIT_OK;
	}
	ks_report_opts_from(&o, live);
	if (ks_report_files_list(&f, o.path, &report_reporter))
		return KS_EXIT_ERROR;
	r.o = &o;
	r.w.out = stdout;
	r.w.json = o.json;
	if (ks_rp_stuck_init(&r.stuck, (size_t)o.top))
		status = KS_EXIT_ERROR;
	else
		status = run_report(&r, &f);
	ks_rp_stuck_release(&r.stuck);
	ks_rp_sigs_release(&r.sigs);
	ks_rp_stacks_release(&r.stacks);
	ks_rp_stacks_release(&r.folded);
	ks_report_files_release(&f);
	return status;
}

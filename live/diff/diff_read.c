// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack diff's captures read into records.  A file or a log directory
 * goes through kstack report's reader (live/logs/), which knows every
 * format kstack and oled kstack write: the capture is its last whole
 * sample, or all the lines of a --folded log, which marks no sample.  A
 * dump is walked as kstack --vmcore DUMP -a -H walks it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diff_read.h"
#include "kdump_take.h"
#include "live_say.h"
#include "report_files.h"
#include "report_lines.h"
#include "report_parse.h"
#include "report_read.h"

struct reading {
	struct ks_diff_capture *c;
	unsigned long nr_samples;
	bool untimed;		/* the capture holds --folded lines */
};

static int add_rp_task(struct ks_diff_capture *c, const struct ks_rp_task *k,
		       size_t stack)
{
	struct ks_diff_task t = {
		.pid = k->pid,
		.weight = k->weight,
		.state = k->state,
		.stack = stack,
		.has_switches = k->has_nvcsw && k->has_nivcsw,
		.nvcsw = k->nvcsw,
		.nivcsw = k->nivcsw,
	};

	snprintf(t.cmd, sizeof(t.cmd), "%s", k->cmd);
	return ks_diff_add(c, &t);
}

/* A sample of the reader: the capture's, replacing the one before it. */
static int on_sample(const struct ks_rp_sample *s, void *ctx)
{
	struct reading *r = ctx;
	struct ks_diff_capture *c = r->c;
	size_t base, idx;
	int ret = 0;

	if (!s->untimed || !r->untimed)
		ks_diff_clear(c);
	r->untimed = s->untimed;
	r->nr_samples++;
	c->time = s->time;
	snprintf(c->host, sizeof(c->host), "%s", s->host);
	base = c->nr_stacks;
	for (size_t i = 0; i < s->nr_groups && !ret; i++)
		ret = ks_diff_stack(c, s->groups[i].stack, &idx);
	for (size_t i = 0; i < s->nr_tasks && !ret; i++)
		ret = add_rp_task(c, &s->tasks[i], base + s->tasks[i].group);
	return ret;
}

/* "diff: TEXT" on stderr, for the file lister */
static void say_diff(void *arg, enum ks_say_level level, const char *text)
{
	(void)arg;
	(void)level;
	ks_live_say("diff: %s", text);
}

static const struct ks_reporter diff_reporter = { .say = say_diff };

static int read_file(struct reading *r, int dirfd, const char *name)
{
	struct ks_rp_parser p;
	struct ks_report_lines l;
	int ret;

	ret = ks_report_lines_open(&l, dirfd, name);
	if (ret) {
		ks_live_say("diff: %s: %s", name, strerror(-ret));
		return -1;
	}
	ks_rp_init(&p, on_sample, r);
	/* a sample cut short (a log being written) is not the last whole one */
	ret = ks_rp_read_all(&p, &l);
	if (ret)
		ks_live_say("diff: %s: %s", name, strerror(-ret));
	else if (*l.cut)
		ks_live_say("diff: %s: %s", name, l.cut), ret = -1;
	else
		ks_rp_read_notes(&diff_reporter, name, &l, &p);
	ks_rp_release(&p);
	ks_report_lines_close(&l);
	return ret ? -1 : 0;
}

int ks_diff_read_logs(struct ks_diff_capture *c, const char *path)
{
	struct reading r = { .c = c };
	struct ks_report_files f;
	int ret = 0;

	c->name = path;
	if (ks_report_files_list(&f, path, &diff_reporter))
		return -1;
	for (size_t i = 0; i < f.nr && !ret; i++)
		ret = read_file(&r, f.dirfd, f.names[i]);
	ks_report_files_release(&f);
	if (ret)
		return -1;
	if (!r.nr_samples) {
		ks_live_say("diff: %s: no kstack sample in it (oled's text, -c, "
			    "--json or --folded)", path);
		return -1;
	}
	return 0;
}

static int add_sample(struct ks_diff_capture *c, const struct ks_sample *s)
{
	int ret = 0;

	c->time = s->when == KS_WHEN_UNKNOWN ? 0 : s->when;
	snprintf(c->host, sizeof(c->host), "%s", s->host);
	for (size_t i = 0; i < s->nr_tasks && !ret; i++) {
		const struct ks_task *k = &s->tasks[i];
		struct ks_diff_task t = {
			.pid = k->pid, .weight = 1, .state = k->state,
			.has_switches = k->has_switches,
			.nvcsw = k->nvcsw, .nivcsw = k->nivcsw,
		};

		snprintf(t.cmd, sizeof(t.cmd), "%s", k->cmd);
		ret = ks_diff_stack(c, k->stack, &t.stack);
		if (!ret)
			ret = ks_diff_add(c, &t);
	}
	return ret;
}

int ks_diff_read_dump(struct ks_diff_capture *c, const char *vmcore,
		      const char *vmlinux, bool scan_kallsyms)
{
	struct ks_sample s;
	int ret;

	c->name = vmcore;
	ret = ks_kdump_take(vmcore, vmlinux, scan_kallsyms, &s);
	if (!ret && add_sample(c, &s)) {
		ks_live_say("diff: %s: out of memory", vmcore);
		ret = -1;
	}
	ks_sample_release(&s);
	return ret;
}

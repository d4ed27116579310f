// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -K / -F on the running kernel: the kernel's own lists
 * (debugfs kprobes/list, tracefs enabled_functions) parsed into the shared
 * records and printed back by the shared formatter, so that the crash
 * command, which computes the same records from a vmcore, prints the same
 * lines.  A line the parser does not understand is shown as read: the
 * kernel is the authority, not our parser.  The live-only sections
 * (kprobe_events, the tracer and its filters) follow, headed "== ".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live_say.h"
#include "grow.h"
#include "hooks_json.h"
#include "hooks.h"
#include "hooks_live.h"
#include "kcore_target.h"
#include "exit_status.h"
#include "report.h"
#include "tracefs.h"

struct lines {
	char **v;
	size_t n;
};

static void lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Every line of path without its newline; 0 or -errno. */
static int read_lines(const char *path, struct lines *out)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, **nv;
	size_t cap = 0, vcap = 0;
	ssize_t len;
	int ret = 0;

	out->v = NULL;
	out->n = 0;
	if (!f)
		return -errno;
	errno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		nv = ks_grow_min(out->v, &vcap, out->n + 1, sizeof(*nv), 64);
		if (!nv) {
			ret = -ENOMEM;
			break;
		}
		out->v = nv;
		out->v[out->n] = strdup(line);
		if (!out->v[out->n]) {
			ret = -ENOMEM;
			break;
		}
		out->n++;
	}
	/* getline() sets errno on a read error (EPERM under lockdown) */
	if (!ret && ferror(f))
		ret = errno ? -errno : -EIO;
	free(line);
	fclose(f);
	if (ret)
		lines_free(out);
	return ret;
}

static int status_of(int err)
{
	return err == -EPERM || err == -EACCES ? KS_EXIT_PERM : KS_EXIT_ERROR;
}

static void explain(const char *path, int err, const char *missing,
		    const struct ks_reporter *rep)
{
	if (err == -ENOENT)
		ks_say(rep, KS_WARN, "%s does not exist: %s", path, missing);
	else if ((err == -EPERM || err == -EACCES) && !geteuid())
		ks_say(rep, KS_WARN, "%s: %s (the kernel refused it although "
			    "kstack runs as root: a locked-down kernel, or a container "
			    "or user namespace without CAP_SYS_ADMIN)", path,
			    strerror(-err));
	else if (err == -EPERM || err == -EACCES)
		ks_say(rep, KS_WARN, "%s: %s (needs root; a locked-down "
			    "kernel refuses it)", path, strerror(-err));
	else
		ks_say(rep, KS_WARN, "%s: %s", path, strerror(-err));
}

/* A headed section with the file's lines, or why there are none. */
static void section(FILE *out, const char *title, const char *dir,
		    const char *name, const char *why)
{
	char path[PATH_MAX + 64];
	struct lines l;
	size_t i;
	int ret;

	fprintf(out, "== %s\n", title);
	if (!dir[0]) {
		fprintf(out, "(not available: %s)\n", why);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = read_lines(path, &l);
	if (ret) {
		fprintf(out, "(not available: %s: %s)\n", path, strerror(-ret));
		return;
	}
	if (!l.n)
		fputs("(none)\n", out);
	for (i = 0; i < l.n; i++)
		fprintf(out, "%s\n", l.v[i]);
	lines_free(&l);
}

/* The kernel-format lines, checked by a parse and print round trip. */
static void print_kprobe_lines(FILE *out, const struct lines *in,
			       struct ks_kprobe_list *l, bool json,
			       const struct ks_reporter *rep)
{
	char buf[KS_HOOK_TEXT_LEN + 128];
	struct ks_kprobe p;
	size_t i;

	for (i = 0; i < in->n; i++) {
		if (!ks_kprobe_parse(in->v[i], &p) &&
		    ks_kprobe_format(&p, buf, sizeof(buf)) < (int)sizeof(buf) &&
		    !strcmp(buf, in->v[i])) {
			struct ks_kprobe *r = ks_kprobe_list_add(l);

			if (r)
				*r = p;
			if (json)
				ks_kprobe_json(out, NULL, &p);
			else
				fprintf(out, "%s\n", buf);
			continue;
		}
		if (!l->unparsed++)
			ks_say(rep, KS_WARN, "kprobes/list line %zu is not in the "
				    "expected format, shown as read", i + 1);
		if (json)
			ks_hook_line_json(out, "kprobe", in->v[i]);
		else
			fprintf(out, "%s\n", in->v[i]);
	}
}

int ks_hooks_live_kprobes(const struct ks_tracefs *fs, bool json, FILE *out,
			  const struct ks_reporter *rep)
{
	struct ks_kprobe_list l = { 0 };
	char path[PATH_MAX + 64];
	struct lines in;
	int ret;

	if (!fs->debugfs[0]) {
		ks_say(rep, KS_WARN, "no kprobes list: %s", fs->why_debugfs);
		return status_of(fs->err_debugfs);
	}
	snprintf(path, sizeof(path), "%s/kprobes/list", fs->debugfs);
	ret = read_lines(path, &in);
	if (ret) {
		explain(path, ret, "this kernel has no kprobes (CONFIG_KPROBES) "
			"or no debugfs for them", rep);
		return status_of(ret);
	}
	print_kprobe_lines(out, &in, &l, json, rep);
	lines_free(&in);
	if (json) {
		ks_kprobe_list_free(&l);
		return KS_EXIT_OK;
	}
	ks_kprobe_summary(out, &l);
	ks_kprobe_list_free(&l);
	section(out, "kprobes enabled", fs->debugfs, "kprobes/enabled",
		fs->why_debugfs);
	section(out, "kprobe_events", fs->tracefs, "kprobe_events",
		fs->why_tracefs);
	return KS_EXIT_OK;
}

/*
 * enabled_functions read one line ahead (a "\tdirect-->" line belongs to
 * the record before it) and nothing kept: tens of thousands of lines when
 * every function is traced.
 */
struct line_reader {
	FILE *f;
	char *cur, *next;
	size_t cur_cap, next_cap;
	bool has_next;
	size_t nr;		/* the line number of cur */
	int err;		/* -errno of a failed read */
};

static bool read_one(struct line_reader *lr, char **line, size_t *cap)
{
	ssize_t len;

	errno = 0;
	len = getline(line, cap, lr->f);
	if (len < 0) {
		/* getline() sets errno on a read error (EPERM under lockdown) */
		if (ferror(lr->f))
			lr->err = errno ? -errno : -EIO;
		return false;
	}
	if (len && (*line)[len - 1] == '\n')
		(*line)[--len] = '\0';
	return true;
}

/* The next line into cur; false at the end or on an error. */
static bool next_line(struct line_reader *lr)
{
	char *line = lr->cur;
	size_t cap = lr->cur_cap;

	if (lr->nr == 0)
		lr->has_next = read_one(lr, &lr->next, &lr->next_cap);
	if (!lr->has_next)
		return false;
	lr->cur = lr->next;
	lr->cur_cap = lr->next_cap;
	lr->next = line;
	lr->next_cap = cap;
	lr->nr++;
	lr->has_next = read_one(lr, &lr->next, &lr->next_cap);
	return true;
}

/* The line after cur when it is cur's "\tdirect-->" line, else NULL. */
static const char *direct_line(const struct line_reader *lr)
{
	return lr->has_next && !strncmp(lr->next, "\tdirect-->", 10) ?
	       lr->next : NULL;
}

/* Does the record print back as line (and its direct line) read? */
static bool ftrace_round_trip(const char *line, const char *direct,
			      struct ks_ftrace_rec *r, char *buf)
{
	size_t n = strlen(line);

	return !ks_ftrace_parse(line, direct, r) &&
	       ks_ftrace_format(r, buf, KS_FTRACE_LINE_MAX) <
		       (int)KS_FTRACE_LINE_MAX &&
	       !strncmp(buf, line, n) &&
	       (!direct || (buf[n] == '\n' && !strcmp(buf + n + 1, direct)));
}

/* The kernel-format lines, checked by a parse and print round trip. */
static int print_ftrace_lines(FILE *out, struct line_reader *lr,
			      struct ks_ftrace_stats *stats, size_t *unparsed,
			      bool json, const struct ks_reporter *rep)
{
	struct ks_ftrace_rec *r = calloc(1, sizeof(*r));
	char *buf = malloc(KS_FTRACE_LINE_MAX);

	if (!r || !buf) {
		free(r);
		free(buf);
		return -ENOMEM;
	}
	while (next_line(lr)) {
		const char *direct = direct_line(lr);

		if (ftrace_round_trip(lr->cur, direct, r, buf)) {
			if (json)
				ks_ftrace_rec_json(out, r);
			else
				fprintf(out, "%s\n", buf);
			ks_ftrace_stats_add(stats, r);
			if (direct)
				next_line(lr);
			continue;
		}
		if (!(*unparsed)++)
			ks_say(rep, KS_WARN, "enabled_functions line %zu is not in "
				    "the expected format, shown as read",
				    lr->nr);
		if (json)
			ks_hook_line_json(out, "ftrace", lr->cur);
		else
			fprintf(out, "%s\n", lr->cur);
	}
	free(r);
	free(buf);
	return lr->err;
}

int ks_hooks_live_ftrace(const struct ks_tracefs *fs, bool touched, bool json,
			 FILE *out, const struct ks_reporter *rep)
{
	const char *file = touched ? "touched_functions" : "enabled_functions";
	struct ks_ftrace_stats stats = { 0 };
	struct line_reader lr = { 0 };
	char path[PATH_MAX + 64];
	size_t unparsed = 0;
	int ret;

	if (!fs->tracefs[0]) {
		ks_say(rep, KS_WARN, "no %s: %s", file, fs->why_tracefs);
		return status_of(fs->err_tracefs);
	}
	snprintf(path, sizeof(path), "%s/%s", fs->tracefs, file);
	lr.f = fopen(path, "re");
	ret = lr.f ? print_ftrace_lines(out, &lr, &stats, &unparsed, json, rep) :
		     -errno;
	if (lr.f)
		fclose(lr.f);
	free(lr.cur);
	free(lr.next);
	if (ret) {
		/* what was printed stays; no summary of part of the records */
		ks_ftrace_stats_free(&stats);
		explain(path, ret, touched ? "touched_functions came with Linux "
			"6.4 (and needs CONFIG_DYNAMIC_FTRACE)" :
			"this kernel has no dynamic ftrace (CONFIG_DYNAMIC_FTRACE)",
			rep);
		return status_of(ret);
	}
	if (json) {
		ks_ftrace_stats_free(&stats);
		return KS_EXIT_OK;
	}
	ks_ftrace_stats_print(out, &stats);
	ks_ftrace_stats_free(&stats);
	if (unparsed)
		fprintf(out, "%zu line%s not in the kernel's format (shown as read)\n",
			unparsed, ks_plural(unparsed));
	section(out, "current_tracer", fs->tracefs, "current_tracer", "");
	section(out, "set_ftrace_filter", fs->tracefs, "set_ftrace_filter", "");
	section(out, "set_ftrace_notrace", fs->tracefs, "set_ftrace_notrace", "");
	return KS_EXIT_OK;
}

/*
 * -v: the hooks read from the running kernel's memory, the view crash
 * gives of a dump (handlers, owners, code bytes, every ftrace_ops).
 * Returns -1 when /proc/kcore cannot be read: then the debugfs lines.
 */
/* Why /proc/kcore cannot serve -v, in the words -K -v has always used. */
static void say_no_kcore(void *arg, enum ks_say_level level, const char *why)
{
	(void)arg;
	(void)level;
	ks_live_say("the running kernel's memory cannot be "
		    "read (%s): the debugfs and tracefs lines only, without "
		    "handlers, owners or code bytes", why);
}

static const struct ks_reporter no_kcore = { .say = say_no_kcore };

static int hooks_from_memory(const struct ks_options *opts)
{
	struct ks_kcore_target *kt;
	struct ks_target t;
	int ret;

	if (ks_kcore_target_open("/proc/kcore", "/sys/kernel/btf/vmlinux", &kt,
				 &t, &no_kcore))
		return -1;
	ret = ks_hooks_report(&t, &opts->hooks, &opts->out, stdout,
			      &ks_live_reporter);
	ks_kcore_target_close(kt);
	if (fflush(stdout) && !ret)
		ret = -errno;
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}

int ks_hooks_live(const struct ks_options *opts,
		  const struct ks_test_knobs *knobs)
{
	struct ks_tracefs fs;
	int status = KS_EXIT_OK, st;

	if (opts->out.verbose) {
		st = hooks_from_memory(opts);
		if (st >= 0)
			return st;
	}
	ks_tracefs_open(&fs, opts->hooks.kprobes, knobs);
	if (opts->hooks.kprobes) {
		st = ks_hooks_live_kprobes(&fs, opts->out.format == KS_FMT_JSON,
					   stdout, &ks_live_reporter);
		if (st > status)
			status = st;
	}
	if (opts->hooks.ftrace) {
		st = ks_hooks_live_ftrace(&fs, opts->hooks.touched,
					  opts->out.format == KS_FMT_JSON, stdout,
					  &ks_live_reporter);
		if (st > status)
			status = st;
	}
	if (fflush(stdout)) {
		ks_live_say("writing stdout: %s", strerror(errno));
		status = KS_EXIT_ERROR;
	}
	return status;
}

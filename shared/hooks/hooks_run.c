// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -K / -F of a kernel image: the walkers read the records from memory and
 * the report writer prints them.  The one place both meet, so that neither
 * knows the other.
 */
#include <errno.h>
#include <stdio.h>

#include "hooks.h"
#include "hooks_json.h"

static int report_kprobes(const struct ks_target *t,
			  const struct ks_format_opts *opts, FILE *out,
			  const struct ks_reporter *rep)
{
	struct ks_kprobe_list l = { 0 };
	int ret;

	ret = ks_kprobe_walk(t, &l, rep);
	if (!ret && opts->format == KS_FMT_JSON) {
		for (size_t i = 0; i < l.n; i++)
			ks_kprobe_json(out, t, &l.v[i]);
	} else if (!ret) {
		ks_kprobe_write(out, t, &l, ks_kprobes_enabled(t),
				opts->verbose);
	}
	ks_kprobe_list_free(&l);
	return ret;
}

/*
 * The layout is resolved once for both walks; each record is printed as
 * the walk reads it and then dropped.
 */
/* --json: the records alone, each printed as the walk hands it over */
static int json_ftrace(const struct ks_target *t, bool touched, FILE *out,
		       const struct ks_reporter *rep)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_walker w;
	int ret;

	ret = ks_ftrace_walker_init(&w, t, rep);
	if (!ret)
		ret = ks_ftrace_ops_walk(&w, &ops);
	if (!ret)
		ret = ks_ftrace_walk_each(&w, &ops, touched,
					  ks_ftrace_rec_json_fn, out);
	ks_ftrace_ops_list_free(&ops);
	return ret;
}

static int report_ftrace(const struct ks_target *t, bool touched,
			 const struct ks_format_opts *opts, FILE *out,
			 const struct ks_reporter *rep)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_walker w;
	struct ks_ftrace_writer wr;
	char tracer[64];
	int ret;

	if (opts->format == KS_FMT_JSON)
		return json_ftrace(t, touched, out, rep);
	ret = ks_ftrace_writer_init(&wr, out);
	if (!ret)
		ret = ks_ftrace_walker_init(&w, t, rep);
	if (!ret)
		ret = ks_ftrace_ops_walk(&w, &ops);
	if (!ret)
		ret = ks_ftrace_walk_each(&w, &ops, touched,
					  ks_ftrace_writer_rec, &wr);
	if (!ret)
		ks_ftrace_writer_end(&wr, t, &ops,
				     ks_ftrace_current_tracer(t, tracer,
							      sizeof(tracer)) ?
				     NULL : tracer, opts->verbose);
	ks_ftrace_writer_free(&wr);
	ks_ftrace_ops_list_free(&ops);
	return ret;
}

int ks_hooks_report(const struct ks_target *t, const struct ks_hooks_opts *h,
		    const struct ks_format_opts *opts, FILE *out,
		    const struct ks_reporter *rep)
{
	int ret = 0, r;

	if (h->kprobes) {
		r = report_kprobes(t, opts, out, rep);
		if (r)
			ret = r;
	}
	if (h->ftrace) {
		r = report_ftrace(t, h->touched, opts, out, rep);
		if (r)
			ret = r;
	}
	return ret;
}

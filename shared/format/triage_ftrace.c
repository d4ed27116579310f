// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The triage's ftrace part: -F's walk with -F's writer, or its JSON
 * records as elements of one array.  The text is held until the walk
 * ends, so that a kernel where nothing is patched gets one line in
 * place of -F's empty tables.
 */
#include <errno.h>
#include <stdlib.h>

#include "hooks.h"
#include "hooks_json.h"
#include "triage.h"

struct json_items {
	FILE *out;
	size_t n;
};

/* -F --json's record, after a comma from the second on */
static int json_item(void *arg, const struct ks_ftrace_rec *r)
{
	struct json_items *j = arg;

	if (j->n++)
		fputc(',', j->out);
	ks_ftrace_rec_json(j->out, r);
	return ferror(j->out) ? -EIO : 0;
}

static int walk(const struct ks_target *t, ks_ftrace_rec_fn fn, void *arg,
		struct ks_ftrace_ops_list *ops)
{
	struct ks_ftrace_walker w;
	int ret = ks_ftrace_walker_init(&w, t, NULL);

	if (!ret)
		ret = ks_ftrace_ops_walk(&w, ops);
	if (!ret)
		ret = ks_ftrace_walk_each(&w, ops, false, fn, arg);
	return ret;
}

static int text(FILE *out, const struct ks_target *t)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_writer wr;
	char tracer[64], *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	bool known = mem && !ks_ftrace_current_tracer(t, tracer, sizeof(tracer));
	int ret = mem ? ks_ftrace_writer_init(&wr, mem) : -ENOMEM;

	if (!ret)
		ret = walk(t, ks_ftrace_writer_rec, &wr, &ops);
	if (!ret)
		ks_ftrace_writer_end(&wr, t, &ops, known ? tracer : NULL, false);
	if (mem && fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret && !wr.stats.n)
		fprintf(out, "ftrace: no function is patched (current_tracer %s)\n",
			known ? tracer : "unknown");
	else if (!ret)
		fwrite(buf, 1, len, out);
	if (mem)
		ks_ftrace_writer_free(&wr);
	ks_ftrace_ops_list_free(&ops);
	free(buf);
	return ret;
}

int ks_triage_ftrace(FILE *out, const struct ks_target *t, bool json)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct json_items j = { out, 0 };
	int ret;

	if (!json)
		return text(out, t);
	fputc('[', out);
	ret = walk(t, json_item, &j, &ops);
	fputc(']', out);
	ks_ftrace_ops_list_free(&ops);
	return ret;
}

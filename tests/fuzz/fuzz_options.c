// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/core/options.c: the input is a command line, split on NULs when it
 * holds any (so that arguments may hold spaces) and on spaces otherwise,
 * after "kstack".  Both contexts parse it.  A refusal always says why,
 * and whatever was parsed is released.
 */
#include <errno.h>

#include "fuzz.h"
#include "live_options.h"
#include "options.h"

#define MAX_ARGS	256

static void count(void *arg, enum ks_say_level level, const char *msg)
{
	(void)level;
	fuzz_assert(msg[0]);
	++*(int *)arg;
}

static void parse(enum ks_context ctx, int argc, char **argv)
{
	char *copy[MAX_ARGS + 2];
	struct ks_live_options live = { 0 };
	struct ks_options o;
	int said = 0, ret;
	const struct ks_reporter rep = { .say = count, .arg = &said };

	/* getopt may permute argv: each context parses its own copy */
	memcpy(copy, argv, sizeof(*argv) * (size_t)(argc + 1));
	if (ctx == KS_CTX_LIVE)
		ret = ks_live_options_parse(&o, &live, argc, copy, NULL, &rep);
	else
		ret = ks_options_parse(&o, ctx, argc, copy, &ks_live_opt_table,
				       NULL, &rep);
	if (ret) {
		/* one line says why */
		fuzz_assert((ret == -EINVAL || ret == -ENOMEM) && said == 1);
		fuzz_assert(!o.sel.pids && !o.sel.nr_pids && !o.sel.comm);
		return;
	}
	fuzz_assert(!o.sel.nr_pids || o.sel.pids);
	fuzz_assert(o.out.format <= KS_FMT_FOLDED);
	ks_options_usage(fuzz_null(), ctx, &ks_live_opt_table);
	fprintf(fuzz_null(), "%zu %ld %ld %s\n", o.sel.nr_pids, live.interval_ms,
		live.duration, live.dir ? live.dir : "");
	ks_options_release(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	char sep = memchr(data, '\0', size) ? '\0' : ' ';
	int argc = 1;
	size_t i, start = 0;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "kstack";
	for (i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i < size && buf[i] != sep)
			continue;
		buf[i] = '\0';
		/* spaces: runs of them are one separator; NULs: "" is an argument */
		if (sep == '\0' || i > start)
			argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	parse(KS_CTX_LIVE, argc, argv);
	parse(KS_CTX_CRASH, argc, argv);
	free(buf);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live triage's "who touched the kernel": -K's and -F's own output
 * from debugfs and tracefs (hooks_live.c), written where the dump's
 * triage writes its walks (struct ks_triage_hooks).  As text, a list
 * with no line is said in one line, as the dump's triage says it; as
 * JSON, -K --json's and -F --json's records (one a line) become the
 * elements of an array.  What cannot be read is said in the section.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"
#include "hooks_live.h"
#include "triage_live.h"
#include "triage_read.h"

struct ks_triage_live_hooks {
	struct ks_tracefs fs;
};

/* -K's or -F's output into a buffer; the reason in why when it fails */
static int capture(const struct ks_tracefs *fs, bool ftrace, bool json,
		   char **buf, size_t *len, char *why)
{
	const struct ks_reporter rep = KS_TRIAGE_CATCH(why);
	FILE *mem = open_memstream(buf, len);
	int st;

	if (!mem)
		return -ENOMEM;
	st = ftrace ? ks_hooks_live_ftrace(fs, false, json, mem, &rep) :
		      ks_hooks_live_kprobes(fs, json, mem, &rep);
	if (fclose(mem))
		return -ENOMEM;
	return st == KS_EXIT_OK ? 0 : -EIO;
}

/* one record a line: "[rec,rec]" */
static void json_array(FILE *out, const char *buf, size_t len)
{
	bool first = true;

	fputc('[', out);
	for (const char *p = buf; p < buf + len;) {
		const char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(buf + len - p);

		if (n) {
			fprintf(out, "%s%.*s\n", first ? "" : ",", (int)n, p);
			first = false;
		}
		p += n + 1;
	}
	fputc(']', out);
}

static void text_part(FILE *out, const struct ks_tracefs *fs, bool ftrace,
		      const char *buf, size_t len)
{
	char tracer[64], path[PATH_MAX + 32];

	/* no line before "== summary": nothing is hooked */
	if (len && strncmp(buf, "== summary", 10)) {
		fwrite(buf, 1, len, out);
		return;
	}
	if (!ftrace) {
		fputs("kprobes: none\n", out);
		return;
	}
	snprintf(path, sizeof(path), "%s/current_tracer", fs->tracefs);
	if (ks_triage_read_file(path, tracer, sizeof(tracer)) <= 0)
		snprintf(tracer, sizeof(tracer), "unknown");
	fprintf(out, "ftrace: no function is patched (current_tracer %s)\n",
		tracer);
}

static void write_part(void *arg, FILE *out, bool ftrace, bool json)
{
	const struct ks_triage_live_hooks *lh = arg;
	char why[KS_TRIAGE_WHY] = "", *buf = NULL;
	size_t len = 0;
	int ret = capture(&lh->fs, ftrace, json, &buf, &len, why);

	if (ret && json)
		fputs("null", out);
	else if (ret)
		fprintf(out, "%s: unknown (%s)\n", ftrace ? "ftrace" : "kprobes",
			ret == -ENOMEM ? "out of memory" : *why ? why : "cannot be read");
	else if (json)
		json_array(out, buf, len);
	else
		text_part(out, &lh->fs, ftrace, buf, len);
	free(buf);
}

struct ks_triage_live_hooks *ks_triage_live_hooks_open(
	const struct ks_test_knobs *knobs, struct ks_triage_hooks *h)
{
	struct ks_triage_live_hooks *lh = calloc(1, sizeof(*lh));

	if (!lh)
		return NULL;
	ks_tracefs_open(&lh->fs, true, knobs);
	h->write = write_part;
	h->arg = lh;
	return lh;
}

void ks_triage_live_hooks_close(struct ks_triage_live_hooks *lh)
{
	free(lh);
}

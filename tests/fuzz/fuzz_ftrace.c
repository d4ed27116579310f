// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/hooks/hooks_format.c on tracefs enabled_functions, as
 * live/proc/hooks_live.c reads it: a record line with the "\tdirect-->" line
 * after it when there is one, parsed, printed back, kept when the two
 * agree, then the summary of what was kept.
 */
#include "ftrace_list.h"
#include "fuzz.h"
#include "hooks.h"

#define MAX_LINES	256

/*
 * Kept from one input to the next, emptied: its first 16 records are a
 * quarter of a megabyte, which ASan would map and unmap every time.
 */
static struct ks_ftrace_list l;

static void list_free(void)
{
	ks_ftrace_list_free(&l);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return atexit(list_free);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size), *rest = text, *lines[MAX_LINES];
	size_t len = sizeof(struct ks_ftrace_rec) + 256, n = 0, i;
	char *buf = malloc(len);
	FILE *out = fuzz_null();

	if (!buf)
		abort();
	l.n = 0;
	while (n < MAX_LINES && (lines[n] = fuzz_line(&rest)))
		n++;
	for (i = 0; i < n; i++) {
		const char *direct = NULL;
		struct ks_ftrace_rec *r;
		int ret;

		if (i + 1 < n && !strncmp(lines[i + 1], "\tdirect-->", 10))
			direct = lines[i + 1];
		r = ks_ftrace_list_add(&l);
		if (!r)
			abort();
		if (ks_ftrace_parse(lines[i], direct, r)) {
			l.n--;
			continue;
		}
		fuzz_assert(r->nr_tramps <= KS_FTRACE_MAX_TRAMPS);
		ret = ks_ftrace_format(r, buf, len);
		fuzz_assert(ret >= 0);
		fprintf(out, "%s\n", buf);
		if (ret < (int)len && !strncmp(buf, lines[i], strlen(lines[i])) &&
		    (!direct || (buf[strlen(lines[i])] == '\n' &&
				 !strcmp(buf + strlen(lines[i]) + 1, direct))))
			i += direct != NULL;
		else
			l.n--;
	}
	ks_ftrace_summary(out, &l);
	free(buf);
	free(text);
	return 0;
}

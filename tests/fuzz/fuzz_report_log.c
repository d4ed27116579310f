// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack report's reader of the logs -b writes (live/logs): the input is
 * one log file (text, -c, --json or --folded; plain or gzip), read through
 * report_lines.c into the parser and every analysis, then written as text
 * and as JSON to /dev/null.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "report_lines.h"
#include "report_parse.h"
#include "report_stacks.h"
#include "report_stuck.h"
#include "report_write.h"

static char dir[] = "/tmp/fuzz_report_log.XXXXXX";
static int dirfd_ = -1;
static FILE *null_out;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	null_out = fopen("/dev/null", "w");
	if (dirfd_ < 0 || !null_out)
		abort();
	return 0;
}

struct all {
	struct ks_rp_stacks stacks;
	struct ks_rp_stuck stuck;
	struct ks_rp_writer w;
	unsigned long seq;
};

static int on_sample(const struct ks_rp_sample *s, void *ctx)
{
	struct all *a = ctx;
	size_t total = 0;
	int ret;

	for (size_t i = 0; i < s->nr_tasks; i++) {
		fuzz_assert(s->tasks[i].group < s->nr_groups);
		total += s->tasks[i].weight;
	}
	fuzz_assert(total == s->total);
	ks_rpw_sample(&a->w, s);
	ret = ks_rp_stacks_count(&a->stacks, s, a->seq);
	if (!ret && !s->untimed)
		ret = ks_rp_stuck_sample(&a->stuck, &a->stacks, s, a->seq);
	a->seq++;
	return ret;
}

static void write_all(struct all *a, bool json)
{
	size_t *idx = ks_rp_stacks_sorted(&a->stacks);

	a->w.json = json;
	for (size_t i = 0; i < a->stuck.nr_kept; i++) {
		fuzz_assert(a->stuck.kept[i].stack < a->stacks.nr);
		ks_rpw_stuck(&a->w, &a->stuck.kept[i],
			     &a->stacks.v[a->stuck.kept[i].stack]);
	}
	for (size_t i = 0; idx && i < a->stacks.nr; i++)
		ks_rpw_stack(&a->w, &a->stacks.v[idx[i]]);
	free(idx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct all a = { .w = { .out = null_out } };
	struct ks_report_lines l;
	struct ks_rp_parser p;
	const char *line;
	int fd, ret = 0;

	fd = openat(dirfd_, "log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	if (ks_rp_stuck_init(&a.stuck, 3) ||
	    ks_report_lines_open(&l, dirfd_, "log"))
		abort();
	ks_rp_init(&p, on_sample, &a);
	while (!ret && (line = ks_report_lines_next(&l))) {
		fuzz_assert(strlen(line) <= KS_REPORT_JSON_MAX);
		ret = ks_rp_line(&p, line);
	}
	if (!ret)
		ks_rp_end(&p, l.torn || *l.cut);
	ks_rp_release(&p);
	ks_report_lines_close(&l);
	ks_rp_stuck_finish(&a.stuck);
	write_all(&a, false);
	write_all(&a, true);
	ks_rp_stuck_release(&a.stuck);
	ks_rp_stacks_release(&a.stacks);
	return 0;
}

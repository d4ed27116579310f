// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack triage --vmcore DUMP -o DIR: the support bundle.  Each file is
 * what its own view prints on stdout, by the view's own shared entry:
 *   triage.txt   kstack triage --vmcore DUMP
 *   triage.json  kstack triage --vmcore DUMP --json
 *   triage.html  kstack triage --vmcore DUMP --html FILE
 *   log.txt      kstack --vmcore DUMP --log
 *   cpus.txt     kstack --vmcore DUMP --cpus
 *   stacks.txt   kstack --vmcore DUMP -a -H
 *   hooks.txt    kstack --vmcore DUMP -K, then kstack --vmcore DUMP -F
 *   waits.txt    kstack --vmcore DUMP -D --waits
 * The triage is read once for its three forms.  kstack runs as root and
 * DIR may be under /tmp: DIR is made 0700 when missing, a symbolic link
 * is refused, and a file is only ever created new in it (openat() on
 * DIR's fd, never a path with a slash), through output_file.c's temporary
 * file and a rename that will not replace, so nothing is written outside
 * DIR, nothing there is overwritten, and a file is whole or absent.  A
 * DIR that already has one of these files is refused before the dump is
 * read: a bundle is never a mix of two runs.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpus_walk.h"
#include "exit_status.h"
#include "format_cpus.h"
#include "hooks.h"
#include "live_say.h"
#include "log_print.h"
#include "output_file.h"
#include "sample_report.h"
#include "triage.h"
#include "triage_bundle.h"

static const char *const names[] = {
	"triage.txt", "triage.json", "triage.html", "log.txt", "cpus.txt",
	"stacks.txt", "hooks.txt", "waits.txt",
};

#define NR_NAMES	(sizeof(names) / sizeof(names[0]))

int ks_bundle_open(struct ks_bundle *b, const char *dir)
{
	struct stat sb;

	b->dir = dir;
	b->dirfd = -1;
	if (mkdir(dir, 0700) && errno != EEXIST) {
		ks_live_say("cannot make the directory %s: %s", dir, strerror(errno));
		return KS_EXIT_ERROR;
	}
	b->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (b->dirfd < 0) {
		ks_live_say("cannot open the directory %s: %s%s", dir, strerror(errno),
			    errno == ELOOP ? " (a symbolic link is refused)" : "");
		return KS_EXIT_ERROR;
	}
	for (size_t i = 0; i < NR_NAMES; i++) {
		if (fstatat(b->dirfd, names[i], &sb, AT_SYMLINK_NOFOLLOW))
			continue;
		ks_live_say("%s has %s already: refusing to mix two bundles; remove the bundle's files or name a new directory",
			    dir, names[i]);
		return KS_EXIT_ERROR;
	}
	return 0;
}

void ks_bundle_close(struct ks_bundle *b)
{
	if (b->dirfd >= 0)
		close(b->dirfd);
	b->dirfd = -1;
}

/* What one file is made from; which: its index in names[]. */
struct bundle_src {
	const struct ks_target *t;
	struct ks_kernel *k;
	const struct ks_triage *tr;	/* NULL: the triage could not be read */
};

/* A sample of the tasks as --vmcore SELECTION prints it on stdout. */
static int tasks(FILE *f, struct ks_kernel *k, const struct ks_selection *sel,
		 bool waits)
{
	const struct ks_sample_say say = { &ks_live_reporter, true };
	const struct ks_walk_opts walk = { sel, waits, false };
	const struct ks_format_opts fmt = { .format = KS_FMT_TEXT, .waits = waits };
	struct ks_kernel_status st;
	struct ks_sample s = { 0 };
	int ret;

	ret = ks_kernel_sample(k, &walk, &s, &st, &say);
	if (!ret) {
		ks_kernel_status_say(false, &s, &st, &say);
		/* no task matched: an empty file, as the view's empty stdout */
		if (!ks_report_no_match(&s, 0, &ks_live_reporter))
			ret = ks_sample_write(f, &s, &fmt);
	}
	ks_sample_release(&s);
	return ret;
}

static int cpus(FILE *f, struct ks_kernel *k)
{
	struct ks_cpus cs;
	int ret;

	ret = ks_cpus_walk(k, &cs, &ks_live_reporter);
	if (!ret)
		ret = ks_format_cpus(f, &cs, false);
	ks_cpus_release(&cs);
	return ret;
}

/* -K's report, then -F's: the two views, which one run cannot ask for. */
static int hooks(FILE *f, const struct ks_target *t)
{
	const struct ks_hooks_opts kp = { .kprobes = true };
	const struct ks_hooks_opts ft = { .ftrace = true };
	const struct ks_format_opts text = { .format = KS_FMT_TEXT };
	int ret = ks_hooks_report(t, &kp, &text, f, &ks_live_reporter);
	int ret2 = ks_hooks_report(t, &ft, &text, f, &ks_live_reporter);

	return ret ? ret : ret2;
}

static int one_file(FILE *f, size_t which, const struct bundle_src *src)
{
	struct ks_selection sel = { 0 };

	if (which <= 2 && !src->tr)
		return -ENOMEM;
	switch (which) {
	case 0:
		return ks_triage_write(f, src->tr, KS_TRIAGE_TEXT);
	case 1:
		return ks_triage_write(f, src->tr, KS_TRIAGE_JSON);
	case 2:
		return ks_triage_write(f, src->tr, KS_TRIAGE_HTML);
	case 3:
		return ks_log_print(src->t, f, false, &ks_live_reporter);
	case 4:
		return cpus(f, src->k);
	case 5:
		sel.all = true;
		sel.threads = true;
		return tasks(f, src->k, &sel, false);
	case 6:
		return hooks(f, src->t);
	default:
		sel.states = KS_ST_BIT('D');
		return tasks(f, src->k, &sel, true);
	}
}

/* The files of the tasks' walk: cpus.txt, stacks.txt, waits.txt. */
static bool needs_walk(size_t which)
{
	return which == 4 || which == 5 || which == 7;
}

/*
 * DIR/name: written whole and put in place, or not at all.  A view that
 * failed has said why, as it does alone; a write that failed is said
 * here.
 */
static int write_file(struct ks_bundle *b, size_t which,
		      const struct bundle_src *src)
{
	char shown[4096];
	struct ks_output out;
	int ret, status;

	snprintf(shown, sizeof(shown), "%s/%s", b->dir, names[which]);
	if (!src->k && needs_walk(which)) {
		ks_live_say("%s not written: the dump's tasks cannot be walked", shown);
		return KS_EXIT_ERROR;
	}
	status = ks_output_open_new(&out, b->dirfd, shown, names[which]);
	if (!status) {
		ret = one_file(out.f, which, src);
		if (ret && !ferror(out.f)) {
			ks_live_say("%s not written: %s", shown, ret == -ENOMEM ?
				    "out of memory" : "its view failed");
			status = KS_EXIT_ERROR;
		} else {
			status = ks_output_commit(&out, ret);
		}
	}
	ks_output_close(&out);
	return status;
}

int ks_bundle_write(struct ks_bundle *b, const struct ks_target *t,
		    struct ks_kernel *k)
{
	struct ks_triage tr;
	struct bundle_src src = { t, k, &tr };
	int status = KS_EXIT_OK;

	if (ks_triage_read(t, k, &tr, &ks_live_reporter))
		src.tr = NULL;
	for (size_t i = 0; i < NR_NAMES; i++)
		if (write_file(b, i, &src))
			status = KS_EXIT_ERROR;
	if (src.tr)
		ks_triage_release(&tr);
	return status;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "live_sample.h"
#include "select.h"

/*
 * The release of the kernel behind the /proc we read: uname's for the real
 * one, the tree's own under --proc-root (so a fixture is not labelled with
 * the host's kernel when it has a sys/kernel/osrelease).
 */
static void kernel_release(const struct ks_proc *p, char *buf, size_t len)
{
	struct utsname u;
	ssize_t n = -1;
	int fd;

	fd = openat(p->root_fd, "sys/kernel/osrelease", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		return;
	}
	if (uname(&u))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s", u.release);
}

int ks_live_take(struct ks_proc *p, const struct ks_options *opts,
		 struct ks_sample *s, struct ks_proc_status *st)
{
	char host[KS_HOST_LEN];

	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	ks_sample_init(s, time(NULL), host);
	kernel_release(p, s->kernel, sizeof(s->kernel));
	return ks_proc_sample(p, opts, s, st);
}

static bool has_pid(const struct ks_sample *s, int32_t pid)
{
	for (size_t i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].pid == pid || s->tasks[i].tgid == pid)
			return true;
	return false;
}

int ks_live_report_missing(const struct ks_options *opts,
			   const struct ks_sample *s, const char *where)
{
	int missing = 0;

	/* under -D/-S... a PID may exist and just not be selected */
	if (!ks_select_pids_only(opts))
		return 0;
	for (size_t i = 0; i < opts->nr_pids; i++) {
		if (has_pid(s, opts->pids[i]))
			continue;
		fprintf(stderr, "kstack: PID %d does not exist%s\n",
			opts->pids[i], where);
		missing++;
	}
	return missing;
}

int ks_live_report(const struct ks_options *opts, const struct ks_sample *s,
		   const struct ks_proc_status *st)
{
	int missing = ks_live_report_missing(opts, s, "");

	if (st->nr_unreadable)
		fprintf(stderr, "kstack: %zu read error%s, first: %s\n",
			st->nr_unreadable, st->nr_unreadable == 1 ? "" : "s",
			st->first_error);
	/* a sample of nothing but empty stacks helps nobody: not printed */
	if (st->nr_denied && st->nr_denied == s->nr_tasks) {
		fprintf(stderr,
			"kstack: /proc/PID/stack not permitted for any of the %zu selected task%s (reading it needs root, CAP_SYS_ADMIN): nothing printed\n",
			s->nr_tasks, s->nr_tasks == 1 ? "" : "s");
		return KS_EXIT_PERM;
	}
	if (st->nr_denied)
		fprintf(stderr,
			"kstack: /proc/PID/stack not permitted for %zu of %zu tasks; printed with empty stacks\n",
			st->nr_denied, s->nr_tasks);
	if (!s->nr_tasks) {
		if (!missing)
			fprintf(stderr, "kstack: no task matched the selection\n");
		return KS_EXIT_NONE;
	}
	return missing ? KS_EXIT_NONE : KS_EXIT_OK;
}

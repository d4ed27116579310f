// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "live_sample.h"
#include "sample_report.h"

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
	return ks_proc_sample(p, &opts->sel, opts->out.format == KS_FMT_JSON, s,
			      st);
}

int ks_live_report(const struct ks_options *opts, const struct ks_sample *s,
		   const struct ks_proc_status *st)
{
	size_t missing = ks_report_missing(&opts->sel, s, "", &ks_live_reporter);

	if (st->nr_unreadable)
		ks_live_say("%zu read error%s, first: %s",
			    st->nr_unreadable, ks_plural(st->nr_unreadable),
			    st->first_error);
	/* a sample of nothing but empty stacks helps nobody: not printed */
	if (st->nr_denied && st->nr_denied == s->nr_tasks) {
		ks_live_say("/proc/%d/stack not permitted%s for any of the %zu selected task%s (%s): nothing printed",
			    (int)st->first_denied, s->nr_tasks == 1 ? "" : " (the first)",
			    s->nr_tasks, s->nr_tasks == 1 ? "" : "s",
			    ks_proc_denied_reason());
		return KS_EXIT_PERM;
	}
	if (st->nr_denied)
		ks_live_say("/proc/%d/stack not permitted%s: %zu of %zu task%s printed with %s",
			    (int)st->first_denied,
			    st->nr_denied == 1 ? "" : " (the first)",
			    st->nr_denied, s->nr_tasks,
			    s->nr_tasks == 1 ? "" : "s",
			    st->nr_denied == 1 ?
			    "an empty stack" : "empty stacks");
	if (ks_report_no_match(s, missing, &ks_live_reporter))
		return KS_EXIT_NONE;
	return missing ? KS_EXIT_NONE : KS_EXIT_OK;
}

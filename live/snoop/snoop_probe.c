// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kprobe event and the tracing instance of kstack --snoop.
 *
 * kprobe_events is shared by every instance; opening it with O_TRUNC
 * would delete every kprobe event on the system (probes_open() in
 * kernel/trace/trace_kprobe.c), so it is only ever appended to.  The
 * event is enabled in our instance alone.  An instance cannot be removed
 * while its trace_pipe is open (tr->trace_ref), and a probe not while it
 * is enabled anywhere (-EBUSY), so the order out is: disable, close the
 * pipe, remove the instance, remove the probe.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "grow.h"
#include "exit_status.h"
#include "snoop_probe.h"

#define RETRIES		50	/* times 20 ms: for a reader that just closed */

static int write_str(const char *path, const char *text, bool append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : 0));
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(text))
		ret = -EIO;
	close(fd);
	return ret;
}

/* A small tracefs file, whole, NUL-terminated; NULL on failure. */
static char *read_all(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = ks_grow_min(NULL, &cap, 1, 1, 4096), *n;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf)
		goto fail;
	while ((got = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)got;
		if (cap - len < 2) {
			n = ks_grow(buf, &cap, len + 2, 1);
			if (!n)
				goto fail;
			buf = n;
		}
	}
	if (got < 0)
		goto fail;
	buf[len] = '\0';
	close(fd);
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static void nap(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* "123" in [s, end) as a number of at most 10 digits. */
static int parse_num(const char *s, const char *end, int32_t *val)
{
	long v = 0;

	if (s == end || end - s > 10)
		return -ENOENT;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s))
			return -ENOENT;
		v = v * 10 + (*s - '0');
	}
	if (v > INT32_MAX)
		return -ENOENT;
	*val = (int32_t)v;
	return 0;
}

static int parse_pid(const char *s, const char *end, int32_t *pid)
{
	int ret = parse_num(s, end, pid);

	return ret ? ret : *pid > 0 ? 0 : -ENOENT;
}

int ks_snoop_instance_pid(const char *name, int32_t *pid)
{
	if (strncmp(name, "kstack-", 7))
		return -ENOENT;
	return parse_pid(name + 7, name + strlen(name), pid);
}

int ks_snoop_probe_line(const char *line, char *name, size_t len, int32_t *pid)
{
	const char *p = line, *colon, *end, *ev, *us;
	static const char group[] = KS_SNOOP_GROUP "/kstack_";

	if (*p != 'p' && *p != 'r')
		return -ENOENT;
	colon = strchr(p, ':');
	if (!colon)
		return -ENOENT;
	for (p++; p < colon; p++)	/* r10: maxactive */
		if (!isdigit((unsigned char)*p))
			return -ENOENT;
	ev = colon + 1;
	end = ev + strcspn(ev, " \t\n");
	if (strncmp(ev, group, sizeof(group) - 1))
		return -ENOENT;
	p = ev + sizeof(group) - 1;
	us = memchr(p, '_', (size_t)(end - p));
	if (!us || parse_pid(p, us, pid) || parse_num(us + 1, end, &(int32_t){ 0 }))
		return -ENOENT;
	if ((size_t)(end - ev) >= len)
		return -ENOENT;
	memcpy(name, ev, (size_t)(end - ev));
	name[end - ev] = '\0';
	return 0;
}

/* error_log entry: "[ts] where: error: reason", "  Command: cmd", caret. */
int ks_snoop_error_reason(const char *log, const char *command, char *buf,
			  size_t len)
{
	const char *line = log, *found = NULL;

	for (; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
		const char *nl = line + strcspn(line, "\n");
		const char *err = strstr(line, " error: ");
		const char *cmd;

		if (!err || err > nl || line[0] != '[')
			continue;
		cmd = *nl ? nl + 1 : nl;
		if (!strncmp(cmd, "  Command: ", 11) &&
		    !strncmp(cmd + 11, command, strlen(command)) &&
		    (cmd[11 + strlen(command)] == '\n' || !cmd[11 + strlen(command)]))
			found = line;
	}
	if (!found)
		return -ENOENT;
	{
		const char *err = strstr(found, " error: ") + 8;
		const char *cmd = found + strcspn(found, "\n") + 1;
		const char *caret = cmd + strcspn(cmd, "\n");
		int n1 = (int)strcspn(err, "\n"), n2 = (int)(caret - cmd);
		int n3 = *caret ? (int)strcspn(caret + 1, "\n") : 0;

		snprintf(buf, len, "%.*s\n%.*s\n%.*s", n1, err, n2, cmd, n3,
			 *caret ? caret + 1 : "");
	}
	return 0;
}

bool ks_snoop_alive(int32_t pid)
{
	char path[64], comm[32] = "";
	int fd;
	ssize_t n;

	if (kill(pid, 0) && errno == ESRCH)
		return false;
	/* the pid may belong to another program by now */
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno != ENOENT;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (n <= 0)
		return true;
	return !strncmp(comm, "kstack", 6);
}

/* Leftovers of our own pid are a dead process's too: we made none yet. */
static bool gone(ks_snoop_alive_fn alive, int32_t pid)
{
	return pid == (int32_t)getpid() || !alive(pid);
}

static int clean_instances(const char *tracefs, ks_snoop_alive_fn alive,
			   const struct ks_reporter *rep)
{
	char path[PATH_MAX + 300];
	struct dirent *de;
	int32_t pid;
	int removed = 0, i;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", tracefs);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (ks_snoop_instance_pid(de->d_name, &pid) || !gone(alive, pid))
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s", tracefs, de->d_name);
		for (i = 0; rmdir(path) && errno == EBUSY && i < RETRIES; i++)
			nap();
		if (access(path, F_OK)) {
			ks_say(rep, KS_WARN, "removed tracing instance %s left by "
			       "kstack %d", de->d_name, (int)pid);
			removed++;
		} else {
			ks_say(rep, KS_WARN, "cannot remove tracing instance %s "
			       "left by kstack %d: %s", de->d_name, (int)pid,
			       strerror(errno));
		}
	}
	closedir(d);
	return removed;
}

static int clean_probes(const char *tracefs, ks_snoop_alive_fn alive,
			const struct ks_reporter *rep)
{
	char path[PATH_MAX + 32], name[128], cmd[136], *text, *line, *save;
	int32_t pid;
	int removed = 0, ret;

	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	text = read_all(path);
	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (ks_snoop_probe_line(line, name, sizeof(name), &pid) ||
		    !gone(alive, pid))
			continue;
		snprintf(cmd, sizeof(cmd), "-:%s\n", name);
		ret = write_str(path, cmd, true);
		if (ret)
			ks_say(rep, KS_WARN, "cannot remove kprobe %s left by "
			       "kstack %d: %s", name, (int)pid, strerror(-ret));
		else
			ks_say(rep, KS_WARN, "removed kprobe %s left by kstack %d",
			       name, (int)pid);
		removed += !ret;
	}
	free(text);
	return removed;
}

int ks_snoop_clean_stale(const char *tracefs, ks_snoop_alive_fn alive,
			 const struct ks_reporter *rep)
{
	/* instances first: a probe enabled in one cannot go */
	int n = clean_instances(tracefs, alive, rep);

	return n + clean_probes(tracefs, alive, rep);
}

/* What the error number alone cannot say, from the kernel's own lists. */
static const char *hint(const struct ks_tracefs *fs, const char *func, int err)
{
	char path[PATH_MAX + 64];

	if (!ks_file_lists("/proc/kallsyms", func, 2))
		return "it is not in /proc/kallsyms: misspelled, or inlined "
		       "into its callers";
	snprintf(path, sizeof(path), "%s/kprobes/blacklist", fs->debugfs);
	if (fs->debugfs[0] && ks_file_lists(path, func, 1))
		return "it is on the kprobe blacklist (debugfs kprobes/blacklist)";
	snprintf(path, sizeof(path), "%s/available_filter_functions", fs->tracefs);
	if (err == -EINVAL && !access(path, R_OK) && !ks_file_lists(path, func, 0))
		return "it is notrace (not in available_filter_functions): "
		       "kprobe events refuse such functions";
	return NULL;
}

/* Why the kernel refused cmd, in its words and ours; the exit status. */
static int refused(const struct ks_tracefs *fs, const char *func,
		   const char *cmd, int err, const struct ks_reporter *rep)
{
	char path[PATH_MAX + 32], reason[1024] = "", *log;
	const char *h;

	if (err == -EPERM || err == -EACCES) {
		ks_say(rep, KS_WARN, "writing %s/kprobe_events: %s (a locked-down "
		       "kernel refuses kprobes)", fs->tracefs, strerror(-err));
		return KS_EXIT_PERM;
	}
	snprintf(path, sizeof(path), "%s/error_log", fs->tracefs);
	log = read_all(path);
	if (log && ks_snoop_error_reason(log, cmd, reason, sizeof(reason)))
		reason[0] = '\0';
	free(log);
	h = hint(fs, func, err);
	ks_say(rep, KS_WARN, "cannot probe %s: %s%s%s%s%s", func,
	       strerror(-err), reason[0] ? "\nkstack: error_log: " : "", reason,
	       h ? "\nkstack: " : "", h ? h : "");
	return err == -ENOMEM ? KS_EXIT_ERROR : KS_EXIT_NONE;
}

static int make_probe(struct ks_snoop_probe *p, const struct ks_tracefs *fs,
		      const char *func, const struct ks_reporter *rep)
{
	char path[PATH_MAX + 32], cmd[512];
	int n, ret = -EEXIST;

	snprintf(path, sizeof(path), "%s/kprobe_events", fs->tracefs);
	for (n = 0; n < 100 && ret == -EEXIST; n++) {
		snprintf(p->event, sizeof(p->event), "kstack_%d_%d", (int)getpid(), n);
		/*
		 * The caller's comm as the event's own argument: the line's
		 * comm comes from tracing's saved_cmdlines, which has "<...>"
		 * for a task's first event, and /proc may no longer have the
		 * task when the line is read.
		 */
		snprintf(cmd, sizeof(cmd), "p:%s/%s %s comm=$comm",
			 KS_SNOOP_GROUP, p->event, func);
		ret = write_str(path, cmd, true);
		if (ret == -EINVAL) {	/* a kernel without $comm (before 4.x) */
			snprintf(cmd, sizeof(cmd), "p:%s/%s %s", KS_SNOOP_GROUP,
				 p->event, func);
			ret = write_str(path, cmd, true);
		}
	}
	if (ret == -ENOENT && access(path, F_OK)) {
		ks_say(rep, KS_WARN, "%s does not exist: this kernel has no kprobe "
		       "events (CONFIG_KPROBE_EVENTS)", path);
		/* a feature the kernel lacks, as -K's kprobes: not a permission */
		return KS_EXIT_ERROR;
	}
	if (ret)
		return refused(fs, func, cmd, ret, rep);
	p->probe_made = true;
	return 0;
}

static int set(const struct ks_snoop_probe *p, const char *file, const char *val)
{
	char path[PATH_MAX + 200];

	if (snprintf(path, sizeof(path), "%s/%s", p->instance, file) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return write_str(path, val, false);
}

/* "common_pid == 1 || common_pid == 2" */
static int set_filter(const struct ks_snoop_probe *p, const int32_t *pids,
		      size_t nr)
{
	char file[160], *filter = malloc(nr * 32 + 1);
	size_t i, len = 0;
	int ret;

	if (!filter)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		len += (size_t)sprintf(filter + len, "%scommon_pid == %d",
				       i ? " || " : "", (int)pids[i]);
	snprintf(file, sizeof(file), "events/%s/%s/filter", KS_SNOOP_GROUP,
		 p->event);
	ret = set(p, file, filter);
	free(filter);
	return ret;
}

static int make_instance(struct ks_snoop_probe *p, const struct ks_tracefs *fs,
			 const struct ks_reporter *rep)
{
	int ret = 0;

	snprintf(p->instance, sizeof(p->instance), "%s/instances/kstack-%d",
		 fs->tracefs, (int)getpid());
	if (mkdir(p->instance, 0700)) {
		ret = -errno;
		ks_say(rep, KS_WARN, "cannot make tracing instance %s: %s",
		       p->instance, strerror(-ret));
		return ret == -EPERM || ret == -EACCES ? KS_EXIT_PERM : KS_EXIT_ERROR;
	}
	p->instance_made = true;
	/* frames as /proc/PID/stack prints them; the stack with every call */
	ret = set(p, "options/sym-offset", "1");
	if (!ret)
		ret = set(p, "options/stacktrace", "1");
	if (ret) {
		ks_say(rep, KS_WARN, "cannot set the stacktrace options of %s: %s",
		       p->instance, strerror(-ret));
		return KS_EXIT_ERROR;
	}
	/* times comparable with the wall clock; wake readers on every event */
	set(p, "trace_clock", "boot");
	set(p, "buffer_percent", "0");
	return 0;
}

static int start(struct ks_snoop_probe *p, const int32_t *pids, size_t nr,
		 const struct ks_reporter *rep)
{
	char path[PATH_MAX + 200], file[160];
	int ret = nr ? set_filter(p, pids, nr) : 0;

	if (ret) {
		ks_say(rep, KS_WARN, "cannot set the -p filter: %s", strerror(-ret));
		return KS_EXIT_ERROR;
	}
	snprintf(path, sizeof(path), "%s/trace_pipe", p->instance);
	p->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (p->pipe_fd < 0) {
		ks_say(rep, KS_WARN, "cannot open %s: %s", path, strerror(errno));
		return KS_EXIT_ERROR;
	}
	snprintf(file, sizeof(file), "events/%s/%s/enable", KS_SNOOP_GROUP,
		 p->event);
	ret = set(p, file, "1");
	if (ret) {
		ks_say(rep, KS_WARN, "cannot enable %s in %s: %s", p->event,
		       p->instance, strerror(-ret));
		return KS_EXIT_ERROR;
	}
	p->enabled = true;
	return 0;
}

int ks_snoop_probe_open(struct ks_snoop_probe *p, const struct ks_tracefs *fs,
			const char *func, const int32_t *pids, size_t nr_pids,
			const struct ks_reporter *rep)
{
	int status;

	memset(p, 0, sizeof(*p));
	p->pipe_fd = -1;
	snprintf(p->tracefs, sizeof(p->tracefs), "%s", fs->tracefs);
	status = make_probe(p, fs, func, rep);
	if (!status)
		status = make_instance(p, fs, rep);
	if (!status)
		status = start(p, pids, nr_pids, rep);
	if (status)
		ks_snoop_probe_close(p, rep);
	return status;
}

void ks_snoop_probe_stop(struct ks_snoop_probe *p)
{
	char file[160];

	if (!p->enabled)
		return;
	snprintf(file, sizeof(file), "events/%s/%s/enable", KS_SNOOP_GROUP,
		 p->event);
	set(p, file, "0");
	p->enabled = false;
}

void ks_snoop_probe_close(struct ks_snoop_probe *p,
			  const struct ks_reporter *rep)
{
	char path[PATH_MAX + 200], cmd[160];
	int i, ret;

	ks_snoop_probe_stop(p);
	if (p->pipe_fd >= 0) {
		close(p->pipe_fd);
		p->pipe_fd = -1;
	}
	if (p->instance_made) {
		for (i = 0; rmdir(p->instance) && errno == EBUSY && i < RETRIES; i++)
			nap();
		if (!access(p->instance, F_OK))
			ks_say(rep, KS_WARN, "cannot remove %s: %s (the next "
			       "kstack --snoop will)", p->instance, strerror(errno));
		p->instance_made = false;
	}
	if (p->probe_made) {
		snprintf(path, sizeof(path), "%s/kprobe_events", p->tracefs);
		snprintf(cmd, sizeof(cmd), "-:%s/%s\n", KS_SNOOP_GROUP, p->event);
		for (i = 0; (ret = write_str(path, cmd, true)) == -EBUSY &&
		     i < RETRIES; i++)
			nap();
		if (ret)
			ks_say(rep, KS_WARN, "cannot remove kprobe %s/%s: %s (the "
			       "next kstack --snoop will)", KS_SNOOP_GROUP,
			       p->event, strerror(-ret));
		p->probe_made = false;
	}
}

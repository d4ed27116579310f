// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc reader.  Every file is read with openat() relative to the /proc
 * directory and plain read() into one reused buffer: no stdio, no path
 * building beyond a few digits, so a sample costs little more than the
 * system calls themselves.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "proc_tasks.h"
#include "proc_verify.h"
#include "select.h"

#define PROC_BUF_MIN	(64 * 1024)

static bool gone(int err)
{
	return err == ENOENT || err == ESRCH;
}

/*
 * Reads the whole of an open file from offset 0 into p->buf,
 * NUL-terminated; the length in *len_ret.  Returns 0 or -errno.
 * A read that leaves room in the buffer is the end: every file read here
 * is made by one show() (seq_file's single_open(): stat, status,
 * schedstat, stack, cgroup, /proc/stat) or is cmdline, which
 * get_mm_cmdline() copies whole, or a regular file (a --proc-root tree).
 * Not so a seq_file of many records, which stops before a record that
 * does not fit: such a file is not read through here.  That saves the
 * second system call per file that would only see the end.
 */
static int read_fd(struct ks_proc *p, int fd, size_t *len_ret)
{
	size_t len = 0;
	int ret = 0;

	for (;;) {
		ssize_t n;

		if (len + 1 >= p->buf_size) {
			char *b = ks_grow(p->buf, &p->buf_size, len + 2, 1);

			if (!b) {
				ret = -ENOMEM;
				break;
			}
			p->buf = b;
		}
		n = pread(fd, p->buf + len, p->buf_size - len - 1, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len + 1 < p->buf_size)
			break;
	}
	p->buf[len] = '\0';
	*len_ret = len;
	return ret;
}

static int open_file(struct ks_proc *p, const char *path)
{
	int fd = openat(p->root_fd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	return fd < 0 ? -errno : fd;
}

/* Reads the whole of root/path into p->buf as read_fd() does. */
static int read_file(struct ks_proc *p, const char *path, size_t *len_ret)
{
	int fd = open_file(p, path);
	int ret;

	if (fd < 0)
		return fd;
	ret = read_fd(p, fd, len_ret);
	close(fd);
	return ret;
}

/*
 * read_file() of the task's file dir/name, through the file background
 * mode kept open for that task when there is one (proc_cache.h), and
 * kept for the next sample when there is room.
 */
static int read_kept(struct ks_proc *p, const char *dir, int32_t tid,
		     unsigned long long start, enum ks_kept_file which,
		     const char *name, size_t *len_ret)
{
	char path[64];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!p->cache)
		return read_file(p, path, len_ret);
	fd = ks_proc_cache_file(p->cache, tid, start, which);
	if (fd >= 0) {
		if (!read_fd(p, fd, len_ret))
			return 0;
		/* the task is gone (ESRCH): say so through a fresh open */
		ks_proc_cache_drop_file(p->cache, tid, which);
	}
	fd = open_file(p, path);
	if (fd < 0)
		return fd;
	ret = read_fd(p, fd, len_ret);
	if (ret || ks_proc_cache_keep_file(p->cache, tid, start, which, fd))
		close(fd);
	return ret;
}

int ks_proc_parse_btime(const char *buf, int64_t *btime_ret)
{
	const char *b = strstr(buf, "\nbtime ");
	char *end;
	long long v;

	if (!b)
		return -ENODATA;
	b += 7;
	errno = 0;
	v = strtoll(b, &end, 10);
	if (errno || end == b || v < 0 || (*end && *end != '\n'))
		return -EINVAL;
	*btime_ret = v;
	return 0;
}

/*
 * btime, the boot time every start time is counted from, in root/stat.  A
 * tree without it (a capture of the PID directories alone) still has its
 * stacks: the start times are then unknown ("?"), said once.
 */
static void read_btime(struct ks_proc *p, const char *root,
		       const struct ks_reporter *rep)
{
	const char *b;
	size_t len;
	int ret = read_file(p, "stat", &len);

	if (ret) {
		ks_say(rep, KS_WARN, "cannot read %s/stat: %s: start times "
		       "are unknown", root, strerror(-ret));
		goto unknown;
	}
	ret = ks_proc_parse_btime(p->buf, &p->btime);
	if (!ret)
		return;
	if (ret == -ENODATA) {
		ks_say(rep, KS_WARN, "%s/stat has no btime line: start times "
		       "are unknown", root);
	} else {
		b = strstr(p->buf, "\nbtime ") + 7;
		len = strcspn(b, "\n");
		ks_say(rep, KS_WARN, "%s/stat: btime '%.*s' is not a time: "
		       "start times are unknown",
		       root, (int)(len < 32 ? len : 32), b);
	}
unknown:
	p->btime = KS_BTIME_UNKNOWN;
}

int ks_proc_open(struct ks_proc *p, const char *root,
		 const struct ks_reporter *rep)
{
	int ret;

	memset(p, 0, sizeof(*p));
	p->root_fd = -1;
	p->buf_size = PROC_BUF_MIN;
	p->buf = malloc(p->buf_size);
	if (!p->buf) {
		ks_say(rep, KS_WARN, "out of memory");
		return -ENOMEM;
	}
	p->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->root_fd < 0) {
		ret = -errno;
		ks_say(rep, KS_WARN, "cannot read %s: %s", root, strerror(-ret));
		goto fail;
	}
	p->clk_tck = sysconf(_SC_CLK_TCK);
	if (p->clk_tck <= 0)
		p->clk_tck = 100;
	read_btime(p, root, rep);
	return 0;
fail:
	ks_proc_close(p);
	return ret;
}

int ks_proc_stack_access(struct ks_proc *p)
{
	char buf[64];
	int fd, err = 0;

	fd = openat(p->root_fd, "self/stack", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		err = errno;
	else if (read(fd, buf, sizeof(buf)) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	return err == EACCES || err == EPERM ? -err : 0;
}

int32_t ks_proc_our_pid(struct ks_proc *p)
{
	char buf[16];
	ssize_t n = readlinkat(p->root_fd, "self", buf, sizeof(buf) - 1);
	pid_t pid = getpid();

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == (long)pid ? (int32_t)pid : 0;
}

/* Whether uid_map is the initial namespace's identity map of every uid. */
static bool in_initial_userns(void)
{
	unsigned long inner, outer, count;
	bool identity = false;
	FILE *f = fopen("/proc/self/uid_map", "re");

	if (!f)
		return true;	/* no user namespaces in this kernel */
	if (fscanf(f, "%lu %lu %lu", &inner, &outer, &count) == 3)
		identity = !inner && !outer && count == 4294967295ul;
	fclose(f);
	return identity;
}

/*
 * proc_pid_stack() wants CAP_SYS_ADMIN in the initial user namespace
 * (file_ns_capable(..., &init_user_ns, ...)), which root in a user
 * namespace or a container that drops it lacks; telling such a root that
 * "root" is needed would send them the wrong way.
 */
const char *ks_proc_denied_reason(void)
{
	if (geteuid())
		return "reading it needs root (CAP_SYS_ADMIN)";
	if (!in_initial_userns())
		return "the kernel refused it although kstack runs as root: this "
		       "root is a user namespace's, and it needs CAP_SYS_ADMIN in "
		       "the initial user namespace";
	return "the kernel refused it although kstack runs as root: it needs "
	       "CAP_SYS_ADMIN in the initial user namespace (a container may "
	       "drop it) and a kernel that allows it (lockdown, a security "
	       "module, ptrace rules)";
}

void ks_proc_close(struct ks_proc *p)
{
	if (p->root_fd >= 0)
		close(p->root_fd);
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

/*
 * Field 39, processor: task_cpu(), where the task runs or ran last (f is
 * field 22).  A stat without it (a short fixture) leaves the CPU unknown.
 */
static void parse_processor(const char *f, struct ks_task *t)
{
	long cpu;
	char *end;

	for (int field = 22; field < 39; field++) {
		f = strchr(f, ' ');
		if (!f)
			return;
		f++;
	}
	if (*f < '0' || *f > '9')
		return;
	errno = 0;
	cpu = strtol(f, &end, 10);
	if (errno || cpu > INT32_MAX || (*end != ' ' && *end != '\n' && *end))
		return;
	t->has_cpu = true;
	t->cpu = (int32_t)cpu;
}

/*
 * The comm may hold spaces, ')' and newlines, so the fields after it are
 * found from the LAST ')', never by splitting.
 */
int ks_proc_parse_stat(const char *buf, struct ks_task *t,
		       unsigned long long *start_ret, bool *start_ok)
{
	const char *open = strchr(buf, '(');
	const char *close = strrchr(buf, ')');
	const char *f;
	char *end;
	size_t len;

	if (!open || !close || close < open || close[1] != ' ')
		return -EINVAL;
	len = (size_t)(close - open - 1);
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, len);
	t->comm[len] = '\0';
	f = close + 2;
	t->state = *f;
	/* starttime is field 22; the state is field 3 */
	for (int field = 3; field < 22; field++) {
		f = strchr(f, ' ');
		if (!f)
			return -EINVAL;
		f++;
	}
	/* strtoull would take "-1" and saturate "99999999999999999999" */
	errno = 0;
	*start_ret = strtoull(f, &end, 10);
	*start_ok = *f >= '0' && *f <= '9' && !errno &&
		    (*end == ' ' || *end == '\n' || !*end);
	parse_processor(f, t);
	return 0;
}

/*
 * btime + starttime / CLK_TCK, as ps computes a start time.  A tree given
 * with --proc-root may hold values whose sum does not fit: the start time
 * is then unknown, never wrapped.
 */
static int start_time(const struct ks_proc *p, unsigned long long ticks,
		      int64_t *start_ret)
{
	unsigned long long secs = ticks / (unsigned long long)p->clk_tck;

	if (p->btime == KS_BTIME_UNKNOWN)
		return -ENODATA;
	if (secs > (unsigned long long)(INT64_MAX - p->btime))
		return -ERANGE;
	*start_ret = p->btime + (int64_t)secs;
	return 0;
}

static void note_problem(struct ks_proc_status *st, const char *path,
			 const char *what)
{
	st->nr_unreadable++;
	if (!st->first_error[0])
		snprintf(st->first_error, sizeof(st->first_error), "%s: %s",
			 path, what);
}

static void note_error(struct ks_proc_status *st, const char *path, int err)
{
	st->last_errno = err;
	note_problem(st, path, strerror(err));
}

/* The task's note, why something of it is missing; several join with "; ". */
static int add_note(struct ks_task *t, const char *what)
{
	size_t old = t->note ? strlen(t->note) : 0;
	char *n = realloc(t->note, old + strlen(what) + 3);

	if (!n)
		return -ENOMEM;
	if (old)
		strcpy(n + old, "; ");
	strcpy(n + (old ? old + 2 : 0), what);
	t->note = n;
	return 0;
}

bool ks_proc_cgroup_match(const char *text, const char *cgroup)
{
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, "0::", 3))
			return ks_select_cgroup(line + 3, cgroup);
	}
	return false;
}

static void task_release(struct ks_task *t)
{
	free(t->cmd);
	free(t->stack);
	free(t->note);
}

/* Whether the task's cgroup v2 path is cgroup or below it. */
static int in_cgroup(struct ks_proc *p, const char *dir, const char *cgroup,
		     bool *in_ret)
{
	char path[64];
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup", dir);
	ret = read_file(p, path, &len);
	if (ret)
		return ret;
	*in_ret = ks_proc_cgroup_match(p->buf, cgroup);
	return 0;
}

struct task_ref {
	int32_t pid;
	int32_t tgid;
	const char *dir;	/* "PID" or "PID/task/TID" */
};

static char *dup_buf(const char *buf, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, buf, len);
		s[len] = '\0';
	}
	return s;
}

void ks_proc_parse_switches(const char *buf, struct ks_task *t)
{
	const char *v = strstr(buf, "\nvoluntary_ctxt_switches:");
	const char *nv = strstr(buf, "\nnonvoluntary_ctxt_switches:");

	if (!v || !nv ||
	    sscanf(v, "\nvoluntary_ctxt_switches: %" SCNu64, &t->nvcsw) != 1 ||
	    sscanf(nv, "\nnonvoluntary_ctxt_switches: %" SCNu64, &t->nivcsw) != 1)
		return;
	t->has_switches = true;
}

/*
 * status's voluntary_ctxt_switches and nonvoluntary_ctxt_switches: one
 * more file per task, so only read for the formats that print them.
 */
static void read_switches(struct ks_proc *p, const char *dir, struct ks_task *t)
{
	char path[64];
	size_t len;

	snprintf(path, sizeof(path), "%s/status", dir);
	if (read_file(p, path, &len))
		return;
	ks_proc_parse_switches(p->buf, t);
}

/*
 * The schedstat line of the task in dir, parsed (proc_cache.h): 0, or
 * -errno when there is none to vouch for the task.
 */
static int read_sched(struct ks_proc *p, const char *dir, struct ks_sched *sc)
{
	char path[64];
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/schedstat", dir);
	ret = read_file(p, path, &len);
	return ret ? ret : ks_proc_parse_sched(p->buf, sc);
}

/* read_sched() through the file kept for the task (read_kept()). */
static int read_sched_kept(struct ks_proc *p, const struct task_ref *ref,
			   unsigned long long start, struct ks_sched *sc)
{
	size_t len;
	int ret = read_kept(p, ref->dir, ref->pid, start, KS_KEPT_SCHEDSTAT,
			    "schedstat", &len);

	return ret ? ret : ks_proc_parse_sched(p->buf, sc);
}

/*
 * The stack text, read into p->buf or taken from the cache (*text and
 * *len_ret): 1 when taken, 0 when read, or -errno of the read.  The
 * schedstat line is read before the stack, so a task that runs after it
 * shows a new line next time.
 */
static int read_stack(struct ks_proc *p, const struct task_ref *ref,
		      const struct ks_task *t, unsigned long long start,
		      bool use_cache, const char **text, size_t *len_ret)
{
	bool cached = use_cache && t->pid != p->self &&
		      t->start_time != KS_START_UNKNOWN;
	struct ks_sched sc;
	char path[64];
	int ret;

	if (cached)
		cached = !read_sched_kept(p, ref, start, &sc);
	if (cached) {
		*text = ks_proc_cache_take(p->cache, t->pid, start, &sc, len_ret);
		if (*text)
			return 1;
	}
	snprintf(path, sizeof(path), "%s/stack", ref->dir);
	*text = p->buf;
	ret = read_file(p, path, len_ret);
	/* not remembered: that task is read in full next time */
	if (!ret && cached)
		ks_proc_cache_keep(p->cache, t->pid, start, &sc, p->buf, *len_ret);
	return ret;
}

/* What a walk of /proc is asked: which tasks, and --json's switches. */
struct proc_ask {
	const struct ks_selection *sel;
	bool switches;		/* each task's context switches (status) */
};

/*
 * A task left out because reading path failed: 0.  One that has gone
 * is counted, anything else noted.
 */
static int skip_task(struct ks_proc_status *st, struct ks_task *t,
		     const char *path, int ret)
{
	free(t->note);
	t->note = NULL;
	if (gone(-ret)) {
		st->nr_vanished++;
		return 0;
	}
	note_error(st, path, -ret);
	return 0;
}

/*
 * The task's stat into *t and *start, then whether sel selects it: 1
 * selected, 0 skipped, -errno on failure.
 */
static int stat_selected(struct ks_proc *p, const struct ks_selection *sel,
			 const struct task_ref *ref, struct ks_task *t,
			 unsigned long long *start, struct ks_proc_status *st)
{
	bool start_ok;
	char path[64];
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/stat", ref->dir);
	ret = read_file(p, path, &len);
	if (ret)
		return skip_task(st, t, path, ret);
	if (p->verify) {
		snprintf(p->seen_stat, sizeof(p->seen_stat), "%s", p->buf);
		p->seen_sched_ret = read_sched(p, ref->dir, &p->seen_sched);
		/* stat's longest line, 52 numbers and a comm, fits */
		strcpy(p->buf, p->seen_stat);
	}
	if (ks_proc_parse_stat(p->buf, t, start, &start_ok)) {
		note_error(st, path, EINVAL);
		return 0;
	}
	if (!ks_select_match(sel, t->pid, t->state) &&
	    !ks_select_match(sel, t->tgid, t->state) &&
	    !ks_select_comm(sel, t->comm))
		return 0;
	if (sel->cgroup) {
		bool in;

		ret = in_cgroup(p, ref->dir, sel->cgroup, &in);
		if (ret)
			return skip_task(st, t, path, ret);
		if (!in)
			return 0;
	}
	ret = start_ok ? start_time(p, *start, &t->start_time) : -ERANGE;
	/* no boot time was said once, at the start */
	if (ret == -ENODATA)
		t->start_time = KS_START_UNKNOWN;
	if (ret == -ERANGE) {
		t->start_time = KS_START_UNKNOWN;
		note_problem(st, path, "start time out of range");
		if (add_note(t, "start time out of range"))
			return -ENOMEM;
	}
	return 1;
}

/* Cmd into *t: 1, or 0 when the task has gone. */
static int read_cmd(struct ks_proc *p, const struct task_ref *ref,
		    struct ks_task *t, unsigned long long start,
		    bool use_cache, struct ks_proc_status *st)
{
	char path[64];
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/cmdline", ref->dir);
	if (use_cache && t->pid != p->self && t->start_time != KS_START_UNKNOWN)
		ret = read_kept(p, ref->dir, t->pid, start, KS_KEPT_CMDLINE,
				"cmdline", &len);
	else
		ret = read_file(p, path, &len);
	if (ret && gone(-ret))
		return skip_task(st, t, path, ret);
	t->cmd = ks_cmd_from_cmdline(p->buf, ret ? 0 : len, t->comm);
	return 1;
}

/*
 * One task's record into *t: 1 when built, 0 when skipped, -errno on
 * failure.  use_cache: its stack may come from the last sample.
 */
static int build_task(struct ks_proc *p, const struct proc_ask *ask,
		      const struct task_ref *ref, bool use_cache,
		      struct ks_task *t, struct ks_proc_status *st)
{
	unsigned long long start;
	const char *stack;
	bool stack_read;
	char path[64];
	size_t len;
	int ret;

	memset(t, 0, sizeof(*t));
	t->pid = ref->pid;
	t->tgid = ref->tgid;
	ret = stat_selected(p, ask->sel, ref, t, &start, st);
	if (ret <= 0)
		return ret;
	if (!read_cmd(p, ref, t, start, use_cache, st))
		return 0;
	ret = read_stack(p, ref, t, start, use_cache, &stack, &len);
	if (ret == 1)
		st->nr_reused++;
	stack_read = ret >= 0;
	snprintf(path, sizeof(path), "%s/stack", ref->dir);
	if (ret == -EACCES || ret == -EPERM) {
		if (!st->nr_denied++)
			st->first_denied = t->pid;
		ret = add_note(t, "permission denied");
		len = 0;
	} else if (ret < 0 && gone(-ret)) {
		free(t->cmd);
		return skip_task(st, t, path, ret);
	} else if (ret < 0) {
		note_error(st, path, -ret);
		ret = add_note(t, strerror(-ret));
		len = 0;
	} else {
		ret = 0;
	}
	t->stack = dup_buf(stack, len);
	/*
	 * proc_pid_stack() prints nothing for a task on another CPU
	 * (task_on_another_cpu() in the unwinder): say so, as a dump does.
	 */
	if (stack_read && !len && t->state == 'R') {
		t->running = true;
		ret = add_note(t, "on a CPU");
	}
	if (ask->switches)
		read_switches(p, ref->dir, t);
	if (ret || !t->cmd || !t->stack) {
		task_release(t);
		return -ENOMEM;
	}
	return 1;
}

/*
 * KSTACK_TEST_VERIFY_CACHE: the task read again at once in full.  A
 * difference is the cache's fault unless the task changed in between,
 * which its stat or schedstat line then shows.  Cmd is the one field
 * that neither shows: argv lives in memory that a sibling thread, or a
 * writer of /proc/PID/mem, rewrites while the task sleeps.  Both reads
 * take it afresh, so a Cmd that differs while all else agrees changed
 * in between (test_background_cache's sibling threads do just that).
 */
static bool only_cmd_differs(const struct ks_task *t, const struct ks_task *full)
{
	struct ks_task same_cmd = *full;
	char diff[8];

	if (!t->cmd || !full->cmd || !strcmp(t->cmd, full->cmd))
		return false;
	same_cmd.cmd = t->cmd;
	return !ks_proc_task_differs(t, &same_cmd, diff, sizeof(diff));
}

static void verify_task(struct ks_proc *p, const struct proc_ask *ask,
			const struct task_ref *ref, const struct ks_task *t,
			struct ks_proc_status *st)
{
	struct ks_proc_status scratch = { 0 };
	struct ks_sched before = p->seen_sched, after;
	int before_ret = p->seen_sched_ret, after_ret;
	char stat1[sizeof(p->seen_stat)];
	char diff[400];
	struct ks_task full;
	bool changed;

	memcpy(stat1, p->seen_stat, sizeof(stat1));
	if (build_task(p, ask, ref, false, &full, &scratch) != 1)
		return;	/* gone, or not selected any more */
	after_ret = read_sched(p, ref->dir, &after);
	st->nr_verified++;
	if (!ks_proc_task_differs(t, &full, diff, sizeof(diff)))
		goto out;
	changed = strcmp(stat1, p->seen_stat) || before_ret || after_ret ||
		  memcmp(&before, &after, sizeof(before)) ||
		  only_cmd_differs(t, &full);
	if (changed) {
		st->nr_raced++;
		goto out;
	}
	if (!st->nr_mismatch++)
		snprintf(st->first_mismatch, sizeof(st->first_mismatch),
			 "task %d: %s", (int)t->pid, diff);
out:
	task_release(&full);
}

/* Returns 1 when the task was added, 0 when skipped, -errno on failure. */
static int read_task(struct ks_proc *p, const struct proc_ask *ask,
		     const struct task_ref *ref, struct ks_sample *s,
		     struct ks_proc_status *st)
{
	struct ks_task t;
	int ret = build_task(p, ask, ref, p->cache != NULL, &t, st);

	if (ret <= 0)
		return ret;
	if (p->verify)
		verify_task(p, ask, ref, &t, st);
	if (ks_sample_add(s, &t)) {
		task_release(&t);
		return -ENOMEM;
	}
	return 1;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

/* The numeric entries of root/dir, ascending, as /proc lists them. */
static int list_ids(struct ks_proc *p, const char *dir, int32_t **ids_ret,
		    size_t *nr_ret)
{
	int fd = openat(p->root_fd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int32_t *ids = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		char *end;
		long id = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || id < 0 || id > INT32_MAX)
			continue;
		if (nr == cap) {
			int32_t *n = ks_grow_min(ids, &cap, nr + 1, sizeof(*n),
						 1024);
			if (!n) {
				free(ids);
				closedir(d);
				return -ENOMEM;
			}
			ids = n;
		}
		ids[nr++] = (int32_t)id;
	}
	closedir(d);
	qsort(ids, nr, sizeof(*ids), cmp_i32);
	*ids_ret = ids;
	*nr_ret = nr;
	return 0;
}

static int read_one(struct ks_proc *p, const struct proc_ask *ask,
		    int32_t pid, struct ks_sample *s, struct ks_proc_status *st)
{
	char dir[16];
	struct task_ref ref = { .pid = pid, .tgid = pid, .dir = dir };
	int ret;

	snprintf(dir, sizeof(dir), "%d", pid);
	ret = read_task(p, ask, &ref, s, st);
	return ret < 0 ? ret : 0;
}

static int read_threads(struct ks_proc *p, const struct proc_ask *ask,
			int32_t pid, struct ks_sample *s,
			struct ks_proc_status *st)
{
	char dir[64], tdir[64];
	int32_t *tids;
	size_t nr;
	int ret;

	snprintf(dir, sizeof(dir), "%d/task", pid);
	ret = list_ids(p, dir, &tids, &nr);
	if (ret == -ENOENT)
		return read_one(p, ask, pid, s, st);	/* a tree without task/ */
	if (ret)
		return gone(-ret) ? 0 : ret;
	for (size_t i = 0; i < nr && ret >= 0; i++) {
		struct task_ref ref = { .pid = tids[i], .tgid = pid, .dir = tdir };

		snprintf(tdir, sizeof(tdir), "%d/task/%d", pid, tids[i]);
		ret = read_task(p, ask, &ref, s, st);
	}
	free(tids);
	return ret < 0 ? ret : 0;
}

static int read_process(struct ks_proc *p, const struct proc_ask *ask,
			int32_t pid, struct ks_sample *s,
			struct ks_proc_status *st)
{
	if (ask->sel->threads)
		return read_threads(p, ask, pid, s, st);
	return read_one(p, ask, pid, s, st);
}

static int sample_pids(struct ks_proc *p, const struct proc_ask *ask,
		       struct ks_sample *s, struct ks_proc_status *st)
{
	for (size_t i = 0; i < ask->sel->nr_pids; i++) {
		bool seen = false;
		int ret;

		/* -p 5,5 prints task 5 once */
		for (size_t j = 0; j < i && !seen; j++)
			seen = ask->sel->pids[j] == ask->sel->pids[i];
		if (seen)
			continue;
		ret = read_process(p, ask, ask->sel->pids[i], s, st);
		if (ret)
			return ret;
	}
	return 0;
}

static int sample_all(struct ks_proc *p, const struct proc_ask *ask,
		      struct ks_sample *s, struct ks_proc_status *st)
{
	int32_t *pids;
	size_t nr;
	int ret;

	ret = list_ids(p, ".", &pids, &nr);
	if (ret)
		return ret;
	for (size_t i = 0; i < nr && !ret; i++)
		if (pids[i] != p->leave_out)
			ret = read_process(p, ask, pids[i], s, st);
	free(pids);
	return ret;
}

int ks_proc_sample(struct ks_proc *p, const struct ks_selection *sel,
		   bool switches, struct ks_sample *s, struct ks_proc_status *st)
{
	const struct proc_ask ask = { sel, switches };
	int ret;

	memset(st, 0, sizeof(*st));
	if (ks_select_pids_only(sel))
		ret = sample_pids(p, &ask, s, st);
	else
		ret = sample_all(p, &ask, s, st);
	/* the tasks this sample did not see are forgotten */
	if (p->cache)
		ks_proc_cache_end(p->cache);
	return ret;
}

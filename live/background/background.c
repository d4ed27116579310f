// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Background mode (-b, --foreground): oled kstack's sampling loop, with
 * what it lacked: a drift-free schedule, a disk guard before every write,
 * a single-instance lock, a clean stop on SIGTERM/SIGINT, and rotation and
 * appends that a SIGKILL at any moment cannot corrupt.
 *
 * Everything that can fail is done before going to the background, so a
 * bad directory, a held lock or a full disk is an exit status, not a line
 * in a log nobody reads: open DIR, lock, check space, check permission,
 * finish an interrupted rotation, rotate the previous run's log (as oled
 * does), and only then fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "background.h"
#include "bg_metrics.h"
#include "bg_daemon.h"
#include "bg_journal.h"
#include "bg_log.h"
#include "bg_logfile.h"
#include "bg_out.h"
#include "cgroup_check.h"
#include "disk_guard.h"
#include "format.h"
#include "live_say.h"
#include "live_sample.h"
#include "proc_tasks.h"
#include "rotate.h"
#include "run_lock.h"
#include "sample_report.h"
#include "version.h"

#define NS_PER_MS	1000000LL
#define NS_PER_SEC	1000000000LL

struct bg {
	const struct ks_options *opts;
	const struct ks_live_options *live;
	/*
	 * The writers' options without -v: here -v means DEBUG log lines,
	 * and the samples stay oled's text for kstack report and oled's
	 * own readers.
	 */
	struct ks_format_opts out;
	char dir[PATH_MAX];		/* for messages: absolute if known */
	char name[KS_HOST_LEN + 16];	/* kstack_HOST.out */
	int dirfd;
	int lock_fd;
	int oled_lock_fd;		/* shared flock on oled's lock, or -1 */
	bool proc_open;
	struct ks_proc proc;
	struct ks_proc_cache cache;	/* stacks of tasks that did not run */
	struct ks_disk_guard guard;
	struct ks_rotate rot;
	bool metrics_on;		/* --prometheus */
	struct ks_metrics metrics;
	char metrics_path[PATH_MAX];	/* absolute: the daemon runs in / */
	int metrics_err;		/* last error writing it, logged once */
	int64_t interval_ns;
	int64_t duration_ns;
	int64_t min_sample_ns;	/* KSTACK_TEST_SAMPLE_MS: a sample lasts this long */
	bool no_rotation;		/* -m 0 or -n 0, as oled */
	/*
	 * Every sample due is written, skipped or lost.  Skipped has a
	 * cause that is no fault: the disk guard, or a sample before that
	 * overran; lost is an error, in taking or in writing.
	 */
	unsigned long nr_written;
	unsigned long nr_late;		/* of those written, started late */
	unsigned long nr_skipped;	/* full + overrun */
	unsigned long nr_full;		/* skipped: file system full */
	unsigned long nr_overrun;	/* skipped: the one before overran */
	unsigned long nr_lost;		/* not taken or not written: an error */
	unsigned long nr_failed_run;	/* of those, since the last success */
	int last_failure;		/* the error of the last one */
	unsigned long long nr_reused;	/* stacks the cache saved reading */
	unsigned long long nr_tasks;	/* in the samples taken */
	unsigned long long nr_verified;	/* KSTACK_TEST_VERIFY_CACHE's counts */
	unsigned long long nr_raced;
	unsigned long long nr_mismatch;
	int write_err;			/* last write error, logged once */
	int rotate_err;			/* last rotation error, logged once */
	int sample_err;			/* last sampling error, logged once */
	bool denied_logged;
	bool unreadable_logged;
	bool journal_on;		/* log lines to the journal */
	struct ks_journal journal;
	struct ks_logfile logfile;	/* the detached sampler's log */
};

/*
 * Set by SIGTERM/SIGINT.  The handler also moves the sleep's deadline to
 * the past: a signal landing between the check of stop_signal and the
 * clock_nanosleep call would otherwise be noticed only a full interval
 * later.  The kernel reads the deadline when the call starts, so either
 * the call sees the zeroed deadline and returns at once, or it is already
 * sleeping and the signal interrupts it with EINTR.
 */
static volatile sig_atomic_t stop_signal;
static struct timespec sleep_deadline;

static void on_stop(int sig)
{
	stop_signal = sig;
	sleep_deadline.tv_sec = 0;
	sleep_deadline.tv_nsec = 0;
}

static int install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	/* no SA_RESTART: the sleep must return so the loop can stop */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL))
		return -errno;
	/* a closed log pipe must not kill the sampler */
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -errno;
	return 0;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

/* Sleeps until the absolute monotonic time due; true if asked to stop. */
static bool sleep_until(int64_t due)
{
	sleep_deadline.tv_sec = due / NS_PER_SEC;
	sleep_deadline.tv_nsec = due % NS_PER_SEC;
	/* the deadline is in memory before the flag is read */
	atomic_signal_fence(memory_order_seq_cst);
	while (!stop_signal) {
		int ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					  &sleep_deadline, NULL);

		if (!ret)
			break;
		if (ret != EINTR) {
			ks_log(KS_LOG_ERROR, "clock_nanosleep: %s", strerror(ret));
			return true;
		}
	}
	return stop_signal != 0;
}

/* A test-only knob (struct ks_test_knobs) as a number; -1 when unset. */
static int knob_long(const char *var, const char *s, long min, long max,
		     long *val)
{
	char *end;

	*val = -1;
	if (!s)
		return 0;
	errno = 0;
	*val = strtol(s, &end, 10);
	if (errno || *end || *val < min || *val > max) {
		ks_live_say("bad %s '%s'", var, s);
		return -EINVAL;
	}
	return 0;
}

static int read_limits(struct bg *bg)
{
	const struct ks_live_options *o = bg->live;
	long ms, bytes, sample_ms;

	bg->interval_ns = o->interval_ms * NS_PER_MS;
	bg->duration_ns = o->duration * NS_PER_SEC;
	bg->rot.max_bytes = (uint64_t)o->max_mb << 20;
	/* KSTACK_TEST_*: tests only, so a run takes seconds, not minutes */
	if (knob_long("KSTACK_TEST_DURATION_MS", o->knobs.duration_ms, 0,
		      86400000L, &ms) ||
	    knob_long("KSTACK_TEST_MAX_BYTES", o->knobs.max_bytes, 0, LONG_MAX,
		      &bytes) ||
	    knob_long("KSTACK_TEST_SAMPLE_MS", o->knobs.sample_ms, 0, 60000,
		      &sample_ms))
		return KS_EXIT_USAGE;
	if (sample_ms > 0)
		bg->min_sample_ns = sample_ms * NS_PER_MS;
	if (ms >= 0)
		bg->duration_ns = ms * NS_PER_MS;
	if (bytes >= 0)
		bg->rot.max_bytes = (uint64_t)bytes;
	bg->rot.max_files = o->max_files;
	/*
	 * oled's rotate_file() returns at once when either limit is 0: the
	 * log is never rotated, not even the previous run's, and no archive
	 * is pruned (max_files 0 keeps all).  The disk guard still applies.
	 */
	if (!o->max_mb || !o->max_files) {
		bg->no_rotation = true;
		bg->rot.max_files = 0;
	}
	return 0;
}

/* kstack_HOST.out, from the host name at start-up */
static void make_name(struct bg *bg)
{
	char host[KS_HOST_LEN];

	if (gethostname(host, sizeof(host)) || !*host)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	/* a host name is one path component, whatever sethostname allowed */
	for (char *p = host; *p; p++)
		if (*p == '/')
			*p = '_';
	snprintf(bg->name, sizeof(bg->name), "kstack_%s.out", host);
}

/*
 * Other users who may write DIR may plant names in it between our
 * checks; every open is safe against that (openat, O_NOFOLLOW, one
 * link), but a world-writable DIR without the sticky bit also lets them
 * rename or delete our logs, so it is refused, and any other DIR that
 * others may write gets a warning.
 */
static int check_dir_mode(struct bg *bg)
{
	struct stat sb;

	if (fstat(bg->dirfd, &sb)) {
		int ret = -errno;

		ks_log(KS_LOG_ERROR, "cannot stat %s: %s", bg->dir, strerror(-ret));
		return ret;
	}
	if ((sb.st_mode & S_IWOTH) && !(sb.st_mode & S_ISVTX)) {
		ks_log(KS_LOG_ERROR,
		       "%s is writable by every user and not sticky (mode %04o): refusing to write there",
		       bg->dir, (unsigned int)(sb.st_mode & 07777));
		return -EPERM;
	}
	if (sb.st_mode & (S_IWGRP | S_IWOTH))
		ks_log(KS_LOG_WARNING,
		       "%s is writable by other users (mode %04o): they can remove or replace its logs",
		       bg->dir, (unsigned int)(sb.st_mode & 07777));
	return 0;
}

static int open_dir(struct bg *bg)
{
	const char *path = bg->live->dir;
	bool created;

	bg->dirfd = ks_bg_open_dir(path, &created);
	if (bg->dirfd < 0) {
		if (bg->dirfd == -ELOOP || bg->dirfd == -ENOTDIR)
			ks_log(KS_LOG_ERROR, "%s is not a directory (a symbolic link is refused)",
			       path);
		else
			ks_log(KS_LOG_ERROR, "cannot open directory %s: %s", path,
			       strerror(-bg->dirfd));
		return KS_EXIT_ERROR;
	}
	if (!realpath(path, bg->dir))
		snprintf(bg->dir, sizeof(bg->dir), "%s", path);
	if (check_dir_mode(bg))
		return KS_EXIT_ERROR;
	if (created)
		ks_log(KS_LOG_DEBUG, "Created directory %s with mode 0700", bg->dir);
	bg->rot.dirfd = bg->dirfd;
	bg->rot.name = bg->name;
	return 0;
}

/*
 * A file of DIR that is not ours to write: a symbolic link, something
 * other than a regular file, or a hard link (the other name may be any
 * file on this file system, and we are root).
 */
static int refuse_file(struct bg *bg, const char *name, int err)
{
	const char *what = " but a symbolic link";

	if (err == -EINVAL)
		what = "";
	else if (err == -EMLINK)
		what = " with one link (it has several: another name may be a file outside the directory)";
	ks_log(KS_LOG_ERROR, "%s/%s is not a regular file%s: refusing to use it",
	       bg->dir, name, what);
	return KS_EXIT_ERROR;
}

static int take_lock(struct bg *bg)
{
	pid_t holder;
	int ret;

	bg->lock_fd = ks_run_lock(bg->dirfd, KS_RUN_LOCK_NAME, &holder);
	if (bg->lock_fd == -EWOULDBLOCK) {
		if (holder)
			ks_log(KS_LOG_ERROR,
			       "Another kstack (PID %d) is already writing to %s: %s/%s is locked",
			       (int)holder, bg->dir, bg->dir, KS_RUN_LOCK_NAME);
		else
			ks_log(KS_LOG_ERROR,
			       "Another kstack is already writing to %s: %s/%s is locked",
			       bg->dir, bg->dir, KS_RUN_LOCK_NAME);
		return KS_EXIT_ERROR;
	}
	if (bg->lock_fd == -EMLINK || bg->lock_fd == -EINVAL ||
	    bg->lock_fd == -ELOOP)
		return refuse_file(bg, KS_RUN_LOCK_NAME, bg->lock_fd);
	if (bg->lock_fd < 0) {
		ks_log(KS_LOG_ERROR, "cannot lock %s/%s: %s", bg->dir,
		       KS_RUN_LOCK_NAME, strerror(-bg->lock_fd));
		return KS_EXIT_ERROR;
	}
	ret = ks_run_lock_set_pid(bg->lock_fd, getpid());
	if (ret)
		ks_log(KS_LOG_WARNING, "cannot record the PID in %s/%s: %s",
		       bg->dir, KS_RUN_LOCK_NAME, strerror(-ret));
	return 0;
}

/*
 * oled kstack's machine-wide lock, shared (see run_lock.h).  Only a
 * holder is a reason to refuse: where the file cannot be made (no
 * /run/lock, not root) there is no oled kstack to coordinate with.
 */
static int take_oled_lock(struct bg *bg)
{
	const char *path = bg->live->knobs.oled_lock;

	/* tests use their own file: parallel test runs must not collide */
	if (!path)
		path = KS_OLED_LOCK_PATH;
	bg->oled_lock_fd = ks_run_lock_shared(path);
	if (bg->oled_lock_fd == -EWOULDBLOCK) {
		ks_log(KS_LOG_ERROR,
		       "oled kstack is running: %s is locked; kstack and oled kstack do not run in the background together",
		       path);
		return KS_EXIT_ERROR;
	}
	if (bg->oled_lock_fd < 0)
		ks_log(KS_LOG_WARNING, "cannot take %s: %s; not coordinated with oled kstack",
		       path, strerror(-bg->oled_lock_fd));
	return 0;
}

/* oled's start-up refusal, word for word */
static int check_space_at_start(struct bg *bg)
{
	int ret;

	ks_log(KS_LOG_DEBUG, "Checking free space on filesystem: %s", bg->dir);
	ks_disk_guard_init(&bg->guard, bg->dirfd, bg->live->max_percent);
	ret = ks_disk_guard_check(&bg->guard);
	if (ret < 0) {
		ks_log(KS_LOG_ERROR, "unable to get filesystem usage of %s: %s",
		       bg->dir, strerror(-ret));
		return KS_EXIT_ERROR;
	}
	if (!ks_disk_guard_allows(&bg->guard)) {
		ks_log(KS_LOG_ERROR,
		       "Maximum filesystem space reached. Used: %d%%, Threshold: %ld%%",
		       bg->guard.used, bg->guard.threshold);
		return KS_EXIT_ERROR;
	}
	ks_log(KS_LOG_DEBUG, "Used: %d%%, Threshold: %ld%%", bg->guard.used,
	       bg->guard.threshold);
	return 0;
}

/*
 * Hours of samples with empty stacks help nobody: find out now, by
 * reading our own stack, whether /proc/PID/stack is readable at all.
 */
static int check_permission(struct bg *bg)
{
	if (!ks_proc_stack_access(&bg->proc))
		return 0;
	ks_log(KS_LOG_ERROR, "/proc/PID/stack: %s", ks_proc_denied_reason());
	return KS_EXIT_PERM;
}

/* Leftovers of a killed run, then the previous run's log, as oled does. */
static int rotate_at_start(struct bg *bg)
{
	struct ks_rotate_result res;
	int ret;

	ret = ks_rotate_recover(&bg->rot, &res);
	if (ret)
		ks_log(KS_LOG_WARNING, "cleaning up after an interrupted run in %s: %s",
		       bg->dir, strerror(-ret));
	if (res.nr_stale || res.nr_recovered)
		ks_log(KS_LOG_INFO,
		       "Cleaned up after an interrupted run: %zu temporary file(s) removed, %zu rotation(s) finished",
		       res.nr_stale, res.nr_recovered);
	if (bg->no_rotation)
		return 0;
	ret = ks_rotate(&bg->rot, true, &res);
	if (ret == -ELOOP || ret == -EINVAL || ret == -EMLINK)
		return refuse_file(bg, bg->name, ret);
	if (ret < 0) {
		/* appending to an unrotated log could glue our samples to a
		 * torn one of the killed run */
		ks_log(KS_LOG_ERROR, "cannot rotate %s/%s: %s", bg->dir, bg->name,
		       strerror(-ret));
		return KS_EXIT_ERROR;
	}
	if (ret)
		ks_log(KS_LOG_DEBUG, "Rotated %s to %s", bg->name, res.archive);
	return 0;
}

/* What stops the start goes to the log, as an ERROR line. */
static void log_error(void *arg, enum ks_say_level level, const char *text)
{
	(void)arg;
	(void)level;
	ks_log(KS_LOG_ERROR, "%s", text);
}

static const struct ks_reporter to_log_error = { .say = log_error };

/*
 * How many /proc files the cache may keep open (proc_cache.h): two per
 * task up to KS_KEPT_TASKS_MAX tasks, within RLIMIT_NOFILE raised to its
 * hard limit, less room for the logs, the journal and the libraries.
 */
static size_t kept_files_allowed(void)
{
	const rlim_t reserve = 256, want = 2 * KS_KEPT_TASKS_MAX + reserve;
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return 0;
	if (r.rlim_cur < want && r.rlim_cur != RLIM_INFINITY) {
		rlim_t old = r.rlim_cur;

		r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max > want ?
			     want : r.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &r))
			r.rlim_cur = old;
	}
	if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur <= reserve)
		return 0;
	if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur >= want)
		return 2 * KS_KEPT_TASKS_MAX;
	return (size_t)(r.rlim_cur - reserve);
}

/*
 * The /proc side first: a tree that cannot be read, a --cgroup that names
 * nothing or stacks we may not read are refused before DIR is created.
 */
static int open_proc(struct bg *bg)
{
	const struct ks_options *opts = bg->opts;
	const struct ks_live_options *live = bg->live;
	int ret;

	ret = ks_proc_open(&bg->proc, live->proc_root, &to_log_error);
	if (ret)
		return KS_EXIT_ERROR;
	bg->proc_open = true;
	ks_proc_cache_init(&bg->cache, kept_files_allowed());
	bg->proc.cache = &bg->cache;
	bg->proc.verify = live->knobs.verify_cache != NULL;
	if (opts->sel.cgroup) {
		ret = ks_cgroup_check(bg->proc.root_fd, live->proc_root,
				      opts->sel.cgroup, &to_log_error);
		if (ret == KS_EXIT_USAGE)
			ks_say_line("try 'kstack --help'");
		if (ret)
			return ret;
	}
	return check_permission(bg);
}

/*
 * Where the log lines go once the caller's stderr is gone: the journal
 * when systemd gave us one (see bg_journal.h), else DIR/kstack.log for
 * a detached sampler.  Decided and opened here, while a failure can
 * still reach the caller.
 */
static int open_log(struct bg *bg)
{
	int ret;

	if (ks_journal_wanted()) {
		ret = ks_journal_open(&bg->journal, bg->live->knobs.journal_socket);
		if (!ret) {
			bg->journal_on = true;
			bg->journal.samples = &bg->nr_written;
			bg->journal.late = &bg->nr_late;
			bg->journal.skipped = &bg->nr_skipped;
			bg->journal.lost = &bg->nr_lost;
			return 0;
		}
		ks_log(KS_LOG_WARNING, "cannot reach the journal: %s; logging to %s",
		       strerror(-ret), bg->live->foreground ? "stderr" : KS_LOGFILE_NAME);
	}
	if (bg->live->foreground)
		return 0;
	ret = ks_logfile_init(&bg->logfile, &bg->rot, bg->no_rotation);
	if (ret == -ELOOP || ret == -EINVAL || ret == -EMLINK)
		return refuse_file(bg, KS_LOGFILE_NAME, ret);
	if (ret) {
		ks_log(KS_LOG_ERROR, "cannot rotate %s/%s: %s", bg->dir,
		       KS_LOGFILE_NAME, strerror(-ret));
		return KS_EXIT_ERROR;
	}
	return 0;
}

static struct ks_metrics_counts metrics_counts(const struct bg *bg)
{
	return (struct ks_metrics_counts){ bg->nr_written, bg->nr_skipped,
					   bg->nr_lost };
}

/*
 * --prometheus FILE: made absolute (the detached sampler runs in /) and
 * written once now, so that a file that cannot be written refuses the
 * start here rather than failing in the background.
 */
static int open_metrics(struct bg *bg)
{
	const char *path = bg->live->prometheus, *base;
	char dir[PATH_MAX];
	struct ks_metrics_counts c = { 0 };
	int ret;

	if (!path)
		return 0;
	base = strrchr(path, '/');
	if (!base)
		snprintf(dir, sizeof(dir), ".");
	else if (base == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(base - path), path);
	base = base ? base + 1 : path;
	if (!*base || !realpath(dir, bg->metrics_path) ||
	    strlen(bg->metrics_path) + strlen(base) + 2 > sizeof(bg->metrics_path)) {
		ks_log(KS_LOG_ERROR, "--prometheus %s: %s", path,
		       !*base ? "names a directory, not a file" : strerror(errno));
		return KS_EXIT_ERROR;
	}
	if (strcmp(bg->metrics_path, "/"))
		strcat(bg->metrics_path, "/");
	strcat(bg->metrics_path, base);
	ks_metrics_init(&bg->metrics, bg->metrics_path);
	ret = ks_metrics_write(&bg->metrics, NULL, &c, 0);
	if (ret) {
		ks_log(KS_LOG_ERROR, "--prometheus %s: cannot write it: %s",
		       bg->metrics_path, strerror(-ret));
		return KS_EXIT_ERROR;
	}
	bg->metrics_on = true;
	return 0;
}

static void write_metrics(struct bg *bg, const struct ks_sample *s)
{
	struct ks_metrics_counts c = metrics_counts(bg);
	int ret;

	if (!bg->metrics_on)
		return;
	ret = ks_metrics_write(&bg->metrics, s, &c, mono_ns());
	if (ret != bg->metrics_err)
		ks_log(ret ? KS_LOG_ERROR : KS_LOG_INFO,
		       ret ? "--prometheus %s: %s" : "--prometheus %s: written again%s",
		       bg->metrics_path, ret ? strerror(-ret) : "");
	bg->metrics_err = ret;
}

/*
 * A start refused once the lock was taken (rotation or the log cannot be
 * written): its file goes, while still held, so that a refusal leaves
 * nothing in DIR.
 */
static void drop_lock_file(struct bg *bg)
{
	unlinkat(bg->dirfd, KS_RUN_LOCK_NAME, 0);
	close(bg->lock_fd);
	bg->lock_fd = -1;
}

static int setup(struct bg *bg, const struct ks_options *opts,
		 const struct ks_live_options *live)
{
	int ret;

	memset(bg, 0, sizeof(*bg));
	bg->journal.fd = -1;
	bg->opts = opts;
	bg->live = live;
	bg->out = opts->out;
	bg->out.verbose = false;
	bg->dirfd = -1;
	bg->lock_fd = -1;
	bg->oled_lock_fd = -1;
	ks_log_set_verbose(opts->out.verbose);
	ret = read_limits(bg);
	if (!ret)
		ret = open_proc(bg);
	if (ret)
		return ret;
	make_name(bg);
	/* files 0600 and directories 0700 whatever umask we were given */
	umask(077);
	ret = open_dir(bg);
	/* before the lock: a run refused for space leaves no lock file */
	if (!ret)
		ret = check_space_at_start(bg);
	if (!ret)
		ret = open_metrics(bg);
	/* oled's lock before ours: a run refused for it leaves no lock file */
	if (!ret)
		ret = take_oled_lock(bg);
	if (!ret)
		ret = take_lock(bg);
	if (!ret)
		ret = rotate_at_start(bg);
	if (!ret)
		ret = open_log(bg);
	if (ret && bg->lock_fd >= 0)
		drop_lock_file(bg);
	if (ret)
		return ret;
	ret = install_signals();
	if (ret) {
		ks_log(KS_LOG_ERROR, "sigaction: %s", strerror(-ret));
		return KS_EXIT_ERROR;
	}
	return 0;
}

static void teardown(struct bg *bg)
{
	ks_metrics_release(&bg->metrics);
	ks_log_set_sink(NULL, NULL);
	if (bg->journal_on)
		ks_journal_close(&bg->journal);
	if (bg->proc_open) {
		ks_proc_close(&bg->proc);
		ks_proc_cache_free(&bg->cache);
	}
	/* closing the lock's last fd releases it */
	if (bg->lock_fd >= 0)
		close(bg->lock_fd);
	if (bg->oled_lock_fd >= 0)
		close(bg->oled_lock_fd);
	if (bg->dirfd >= 0)
		close(bg->dirfd);
}

/* Logs a change of an error state once: a new error, or its end. */
static void note_error(int *last, int err, const char *what, struct bg *bg)
{
	if (err == *last)
		return;
	if (err)
		ks_log(KS_LOG_ERROR, "%s %s/%s: %s", what, bg->dir, bg->name,
		       strerror(-err));
	else
		ks_log(KS_LOG_INFO, "%s %s/%s succeeded again", what, bg->dir,
		       bg->name);
	*last = err;
}

/* false: the file system is full, do not write */
static bool guard_allows(struct bg *bg)
{
	int ev = ks_disk_guard_check(&bg->guard);

	if (ev == KS_GUARD_BECAME_FULL)
		ks_log(KS_LOG_WARNING,
		       "Maximum filesystem space reached. Used: %d%%, Threshold: %ld%%; writing paused",
		       bg->guard.used, bg->guard.threshold);
	else if (ev == KS_GUARD_RESUMED)
		ks_log(KS_LOG_INFO,
		       "Filesystem space below the threshold again. Used: %d%%, Threshold: %ld%%; writing resumed",
		       bg->guard.used, bg->guard.threshold);
	else if (ev < 0)
		ks_log(KS_LOG_DEBUG, "statvfs %s: %s", bg->dir, strerror(-ev));
	return ks_disk_guard_allows(&bg->guard);
}

/* The whole sample as one buffer, so it can go out in one write(). */
static int format_sample(struct bg *bg, const struct ks_sample *s,
			 char **buf, size_t *len)
{
	FILE *m = open_memstream(buf, len);
	int ret;

	if (!m)
		return -errno;
	ret = ks_format_sample(m, s, &bg->out);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* A sample's verdict is a debug line here: an empty one is no trouble. */
static void log_debug(void *arg, enum ks_say_level level, const char *text)
{
	(void)arg;
	(void)level;
	ks_log(KS_LOG_DEBUG, "%s", text);
}

static const struct ks_reporter to_log_debug = { .say = log_debug };

/*
 * What went wrong while reading tasks, once per run: a task whose stack
 * is denied although ours was readable (check_permission) is a per-task
 * restriction, not a reason to stop hours of sampling.
 */
static void check_sample(struct bg *bg, const struct ks_sample *s,
			 const struct ks_proc_status *st)
{
	if (st->nr_denied && !bg->denied_logged) {
		ks_log(KS_LOG_WARNING,
		       "/proc/%d/stack not permitted%s: %zu of %zu task(s) written with empty stacks (reported once)",
		       (int)st->first_denied,
		       st->nr_denied == 1 ? "" : " (the first)",
		       st->nr_denied, s->nr_tasks);
		bg->denied_logged = true;
	}
	if (st->nr_unreadable && !bg->unreadable_logged) {
		ks_log(KS_LOG_WARNING, "%zu read error(s), first: %s (reported once)",
		       st->nr_unreadable, st->first_error);
		bg->unreadable_logged = true;
	}
	ks_report_no_match(s, 0, &to_log_debug);
	bg->nr_tasks += s->nr_tasks;
	bg->nr_reused += st->nr_reused;
	bg->nr_verified += st->nr_verified;
	bg->nr_raced += st->nr_raced;
	bg->nr_mismatch += st->nr_mismatch;
	if (st->nr_mismatch)
		ks_log(KS_LOG_ERROR,
		       "cache check: %zu task(s) differ from a full read although they did not change, first: %s",
		       st->nr_mismatch, st->first_mismatch);
}

static void rotate_if_needed(struct bg *bg)
{
	struct ks_rotate_result res;
	int ret;

	if (bg->no_rotation)
		return;
	ret = ks_rotate(&bg->rot, false, &res);
	if (ret == 1)
		ks_log(KS_LOG_DEBUG, "Rotated %s to %s (%zu old archive(s) removed)",
		       bg->name, res.archive, res.nr_pruned);
	note_error(&bg->rotate_err, ret < 0 ? ret : 0, "rotating", bg);
}

/*
 * A sample that could not be taken or written: each one is counted (and
 * named with -v), the error itself is logged when it changes, and the
 * end of the run says how many were lost.
 */
static void sample_lost(struct bg *bg, uint64_t k, int err)
{
	bg->nr_lost++;
	bg->nr_failed_run++;
	bg->last_failure = err;
	ks_log(KS_LOG_DEBUG, "Sample %llu not written: %s",
	       (unsigned long long)k, strerror(-err));
}

/*
 * Late: started more than a tenth of the interval after its time, so
 * the moment it shows is off by that much.  It is written all the same.
 */
static bool is_late(const struct bg *bg, int64_t at_ms, int64_t due_ms)
{
	return (at_ms - due_ms) * 10 * NS_PER_MS > bg->interval_ns;
}

static void sample_written(struct bg *bg, uint64_t k, int64_t at_ms,
			   int64_t due_ms, const struct ks_sample *s, size_t len)
{
	if (bg->nr_failed_run)
		ks_log(KS_LOG_INFO, "Writing samples again after %lu sample(s) not written",
		       bg->nr_failed_run);
	bg->nr_failed_run = 0;
	/* --folded has no header: a sample of no task writes nothing */
	if (len)
		bg->nr_written++;
	if (len && is_late(bg, at_ms, due_ms))
		bg->nr_late++;
	ks_log(KS_LOG_DEBUG,
	       "Sample %llu at +%lld ms (due +%lld ms)%s: %zu task(s), %zu bytes",
	       (unsigned long long)k, (long long)at_ms, (long long)due_ms,
	       is_late(bg, at_ms, due_ms) ? " late" : "", s->nr_tasks, len);
}

/* One scheduled sample: guard, take, rotate, append. */
/*
 * KSTACK_TEST_SAMPLE_MS: how long a sample takes depends on the machine,
 * so the test of overrun (skipped deadlines) makes each one last at
 * least that long instead of hoping the machine is slow enough.
 */
static void stretch_sample(const struct bg *bg, int64_t start_ns)
{
	int64_t end = start_ns + bg->min_sample_ns;
	struct timespec ts = { end / NS_PER_SEC, end % NS_PER_SEC };

	if (!bg->min_sample_ns)
		return;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void one_sample(struct bg *bg, uint64_t k, int64_t due_ms, int64_t t0)
{
	int64_t start = mono_ns();
	int64_t at_ms = (start - t0) / NS_PER_MS;
	struct ks_sample s = { 0 };
	struct ks_proc_status st;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (!guard_allows(bg)) {
		bg->nr_skipped++;
		bg->nr_full++;
		ks_log(KS_LOG_DEBUG, "Sample %llu skipped: filesystem full",
		       (unsigned long long)k);
		return;
	}
	ret = ks_live_take(&bg->proc, bg->opts, &s, &st);
	stretch_sample(bg, start);
	if (ret != bg->sample_err && ret)
		ks_log(KS_LOG_ERROR, "sample failed: %s", strerror(-ret));
	bg->sample_err = ret;
	if (ret)
		goto out;
	check_sample(bg, &s, &st);
	ks_log(KS_LOG_DEBUG, "Sample %llu taken in %lld ms, %zu of %zu stack(s) from the last sample",
	       (unsigned long long)k,
	       (long long)((mono_ns() - t0) / NS_PER_MS - at_ms), st.nr_reused,
	       s.nr_tasks);
	ret = format_sample(bg, &s, &buf, &len);
	if (!ret && len) {
		rotate_if_needed(bg);
		ret = ks_bg_append(bg->dirfd, bg->name, buf, len);
	}
	note_error(&bg->write_err, ret, "writing", bg);
out:
	if (ret)
		sample_lost(bg, k, ret);
	else
		sample_written(bg, k, at_ms, due_ms, &s, len);
	/* a sample taken (written or not): its tasks and the counts */
	if (!bg->sample_err)
		write_metrics(bg, &s);
	free(buf);
	ks_sample_release(&s);
}

/* oled's first two lines, to the caller before detaching */
static void log_plan(struct bg *bg)
{
	time_t end = time(NULL) + (time_t)(bg->duration_ns / NS_PER_SEC);
	char when[64];
	struct tm tm;

	if (!localtime_r(&end, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(when, sizeof(when), "?");
	ks_log(KS_LOG_INFO, "This script will run up to: %s", when);
	ks_log(KS_LOG_INFO, "The requested data will be written to the directory: %s",
	       bg->dir);
}

static void log_start(struct bg *bg)
{
	struct utsname u;

	if (!uname(&u))
		ks_log(KS_LOG_DEBUG, "kstack %s on kernel %s", KS_VERSION, u.release);
	if (bg->no_rotation)
		ks_log(KS_LOG_DEBUG,
		       "File %s, a sample every %lld ms, never rotated (-m 0 or -n 0), threshold %ld%%",
		       bg->name, (long long)(bg->interval_ns / NS_PER_MS),
		       bg->guard.threshold);
	else
		ks_log(KS_LOG_DEBUG,
		       "File %s, a sample every %lld ms, rotated above %llu bytes, %ld archive(s) kept, threshold %ld%%",
		       bg->name, (long long)(bg->interval_ns / NS_PER_MS),
		       (unsigned long long)bg->rot.max_bytes, bg->rot.max_files,
		       bg->guard.threshold);
}

/* KSTACK_TEST_VERIFY_CACHE's verdict, for the tests to read */
static void log_cache(struct bg *bg)
{
	ks_log(KS_LOG_DEBUG, "%llu of %llu stack(s) taken from the sample before",
	       bg->nr_reused, bg->nr_tasks);
	if (!bg->proc.verify)
		return;
	ks_log(bg->nr_mismatch ? KS_LOG_ERROR : KS_LOG_INFO,
	       "cache check: %llu task(s) read again in full: %llu differ although they did not change, %llu changed while read; %llu stack(s) from the sample before",
	       bg->nr_verified, bg->nr_mismatch, bg->nr_raced, bg->nr_reused);
}

/* How the run went: every sample due is written, skipped or lost. */
static void log_end(struct bg *bg)
{
	unsigned long lost = bg->nr_lost;

	if (stop_signal)
		ks_log(KS_LOG_INFO, "Received %s: stopping after %lu sample(s) written, %lu lost",
		       stop_signal == SIGTERM ? "SIGTERM" : "SIGINT",
		       bg->nr_written, lost);
	else
		ks_log(KS_LOG_INFO, "Finished: %lu sample(s) written, %lu lost",
		       bg->nr_written, lost);
	if (bg->nr_late)
		ks_log(KS_LOG_INFO, "%lu sample(s) written late: started more than a tenth of the interval after their time",
		       bg->nr_late);
	if (bg->nr_full)
		ks_log(KS_LOG_INFO, "%lu sample(s) skipped: filesystem full",
		       bg->nr_full);
	if (bg->nr_overrun)
		ks_log(KS_LOG_INFO, "%lu sample(s) skipped: sampling took longer than the interval",
		       bg->nr_overrun);
	if (bg->nr_lost)
		ks_log(KS_LOG_WARNING, "%lu sample(s) lost: not taken or not written because of errors, the last: %s",
		       bg->nr_lost, strerror(-bg->last_failure));
	/* counted up to here: a journal still full drops this line too */
	if (bg->journal_on && bg->journal.nr_dropped)
		ks_log(KS_LOG_WARNING, "%lu log line(s) dropped in all: the journal did not take them, the last: %s",
		       bg->journal.nr_dropped, strerror(-bg->journal.last_err));
	log_cache(bg);
}

/*
 * Index of the next sample after k.  Normally k + 1; after a sample that
 * overran whole intervals, the latest deadline already past, so the
 * schedule catches up with one late sample instead of a burst.
 */
static uint64_t next_index(struct bg *bg, uint64_t k, int64_t t0,
			   int64_t started)
{
	int64_t now = mono_ns();
	uint64_t latest = (uint64_t)((now - t0) / bg->interval_ns);
	uint64_t last = (uint64_t)(bg->duration_ns / bg->interval_ns);
	int64_t due = t0 + (int64_t)k * bg->interval_ns;
	uint64_t skipped;

	if (latest <= k + 1)
		return k + 1;
	/* deadlines past the end of the run were never due */
	skipped = (latest <= last + 1 ? latest : last + 1) - k - 1;
	/* which of the two it was tells a slow /proc from a busy machine */
	ks_log(KS_LOG_WARNING,
	       "Sampling took longer than the interval: sample %llu started %lld ms after its time and took %lld ms; %llu sample(s) skipped",
	       (unsigned long long)k, (long long)((started - due) / NS_PER_MS),
	       (long long)((now - started) / NS_PER_MS),
	       (unsigned long long)skipped);
	bg->nr_overrun += skipped;
	bg->nr_skipped += skipped;
	return latest;
}

/*
 * Sample k is due at t0 + k * interval (absolute, CLOCK_MONOTONIC: no
 * drift, immune to clock changes); the run ends with the last deadline
 * at or before t0 + duration.  oled's 15 s of slack existed to let its
 * drifting loop take that last sample; a fixed schedule does not need it.
 */
static void sample_loop(struct bg *bg)
{
	int64_t t0 = mono_ns(), started;
	uint64_t k = 0;

	/* after the fork: our own stack is never taken from the cache */
	bg->proc.self = (int32_t)getpid();
	/* the sampler is not what the samples are for (#40: it showed as
	 * the most stuck task in kstack report) */
	bg->proc.leave_out = ks_proc_our_pid(&bg->proc);
	log_start(bg);
	for (;;) {
		int64_t due = t0 + (int64_t)k * bg->interval_ns;

		if (due - t0 > bg->duration_ns || sleep_until(due))
			break;
		started = mono_ns();
		one_sample(bg, k, (due - t0) / NS_PER_MS, t0);
		if (stop_signal)
			break;
		k = next_index(bg, k, t0, started);
	}
	ks_bg_sync(bg->dirfd, bg->name);
	log_end(bg);
}

/*
 * The detached sampler's first line, at once: kstack.log exists from the
 * detach, as the README says, not from the first thing to go wrong.
 */
static void log_detached(const struct bg *bg)
{
	if (bg->journal_on)
		return;
	ks_log(KS_LOG_INFO, "Sampler %d started: writing to %s/%s",
	       (int)getpid(), bg->dir, bg->name);
}

int ks_background_run(const struct ks_options *opts,
		      const struct ks_live_options *live)
{
	ks_log_sink_fn sink = NULL;
	bool is_daemon = false;
	struct bg bg;
	int status;

	status = setup(&bg, opts, live);
	if (status)
		goto out;
	if (bg.journal_on)
		ks_log_set_sink(ks_journal_sink, &bg.journal);
	log_plan(&bg);
	if (!live->foreground) {
		/* the sampler's stderr becomes /dev/null: under systemd it
		 * logs to the journal as a --foreground run does */
		sink = bg.journal_on ? ks_journal_sink : ks_logfile_sink;
		status = ks_bg_daemonize(bg.lock_fd, &is_daemon, sink,
					 bg.journal_on ? (void *)&bg.journal :
					 (void *)&bg.logfile);
		if (!is_daemon)
			goto out;
		log_detached(&bg);
	}
	sample_loop(&bg);
	status = KS_EXIT_OK;
out:
	teardown(&bg);
	return status;
}

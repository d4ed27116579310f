// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack --snoop FUNC: who calls FUNC, with what kernel stack, as it
 * happens (bcc's stacksnoop and stackcount, without BPF).  A kprobe event
 * with a stack trace in a tracing instance of our own (snoop_probe.c),
 * its trace_pipe read and parsed (snoop_trace.c), each call printed or
 * counted (snoop_format.c).
 *
 * Signals only set a flag: the loop sees it within a poll() timeout and
 * takes everything down in order.  SIGPIPE is ignored so that a closed
 * pipe ends the loop as a write error instead of killing us with the
 * probe still in place.  SIGKILL leaves the probe and the instance; the
 * next run removes them (ks_snoop_clean_stale()).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live_say.h"
#include "decode_text.h"
#include "lines.h"
#include "lines_host.h"
#include "exit_status.h"
#include "report.h"
#include "snoop.h"
#include "snoop_format.h"
#include "snoop_probe.h"
#include "snoop_trace.h"
#include "tracefs.h"

#define POLL_MS		200
#define READ_SIZE	65536

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* No SA_RESTART: a blocked write to a full pipe returns, too. */
static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct run {
	const struct ks_options *opts;
	const struct ks_live_options *live;
	struct ks_snoop_parser parser;
	struct ks_snoop_out out;
	struct ks_lines *lines;
	int err;			/* the first output error */
	int raw_fd;			/* KSTACK_SNOOP_RAW: trace_pipe as read */
	char *carry;			/* a line not ended yet */
	size_t carry_len;
};

/* Tracing saves comms in a small table; the task may still be there. */
static void fill_comm(struct ks_snoop_rec *r)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)r->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, r->comm, sizeof(r->comm) - 1);
	close(fd);
	if (n <= 0) {
		snprintf(r->comm, sizeof(r->comm), "<...>");
		return;
	}
	r->comm[n] = '\0';
	r->comm[strcspn(r->comm, "\n")] = '\0';
}

static void on_call(void *arg, struct ks_snoop_rec *r)
{
	struct run *run = arg;
	char *text;
	int ret;

	if (!strcmp(r->comm, "<...>"))
		fill_comm(r);
	if (run->lines && *r->stack) {
		text = ks_decode_text(run->lines, r->stack);
		if (text) {
			free(r->stack);
			r->stack = text;
		}
	}
	ret = ks_snoop_out_rec(&run->out, r);
	if (ret && !run->err)
		run->err = ret;
}

/* The complete lines of buf after what was carried; the rest is kept. */
static int feed(struct run *run, const char *buf, size_t len)
{
	char *all = realloc(run->carry, run->carry_len + len + 1), *line, *nl;
	int ret = 0;

	if (!all)
		return -ENOMEM;
	memcpy(all + run->carry_len, buf, len);
	all[run->carry_len + len] = '\0';
	run->carry = all;
	line = all;
	while (!ret && (nl = memchr(line, '\n', all + run->carry_len + len - line))) {
		*nl = '\0';
		ret = ks_snoop_parse_line(&run->parser, line);
		line = nl + 1;
	}
	run->carry_len = (size_t)(all + run->carry_len + len - line);
	memmove(all, line, run->carry_len);
	/* the kernel ends a read at an entry's end: a stack read is whole */
	if (!run->carry_len)
		ks_snoop_parse_flush(&run->parser);
	return ret;
}

/* Everything trace_pipe has now; 0 or -errno. */
static int drain(struct run *run, int fd)
{
	static char buf[READ_SIZE];
	ssize_t n;
	int ret;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -errno;
		if (n == 0)
			return 0;
		if (run->raw_fd >= 0 && write(run->raw_fd, buf, (size_t)n) != n)
			run->raw_fd = -1;
		ret = feed(run, buf, (size_t)n);
		if (ret)
			return ret;
	}
}

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads until -t runs out, a signal comes or output fails. */
static int trace_loop(struct run *run, int fd, double seconds)
{
	double end = now_s(CLOCK_MONOTONIC) + seconds, left;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret = 0, ms;

	while (!stop_signal && !ret && !run->err) {
		left = end - now_s(CLOCK_MONOTONIC);
		if (seconds > 0 && left <= 0)
			break;
		ms = seconds > 0 && left * 1000 < POLL_MS ? (int)(left * 1000) + 1 :
			POLL_MS;
		if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
			return -errno;
		ret = drain(run, fd);
		if (fflush(run->out.out) && !run->err)
			run->err = -errno;
	}
	return ret;
}

/* wall clock minus the trace clock the instance stamps calls with */
static int64_t wall_offset(void)
{
	struct timespec real, boot;

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	return ((int64_t)real.tv_sec - boot.tv_sec) * 1000000000 +
	       (real.tv_nsec - boot.tv_nsec);
}

/*
 * FUNC goes into a kprobe_events line: a name, MODULE:NAME or NAME+OFFSET,
 * and nothing that could add fetch arguments or a second command.
 */
static bool probe_target(const char *func)
{
	if (!*func)
		return false;
	for (; *func; func++)
		if (!isalnum((unsigned char)*func) && !strchr("_.:+", *func))
			return false;
	return true;
}

/* -p PIDs must be there to be traced; 0, or the status when none is. */
static int check_pids(const struct ks_options *opts)
{
	size_t i, missing = 0;
	char path[64];

	for (i = 0; i < opts->sel.nr_pids; i++) {
		snprintf(path, sizeof(path), "/proc/%d", (int)opts->sel.pids[i]);
		if (access(path, F_OK)) {
			ks_live_say("PID %d does not exist",
				    (int)opts->sel.pids[i]);
			missing++;
		}
	}
	return opts->sel.nr_pids && missing == opts->sel.nr_pids ? KS_EXIT_NONE : 0;
}

static int can_trace(struct ks_tracefs *fs, const struct ks_test_knobs *knobs)
{
	if (geteuid()) {
		ks_live_say("--snoop needs root (tracefs and kprobes)");
		return KS_EXIT_PERM;
	}
	ks_tracefs_open_rw(fs, knobs);
	if (!fs->tracefs[0]) {
		ks_live_say("--snoop needs tracefs: %s",
			    fs->why_tracefs);
		/* refused is a permission; a kernel without tracefs lacks it */
		return fs->err_tracefs == -EPERM || fs->err_tracefs == -EACCES ?
		       KS_EXIT_PERM : KS_EXIT_ERROR;
	}
	return 0;
}

static void run_init(struct run *run, const struct ks_options *opts,
		     const struct ks_live_options *live, const char *event)
{
	const char *raw = live->knobs.snoop_raw;
	struct ks_lines_config cfg;
	char release[256];

	memset(run, 0, sizeof(*run));
	run->opts = opts;
	run->live = live;
	/* what the kernel traced is no one else's to read: 0600 */
	run->raw_fd = raw ? open(raw, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				 0600) : -1;
	ks_snoop_parser_init(&run->parser, event, on_call, run);
	ks_snoop_out_init(&run->out, stdout, opts->out.format, live->snoop,
			  wall_offset());
	if (opts->lines) {
		ks_lines_host_config(&cfg, opts->vmlinux, true, release,
				     sizeof(release));
		run->lines = ks_lines_open(&cfg);
	}
}

static void run_release(struct run *run)
{
	ks_snoop_parser_release(&run->parser);
	ks_snoop_out_release(&run->out);
	if (run->lines) {
		ks_lines_report(run->lines, &ks_live_reporter);
		ks_lines_close(run->lines);
	}
	if (run->raw_fd >= 0)
		close(run->raw_fd);
	free(run->carry);
}

/* What the run saw, on stderr, and the exit status it earns. */
static int finish(struct run *run, int ret, double seconds)
{
	const struct ks_snoop_parser *p = &run->parser;

	if (!run->err)
		run->err = ks_snoop_out_end(&run->out, seconds);
	if (!run->err && fflush(stdout))
		run->err = -errno;
	if (p->lost)
		ks_live_say("the trace buffer dropped %llu event%s: "
			    "calls came faster than they were read",
			    (unsigned long long)p->lost, ks_plural(p->lost));
	if (p->unparsed)
		ks_live_say("%llu trace_pipe line%s not understood",
			    (unsigned long long)p->unparsed,
			    ks_plural(p->unparsed));
	if (ret) {
		ks_live_say("reading trace_pipe: %s", strerror(-ret));
		return KS_EXIT_ERROR;
	}
	if (run->err) {
		ks_live_say("writing stdout: %s", strerror(-run->err));
		return KS_EXIT_ERROR;
	}
	if (!run->out.calls) {
		ks_live_say("no call of %s in %.1f s",
			    run->live->snoop, seconds);
		return KS_EXIT_NONE;
	}
	return KS_EXIT_OK;
}

int ks_snoop_run(const struct ks_options *opts,
		 const struct ks_live_options *live)
{
	double seconds = live->t_given ? (double)live->duration : 0, start;
	struct ks_snoop_probe probe;
	struct ks_tracefs fs;
	struct run run;
	int status, ret;

	if (!probe_target(live->snoop)) {
		ks_live_say("--snoop wants a function (NAME, MODULE:NAME "
			    "or NAME+OFFSET), not '%s'", live->snoop);
		return KS_EXIT_USAGE;
	}
	status = check_pids(opts);
	if (!status)
		status = can_trace(&fs, &live->knobs);
	if (status)
		return status;
	catch_signals();
	ks_snoop_clean_stale(fs.tracefs, ks_snoop_alive, &ks_live_reporter);
	status = ks_snoop_probe_open(&probe, &fs, live->snoop, opts->sel.pids,
				     opts->sel.nr_pids, &ks_live_reporter);
	if (status)
		return status;
	if (seconds > 0)
		ks_live_say("tracing %s (kprobe %s/%s, instance %s) for %.0f s",
			    live->snoop, KS_SNOOP_GROUP, probe.event,
			    strrchr(probe.instance, '/') + 1, seconds);
	else
		ks_live_say("tracing %s (kprobe %s/%s, instance %s) until "
			    "interrupted", live->snoop, KS_SNOOP_GROUP,
			    probe.event, strrchr(probe.instance, '/') + 1);
	run_init(&run, opts, live, probe.event);
	start = now_s(CLOCK_MONOTONIC);
	ret = trace_loop(&run, probe.pipe_fd, seconds);
	/* calls already in the buffer still count: stop, then read them */
	ks_snoop_probe_stop(&probe);
	if (!ret)
		ret = drain(&run, probe.pipe_fd);
	ks_snoop_parse_end(&run.parser);
	ks_snoop_probe_close(&probe, &ks_live_reporter);
	status = finish(&run, ret, now_s(CLOCK_MONOTONIC) - start);
	run_release(&run);
	return status;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmcore-helper: the small static program that vmcore guests run.
 *
 * The guest is a busybox initramfs without a compiler, and busybox cannot make
 * some of the task states the vmcore tests need (a vfork parent, a ptrace-stopped
 * child, thousands of threads) nor copy 40,000 /proc files quickly under TCG,
 * where every fork+exec of a shell tool costs milliseconds. So those jobs live here,
 * built with `gcc -static` on the host by vmcores/make-vmcore.
 *
 *   vmcore-helper hold [-n COMM] [-z] [ARG...]   sleep forever (argv = cmdline)
 *   vmcore-helper threads [-n COMM] [-t TNAME] [-s] N   N threads, all blocked
 *                                                (-s: in nanosleep, else pause)
 *   vmcore-helper vfork                          parent waits in vfork (D)
 *   vmcore-helper traced                         child stopped under ptrace (t)
 *   vmcore-helper capture DIR [KSTACK]           the live capture, then pause the VM
 *                                                (VMCORE_NO_PROC=1: no proc/ copy)
 *   vmcore-helper pause-vm                       pause the VM through pvpanic
 *
 * Every "forever" is pause() so the process holds one well-known stack.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* QEMU's ISA pvpanic device; writing PVPANIC_PANICKED pauses a VM run with
 * -action panic=pause, with no host round trip between capture and pause. */
#define PVPANIC_PORT 0x505
#define PVPANIC_PANICKED 1

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("vmcore-helper: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void forever(void)
{
	for (;;)
		pause();
}

static void set_comm(const char *comm)
{
	if (comm && prctl(PR_SET_NAME, comm, 0, 0, 0) != 0)
		die("PR_SET_NAME %s: %s", comm, strerror(errno));
}

/* hold: a sleeper whose comm and command line the scenario chooses; -z also
 * leaves one zombie child that this process never reaps. */
static int cmd_hold(int argc, char **argv)
{
	const char *comm = NULL;
	int zombie = 0, opt;

	while ((opt = getopt(argc, argv, "+n:z")) != -1) {
		if (opt == 'n')
			comm = optarg;
		else if (opt == 'z')
			zombie = 1;
		else
			die("hold: bad option");
	}
	set_comm(comm);
	if (zombie) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			set_comm("zombie-child");
			_exit(0);
		}
	}
	forever();
	return 0;
}

static char *thread_name;
static int thread_nanosleep;

static void *blocked_thread(void *arg)
{
	(void)arg;
	if (thread_name)
		prctl(PR_SET_NAME, thread_name, 0, 0, 0);
	/* -s: a second stack shape (hrtimer_nanosleep) for grouping to tell apart. */
	while (thread_nanosleep) {
		struct timespec ts = { .tv_sec = 1000000 };

		nanosleep(&ts, NULL);
	}
	forever();
	return NULL;
}

/* threads: many threads, each asleep in pause(); small stacks so that 10,000 of
 * them fit in a modest guest. */
static int cmd_threads(int argc, char **argv)
{
	const char *comm = NULL;
	pthread_attr_t attr;
	long i, n;
	int opt;

	while ((opt = getopt(argc, argv, "+n:st:")) != -1) {
		if (opt == 'n')
			comm = optarg;
		else if (opt == 's')
			thread_nanosleep = 1;
		else if (opt == 't')
			thread_name = optarg;
		else
			die("threads: bad option");
	}
	if (optind >= argc)
		die("threads: need a count");
	n = strtol(argv[optind], NULL, 10);
	set_comm(comm);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		pthread_t t;
		int err = pthread_create(&t, &attr, blocked_thread, NULL);

		if (err)
			die("thread %ld of %ld: %s", i, n, strerror(err));
	}
	forever();
	return 0;
}

/* vfork: the parent sleeps in wait_for_vfork_done (TASK_KILLABLE, shown as D)
 * for as long as the child neither execs nor exits. The child may only call
 * async-signal-safe functions, so it pauses. */
static int cmd_vfork(void)
{
	pid_t pid;

	set_comm("vfork-parent");
	pid = vfork();
	if (pid < 0)
		die("vfork: %s", strerror(errno));
	if (pid == 0) {
		for (;;)
			pause();
	}
	forever();
	return 0;
}

/* traced: the child stops itself under PTRACE_TRACEME, which leaves it in
 * TASK_TRACED ('t') once the parent has seen the stop. */
static int cmd_traced(void)
{
	int status;
	pid_t pid;

	set_comm("tracer");
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		set_comm("tracee");
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(1);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &status, WUNTRACED) < 0)
		die("waitpid: %s", strerror(errno));
	forever();
	return 0;
}

static int pause_vm(void)
{
	if (ioperm(PVPANIC_PORT, 1, 1) != 0)
		return -1;
	outb(PVPANIC_PANICKED, PVPANIC_PORT);
	return 0;
}

/* Copy one /proc file byte for byte; a task that exits midway leaves what was read. */
static void copy_file(const char *src, const char *dst)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	in = open(src, O_RDONLY);
	if (in < 0)
		return;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	close(in);
	close(out);
}

static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The raw copy of every task's stat, status, cmdline and stack. Tasks whose stat
 * says R are listed in running.txt: their stacks are empty or moving, so a test
 * comparing the dump with the capture must not expect them to match.
 */
static long copy_proc(const char *dir, FILE *running)
{
	static const char *const files[] = { "stat", "status", "cmdline", "stack" };
	char path[1024], dst[1024], stat[1024];
	struct dirent *p, *t;
	DIR *proc, *task;
	long count = 0;
	size_t i;

	proc = opendir("/proc");
	if (!proc)
		die("opendir /proc: %s", strerror(errno));
	while ((p = readdir(proc))) {
		if (!is_number(p->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task))) {
			if (!is_number(t->d_name))
				continue;
			snprintf(dst, sizeof(dst), "%s/proc/%s", dir, t->d_name);
			if (mkdir(dst, 0755) != 0 && errno != EEXIST)
				die("mkdir %s: %s", dst, strerror(errno));
			for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
				snprintf(path, sizeof(path), "/proc/%s/task/%s/%s",
					 p->d_name, t->d_name, files[i]);
				snprintf(dst, sizeof(dst), "%s/proc/%s/%s", dir,
					 t->d_name, files[i]);
				copy_file(path, dst);
			}
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat",
				 p->d_name, t->d_name);
			if (read_small(path, stat, sizeof(stat)) == 0) {
				/* comm may hold spaces and ')': the state follows the last ')'. */
				char *rp = strrchr(stat, ')');

				if (rp && rp[1] == ' ' && rp[2] == 'R') {
					char *lp = strchr(stat, '(');
					int len = lp ? (int)(rp - lp - 1) : 0;

					fprintf(running, "%s %s %.*s\n", t->d_name, p->d_name,
						len, lp ? lp + 1 : "");
				}
			}
			count++;
		}
		closedir(task);
	}
	closedir(proc);
	return count;
}

/* Run kstack with stdout into a file; returns the exit status (or -1) and the pid. */
static int run_kstack(const char *kstack, const char *out, const char *opt1,
		      const char *opt2, pid_t *pid_ret)
{
	char err[512];
	int status;
	pid_t pid;

	snprintf(err, sizeof(err), "%s.err", out);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || fe < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(fe, 2);
		setenv("TZ", "UTC", 1);
		execl(kstack, "kstack", opt1, opt2, (char *)NULL);
		_exit(127);
	}
	*pid_ret = pid;
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status)) {
		/* An empty .err file is noise; keep it only when kstack complained. */
		struct stat st;

		if (stat(err, &st) == 0 && st.st_size == 0)
			unlink(err);
		return WEXITSTATUS(status);
	}
	return 128 + WTERMSIG(status);
}

/* An optional view that failed leaves no file behind (its status is in capture.txt). */
static void drop_output(const char *out)
{
	char err[512];

	snprintf(err, sizeof(err), "%s.err", out);
	unlink(out);
	unlink(err);
}

/* What one capture did, for capture.txt. */
struct capture {
	const char *kstack;
	int have_kstack;
	pid_t kpid, kpid_j, kpid_k, kpid_f, kpid_kv, kpid_fv;
	int rc_a, rc_j, rc_k, rc_f;
	long count;			/* tasks copied into proc/, -1: none */
	char btime[64];
	double t0, t1, t2;
};

/* The hook files as the kernel prints them, then kstack's views of them. */
static void capture_hooks(const char *dir, struct capture *c)
{
	static const char *const files[] = {
		"/sys/kernel/debug/kprobes/list", "kprobes-list.txt",
		"/sys/kernel/tracing/enabled_functions", "enabled_functions.txt",
		/* the trace events that made kprobes, for -K's "trace event" */
		"/sys/kernel/tracing/kprobe_events", "kprobe_events.txt",
		/* 6.4+: every function ftrace ever patched since boot */
		"/sys/kernel/tracing/touched_functions", "touched_functions.txt",
	};
	char dst[512];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i += 2) {
		snprintf(dst, sizeof(dst), "%s/%s", dir, files[i + 1]);
		if (access(files[i], R_OK) == 0)
			copy_file(files[i], dst);
	}
	if (!c->have_kstack)
		return;
	/* -K/-F come with the hooks feature; a failure only loses their files. */
	snprintf(dst, sizeof(dst), "%s/kstack-K.txt", dir);
	c->rc_k = run_kstack(c->kstack, dst, "-K", NULL, &c->kpid_k);
	if (c->rc_k != 0)
		drop_output(dst);
	snprintf(dst, sizeof(dst), "%s/kstack-F.txt", dir);
	c->rc_f = run_kstack(c->kstack, dst, "-F", NULL, &c->kpid_f);
	if (c->rc_f != 0)
		drop_output(dst);
	/* -v reads the hooks from kernel memory (/proc/kcore) */
	snprintf(dst, sizeof(dst), "%s/kstack-Kv.txt", dir);
	if (run_kstack(c->kstack, dst, "-K", "-v", &c->kpid_kv) != 0)
		drop_output(dst);
	snprintf(dst, sizeof(dst), "%s/kstack-Fv.txt", dir);
	if (run_kstack(c->kstack, dst, "-F", "-v", &c->kpid_fv) != 0)
		drop_output(dst);
}

static void read_btime(char *btime, size_t len)
{
	/* /proc/stat's intr line alone runs to kilobytes before btime. */
	static char procstat[1 << 16];
	char fmt[32], *b;

	if (read_small("/proc/stat", procstat, sizeof(procstat)) != 0)
		return;
	b = strstr(procstat, "btime ");
	snprintf(fmt, sizeof(fmt), "btime %%%zus", len - 1);
	if (b)
		sscanf(b, fmt, btime);
}

/*
 * Pause the moment the stacks are written: every task that runs before
 * the pause is one the tests must set aside.  The kdump path panics the
 * guest instead and wants no pause here; the rest of the capture is
 * written after the host resumes the VM.
 */
static void pause_unless_kdump(void)
{
	const char *nopause = getenv("VMCORE_NO_PAUSE");

	if (nopause && *nopause)
		return;
	if (pause_vm() != 0)
		fprintf(stderr, "vmcore-helper: pvpanic pause failed: %s\n", strerror(errno));
}

static void write_capture_info(const char *dir, const struct capture *c)
{
	char path[512];
	FILE *info;

	snprintf(path, sizeof(path), "%s/capture.txt", dir);
	info = fopen(path, "w");
	if (!info)
		die("fopen %s: %s", path, strerror(errno));
	fprintf(info, "helper_pid: %d\n", (int)getpid());
	fprintf(info, "kstack: %s\n", c->have_kstack ? c->kstack : "absent");
	fprintf(info, "kstack_a_pid: %d\nkstack_a_rc: %d\n", (int)c->kpid, c->rc_a);
	fprintf(info, "kstack_json_pid: %d\nkstack_json_rc: %d\n", (int)c->kpid_j,
		c->rc_j);
	fprintf(info, "kstack_K_pid: %d\nkstack_K_rc: %d\n", (int)c->kpid_k, c->rc_k);
	fprintf(info, "kstack_F_pid: %d\nkstack_F_rc: %d\n", (int)c->kpid_f, c->rc_f);
	fprintf(info, "kstack_Kv_pid: %d\nkstack_Fv_pid: %d\n", (int)c->kpid_kv,
		(int)c->kpid_fv);
	if (c->count < 0)
		fprintf(info, "tasks_copied: none (capture-proc: no)\n");
	else
		fprintf(info, "tasks_copied: %ld\n", c->count);
	fprintf(info, "btime: %s\n", c->btime);
	fprintf(info, "uptime_proc_copy_start: %.3f\n", c->t0);
	fprintf(info, "uptime_proc_copy_end: %.3f\n", c->t1);
	fprintf(info, "uptime_kstack_end: %.3f\n", c->t2);
	fclose(info);
}

/*
 * capture: the order puts what cannot change (probes, ftrace) first and what
 * moves (task stacks) last, and pauses the VM the instant the last file is
 * written, so the dump shows the tasks as the capture saw them.
 */
static int cmd_capture(int argc, char **argv)
{
	struct capture c = { .rc_a = -1, .rc_j = -1, .rc_k = -1, .rc_f = -1 };
	char path[512], dst[512];
	const char *dir, *noproc;
	FILE *running;
	int with_proc;

	if (argc < 2)
		die("capture: need a folder");
	dir = argv[1];
	c.kstack = argc > 2 ? argv[2] : "/bin/kstack";
	c.have_kstack = access(c.kstack, X_OK) == 0;
	/*
	 * VMCORE_NO_PROC (the scenario's "capture-proc: no"): 100,000 threads
	 * are 400,000 files, over a gigabyte of the guest's ramfs and minutes
	 * of copying under TCG, for a dump that is only benchmarked.
	 */
	noproc = getenv("VMCORE_NO_PROC");
	with_proc = !(noproc && *noproc);

	snprintf(path, sizeof(path), "%s/proc", dir);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		die("mkdir %s: %s", dir, strerror(errno));
	if (with_proc && mkdir(path, 0755) != 0 && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
	capture_hooks(dir, &c);

	snprintf(path, sizeof(path), "%s/running.txt", dir);
	running = fopen(path, "w");
	if (!running)
		die("fopen %s: %s", path, strerror(errno));
	fprintf(running, "# tid tgid comm: tasks in state R while proc/ was copied\n");
	read_btime(c.btime, sizeof(c.btime));

	c.t0 = uptime();
	c.count = with_proc ? copy_proc(dir, running) : -1;
	c.t1 = uptime();
	/*
	 * The JSON first: its switch counts, read before the text's stacks,
	 * tell which tasks did not run from then to the dump (whose text
	 * stack then cannot have changed), and kstack diff reads the same
	 * counts.
	 */
	if (c.have_kstack && with_proc) {
		snprintf(dst, sizeof(dst), "%s/kstack-a.json", dir);
		c.rc_j = run_kstack(c.kstack, dst, "-aH", "--json", &c.kpid_j);
	}
	if (c.have_kstack) {
		snprintf(dst, sizeof(dst), "%s/kstack-a.txt", dir);
		c.rc_a = run_kstack(c.kstack, dst, "-a", "-H", &c.kpid);
	}
	c.t2 = uptime();
	pause_unless_kdump();
	fclose(running);
	write_capture_info(dir, &c);

	/* Runs after the host resumes the VM (or at once if pvpanic failed: then the
	 * host sees this line and sends `stop` itself). */
	if (c.count < 0)
		printf("CAPTURE-DONE (no proc/ copy)\n");
	else
		printf("CAPTURE-DONE %ld tasks\n", c.count);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		die("usage: vmcore-helper hold|threads|vfork|traced|capture|pause-vm ...");
	argc--;
	argv++;
	if (!strcmp(argv[0], "hold"))
		return cmd_hold(argc, argv);
	if (!strcmp(argv[0], "threads"))
		return cmd_threads(argc, argv);
	if (!strcmp(argv[0], "vfork"))
		return cmd_vfork();
	if (!strcmp(argv[0], "traced"))
		return cmd_traced();
	if (!strcmp(argv[0], "capture"))
		return cmd_capture(argc, argv);
	if (!strcmp(argv[0], "pause-vm"))
		return pause_vm() ? 1 : 0;
	die("unknown command %s", argv[0]);
	return 2;
}

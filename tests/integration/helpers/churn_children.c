// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tasks that keep changing under a sampler, for test_background_cache.sh:
 *   flippers  block in nanosleep, poll, select, epoll_wait, a pipe read
 *             and a futex in turn for 20 to 300 ms, with CPU bursts
 *             between: a new stack each time they run, the same one in
 *             the samples between
 *   quiet     a process of three threads that never wake up
 *   renamed   a process whose main thread sleeps while a sibling thread
 *             renames it (/proc/self/task/TID/comm) and rewrites its argv:
 *             comm and Cmd change although it does not run
 *   stopped   a child stopped and continued by its parent (T, then R
 *             without having run)
 *   reused    children that exec (this file again), exit, and whose PID
 *             the next child
 *             takes again (/proc/sys/kernel/ns_last_pid)
 * Prints "pids P,P,...": the long-lived children and the one PID that
 * the short-lived ones take in turn; then runs until SIGTERM, prints
 * "reused N" (children that got that PID) and takes its children down.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static pid_t kids[16];
static int nr_kids;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void burn_ms(long ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static void flipper(unsigned int seed)
{
	int pfd[2], ep = epoll_create1(0);
	unsigned int futex_word = 0;
	char c;

	if (pipe(pfd) || ep < 0)
		_exit(1);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	for (unsigned int i = seed;; i++) {
		long ms = 20 + (long)(rand_r(&seed) % 280);
		struct timespec ts = { 0, ms * 1000000L };
		struct timeval tv = { 0, ms * 1000 };
		struct epoll_event ev;
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };

		switch (i % 6) {
		case 0: nanosleep(&ts, NULL); break;
		case 1: poll(NULL, 0, (int)ms); break;
		case 2: select(0, NULL, NULL, NULL, &tv); break;
		case 3: epoll_wait(ep, &ev, 1, (int)ms); break;
		case 4: poll(&p, 1, (int)ms); if (read(pfd[0], &c, 1) < 0) {} break;
		default:
			syscall(SYS_futex, &futex_word, FUTEX_WAIT, 0, &ts, NULL, 0);
		}
		burn_ms(rand_r(&seed) % 4);
	}
}

static char *argv0;
static size_t argv0_len;
static pid_t main_tid;

static void *renamer(void *arg)
{
	char path[64], name[16];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)main_tid);
	for (unsigned int n = 0;; n++) {
		int fd = open(path, O_WRONLY);

		snprintf(name, sizeof(name), "renamed%u", n % 1000);
		if (fd >= 0) {
			if (write(fd, name, strlen(name)) < 0) {}
			close(fd);
		}
		/* argv in place, as setproctitle() does */
		memset(argv0, 'a' + n % 26, argv0_len);
		nap_ms(37);
	}
	return NULL;
}

static void renamed(void)
{
	pthread_t t;

	main_tid = getpid();
	if (pthread_create(&t, NULL, renamer, NULL))
		_exit(1);
	for (;;)
		pause();
}

static pid_t spawn(void (*body)(unsigned int), unsigned int seed)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		body(seed);
		_exit(0);
	}
	if (pid > 0)
		kids[nr_kids++] = pid;
	return pid;
}

static void renamed_body(unsigned int seed)
{
	(void)seed;
	renamed();
}

static void *quiet_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void quiet_body(unsigned int seed)
{
	pthread_t t;
	int pfd[2];
	char c;

	(void)seed;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t, NULL, quiet_thread, NULL))
			_exit(1);
	if (pipe(pfd) == 0 && read(pfd[0], &c, 1) < 0) {}
	for (;;)
		pause();
}

static void stopped_body(unsigned int seed)
{
	(void)seed;
	for (;;)
		pause();
}

static char self_exe[4096];

/* A child that sleeps in one of two ways, or execs us to sleep. */
static pid_t short_child(int kind)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (kind == 2)
		execl(self_exe, "churn-exec", "--nap", (char *)NULL);
	if (kind == 1) {
		int pfd[2];
		char c;

		if (pipe(pfd) == 0) {
			struct pollfd p = { .fd = pfd[0], .events = POLLIN };

			poll(&p, 1, 150);
			fcntl(pfd[0], F_SETFL, O_NONBLOCK);
			if (read(pfd[0], &c, 1) < 0) {}
		}
		_exit(0);
	}
	nap_ms(150);
	_exit(0);
}

/* The next child gets pid: 0 when someone else's fork came first. */
static int take_pid(pid_t pid)
{
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
	char buf[16];
	int ok;

	if (fd < 0)
		return 0;
	snprintf(buf, sizeof(buf), "%d", (int)pid - 1);
	ok = write(fd, buf, strlen(buf)) > 0;
	close(fd);
	return ok;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	int nr_flippers = argc > 1 ? atoi(argv[1]) : 8;
	unsigned long reused = 0;
	pid_t reuse, stopped;

	if (argc > 1 && !strcmp(argv[1], "--nap")) {
		nap_ms(150);
		return 0;
	}
	/* the comm of what we exec is its file's name: ours */
	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0)
		return 1;
	argv0 = argv[0];
	argv0_len = strlen(argv[0]);
	sigaction(SIGTERM, &sa, NULL);
	for (int i = 0; i < nr_flippers && i < 12; i++)
		spawn(flipper, (unsigned int)i * 7919u);
	spawn(renamed_body, 0);
	spawn(quiet_body, 0);
	stopped = spawn(stopped_body, 0);
	reuse = short_child(0);
	printf("pids ");
	for (int i = 0; i < nr_kids; i++)
		printf("%d,", (int)kids[i]);
	printf("%d\n", (int)reuse);
	fflush(stdout);
	for (int i = 1; !stop; i++) {
		pid_t pid;

		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		take_pid(reuse);
		pid = short_child(i % 3);
		if (pid == reuse)
			reused++;
		kill(stopped, i % 2 ? SIGCONT : SIGSTOP);
		while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR && !stop)
			;
		nap_ms(10);
	}
	printf("reused %lu\n", reused);
	fflush(stdout);
	for (int i = 0; i < nr_kids; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	return 0;
}

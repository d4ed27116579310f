// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Makes real tasks in real states for the live tests: prints one line
 * "LETTER PID" per child, then waits for SIGTERM and takes them all down.
 *   S  sleeping in pause()
 *   T  stopped by SIGSTOP
 *   t  stopped under ptrace
 *   Z  exited and not reaped
 *   D  a vfork parent (TASK_KILLABLE shows as D) whose child never execs
 *   R  a busy loop
 *   M  a process with three threads, all sleeping
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t kids[16];
static int nr_kids;

static pid_t spawn(char letter, void (*body)(void))
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		body();
		_exit(0);
	}
	kids[nr_kids++] = pid;
	printf("%c %d\n", letter, pid);
	return pid;
}

static void do_sleep(void)
{
	for (;;)
		pause();
}

static void do_stop(void)
{
	raise(SIGSTOP);
	do_sleep();
}

static void do_traced(void)
{
	ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	raise(SIGSTOP);
	do_sleep();
}

static void do_exit(void)
{
	_exit(0);
}

static void do_vfork(void)
{
	/*
	 * The child shares our memory: it may only make system calls.  It
	 * must die with us, or it would outlive the test holding its pipes.
	 */
	if (vfork() == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
}

static void do_spin(void)
{
	for (volatile unsigned long i = 0;; i++)
		;
}

static void *thread_sleep(void *arg)
{
	(void)arg;
	do_sleep();
	return NULL;
}

static void do_threads(void)
{
	pthread_t t;

	for (int i = 0; i < 2; i++)
		pthread_create(&t, NULL, thread_sleep, NULL);
	do_sleep();
}

int main(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IONBF, 0);
	spawn('S', do_sleep);
	spawn('T', do_stop);
	spawn('t', do_traced);
	spawn('Z', do_exit);
	spawn('D', do_vfork);
	spawn('R', do_spin);
	spawn('M', do_threads);
	printf("ready\n");
	sigwait(&set, &sig);
	/* SIGTERM is blocked in every child too: only SIGKILL reaches them */
	for (int i = 0; i < nr_kids; i++)
		kill(kids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	return 0;
}

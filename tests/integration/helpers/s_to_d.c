// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A task that moves from S to D when told: it prints its PID, sleeps in
 * sigwait() (S) until SIGUSR1, then becomes a vfork parent whose child
 * never execs (TASK_KILLABLE, shown as D) until SIGKILL.  For kstack
 * diff's test: two captures, one child that changed state and stack.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	sigwait(&set, &sig);
	/* the child shares our memory: system calls only, and it dies with us */
	if (vfork() == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	return 0;
}

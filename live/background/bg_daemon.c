// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -b without --foreground: the sampler detached from the caller's
 * session and stdio by a double fork (bg_daemon.h says how).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bg_daemon.h"
#include "bg_log.h"
#include "exit_status.h"
#include "run_lock.h"

/* The sampler's side: detach from whatever started us. */
static int detach_stdio(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* the caller's pipe or terminal is let go: `kstack -b | cat` returns */
	if (dup2(fd, STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
	    dup2(fd, STDERR_FILENO) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	close(fd);
	/* do not keep a mount point busy for hours */
	if (chdir("/"))
		return -errno;
	return 0;
}

/* The middle child: never returns. */
static void middle_child(int lock_fd)
{
	pid_t pid;
	int ret;

	if (setsid() < 0) {
		ks_log(KS_LOG_ERROR, "setsid: %s", strerror(errno));
		_exit(KS_EXIT_ERROR);
	}
	pid = fork();
	if (pid < 0) {
		ks_log(KS_LOG_ERROR, "fork: %s", strerror(errno));
		_exit(KS_EXIT_ERROR);
	}
	if (!pid)
		return;
	/* before anyone can see the PID, so a second run names the right one */
	ret = ks_run_lock_set_pid(lock_fd, pid);
	if (ret)
		ks_log(KS_LOG_WARNING, "cannot record the PID in the lock file: %s",
		       strerror(-ret));
	ks_log(KS_LOG_INFO, "Background PID: %d", (int)pid);
	/* _exit: no atexit handlers or stdio buffers of the parent twice */
	_exit(KS_EXIT_OK);
}

int ks_bg_daemonize(int lock_fd, bool *is_daemon, ks_log_sink_fn sink,
		     void *sink_ctx)
{
	int status, ret;
	pid_t pid;

	*is_daemon = false;
	ks_log(KS_LOG_INFO, "Spawning process to run in background...");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ks_log(KS_LOG_ERROR, "fork: %s", strerror(errno));
		return KS_EXIT_ERROR;
	}
	if (!pid) {
		middle_child(lock_fd);
		*is_daemon = true;
		ks_log_set_sink(sink, sink_ctx);
		ret = detach_stdio();
		if (ret)
			ks_log(KS_LOG_WARNING, "detaching from the terminal: %s",
			       strerror(-ret));
		return 0;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return KS_EXIT_ERROR;
	return WIFEXITED(status) ? WEXITSTATUS(status) : KS_EXIT_ERROR;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for one live sample: open and read /proc/PID/{stat,cmdline,stack}
 * for every PID and nothing else.  kstack -a should cost little more.
 * usage: proc_floor [LOOPS]
 * prints: WALL_MS "ms/sample" CPU_MS "ms-cpu/sample" TASKS "tasks" BYTES "bytes"
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];

/* user + system time so far, in ms: the floor of a sampler's CPU */
static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static size_t slurp(int dir, const char *path)
{
	int fd = openat(dir, path, O_RDONLY);
	size_t total = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += (size_t)n;
	close(fd);
	return total;
}

int main(int argc, char **argv)
{
	int loops = argc > 1 ? atoi(argv[1]) : 1;
	size_t bytes = 0, tasks = 0;
	struct timespec a, b;
	double cpu0 = cpu_ms();

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int l = 0; l < loops; l++) {
		int dir = open("/proc", O_RDONLY | O_DIRECTORY);
		DIR *d = fdopendir(dup(dir));
		struct dirent *de;
		char path[300];

		while ((de = readdir(d))) {
			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "%s/stat", de->d_name);
			bytes += slurp(dir, path);
			snprintf(path, sizeof(path), "%s/cmdline", de->d_name);
			bytes += slurp(dir, path);
			snprintf(path, sizeof(path), "%s/stack", de->d_name);
			bytes += slurp(dir, path);
			tasks++;
		}
		closedir(d);
		close(dir);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f ms/sample %.3f ms-cpu/sample %zu tasks %zu bytes\n",
	       ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / loops,
	       (cpu_ms() - cpu0) / loops, tasks / loops, bytes / loops);
	return 0;
}

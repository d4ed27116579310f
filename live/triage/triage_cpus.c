// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live triage's CPUs: for each present CPU, the task /proc shows
 * running there (state R and field 39 of /proc/PID/task/TID/stat, the
 * CPU it last ran on), else the CPU is idle; and that task's stack from
 * /proc/PID/task/TID/stack, read a moment after its stat: a snapshot,
 * which the section says.  Several runnable tasks may name one CPU
 * (the others wait on its runqueue) and /proc does not say which one
 * runs: we are the one on ours, else the first found (the section
 * says so).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "triage_live.h"
#include "triage_read.h"

/* The tasks seen on each CPU. */
struct seen {
	int pid, tid;
	char comm[32];
	size_t runnable;	/* R tasks that named this CPU */
};

/* "(comm) R ... field 39": 0 with comm, state and cpu, else -EINVAL */
static int parse_stat(const char *buf, char *comm, size_t len, char *state,
		      int *cpu)
{
	const char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	const char *p;
	int field = 3;

	if (!open || !close || close < open || close[1] != ' ')
		return -EINVAL;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	*state = close[2];
	for (p = close + 2; *p && field < 39; p++)
		if (*p == ' ')
			field++;
	if (field != 39 || !isdigit((unsigned char)*p))
		return -EINVAL;
	*cpu = atoi(p);
	return 0;
}

static void one_task(struct seen *on, int nr, int pid, int tid, int self)
{
	char path[64], buf[1024], comm[32], state;
	int cpu;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	/* a task gone since the listing is not running anywhere */
	if (ks_triage_read_file(path, buf, sizeof(buf)) <= 0 ||
	    parse_stat(buf, comm, sizeof(comm), &state, &cpu) ||
	    state != 'R' || cpu < 0 || cpu >= nr)
		return;
	if (!on[cpu].runnable++ || tid == self) {
		on[cpu].pid = pid;
		on[cpu].tid = tid;
		snprintf(on[cpu].comm, sizeof(on[cpu].comm), "%s", comm);
	}
}

static int number(const struct dirent *d)
{
	return isdigit((unsigned char)d->d_name[0]) ? atoi(d->d_name) : 0;
}

static int scan(struct seen *on, int nr)
{
	DIR *proc = opendir("/proc"), *task;
	struct dirent *d, *t;
	char path[64];

	if (!proc)
		return -errno;
	while ((d = readdir(proc))) {
		int pid = number(d);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		task = opendir(path);
		while (task && (t = readdir(task)))
			if (number(t) > 0)
				one_task(on, nr, pid, number(t), (int)gettid());
		if (task)
			closedir(task);
	}
	closedir(proc);
	return 0;
}

/* /proc/PID/task/TID/stack's "[<0>] func+0x1/0x2" lines as frames */
static int read_stack(struct ks_cpu *c, const struct seen *s, char *why)
{
	char path[64], line[512];
	FILE *f;
	int ret = 0, frames = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", s->pid, s->tid);
	f = fopen(path, "re");
	if (!f) {
		int err = errno;

		ks_triage_why(why, "the stacks: %s: %s", path, strerror(err));
		return err == ENOENT ? ks_cpu_set_note(c, "the task exited") : 0;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		const char *text = strstr(line, "] ");

		line[strcspn(line, "\n")] = '\0';
		ret = ks_cpu_add_line(c, KS_CPU_FRAME, false, 0,
				      text ? text + 2 : line, NULL);
		frames++;
	}
	if (!ret && ferror(f))
		ks_triage_why(why, "the stacks: %s: %s", path, strerror(errno));
	fclose(f);
	/* the kernel gives no frames of a task that is on a CPU as it reads */
	if (!ret && !frames)
		ret = ks_cpu_set_note(c, "no frames: /proc gives none of a task running on its CPU at that moment");
	return ret;
}

static int fill_cpu(struct ks_cpu *c, int cpu, bool online,
		    const struct seen *s, char *why)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->offline = !online;
	c->idle = !s->runnable;
	c->pid = s->runnable ? s->tid : 0;
	if (c->idle) {
		snprintf(c->comm, sizeof(c->comm), "swapper/%d", cpu);
		return 0;
	}
	snprintf(c->comm, sizeof(c->comm), "%s", s->comm);
	return read_stack(c, s, why);
}

static int read_masks(bool *present, bool *online, char *why)
{
	char buf[4096];
	int ret = ks_triage_read_file("/sys/devices/system/cpu/present", buf,
				      sizeof(buf));

	if (ret >= 0)
		ret = ks_triage_cpu_list(buf, present, KS_TRIAGE_MAX_CPUS);
	if (ret >= 0)
		ret = ks_triage_read_file("/sys/devices/system/cpu/online", buf,
					  sizeof(buf));
	if (ret >= 0)
		ret = ks_triage_cpu_list(buf, online, KS_TRIAGE_MAX_CPUS);
	if (ret < 0)
		ks_triage_why(why, "/sys/devices/system/cpu: %s", strerror(-ret));
	return ret < 0 ? ret : 0;
}

static int fill_all(struct ks_cpus *cs, const bool *present,
		    const bool *online, const struct seen *on, char *why)
{
	int ret = 0;

	for (int c = 0; c < KS_TRIAGE_MAX_CPUS && !ret; c++) {
		if (!present[c] && !online[c])
			continue;
		ret = fill_cpu(&cs->cpu[cs->nr], c, online[c], &on[c], why);
		cs->nr++;
	}
	return ret;
}

int ks_triage_live_cpus(struct ks_cpus *cs, char *why)
{
	static bool present[KS_TRIAGE_MAX_CPUS], online[KS_TRIAGE_MAX_CPUS];
	struct seen *on = NULL;
	size_t nr = 0;
	int ret;

	memset(cs, 0, sizeof(*cs));
	ret = read_masks(present, online, why);
	if (ret)
		return ret;
	for (int c = 0; c < KS_TRIAGE_MAX_CPUS; c++)
		nr += present[c] || online[c];
	on = calloc(KS_TRIAGE_MAX_CPUS, sizeof(*on));
	cs->cpu = calloc(nr ? nr : 1, sizeof(*cs->cpu));
	ret = on && cs->cpu ? scan(on, KS_TRIAGE_MAX_CPUS) : -ENOMEM;
	if (ret && ret != -ENOMEM)
		ks_triage_why(why, "/proc: %s", strerror(-ret));
	if (!ret)
		ret = fill_all(cs, present, online, on, why);
	free(on);
	return ret;
}

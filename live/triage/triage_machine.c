// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live triage's machine: what the dump's machine_state.c reads from
 * init_uts_ns, the CPU masks, the timekeeper, avenrun[] and
 * saved_command_line, here from uname(2), /sys/devices/system/cpu,
 * /proc/uptime, /proc/loadavg and /proc/cmdline.  The load is turned
 * back into avenrun[]'s fixed point so that ks_machine_load() prints
 * /proc/loadavg's own digits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "triage_live.h"
#include "triage_read.h"

#define CPU_DIR	"/sys/devices/system/cpu/"

static void read_uts(struct ks_machine *m, char *why)
{
	struct utsname u;

	if (uname(&u)) {
		m->uts_err = -errno;
		ks_triage_why(why, "uname: %s", strerror(errno));
		return;
	}
	snprintf(m->nodename, sizeof(m->nodename), "%s", u.nodename);
	snprintf(m->release, sizeof(m->release), "%s", u.release);
	snprintf(m->machine, sizeof(m->machine), "%s", u.machine);
}

static int count_cpus(const char *name, unsigned int *n, int *last, char *why)
{
	static bool set[KS_TRIAGE_MAX_CPUS];
	char path[64], buf[4096];
	int ret;

	snprintf(path, sizeof(path), CPU_DIR "%s", name);
	ret = ks_triage_read_file(path, buf, sizeof(buf));
	if (ret >= 0)
		ret = ks_triage_cpu_list(buf, set, KS_TRIAGE_MAX_CPUS);
	if (ret < 0) {
		ks_triage_why(why, "%s: %s", path, strerror(-ret));
		return ret;
	}
	*n = (unsigned int)ret;
	for (int c = 0; c < KS_TRIAGE_MAX_CPUS; c++)
		if (set[c])
			*last = c;
	return 0;
}

static void read_cpus(struct ks_machine *m, char *why)
{
	int last = -1;

	m->cpus_err = count_cpus("present", &m->present, &last, why);
	if (!m->cpus_err)
		m->cpus_err = count_cpus("online", &m->online, &last, why);
	m->nr_cpu_ids = (unsigned int)(last + 1);
}

/* "12345.67 ..." (seconds, hundredths) */
static void read_uptime(struct ks_machine *m, char *why)
{
	unsigned long long s, cs;
	char buf[128];
	int ret = ks_triage_read_file("/proc/uptime", buf, sizeof(buf));

	if (ret >= 0 && sscanf(buf, "%llu.%2llu", &s, &cs) != 2)
		ret = -EINVAL;
	m->uptime_err = ret < 0 ? ret : 0;
	if (ret < 0)
		ks_triage_why(why, "/proc/uptime: %s", strerror(-ret));
	else
		m->uptime_ns = s * 1000000000ull + cs * 10000000ull;
}

/*
 * "0.52" back to a fixed point that LOAD_INT() and LOAD_FRAC() print as
 * 0.52: the hundredths rounded up to 1/2048ths.
 */
static uint64_t avenrun_of(unsigned long long whole, unsigned long long hund)
{
	return (whole << KS_FSHIFT) + (hund * (1u << KS_FSHIFT) + 99) / 100;
}

static void read_load(struct ks_machine *m, char *why)
{
	unsigned long long w[3], h[3];
	char buf[256];
	int ret = ks_triage_read_file("/proc/loadavg", buf, sizeof(buf));

	if (ret >= 0 && sscanf(buf, "%llu.%2llu %llu.%2llu %llu.%2llu", &w[0],
			       &h[0], &w[1], &h[1], &w[2], &h[2]) != 6)
		ret = -EINVAL;
	m->load_err = ret < 0 ? ret : 0;
	if (ret < 0) {
		ks_triage_why(why, "/proc/loadavg: %s", strerror(-ret));
		return;
	}
	for (int i = 0; i < 3; i++)
		m->avenrun[i] = avenrun_of(w[i], h[i]);
}

static void read_cmdline(struct ks_machine *m, char *why)
{
	/* COMMAND_LINE_SIZE is at most 4096 on the architectures we read */
	char buf[8192];
	int ret = ks_triage_read_file("/proc/cmdline", buf, sizeof(buf));

	m->cmdline_err = ret < 0 ? ret : 0;
	if (ret < 0) {
		ks_triage_why(why, "/proc/cmdline: %s", strerror(-ret));
		return;
	}
	m->cmdline = strdup(buf);
	if (!m->cmdline)
		m->cmdline_err = -ENOMEM;
}

void ks_triage_live_machine(struct ks_machine *m, char *why)
{
	memset(m, 0, sizeof(*m));
	read_uts(m, why);
	read_cpus(m, why);
	read_uptime(m, why);
	read_load(m, why);
	read_cmdline(m, why);
}

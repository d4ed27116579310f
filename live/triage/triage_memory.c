// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live triage's memory: what the dump's memory_state.c reads from
 * the kernel's counters and slab_caches, here from /proc/meminfo (its
 * own lines) and /proc/slabinfo (root only: each cache's num_slabs
 * times its pagesperslab pages, as slab_top.c counts a dump's).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "triage_live.h"

/* "MemTotal:  996124 kB": the line's value, if it is key's */
static bool meminfo_value(const char *line, const char *key, uint64_t *v)
{
	size_t n = strlen(key);

	return !strncmp(line, key, n) && line[n] == ':' &&
	       sscanf(line + n + 1, "%" SCNu64, v) == 1;
}

static void meminfo_line(struct ks_memory *m, const char *line, bool *huge)
{
	uint64_t v;

	for (int i = 0; i < KS_MEM_NR_LINES; i++)
		if (meminfo_value(line, ks_mem_line_names[i], &v)) {
			m->known[i] = true;
			m->kb[i] = v;
			return;
		}
	if (meminfo_value(line, "HugePages_Total", &v))
		m->huge_total = v, huge[0] = true;
	else if (meminfo_value(line, "HugePages_Free", &v))
		m->huge_free = v, huge[1] = true;
	else if (meminfo_value(line, "Hugepagesize", &v))
		m->huge_page_kb = v, huge[2] = true;
}

static void read_meminfo(struct ks_memory *m, char *why)
{
	FILE *f = fopen("/proc/meminfo", "r");
	bool huge[3] = { false, false, false };
	char line[256];
	long page = sysconf(_SC_PAGESIZE);

	m->page_shift = page > 0 ? (unsigned int)__builtin_ctzl((unsigned long)page) : 12;
	m->huge_err = -ENOENT;
	if (!f) {
		m->page_err = -errno;
		ks_triage_why(why, "/proc/meminfo: %s", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f))
		meminfo_line(m, line, huge);
	fclose(f);
	if (huge[0] && huge[1] && huge[2])
		m->huge_err = 0;
	for (int i = 0; i < KS_MEM_NR_LINES; i++)
		if (!m->known[i]) {
			ks_triage_why(why, "/proc/meminfo has no %s line",
				      ks_mem_line_names[i]);
			break;
		}
}

/*
 * "name active num objsize perslab pagesperslab : tunables ... :
 * slabdata active_slabs num_slabs shared" (slabinfo_show())
 */
static int slab_line(struct ks_memory *m, const char *line)
{
	struct ks_mem_slab c = { .name = "" };
	uint64_t active, pages;
	const char *data = strstr(line, ": slabdata ");
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "%%%ds %%" SCNu64 " %%" SCNu64 " %%" SCNu64
		 " %%*u %%" SCNu64, KS_MEM_SLAB_NAME - 1);
	if (sscanf(line, fmt, c.name, &active, &c.objects, &c.object_size,
		   &pages) != 5 || !data ||
	    sscanf(data + 11, "%*u %" SCNu64, &c.slabs) != 1)
		return -EINVAL;
	c.bytes = c.slabs * pages << m->page_shift;
	ks_memory_keep_top(m, &c);
	m->nr_caches++;
	return 0;
}

static void read_slabinfo(struct ks_memory *m, char *why)
{
	FILE *f = fopen("/proc/slabinfo", "r");
	char line[512];

	if (!f) {
		m->slab_err = -errno;
		ks_triage_why(why, "/proc/slabinfo: %s%s", strerror(errno),
			      errno == EACCES ? " (run as root)" : "");
		return;
	}
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "slabinfo - ", 11) && line[0] != '#' &&
		    slab_line(m, line) && !*why)
			ks_triage_why(why, "/proc/slabinfo has a line not read: %.40s",
				      line);
	fclose(f);
	if (!m->nr_caches) {
		m->slab_err = -ENOENT;
		ks_triage_why(why, "/proc/slabinfo lists no cache");
	}
}

void ks_triage_live_memory(struct ks_memory *m, char *why, char *slab_why)
{
	memset(m, 0, sizeof(*m));
	read_meminfo(m, why);
	read_slabinfo(m, slab_why);
}

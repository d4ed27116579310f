// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uname -n -r -m (init_uts_ns.name), the CPUs of nproc and lscpu
 * (nr_cpu_ids, __cpu_present_mask, __cpu_online_mask), uptime
 * (CLOCK_BOOTTIME: the timekeeper's xtime less offs_real plus
 * offs_boot, as ktime_get_boottime() adds them), /proc/loadavg's first
 * three numbers (avenrun[]) and /proc/cmdline (saved_command_line).
 * Each part is looked up by symbol and member when it is read, never by
 * the kernel's version.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_string.h"
#include "machine_state.h"
#include "member_table.h"
#include "task_walk.h"

/* COMMAND_LINE_SIZE: 2048 on x86_64, 4096 on arm64 */
#define CMDLINE_MAX	4096

static int uts_field(const struct ks_target *t, uint64_t base,
		     const struct ks_field *f, char *dst)
{
	char buf[KS_UTS_LEN];
	size_t n = f->size > 0 && f->size < KS_UTS_LEN ? (size_t)f->size :
							 KS_UTS_LEN;

	if (!ks_field_ok(f)) {
		*dst = '\0';
		return 0;
	}
	if (ks_read(t, base + (uint64_t)f->off, buf, n))
		return -EFAULT;
	ks_copy_kstr(dst, KS_UTS_LEN, buf, n);
	return 0;
}

static int read_uts(const struct ks_target *t, struct ks_machine *m,
		    const struct ks_reporter *rep)
{
	struct ks_field name, node, rel, mach;
	const struct ks_field_spec specs[] = {
		KS_NEED(&name, "uts_namespace", "name"),
		KS_NEED(&node, "new_utsname", "nodename"),
		KS_NEED(&rel, "new_utsname", "release"),
		KS_OPTIONAL(&mach, "new_utsname", "machine"),
	};
	uint64_t ns;

	if (ks_field_table_report(t, specs, sizeof(specs) / sizeof(specs[0]),
				  rep))
		return -ENOENT;
	if (t->ops->symbol(t->ctx, "init_uts_ns", &ns)) {
		ks_say(rep, KS_WARN, "no symbol init_uts_ns");
		return -ENOENT;
	}
	ns += (uint64_t)name.off;
	if (uts_field(t, ns, &node, m->nodename) ||
	    uts_field(t, ns, &rel, m->release) ||
	    uts_field(t, ns, &mach, m->machine)) {
		ks_say(rep, KS_WARN, "init_uts_ns at %#llx is not in the image",
		       (unsigned long long)ns);
		return -EFAULT;
	}
	return 0;
}

/* cpumask_weight() of the first nr bits of the mask at addr */
static int mask_weight(const struct ks_target *t, uint64_t addr,
		       unsigned int nr, unsigned int *ret)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nr; i += 64) {
		uint64_t word;

		if (ks_read_u64(t, addr + i / 8, &word))
			return -EFAULT;
		if (nr - i < 64)
			word &= (1ull << (nr - i)) - 1;
		n += (unsigned int)__builtin_popcountll(word);
	}
	*ret = n;
	return 0;
}

static int read_cpus(const struct ks_target *t, struct ks_machine *m,
		     const struct ks_reporter *rep)
{
	uint64_t nr, present, online;

	if (t->ops->symbol(t->ctx, "nr_cpu_ids", &nr) ||
	    t->ops->symbol(t->ctx, "__cpu_online_mask", &online)) {
		ks_say(rep, KS_WARN, "no symbol nr_cpu_ids or __cpu_online_mask");
		return -ENOENT;
	}
	if (ks_read(t, nr, &m->nr_cpu_ids, sizeof(m->nr_cpu_ids)) ||
	    !m->nr_cpu_ids || m->nr_cpu_ids > 8192) {
		ks_say(rep, KS_WARN, "nr_cpu_ids cannot be read");
		return -EFAULT;
	}
	/* a kernel without a present mask has every CPU it knows online */
	if (t->ops->symbol(t->ctx, "__cpu_present_mask", &present))
		present = online;
	if (mask_weight(t, present, m->nr_cpu_ids, &m->present) ||
	    mask_weight(t, online, m->nr_cpu_ids, &m->online)) {
		ks_say(rep, KS_WARN, "the CPU masks are not in the image");
		return -EFAULT;
	}
	return 0;
}

/* The timekeeper's members, and the fraction of its second if known. */
struct tk_fields {
	struct ks_field xtime_sec, offs_real, offs_boot;
	struct ks_field tkr_mono, xtime_nsec, shift;
};

static int tk_fields(const struct ks_target *t, struct tk_fields *f,
		     const struct ks_reporter *rep)
{
	const struct ks_field_spec specs[] = {
		KS_NEED_AS(&f->xtime_sec, "timekeeper", "xtime_sec", NULL, 8),
		KS_NEED_AS(&f->offs_real, "timekeeper", "offs_real", NULL, 8),
		KS_NEED_AS(&f->offs_boot, "timekeeper", "offs_boot", NULL, 8),
		KS_OPTIONAL(&f->tkr_mono, "timekeeper", "tkr_mono"),
		KS_OPTIONAL(&f->xtime_nsec, "tk_read_base", "xtime_nsec"),
		KS_OPTIONAL(&f->shift, "tk_read_base", "shift"),
	};

	return ks_field_table_report(t, specs, sizeof(specs) / sizeof(specs[0]),
				     rep);
}

static int read_uptime(const struct ks_target *t, uint64_t tk,
		       struct ks_machine *m, const struct ks_reporter *rep)
{
	struct tk_fields f;
	uint64_t sec, real, boot, nsec = 0, shift = 0;
	int64_t ns;

	if (!tk) {
		ks_say(rep, KS_WARN, "the timekeeper was not found");
		return -ENOENT;
	}
	if (tk_fields(t, &f, rep))
		return -ENOENT;
	if (ks_field_read(t, tk, &f.xtime_sec, 8, &sec) ||
	    ks_field_read(t, tk, &f.offs_real, 8, &real) ||
	    ks_field_read(t, tk, &f.offs_boot, 8, &boot)) {
		ks_say(rep, KS_WARN, "the timekeeper at %#llx is not in the image",
		       (unsigned long long)tk);
		return -EFAULT;
	}
	/* the fraction of xtime_sec's second: tk_xtime() */
	if (ks_field_ok(&f.tkr_mono) &&
	    (ks_field_read(t, tk + (uint64_t)f.tkr_mono.off, &f.xtime_nsec, 8, &nsec) ||
	     ks_field_read(t, tk + (uint64_t)f.tkr_mono.off, &f.shift, 4, &shift) ||
	     shift > 63))
		nsec = shift = 0;
	ns = (int64_t)sec * 1000000000 + (int64_t)(nsec >> shift) -
	     (int64_t)real + (int64_t)boot;
	if (ns < 0) {
		ks_say(rep, KS_WARN, "the timekeeper says the kernel booted in the future");
		return -ERANGE;
	}
	m->uptime_ns = (uint64_t)ns;
	return 0;
}

static int read_load(const struct ks_target *t, struct ks_machine *m,
		     const struct ks_reporter *rep)
{
	uint64_t addr;

	if (t->ops->symbol(t->ctx, "avenrun", &addr)) {
		ks_say(rep, KS_WARN, "no symbol avenrun");
		return -ENOENT;
	}
	if (ks_read(t, addr, m->avenrun, sizeof(m->avenrun))) {
		ks_say(rep, KS_WARN, "avenrun at %#llx is not in the image",
		       (unsigned long long)addr);
		return -EFAULT;
	}
	return 0;
}

static int read_cmdline(const struct ks_target *t, struct ks_machine *m,
			const struct ks_reporter *rep)
{
	uint64_t sym, addr;
	int ret;

	if (t->ops->symbol(t->ctx, "saved_command_line", &sym)) {
		ks_say(rep, KS_WARN, "no symbol saved_command_line");
		return -ENOENT;
	}
	m->cmdline = malloc(CMDLINE_MAX);
	if (!m->cmdline)
		return -ENOMEM;
	ret = ks_read_u64(t, sym, &addr);
	if (!ret)
		ret = ks_read_kstring(t, addr, m->cmdline, CMDLINE_MAX);
	/* a line longer than any kernel keeps is kept as far as it goes */
	if (ret && ret != -E2BIG) {
		ks_say(rep, KS_WARN, "saved_command_line is not in the image");
		free(m->cmdline);
		m->cmdline = NULL;
		return ret;
	}
	return 0;
}

int ks_machine_read(const struct ks_target *t, uint64_t timekeeper,
		    struct ks_machine *m, const struct ks_reporter *rep)
{
	memset(m, 0, sizeof(*m));
	m->uts_err = read_uts(t, m, rep);
	m->cpus_err = read_cpus(t, m, rep);
	m->uptime_err = read_uptime(t, timekeeper, m, rep);
	m->load_err = read_load(t, m, rep);
	m->cmdline_err = read_cmdline(t, m, rep);
	return m->cmdline_err == -ENOMEM ? -ENOMEM : 0;
}

void ks_machine_release(struct ks_machine *m)
{
	free(m->cmdline);
	m->cmdline = NULL;
}

void ks_machine_load(uint64_t avenrun, char *buf, size_t len)
{
	/* LOAD_INT() and LOAD_FRAC() of fs/proc/loadavg.c */
	uint64_t frac = avenrun & ((1ull << KS_FSHIFT) - 1);

	snprintf(buf, len, "%llu.%02llu",
		 (unsigned long long)(avenrun >> KS_FSHIFT),
		 (unsigned long long)((frac * 100) >> KS_FSHIFT));
}

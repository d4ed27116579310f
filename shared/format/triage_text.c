// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack triage as text, for a support case's notes: a section per
 * question, in the order one asks them (the machine, what killed it, the
 * taint, the memory, who is stuck, every CPU, who touched the kernel,
 * the log), each headed "# ..." and short.  Each section's body is the view that shows
 * it on its own, written by that view's writer: --panic's lines, -D -c's
 * paragraphs and --waits' chains, --cpus' blocks, -K's and -F's lines,
 * --log's records; the memory's lines are /proc/meminfo's.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "format_time.h"
#include "format_cpus.h"
#include "format_log.h"
#include "format_panic.h"
#include "hooks.h"
#include "text_escape.h"
#include "triage.h"

/* "unknown (why)" for a part that could not be read */
static void unknown(FILE *out, const char *why)
{
	fprintf(out, "unknown%s%s%s\n", *why ? " (" : "", why, *why ? ")" : "");
}

static void dump_of(FILE *out, const struct ks_triage *tr)
{
	const struct ks_panic_state *ps = &tr->ps;

	if (tr->live) {
		fputs("Read from:    a running system (live, not a panic)\n", out);
		return;
	}
	fputs("Dump of:      ", out);
	if (ps->cpu_err)
		fputs("unknown (panic_cpu cannot be read)\n", out);
	else if (ps->panic_cpu >= 0)
		fprintf(out, "a panic, on CPU %d\n", ps->panic_cpu);
	else
		fputs("a running system (no CPU panicked)\n", out);
}

static void text_machine(FILE *out, const struct ks_triage *tr)
{
	const struct ks_machine *m = &tr->machine;
	const char *why = tr->machine_why;
	char load[3][24], buf[KS_TIME_LEN];

	fputs("# The machine\n", out);
	if (m->uts_err) {
		fputs("Node name:    ", out);
		unknown(out, why);
	} else {
		fputs("Node name:    ", out);
		ks_fputs_escaped(m->nodename, out);
		fputs("\nRelease:      ", out);
		ks_fputs_escaped(m->release, out);
		fputs("\nMachine:      ", out);
		ks_fputs_escaped(*m->machine ? m->machine : "unknown", out);
		fputc('\n', out);
	}
	fputs("CPUs:         ", out);
	if (m->cpus_err)
		unknown(out, "");
	else
		fprintf(out, "%u present, %u online\n", m->present, m->online);
	fputs("Uptime:       ", out);
	if (m->uptime_err)
		unknown(out, "");
	else
		fprintf(out, "%s\n", ks_time_uptime(buf, sizeof(buf), m->uptime_ns));
	fputs("Load average: ", out);
	for (int i = 0; i < 3 && !m->load_err; i++)
		ks_machine_load(m->avenrun[i], load[i], sizeof(load[i]));
	if (m->load_err)
		unknown(out, "");
	else
		fprintf(out, "%s %s %s\n", load[0], load[1], load[2]);
	fputs("Command line: ", out);
	if (m->cmdline)
		ks_fputs_escaped(m->cmdline, out);
	else
		fputs("unknown", out);
	fputc('\n', out);
	dump_of(out, tr);
	if (*why && !m->uts_err)
		fprintf(out, "(not all of it could be read: %s)\n", why);
	fputc('\n', out);
}

static const struct ks_cpu *cpu_of(const struct ks_triage *tr, int cpu)
{
	for (size_t i = 0; !tr->cpus_err && i < tr->cpus.nr; i++)
		if (tr->cpus.cpu[i].cpu == cpu)
			return &tr->cpus.cpu[i];
	return NULL;
}

static void text_why(FILE *out, const struct ks_triage *tr)
{
	const struct ks_log_digest *d = &tr->log;

	if (tr->log_err) {
		fputs("The log: ", out);
		unknown(out, tr->log_why);
		return;
	}
	if (!d->nr_why) {
		fprintf(out, "The log has no oops, BUG, hung task, lockup, stall or OOM report%s.\n",
			d->panicked ? " before the panic" : "");
		return;
	}
	fprintf(out, "The log's report%s:\n", d->panicked ? " before the panic" : "");
	for (size_t i = 0; i < d->nr_why; i++)
		ks_format_log_record(out, false, &d->why[i]);
}

static void text_killed(FILE *out, const struct ks_triage *tr)
{
	const struct ks_panic_state *ps = &tr->ps;
	const struct ks_cpu *c;

	fputs("# What killed it\n", out);
	if (tr->ps_err) {
		unknown(out, tr->ps_why);
		fputc('\n', out);
		return;
	}
	if (tr->live)
		fputs("Panic: none (the system is running)\n", out);
	else
		ks_format_panic_head(out, ps, tr->has_message ? tr->message : NULL);
	text_why(out, tr);
	c = ps->cpu_err || ps->panic_cpu < 0 ? NULL : cpu_of(tr, ps->panic_cpu);
	if (!ps->cpu_err && ps->panic_cpu >= 0)
		fputs("The panicking CPU:\n", out);
	/* --cpus' block ends with its blank line */
	if (c)
		ks_format_cpu(out, &tr->cpus, c, false);
	else if (!ps->cpu_err && ps->panic_cpu >= 0)
		unknown(out, tr->cpus_why);
	if (!c)
		fputc('\n', out);
}

static void text_taint(FILE *out, const struct ks_triage *tr)
{
	fputs("# Taint\n", out);
	if (tr->ps_err)
		unknown(out, tr->ps_why);
	else
		ks_format_taint_text(out, &tr->ps);
	fputc('\n', out);
}

/* meminfo_proc_show()'s "MemTotal:       %8lu kB" */
static void meminfo_lines(FILE *out, const struct ks_memory *m)
{
	char label[24];

	for (int i = 0; i < KS_MEM_NR_LINES; i++) {
		snprintf(label, sizeof(label), "%s:", ks_mem_line_names[i]);
		if (m->known[i])
			fprintf(out, "%-16s%8" PRIu64 " kB\n", label, m->kb[i]);
		else
			fprintf(out, "%-16s unknown\n", label);
	}
	/* hugetlb_report_meminfo()'s, where the kernel has an hstate */
	if (!m->huge_err)
		fprintf(out, "HugePages_Total:   %5" PRIu64 "\nHugePages_Free:    %5"
			PRIu64 "\nHugepagesize:   %8" PRIu64 " kB\n",
			m->huge_total, m->huge_free, m->huge_page_kb);
}

static void text_slabs(FILE *out, const struct ks_triage *tr)
{
	const struct ks_memory *m = &tr->mem;

	if (m->slab_err) {
		fputs("The largest slab caches: ", out);
		unknown(out, tr->slab_why);
		return;
	}
	fprintf(out, "The largest slab caches (of %zu):\n", m->nr_caches);
	for (size_t i = 0; i < m->nr_top; i++) {
		const struct ks_mem_slab *c = &m->top[i];

		fprintf(out, "%10" PRIu64 " kB  ", c->bytes >> 10);
		ks_fputs_escaped(c->name, out);
		fprintf(out, ": %" PRIu64 " slab%s, %" PRIu64 " objects of %"
			PRIu64 " bytes\n", c->slabs, ks_plural(c->slabs),
			c->objects, c->object_size);
	}
	if (*tr->slab_why)
		fprintf(out, "(not all of them could be read: %s)\n", tr->slab_why);
}

void ks_triage_memory_text(FILE *out, const struct ks_triage *tr)
{
	const struct ks_memory *m = &tr->mem;
	bool any = false;

	for (int i = 0; i < KS_MEM_NR_LINES; i++)
		any |= m->known[i];
	if (m->page_err || !any) {
		fputs("/proc/meminfo: ", out);
		unknown(out, tr->mem_why);
	} else {
		meminfo_lines(out, m);
		if (*tr->mem_why)
			fprintf(out, "(not all of it could be read: %s)\n", tr->mem_why);
	}
	text_slabs(out, tr);
	if (tr->log_err) {
		fputs("The last OOM victim: unknown (the log cannot be read)\n", out);
	} else if (!tr->log.has_oom) {
		fputs("The log has no OOM kill.\n", out);
	} else {
		fputs("The last OOM victim, from the log:\n", out);
		ks_format_log_record(out, false, &tr->log.oom);
	}
	fputc('\n', out);
}

#define ROOT_FRAMES	5	/* the root's top frames: what it is doing */

/* the chain's (or the deadlock's) number, as the "== waits" section's */
static size_t root_number(const struct ks_triage *tr)
{
	const struct ks_wait_chains *c = &tr->stuck_chains;

	return tr->root.deadlock ? tr->root.chain + 1 :
				   tr->root.chain + 1 - c->nr_deadlocks;
}

/* "117 ksl_chain_c S" and what, then its top frames: what it is doing */
static void root_task(FILE *out, const struct ks_task *t, const char *what)
{
	const char *p = t->stack;

	fprintf(out, "%d ", t->pid);
	ks_fputs_escaped(t->comm, out);
	fprintf(out, " %c%s, %s\n", t->state, t->running ? " (on a CPU)" : "",
		what);
	for (int i = 0; i < ROOT_FRAMES && p && *p; i++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		fprintf(out, "  %.*s\n", (int)len, p);
		p = nl ? nl + 1 : NULL;
	}
	if (t->note)
		fprintf(out, "  (%s)\n", t->note);
}

/* why the chain ends at a waiter: its lock's owner is no task known */
static const char *last_wait(const struct ks_task_wait *w)
{
	if (w->readers)
		return "waits for an rwsem its readers hold";
	if (w->ownerless)
		return "waits on a queue, which records no owner";
	if (w->owner)
		return "waits for a lock whose owner is no task of the dump";
	return "waits for a lock of no owner";
}

/*
 * The root blocker, after the waits: the deadlock, or the task at the
 * end of the longest chain (its holder where the lock has one) and its
 * top frames.
 */
static void text_root(FILE *out, const struct ks_triage *tr)
{
	const struct ks_wait_root *r = &tr->root;
	const struct ks_task *t;
	char what[64];

	if (!r->found)
		return;
	fprintf(out, "\nRoot blocker (the end of the longest chain of waits, %zu task%s): ",
		r->length, ks_plural(r->length));
	if (r->deadlock) {
		fprintf(out, "deadlock %zu, each of whose tasks waits for a lock another of them holds\n",
			root_number(tr));
		return;
	}
	t = &tr->stuck.tasks[r->task];
	fprintf(out, "chain %zu's %s:\n", root_number(tr),
		r->beyond ? "holder" : "last waiter");
	if (!r->beyond) {
		root_task(out, t, last_wait(&t->wait));
		return;
	}
	snprintf(what, sizeof(what), "holds what %d waits for", t->pid);
	if (tr->root_owner.nr_tasks)
		root_task(out, &tr->root_owner.tasks[0], what);
	else
		fprintf(out, "%d, no task the dump lists, %s\n", tr->root_pid, what);
}

static int text_stuck(FILE *out, const struct ks_triage *tr)
{
	const struct ks_sample *s = &tr->stuck;
	size_t ng = tr->stuck_groups.nr_groups;
	int ret;

	fputs("# Who is stuck\n", out);
	if (tr->stuck_err) {
		fputs("The tasks in D: ", out);
		unknown(out, tr->stuck_why);
		fputc('\n', out);
		return 0;
	}
	if (!s->nr_tasks) {
		fputs("No task is in D (uninterruptible sleep).\n\n", out);
		return 0;
	}
	fprintf(out, "%zu task%s in D, %zu distinct stack%s, the longest since it last ran first:\n\n",
		s->nr_tasks, ks_plural(s->nr_tasks), ng, ks_plural(ng));
	ret = ks_format_summary_by_age(out, s, &tr->stuck_groups);
	/* each paragraph ends with a blank line */
	if (!ret)
		ret = ks_format_waits(out, s);
	if (!ret)
		text_root(out, tr);
	fputc('\n', out);
	return ret;
}

/*
 * "CPU 1: PID 0 (swapper/1), idle, at default_idle+0x...", or live,
 * where no register is read, "CPU 1: PID 42 (cc1), running".
 */
static void cpu_line(FILE *out, const struct ks_triage *tr,
		     const struct ks_cpu *c)
{
	fprintf(out, "CPU %d: PID %d (", c->cpu, c->pid);
	ks_fputs_escaped(c->comm, out);
	fputc(')', out);
	if (c->offline)
		fputs(", offline", out);
	if (c->idle)
		fputs(", idle", out);
	if (c->switching) {
		fprintf(out, ", switching to PID %d (", c->next_pid);
		ks_fputs_escaped(c->next_comm, out);
		fputc(')', out);
	}
	if (tr->live)
		fputs(c->idle || c->offline ? "\n" : ", running\n", out);
	else if (c->user)
		fputs(", in user mode\n", out);
	else if (c->ip_text)
		fprintf(out, ", at %s\n", c->ip_text);
	else
		fputs(", its registers are not in the dump\n", out);
}

static void text_cpus(FILE *out, const struct ks_triage *tr)
{
	const struct ks_cpus *cs = &tr->cpus;
	int panicked = tr->ps_err || tr->ps.cpu_err ? -1 : tr->ps.panic_cpu;
	size_t busy = 0;

	fputs("# Every CPU\n", out);
	if (tr->cpus_err) {
		unknown(out, tr->cpus_why);
		fputc('\n', out);
		return;
	}
	/* a live CPU's stack is read after its task was seen on it */
	if (tr->live)
		fputs("(live: each CPU's task is one /proc/PID/task/TID/stat showed "
		      "runnable there, kstack itself on its own CPU, else the first "
		      "found; its stack, from /proc/PID/task/TID/stack a moment "
		      "later, is a snapshot)\n", out);
	if (tr->live && *tr->cpus_why)
		fprintf(out, "(not all of it could be read: %s)\n", tr->cpus_why);
	for (size_t i = 0; i < cs->nr; i++)
		cpu_line(out, tr, &cs->cpu[i]);
	for (size_t i = 0; i < cs->nr; i++) {
		const struct ks_cpu *c = &cs->cpu[i];

		if (c->idle || c->offline || c->cpu == panicked)
			continue;
		if (!busy++)
			fputs(tr->live ? "\nThe CPUs that are not idle:\n" :
			      "\nThe CPUs that are not idle (the panicking one is above):\n",
			      out);
		ks_format_cpu(out, cs, c, false);
	}
	/* else the last CPU's block ended with its blank line */
	if (!busy)
		fputc('\n', out);
}

/* The letters of print_tainted() that say who changed the kernel. */
static const struct {
	char letter;
	const char *what;
} module_taints[] = {
	{ 'P', "proprietary modules" },
	{ 'O', "out-of-tree modules" },
	{ 'E', "unsigned modules" },
	{ 'F', "modules loaded by force" },
	{ 'C', "staging modules" },
	{ 'K', "livepatches" },
};

static void text_modules(FILE *out, const struct ks_panic_state *ps)
{
	bool any = false;

	for (size_t j = 0; j < sizeof(module_taints) / sizeof(module_taints[0]); j++)
		for (int i = 0; i < ps->nr_flags; i++) {
			const struct ks_taint_flag *f = &ps->flags[i];

			if (f->c_true != module_taints[j].letter ||
			    !(ps->tainted_mask & (1ull << i)))
				continue;
			fprintf(out, "%c, %s: %s\n", f->c_true, module_taints[j].what,
				f->modules ? f->modules : "(none named)");
			any = true;
		}
	if (!any)
		fputs("No module tainted the kernel.\n", out);
}

static int text_hooks(FILE *out, const struct ks_triage *tr)
{
	fputs("# Who touched the kernel\n", out);
	if (tr->hooks) {
		tr->hooks->write(tr->hooks->arg, out, false, false);
		tr->hooks->write(tr->hooks->arg, out, true, false);
	} else if (tr->kprobes_err) {
		fputs("kprobes: ", out);
		unknown(out, tr->kprobes_why);
	} else if (!tr->kprobes.n) {
		fputs("kprobes: none\n", out);
	} else {
		ks_kprobe_write(out, tr->t, &tr->kprobes,
				ks_kprobes_enabled(tr->t), false);
	}
	if (!tr->hooks && ks_triage_ftrace(out, tr->t, false))
		fputs("ftrace: unknown (its records cannot be read)\n", out);
	if (!tr->ps_err && !tr->ps.taint_err)
		text_modules(out, &tr->ps);
	fputc('\n', out);
	return 0;
}

static void text_log(FILE *out, const struct ks_triage *tr)
{
	const struct ks_log_digest *d = &tr->log;

	fputs("# The log\n", out);
	if (tr->log_err) {
		unknown(out, tr->log_why);
		return;
	}
	fprintf(out, "Errors and warnings (level 4 and below): %lu record%s, %zu distinct%s\n",
		d->nr_warn_records, ks_plural(d->nr_warn_records), d->nr_warn,
		d->nr_warn ? ", each with its count and first time:" : "");
	for (size_t i = 0; i < d->nr_warn; i++) {
		fprintf(out, "%6lu  ", d->warn[i].count);
		ks_format_log_record(out, false, &d->warn[i].rec);
	}
	if (d->warn_left_out)
		fprintf(out, "(%lu more records of other texts)\n", d->warn_left_out);
	fprintf(out, "\nThe last %zu of %lu lines:\n", d->nr_last, d->nr_records);
	for (size_t i = 0; i < d->nr_last; i++)
		ks_format_log_record(out, false, ks_log_digest_last(d, i));
}

int ks_triage_text(FILE *out, const struct ks_triage *tr)
{
	int ret;

	text_machine(out, tr);
	text_killed(out, tr);
	text_taint(out, tr);
	fputs("# Memory\n", out);
	ks_triage_memory_text(out, tr);
	ret = text_stuck(out, tr);
	if (ret)
		return ret;
	text_cpus(out, tr);
	ret = text_hooks(out, tr);
	if (ret)
		return ret;
	text_log(out, tr);
	return ferror(out) ? -EIO : 0;
}

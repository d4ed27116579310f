// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack triage --html: the triage as one page a support case can carry.
 * The page needs nothing from the network and runs no script: one
 * inline <style>, and a Content-Security-Policy that forbids everything
 * else, so that even a string that escaped its escaping could load or
 * run nothing.  Each section is a <details open> that collapses, one row
 * of sections[] and one function; its body is what the text prints,
 * through the same writers where there is one (--panic's lines, --cpus'
 * blocks, -K's and -F's lines, --log's records), escaped into <pre>.
 * The tasks in D are drawn as their groups, each with its count, and the
 * --waits chains as boxes joined by arrows, the root blocker marked.
 * Every kernel string goes through html_escape.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "format_time.h"
#include "format_cpus.h"
#include "format_log.h"
#include "format_panic.h"
#include "hooks.h"
#include "html_escape.h"
#include "triage.h"
#include "version.h"
#include "wait_chains.h"

static const char style[] =
	"body{font-family:sans-serif;margin:1em 2em;color:#111;background:#fff}\n"
	"h1{font-size:1.4em}summary{font-size:1.2em;font-weight:bold;cursor:pointer}\n"
	"details{margin:.6em 0}section>details>*:not(summary){margin-left:1em}\n"
	"pre{background:#f4f4f4;padding:.4em;overflow-x:auto;white-space:pre-wrap}\n"
	"table{border-collapse:collapse}td,th{padding:.1em .6em;text-align:left;vertical-align:top}\n"
	"th{background:#eee}.msg{font-weight:bold;color:#a00}\n"
	".group summary{font-size:1em;font-weight:normal}.count{font-weight:bold}\n"
	".chain{border:1px solid #bbb;border-radius:4px;padding:.4em;margin:.4em 0}\n"
	".chain.deadlock{border-color:#c00}.chead{font-weight:bold;margin-bottom:.3em}\n"
	".flow{display:flex;flex-wrap:wrap;align-items:center;gap:.3em}\n"
	".task{border:1px solid #555;border-radius:4px;padding:.2em .4em;background:#fafafa}\n"
	".task.root{background:#fdd;border-color:#c00}\n"
	".edge{font-size:.9em;color:#444}.edge::after{content:\" \\2192\"}\n"
	".end{font-style:italic}\n";

/* A writer's text captured, to be written escaped. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static FILE *capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	return c->f;
}

/* The captured text as <pre>, escaped; -ENOMEM if it could not be kept. */
static int capture_pre(FILE *out, struct capture *c)
{
	int ret = fclose(c->f) ? -ENOMEM : 0;

	if (!ret && c->len) {
		fputs("<pre>", out);
		ks_html_escape_n(out, c->buf, c->len);
		fputs("</pre>\n", out);
	}
	free(c->buf);
	return ret;
}

/* "unknown (why)" for a part that could not be read */
static void unknown(FILE *out, const char *what, const char *why)
{
	fputs("<p>", out);
	if (what)
		fprintf(out, "%s: ", what);
	fputs("unknown", out);
	if (*why) {
		fputs(" (", out);
		ks_html_escape(out, why);
		fputc(')', out);
	}
	fputs("</p>\n", out);
}

static void row(FILE *out, const char *key, const char *val)
{
	fprintf(out, "<tr><th>%s</th><td>", key);
	ks_html_escape(out, val);
	fputs("</td></tr>\n", out);
}

static const char *dump_of(const struct ks_triage *tr, char *buf, size_t len)
{
	if (tr->ps_err || tr->ps.cpu_err)
		return "unknown (panic_cpu cannot be read)";
	if (tr->ps.panic_cpu < 0)
		return "a running system (no CPU panicked)";
	snprintf(buf, len, "a panic, on CPU %d", tr->ps.panic_cpu);
	return buf;
}

static int html_machine(FILE *out, const struct ks_triage *tr)
{
	const struct ks_machine *m = &tr->machine;
	char buf[128], load[3][24];

	fputs("<table>\n", out);
	row(out, "Node name", m->uts_err ? "unknown" : m->nodename);
	row(out, "Release", m->uts_err ? "unknown" : m->release);
	row(out, "Machine", m->uts_err || !*m->machine ? "unknown" : m->machine);
	snprintf(buf, sizeof(buf), "%u present, %u online", m->present, m->online);
	row(out, "CPUs", m->cpus_err ? "unknown" : buf);
	ks_time_uptime(buf, sizeof(buf), m->uptime_ns);
	row(out, "Uptime", m->uptime_err ? "unknown" : buf);
	for (int i = 0; i < 3 && !m->load_err; i++)
		ks_machine_load(m->avenrun[i], load[i], sizeof(load[i]));
	snprintf(buf, sizeof(buf), "%s %s %s", load[0], load[1], load[2]);
	row(out, "Load average", m->load_err ? "unknown" : buf);
	row(out, "Command line", m->cmdline ? m->cmdline : "unknown");
	row(out, "Dump of", dump_of(tr, buf, sizeof(buf)));
	fputs("</table>\n", out);
	if (*tr->machine_why)
		unknown(out, "Not all of it could be read", tr->machine_why);
	return 0;
}

static const struct ks_cpu *cpu_of(const struct ks_triage *tr, int cpu)
{
	for (size_t i = 0; !tr->cpus_err && i < tr->cpus.nr; i++)
		if (tr->cpus.cpu[i].cpu == cpu)
			return &tr->cpus.cpu[i];
	return NULL;
}

/* The log's report that explains it, as the text says it. */
static void log_why(FILE *f, const struct ks_triage *tr)
{
	const struct ks_log_digest *d = &tr->log;
	const char *before = d->panicked ? " before the panic" : "";

	if (tr->log_err)
		return;
	if (!d->nr_why)
		fprintf(f, "The log has no oops, BUG, hung task, lockup, stall or OOM report%s.\n",
			before);
	else
		fprintf(f, "The log's report%s:\n", before);
	for (size_t i = 0; i < d->nr_why; i++)
		ks_format_log_record(f, false, &d->why[i]);
}

static int html_killed(FILE *out, const struct ks_triage *tr)
{
	const struct ks_panic_state *ps = &tr->ps;
	const struct ks_cpu *c;
	struct capture cap;
	int ret;

	if (tr->ps_err) {
		unknown(out, NULL, tr->ps_why);
		return 0;
	}
	if (tr->has_message) {
		fputs("<p class=\"msg\">", out);
		ks_html_escape(out, tr->message);
		fputs("</p>\n", out);
	}
	if (!capture_open(&cap))
		return -ENOMEM;
	ks_format_panic_head(cap.f, ps, tr->has_message ? tr->message : NULL);
	log_why(cap.f, tr);
	ret = capture_pre(out, &cap);
	if (ret || ps->cpu_err || ps->panic_cpu < 0)
		return ret;
	fputs("<h3>The panicking CPU</h3>\n", out);
	c = cpu_of(tr, ps->panic_cpu);
	if (!c) {
		unknown(out, NULL, tr->cpus_why);
		return 0;
	}
	if (!capture_open(&cap))
		return -ENOMEM;
	ks_format_cpu(cap.f, &tr->cpus, c, false);
	return capture_pre(out, &cap);
}

static int html_taint(FILE *out, const struct ks_triage *tr)
{
	struct capture cap;

	if (tr->ps_err) {
		unknown(out, NULL, tr->ps_why);
		return 0;
	}
	if (!capture_open(&cap))
		return -ENOMEM;
	ks_format_taint_text(cap.f, &tr->ps);
	return capture_pre(out, &cap);
}

static int html_memory(FILE *out, const struct ks_triage *tr)
{
	struct capture cap;

	if (!capture_open(&cap))
		return -ENOMEM;
	ks_triage_memory_text(cap.f, tr);
	return capture_pre(out, &cap);
}

/* A group's place: the longest since one of its tasks last ran first. */
struct group_order {
	size_t i;
	uint64_t age;
	size_t nr;
};

static int by_age(const void *a, const void *b)
{
	const struct group_order *x = a, *y = b;

	if (x->age != y->age)
		return x->age > y->age ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr > y->nr ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static void age_text(FILE *out, const struct ks_task *t)
{
	char a[KS_TIME_LEN];

	if (t->has_last_ran)
		fputs(ks_time_ms(a, sizeof(a), t->last_ran_ns), out);
	else
		fputc('?', out);
}

/* "PID (comm)" */
static void task_name(FILE *out, const struct ks_task *t)
{
	fprintf(out, "%d (", t->pid);
	ks_html_escape(out, t->comm);
	fputc(')', out);
}

static void html_state(FILE *out, char state)
{
	char str[2] = { state, 0 };

	ks_html_escape(out, str);
}

/*
 * The group's signature, one per state of its tasks, as the text's -c
 * line and the JSON name it, so that a page and a log can be matched.
 */
static const struct ks_sig_style html_sigs = {
	", signature", ", signatures", "<code class=\"signature\">", "</code>",
	html_state
};

/* One group: its count, its oldest task and three examples, its stack. */
static void html_group(FILE *out, const struct ks_sample *s,
		       const struct ks_group *g, const struct ks_task *oldest)
{
	fprintf(out, "<details open class=\"group\"><summary><span class=\"count\">%zu</span> task%s",
		g->nr_members, ks_plural(g->nr_members));
	fputs(", oldest ", out);
	age_text(out, oldest);
	ks_format_signatures(out, s, g, &html_sigs);
	fputs(", e.g. ", out);
	for (size_t j = 0; j < g->nr_members && j < 3; j++) {
		if (j)
			fputs(", ", out);
		task_name(out, &s->tasks[g->members[j]]);
	}
	fputs("</summary>\n<pre>", out);
	ks_html_escape(out, g->stack);
	if (g->missing)
		fputs("(the rest of this stack is not in the dump)\n", out);
	fputs("</pre></details>\n", out);
}

static int html_groups(FILE *out, const struct ks_sample *s,
		       const struct ks_groups *gs)
{
	struct group_order *o = calloc(gs->nr_groups ? gs->nr_groups : 1, sizeof(*o));
	size_t *old = calloc(gs->nr_groups ? gs->nr_groups : 1, sizeof(*old));

	if (!o || !old) {
		free(o);
		free(old);
		return -ENOMEM;
	}
	for (size_t i = 0; i < gs->nr_groups; i++) {
		const struct ks_group *g = &gs->groups[i];

		o[i] = (struct group_order){ i, 0, g->nr_members };
		old[i] = g->members[0];
		for (size_t j = 0; j < g->nr_members; j++) {
			const struct ks_task *t = &s->tasks[g->members[j]];

			if (t->has_last_ran && t->last_ran_ns > o[i].age) {
				o[i].age = t->last_ran_ns;
				old[i] = g->members[j];
			}
		}
	}
	qsort(o, gs->nr_groups, sizeof(*o), by_age);
	for (size_t i = 0; i < gs->nr_groups; i++)
		html_group(out, s, &gs->groups[o[i].i], &s->tasks[old[o[i].i]]);
	free(o);
	free(old);
	return 0;
}

/* "PID (comm) S 5.2s": a task in a box; a dump's state letter escaped */
static void task_text(FILE *out, const struct ks_task *t)
{
	task_name(out, t);
	fputc(' ', out);
	html_state(out, t->state);
	fputc(' ', out);
	age_text(out, t);
}

static void task_box(FILE *out, const struct ks_task *t, bool root)
{
	fprintf(out, "<span class=\"task%s\">", root ? " root" : "");
	task_text(out, t);
	if (root)
		fputs(", holds it: the root blocker", out);
	fputs("</span>\n", out);
}

/*
 * The lock t waits for, an arrow to the next box; last: the box of who
 * holds it, there being no next task of the chain (the holder is not in
 * D, or the lock is the first task's: a deadlock's cycle).
 */
static void edge(FILE *out, const struct ks_task *t, bool last, bool cycle)
{
	const struct ks_task_wait *w = &t->wait;

	fputs("<span class=\"edge\">waits for ", out);
	ks_html_escape(out, w->kind);
	fprintf(out, " %#llx", (unsigned long long)w->addr);
	if (*w->where) {
		fputc(' ', out);
		ks_html_escape(out, w->where);
	}
	fputs("</span>\n", out);
	if (!last)
		return;
	if (w->readers)
		fprintf(out, "<span class=\"task root\">readers (%llu) hold it</span>\n",
			(unsigned long long)w->nr_readers);
	else if (cycle)
		fprintf(out, "<span class=\"task root\">%d, the first: a cycle</span>\n",
			w->owner_pid);
	else if (w->owner_pid)
		fprintf(out, "<span class=\"task root\">%d holds it%s</span>\n", w->owner_pid,
			w->last_holder ? " (last holder)" : "");
	else if (w->owner)
		fprintf(out, "<span class=\"task root\">%#llx holds it, no task of the dump</span>\n",
			(unsigned long long)w->owner);
	else
		fprintf(out, "<span class=\"end\">%s</span>\n",
			w->ownerless ? "no owner recorded" : "no owner");
}

/*
 * The first waiter's box, with the other waiters for its lock in it
 * (format_waits.c lists them on lines of their own).
 */
static void head_box(FILE *out, const struct ks_sample *s,
		     const struct ks_wait_chain *c)
{
	fputs("<span class=\"task\">", out);
	task_text(out, &s->tasks[c->task[0]]);
	for (size_t j = 0; j < c->nr_also; j++) {
		fputs("<br>", out);
		task_text(out, &s->tasks[c->also[j]]);
	}
	fputs("</span>\n", out);
}

/* One chain as boxes and arrows: each task, then the lock it waits for. */
static void html_chain(FILE *out, const struct ks_sample *s,
		       const struct ks_wait_chain *c, size_t n, size_t nr_deadlocks)
{
	size_t nr = c->nr + c->nr_also;

	fprintf(out, "<div class=\"chain%s\"><div class=\"chead\">%s %zu, %zu task%s</div>\n<div class=\"flow\">\n",
		c->deadlock ? " deadlock" : "", c->deadlock ? "deadlock" : "chain",
		n, nr, ks_plural(nr));
	for (size_t i = 0; i < c->nr; i++) {
		const struct ks_task *t = &s->tasks[c->task[i]];
		bool last = i + 1 == c->nr;

		if (i == 0 && c->nr_also && t->has_wait) {
			head_box(out, s, c);
			edge(out, t, last, last && c->deadlock);
		} else if (last && c->into_deadlock) {
			task_box(out, t, false);
			fprintf(out, "<span class=\"end\">in deadlock %zu</span>\n",
				c->deadlock_of + 1);
		} else if (last && c->joins) {
			task_box(out, t, false);
			fprintf(out, "<span class=\"end\">waits on as in chain %zu</span>\n",
				c->joins_of + 1 - nr_deadlocks);
		} else if (t->has_wait) {
			task_box(out, t, false);
			edge(out, t, last, last && c->deadlock);
		} else {
			task_box(out, t, true);
		}
	}
	fputs("</div></div>\n", out);
}

/* --waits' chains and deadlocks, drawn. */
static int html_blockers(FILE *out, const struct ks_sample *s)
{
	struct ks_wait_chains c;
	size_t ch = 0;
	int ret = ks_wait_chains_of(s, &c);

	if (ret)
		goto out;
	fputs("<h3>Who blocks whom</h3>\n", out);
	if (s->waits_note) {
		fputs("<p>(", out);
		ks_html_escape(out, s->waits_note);
		fputs(")</p>\n", out);
	}
	for (size_t i = 0; i < c.nr; i++)
		html_chain(out, s, &c.v[i], c.v[i].deadlock ? i + 1 : ++ch,
			   c.nr_deadlocks);
	if (!c.nr && !s->waits_unread)
		fputs("<p>No task waits for a lock.</p>\n", out);
out:
	ks_wait_chains_release(&c);
	return ret;
}

static int html_stuck(FILE *out, const struct ks_triage *tr)
{
	const struct ks_sample *s = &tr->stuck;
	size_t ng = tr->stuck_groups.nr_groups;
	int ret;

	if (tr->stuck_err) {
		unknown(out, "The tasks in D", tr->stuck_why);
		return 0;
	}
	if (!s->nr_tasks) {
		fputs("<p>No task is in D (uninterruptible sleep).</p>\n", out);
		return 0;
	}
	fprintf(out, "<p>%zu task%s in D, %zu distinct stack%s, the longest since it last ran first:</p>\n",
		s->nr_tasks, ks_plural(s->nr_tasks), ng, ks_plural(ng));
	ret = html_groups(out, s, &tr->stuck_groups);
	if (!ret)
		ret = html_blockers(out, s);
	return ret;
}

static void cpu_row(FILE *out, const struct ks_cpu *c)
{
	fprintf(out, "<tr><td>%d</td><td>%d</td><td>", c->cpu, c->pid);
	ks_html_escape(out, c->comm);
	fputs("</td><td>", out);
	if (c->offline)
		fputs("offline, ", out);
	if (c->idle)
		fputs("idle, ", out);
	if (c->switching) {
		fprintf(out, "switching to PID %d (", c->next_pid);
		ks_html_escape(out, c->next_comm);
		fputs("), ", out);
	}
	if (c->user)
		fputs("in user mode", out);
	else if (c->ip_text)
		ks_html_escape(out, c->ip_text);
	else
		fputs("its registers are not in the dump", out);
	fputs("</td></tr>\n", out);
}

static int html_cpus(FILE *out, const struct ks_triage *tr)
{
	const struct ks_cpus *cs = &tr->cpus;
	int panicked = tr->ps_err || tr->ps.cpu_err ? -1 : tr->ps.panic_cpu;
	struct capture cap;

	if (tr->cpus_err) {
		unknown(out, NULL, tr->cpus_why);
		return 0;
	}
	fputs("<table>\n<tr><th>CPU</th><th>PID</th><th>comm</th><th>where</th></tr>\n", out);
	for (size_t i = 0; i < cs->nr; i++)
		cpu_row(out, &cs->cpu[i]);
	fputs("</table>\n", out);
	if (!capture_open(&cap))
		return -ENOMEM;
	for (size_t i = 0; i < cs->nr; i++) {
		const struct ks_cpu *c = &cs->cpu[i];

		if (!c->idle && !c->offline && c->cpu != panicked)
			ks_format_cpu(cap.f, cs, c, false);
	}
	if (cap.f && ftell(cap.f) > 0)
		fputs("<h3>The CPUs that are not idle (the panicking one is in What killed it)</h3>\n",
		      out);
	return capture_pre(out, &cap);
}

static int html_hooks(FILE *out, const struct ks_triage *tr)
{
	struct capture cap;

	if (!capture_open(&cap))
		return -ENOMEM;
	if (tr->kprobes_err)
		fprintf(cap.f, "kprobes: unknown%s%s%s\n", *tr->kprobes_why ? " (" : "",
			tr->kprobes_why, *tr->kprobes_why ? ")" : "");
	else if (!tr->kprobes.n)
		fputs("kprobes: none\n", cap.f);
	else
		ks_kprobe_write(cap.f, tr->t, &tr->kprobes,
				ks_kprobes_enabled(tr->t), false);
	if (ks_triage_ftrace(cap.f, tr->t, false))
		fputs("ftrace: unknown (its records cannot be read)\n", cap.f);
	return capture_pre(out, &cap);
}

static int html_warnings(FILE *out, const struct ks_log_digest *d)
{
	struct capture cap;

	fprintf(out, "<p>Errors and warnings (level 4 and below): %lu record%s, %zu distinct</p>\n",
		d->nr_warn_records, ks_plural(d->nr_warn_records), d->nr_warn);
	if (!d->nr_warn)
		return 0;
	fputs("<table>\n<tr><th>count</th><th>first record</th></tr>\n", out);
	for (size_t i = 0; i < d->nr_warn; i++) {
		if (!capture_open(&cap))
			return -ENOMEM;
		ks_format_log_record(cap.f, false, &d->warn[i].rec);
		fprintf(out, "<tr><td>%lu</td><td>", d->warn[i].count);
		if (capture_pre(out, &cap))
			return -ENOMEM;
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	if (d->warn_left_out)
		fprintf(out, "<p>(%lu more records of other texts)</p>\n", d->warn_left_out);
	return 0;
}

static int html_log(FILE *out, const struct ks_triage *tr)
{
	const struct ks_log_digest *d = &tr->log;
	struct capture cap;
	int ret;

	if (tr->log_err) {
		unknown(out, NULL, tr->log_why);
		return 0;
	}
	ret = html_warnings(out, d);
	if (ret)
		return ret;
	fprintf(out, "<h3>The last %zu of %lu lines</h3>\n", d->nr_last, d->nr_records);
	if (!capture_open(&cap))
		return -ENOMEM;
	for (size_t i = 0; i < d->nr_last; i++)
		ks_format_log_record(cap.f, false, ks_log_digest_last(d, i));
	return capture_pre(out, &cap);
}

/* The page's sections, in the text's order: a new one is a row here. */
static const struct {
	const char *id;
	const char *title;
	int (*body)(FILE *out, const struct ks_triage *tr);
} sections[] = {
	{ "machine", "The machine", html_machine },
	{ "killed", "What killed it", html_killed },
	{ "taint", "Taint", html_taint },
	{ "memory", "Memory", html_memory },
	{ "stuck", "Who is stuck", html_stuck },
	{ "cpus", "Every CPU", html_cpus },
	{ "hooks", "Who touched the kernel", html_hooks },
	{ "log", "The log", html_log },
};

#define NR_SECTIONS	(sizeof(sections) / sizeof(sections[0]))

static void head(FILE *out, const struct ks_triage *tr)
{
	const struct ks_machine *m = &tr->machine;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>kstack triage", out);
	if (!m->uts_err) {
		fputs(": ", out);
		ks_html_escape(out, m->nodename);
		fputc(' ', out);
		ks_html_escape(out, m->release);
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>kstack triage</h1>\n"
		"<p>Written by kstack %s.</p>\n<nav><p>", style, KS_VERSION);
	for (size_t i = 0; i < NR_SECTIONS; i++)
		fprintf(out, "%s<a href=\"#%s\">%s</a>", i ? " | " : "",
			sections[i].id, sections[i].title);
	fputs("</p></nav>\n", out);
}

int ks_triage_html(FILE *out, const struct ks_triage *tr)
{
	int ret;

	head(out, tr);
	for (size_t i = 0; i < NR_SECTIONS; i++) {
		fprintf(out, "<section id=\"%s\">\n<details open>\n<summary>%s</summary>\n",
			sections[i].id, sections[i].title);
		ret = sections[i].body(out, tr);
		if (ret)
			return ret;
		fputs("</details>\n</section>\n", out);
	}
	fputs("</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}

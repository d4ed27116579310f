// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack triage --json: one document, every section a key (the layout
 * is docs/triage-json.md).  Each section's value is what its own view
 * prints with --json (--panic's object, --cpus' objects, a -D --waits
 * sample, -K's and -F's records, --log's records; the memory's are
 * /proc/meminfo's names), so a program reads the same keys in both; the document spans lines where those objects
 * end theirs.
 */
#include <errno.h>
#include <inttypes.h>

#include "format.h"
#include "format_cpus.h"
#include "format_log.h"
#include "format_panic.h"
#include "hooks_json.h"
#include "triage.h"
#include "version.h"

/* "key": the reason a part could not be read, or null */
static void json_why(FILE *out, const char *key, int err, const char *why)
{
	fprintf(out, ",\"%s\":", key);
	if (!err)
		fputs("null", out);
	else
		ks_json_str(out, *why ? why : "unknown");
}

static void json_num(FILE *out, const char *key, int err, uint64_t v)
{
	if (err)
		fprintf(out, ",\"%s\":null", key);
	else
		fprintf(out, ",\"%s\":%" PRIu64, key, v);
}

static void json_uts(FILE *out, const struct ks_machine *m)
{
	const char *keys[] = { "nodename", "release", "machine" };
	const char *vals[] = { m->nodename, m->release, m->machine };

	for (int i = 0; i < 3; i++) {
		fprintf(out, "%s\"%s\":", i ? "," : "", keys[i]);
		if (m->uts_err || !*vals[i])
			fputs("null", out);
		else
			ks_json_str(out, vals[i]);
	}
}

static void json_machine(FILE *out, const struct ks_triage *tr)
{
	const struct ks_machine *m = &tr->machine;
	char load[24];

	fputs(",\"machine\":{", out);
	json_uts(out, m);
	json_num(out, "cpus_present", m->cpus_err, m->present);
	json_num(out, "cpus_online", m->cpus_err, m->online);
	json_num(out, "uptime_ns", m->uptime_err, m->uptime_ns);
	fputs(",\"loadavg\":", out);
	for (int i = 0; i < 3 && !m->load_err; i++) {
		ks_machine_load(m->avenrun[i], load, sizeof(load));
		fprintf(out, "%s%s", i ? "," : "[", load);
	}
	fputs(m->load_err ? "null" : "]", out);
	fputs(",\"cmdline\":", out);
	if (m->cmdline)
		ks_json_str(out, m->cmdline);
	else
		fputs("null", out);
	fputs(",\"panicked\":", out);
	if (tr->ps_err || tr->ps.cpu_err)
		fputs("null", out);
	else
		fputs(tr->ps.panic_cpu >= 0 ? "true" : "false", out);
	json_why(out, "not_read", tr->machine_why[0], tr->machine_why);
	fputc('}', out);
}

static void json_panic(FILE *out, const struct ks_triage *tr)
{
	const struct ks_panic_state *ps = &tr->ps;
	const struct ks_cpu *c = NULL;

	fputs(",\"panic\":", out);
	if (tr->ps_err)
		fputs("null", out);
	else
		ks_format_panic_json(out, ps, tr->has_message ? tr->message : NULL);
	fputs(",\"report\":[", out);
	for (size_t i = 0; !tr->log_err && i < tr->log.nr_why; i++) {
		if (i)
			fputc(',', out);
		ks_format_log_record(out, true, &tr->log.why[i]);
	}
	fputs("],\"panic_cpu\":", out);
	for (size_t i = 0; !tr->ps_err && !ps->cpu_err && !tr->cpus_err &&
			   i < tr->cpus.nr; i++)
		if (tr->cpus.cpu[i].cpu == ps->panic_cpu)
			c = &tr->cpus.cpu[i];
	if (c)
		ks_format_cpu(out, &tr->cpus, c, true);
	else
		fputs("null", out);
}

static void json_meminfo(FILE *out, const struct ks_memory *m)
{
	for (int i = 0; i < KS_MEM_NR_LINES; i++) {
		fprintf(out, "%s\"%s\":", i ? "," : "{", ks_mem_line_names[i]);
		if (m->known[i])
			fprintf(out, "%" PRIu64, m->kb[i]);
		else
			fputs("null", out);
	}
	if (!m->huge_err)
		fprintf(out, ",\"HugePages_Total\":%" PRIu64 ",\"HugePages_Free\":%"
			PRIu64 ",\"Hugepagesize\":%" PRIu64, m->huge_total,
			m->huge_free, m->huge_page_kb);
	fputc('}', out);
}

static void json_slabs(FILE *out, const struct ks_triage *tr)
{
	const struct ks_memory *m = &tr->mem;

	fputs(",\"slab_caches\":", out);
	if (m->slab_err) {
		fputs("null", out);
	} else {
		for (size_t i = 0; i < m->nr_top; i++) {
			const struct ks_mem_slab *c = &m->top[i];

			fputs(i ? ",{\"name\":" : "[{\"name\":", out);
			ks_json_str(out, c->name);
			fprintf(out, ",\"bytes\":%" PRIu64 ",\"slabs\":%" PRIu64
				",\"objects\":%" PRIu64 ",\"object_size\":%" PRIu64 "}",
				c->bytes, c->slabs, c->objects, c->object_size);
		}
		fputs(m->nr_top ? "]" : "[]", out);
	}
	json_num(out, "slab_caches_read", m->slab_err, m->nr_caches);
	json_why(out, "slab_not_read", tr->slab_why[0], tr->slab_why);
}

static void json_memory(FILE *out, const struct ks_triage *tr)
{
	const struct ks_memory *m = &tr->mem;

	fputs(",\"memory\":{\"meminfo\":", out);
	if (m->page_err)
		fputs("null", out);
	else
		json_meminfo(out, m);
	json_why(out, "not_read", tr->mem_why[0], tr->mem_why);
	json_slabs(out, tr);
	fputs(",\"oom_victim\":", out);
	if (!tr->log_err && tr->log.has_oom)
		ks_format_log_record(out, true, &tr->log.oom);
	else
		fputs("null", out);
	fputc('}', out);
}

/* "chain" or "deadlock": its number as the "== waits" section gives it */
static void json_root_chain(FILE *out, const struct ks_triage *tr)
{
	const struct ks_wait_chains *c = &tr->stuck_chains;
	size_t dl = c->nr_deadlocks;
	if (tr->root.deadlock)
		fprintf(out, "\"deadlock\":%zu,\"chain\":null", tr->root.chain + 1);
	else
		fprintf(out, "\"deadlock\":null,\"chain\":%zu",
			tr->root.chain + 1 - dl);
	fprintf(out, ",\"tasks\":%zu", tr->root.length);
}

static void json_root_task(FILE *out, const struct ks_task *t)
{
	fprintf(out, ",\"pid\":%d,\"comm\":", t->pid);
	ks_json_str(out, t->comm);
	fprintf(out, ",\"state\":\"%c\",\"on_cpu\":%s,\"frames\":", t->state,
		t->running ? "true" : "false");
	ks_json_frames(out, t->stack);
}

/* The root blocker (triage_text.c's), null where no task waits. */
static void json_root(FILE *out, const struct ks_triage *tr)
{
	const struct ks_wait_root *r = &tr->root;
	const struct ks_task *t;

	fputs(",\"root_blocker\":", out);
	if (!r->found) {
		fputs("null", out);
		return;
	}
	fputc('{', out);
	json_root_chain(out, tr);
	t = r->deadlock ? NULL : &tr->stuck.tasks[r->task];
	if (r->deadlock) {
		fputs(",\"pids\":[", out);
		for (size_t i = 0; i < tr->stuck_chains.v[r->chain].nr; i++)
			fprintf(out, "%s%d", i ? "," : "", tr->stuck.tasks[
				tr->stuck_chains.v[r->chain].task[i]].pid);
		fputc(']', out);
	} else if (!r->beyond) {
		fputs(",\"holder\":false", out);
		json_root_task(out, t);
	} else if (tr->root_owner.nr_tasks) {
		fputs(",\"holder\":true", out);
		json_root_task(out, &tr->root_owner.tasks[0]);
	} else {
		fprintf(out, ",\"holder\":true,\"pid\":%d,\"comm\":null", tr->root_pid);
	}
	fputc('}', out);
}

static int json_stuck(FILE *out, const struct ks_triage *tr)
{
	const struct ks_format_opts opts = { .format = KS_FMT_JSON, .waits = true };

	int ret;

	fputs(",\"stuck\":", out);
	if (tr->stuck_err) {
		fputs("null,\"root_blocker\":null", out);
		return 0;
	}
	ret = ks_format_json(out, &tr->stuck, &tr->stuck_groups, &opts);
	json_root(out, tr);
	return ret;
}

static void json_cpus(FILE *out, const struct ks_triage *tr)
{
	fputs(",\"cpus\":", out);
	if (tr->cpus_err) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	for (size_t i = 0; i < tr->cpus.nr; i++) {
		if (i)
			fputc(',', out);
		ks_format_cpu(out, &tr->cpus, &tr->cpus.cpu[i], true);
	}
	fputc(']', out);
}

static void json_hooks(FILE *out, const struct ks_triage *tr)
{
	fputs(",\"kprobes\":", out);
	if (tr->hooks) {
		tr->hooks->write(tr->hooks->arg, out, false, true);
		fputs(",\"ftrace\":", out);
		tr->hooks->write(tr->hooks->arg, out, true, true);
		return;
	}
	if (tr->kprobes_err) {
		fputs("null", out);
	} else {
		fputc('[', out);
		for (size_t i = 0; i < tr->kprobes.n; i++) {
			if (i)
				fputc(',', out);
			ks_kprobe_json(out, tr->t, &tr->kprobes.v[i]);
		}
		fputc(']', out);
	}
	fputs(",\"ftrace\":", out);
	/* a walk cut short leaves its array whole: [] or the records read */
	ks_triage_ftrace(out, tr->t, true);
}

static void json_log(FILE *out, const struct ks_triage *tr)
{
	const struct ks_log_digest *d = &tr->log;

	fputs(",\"log\":", out);
	if (tr->log_err) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"records\":%lu,\"warnings_records\":%lu,"
		"\"warnings_left_out\":%lu,\"warnings\":[", d->nr_records,
		d->nr_warn_records, d->warn_left_out);
	for (size_t i = 0; i < d->nr_warn; i++) {
		fprintf(out, "%s{\"count\":%lu,\"first\":", i ? "," : "",
			d->warn[i].count);
		ks_format_log_record(out, true, &d->warn[i].rec);
		fputc('}', out);
	}
	fputs("],\"last\":[", out);
	for (size_t i = 0; i < d->nr_last; i++) {
		if (i)
			fputc(',', out);
		ks_format_log_record(out, true, ks_log_digest_last(d, i));
	}
	fputs("]}", out);
}

int ks_triage_json(FILE *out, const struct ks_triage *tr)
{
	int ret;

	fprintf(out, "{\"schema\":1,\"version\":\"%s\"", KS_VERSION);
	json_machine(out, tr);
	json_panic(out, tr);
	json_memory(out, tr);
	ret = json_stuck(out, tr);
	if (ret)
		return ret;
	json_cpus(out, tr);
	json_hooks(out, tr);
	json_log(out, tr);
	fputs("}\n", out);
	return ferror(out) ? -EIO : 0;
}

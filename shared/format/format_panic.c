// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --panic's header as text and JSON.  The Tainted: line is the kernel's
 * print_tainted() (kernel/panic.c): "Tainted: " and, for every entry of
 * taint_flags[] in order, c_true when its bit is set, else c_false; the
 * table comes from the dump, so each kernel spells its own positions.
 */
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "format_panic.h"
#include "panic_message.h"
#include "text_escape.h"

void ks_panic_tainted(const struct ks_panic_state *ps, char *buf, size_t len)
{
	size_t n;

	if (ps->taint_err) {
		snprintf(buf, len, "Tainted: unknown");
		return;
	}
	if (!ps->tainted_mask) {
		snprintf(buf, len, "Not tainted");
		return;
	}
	if (!ps->nr_flags) {
		snprintf(buf, len, "Tainted: 0x%" PRIx64, ps->tainted_mask);
		return;
	}
	n = (size_t)snprintf(buf, len, "Tainted: ");
	for (int i = 0; i < ps->nr_flags && n + 1 < len; i++) {
		const struct ks_taint_flag *f = &ps->flags[i];

		buf[n++] = ps->tainted_mask & (1ull << i) ? f->c_true : f->c_false;
	}
	buf[n < len ? n : len - 1] = '\0';
}

static bool bit_set(const struct ks_panic_state *ps, int i)
{
	return !ps->taint_err && (ps->tainted_mask & (1ull << i));
}

static void text_panic_line(FILE *out, const struct ks_panic_state *ps)
{
	if (ps->cpu_err) {
		fputs("Panic: unknown (panic_cpu cannot be read)\n", out);
		return;
	}
	if (ps->panic_cpu < 0) {
		fprintf(out, "Panic: none (panic_cpu is %d)\n", ps->panic_cpu);
		return;
	}
	fprintf(out, "Panic: CPU %d", ps->panic_cpu);
	if (!ps->task_err) {
		fprintf(out, ", PID %d (", ps->pid);
		ks_fputs_escaped(ps->comm, out);
		fputc(')', out);
	}
	fputc('\n', out);
}

void ks_format_panic_head(FILE *out, const struct ks_panic_state *ps,
			  const char *message)
{
	text_panic_line(out, ps);
	if (message) {
		fputs("Message: ", out);
		ks_fputs_escaped(message, out);
		fputc('\n', out);
	}
}

void ks_format_taint_text(FILE *out, const struct ks_panic_state *ps)
{
	char tainted[128];

	ks_panic_tainted(ps, tainted, sizeof(tainted));
	fprintf(out, "%s\n", tainted);
	for (int i = 0; i < ps->nr_flags; i++) {
		const struct ks_taint_flag *f = &ps->flags[i];

		if (!bit_set(ps, i))
			continue;
		fprintf(out, "  %c", f->c_true);
		if (f->desc[0])
			fprintf(out, " (%s)", f->desc);
		if (f->modules)
			fprintf(out, ": %s", f->modules);
		fputc('\n', out);
	}
}

void ks_format_panic_text(FILE *out, const struct ks_panic_state *ps,
			  const char *message)
{
	ks_format_panic_head(out, ps, message);
	ks_format_taint_text(out, ps);
}

/* "modules":["a","b"] from the flag's space-separated list. */
static void json_modules(FILE *out, const char *list)
{
	char name[64];
	const char *p = list;

	fputs(",\"modules\":[", out);
	while (p && *p) {
		size_t n = strcspn(p, " ");

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (p != list)
			fputc(',', out);
		ks_json_str(out, name);
		p += n + (p[n] == ' ');
	}
	fputc(']', out);
}

static void json_taints(FILE *out, const struct ks_panic_state *ps)
{
	bool first = true;

	fputs(",\"taints\":[", out);
	for (int i = 0; i < ps->nr_flags; i++) {
		const struct ks_taint_flag *f = &ps->flags[i];

		if (!bit_set(ps, i))
			continue;
		fprintf(out, "%s{\"bit\":%d,\"letter\":\"%c\"", first ? "" : ",",
			i, f->c_true);
		if (f->desc[0]) {
			fputs(",\"desc\":", out);
			ks_json_str(out, f->desc);
		}
		json_modules(out, f->modules);
		fputc('}', out);
		first = false;
	}
	fputc(']', out);
}

void ks_format_panic_json(FILE *out, const struct ks_panic_state *ps,
			  const char *message)
{
	char tainted[128];

	fputs("{\"panic_cpu\":", out);
	if (ps->cpu_err)
		fputs("null", out);
	else
		fprintf(out, "%d", ps->panic_cpu);
	if (!ps->cpu_err && ps->panic_cpu >= 0 && !ps->task_err) {
		fprintf(out, ",\"pid\":%d,\"comm\":", ps->pid);
		ks_json_str(out, ps->comm);
	}
	fputs(",\"message\":", out);
	if (message)
		ks_json_str(out, message);
	else
		fputs("null", out);
	if (!ps->taint_err)
		fprintf(out, ",\"tainted_mask\":%" PRIu64, ps->tainted_mask);
	ks_panic_tainted(ps, tainted, sizeof(tainted));
	fputs(",\"tainted\":", out);
	ks_json_str(out, tainted);
	json_taints(out, ps);
	fputs("}\n", out);
}

int ks_panic_report(const struct ks_target *t, bool json, FILE *out,
		    const struct ks_reporter *rep)
{
	struct ks_panic_state ps;
	int ret = ks_panic_state_read(t, &ps, rep);

	if (!ret) {
		char buf[512];
		/* the log may be unreadable: the panic's CPU and taint stand */
		const char *message = !ps.cpu_err && ps.panic_cpu >= 0 &&
			!ks_panic_message(t, buf, sizeof(buf), NULL) ? buf : NULL;

		if (json)
			ks_format_panic_json(out, &ps, message);
		else
			ks_format_panic_text(out, &ps, message);
	}
	ks_panic_state_release(&ps);
	if (!ret && ps.cpu_err && ps.taint_err)
		ret = ps.cpu_err;
	return ret;
}

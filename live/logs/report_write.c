// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "live_say.h"
#include "format.h"
#include "report_write.h"
#include "text_escape.h"

void ks_rpw_time(char *buf, size_t len, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "@%lld", (long long)t);
}

void ks_rpw_duration(char *buf, size_t len, time_t secs)
{
	long long s = secs, h = s / 3600, m = s / 60 % 60;

	if (h)
		snprintf(buf, len, "%lldh%02lldm%02llds", h, m, s % 60);
	else if (m)
		snprintf(buf, len, "%lldm%02llds", m, s % 60);
	else
		snprintf(buf, len, "%llds", s);
}

/* a state letter as a JSON string: a log may hold any byte there */
static void json_state(FILE *out, char state)
{
	char s[2] = { state, '\0' };

	fputs(",\"state\":", out);
	ks_json_str(out, s);
}

/* "NAME":EPOCH,"NAME_text":"YYYY-MM-DD HH:MM:SS" */
static void json_time(FILE *out, const char *name, time_t t)
{
	char when[32];

	ks_rpw_time(when, sizeof(when), t);
	fprintf(out, "\"%s\":%lld,\"%s_text\":\"%s\"", name, (long long)t, name,
		when);
}

void ks_rpw_section(struct ks_rp_writer *w, const char *title)
{
	if (!w->json)
		fprintf(w->out, "\n== %s\n", title);
}

void ks_rpw_summary(struct ks_rp_writer *w, unsigned long samples,
		    time_t first, time_t last, unsigned long files)
{
	char a[32], b[32], d[32];

	if (w->json) {
		fprintf(w->out, "{\"type\":\"period\",\"samples\":%lu,\"files\":%lu,",
			samples, files);
		json_time(w->out, "first", first);
		fputc(',', w->out);
		json_time(w->out, "last", last);
		fprintf(w->out, ",\"seconds\":%lld}\n", (long long)(last - first));
		return;
	}
	ks_rpw_time(a, sizeof(a), first);
	ks_rpw_time(b, sizeof(b), last);
	ks_rpw_duration(d, sizeof(d), last - first);
	fprintf(w->out, "%lu sample(s) from %lu file(s), %s to %s (%s)\n",
		samples, files, a, b, d);
}

void ks_rpw_sample(struct ks_rp_writer *w, const struct ks_rp_sample *s)
{
	char when[32];

	if (w->json) {
		fputs("{\"type\":\"sample\",", w->out);
		json_time(w->out, "time", s->time);
		fprintf(w->out, ",\"tasks\":%zu,\"d_tasks\":%zu,\"groups\":%zu}\n",
			s->total, s->nr_d, s->nr_groups);
		return;
	}
	ks_rpw_time(when, sizeof(when), s->time);
	fprintf(w->out, "%s   tasks %5zu   D %4zu   stacks %4zu\n", when,
		s->total, s->nr_d, s->nr_groups);
}

void ks_rpw_gap(struct ks_rp_writer *w, time_t from, time_t to)
{
	char d[32];

	if (w->json) {
		fputs("{\"type\":\"gap\",", w->out);
		json_time(w->out, "from", from);
		fputc(',', w->out);
		json_time(w->out, "to", to);
		fprintf(w->out, ",\"seconds\":%lld}\n", (long long)(to - from));
		return;
	}
	ks_rpw_duration(d, sizeof(d), to - from);
	fprintf(w->out, "-- no samples for %s: kstack was not running --\n", d);
}

void ks_rpw_cut(struct ks_rp_writer *w, const char *file, const char *why)
{
	ks_live_say("report: %s: %s; read as far as it goes", file,
		    why);
	if (!w->json)
		return;
	fputs("{\"type\":\"cut\",\"file\":", w->out);
	ks_json_str(w->out, file);
	fputs(",\"reason\":", w->out);
	ks_json_str(w->out, why);
	fputs("}\n", w->out);
}

/* a state's count, after the ones before it */
struct state_out {
	FILE *out;
	int n;
};

/*
 * The stack, one frame a line, as -c prints it: a log may hold any byte
 * in a frame, escaped here as the text formats escape a Cmd.
 */
static void text_stack(FILE *out, const char *stack)
{
	if (!*stack) {
		fputs("(empty stack)\n", out);
		return;
	}
	while (*stack) {
		size_t n = strcspn(stack, "\n");

		ks_fwrite_escaped(stack, n, out);
		fputc('\n', out);
		stack += n + (stack[n] == '\n');
	}
}

void ks_rpw_stuck(struct ks_rp_writer *w, const struct ks_rp_streak *k,
		  const struct ks_rp_stack *stack)
{
	char a[32], b[32], d[32];

	if (w->json) {
		fprintf(w->out, "{\"type\":\"stuck\",\"pid\":%d,\"cmd\":", k->pid);
		ks_json_str(w->out, k->cmd);
		json_state(w->out, k->state);
		fputc(',', w->out);
		json_time(w->out, "first_seen", k->first);
		fputc(',', w->out);
		json_time(w->out, "last_seen", k->last);
		fprintf(w->out, ",\"seconds\":%lld,\"samples\":%lu,\"stack\":",
			(long long)(k->last - k->first), k->samples);
		ks_json_frames(w->out, stack->text);
		fputs("}\n", w->out);
		return;
	}
	ks_rpw_time(a, sizeof(a), k->first);
	ks_rpw_time(b, sizeof(b), k->last);
	ks_rpw_duration(d, sizeof(d), k->last - k->first);
	fprintf(w->out, "\nPID: %5d   State: %c   for %s (%lu samples)   first seen %s   last seen %s   Cmd: ",
		k->pid, k->state, d, k->samples, a, b);
	ks_fputs_escaped(k->cmd, w->out);
	fputc('\n', w->out);
	text_stack(w->out, stack->text);
}

static void text_state(char state, unsigned long n, void *arg)
{
	struct state_out *o = arg;

	fprintf(o->out, "%s %c %lu", o->n++ ? "," : "", state, n);
}

static void json_state_count(char state, unsigned long n, void *arg)
{
	struct state_out *o = arg;
	char key[2] = { state, '\0' };

	fputs(o->n++ ? "," : "", o->out);
	ks_json_str(o->out, key);
	fprintf(o->out, ":%lu", n);
}

void ks_rpw_signature(struct ks_rp_writer *w, const struct ks_rp_sig *e)
{
	if (w->json) {
		fprintf(w->out, "{\"type\":\"signature\",\"signature\":\"%s\"", e->sig);
		json_state(w->out, e->state);
		fprintf(w->out, ",\"first\":%lu,\"last\":%lu,\"most\":%lu,\"stayed\":%lu,\"top\":",
			e->first, e->last, e->most, e->stayed);
		ks_json_str(w->out, e->top);
		if (e->stayed) {
			fprintf(w->out, ",\"example\":{\"pid\":%d,\"cmd\":", e->example);
			ks_json_str(w->out, e->example_cmd);
			fputc('}', w->out);
		}
		fputs("}\n", w->out);
		return;
	}
	fprintf(w->out, "%s  %c  %6lu %6lu %6lu %7lu  ", e->sig, e->state,
		e->first, e->last, e->most, e->stayed);
	ks_fputs_escaped(e->top, w->out);
	if (e->stayed) {
		fprintf(w->out, "   e.g. PID %d Cmd: ", e->example);
		ks_fputs_escaped(e->example_cmd, w->out);
	}
	fputc('\n', w->out);
}

void ks_rpw_stack(struct ks_rp_writer *w, const struct ks_rp_stack *e)
{
	struct state_out o = { w->out, 0 };

	if (w->json) {
		fprintf(w->out, "{\"type\":\"stack\",\"tasks\":%lu,\"samples\":%lu,\"states\":{",
			e->tasks, e->samples);
		ks_rp_stack_states(e, json_state_count, &o);
		fputs("},\"examples\":[", w->out);
		for (size_t i = 0; i < e->nr_examples; i++) {
			fprintf(w->out, "%s{\"pid\":%d,\"cmd\":", i ? "," : "",
				e->examples[i]);
			ks_json_str(w->out, e->example_cmd[i]);
			fputc('}', w->out);
		}
		fputs("],\"stack\":", w->out);
		ks_json_frames(w->out, e->text);
		fputs("}\n", w->out);
		return;
	}
	if (e->samples)
		fprintf(w->out, "\n%lu task samples in %lu sample(s)", e->tasks,
			e->samples);
	else	/* --folded logs only: no sample times */
		fprintf(w->out, "\n%lu task samples", e->tasks);
	fputs("   States:", w->out);
	ks_rp_stack_states(e, text_state, &o);
	if (e->nr_examples)	/* -c and --folded may name none */
		fputs("   e.g.", w->out);
	for (size_t i = 0; i < e->nr_examples; i++) {
		fprintf(w->out, "%s %d (", i ? "," : "", e->examples[i]);
		ks_fputs_escaped(e->example_cmd[i], w->out);
		fputc(')', w->out);
	}
	fputc('\n', w->out);
	text_stack(w->out, e->text);
}

void ks_rpw_change(struct ks_rp_writer *w, int pid, time_t when,
		   const struct ks_rp_task *t, const char *stack)
{
	char at[32];

	if (w->json) {
		fprintf(w->out, "{\"type\":\"pid\",\"pid\":%d,", pid);
		json_time(w->out, "time", when);
		if (!t) {
			fputs(",\"present\":false}\n", w->out);
			return;
		}
		fputs(",\"present\":true", w->out);
		json_state(w->out, t->state);
		fputs(",\"cmd\":", w->out);
		ks_json_str(w->out, t->cmd);
		fputs(",\"stack\":", w->out);
		ks_json_frames(w->out, stack);
		fputs("}\n", w->out);
		return;
	}
	ks_rpw_time(at, sizeof(at), when);
	if (!t) {
		fprintf(w->out, "\n%s   PID %d not in the sample\n", at, pid);
		return;
	}
	fprintf(w->out, "\n%s   PID: %5d   State: %c   Cmd: ", at, pid, t->state);
	ks_fputs_escaped(t->cmd, w->out);
	fputc('\n', w->out);
	text_stack(w->out, stack);
}

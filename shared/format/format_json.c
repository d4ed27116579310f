// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --json: JSON Lines, one object per sample, so a background log of many
 * samples stays one valid document per line.  Command lines may hold any
 * bytes; JSON strings must be UTF-8, so invalid bytes become U+FFFD.
 */
#include <errno.h>
#include <string.h>

#include "format.h"
#include "stack_signature.h"
#include "version.h"

/* Length of the valid UTF-8 sequence at s, within avail bytes, or 0. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	size_t n;
	unsigned int min, cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, min = 0x80, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, min = 0x800, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	/* a lead byte at the end of a field must not read past it */
	if (n > avail)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void json_str_n(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *end = s + len;

	fputc('"', out);
	while (s < end) {
		size_t n;

		if (*s == '"' || *s == '\\') {
			fprintf(out, "\\%c", *s++);
			continue;
		}
		if (*s < 0x20) {
			fprintf(out, "\\u%04x", *s++);
			continue;
		}
		n = utf8_len(s, (size_t)(end - s));
		if (!n) {
			fputs("\\ufffd", out);
			s++;
			continue;
		}
		fwrite(s, 1, n, out);
		s += n;
	}
	fputc('"', out);
}

void ks_json_str(FILE *out, const char *s)
{
	json_str_n(out, s, strlen(s));
}

void ks_json_str_n(FILE *out, const char *s, size_t len)
{
	json_str_n(out, s, len);
}

void ks_json_frames(FILE *out, const char *stack)
{
	const char *sep = "";

	fputc('[', out);
	while (*stack) {
		const char *nl = strchr(stack, '\n');
		size_t len = nl ? (size_t)(nl - stack) : strlen(stack);

		if (len >= 6 && !strncmp(stack, "[<0>] ", 6)) {
			stack += 6;
			len -= 6;
		}
		fputs(sep, out);
		json_str_n(out, stack, len);
		sep = ",";
		stack += len + (nl ? 1 : 0);
	}
	fputc(']', out);
}

/*
 * --waits: "waits_for":{"kind","addr","owner","last_holder","readers",
 * "where"}.
 */
static void json_wait(FILE *out, const struct ks_task_wait *w)
{
	fputs(",\"waits_for\":{\"kind\":", out);
	ks_json_str(out, w->kind);
	fprintf(out, ",\"addr\":\"%#llx\",\"owner\":",
		(unsigned long long)w->addr);
	if (w->owner_pid)
		fprintf(out, "%d", w->owner_pid);
	else
		fputs("null", out);
	if (w->last_holder)
		fputs(",\"last_holder\":true", out);
	if (w->readers)
		fprintf(out, ",\"readers\":%llu",
			(unsigned long long)w->nr_readers);
	fputs(",\"where\":", out);
	if (*w->where)
		ks_json_str(out, w->where);
	else
		fputs("null", out);
	fputc('}', out);
}

/*
 * A group's signature: its members' state and its frames, or null when
 * its members are in different states (each task carries its own).
 */
/*
 * A group's tasks share its stack: its signature is hashed once per
 * state met in the group (once, nearly always), not once per task.
 */
struct group_sig {
	const char *stack;
	char state;		/* of sig; 0 before the first */
	char sig[KS_SIGNATURE_LEN];
};

static const char *sig_of(struct group_sig *gs, char state)
{
	if (gs->state != state) {
		gs->state = state;
		ks_stack_signature(state, gs->stack, gs->sig);
	}
	return gs->sig;
}

static void json_group_signature(FILE *out, const struct ks_sample *s,
				 const struct ks_group *grp,
				 struct group_sig *gs)
{
	char state = s->tasks[grp->members[0]].state;

	for (size_t j = 1; j < grp->nr_members; j++) {
		if (s->tasks[grp->members[j]].state != state) {
			fputs(",\"signature\":null", out);
			return;
		}
	}
	fprintf(out, ",\"signature\":\"%s\"", sig_of(gs, state));
}

static void json_task(FILE *out, const struct ks_task *t, const char *sig)
{

	fprintf(out, "{\"pid\":%d,\"tgid\":%d,\"state\":", t->pid, t->tgid);
	/* a /proc tree given with --proc-root may hold any byte there */
	json_str_n(out, &t->state, 1);
	if (t->start_time == KS_START_UNKNOWN)
		fputs(",\"start_time\":null,\"comm\":", out);
	else
		fprintf(out, ",\"start_time\":%lld,\"comm\":",
			(long long)t->start_time);
	ks_json_str(out, t->comm);
	fputs(",\"cmd\":", out);
	ks_json_str(out, t->cmd ? t->cmd : t->comm);
	/* a string: a kernel address does not fit a JSON number exactly */
	if (t->task_addr)
		fprintf(out, ",\"task_struct\":\"%016llx\"",
			(unsigned long long)t->task_addr);
	if (t->has_cpu)
		fprintf(out, ",\"cpu\":%d", t->cpu);
	fprintf(out, ",\"on_cpu\":%s", t->running ? "true" : "false");
	if (t->note) {
		fputs(",\"note\":", out);
		ks_json_str(out, t->note);
	}
	if (t->has_switches)
		fprintf(out, ",\"nvcsw\":%llu,\"nivcsw\":%llu",
			(unsigned long long)t->nvcsw,
			(unsigned long long)t->nivcsw);
	if (t->has_last_ran)
		fprintf(out, ",\"last_ran_ns\":%llu",
			(unsigned long long)t->last_ran_ns);
	if (t->has_blocked)
		fprintf(out, ",\"blocked_ns\":%llu",
			(unsigned long long)t->blocked_ns);
	if (t->has_wait)
		json_wait(out, &t->wait);
	fprintf(out, ",\"signature\":\"%s\"}", sig);
}

int ks_format_json(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g, const struct ks_format_opts *opts)
{
	(void)opts;
	fprintf(out, "{\"schema\":%d,\"version\":\"%s\",\"time\":",
		KS_JSON_SCHEMA, KS_VERSION);
	if (s->when == KS_WHEN_UNKNOWN)
		fputs("null,\"host\":", out);
	else
		fprintf(out, "%lld,\"host\":", (long long)s->when);
	ks_json_str(out, s->host);
	fputs(",\"kernel\":", out);
	if (*s->kernel)
		ks_json_str(out, s->kernel);
	else
		fputs("null", out);
	fprintf(out, ",\"tasks\":%zu,\"groups\":[", s->nr_tasks);
	for (size_t i = 0; i < g->nr_groups; i++) {
		const struct ks_group *grp = &g->groups[i];
		struct group_sig gs = { .stack = grp->stack };

		fputs(i ? ",{\"stack\":" : "{\"stack\":", out);
		ks_json_frames(out, grp->stack);
		if (grp->nr_members)
			json_group_signature(out, s, grp, &gs);
		fputs(",\"tasks\":[", out);
		for (size_t j = 0; j < grp->nr_members; j++) {
			const struct ks_task *t = &s->tasks[grp->members[j]];

			if (j)
				fputc(',', out);
			json_task(out, t, sig_of(&gs, t->state));
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report writer of -K and -F (see hooks_writer.h): everything printed
 * after, and around, the kernel-format lines.  It reads records and names
 * addresses through the target's symbols; it never reads kernel memory, so
 * the walkers and the live parsers feed it alike.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hooks_format.h"
#include "hooks_writer.h"
#include "report.h"
#include "symbolize.h"

/* ------------------------------------------------------------ summaries */

/*
 * A small set of names, printed in the order first seen.  The last name
 * found is tried first: records come sorted by address, so a module's
 * records, and the handler of a tracer on all of them, come in runs.
 */
static bool name_is(const char *have, const char *name, size_t len)
{
	return !strncmp(have, name, len) && !have[len];
}

static void name_set_add(struct ks_name_set *s, const char *name, size_t len)
{
	char **nv;
	size_t i;

	if (!len)
		return;
	if (s->last < s->n && name_is(s->v[s->last], name, len))
		return;
	for (i = 0; i < s->n; i++)
		if (name_is(s->v[i], name, len)) {
			s->last = i;
			return;
		}
	nv = ks_grow(s->v, &s->cap, s->n + 1, sizeof(*nv));
	if (!nv)
		return;
	s->v = nv;
	s->v[s->n] = strndup(name, len);
	if (s->v[s->n])
		s->last = s->n++;
}

static void name_set_print(FILE *out, const struct ks_name_set *s)
{
	size_t i;

	if (!s->n)
		fputs("none", out);
	for (i = 0; i < s->n; i++)
		fprintf(out, "%s%s", i ? ", " : "", s->v[i]);
}

static void name_set_free(struct ks_name_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void ks_kprobe_summary(FILE *out, const struct ks_kprobe_list *l)
{
	size_t k = 0, r = 0, dis = 0, gone = 0, opt = 0, ftr = 0, i;
	struct ks_name_set mods = { 0 };

	for (i = 0; i < l->n; i++) {
		const struct ks_kprobe *p = &l->v[i];

		if (p->type == 'r')
			r++;
		else
			k++;
		if (p->flags & KS_KPROBE_FL_GONE)
			gone++;
		else if (p->flags & KS_KPROBE_FL_DISABLED)
			dis++;
		if (p->aggr_flags & KS_KPROBE_FL_OPTIMIZED)
			opt++;
		if (p->aggr_flags & KS_KPROBE_FL_FTRACE)
			ftr++;
		name_set_add(&mods, p->module, strlen(p->module));
	}
	fprintf(out, "== summary\n%zu kprobe%s: %zu k, %zu r; %zu disabled, "
		"%zu gone, %zu optimized, %zu on ftrace; probed modules: ",
		l->n, ks_plural(l->n), k, r, dis, gone, opt, ftr);
	name_set_print(out, &mods);
	fputc('\n', out);
	if (l->unparsed)
		fprintf(out, "%zu line%s not in the kernel's format (shown as read)\n",
			l->unparsed, ks_plural(l->unparsed));
	name_set_free(&mods);
}

/* The name part of a %pS text: up to '+', or the whole "0x..." text. */
static size_t pS_name_len(const char *text)
{
	return strcspn(text, "+ ");
}

static void add_handler(struct ks_name_set *names, struct ks_name_set *mods,
			const char *text)
{
	char mod[KS_HOOK_MOD_LEN];

	if (!text[0])
		return;
	name_set_add(names, text, pS_name_len(text));
	ks_pS_module(text, mod, sizeof(mod));
	name_set_add(mods, mod, strlen(mod));
}

void ks_ftrace_stats_add(struct ks_ftrace_stats *s,
			 const struct ks_ftrace_rec *r)
{
	size_t j;

	s->n++;
	s->regs += r->regs;
	s->ipmodify += r->ipmodify;
	s->direct += r->direct;
	s->tramp += r->tramp_en;
	name_set_add(&s->patched, r->module, strlen(r->module));
	for (j = 0; j < r->nr_tramps; j++) {
		add_handler(&s->handlers, &s->handler_mods, r->tramps[j].func);
		add_handler(&s->handlers, &s->handler_mods, r->tramps[j].target);
	}
	add_handler(&s->handlers, &s->handler_mods, r->target);
	add_handler(&s->handlers, &s->handler_mods, r->direct_to);
}

void ks_ftrace_stats_print(FILE *out, const struct ks_ftrace_stats *s)
{
	fprintf(out, "== summary\n%zu function%s enabled: %zu R, %zu I, %zu D, "
		"%zu with a trampoline; patched modules: ",
		s->n, ks_plural(s->n), s->regs, s->ipmodify, s->direct, s->tramp);
	name_set_print(out, &s->patched);
	fputs("; handlers: ", out);
	name_set_print(out, &s->handlers);
	fputs("; handler modules: ", out);
	name_set_print(out, &s->handler_mods);
	fputc('\n', out);
}

void ks_ftrace_stats_free(struct ks_ftrace_stats *s)
{
	name_set_free(&s->handlers);
	name_set_free(&s->handler_mods);
	name_set_free(&s->patched);
	memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------ printing */

static const char *code_name(enum ks_kprobe_code c)
{
	switch (c) {
	case KS_CODE_INT3:
		return "int3";
	case KS_CODE_JMP:
		return "jmp (optimized)";
	case KS_CODE_CALL:
		return "call (ftrace)";
	case KS_CODE_FTRACE_NOP:
		return "ftrace nop";
	case KS_CODE_OTHER:
		return "original instruction";
	case KS_CODE_BRK:
		return "brk (kprobe)";
	default:
		return "unreadable";
	}
}

/* A handler's %pS text in buf, or "none" for no handler. */
static const char *handler(const struct ks_target *t, uint64_t addr,
			   char *buf, size_t len)
{
	if (!addr)
		return "none";
	ks_sym_format_pS(t, addr, buf, len);
	return buf;
}

void ks_kprobe_print_detail(FILE *out, const struct ks_target *t,
			    const struct ks_kprobe *p)
{
	char a[KS_HOOK_TEXT_LEN], b[KS_HOOK_TEXT_LEN];
	int i;

	if (!p->detailed)
		return;
	fprintf(out, "    kprobe 0x%" PRIx64, p->kaddr);
	if (p->aggr_kaddr)
		fprintf(out, " (aggregated in 0x%" PRIx64 ")", p->aggr_kaddr);
	fprintf(out, ": nmissed %" PRIu64 "\n", p->nmissed);
	if (p->error)
		fprintf(out, "    error: %s\n", p->error);
	fprintf(out, "    pre_handler: %s  post_handler: %s\n",
		handler(t, p->pre_handler, a, sizeof(a)),
		handler(t, p->post_handler, b, sizeof(b)));
	if (p->type == 'r')
		fprintf(out, "    kretprobe handler: %s  entry_handler: %s\n",
			handler(t, p->ret_handler, a, sizeof(a)),
			handler(t, p->entry_handler, b, sizeof(b)));
	if (*p->event)
		fprintf(out, "    trace event: %s\n", p->event);
	fprintf(out, "    code at 0x%" PRIx64 ":", p->addr);
	if (p->code != KS_CODE_UNKNOWN)
		for (i = 0; i < (p->code_len ? p->code_len : 5); i++)
			fprintf(out, " %02x", p->bytes[i]);
	fprintf(out, " (%s)", code_name(p->code));
	if (p->code_checked)
		fputs(p->code_in_place ? " in place" : " NOT IN PLACE", out);
	fprintf(out, "; saved opcode %0*x\n",
		2 * (p->opcode_size ? p->opcode_size : 1), (unsigned int)p->opcode);
}

void ks_kprobe_print_all(FILE *out, const struct ks_target *t,
			 const struct ks_kprobe_list *l, bool verbose)
{
	char line[KS_HOOK_TEXT_LEN + 128];
	size_t i;

	for (i = 0; i < l->n; i++) {
		ks_kprobe_format(&l->v[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
		if (verbose && t)
			ks_kprobe_print_detail(out, t, &l->v[i]);
	}
}

/* ------------------------------------------------------------ owners */

/* Handler owners: "module: handler, handler; module: ...". */
struct owner {
	char module[KS_HOOK_MOD_LEN];
	char names[1024];
};

static void owner_add(struct owner *o, size_t *n, size_t max,
		      const struct ks_target *t, uint64_t addr)
{
	char text[KS_HOOK_TEXT_LEN], mod[KS_HOOK_MOD_LEN];
	size_t i, len;

	if (!addr)
		return;
	ks_sym_format_pS(t, addr, text, sizeof(text));
	ks_pS_module(text, mod, sizeof(mod));
	if (!mod[0])
		snprintf(mod, sizeof(mod), "vmlinux");
	len = strcspn(text, "+ ");
	text[len] = '\0';
	for (i = 0; i < *n; i++)
		if (!strcmp(o[i].module, mod))
			break;
	if (i == *n) {
		if (*n >= max)
			return;
		snprintf(o[i].module, sizeof(o[i].module), "%s", mod);
		o[i].names[0] = '\0';
		(*n)++;
	}
	/* each name once per module */
	{
		const char *s = o[i].names;
		size_t tl = strlen(text);

		while ((s = strstr(s, text))) {
			if ((s == o[i].names || s[-1] == ' ') &&
			    (s[tl] == ',' || s[tl] == '\0'))
				return;
			s += tl;
		}
	}
	len = strlen(o[i].names);
	snprintf(o[i].names + len, sizeof(o[i].names) - len, "%s%s",
		 len ? ", " : "", text);
}

static void owners_print(FILE *out, const char *what, struct owner *o,
			 size_t n)
{
	size_t i;

	fprintf(out, "%s: ", what);
	if (!n)
		fputs("none", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s (%s)", i ? "; " : "", o[i].module,
			o[i].names);
	fputc('\n', out);
}

void ks_kprobe_owners(FILE *out, const struct ks_target *t,
		      const struct ks_kprobe_list *l)
{
	struct owner o[32];
	size_t n = 0, i;

	for (i = 0; i < l->n; i++) {
		const struct ks_kprobe *p = &l->v[i];

		/* a kretprobe's pre_handler is the kernel's own trampoline */
		if (p->type != 'r')
			owner_add(o, &n, 32, t, p->pre_handler);
		owner_add(o, &n, 32, t, p->post_handler);
		owner_add(o, &n, 32, t, p->ret_handler);
		owner_add(o, &n, 32, t, p->entry_handler);
	}
	owners_print(out, "handler owners", o, n);
}

/*
 * The ops' handlers, then the direct-call targets (direct calls bypass
 * the ops' func: their targets own those hooks).
 */
void ks_ftrace_ops_owners_direct(FILE *out, const struct ks_target *t,
				 const struct ks_ftrace_ops_list *l,
				 const uint64_t *direct, size_t nr_direct)
{
	struct owner o[32];
	size_t n = 0, i;

	for (i = 0; i < l->n; i++)
		owner_add(o, &n, 32, t, l->v[i].func);
	for (i = 0; i < nr_direct; i++)
		owner_add(o, &n, 32, t, direct[i]);
	fprintf(out, "%zu ftrace_ops on ftrace_ops_list\n", l->n);
	owners_print(out, "handler owners", o, n);
}

/* ------------------------------------------------------------ ftrace_ops */

/* ftrace_ops.flags bit numbers (FTRACE_OPS_FL_*, 6.1). */
static const char *const ops_flag_names[] = {
	"ENABLED", "DYNAMIC", "SAVE_REGS", "SAVE_REGS_IF_SUPPORTED",
	"RECURSION", "STUB", "INITIALIZED", "DELETED", "ADDING", "REMOVING",
	"MODIFYING", "ALLOC_TRAMP", "IPMODIFY", "PID", "RCU", "TRACE_ARRAY",
	"PERMANENT", "DIRECT",
};
void ks_ftrace_ops_flags_str(uint64_t flags, char *buf, size_t len)
{
	size_t n = 0, i;

	buf[0] = '\0';
	for (i = 0; i < 64 && n < len; i++) {
		if (!(flags & (1ull << i)))
			continue;
		if (i < sizeof(ops_flag_names) / sizeof(ops_flag_names[0]))
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				      ops_flag_names[i]);
		else
			n += snprintf(buf + n, len - n, "%sBIT%zu", n ? "|" : "",
				      i);
	}
	if (!flags)
		snprintf(buf, len, "none");
}

#define HASH_PRINT_MAX	64

static void print_ips(FILE *out, const struct ks_target *t, const char *what,
		      const uint64_t *ips, size_t n, bool failed)
{
	char text[KS_HOOK_TEXT_LEN];
	size_t i;

	fprintf(out, "    %s (%zu):", what, n);
	if (failed)
		fputs(" unreadable", out);
	else if (!n)
		fputs(" none", out);
	for (i = 0; i < n && i < HASH_PRINT_MAX; i++) {
		ks_sym_format_pS(t, ips[i], text, sizeof(text));
		fprintf(out, " %s", text);
	}
	if (n > HASH_PRINT_MAX)
		fprintf(out, " ... and %zu more", n - HASH_PRINT_MAX);
	fputc('\n', out);
}

/*
 * The variable an ftrace_ops is ("name [module]"), without offset and
 * size: data symbols' sizes say little, and an allocated ops has no name.
 */
static void ops_name(const struct ks_target *t, uint64_t addr, char *buf,
		     size_t len)
{
	struct ks_sym sym;

	if (t->ops->lookup(t->ctx, addr, &sym) || !sym.name || sym.addr != addr)
		snprintf(buf, len, "(allocated)");
	else if (sym.module)
		snprintf(buf, len, "%s [%s]", sym.name, sym.module);
	else
		snprintf(buf, len, "%s", sym.name);
}

void ks_ftrace_ops_print(FILE *out, const struct ks_target *t,
			 const struct ks_ftrace_ops_list *l)
{
	char name[KS_HOOK_TEXT_LEN], func[KS_HOOK_TEXT_LEN];
	char flags[512], tramp[KS_HOOK_TEXT_LEN];
	size_t i;

	fputs("== ftrace_ops\n", out);
	for (i = 0; i < l->n; i++) {
		const struct ks_ftrace_ops *o = &l->v[i];

		ops_name(t, o->kaddr, name, sizeof(name));
		ks_sym_format_pS(t, o->func, func, sizeof(func));
		ks_ftrace_ops_flags_str(o->flags, flags, sizeof(flags));
		fprintf(out, "0x%" PRIx64 " %s\n", o->kaddr, name);
		fprintf(out, "    func: %s\n    flags: 0x%" PRIx64 " %s\n",
			func, o->flags, flags);
		if (o->trampoline) {
			ks_sym_format_pS(t, o->trampoline, tramp, sizeof(tramp));
			fprintf(out, "    trampoline: %s size 0x%" PRIx64 "\n",
				tramp, o->trampoline_size);
		}
		if (o->private_data)
			fprintf(out, "    private: 0x%" PRIx64 "\n",
				o->private_data);
		if (o->error)
			fprintf(out, "    error: %s\n", o->error);
		print_ips(out, t, "filter", o->filter, o->nr_filter,
			  o->filter_err);
		print_ips(out, t, "notrace", o->notrace, o->nr_notrace,
			  o->notrace_err);
	}
	if (l->error)
		fprintf(out, "list incomplete: %s\n", l->error);
}

/* ------------------------------------------------------------ writers */

void ks_kprobe_write(FILE *out, const struct ks_target *t,
		     const struct ks_kprobe_list *l, int enabled, bool verbose)
{
	ks_kprobe_print_all(out, t, l, verbose);
	ks_kprobe_summary(out, l);
	fputs("== kprobes enabled\n", out);
	if (enabled < 0)
		fprintf(out, "(unknown: %s)\n", strerror(-enabled));
	else
		fprintf(out, "%d\n", enabled);
	fputs("== hook owners\n", out);
	ks_kprobe_owners(out, t, l);
}

int ks_ftrace_writer_init(struct ks_ftrace_writer *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->line = malloc(KS_FTRACE_LINE_MAX);
	return w->line ? 0 : -ENOMEM;
}

int ks_ftrace_writer_rec(void *arg, const struct ks_ftrace_rec *r)
{
	struct ks_ftrace_writer *w = arg;
	uint64_t *v;

	ks_ftrace_format(r, w->line, KS_FTRACE_LINE_MAX);
	fprintf(w->out, "%s\n", w->line);
	ks_ftrace_stats_add(&w->stats, r);
	/* one trampoline serves a run of records: once is enough for owners */
	if (!r->direct_addr || (w->nr_direct &&
				w->direct[w->nr_direct - 1] == r->direct_addr))
		return 0;
	v = ks_grow(w->direct, &w->cap_direct, w->nr_direct + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	w->direct = v;
	v[w->nr_direct++] = r->direct_addr;
	return 0;
}

void ks_ftrace_writer_end(struct ks_ftrace_writer *w,
			  const struct ks_target *t,
			  const struct ks_ftrace_ops_list *ops,
			  const char *tracer, bool verbose)
{
	FILE *out = w->out;

	ks_ftrace_stats_print(out, &w->stats);
	fputs("== current_tracer\n", out);
	fprintf(out, "%s\n", tracer ? tracer : "(unknown)");
	fputs("== hook owners\n", out);
	ks_ftrace_ops_owners_direct(out, t, ops, w->direct, w->nr_direct);
	if (verbose)
		ks_ftrace_ops_print(out, t, ops);
}

void ks_ftrace_writer_free(struct ks_ftrace_writer *w)
{
	ks_ftrace_stats_free(&w->stats);
	free(w->direct);
	free(w->line);
	memset(w, 0, sizeof(*w));
}

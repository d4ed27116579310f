// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kprobe and ftrace records, their kernel-format lines, the parsers of
 * those lines, and the summary that follows them.  Kept in one file so the
 * printer and the parser are read side by side: a line the parser accepts
 * must print back byte for byte.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "options.h"

/* ------------------------------------------------------------ lists */

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 16;
	void *nv;

	if (n < *cap)
		return v;
	nv = realloc(v, ncap * size);
	if (!nv)
		return NULL;
	*cap = ncap;
	return nv;
}

struct ks_kprobe *ks_kprobe_list_add(struct ks_kprobe_list *l)
{
	struct ks_kprobe *v = grow(l->v, &l->cap, l->n, sizeof(*v));

	if (!v)
		return NULL;
	l->v = v;
	memset(&v[l->n], 0, sizeof(v[0]));
	return &v[l->n++];
}

struct ks_ftrace_rec *ks_ftrace_list_add(struct ks_ftrace_list *l)
{
	struct ks_ftrace_rec *v = grow(l->v, &l->cap, l->n, sizeof(*v));

	if (!v)
		return NULL;
	l->v = v;
	memset(&v[l->n], 0, sizeof(v[0]));
	return &v[l->n++];
}

void ks_kprobe_list_free(struct ks_kprobe_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void ks_ftrace_list_free(struct ks_ftrace_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ------------------------------------------------------------ kprobes */

int ks_kprobe_format(const struct ks_kprobe *p, char *buf, size_t len)
{
	unsigned int pf = p->flags, af = p->aggr_flags;
	int n;

	/* %px is 16 zero-padded digits on 64-bit; offset goes through %x. */
	if (p->has_sym)
		n = snprintf(buf, len, "%016" PRIx64 "  %c  %s+0x%x  %s ",
			     p->addr, p->type, p->sym, (unsigned int)p->offset,
			     p->module[0] ? p->module : " ");
	else
		n = snprintf(buf, len, "%016" PRIx64 "  %c  0x%" PRIx64 " ",
			     p->addr, p->type, p->addr);
	if (n < 0)
		return n;
	return n + snprintf(len > (size_t)n ? buf + n : NULL,
			    len > (size_t)n ? len - n : 0, "%s%s%s%s",
			    pf & KS_KPROBE_FL_GONE ? "[GONE]" : "",
			    (pf & KS_KPROBE_FL_DISABLED) &&
					    !(pf & KS_KPROBE_FL_GONE) ?
				    "[DISABLED]" : "",
			    af & KS_KPROBE_FL_OPTIMIZED ? "[OPTIMIZED]" : "",
			    af & KS_KPROBE_FL_FTRACE ? "[FTRACE]" : "");
}

static const char *parse_hex(const char *s, uint64_t *v, int maxdigits)
{
	int n = 0;

	*v = 0;
	while (isxdigit((unsigned char)s[n]) && n < maxdigits) {
		char c = (char)tolower((unsigned char)s[n]);

		*v = *v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
		n++;
	}
	return n ? s + n : NULL;
}

int ks_kprobe_parse(const char *line, struct ks_kprobe *p)
{
	static const struct {
		const char *tag;
		unsigned int fl;
		bool aggr;
	} tags[] = {
		{ "[GONE]", KS_KPROBE_FL_GONE, false },
		{ "[DISABLED]", KS_KPROBE_FL_DISABLED, false },
		{ "[OPTIMIZED]", KS_KPROBE_FL_OPTIMIZED, true },
		{ "[FTRACE]", KS_KPROBE_FL_FTRACE, true },
	};
	const char *s = line, *tok_end, *plus;
	size_t i;

	memset(p, 0, sizeof(*p));
	s = parse_hex(s, &p->addr, 16);
	if (!s || strncmp(s, "  ", 2))
		return -EINVAL;
	s += 2;
	if (!islower((unsigned char)s[0]) || strncmp(s + 1, "  ", 2))
		return -EINVAL;
	p->type = s[0];
	s += 3;

	tok_end = s + strcspn(s, " ");
	if (!*tok_end)
		return -EINVAL;
	/* The last "+0x" in the token: symbol names may hold '+' nowhere, but be safe. */
	plus = NULL;
	for (const char *q = s; q + 3 <= tok_end; q++)
		if (!strncmp(q, "+0x", 3))
			plus = q;
	if (plus) {
		uint64_t off;
		const char *e = parse_hex(plus + 3, &off, 16);

		if (e != tok_end || plus == s ||
		    (size_t)(plus - s) >= sizeof(p->sym))
			return -EINVAL;
		p->has_sym = true;
		memcpy(p->sym, s, plus - s);
		p->sym[plus - s] = '\0';
		p->offset = off;
		s = tok_end;
		if (strncmp(s, "  ", 2))
			return -EINVAL;
		s += 2;
		if (s[0] == ' ') {
			/* modname NULL prints " ", then the format's own " " */
			if (s[1] != ' ')
				return -EINVAL;
			s += 2;
		} else {
			size_t n = strcspn(s, " ");

			if (!s[n] || n >= sizeof(p->module))
				return -EINVAL;
			memcpy(p->module, s, n);
			p->module[n] = '\0';
			s += n + 1;
		}
	} else {
		uint64_t a;
		const char *e;

		if (strncmp(s, "0x", 2))
			return -EINVAL;
		e = parse_hex(s + 2, &a, 16);
		if (e != tok_end || a != p->addr)
			return -EINVAL;
		s = tok_end + 1;
	}
	/* The tags come in this order, each at most once. */
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t n = strlen(tags[i].tag);

		if (strncmp(s, tags[i].tag, n))
			continue;
		if (tags[i].aggr)
			p->aggr_flags |= tags[i].fl;
		else
			p->flags |= tags[i].fl;
		s += n;
	}
	return *s ? -EINVAL : 0;
}

/* ------------------------------------------------------------ ftrace */

int ks_ftrace_format(const struct ks_ftrace_rec *r, char *buf, size_t len)
{
	size_t n = 0;
	size_t i;

#define PUT(...)                                                        \
	do {                                                            \
		int _k = snprintf(n < len ? buf + n : NULL,             \
				  n < len ? len - n : 0, __VA_ARGS__);  \
		if (_k < 0)                                             \
			return _k;                                      \
		n += (size_t)_k;                                        \
	} while (0)

	if (len)
		buf[0] = '\0';
	/* print_rec(): the name, " [module]", and nothing else if invalid */
	PUT("%s", r->func);
	if (r->module[0])
		PUT(" [%s]", r->module);
	if (r->invalid)
		return (int)n;
	PUT(" (%ld)%s%s%s", r->refcount, r->regs ? " R" : "  ",
	    r->ipmodify ? " I" : "  ", r->direct ? " D" : "  ");
	if (r->columns == 5)
		PUT("%s%s", r->call_ops ? " O" : "  ", r->modified ? " M " : "   ");
	if (r->tramp_en) {
		if (r->tramp_error)
			PUT("\ttramp: ERROR!");
		for (i = 0; i < r->nr_tramps; i++) {
			const struct ks_ftrace_tramp *tr = &r->tramps[i];

			PUT("\ttramp: %s (%s)", tr->tramp, tr->func);
			if (tr->target[0])
				PUT(" ->%s", tr->target);
		}
	} else if (r->target[0]) {
		PUT(" ->%s", r->target);
	}
	if (r->direct_to[0])
		PUT("\n\tdirect-->%s", r->direct_to);
#undef PUT
	return (int)n;
}

static int copy_span(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		return -EINVAL;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* Where the next tail item starts: "\ttramp: " or the end of the line. */
static const char *next_tail(const char *s)
{
	const char *t = strstr(s, "\ttramp: ");

	return t ? t : s + strlen(s);
}

void ks_ftrace_rec_clear(struct ks_ftrace_rec *r)
{
	/* zeroing 17 KB of text per record would cost more than all the rest */
	memset(r, 0, offsetof(struct ks_ftrace_rec, func));
	r->func[0] = '\0';
	r->module[0] = '\0';
	r->target[0] = '\0';
	r->direct_to[0] = '\0';
}

int ks_ftrace_parse(const char *line, const char *direct_line,
		    struct ks_ftrace_rec *r)
{
	const char *s = line, *e;
	char *end;
	size_t n;

	ks_ftrace_rec_clear(r);
	n = strcspn(s, " ");
	if (!n || copy_span(r->func, sizeof(r->func), s, n))
		return -EINVAL;
	s += n;
	if (!strncmp(s, " [", 2)) {
		n = strcspn(s + 2, "]");
		if (s[2 + n] != ']' ||
		    copy_span(r->module, sizeof(r->module), s + 2, n))
			return -EINVAL;
		s += 3 + n;
	}
	if (!*s) {
		r->invalid = true;
		return direct_line ? -EINVAL : 0;
	}
	if (strncmp(s, " (", 2))
		return -EINVAL;
	errno = 0;
	r->refcount = strtol(s + 2, &end, 10);
	if (errno || end == s + 2 || *end != ')')
		return -EINVAL;
	s = end + 1;
	/* Three two-character columns: " R", " I", " D" or two spaces. */
	if (strlen(s) < 6)
		return -EINVAL;
	if (!strncmp(s, " R", 2))
		r->regs = true;
	else if (strncmp(s, "  ", 2))
		return -EINVAL;
	if (!strncmp(s + 2, " I", 2))
		r->ipmodify = true;
	else if (strncmp(s + 2, "  ", 2))
		return -EINVAL;
	if (!strncmp(s + 4, " D", 2))
		r->direct = true;
	else if (strncmp(s + 4, "  ", 2))
		return -EINVAL;
	s += 6;
	/*
	 * 6.4+: " O" or two spaces, then " M " or three spaces.  Nothing in
	 * the 6.1 format can follow the three columns with these five
	 * characters (a tail starts with a tab or " ->").
	 */
	if ((!strncmp(s, " O", 2) || !strncmp(s, "  ", 2)) &&
	    (!strncmp(s + 2, " M ", 3) || !strncmp(s + 2, "   ", 3))) {
		r->columns = 5;
		r->call_ops = s[1] == 'O';
		r->modified = s[3] == 'M';
		s += 5;
	}

	if (!strncmp(s, "\ttramp: ", 8)) {
		r->tramp_en = true;
		if (!strcmp(s, "\ttramp: ERROR!")) {
			r->tramp_error = true;
			s += strlen(s);
		}
		while (*s) {
			struct ks_ftrace_tramp *tr;
			const char *open, *close, *stop;

			if (strncmp(s, "\ttramp: ", 8) ||
			    r->nr_tramps >= KS_FTRACE_MAX_TRAMPS)
				return -EINVAL;
			tr = &r->tramps[r->nr_tramps++];
			tr->target[0] = '\0';
			s += 8;
			stop = next_tail(s);
			open = strstr(s, " (");
			if (!open || open >= stop)
				return -EINVAL;
			close = strchr(open, ')');
			if (!close || close >= stop ||
			    copy_span(tr->tramp, sizeof(tr->tramp), s, open - s) ||
			    copy_span(tr->func, sizeof(tr->func), open + 2,
				      close - open - 2))
				return -EINVAL;
			s = close + 1;
			if (!strncmp(s, " ->", 3)) {
				if (copy_span(tr->target, sizeof(tr->target),
					      s + 3, stop - s - 3))
					return -EINVAL;
				s = stop;
			} else if (s != stop) {
				return -EINVAL;
			}
		}
	} else if (!strncmp(s, " ->", 3)) {
		if (copy_span(r->target, sizeof(r->target), s + 3,
			      strlen(s + 3)))
			return -EINVAL;
	} else if (*s) {
		return -EINVAL;
	}

	if (direct_line) {
		e = direct_line;
		if (strncmp(e, "\tdirect-->", 10) || !e[10] ||
		    copy_span(r->direct_to, sizeof(r->direct_to), e + 10,
			      strlen(e + 10)))
			return -EINVAL;
	}
	return 0;
}

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
	nv = grow(s->v, &s->cap, s->n, sizeof(*nv));
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
	fprintf(out, "== summary\n%zu kprobes: %zu k, %zu r; %zu disabled, "
		"%zu gone, %zu optimized, %zu on ftrace; probed modules: ",
		l->n, k, r, dis, gone, opt, ftr);
	name_set_print(out, &mods);
	fputc('\n', out);
	if (l->unparsed)
		fprintf(out, "%zu lines not in the kernel's format (shown as read)\n",
			l->unparsed);
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
	fprintf(out, "== summary\n%zu functions enabled: %zu R, %zu I, %zu D, "
		"%zu with a trampoline; patched modules: ",
		s->n, s->regs, s->ipmodify, s->direct, s->tramp);
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

void ks_ftrace_summary(FILE *out, const struct ks_ftrace_list *l)
{
	struct ks_ftrace_stats s = { 0 };
	size_t i;

	for (i = 0; i < l->n; i++)
		ks_ftrace_stats_add(&s, &l->v[i]);
	ks_ftrace_stats_print(out, &s);
	ks_ftrace_stats_free(&s);
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
	default:
		return "unreadable";
	}
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
	if (p->pre_handler)
		ks_sym_format_pS(t, p->pre_handler, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "none");
	if (p->post_handler)
		ks_sym_format_pS(t, p->post_handler, b, sizeof(b));
	else
		snprintf(b, sizeof(b), "none");
	fprintf(out, "    pre_handler: %s  post_handler: %s\n", a, b);
	if (p->type == 'r') {
		if (p->ret_handler)
			ks_sym_format_pS(t, p->ret_handler, a, sizeof(a));
		else
			snprintf(a, sizeof(a), "none");
		if (p->entry_handler)
			ks_sym_format_pS(t, p->entry_handler, b, sizeof(b));
		else
			snprintf(b, sizeof(b), "none");
		fprintf(out, "    kretprobe handler: %s  entry_handler: %s\n",
			a, b);
	}
	fprintf(out, "    code at 0x%" PRIx64 ":", p->addr);
	if (p->code != KS_CODE_UNKNOWN)
		for (i = 0; i < 5; i++)
			fprintf(out, " %02x", p->bytes[i]);
	fprintf(out, " (%s)", code_name(p->code));
	if (p->code_checked)
		fputs(p->code_in_place ? " in place" : " NOT IN PLACE", out);
	fprintf(out, "; saved opcode %02x\n", p->opcode);
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

void ks_ftrace_print_all(FILE *out, const struct ks_ftrace_list *l)
{
	char *line = malloc(KS_FTRACE_LINE_MAX);
	size_t i;

	if (!line)
		return;
	for (i = 0; i < l->n; i++) {
		ks_ftrace_format(&l->v[i], line, KS_FTRACE_LINE_MAX);
		fprintf(out, "%s\n", line);
	}
	free(line);
}

/* ------------------------------------------------------------ report */

/* A NUL-terminated kernel string of at most len - 1 bytes. */
static int read_string(const struct ks_target *t, uint64_t addr, char *buf,
		       size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		if (ks_read(t, addr + i, &buf[i], 1))
			return -EFAULT;
		if (!buf[i])
			return 0;
	}
	buf[i] = '\0';
	return 0;
}

/* global_trace.current_trace->name: what tracefs current_tracer shows. */
static int current_tracer(const struct ks_target *t, char *buf, size_t len)
{
	long cur = t->ops->member_offset(t->ctx, "trace_array", "current_trace");
	long name = t->ops->member_offset(t->ctx, "tracer", "name");
	uint64_t gt, tracer, str;

	if (cur < 0 || name < 0 ||
	    t->ops->symbol(t->ctx, "global_trace", &gt))
		return -ENOENT;
	if (ks_read_u64(t, gt + (uint64_t)cur, &tracer) || !tracer ||
	    ks_read_u64(t, tracer + (uint64_t)name, &str) || !str)
		return -EFAULT;
	return read_string(t, str, buf, len);
}

static int report_kprobes(const struct ks_target *t,
			  const struct ks_options *opts, FILE *out, FILE *err)
{
	struct ks_kprobe_list l = { 0 };
	int ret, enabled;

	ret = ks_kprobe_walk(t, &l, err);
	if (ret) {
		ks_kprobe_list_free(&l);
		return ret;
	}
	ks_kprobe_print_all(out, t, &l, opts->verbose);
	ks_kprobe_summary(out, &l);
	enabled = ks_kprobes_enabled(t);
	fputs("== kprobes enabled\n", out);
	if (enabled < 0)
		fprintf(out, "(unknown: %s)\n", strerror(-enabled));
	else
		fprintf(out, "%d\n", enabled);
	fputs("== hook owners\n", out);
	ks_kprobe_owners(out, t, &l);
	ks_kprobe_list_free(&l);
	return 0;
}

/* What -F keeps of the records it prints: the summary and the owners. */
struct ftrace_report {
	FILE *out;
	char *line;
	struct ks_ftrace_stats stats;
	uint64_t *direct;	/* direct-call targets, in record order */
	size_t nr_direct, cap_direct;
};

static int report_rec(void *arg, const struct ks_ftrace_rec *r)
{
	struct ftrace_report *rep = arg;
	uint64_t *v;

	ks_ftrace_format(r, rep->line, KS_FTRACE_LINE_MAX);
	fprintf(rep->out, "%s\n", rep->line);
	ks_ftrace_stats_add(&rep->stats, r);
	/* one trampoline serves a run of records: once is enough for owners */
	if (!r->direct_addr || (rep->nr_direct &&
				rep->direct[rep->nr_direct - 1] == r->direct_addr))
		return 0;
	v = grow(rep->direct, &rep->cap_direct, rep->nr_direct, sizeof(*v));
	if (!v)
		return -ENOMEM;
	rep->direct = v;
	v[rep->nr_direct++] = r->direct_addr;
	return 0;
}

/*
 * Each record is printed as the walk reads it and then dropped: a kernel
 * tracing every function has tens of thousands.
 */
static int report_ftrace(const struct ks_target *t,
			 const struct ks_options *opts, FILE *out, FILE *err)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ftrace_report rep = { .out = out };
	char tracer[64];
	int ret;

	rep.line = malloc(KS_FTRACE_LINE_MAX);
	if (!rep.line)
		return -ENOMEM;
	ret = ks_ftrace_ops_walk(t, &ops, err);
	if (!ret)
		ret = ks_ftrace_walk_each(t, &ops, opts->touched, report_rec,
					  &rep, err);
	if (ret)
		goto out;
	ks_ftrace_stats_print(out, &rep.stats);
	fputs("== current_tracer\n", out);
	if (current_tracer(t, tracer, sizeof(tracer)))
		fputs("(unknown)\n", out);
	else
		fprintf(out, "%s\n", tracer);
	fputs("== hook owners\n", out);
	ks_ftrace_ops_owners_direct(out, t, &ops, rep.direct, rep.nr_direct);
	if (opts->verbose)
		ks_ftrace_ops_print(out, t, &ops);
out:
	ks_ftrace_stats_free(&rep.stats);
	free(rep.direct);
	free(rep.line);
	ks_ftrace_ops_list_free(&ops);
	return ret;
}

int ks_hooks_report(const struct ks_target *t, const struct ks_options *opts,
		    FILE *out, FILE *err)
{
	int ret = 0, r;

	if (opts->kprobes) {
		r = report_kprobes(t, opts, out, err);
		if (r)
			ret = r;
	}
	if (opts->ftrace) {
		r = report_ftrace(t, opts, out, err);
		if (r)
			ret = r;
	}
	return ret;
}

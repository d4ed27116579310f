// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kprobe and ftrace records' kernel-format lines and the parsers of
 * those lines.  Kept in one file so the printer and the parser are read
 * side by side: a line the parser accepts must print back byte for byte.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks_format.h"

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

/* "%px  %c  ": the address and the type letter; the rest, or NULL. */
static const char *kprobe_head(const char *s, struct ks_kprobe *p)
{
	s = parse_hex(s, &p->addr, 16);
	if (!s || strncmp(s, "  ", 2))
		return NULL;
	s += 2;
	if (!islower((unsigned char)s[0]) || strncmp(s + 1, "  ", 2))
		return NULL;
	p->type = s[0];
	return s + 3;
}

/* The last "+0x" in the token: symbol names may hold '+' nowhere, but be safe. */
static const char *last_plus(const char *s, const char *tok_end)
{
	const char *plus = NULL;

	for (const char *q = s; q + 3 <= tok_end; q++)
		if (!strncmp(q, "+0x", 3))
			plus = q;
	return plus;
}

/* "sym+0xOFF  mod " or "sym+0xOFF    ": the rest, or NULL. */
static const char *kprobe_sym(const char *s, const char *plus,
			      const char *tok_end, struct ks_kprobe *p)
{
	uint64_t off;
	const char *e = parse_hex(plus + 3, &off, 16);
	size_t n;

	if (e != tok_end || plus == s || (size_t)(plus - s) >= sizeof(p->sym))
		return NULL;
	p->has_sym = true;
	memcpy(p->sym, s, plus - s);
	p->sym[plus - s] = '\0';
	p->offset = off;
	s = tok_end;
	if (strncmp(s, "  ", 2))
		return NULL;
	s += 2;
	if (s[0] == ' ')
		/* modname NULL prints " ", then the format's own " " */
		return s[1] == ' ' ? s + 2 : NULL;
	n = strcspn(s, " ");
	if (!s[n] || n >= sizeof(p->module))
		return NULL;
	memcpy(p->module, s, n);
	p->module[n] = '\0';
	return s + n + 1;
}

/* "0x%lx " of the address itself, when kallsyms knew no symbol. */
static const char *kprobe_nosym(const char *s, const char *tok_end,
				const struct ks_kprobe *p)
{
	uint64_t a;
	const char *e;

	if (strncmp(s, "0x", 2))
		return NULL;
	e = parse_hex(s + 2, &a, 16);
	if (e != tok_end || a != p->addr)
		return NULL;
	return tok_end + 1;
}

/* The tags come in this order, each at most once, and end the line. */
static int kprobe_tags(const char *s, struct ks_kprobe *p)
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
	size_t i;

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

int ks_kprobe_parse(const char *line, struct ks_kprobe *p)
{
	const char *s, *tok_end, *plus;

	memset(p, 0, sizeof(*p));
	s = kprobe_head(line, p);
	if (!s)
		return -EINVAL;
	tok_end = s + strcspn(s, " ");
	if (!*tok_end)
		return -EINVAL;
	plus = last_plus(s, tok_end);
	s = plus ? kprobe_sym(s, plus, tok_end, p) : kprobe_nosym(s, tok_end, p);
	return s ? kprobe_tags(s, p) : -EINVAL;
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
	} else if (r->call_ops_en) {
		if (r->call_ops_error)
			PUT("\tops: ERROR!");
		else
			PUT("\tops: %s (%s)", r->call_ops_text.tramp,
			    r->call_ops_text.func);
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

/* "func" and " [module]": the rest, or NULL. */
static const char *ftrace_name(const char *s, struct ks_ftrace_rec *r)
{
	size_t n = strcspn(s, " ");

	if (!n || copy_span(r->func, sizeof(r->func), s, n))
		return NULL;
	s += n;
	if (strncmp(s, " [", 2))
		return s;
	n = strcspn(s + 2, "]");
	if (s[2 + n] != ']' ||
	    copy_span(r->module, sizeof(r->module), s + 2, n))
		return NULL;
	return s + 3 + n;
}

/* One two-character column: " X" sets *flag, two spaces do not. */
static int column(const char *s, char letter, bool *flag)
{
	if (s[0] == ' ' && s[1] == letter) {
		*flag = true;
		return 0;
	}
	return strncmp(s, "  ", 2) ? -EINVAL : 0;
}

/* " (refcount)" and the flag columns: the rest, or NULL. */
static const char *ftrace_columns(const char *s, struct ks_ftrace_rec *r)
{
	char *end;

	if (strncmp(s, " (", 2))
		return NULL;
	errno = 0;
	r->refcount = strtol(s + 2, &end, 10);
	if (errno || end == s + 2 || *end != ')')
		return NULL;
	s = end + 1;
	/* Three two-character columns: " R", " I", " D" or two spaces. */
	if (strlen(s) < 6 || column(s, 'R', &r->regs) ||
	    column(s + 2, 'I', &r->ipmodify) || column(s + 4, 'D', &r->direct))
		return NULL;
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
	return s;
}

/* One "\ttramp: %pS (%pS)" with its optional " ->%pS": the rest, or NULL. */
static const char *ftrace_tramp(const char *s, struct ks_ftrace_rec *r)
{
	struct ks_ftrace_tramp *tr;
	const char *open, *close, *stop;

	if (strncmp(s, "\ttramp: ", 8) || r->nr_tramps >= KS_FTRACE_MAX_TRAMPS)
		return NULL;
	tr = &r->tramps[r->nr_tramps++];
	tr->target[0] = '\0';
	s += 8;
	stop = next_tail(s);
	open = strstr(s, " (");
	if (!open || open >= stop)
		return NULL;
	close = strchr(open, ')');
	if (!close || close >= stop ||
	    copy_span(tr->tramp, sizeof(tr->tramp), s, open - s) ||
	    copy_span(tr->func, sizeof(tr->func), open + 2, close - open - 2))
		return NULL;
	s = close + 1;
	if (strncmp(s, " ->", 3))
		return s == stop ? s : NULL;
	if (copy_span(tr->target, sizeof(tr->target), s + 3, stop - s - 3))
		return NULL;
	return stop;
}

/* "\tops: %pS (%pS)" or "\tops: ERROR!", the whole tail. */
static int ftrace_call_ops(const char *s, struct ks_ftrace_rec *r)
{
	struct ks_ftrace_tramp *o = &r->call_ops_text;
	const char *open, *close;

	r->call_ops_en = true;
	s += 6;
	if (!strcmp(s, "ERROR!")) {
		r->call_ops_error = true;
		return 0;
	}
	open = strstr(s, " (");
	close = open ? strchr(open, ')') : NULL;
	if (!close || close[1] ||
	    copy_span(o->tramp, sizeof(o->tramp), s, open - s) ||
	    copy_span(o->func, sizeof(o->func), open + 2, close - open - 2))
		return -EINVAL;
	return 0;
}

/*
 * What follows the columns: the trampolines, the call site's ops,
 * " ->%pS", or nothing.
 */
static int ftrace_tail(const char *s, struct ks_ftrace_rec *r)
{
	if (!strncmp(s, " ->", 3))
		return copy_span(r->target, sizeof(r->target), s + 3,
				 strlen(s + 3));
	if (!strncmp(s, "\tops: ", 6))
		return ftrace_call_ops(s, r);
	if (strncmp(s, "\ttramp: ", 8))
		return *s ? -EINVAL : 0;
	r->tramp_en = true;
	if (!strcmp(s, "\ttramp: ERROR!")) {
		r->tramp_error = true;
		return 0;
	}
	while (s && *s)
		s = ftrace_tramp(s, r);
	return s ? 0 : -EINVAL;
}

int ks_ftrace_parse(const char *line, const char *direct_line,
		    struct ks_ftrace_rec *r)
{
	const char *s, *e = direct_line;

	ks_ftrace_rec_clear(r);
	s = ftrace_name(line, r);
	if (!s)
		return -EINVAL;
	if (!*s) {
		r->invalid = true;
		return direct_line ? -EINVAL : 0;
	}
	s = ftrace_columns(s, r);
	if (!s || ftrace_tail(s, r))
		return -EINVAL;
	if (e && (strncmp(e, "\tdirect-->", 10) || !e[10] ||
		  copy_span(r->direct_to, sizeof(r->direct_to), e + 10,
			    strlen(e + 10))))
		return -EINVAL;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --json's samples read back (shared/format/format_json.c writes one a
 * line): {"time":T,"host":H,...,"groups":[{"stack":[frames],"tasks":[
 * {"pid","state","start_time","cmd",...}]}]}.  Only what report uses is
 * taken; every other member is skipped, whatever its type, so that later
 * schemas still read.  Nesting is bounded: a forged line cannot recurse
 * deep.  A line that is not such an object is one bad line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_parse.h"

#define DEPTH_MAX	32
#define FRAME_MAX	512

struct cur {
	const char *s;
	int depth;
};

static void ws(struct cur *c)
{
	while (*c->s == ' ' || *c->s == '\t' || *c->s == '\r' || *c->s == '\n')
		c->s++;
}

static bool eat(struct cur *c, char ch)
{
	ws(c);
	if (*c->s != ch)
		return false;
	c->s++;
	return true;
}

/* \uXXXX as UTF-8 (a lone surrogate, '?') into out; its length */
static size_t utf8(unsigned int cp, char *out)
{
	if (cp >= 0xd800 && cp <= 0xdfff)
		cp = '?';
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	out[0] = (char)(0xe0 | cp >> 12);
	out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

/* One escape after '\\' into out (room for 3); its length, 0 if bad. */
static size_t unescape(struct cur *c, char *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k = *c->s ? strchr(from, *c->s) : NULL;
	unsigned int cp;
	int n = 0;

	if (k) {
		c->s++;
		*out = to[k - from];
		return 1;
	}
	if (*c->s != 'u' || sscanf(c->s + 1, "%4x%n", &cp, &n) != 1 || n != 4)
		return 0;
	c->s += 5;
	return utf8(cp, out);
}

/* A string into out (cut to cap - 1, NUL-terminated; NULL: skipped). */
static bool string(struct cur *c, char *out, size_t cap)
{
	size_t len = 0;

	if (!eat(c, '"'))
		return false;
	while (*c->s && *c->s != '"') {
		char buf[4];
		size_t n = 1;

		if (*c->s == '\\') {
			c->s++;
			n = unescape(c, buf);
			if (!n)
				return false;
		} else {
			buf[0] = *c->s++;
		}
		if (out && len + n < cap) {
			memcpy(out + len, buf, n);
			len += n;
		}
	}
	if (out)
		out[len] = '\0';
	return eat(c, '"');
}

static bool value(struct cur *c);

/* [v, ...] or {"k": v, ...}, each element skipped */
static bool container(struct cur *c, char close, bool keys)
{
	bool ok = true;

	if (++c->depth > DEPTH_MAX)
		return false;
	c->s++;
	if (eat(c, close)) {
		c->depth--;
		return true;
	}
	do {
		if (keys)
			ok = string(c, NULL, 0) && eat(c, ':');
		ok = ok && value(c);
	} while (ok && eat(c, ','));
	c->depth--;
	return ok && eat(c, close);
}

/* Any value, skipped. */
static bool value(struct cur *c)
{
	ws(c);
	if (*c->s == '"')
		return string(c, NULL, 0);
	if (*c->s == '[')
		return container(c, ']', false);
	if (*c->s == '{')
		return container(c, '}', true);
	if (!strncmp(c->s, "true", 4) || !strncmp(c->s, "null", 4)) {
		c->s += 4;
		return true;
	}
	if (!strncmp(c->s, "false", 5)) {
		c->s += 5;
		return true;
	}
	if (*c->s != '-' && (*c->s < '0' || *c->s > '9'))
		return false;
	c->s += strspn(c->s, "-+.eE0123456789");
	return true;
}

/* An integer, or null (then *null); false for anything else. */
static bool integer(struct cur *c, long long *v, bool *null)
{
	char *end;

	ws(c);
	*null = !strncmp(c->s, "null", 4);
	if (*null) {
		c->s += 4;
		return true;
	}
	*v = strtoll(c->s, &end, 10);
	if (end == c->s)
		return false;
	/* a fraction or an exponent, skipped */
	c->s = end + strspn(end, ".eE+-0123456789");
	return true;
}

typedef bool (*member_fn)(struct cur *c, const char *key, void *arg);

/* {"key": value, ...}, each member through fn */
static bool object(struct cur *c, member_fn fn, void *arg)
{
	char key[32];
	bool ok = true;

	if (!eat(c, '{') || ++c->depth > DEPTH_MAX)
		return false;
	if (eat(c, '}')) {
		c->depth--;
		return true;
	}
	do {
		ok = string(c, key, sizeof(key)) && eat(c, ':') && fn(c, key, arg);
	} while (ok && eat(c, ','));
	c->depth--;
	return ok && eat(c, '}');
}

typedef bool (*element_fn)(struct cur *c, void *arg);

/* [element, ...], each through fn */
static bool array(struct cur *c, element_fn fn, void *arg)
{
	bool ok = true;

	if (!eat(c, '['))
		return false;
	if (eat(c, ']'))
		return true;
	do
		ok = fn(c, arg);
	while (ok && eat(c, ','));
	return ok && eat(c, ']');
}

struct ctx {
	struct ks_rp_parser *p;
	struct ks_rp_task t;
	bool has_time;
	int err;		/* -ENOMEM */
};

static bool frame(struct cur *c, void *arg)
{
	struct ctx *x = arg;
	char f[FRAME_MAX] = "[<0>] ";

	if (!string(c, f + 6, sizeof(f) - 6))
		return false;
	x->err = ks_rp_group_frame(x->p, f, strlen(f));
	return !x->err;
}

/* start_time as the text writes it: the identity of a task across PIDs */
static void start_text(char *buf, size_t len, long long start, bool null)
{
	time_t t = (time_t)start;
	struct tm tm;

	if (null || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y/%m/%d %H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

/* nvcsw or nivcsw: a count, or null (unknown) */
static bool switches(struct cur *c, const char *key, struct ks_rp_task *t)
{
	bool voluntary = !strcmp(key, "nvcsw"), null;
	long long v;

	if (!integer(c, &v, &null))
		return false;
	if (null || v < 0)
		return true;
	if (voluntary)
		t->nvcsw = (uint64_t)v, t->has_nvcsw = true;
	else
		t->nivcsw = (uint64_t)v, t->has_nivcsw = true;
	return true;
}

static bool task_member(struct cur *c, const char *key, void *arg)
{
	struct ctx *x = arg;
	char state[8];
	long long v = 0;
	bool null;

	if (!strcmp(key, "pid")) {
		if (!integer(c, &v, &null))
			return false;
		/* out of range: counted, named by no PID, said as bad */
		x->t.pid = !null && ks_rp_pid_valid(v) ? (int)v : 0;
		if (!null && !x->t.pid)
			x->p->nr_bad_pid++;
		return true;
	}
	if (!strcmp(key, "state")) {
		if (!string(c, state, sizeof(state)))
			return false;
		x->t.state = state[0];
		return true;
	}
	if (!strcmp(key, "start_time")) {
		if (!integer(c, &v, &null))
			return false;
		start_text(x->t.start, sizeof(x->t.start), v, null);
		return true;
	}
	if (!strcmp(key, "cmd"))
		return string(c, x->t.cmd, sizeof(x->t.cmd));
	if (!strcmp(key, "nvcsw") || !strcmp(key, "nivcsw"))
		return switches(c, key, &x->t);
	return value(c);
}

static bool task(struct cur *c, void *arg)
{
	struct ctx *x = arg;

	x->t = (struct ks_rp_task){ .weight = 1, .state = '?', .start = "?" };
	if (!object(c, task_member, x))
		return false;
	x->err = ks_rp_task_add(x->p, &x->t);
	return !x->err;
}

static bool group_member(struct cur *c, const char *key, void *arg)
{
	if (!strcmp(key, "stack"))
		return array(c, frame, arg);
	if (!strcmp(key, "tasks"))
		return array(c, task, arg);
	return value(c);
}

static bool group(struct cur *c, void *arg)
{
	struct ctx *x = arg;
	bool ok;

	x->err = ks_rp_group_new(x->p);
	if (x->err)
		return false;
	ok = object(c, group_member, x);
	ks_rp_group_close(x->p);
	return ok;
}

static bool sample_member(struct cur *c, const char *key, void *arg)
{
	struct ctx *x = arg;
	struct ks_rp_sample *s = &x->p->s;
	long long v;
	bool null;

	if (!strcmp(key, "time")) {
		x->has_time = integer(c, &v, &null) && !null;
		s->time = (time_t)v;
		return x->has_time;
	}
	if (!strcmp(key, "host"))
		return string(c, s->host, sizeof(s->host));
	if (!strcmp(key, "groups"))
		return array(c, group, arg);
	return value(c);
}

int ks_rp_json_line(struct ks_rp_parser *p, const char *line)
{
	struct ctx x = { .p = p };
	struct cur c = { .s = line };
	int ret = ks_rp_flush(p, true);

	if (ret)
		return ret;
	p->in_sample = true;
	if (!object(&c, sample_member, &x) || !x.has_time || (ws(&c), *c.s)) {
		ks_rp_flush(p, false);
		return x.err ? x.err : -EINVAL;
	}
	return ks_rp_flush(p, true);
}

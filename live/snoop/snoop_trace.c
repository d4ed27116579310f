// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_pipe's text for kstack --snoop.  The line context is what the
 * kernel's trace_print_context() writes (Linux 6.1):
 * "%16s-%-7d " comm and pid, "[%03d] " cpu, the irq-info flags, then
 * " %5llu.%06lu: " the time; trace_stack_print() writes "<stack trace>"
 * and one " => %pS" line per frame (with sym-offset: name+off/size and
 * " [module]"), so frames become /proc/PID/stack's "[<0>] " lines.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "snoop_trace.h"

#define MAX_CPUS	8192

static bool all_digits(const char *s, const char *end)
{
	if (s == end)
		return false;
	for (; s < end; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * "52.118934:" as nanoseconds; the fraction may have 6 or 9 digits.  A
 * time past 64 bits of nanoseconds (584 years) is no time of a trace.
 */
static bool parse_ts(const char *s, const char *end, uint64_t *ns)
{
	const char *dot = memchr(s, '.', (size_t)(end - s));
	uint64_t sec = 0, frac = 0;
	size_t digits;

	if (!dot || end[-1] != ':' || !all_digits(s, dot) ||
	    !all_digits(dot + 1, end - 1))
		return false;
	for (; s < dot; s++) {
		sec = sec * 10 + (uint64_t)(*s - '0');
		if (sec > UINT64_MAX / 1000000000ull)
			return false;
	}
	digits = (size_t)(end - 1 - (dot + 1));
	if (digits > 9)
		return false;
	for (s = dot + 1; s < end - 1; s++)
		frac = frac * 10 + (uint64_t)(*s - '0');
	for (; digits < 9; digits++)
		frac *= 10;
	if (sec * 1000000000ull > UINT64_MAX - frac)
		return false;
	*ns = sec * 1000000000ull + frac;
	return true;
}

/*
 * Is "-PID  [CPU]" at line[dash]?  The comm before it may hold anything,
 * so its end is where the kernel's fixed width puts it when it can.
 */
static bool pid_cpu_at(const char *line, const char *dash, struct ks_trace_ctx *c,
		       const char **after)
{
	const char *p = dash + 1, *q;
	long pid, cpu;

	if (*dash != '-' || !isdigit((unsigned char)*p))
		return false;
	pid = strtol(p, (char **)&q, 10);
	if (*q != ' ')
		return false;
	while (*q == ' ')
		q++;
	if (*q != '[' || !isdigit((unsigned char)q[1]))
		return false;
	cpu = strtol(q + 1, (char **)&p, 10);
	if (*p != ']' || pid < 0 || pid > INT32_MAX || cpu < 0 || cpu >= MAX_CPUS)
		return false;
	for (q = line; q < dash && *q == ' '; q++)
		;
	if ((size_t)(dash - q) >= sizeof(c->comm))
		return false;
	memcpy(c->comm, q, (size_t)(dash - q));
	c->comm[dash - q] = '\0';
	c->pid = (int32_t)pid;
	c->cpu = (int)cpu;
	*after = p + 1;
	return true;
}

int ks_trace_line_parse(const char *line, struct ks_trace_ctx *c)
{
	const char *p = NULL, *tok, *end;
	size_t len = strlen(line);

	/* "%16s-": the dash is at 16 unless the comm was wider */
	if (len > 16 && pid_cpu_at(line, line + 16, c, &p))
		goto time;
	for (const char *d = strchr(line, '-'); d; d = strchr(d + 1, '-'))
		if (pid_cpu_at(line, d, c, &p))
			goto time;
	return -EINVAL;
time:
	/* the irq-info flags (if any), then the time */
	for (tok = p;; tok = end) {
		while (*tok == ' ')
			tok++;
		if (!*tok)
			return -EINVAL;
		end = strchr(tok, ' ');
		if (!end)
			end = tok + strlen(tok);
		if (parse_ts(tok, end, &c->ts_ns))
			break;
	}
	c->text = *end ? end + 1 : end;
	return 0;
}

void ks_snoop_parser_init(struct ks_snoop_parser *p, const char *event,
			  ks_snoop_emit_fn emit, void *arg)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->event, sizeof(p->event), "%s", event);
	p->emit = emit;
	p->arg = arg;
}

static int add_frame(struct ks_snoop_parser *p, const char *frame)
{
	size_t len = strlen(frame) + 7;

	if (p->frames_len + len + 1 > p->frames_cap) {
		char *n = ks_grow(p->frames, &p->frames_cap,
				  p->frames_len + len + 1, 1);

		if (!n)
			return -ENOMEM;
		p->frames = n;
	}
	p->frames_len += (size_t)sprintf(p->frames + p->frames_len, "[<0>] %s\n",
					 frame);
	return 0;
}

static void emit_stack(struct ks_snoop_parser *p, struct ks_snoop_rec *r,
		       const char *stack)
{
	r->stack = strdup(stack);
	if (!r->stack)
		return;		/* out of memory: the call is lost */
	if (!*stack)
		p->no_stack++;
	p->emit(p->arg, r);
	free(r->stack);
	r->stack = NULL;
}

void ks_snoop_parse_flush(struct ks_snoop_parser *p)
{
	if (!p->collecting)
		return;
	p->collecting = false;
	emit_stack(p, &p->cur, p->frames_len ? p->frames : "");
	p->frames_len = 0;
}

static int grow_cpus(struct ks_snoop_parser *p, int cpu)
{
	size_t n = (size_t)cpu + 1;
	struct ks_snoop_rec *r;
	bool *h;

	if (n <= p->nr_cpus)
		return 0;
	r = ks_grow(p->pending, &p->pending_cap, n, sizeof(*r));
	if (!r)
		return -ENOMEM;
	p->pending = r;
	h = ks_grow(p->has_pending, &p->has_pending_cap, n, sizeof(*h));
	if (!h)
		return -ENOMEM;
	p->has_pending = h;
	memset(h + p->nr_cpus, 0, (n - p->nr_cpus) * sizeof(*h));
	p->nr_cpus = n;
	return 0;
}

static void rec_from(struct ks_snoop_rec *r, const struct ks_trace_ctx *c)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->comm, c->comm, sizeof(r->comm));
	r->pid = c->pid;
	r->cpu = c->cpu;
	r->ts_ns = c->ts_ns;
}

/* "<stack trace>": the frames that follow are the pending call's. */
static void start_stack(struct ks_snoop_parser *p, const struct ks_trace_ctx *c)
{
	if (p->has_pending[c->cpu] && p->pending[c->cpu].pid == c->pid) {
		p->cur = p->pending[c->cpu];
		p->has_pending[c->cpu] = false;
	} else {
		/* its event was lost or read before we started: keep the stack */
		rec_from(&p->cur, c);
	}
	p->collecting = true;
	p->frames_len = 0;
}

/*
 * The event's comm="..." argument (the probe asks for $comm), printed last
 * and unescaped: everything up to the line's last quote.  It is the comm
 * at the call, where the line's own may be "<...>" or an older name.
 */
static void event_comm(struct ks_snoop_rec *r, const char *text)
{
	const char *q = strstr(text, " comm=\""), *end;

	if (!q)
		return;
	q += 7;
	end = strrchr(q, '"');
	if (!end || end == q || (size_t)(end - q) >= sizeof(r->comm))
		return;
	memcpy(r->comm, q, (size_t)(end - q));
	r->comm[end - q] = '\0';
}

static bool is_our_event(const struct ks_snoop_parser *p, const char *text)
{
	size_t n = strlen(p->event);

	return !strncmp(text, p->event, n) && text[n] == ':';
}

int ks_snoop_parse_line(struct ks_snoop_parser *p, const char *line)
{
	struct ks_trace_ctx c;
	unsigned long long lost;
	int cpu;

	if (!strncmp(line, " => ", 4)) {
		if (!p->collecting) {
			p->unparsed++;
			return 0;
		}
		return add_frame(p, line + 4);
	}
	ks_snoop_parse_flush(p);
	if (sscanf(line, "CPU:%d [LOST %llu EVENTS]", &cpu, &lost) == 2) {
		p->lost += lost;
		return 0;
	}
	if (!*line)
		return 0;
	if (ks_trace_line_parse(line, &c) || grow_cpus(p, c.cpu)) {
		p->unparsed++;
		return 0;
	}
	if (!strcmp(c.text, "<stack trace>")) {
		start_stack(p, &c);
		return 0;
	}
	if (!is_our_event(p, c.text)) {
		p->unparsed++;
		return 0;
	}
	if (p->has_pending[c.cpu])
		emit_stack(p, &p->pending[c.cpu], "");
	rec_from(&p->pending[c.cpu], &c);
	event_comm(&p->pending[c.cpu], c.text);
	p->has_pending[c.cpu] = true;
	return 0;
}

void ks_snoop_parse_end(struct ks_snoop_parser *p)
{
	size_t cpu;

	ks_snoop_parse_flush(p);
	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (!p->has_pending[cpu])
			continue;
		p->has_pending[cpu] = false;
		emit_stack(p, &p->pending[cpu], "");
	}
}

void ks_snoop_parser_release(struct ks_snoop_parser *p)
{
	free(p->pending);
	free(p->has_pending);
	free(p->frames);
	memset(p, 0, sizeof(*p));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * live/snoop/snoop_trace.c on trace_pipe's text, and each call it makes out of
 * it through live/snoop/snoop_format.c.  The first byte picks the output form
 * (text, -c, --json, --folded); the rest is trace_pipe, a form feed at
 * the start of a line marking where one read() of it ended.
 */
#include "fuzz.h"
#include "snoop_format.h"
#include "snoop_trace.h"

/* A wall clock in 2026 minus an uptime: what live/snoop/snoop.c computes. */
#define WALL_OFFSET_NS	1795000000000000000ll

static void on_call(void *arg, struct ks_snoop_rec *r)
{
	struct ks_snoop_out *o = arg;

	fuzz_assert(r->stack);
	fuzz_assert(memchr(r->comm, '\0', sizeof(r->comm)));
	ks_snoop_out_rec(o, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ks_format forms[] = { KS_FMT_TEXT, KS_FMT_SUMMARY,
		KS_FMT_JSON, KS_FMT_FOLDED };
	struct ks_snoop_parser p;
	struct ks_snoop_out o;
	char *text, *rest, *line;

	if (!size)
		return 0;
	ks_snoop_out_init(&o, fuzz_null(), forms[data[0] & 3], "ksys_sync",
			  WALL_OFFSET_NS);
	ks_snoop_parser_init(&p, "kstack_290_0", on_call, &o);
	rest = text = fuzz_str(data + 1, size - 1);
	while ((line = fuzz_line(&rest))) {
		if (*line == '\f') {
			ks_snoop_parse_flush(&p);
			line++;
		}
		fuzz_assert(!ks_snoop_parse_line(&p, line));
	}
	ks_snoop_parse_end(&p);
	ks_snoop_out_end(&o, 1.5);
	ks_snoop_parser_release(&p);
	ks_snoop_out_release(&o);
	free(text);
	return 0;
}

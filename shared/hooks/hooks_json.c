// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON twin of hooks_format.c's lines: the same records, the same
 * fields, one object per line (JSON Lines, as a --json sample is).
 * Addresses are strings of hex digits as the text prints them: a kernel
 * address does not fit a JSON number exactly.
 */
#include <inttypes.h>
#include <stdbool.h>

#include "format.h"
#include "hooks_json.h"
#include "symbolize.h"

static void str_or_null(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	if (s && *s)
		ks_json_str(out, s);
	else
		fputs("null", out);
}

static void flag(FILE *out, bool on, const char *name, const char **sep)
{
	if (!on)
		return;
	fprintf(out, "%s\"%s\"", *sep, name);
	*sep = ",";
}

/* report_probe(): the flags in the order the line prints them */
/* "key":"handler+0x0/0x50 [module]", or null for none */
static void handler_json(FILE *out, const struct ks_target *t, const char *key,
			 uint64_t addr)
{
	char text[KS_HOOK_TEXT_LEN];

	fprintf(out, ",\"%s\":", key);
	if (!addr) {
		fputs("null", out);
		return;
	}
	ks_sym_format_pS(t, addr, text, sizeof(text));
	ks_json_str(out, text);
}

/* What only memory tells: the struct, its handlers, the event it serves. */
static void kprobe_detail_json(FILE *out, const struct ks_target *t,
			       const struct ks_kprobe *p)
{
	fprintf(out, ",\"kprobe\":\"%016" PRIx64 "\",\"nmissed\":%" PRIu64,
		p->kaddr, p->nmissed);
	if (!t)
		return;
	handler_json(out, t, "pre_handler", p->pre_handler);
	handler_json(out, t, "post_handler", p->post_handler);
	if (p->type == 'r') {
		handler_json(out, t, "ret_handler", p->ret_handler);
		handler_json(out, t, "entry_handler", p->entry_handler);
	}
	fputs(",\"event\":", out);
	if (*p->event)
		ks_json_str(out, p->event);
	else
		fputs("null", out);
}

void ks_kprobe_json(FILE *out, const struct ks_target *t,
		    const struct ks_kprobe *p)
{
	unsigned int pf = p->flags, af = p->aggr_flags;
	const char *sep = "";

	fprintf(out, "{\"kind\":\"kprobe\",\"addr\":\"%016" PRIx64 "\",\"type\":\"%c\"",
		p->addr, p->type);
	if (p->has_sym) {
		str_or_null(out, "symbol", p->sym);
		fprintf(out, ",\"offset\":%u", (unsigned int)p->offset);
	} else {
		fputs(",\"symbol\":null,\"offset\":null", out);
	}
	str_or_null(out, "module", p->module);
	fputs(",\"flags\":[", out);
	flag(out, pf & KS_KPROBE_FL_GONE, "GONE", &sep);
	flag(out, (pf & KS_KPROBE_FL_DISABLED) && !(pf & KS_KPROBE_FL_GONE),
	     "DISABLED", &sep);
	flag(out, af & KS_KPROBE_FL_OPTIMIZED, "OPTIMIZED", &sep);
	flag(out, af & KS_KPROBE_FL_FTRACE, "FTRACE", &sep);
	fputc(']', out);
	if (p->detailed)
		kprobe_detail_json(out, t, p);
	fputs("}\n", out);
}

static void tramps(FILE *out, const struct ks_ftrace_rec *r)
{
	fputs(",\"tramps\":[", out);
	for (size_t i = 0; i < r->nr_tramps; i++) {
		const struct ks_ftrace_tramp *tr = &r->tramps[i];

		fputs(i ? ",{\"tramp\":" : "{\"tramp\":", out);
		ks_json_str(out, tr->tramp);
		fputs(",\"func\":", out);
		ks_json_str(out, tr->func);
		str_or_null(out, "target", tr->target);
		fputc('}', out);
	}
	fputc(']', out);
}

/* print_rec() and t_show()'s columns: R I D, and O M from Linux 6.4 */
void ks_ftrace_rec_json(FILE *out, const struct ks_ftrace_rec *r)
{
	const char *sep = "";

	fputs("{\"kind\":\"ftrace\",\"func\":", out);
	ks_json_str(out, r->func);
	str_or_null(out, "module", r->module);
	if (r->invalid) {
		fputs(",\"invalid\":true}\n", out);
		return;
	}
	fprintf(out, ",\"refcount\":%ld,\"flags\":[", r->refcount);
	flag(out, r->regs, "R", &sep);
	flag(out, r->ipmodify, "I", &sep);
	flag(out, r->direct, "D", &sep);
	flag(out, r->columns == 5 && r->call_ops, "O", &sep);
	flag(out, r->columns == 5 && r->modified, "M", &sep);
	fputc(']', out);
	if (r->tramp_en) {
		fprintf(out, ",\"tramp_error\":%s", r->tramp_error ? "true" : "false");
		tramps(out, r);
	}
	str_or_null(out, "target", r->tramp_en ? NULL : r->target);
	str_or_null(out, "direct", r->direct_to);
	fputs("}\n", out);
}

void ks_hook_line_json(FILE *out, const char *kind, const char *line)
{
	fprintf(out, "{\"kind\":\"%s\",\"unparsed\":", kind);
	ks_json_str(out, line);
	fputs("}\n", out);
}

int ks_ftrace_rec_json_fn(void *arg, const struct ks_ftrace_rec *r)
{
	ks_ftrace_rec_json(arg, r);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --cpus writers.  The text keeps the kernel's spellings:
 * dump_stack_print_info()'s header, show_iret_regs()' "RIP: %04x:%pS"
 * and "RSP: %04x:%016lx EFLAGS: %08lx" at a crossing,
 * printk_stack_address()'s " %s%pB" ("? " for a frame the unwinder did
 * not reach) and the stack markers " <IRQ>" ... " </IRQ>".  The CPU's
 * own registers come from a note that keeps no segments or flags, so
 * its RIP and RSP lines have none.
 */
#include <errno.h>
#include <inttypes.h>

#include "format.h"
#include "format_cpus.h"
#include "text_escape.h"

static void text_line(FILE *out, const struct ks_cpu_line *l)
{
	switch (l->kind) {
	case KS_CPU_FRAME:
		fprintf(out, " %s%s\n", l->unsure ? "? " : "", l->text);
		break;
	case KS_CPU_OPEN:
		fprintf(out, " <%s>\n", l->text);
		break;
	case KS_CPU_CLOSE:
		fprintf(out, " </%s>\n", l->text);
		break;
	case KS_CPU_REGS:
		fprintf(out, "RIP: %04x:%s\n", l->regs.cs, l->text);
		fprintf(out, "RSP: %04x:%016" PRIx64 " EFLAGS: %08" PRIx64 "\n",
			l->regs.ss, l->regs.sp, l->regs.flags);
		break;
	}
}

/* x86's RIP and RSP, or arm64's __show_regs(): pc, lr, sp */
static void text_regs(FILE *out, const struct ks_cpus *cs, const struct ks_cpu *c)
{
	fprintf(out, "Registers: %s\n", cs->regs_source);
	if (cs->pc_lr && c->user) {
		fprintf(out, "pc : %016" PRIx64 "\n", c->regs.ip);
		fprintf(out, "lr : %016" PRIx64 "\n", c->regs.r[0]);
	} else if (cs->pc_lr) {
		fprintf(out, "pc : %s\n", c->ip_text);
		fprintf(out, "lr : %s\n", c->lr_text);
	} else if (c->user) {
		fprintf(out, "RIP: %016" PRIx64 "\n", c->regs.ip);
	} else {
		fprintf(out, "RIP: %s\n", c->ip_text);
	}
	fprintf(out, "%s%016" PRIx64 "\n", cs->pc_lr ? "sp : " : "RSP: ",
		c->regs.sp);
}

static void text_cpu(FILE *out, const struct ks_cpus *cs, const struct ks_cpu *c)
{
	fprintf(out, "CPU: %d PID: %d Comm: ", c->cpu, c->pid);
	ks_fputs_escaped(c->comm, out);
	fputc('\n', out);
	if (c->offline)
		fputs("Offline: the CPU is not in cpu_online_mask\n", out);
	if (c->switching) {
		fprintf(out, "Switching: to PID %d Comm: ", c->next_pid);
		ks_fputs_escaped(c->next_comm, out);
		fputs(" (rq->curr already); the CPU is still on the stack "
		      "of the task above\n", out);
	}
	if (c->has_regs)
		text_regs(out, cs, c);
	if (c->nr_lines)
		fputs(cs->pc_lr ? "Call trace:\n" : "Call Trace:\n", out);
	for (size_t i = 0; i < c->nr_lines; i++)
		text_line(out, &c->lines[i]);
	if (c->user)
		fputs("User mode: no kernel stack to show\n", out);
	if (c->note)
		fprintf(out, "The trace ends here: %s\n", c->note);
	fputc('\n', out);
}

static void json_hex(FILE *out, const char *key, uint64_t v)
{
	fprintf(out, ",\"%s\":\"0x%" PRIx64 "\"", key, v);
}

static void json_line(FILE *out, const struct ks_cpu_line *l)
{
	switch (l->kind) {
	case KS_CPU_FRAME:
		fputs("{\"frame\":", out);
		ks_json_str(out, l->text);
		json_hex(out, "addr", l->addr);
		fprintf(out, ",\"reliable\":%s}", l->unsure ? "false" : "true");
		break;
	case KS_CPU_OPEN:
	case KS_CPU_CLOSE:
		fprintf(out, "{\"%s\":", l->kind == KS_CPU_OPEN ? "enter" : "leave");
		ks_json_str(out, l->text);
		fputc('}', out);
		break;
	case KS_CPU_REGS:
		fputs("{\"regs\":{\"rip_symbol\":", out);
		ks_json_str(out, l->text);
		json_hex(out, "rip", l->regs.ip);
		json_hex(out, "rsp", l->regs.sp);
		json_hex(out, "eflags", l->regs.flags);
		fprintf(out, ",\"cs\":%u,\"ss\":%u,\"partial\":%s}}", l->regs.cs,
			l->regs.ss, l->regs.partial ? "true" : "false");
		break;
	}
}

static void json_cpu(FILE *out, const struct ks_cpus *cs, const struct ks_cpu *c)
{
	fprintf(out, "{\"cpu\":%d,\"pid\":%d,\"comm\":", c->cpu, c->pid);
	ks_json_str(out, c->comm);
	fprintf(out, ",\"idle\":%s,\"online\":%s,\"user\":%s",
		c->idle ? "true" : "false", c->offline ? "false" : "true",
		c->user ? "true" : "false");
	if (c->switching) {
		fprintf(out, ",\"switching_to\":{\"pid\":%d,\"comm\":",
			c->next_pid);
		ks_json_str(out, c->next_comm);
		fputc('}', out);
	}
	if (c->has_regs) {
		fputs(",\"registers\":", out);
		ks_json_str(out, cs->regs_source);
		json_hex(out, "rip", c->regs.ip);
		fputs(",\"rip_symbol\":", out);
		ks_json_str(out, c->ip_text ? c->ip_text : "");
		json_hex(out, "rsp", c->regs.sp);
	}
	if (c->has_regs && cs->pc_lr) {
		json_hex(out, "lr", c->regs.r[0]);
		fputs(",\"lr_symbol\":", out);
		ks_json_str(out, c->lr_text ? c->lr_text : "");
	}
	fputs(",\"trace\":[", out);
	for (size_t i = 0; i < c->nr_lines; i++) {
		if (i)
			fputc(',', out);
		json_line(out, &c->lines[i]);
	}
	fputs("],\"note\":", out);
	if (c->note)
		ks_json_str(out, c->note);
	else
		fputs("null", out);
	fputs("}\n", out);
}

void ks_format_cpu(FILE *out, const struct ks_cpus *cs, const struct ks_cpu *c,
		   bool json)
{
	(json ? json_cpu : text_cpu)(out, cs, c);
}

int ks_format_cpus(FILE *out, const struct ks_cpus *cs, bool json)
{
	for (size_t i = 0; i < cs->nr; i++)
		ks_format_cpu(out, cs, &cs->cpu[i], json);
	return ferror(out) ? -EIO : 0;
}

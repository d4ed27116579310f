// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log as util-linux dmesg prints it (and crash's log): the
 * time since boot, then the text; a record of several lines has its
 * later lines indented under the first line's text.  A control byte
 * other than a tab is written as \xNN, as dmesg writes it, so that one
 * record cannot forge another's line.
 */
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "format_log.h"

static void text_line(FILE *out, const struct ks_log_record *rec, int indent)
{
	const unsigned char *p = (const unsigned char *)rec->text;

	for (size_t i = 0; i < rec->text_len; i++) {
		if (p[i] == '\n') {
			/* a last newline ends the record, as in dmesg */
			if (i + 1 < rec->text_len)
				fprintf(out, "\n%*s", indent, "");
		} else if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f) {
			fprintf(out, "\\x%02x", p[i]);
		} else {
			fputc(p[i], out);
		}
	}
	fputc('\n', out);
}

static void json_record(FILE *out, const struct ks_log_record *rec)
{
	fprintf(out, "{\"seq\": %" PRIu64 ", \"ts_nsec\": %" PRIu64
		", \"level\": %u, \"facility\": %u", rec->seq, rec->ts_nsec,
		rec->level, rec->facility);
	if (rec->has_caller)
		fprintf(out, ", \"caller\": \"%c%u\"",
			rec->caller_id & KS_LOG_CALLER_CPU ? 'C' : 'T',
			rec->caller_id & ~KS_LOG_CALLER_CPU);
	fputs(", \"text\": ", out);
	ks_json_str_n(out, rec->text, rec->text_len);
	if (rec->subsystem && *rec->subsystem) {
		fputs(", \"subsystem\": ", out);
		ks_json_str(out, rec->subsystem);
	}
	if (rec->device && *rec->device) {
		fputs(", \"device\": ", out);
		ks_json_str(out, rec->device);
	}
	fputs("}\n", out);
}

/*
 * A line of a printk_safe buffer, as crash's log: "[nmi_print_seq] "
 * before a line that KERN_SOH heads, as many spaces before one that
 * goes on without it; no time, the buffer keeps none.
 */
static void safe_text(FILE *out, const struct ks_log_record *rec)
{
	int indent = (int)strlen(rec->buffer) + 3;

	if (rec->headed)
		fprintf(out, "[%s] ", rec->buffer);
	else
		fprintf(out, "%*s", indent, "");
	text_line(out, rec, indent);
}

static void safe_json(FILE *out, const struct ks_log_record *rec)
{
	fputs("{\"buffer\": ", out);
	ks_json_str(out, rec->buffer);
	fprintf(out, ", \"cpu\": %u", rec->cpu);
	if (rec->header >= '0' && rec->header <= '7')
		fprintf(out, ", \"level\": %u", rec->level);
	if (rec->header == 'c')
		fputs(", \"cont\": true", out);
	if (!rec->headed)
		fputs(", \"no_header\": true", out);
	fputs(", \"text\": ", out);
	ks_json_str_n(out, rec->text, rec->text_len);
	if (rec->message_lost)
		fprintf(out, ", \"message_lost\": %d", rec->message_lost);
	fputs("}\n", out);
}

void ks_format_log_record(FILE *out, bool json, const struct ks_log_record *rec)
{
	int len;

	if (rec->buffer) {
		(json ? safe_json : safe_text)(out, rec);
		return;
	}
	if (json) {
		json_record(out, rec);
		return;
	}
	len = fprintf(out, "[%5" PRIu64 ".%06" PRIu64 "] ",
		      rec->ts_nsec / 1000000000, rec->ts_nsec % 1000000000 / 1000);
	text_line(out, rec, len > 0 ? len : 0);
}

void ks_format_log_trouble(FILE *out, bool json,
			   const struct ks_log_trouble *tr)
{
	if (!json)
		return;
	fprintf(out, "{\"not_read\": {\"reserved\": %lu, \"lost_records\": %lu,"
		" \"lost_ranges\": %lu, \"unreadable\": %lu, \"invalid\": %lu}}\n",
		tr->reserved, tr->lost_records, tr->lost_ranges,
		tr->unreadable, tr->bad);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/kmsg's records (kernel/printk/printk.c: info_print_ext_header(),
 * msg_print_ext_body()): a header of comma-separated numbers, ';', the
 * text with every byte below ' ', above '~' and '\\' written as \xNN,
 * '\n', then the device's SUBSYSTEM= and DEVICE= lines, each after a
 * space.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_parse.h"

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* [p, end) unescaped into out (size bytes); returns the length. */
static size_t unescape(const char *p, const char *end, char *out, size_t size)
{
	size_t n = 0;

	while (p < end && n < size) {
		if (p[0] == '\\' && end - p >= 4 && p[1] == 'x' &&
		    hex(p[2]) >= 0 && hex(p[3]) >= 0) {
			out[n++] = (char)(hex(p[2]) << 4 | hex(p[3]));
			p += 4;
			continue;
		}
		out[n++] = *p++;
	}
	return n;
}

/* The header's fields: prio, seq, ts, flags and the optional caller=. */
static int parse_header(const char *p, const char *semi,
			struct ks_log_record *rec)
{
	unsigned long long v[3];
	char *end;

	for (int i = 0; i < 3; i++) {
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno || end == p || end >= semi || *end != ',')
			return -EINVAL;
		p = end + 1;
	}
	rec->level = v[0] & 7;
	rec->facility = (uint8_t)(v[0] >> 3);
	rec->seq = v[1];
	rec->ts_nsec = v[2] * 1000;
	rec->flags = 0;
	rec->has_caller = false;
	for (; p < semi; p++) {
		if (strncmp(p, ",caller=", 8) || semi - p < 10)
			continue;
		rec->caller_id = (uint32_t)strtoul(p + 9, NULL, 10);
		if (p[8] == 'C')
			rec->caller_id |= KS_LOG_CALLER_CPU;
		rec->has_caller = p[8] == 'C' || p[8] == 'T';
	}
	return 0;
}

/* " KEY=VALUE" lines after the text. */
static void parse_dict(const char *p, const char *end, struct ks_kmsg_record *out)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		size_t n;

		if (stop - p > 11 && !strncmp(p, " SUBSYSTEM=", 11)) {
			n = unescape(p + 11, stop, out->subsystem,
				     sizeof(out->subsystem) - 1);
			out->subsystem[n] = '\0';
		} else if (stop - p > 8 && !strncmp(p, " DEVICE=", 8)) {
			n = unescape(p + 8, stop, out->device,
				     sizeof(out->device) - 1);
			out->device[n] = '\0';
		}
		p = nl ? nl + 1 : end;
	}
}

int ks_kmsg_parse(const char *buf, size_t len, struct ks_kmsg_record *out)
{
	const char *end = buf + len, *semi, *nl;

	semi = memchr(buf, ';', len);
	if (!semi)
		return -EINVAL;
	nl = memchr(semi, '\n', (size_t)(end - semi));
	if (!nl)
		nl = end;
	memset(&out->rec, 0, sizeof(out->rec));
	if (parse_header(buf, semi, &out->rec))
		return -EINVAL;
	out->rec.text_len = unescape(semi + 1, nl, out->text, sizeof(out->text));
	out->rec.text = out->text;
	out->subsystem[0] = out->device[0] = '\0';
	parse_dict(nl < end ? nl + 1 : end, end, out);
	out->rec.subsystem = out->subsystem;
	out->rec.device = out->device;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Control characters of a comm or command line escaped, so that they
 * never break the one-task-per-line formats.
 */
#include <string.h>

#include "text_escape.h"

void ks_fwrite_escaped(const char *s, size_t len, FILE *out)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

void ks_fputs_escaped(const char *s, FILE *out)
{
	ks_fwrite_escaped(s, strlen(s), out);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text as HTML, for kstack triage --html: nothing the kernel holds can
 * become markup.
 */
#include <string.h>

#include "html_escape.h"

void ks_html_escape_n(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&#39;", out);
		else if (c == '\n' || c == '\t')
			fputc(c, out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

void ks_html_escape(FILE *out, const char *s)
{
	ks_html_escape_n(out, s, strlen(s));
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "text_escape.h"

void ks_fputs_escaped(const char *s, FILE *out)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

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

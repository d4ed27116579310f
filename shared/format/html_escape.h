/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text as HTML: every kernel string on kstack triage's page (a comm, a
 * log line, a command line) is the kernel's, and so may be an
 * attacker's.  It can never open a tag, an attribute or an entity.
 */
#ifndef KS_HTML_ESCAPE_H
#define KS_HTML_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * len bytes of s as text of an element or of a quoted attribute: & < > "
 * and ' as entities, control characters but newline and tab as "\xNN"
 * (as text_escape.c writes them), NUL included.  Other bytes pass
 * through; the page is UTF-8 and a browser shows invalid UTF-8 as U+FFFD.
 */
void ks_html_escape_n(FILE *out, const char *s, size_t len);
/* The same of a NUL-terminated s. */
void ks_html_escape(FILE *out, const char *s);

#endif /* KS_HTML_ESCAPE_H */

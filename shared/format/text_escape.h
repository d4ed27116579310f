/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_TEXT_ESCAPE_H
#define KS_TEXT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes s with control characters escaped ("\n", "\t", "\x1b"), so a comm
 * or command line can never break the one-task-per-line text formats.
 * Other bytes, invalid UTF-8 included, pass through as the kernel has them.
 */
void ks_fputs_escaped(const char *s, FILE *out);
/* The same for len bytes of s. */
void ks_fwrite_escaped(const char *s, size_t len, FILE *out);

#endif /* KS_TEXT_ESCAPE_H */

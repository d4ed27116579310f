/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -K / -F with --json: one JSON object per line for each kprobes/list
 * line and each enabled_functions record, with the fields the text line
 * prints (hooks_format.c), so that a program needs no parser of the
 * kernel's formats.  The text's sections (summary, owners, -v detail)
 * are left to the text.
 */
#ifndef KS_HOOKS_JSON_H
#define KS_HOOKS_JSON_H

#include <stdio.h>

#include "hooks_records.h"

struct ks_target;

/*
 * t: the image the record was read from, to name its handlers (-K of a
 * dump, crash); NULL for a record parsed from kprobes/list.
 */
void ks_kprobe_json(FILE *out, const struct ks_target *t,
		    const struct ks_kprobe *p);
void ks_ftrace_rec_json(FILE *out, const struct ks_ftrace_rec *r);
/* A line of the kernel's file that did not parse, kept as read. */
void ks_hook_line_json(FILE *out, const char *kind, const char *line);
/* A ks_ftrace_rec_fn printing each record as it comes: arg is the FILE. */
int ks_ftrace_rec_json_fn(void *arg, const struct ks_ftrace_rec *r);

#endif /* KS_HOOKS_JSON_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack diff's writers: the text (diff_text.c) and one JSON document
 * (diff_json.c, docs/diff-json.md), over the comparison's records.
 */
#ifndef KS_DIFF_WRITE_H
#define KS_DIFF_WRITE_H

#include <stdio.h>

#include "diff.h"

/* "appeared", "vanished", "grew", "shrank" */
const char *ks_diff_change_name(enum ks_diff_change c);
void ks_diff_text(FILE *out, const struct ks_diff_capture *a,
		  const struct ks_diff_capture *b,
		  const struct ks_diff_result *r);
void ks_diff_json(FILE *out, const struct ks_diff_capture *a,
		  const struct ks_diff_capture *b,
		  const struct ks_diff_result *r);

#endif /* KS_DIFF_WRITE_H */

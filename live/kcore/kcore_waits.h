/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --waits on the running kernel: what each D task of a live sample waits
 * for, read from /proc/kcore by the dumps' walk.
 */
#ifndef KS_KCORE_WAITS_H
#define KS_KCORE_WAITS_H

#include <stdbool.h>

#include "options.h"
#include "report.h"
#include "task.h"

/*
 * Fills waits_for of the D and S tasks of s from the running kernel's
 * memory, and with last_ran their time since they last ran; what cannot
 * be read is said through rep (the walk's own trouble only with
 * verbose).  Returns 0 or a negative errno: kcore cannot be opened (the
 * reason said) or its tasks not walked.
 */
int ks_kcore_waits_read(struct ks_sample *s, bool last_ran, bool verbose,
			const struct ks_reporter *rep);

/*
 * Fills waits_for of the tasks of s from the running kernel's memory,
 * and s->waits_note with what the "== waits" section must say of it.
 * Trouble goes to stderr; the sample is written all the same.
 */
void ks_kcore_waits(struct ks_sample *s, const struct ks_options *opts);

#endif /* KS_KCORE_WAITS_H */

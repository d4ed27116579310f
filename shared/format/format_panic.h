/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --panic's header: the panicking CPU and its task, the message, the
 * taint as print_tainted() spells it and the modules behind each letter;
 * as text and as one JSON object.
 */
#ifndef KS_FORMAT_PANIC_H
#define KS_FORMAT_PANIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "panic_state.h"

/* print_tainted(): "Not tainted", or a character per taint_flags[] entry. */
void ks_panic_tainted(const struct ks_panic_state *ps, char *buf, size_t len);

/*
 * message: the panic's line from the kernel log, or NULL where none is
 * known (the log reader hands it over; the line is left out).
 */
void ks_format_panic_text(FILE *out, const struct ks_panic_state *ps,
			  const char *message);
/* Its two halves, for the triage: the panic and message, the taint. */
void ks_format_panic_head(FILE *out, const struct ks_panic_state *ps,
			  const char *message);
void ks_format_taint_text(FILE *out, const struct ks_panic_state *ps);
void ks_format_panic_json(FILE *out, const struct ks_panic_state *ps,
			  const char *message);

/*
 * --panic: reads t's panic and taint and writes them to out (json: one
 * object); what cannot be read is said through rep.  Returns 0, or a
 * negative errno when neither panic_cpu nor tainted_mask could be read
 * (-ENOMEM).
 */
int ks_panic_report(const struct ks_target *t, bool json, FILE *out,
		    const struct ks_reporter *rep);

#endif /* KS_FORMAT_PANIC_H */

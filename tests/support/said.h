/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A reporter for tests: every message a walker or a reader hands to it,
 * one per line, and how many there were.
 */
#ifndef KS_SAID_H
#define KS_SAID_H

#include "report.h"

struct said {
	char text[1024];
	int calls;
};

/* A reporter's sink: arg is a struct said, zeroed by the test. */
void said_collect(void *arg, enum ks_say_level level, const char *text);
/* A reporter's sink: "kstack: TEXT" on the FILE * arg, as kstack says it. */
void said_file(void *arg, enum ks_say_level level, const char *text);

/* A reporter of the test's own: its sink fn, given arg. */
#define REPORT_TO(fn, a) ((const struct ks_reporter){ .say = (fn), .arg = (a) })
/* A reporter that collects into the struct said *d. */
#define SAID_TO(d) REPORT_TO(said_collect, (d))
/* A reporter that writes to the FILE *f. */
#define SAID_ON(f) REPORT_TO(said_file, (f))

#endif /* KS_SAID_H */

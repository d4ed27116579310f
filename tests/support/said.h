/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A report callback for tests: every message a walker or a reader hands to
 * its ks_report_fn, one per line, and how many there were.
 */
#ifndef KS_SAID_H
#define KS_SAID_H

struct said {
	char text[1024];
	int calls;
};

/* A ks_report_fn: arg is a struct said, zeroed by the test. */
void said_collect(void *arg, const char *msg);
/* A ks_report_fn: "kstack: MSG" on the FILE * arg, as the live tool says it. */
void said_file(void *arg, const char *msg);

#endif /* KS_SAID_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live tool's exit statuses, as kstack(8)'s EXIT STATUS lists them:
 * every mode of the binary (a sample, -b, report, --vmcore, -K/-F,
 * --snoop, --decode) ends with one of these.
 */
#ifndef KS_EXIT_STATUS_H
#define KS_EXIT_STATUS_H

enum {
	KS_EXIT_OK = 0,
	KS_EXIT_NONE = 1,	/* nothing matched, or a named PID is missing */
	KS_EXIT_USAGE = 2,
	KS_EXIT_PERM = 3,	/* /proc/PID/stack needs CAP_SYS_ADMIN */
	KS_EXIT_ERROR = 4,	/* the sample itself could not be taken */
};

#endif /* KS_EXIT_STATUS_H */

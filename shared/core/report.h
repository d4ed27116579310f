/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a walker of kernel memory tells its caller about one list, task or
 * structure it could not read: one callback type for the task walk, the
 * hook walks and the member tables, so that each tool hands every walk
 * the same reporter (stderr for the live tool and --vmcore, crash's
 * error path inside crash).
 */
#ifndef KS_REPORT_H
#define KS_REPORT_H

/* msg has no "kstack: " prefix and no newline; the reporter adds its own. */
typedef void (*ks_report_fn)(void *arg, const char *msg);

#endif /* KS_REPORT_H */

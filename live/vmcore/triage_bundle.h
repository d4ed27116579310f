/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack triage --vmcore DUMP -o DIR: the bundle a support case wants,
 * each file the same bytes as its own view prints (triage_bundle.c).
 */
#ifndef KS_TRIAGE_BUNDLE_H
#define KS_TRIAGE_BUNDLE_H

#include "kernel_sample.h"
#include "target.h"

struct ks_bundle {
	const char *dir;	/* DIR as given, for messages */
	int dirfd;		/* -1 when not open */
};

/*
 * DIR made (0700) if missing and opened, before the dump is: refused if
 * it is a symbolic link or not a directory, or if it has any file of the
 * bundle.  0, or an exit status after saying why.
 */
int ks_bundle_open(struct ks_bundle *b, const char *dir);
/*
 * Every file of the bundle from t (k: the task walk's kernel, or NULL:
 * the files of the tasks and the CPUs are then not written).  A file
 * whose view fails is not left behind; the others are still written.
 * The exit status.
 */
int ks_bundle_write(struct ks_bundle *b, const struct ks_target *t,
		    struct ks_kernel *k);
void ks_bundle_close(struct ks_bundle *b);

#endif /* KS_TRIAGE_BUNDLE_H */

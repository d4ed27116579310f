/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sample files of a log directory (kstack's or oled kstack's), oldest
 * first: every NAME.out-EPOCH[-SEQ].gz archive and .pending file of an
 * interrupted rotation by (EPOCH, SEQ), then the live NAME.out files.
 * kstack.log, the lock and anything else is left out.
 */
#ifndef KS_REPORT_FILES_H
#define KS_REPORT_FILES_H

#include <stddef.h>

#include "report.h"

struct ks_report_files {
	int dirfd;		/* the directory, or AT_FDCWD for one file */
	char **names;		/* relative to dirfd, oldest first */
	size_t nr;
};

/*
 * path is a directory (its files, as above) or one log file.  0, or
 * -errno after a reason through rep.
 */
int ks_report_files_list(struct ks_report_files *f, const char *path,
			 const struct ks_reporter *rep);
void ks_report_files_release(struct ks_report_files *f);

#endif /* KS_REPORT_FILES_H */

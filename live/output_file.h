/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_OUTPUT_FILE_H
#define KS_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "live_options.h"
#include "options.h"
#include "task.h"

/* Where one sample goes: stdout or -o FILE (the rules in output_file.c). */
struct ks_output {
	const char *name;	/* for messages: FILE as given, or "stdout" */
	FILE *f;
	int dirfd;		/* FILE's directory, or -1 */
	const char *replace;	/* the regular file the sample replaces, in dirfd */
	char *tmp;		/* the temporary file beside it, in dirfd */
	char *real;		/* with --follow-symlink: where the link points */
	bool no_replace;	/* a new file only: never renamed over another */
};

/*
 * Opens it before the sample is taken, so a refused FILE costs no sample
 * (a FIFO waits for its reader here).  Returns 0, or an exit status after
 * printing why on stderr.
 */
int ks_output_open(struct ks_output *out,
		   const struct ks_live_options *live);
/* The same for FILE path (NULL: stdout), as -o's; --html's. */
int ks_output_open_path(struct ks_output *out, const char *path, bool follow);
/*
 * A new file name in the directory dirfd, shown as shown in messages:
 * refused if name exists (a symbolic link too), and put in place by
 * ks_output_commit() only if it is still free then.  -o DIR's files.
 */
int ks_output_open_new(struct ks_output *out, int dirfd, const char *shown,
		       const char *name);
/*
 * After out->f was written (ret: the writer's 0 or negative errno): a
 * replaced or new file synced and renamed into place; 0, or an exit
 * status after saying why.  On failure the old file is untouched.
 */
int ks_output_commit(struct ks_output *out, int ret);
/* Writes the sample and puts a replaced file in place; 0 or an exit status. */
int ks_output_write(struct ks_output *out, const struct ks_sample *s,
		    const struct ks_format_opts *opts);
/* Closes; a temporary file that was not put in place is removed. */
void ks_output_close(struct ks_output *out);

#endif /* KS_OUTPUT_FILE_H */

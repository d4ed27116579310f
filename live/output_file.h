/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_OUTPUT_FILE_H
#define KS_OUTPUT_FILE_H

#include "options.h"
#include "task.h"

/*
 * -o FILE: the sample goes to a temporary file beside FILE which then
 * replaces it, so FILE is never left half-written.
 */
int ks_output_file_write(const char *path, const struct ks_sample *s,
			 const struct ks_options *opts);

#endif /* KS_OUTPUT_FILE_H */

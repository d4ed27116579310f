/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The small readers the live triage's parts share (triage_read.c). */
#ifndef KS_TRIAGE_READ_H
#define KS_TRIAGE_READ_H

#include <stdbool.h>
#include <stddef.h>

#define KS_TRIAGE_MAX_CPUS	8192	/* NR_CPUS at its largest */

/*
 * path read whole into buf (len bytes with its NUL), its trailing
 * newlines cut: the bytes kept, or -errno.
 */
int ks_triage_read_file(const char *path, char *buf, size_t len);

/* "0-3,8" into set[max]: the CPUs set, or -EINVAL. */
int ks_triage_cpu_list(const char *text, bool *set, int max);

#endif /* KS_TRIAGE_READ_H */

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -l on a sample of the running kernel, and kstack --decode: a
 * file, a rotated .gz log or stdin, read with zlib (which kstack.so does
 * not link), each line through shared/lines/decode_text.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "decode.h"
#include "decode_text.h"
#include "grow.h"
#include "lines_host.h"
#include "live_sample.h"

int ks_decode_sample(struct ks_sample *s, const struct ks_options *opts,
		     bool live)
{
	struct ks_lines_config cfg;
	char release[256];

	ks_lines_host_config(&cfg, opts->vmlinux, live, release, sizeof(release));
	return ks_lines_sample(s, &cfg, ks_report_file, stderr);
}

/* One line of in, however long; its length, or -1 at the end. */
static ssize_t read_line(gzFile in, char **buf, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		if (*cap - len < 2) {
			char *n = ks_grow_min(*buf, cap, len + 2, 1, 4096);

			if (!n)
				return -1;
			*buf = n;
		}
		if (!gzgets(in, *buf + len, (int)(*cap - len > INT32_MAX ?
						    INT32_MAX : *cap - len)))
			return len ? (ssize_t)len : -1;
		len += strlen(*buf + len);
		if (len && (*buf)[len - 1] == '\n')
			return (ssize_t)len;
	}
}

static gzFile open_input(const char *path)
{
	int fd;
	gzFile in;

	if (path && strcmp(path, "-"))
		return gzopen(path, "rb");
	fd = dup(STDIN_FILENO);
	if (fd < 0)
		return NULL;
	in = gzdopen(fd, "rb");
	if (!in)
		close(fd);
	return in;
}

/* Copies in to stdout decoded; 0, or the read error. */
static int decode_stream(struct ks_lines *l, gzFile in)
{
	size_t cap = 0;
	char *buf = NULL;
	ssize_t len;
	int errnum = 0;

	while ((len = read_line(in, &buf, &cap)) >= 0) {
		if (len && buf[len - 1] == '\n')
			len--;
		if (len && buf[len - 1] == '\r')
			len--;
		ks_decode_line(l, buf, (size_t)len, stdout);
	}
	gzerror(in, &errnum);
	free(buf);
	return errnum == Z_OK || errnum == Z_BUF_ERROR ? 0 : errnum;
}

int ks_decode_run(const struct ks_options *opts)
{
	struct ks_lines_config cfg;
	char release[256];
	const char *name = opts->decode_file ? opts->decode_file : "stdin";
	struct ks_lines *l;
	size_t found, missing;
	gzFile in;
	int ret, status = KS_EXIT_OK;

	in = open_input(opts->decode_file);
	if (!in) {
		fprintf(stderr, "kstack: cannot open %s: %s\n", name,
			errno ? strerror(errno) : "out of memory");
		return KS_EXIT_ERROR;
	}
	ks_lines_host_config(&cfg, opts->vmlinux, false, release, sizeof(release));
	l = ks_lines_open(&cfg);
	if (!l) {
		gzclose(in);
		fprintf(stderr, "kstack: out of memory\n");
		return KS_EXIT_ERROR;
	}
	ret = decode_stream(l, in);
	if (ret) {
		fprintf(stderr, "kstack: reading %s: %s\n", name,
			gzerror(in, &ret));
		status = KS_EXIT_ERROR;
	}
	gzclose(in);
	if (fflush(stdout)) {
		fprintf(stderr, "kstack: writing stdout: %s\n", strerror(errno));
		status = KS_EXIT_ERROR;
	}
	ks_lines_report(l, ks_report_file, stderr);
	ks_lines_counts(l, &found, &missing);
	if (status == KS_EXIT_OK && missing && !found)
		status = KS_EXIT_NONE;
	ks_lines_close(l);
	return status;
}

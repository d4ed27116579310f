// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -l on a sample of the running kernel, and kstack --decode: a
 * file, a rotated .gz log or stdin, read with zlib (which kstack.so does
 * not link), each line through shared/lines/decode_text.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "live_say.h"
#include "decode.h"
#include "decode_text.h"
#include "lines_host.h"
#include "text_release.h"
#include "exit_status.h"

int ks_decode_sample(struct ks_sample *s, const struct ks_options *opts,
		     bool live)
{
	struct ks_lines_config cfg;
	char release[256];

	ks_lines_host_config(&cfg, opts->vmlinux, live, release, sizeof(release));
	return ks_lines_sample(s, &cfg, &ks_live_reporter);
}

/*
 * The longest line decoded: no frame is longer, and a longer line (a
 * stream without newlines, a gzip bomb) passes through in pieces of this
 * size, undecoded, so that memory stays flat whatever the input.
 */
#define LINE_CAP	(64 * 1024)
#define READ_SIZE	4096

struct reader {
	gzFile in;
	char *buf;		/* 2 * LINE_CAP */
	size_t start, end;	/* the bytes not handed out yet */
	bool in_long;		/* inside a line longer than LINE_CAP */
	bool eof;
};

/* A line or a piece of one: whole says whether it may hold a frame. */
struct piece {
	const char *text;
	size_t len;
	bool whole;		/* a whole line, at most LINE_CAP bytes */
	bool ends_line;		/* a newline followed it (or the input ended) */
};

/* More bytes after the ones kept; false at the end or on an error. */
static bool fill(struct reader *r)
{
	size_t room;
	int n;

	memmove(r->buf, r->buf + r->start, r->end - r->start);
	r->end -= r->start;
	r->start = 0;
	/* small reads: zlib drops what a read inflated before a data error */
	room = 2 * LINE_CAP - r->end;
	if (room > READ_SIZE)
		room = READ_SIZE;
	n = gzread(r->in, r->buf + r->end, (unsigned int)room);
	if (n <= 0) {
		r->eof = true;
		return false;
	}
	r->end += (size_t)n;
	return true;
}

/* The next line or piece of r, NUL bytes included; false at the end. */
static bool next_piece(struct reader *r, struct piece *p)
{
	const char *nl;
	size_t have, most;

	for (;;) {
		have = r->end - r->start;
		most = have < LINE_CAP ? have : LINE_CAP;
		nl = memchr(r->buf + r->start, '\n', most);
		if (nl || have >= LINE_CAP || (r->eof && have))
			break;
		if ((r->eof || !fill(r)) && r->end == r->start)
			return false;
	}
	p->text = r->buf + r->start;
	p->len = nl ? (size_t)(nl - p->text) : most;
	p->ends_line = nl || (r->eof && p->len == have);
	p->whole = !r->in_long && p->ends_line;
	r->in_long = !p->ends_line;
	r->start += p->len + (nl ? 1 : 0);
	return true;
}

/* A line without its "\r\n" or "\n": what the decoder sees. */
static size_t chomp(const struct piece *p)
{
	return p->len && p->text[p->len - 1] == '\r' ? p->len - 1 : p->len;
}

/*
 * Pass 0: the first release the text names (an oops's "Not tainted REL
 * #N", a dmesg's banner), into rel; false when it names none.
 */
static bool release_stream(struct reader *r, char *rel, size_t cap)
{
	struct piece p;

	while (next_piece(r, &p))
		if (p.whole && ks_text_release(p.text, chomp(&p), rel, cap))
			return true;
	return false;
}

/* Pass 1: every frame judged before the first is decoded. */
static void judge_stream(struct ks_lines *l, struct reader *r)
{
	struct piece p;

	while (next_piece(r, &p))
		if (p.whole)
			ks_decode_judge_line(l, p.text, chomp(&p));
}

/* Pass 2: the input to stdout, its frames decoded. */
static void decode_stream(struct ks_lines *l, struct reader *r)
{
	struct piece p;

	while (next_piece(r, &p)) {
		if (p.whole) {
			ks_decode_line(l, p.text, chomp(&p), stdout);
			continue;
		}
		fwrite(p.text, 1, p.len, stdout);
		if (p.ends_line)
			fputc('\n', stdout);
	}
	if (r->in_long)		/* the input ended inside a long line */
		fputc('\n', stdout);
}

/*
 * A pipe cannot be read twice: its bytes go to an unlinked file first
 * (disk, not memory).  Returns that file's descriptor, or -errno.
 */
static int spool(int fd)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536], path[PATH_MAX];
	ssize_t n;
	int tmp;

	snprintf(path, sizeof(path), "%s/kstack-decode.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	tmp = mkostemp(path, O_CLOEXEC);
	if (tmp < 0)
		return -errno;
	unlink(path);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		errno = 0;
		if (n < 0 || write(tmp, buf, (size_t)n) != n) {
			n = errno ? -errno : -EIO;
			close(tmp);
			return (int)n;
		}
	}
	if (lseek(tmp, 0, SEEK_SET)) {
		n = -errno;
		close(tmp);
		return (int)n;
	}
	return tmp;
}

/*
 * path ("-" or NULL: stdin) as a regular file that can be read twice;
 * its descriptor, or -errno and *copying, whether copying it failed.
 */
static int open_input(const char *path, bool *copying)
{
	struct stat st;
	int fd, tmp;

	*copying = false;
	if (path && strcmp(path, "-"))
		fd = open(path, O_RDONLY | O_CLOEXEC);
	else
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		return fd;
	*copying = true;
	tmp = spool(fd);
	close(fd);
	return tmp;
}

/*
 * One pass over the input from start: a gzFile of its own each time,
 * since zlib rewinds no stream after a data error.
 */
static int start_pass(struct reader *r, int fd, off_t start)
{
	int dup_fd;

	if (lseek(fd, start, SEEK_SET) < 0)
		return -errno;
	dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd < 0)
		return -errno;
	r->in = gzdopen(dup_fd, "rb");
	if (!r->in) {
		close(dup_fd);
		return -ENOMEM;
	}
	/* at most READ_SIZE bytes of text lost to a data error, not 32 KiB */
	gzbuffer(r->in, READ_SIZE / 2);
	r->start = r->end = 0;
	r->eof = r->in_long = false;
	return 0;
}

/*
 * zlib's read error, Z_BUF_ERROR included: gzread() says "unexpected end
 * of file" with it for a truncated stream, and returns what it had.
 */
static bool read_failed(struct reader *r, const char *name)
{
	int err;
	const char *msg = gzerror(r->in, &err), *colon;

	if (err == Z_OK)
		return false;
	/* zlib's message starts with the name it knows, "<fd:3>: " */
	colon = strstr(msg, ": ");
	msg = colon ? colon + 2 : msg;
	ks_live_say("reading %s: %s at byte %lld of the file "
		    "(%lld bytes of text read before it)", name,
		    err == Z_ERRNO ? strerror(errno) : msg,
		    (long long)gzoffset(r->in), (long long)gztell(r->in));
	return true;
}

/* Exit status of --decode after the text was written. */
static int decode_status(struct ks_lines *l)
{
	size_t found, missing;

	if (ks_lines_foreign(l))
		return KS_EXIT_ERROR;
	ks_lines_counts(l, &found, &missing);
	return missing && !found ? KS_EXIT_NONE : KS_EXIT_OK;
}

/*
 * The lines of the kernel the input names, or of this one (--vmlinux's
 * when given), after pass 0 over the input; 0 or -errno.
 */
static int open_lines(struct reader *r, int fd, off_t start,
		      const char *vmlinux, struct ks_lines **l_ret)
{
	struct ks_lines_config cfg;
	char release[256], text_rel[256];
	int ret;

	ks_lines_host_config(&cfg, vmlinux, false, release, sizeof(release));
	ret = start_pass(r, fd, start);
	if (ret)
		return ret;
	/*
	 * an oops of another kernel than this one is decoded with its own;
	 * --vmlinux of another release than the text's decodes none of it
	 */
	if (release_stream(r, text_rel, sizeof(text_rel)))
		cfg.release = text_rel;
	gzclose(r->in);
	r->in = NULL;
	*l_ret = ks_lines_open(&cfg);
	return *l_ret ? 0 : -ENOMEM;
}

int ks_decode_run(const struct ks_options *opts,
		  const struct ks_live_options *live)
{
	const char *name = live->decode_file ? live->decode_file : "stdin";
	bool copying;
	struct reader r = { 0 };
	struct ks_lines *l = NULL;
	int status = KS_EXIT_ERROR, fd, ret;
	off_t start;

	fd = open_input(live->decode_file, &copying);
	if (fd < 0) {
		ks_live_say(copying ? "cannot copy %s into $TMPDIR (or /tmp) "
			    "to read it twice: %s" : "cannot open %s: %s",
			    name, strerror(-fd));
		return KS_EXIT_ERROR;
	}
	/* stdin may be a file read from the middle */
	start = lseek(fd, 0, SEEK_CUR);
	if (start < 0)
		start = 0;
	r.buf = malloc(2 * LINE_CAP);
	if (!r.buf) {
		ks_live_say("out of memory");
		goto out;
	}
	ret = open_lines(&r, fd, start, opts->vmlinux, &l);
	if (ret == -ENOMEM) {
		ks_live_say("out of memory");
		goto out;
	}
	if (ret)
		goto fail;
	ret = start_pass(&r, fd, start);
	if (ret)
		goto fail;
	judge_stream(l, &r);
	gzclose(r.in);
	r.in = NULL;
	ret = start_pass(&r, fd, start);
	if (ret)
		goto fail;
	decode_stream(l, &r);
	status = read_failed(&r, name) ? KS_EXIT_ERROR : KS_EXIT_OK;
	if (fflush(stdout)) {
		ks_live_say("writing stdout: %s", strerror(errno));
		status = KS_EXIT_ERROR;
	}
	ks_lines_report(l, &ks_live_reporter);
	if (status == KS_EXIT_OK)
		status = decode_status(l);
	goto out;
fail:
	ks_live_say("reading %s: %s", name, strerror(-ret));
out:
	free(r.buf);
	ks_lines_close(l);
	if (r.in)
		gzclose(r.in);
	close(fd);
	return status;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Rotation of the background log; the protocol is described in rotate.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "grow.h"
#include "regular_file.h"
#include "rotate.h"

#define EXT_GZ		".gz"
#define EXT_PENDING	".pending"
#define EXT_TMP		".gz.tmp"
/* more same-second rotations than this means something is badly wrong */
#define MAX_SEQ		100000u
#define CHUNK		(64 * 1024)

struct stamp {
	uint64_t epoch;
	unsigned int seq;
};

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int deflate_out(z_stream *zs, int out_fd, int flush)
{
	unsigned char out[CHUNK];
	int ret;

	do {
		zs->next_out = out;
		zs->avail_out = sizeof(out);
		ret = deflate(zs, flush);
		if (ret == Z_STREAM_ERROR)
			return -EIO;
		ret = write_all(out_fd, out, sizeof(out) - zs->avail_out);
		if (ret)
			return ret;
	} while (zs->avail_out == 0);
	return 0;
}

int ks_gzip_fd(int in_fd, int out_fd)
{
	unsigned char *in = malloc(CHUNK);
	z_stream zs = { 0 };
	int ret = -ENOMEM;
	ssize_t n;

	if (!in)
		return -ENOMEM;
	/* 15 + 16: a gzip wrapper rather than zlib's, so gzip(1) reads it */
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		goto out_free;
	for (;;) {
		n = read(in_fd, in, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		zs.next_in = in;
		zs.avail_in = (uInt)n;
		ret = deflate_out(&zs, out_fd, n ? Z_NO_FLUSH : Z_FINISH);
		if (ret || !n)
			goto out;
	}
out:
	deflateEnd(&zs);
out_free:
	free(in);
	return ret;
}

static int name_with(char *buf, size_t len, const char *name,
		     struct stamp st, const char *ext)
{
	int n;

	if (st.seq)
		n = snprintf(buf, len, "%s-%llu-%u%s", name,
			     (unsigned long long)st.epoch, st.seq, ext);
	else
		n = snprintf(buf, len, "%s-%llu%s", name,
			     (unsigned long long)st.epoch, ext);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int ks_rotate_archive_name(char *buf, size_t len, const char *name,
			   uint64_t epoch, unsigned int seq)
{
	return name_with(buf, len, name, (struct stamp){ epoch, seq }, EXT_GZ);
}

/* Digits only, no sign, no overflow; advances *p past them. */
static bool parse_digits(const char **p, uint64_t max, uint64_t *val)
{
	const char *s = *p;
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*val = v;
	return true;
}

/* NAME-EPOCH[-SEQ]EXT exactly */
static bool parse_stamped(const char *name, const char *file, const char *ext,
			  struct stamp *st)
{
	size_t nlen = strlen(name);
	uint64_t seq = 0;
	const char *p;

	if (strncmp(file, name, nlen) || file[nlen] != '-')
		return false;
	p = file + nlen + 1;
	if (!parse_digits(&p, UINT64_MAX, &st->epoch))
		return false;
	if (*p == '-') {
		p++;
		if (!parse_digits(&p, MAX_SEQ, &seq) || !seq)
			return false;
	}
	st->seq = (unsigned int)seq;
	return !strcmp(p, ext);
}

bool ks_rotate_parse_stamped(const char *name, const char *file,
			     enum ks_rotate_kind kind, uint64_t *epoch,
			     unsigned int *seq)
{
	struct stamp st;

	if (!parse_stamped(name, file, kind == KS_ROTATE_PENDING ? EXT_PENDING :
			   EXT_GZ, &st))
		return false;
	*epoch = st.epoch;
	*seq = st.seq;
	return true;
}

/* 1 if absent, 0 if something (even a dangling symlink) has the name */
static int absent(int dirfd, const char *file)
{
	struct stat sb;

	if (!fstatat(dirfd, file, &sb, AT_SYMLINK_NOFOLLOW))
		return 0;
	return errno == ENOENT ? 1 : -errno;
}

/* rename that never replaces: an existing archive must never be lost */
static int rename_noreplace(int dirfd, const char *from, const char *to)
{
	int ret;

	if (!renameat2(dirfd, from, dirfd, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* no RENAME_NOREPLACE here (old kernel, some network fs): we hold
	 * the run lock, so a check then rename has no racing writer */
	ret = absent(dirfd, to);
	if (ret <= 0)
		return ret ? ret : -EEXIST;
	return renameat(dirfd, from, dirfd, to) ? -errno : 0;
}

/* pending -> tmp (synced) -> archive, then pending removed */
static int archive_pending(const struct ks_rotate *r, struct stamp st,
			   struct ks_rotate_result *res)
{
	char pending[KS_ROTATE_NAME_MAX], tmp[KS_ROTATE_NAME_MAX];
	char gz[KS_ROTATE_NAME_MAX];
	int in = -1, out = -1, ret;

	if (name_with(pending, sizeof(pending), r->name, st, EXT_PENDING) ||
	    name_with(tmp, sizeof(tmp), r->name, st, EXT_TMP) ||
	    ks_rotate_archive_name(gz, sizeof(gz), r->name, st.epoch, st.seq))
		return -ENAMETOOLONG;
	in = ks_open_regular(r->dirfd, pending, O_RDONLY | O_NOFOLLOW |
			     O_NONBLOCK | O_CLOEXEC, 0);
	if (in < 0)
		return in;
	/* a stale temp of a killed run: its content is worthless */
	unlinkat(r->dirfd, tmp, 0);
	out = openat(r->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		     O_CLOEXEC, 0600);
	if (out < 0) {
		ret = -errno;
		goto out;
	}
	ret = ks_gzip_fd(in, out);
	if (!ret && fsync(out))
		ret = -errno;
	if (close(out) && !ret)
		ret = -errno;
	if (!ret)
		ret = rename_noreplace(r->dirfd, tmp, gz);
	if (ret) {
		unlinkat(r->dirfd, tmp, 0);
		goto out;
	}
	/* the archive's name must be durable before its source goes */
	fsync(r->dirfd);
	if (unlinkat(r->dirfd, pending, 0))
		ret = -errno;
	if (res)
		snprintf(res->archive, sizeof(res->archive), "%s", gz);
out:
	close(in);
	return ret;
}

/* prototypes for the helpers below that the rotation itself needs */
static int list_stamps(const struct ks_rotate *r, const char *ext,
		       struct stamp **out, size_t *nr);
static int cmp_stamp_desc(const void *a, const void *b);

/* The newest stamp among files NAME-...EXT into *newest, if newer. */
static int newest_stamp(const struct ks_rotate *r, const char *ext,
			struct stamp *newest, bool *found)
{
	struct stamp *v;
	size_t n;
	int ret = list_stamps(r, ext, &v, &n);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		if (*found && cmp_stamp_desc(&v[i], newest) >= 0)
			continue;
		*newest = v[i];
		*found = true;
	}
	free(v);
	return 0;
}

/*
 * The stamp of a new archive: now, or, when an archive or pending file
 * of this second (or a later one, after the clock stepped back) exists,
 * one past the newest.  So the archive just made always sorts newest and
 * pruning never takes it, and a name freed by pruning is never reused
 * for younger data.
 */
static int new_stamp(const struct ks_rotate *r, struct stamp *st)
{
	struct stamp newest = { 0, 0 };
	bool any = false;
	int ret;

	ret = newest_stamp(r, EXT_GZ, &newest, &any);
	if (!ret)
		ret = newest_stamp(r, EXT_PENDING, &newest, &any);
	if (ret)
		return ret;
	st->epoch = (uint64_t)(r->now ? r->now() : time(NULL));
	st->seq = 0;
	if (!any || st->epoch > newest.epoch)
		return 0;
	if (newest.seq + 1 >= MAX_SEQ)
		return -EEXIST;
	st->epoch = newest.epoch;
	st->seq = newest.seq + 1;
	return 0;
}

int ks_rotate(const struct ks_rotate *r, bool force,
	      struct ks_rotate_result *res)
{
	char pending[KS_ROTATE_NAME_MAX];
	struct stamp st;
	struct stat sb;
	int ret;

	if (res)
		memset(res, 0, sizeof(*res));
	if (fstatat(r->dirfd, r->name, &sb, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(sb.st_mode))
		return -ELOOP;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	/* archiving a hard link would copy another file's data into DIR */
	if (sb.st_nlink != 1)
		return -EMLINK;
	if (!sb.st_size || (!force && (uint64_t)sb.st_size <= r->max_bytes))
		return 0;
	ret = new_stamp(r, &st);
	if (!ret)
		ret = name_with(pending, sizeof(pending), r->name, st, EXT_PENDING);
	if (!ret)
		ret = rename_noreplace(r->dirfd, r->name, pending);
	if (ret)
		return ret;
	ret = archive_pending(r, st, res);
	if (ret) {
		/* keep appending to the same data rather than strand it;
		 * if even this fails, recovery archives the pending file */
		rename_noreplace(r->dirfd, pending, r->name);
		return ret;
	}
	ret = ks_rotate_prune(r, res ? &res->nr_pruned : NULL);
	return ret ? ret : 1;
}

/* Every stamp of files NAME-...EXT in the directory. */
static int list_stamps(const struct ks_rotate *r, const char *ext,
		       struct stamp **out, size_t *nr)
{
	struct stamp *v = NULL, *nv, st;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int fd, ret = 0;
	DIR *d;

	/* a fresh fd: fdopendir owns it and its offset is not dirfd's */
	fd = openat(r->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((de = readdir(d))) {
		if (!parse_stamped(r->name, de->d_name, ext, &st))
			continue;
		if (n == cap) {
			nv = ks_grow(v, &cap, n + 1, sizeof(*v));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[n++] = st;
	}
	closedir(d);
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* newest first */
static int cmp_stamp_desc(const void *a, const void *b)
{
	const struct stamp *x = a, *y = b;

	if (x->epoch != y->epoch)
		return x->epoch < y->epoch ? 1 : -1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? 1 : -1;
	return 0;
}

int ks_rotate_prune(const struct ks_rotate *r, size_t *nr_pruned)
{
	char file[KS_ROTATE_NAME_MAX];
	struct stamp *v;
	size_t n, i;
	int ret;

	if (r->max_files <= 0)
		return 0;
	ret = list_stamps(r, EXT_GZ, &v, &n);
	if (ret)
		return ret;
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_stamp_desc);
	for (i = (size_t)r->max_files; i < n; i++) {
		if (ks_rotate_archive_name(file, sizeof(file), r->name,
					   v[i].epoch, v[i].seq))
			continue;
		if (unlinkat(r->dirfd, file, 0)) {
			if (errno != ENOENT && !ret)
				ret = -errno;
			continue;
		}
		if (nr_pruned)
			(*nr_pruned)++;
	}
	free(v);
	return ret;
}

static int remove_stale(const struct ks_rotate *r, struct ks_rotate_result *res)
{
	char file[KS_ROTATE_NAME_MAX];
	struct stamp *v;
	size_t n;
	int ret;

	ret = list_stamps(r, EXT_TMP, &v, &n);
	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		if (name_with(file, sizeof(file), r->name, v[i], EXT_TMP))
			continue;
		if (!unlinkat(r->dirfd, file, 0))
			res->nr_stale++;
		else if (errno != ENOENT && !ret)
			ret = -errno;
	}
	free(v);
	return ret;
}

/* A pending file whose archive exists was archived before the kill. */
static int finish_pending(const struct ks_rotate *r, struct stamp st)
{
	char file[KS_ROTATE_NAME_MAX];
	int ret;

	ret = ks_rotate_archive_name(file, sizeof(file), r->name, st.epoch,
				     st.seq);
	if (!ret)
		ret = absent(r->dirfd, file);
	if (ret < 0)
		return ret;
	if (ret)
		return archive_pending(r, st, NULL);
	ret = name_with(file, sizeof(file), r->name, st, EXT_PENDING);
	if (!ret && unlinkat(r->dirfd, file, 0))
		ret = -errno;
	return ret;
}

int ks_rotate_recover(const struct ks_rotate *r, struct ks_rotate_result *res)
{
	struct ks_rotate_result local;
	struct stamp *v;
	size_t n;
	int ret, err;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	ret = remove_stale(r, res);
	err = list_stamps(r, EXT_PENDING, &v, &n);
	if (err)
		return ret ? ret : err;
	/* oldest first, so the archives' order matches the data's */
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_stamp_desc);
	for (size_t i = n; i-- > 0;) {
		err = finish_pending(r, v[i]);
		if (!err)
			res->nr_recovered++;
		else if (!ret)
			ret = err;
	}
	free(v);
	err = ks_rotate_prune(r, &res->nr_pruned);
	return ret ? ret : err;
}

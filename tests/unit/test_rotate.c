// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rotation of the background log on a real temporary directory: naming,
 * retention in numeric order, same-second collisions, gzip validity
 * (decompressed with zlib and compared), start-up recovery and symlinks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "rotate.h"

#define LOG "kstack_host.out"

struct fixture {
	char path[64];
	int dirfd;
	struct ks_rotate r;
};

static time_t fake_now_value = 1000;

static time_t fake_now(void)
{
	return fake_now_value;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->path, sizeof(f->path), "/tmp/ks-rotate-XXXXXX");
	if (!mkdtemp(f->path))
		return -1;
	f->dirfd = open(f->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (f->dirfd < 0)
		return -1;
	f->r = (struct ks_rotate){ .dirfd = f->dirfd, .name = LOG,
				   .max_bytes = 100, .max_files = 5,
				   .now = fake_now };
	fake_now_value = 1000;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	struct dirent *de;
	DIR *d = fdopendir(dup(f->dirfd));

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(f->dirfd, de->d_name, 0);
	if (d)
		closedir(d);
	close(f->dirfd);
	rmdir(f->path);
	free(f);
	return 0;
}

static void put(struct fixture *f, const char *file, const char *data,
		size_t len)
{
	int fd = openat(f->dirfd, file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static bool exists(struct fixture *f, const char *file)
{
	struct stat sb;

	return !fstatat(f->dirfd, file, &sb, AT_SYMLINK_NOFOLLOW);
}

static size_t count_files(struct fixture *f)
{
	struct dirent *de;
	DIR *d = fdopendir(openat(f->dirfd, ".", O_RDONLY | O_DIRECTORY));
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Decompresses file with zlib; the caller frees. */
static char *gunzip(struct fixture *f, const char *file, size_t *len)
{
	unsigned char in[4096];
	size_t cap = 1 << 16, n = 0;
	char *out = malloc(cap);
	z_stream zs = { 0 };
	int fd = openat(f->dirfd, file, O_RDONLY), ret = Z_OK;
	ssize_t got;

	assert_true(fd >= 0);
	assert_non_null(out);
	assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
	while (ret != Z_STREAM_END && (got = read(fd, in, sizeof(in))) > 0) {
		zs.next_in = in;
		zs.avail_in = (uInt)got;
		do {
			if (cap - n < 4096) {
				cap *= 2;
				out = realloc(out, cap);
				assert_non_null(out);
			}
			zs.next_out = (unsigned char *)out + n;
			zs.avail_out = (uInt)(cap - n);
			ret = inflate(&zs, Z_NO_FLUSH);
			assert_true(ret == Z_OK || ret == Z_STREAM_END ||
				    ret == Z_BUF_ERROR);
			n = cap - zs.avail_out;
		} while (zs.avail_in && ret != Z_STREAM_END);
	}
	/* a truncated or corrupt archive never reaches the end marker */
	assert_int_equal(ret, Z_STREAM_END);
	inflateEnd(&zs);
	close(fd);
	*len = n;
	return out;
}

static void assert_archive(struct fixture *f, const char *file,
			   const char *data, size_t len)
{
	size_t got_len;
	char *got = gunzip(f, file, &got_len);
	struct stat sb;

	assert_int_equal(got_len, len);
	assert_memory_equal(got, data, len);
	free(got);
	assert_int_equal(fstatat(f->dirfd, file, &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
}

static void test_archive_name(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(ks_rotate_archive_name(buf, sizeof(buf), LOG, 1696090476, 0), 0);
	assert_string_equal(buf, "kstack_host.out-1696090476.gz");
	assert_int_equal(ks_rotate_archive_name(buf, sizeof(buf), LOG, 1696090476, 3), 0);
	assert_string_equal(buf, "kstack_host.out-1696090476-3.gz");
	assert_int_equal(ks_rotate_archive_name(buf, 20, LOG, 1696090476, 0),
			 -ENAMETOOLONG);
}

/* ks_rotate_parse_stamped() of LOG's file of that kind */
static uint64_t epoch;
static unsigned int seq;

static bool stamped(enum ks_rotate_kind kind, const char *file)
{
	return ks_rotate_parse_stamped(LOG, file, kind, &epoch, &seq);
}

static void test_parse_archive(void **state)
{
	const enum ks_rotate_kind gz = KS_ROTATE_ARCHIVE;

	(void)state;
	assert_true(stamped(gz, LOG "-1696090476.gz"));
	assert_true(epoch == 1696090476 && seq == 0);
	assert_true(stamped(gz, LOG "-7-12.gz"));
	assert_true(epoch == 7 && seq == 12);
	assert_true(stamped(KS_ROTATE_PENDING, LOG "-8-3.pending"));
	assert_true(epoch == 8 && seq == 3);
	/* anything else in the directory is not ours to delete */
	assert_false(stamped(gz, LOG));
	assert_false(stamped(gz, LOG "-.gz"));
	assert_false(stamped(gz, LOG "-12"));
	assert_false(stamped(gz, LOG "-12.gz.tmp"));
	assert_false(stamped(gz, LOG "-12.pending"));
	assert_false(stamped(KS_ROTATE_PENDING, LOG "-12.gz"));
	assert_false(stamped(gz, LOG "-+12.gz"));
	assert_false(stamped(gz, LOG "-12-0.gz"));
	assert_false(stamped(gz, LOG "-12-.gz"));
	assert_false(stamped(gz, LOG "-1x2.gz"));
	assert_false(stamped(gz, LOG "-99999999999999999999999.gz"));
	assert_false(stamped(gz, "kstack_other.out-12.gz"));
	assert_false(stamped(gz, "kstack_host.outx-12.gz"));
}

static void test_gzip_roundtrip(void **state)
{
	struct fixture *f = *state;
	size_t len = 300 * 1024, i;
	char *data = malloc(len);
	int in, out;

	assert_non_null(data);
	/* compressible text with some noise, bigger than one zlib chunk */
	for (i = 0; i < len; i++)
		data[i] = (char)(i % 97 == 0 ? '\n' : 'a' + (i * 7919 % 26));
	put(f, "in", data, len);
	in = openat(f->dirfd, "in", O_RDONLY);
	out = openat(f->dirfd, "out.gz", O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(in >= 0 && out >= 0);
	assert_int_equal(ks_gzip_fd(in, out), 0);
	close(in);
	close(out);
	assert_archive(f, "out.gz", data, len);
	free(data);

	/* an empty input is a valid empty archive */
	put(f, "empty", "", 0);
	in = openat(f->dirfd, "empty", O_RDONLY);
	out = openat(f->dirfd, "empty.gz", O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_int_equal(ks_gzip_fd(in, out), 0);
	close(in);
	close(out);
	assert_archive(f, "empty.gz", "", 0);
}

static void test_size_threshold(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	char data[101];

	memset(data, 'x', sizeof(data));
	/* nothing there: nothing to do */
	assert_int_equal(ks_rotate(&f->r, false, &res), 0);
	assert_int_equal(ks_rotate(&f->r, true, &res), 0);
	/* exactly max_bytes is not "larger than" (oled: size <= max skips) */
	put(f, LOG, data, 100);
	assert_int_equal(ks_rotate(&f->r, false, &res), 0);
	assert_string_equal(res.archive, "");
	assert_true(exists(f, LOG));
	put(f, LOG, data, 101);
	assert_int_equal(ks_rotate(&f->r, false, &res), 1);
	assert_string_equal(res.archive, LOG "-1000.gz");
	assert_false(exists(f, LOG));
	assert_archive(f, LOG "-1000.gz", data, 101);
	/* only the archive is left: no pending or temporary file */
	assert_int_equal(count_files(f), 1);
}

static void test_force(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;

	/* a new run archives whatever the last one left, however small */
	put(f, LOG, "abc", 3);
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	assert_archive(f, LOG "-1000.gz", "abc", 3);
	/* but does not make empty archives */
	put(f, LOG, "", 0);
	assert_int_equal(ks_rotate(&f->r, true, &res), 0);
	assert_true(exists(f, LOG));
	assert_int_equal(count_files(f), 2);
}

static void test_same_second(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	char data[8];
	int i;

	/* four rotations within one second: none overwrites another */
	for (i = 0; i < 4; i++) {
		snprintf(data, sizeof(data), "run %d", i);
		put(f, LOG, data, strlen(data));
		assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	}
	assert_string_equal(res.archive, LOG "-1000-3.gz");
	assert_archive(f, LOG "-1000.gz", "run 0", 5);
	assert_archive(f, LOG "-1000-1.gz", "run 1", 5);
	assert_archive(f, LOG "-1000-2.gz", "run 2", 5);
	assert_archive(f, LOG "-1000-3.gz", "run 3", 5);
	/* a later second starts without a suffix again */
	fake_now_value = 1001;
	put(f, LOG, "next", 4);
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	assert_string_equal(res.archive, LOG "-1001.gz");
	/* a stale pending file of the same stamp is not overwritten either */
	put(f, LOG "-1002.pending", "old", 3);
	fake_now_value = 1002;
	put(f, LOG, "new", 3);
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	assert_string_equal(res.archive, LOG "-1002-1.gz");
	assert_true(exists(f, LOG "-1002.pending"));
}

static void test_no_reuse_after_prune(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	char data[8];
	int i;

	/*
	 * Keep 2 with five rotations in one second: -1000.gz is pruned by
	 * the third; the next must not take its freed name, or the newest
	 * data would sort oldest and be pruned at once.
	 */
	f->r.max_files = 2;
	for (i = 0; i < 5; i++) {
		snprintf(data, sizeof(data), "n%d", i);
		put(f, LOG, data, 2);
		assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	}
	assert_string_equal(res.archive, LOG "-1000-4.gz");
	assert_int_equal(count_files(f), 2);
	assert_archive(f, LOG "-1000-3.gz", "n3", 2);
	assert_archive(f, LOG "-1000-4.gz", "n4", 2);
}

static void test_clock_backwards(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;

	/* after a clock step back, the new archive still sorts newest */
	fake_now_value = 5000;
	put(f, LOG, "before", 6);
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	fake_now_value = 4000;
	put(f, LOG, "after", 5);
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	assert_string_equal(res.archive, LOG "-5000-1.gz");
	f->r.max_files = 1;
	assert_int_equal(ks_rotate_prune(&f->r, NULL), 0);
	assert_archive(f, LOG "-5000-1.gz", "after", 5);
	assert_false(exists(f, LOG "-5000.gz"));
}

static void test_retention_numeric(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	size_t pruned = 0;

	/* lexical order would call 99 newer than 100 and 9 newer than 10 */
	put(f, LOG "-9.gz", "", 0);
	put(f, LOG "-10.gz", "", 0);
	put(f, LOG "-99.gz", "", 0);
	put(f, LOG "-100.gz", "", 0);
	put(f, LOG "-100-2.gz", "", 0);
	put(f, LOG "-100-10.gz", "", 0);
	/* not archives of this log: never removed */
	put(f, "kstack_other.out-1.gz", "", 0);
	put(f, LOG "-abc.gz", "", 0);
	put(f, "notes", "", 0);
	f->r.max_files = 3;
	assert_int_equal(ks_rotate_prune(&f->r, &pruned), 0);
	assert_int_equal(pruned, 3);
	assert_true(exists(f, LOG "-100-10.gz"));
	assert_true(exists(f, LOG "-100-2.gz"));
	assert_true(exists(f, LOG "-100.gz"));
	assert_false(exists(f, LOG "-99.gz"));
	assert_false(exists(f, LOG "-10.gz"));
	assert_false(exists(f, LOG "-9.gz"));
	assert_true(exists(f, "kstack_other.out-1.gz"));
	assert_true(exists(f, LOG "-abc.gz"));
	assert_true(exists(f, "notes"));

	/* a rotation prunes too, keeping the one it just made */
	f->r.max_files = 2;
	fake_now_value = 2000;
	put(f, LOG, "x", 1);
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	assert_int_equal(res.nr_pruned, 2);
	assert_true(exists(f, LOG "-2000.gz"));
	assert_true(exists(f, LOG "-100-10.gz"));
	assert_false(exists(f, LOG "-100-2.gz"));
	assert_int_equal(count_files(f), 5);
}

static void test_recover(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	char gz[64];
	size_t len;
	char *before, *after;
	int in, out;

	/* killed while compressing: a stale temp, its pending still there */
	put(f, LOG "-5.gz.tmp", "garbage", 7);
	put(f, LOG "-5.pending", "samples of run 5", 16);
	/* killed after the archive was renamed into place: only cleanup */
	put(f, LOG "-6.pending", "samples of run 6", 16);
	in = openat(f->dirfd, LOG "-6.pending", O_RDONLY);
	out = openat(f->dirfd, LOG "-6.gz", O_WRONLY | O_CREAT, 0600);
	assert_int_equal(ks_gzip_fd(in, out), 0);
	close(in);
	close(out);
	before = gunzip(f, LOG "-6.gz", &len);
	/* a same-second pair, finished oldest first */
	put(f, LOG "-7-1.pending", "seven one", 9);
	/* the live log is not touched by recovery */
	put(f, LOG, "live", 4);

	assert_int_equal(ks_rotate_recover(&f->r, &res), 0);
	assert_int_equal(res.nr_stale, 1);
	assert_int_equal(res.nr_recovered, 3);
	assert_false(exists(f, LOG "-5.gz.tmp"));
	assert_false(exists(f, LOG "-5.pending"));
	assert_false(exists(f, LOG "-6.pending"));
	assert_false(exists(f, LOG "-7-1.pending"));
	assert_archive(f, LOG "-5.gz", "samples of run 5", 16);
	assert_archive(f, LOG "-7-1.gz", "seven one", 9);
	after = gunzip(f, LOG "-6.gz", &len);
	assert_int_equal(len, 16);
	assert_memory_equal(after, "samples of run 6", 16);
	assert_memory_equal(before, after, len);
	free(before);
	free(after);
	assert_true(exists(f, LOG));
	assert_int_equal(count_files(f), 4);
	/* recovery is idempotent */
	assert_int_equal(ks_rotate_recover(&f->r, &res), 0);
	assert_int_equal(res.nr_recovered + res.nr_stale, 0);
	assert_int_equal(ks_rotate_archive_name(gz, sizeof(gz), LOG, 5, 0), 0);
	assert_true(exists(f, gz));
}

static void test_symlink_not_followed(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	char target[128];
	struct stat sb;

	/* a planted link must not make us read, move or truncate its target */
	snprintf(target, sizeof(target), "%s/target", f->path);
	put(f, "target", "precious", 8);
	assert_int_equal(symlinkat(target, f->dirfd, LOG), 0);
	assert_int_equal(ks_rotate(&f->r, true, &res), -ELOOP);
	assert_int_equal(fstatat(f->dirfd, LOG, &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(fstatat(f->dirfd, "target", &sb, 0), 0);
	assert_int_equal(sb.st_size, 8);
	/* nor a pending file that is a link */
	assert_int_equal(symlinkat(target, f->dirfd, LOG "-3.pending"), 0);
	assert_int_equal(ks_rotate_recover(&f->r, &res), -ELOOP);
	assert_false(exists(f, LOG "-3.gz"));
	assert_int_equal(fstatat(f->dirfd, "target", &sb, 0), 0);
	assert_int_equal(sb.st_size, 8);
	/* a directory in its place is refused too */
	unlinkat(f->dirfd, LOG, 0);
	assert_int_equal(mkdirat(f->dirfd, LOG, 0700), 0);
	assert_int_equal(ks_rotate(&f->r, true, &res), -EINVAL);
	unlinkat(f->dirfd, LOG, AT_REMOVEDIR);
}

static void test_failure_keeps_data(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	struct stat sb;

	/*
	 * Make compression fail: a directory sits where the temporary
	 * archive goes.  The data must be back under the live name, with no
	 * archive and no pending file, so appends continue in order.
	 */
	put(f, LOG, "keep me", 7);
	assert_int_equal(mkdirat(f->dirfd, LOG "-1000.gz.tmp", 0700), 0);
	assert_int_equal(ks_rotate(&f->r, true, &res), -EEXIST);
	assert_string_equal(res.archive, "");
	assert_int_equal(fstatat(f->dirfd, LOG, &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(sb.st_size, 7);
	assert_false(exists(f, LOG "-1000.gz"));
	assert_false(exists(f, LOG "-1000.pending"));
	assert_int_equal(unlinkat(f->dirfd, LOG "-1000.gz.tmp", AT_REMOVEDIR), 0);
	/* and the next attempt succeeds */
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	assert_archive(f, LOG "-1000.gz", "keep me", 7);
}

static void test_archive_mode(void **state)
{
	struct fixture *f = *state;
	struct ks_rotate_result res;
	mode_t old = umask(0);

	/* 0600 whatever the umask: stacks and command lines are private */
	put(f, LOG, "secret", 6);
	assert_int_equal(ks_rotate(&f->r, true, &res), 1);
	umask(old);
	assert_archive(f, LOG "-1000.gz", "secret", 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_archive_name),
		cmocka_unit_test(test_parse_archive),
		cmocka_unit_test_setup_teardown(test_gzip_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_threshold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_force, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_second, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retention_numeric, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_reuse_after_prune, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_backwards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recover, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_keeps_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_archive_mode, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Background mode's files and -o/--vmcore's messages: regular files only. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "regular_file.h"

#define FLAGS	(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)

static void test_open_regular(void **state)
{
	char dir[] = "/tmp/kstack-test-regular-XXXXXX";
	int dfd, fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	fd = ks_open_regular(dfd, "file", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	fd = ks_open_regular(dfd, "file", FLAGS, 0);
	assert_true(fd >= 0);
	close(fd);
	/* a FIFO or a directory in its place is refused, without blocking */
	assert_int_equal(mkfifoat(dfd, "fifo", 0600), 0);
	assert_int_equal(ks_open_regular(dfd, "fifo", FLAGS, 0), -EINVAL);
	assert_int_equal(mkdirat(dfd, "dir", 0700), 0);
	assert_int_equal(ks_open_regular(dfd, "dir", FLAGS, 0), -EINVAL);
	assert_int_equal(symlinkat("file", dfd, "link"), 0);
	assert_int_equal(ks_open_regular(dfd, "link", FLAGS, 0), -ELOOP);
	assert_int_equal(ks_open_regular(dfd, "none", FLAGS, 0), -ENOENT);
	/* a second name may be any file: refused, even when created for us */
	assert_int_equal(linkat(dfd, "file", dfd, "hard", 0), 0);
	assert_int_equal(ks_open_regular(dfd, "hard", FLAGS, 0), -EMLINK);
	assert_int_equal(ks_open_regular(dfd, "file", O_RDWR | O_CREAT |
					 O_NOFOLLOW | O_CLOEXEC, 0600), -EMLINK);
	unlinkat(dfd, "hard", 0);
	unlinkat(dfd, "file", 0);
	unlinkat(dfd, "fifo", 0);
	unlinkat(dfd, "link", 0);
	unlinkat(dfd, "dir", AT_REMOVEDIR);
	close(dfd);
	rmdir(dir);
}

static void test_file_kind(void **state)
{
	(void)state;
	assert_string_equal(ks_file_kind(S_IFIFO), "a FIFO");
	assert_string_equal(ks_file_kind(S_IFCHR), "a character device");
	assert_string_equal(ks_file_kind(S_IFBLK), "a block device");
	assert_string_equal(ks_file_kind(S_IFDIR), "a directory");
	assert_string_equal(ks_file_kind(S_IFSOCK), "a socket");
	assert_string_equal(ks_file_kind(S_IFLNK), "not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_regular),
		cmocka_unit_test(test_file_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
